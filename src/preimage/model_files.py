"""Model files that are safe to open: NumPy arrays and JSON, never pickle.

A model file is a compressed ``.npz`` archive (a zip of ``.npy``
files) holding

- ``metadata``: UTF-8 JSON, as an array of bytes, with the format name and
  version, the library versions that wrote it, the estimator's class and
  parameters, a human-readable summary, and the estimator's fitted state as a
  tree whose leaves are JSON numbers and strings or references to arrays;
- ``a0``, ``a1``, ...: the numeric arrays of that state, each recorded in the
  metadata with its dtype, shape and SHA-256;
- ``checksum``: the SHA-256 of the metadata bytes.

Loading reads with ``allow_pickle=False``, rebuilds only classes of this
library listed in :data:`LOADABLE`, and checks every checksum, so a
truncated, altered or foreign file is a :class:`ModelFileError` that says
which, never arbitrary code. Fitted estimators also pickle, for users who
choose pickle for files they trust.
"""

import datetime
import hashlib
import importlib
import json
import zipfile

import numpy as np

from ._files import atomic_write
from .exceptions import ModelFileError

__all__ = ["FORMAT", "FORMAT_VERSION", "LOADABLE", "load_model", "model_info", "save_model"]

FORMAT = "preimage-model"

#: The version written; files of a higher version are refused with a request
#: to upgrade.
FORMAT_VERSION = 1

#: Classes a model file may name, by module and name. Only these are rebuilt.
LOADABLE = {
    "preimage.estimators._kernel_pca": ("KernelPCA",),
    "preimage.estimators._denoiser": ("KernelPCADenoiser",),
    "preimage.estimators._reduced_kpca": ("ReducedKernelPCA",),
    "preimage.estimators._reduced_svm": ("ReducedSVC", "ReducedSVR"),
    "preimage.estimators._sparse_regression": ("WienerRegressor", "SequentialSVR"),
    "preimage.kernels._dot": ("LinearKernel", "PolynomialKernel", "SigmoidKernel"),
    "preimage.kernels._radial": ("GaussianKernel", "LaplacianKernel"),
    "preimage.kernels._sine": ("SineKernel",),
    "preimage.kernels._string": ("SpectrumKernel", "JointSpectrumKernel",
                                 "NormalizedKernel", "KernelDistanceRBF"),
    "preimage.kpca": ("KernelPCAResult",),
    "preimage.solvers._closed_form": ("ClosedFormPreimage",),
    "preimage.solvers._exact": ("ExactPreimage",),
    "preimage.solvers._fixed_point": ("FixedPointPreimage",),
    "preimage.solvers._gradient": ("GradientPreimage",),
    "preimage.solvers._learned": ("LearnedPreimage",),
    "preimage.solvers._mds": ("MDSPreimage",),
    "preimage.reduced_set._result": ("ReducedSet",),
    "preimage._expansion": ("FeatureExpansion",),
    "preimage.sparse_regression": ("WienerState", "SequentialSVRResult"),
}

_ARRAY_KINDS = "biufcUS"


def _class_name(cls):
    return f"{cls.__module__}:{cls.__qualname__}"


def _loadable_class(name, path):
    module, _, qualname = name.partition(":")
    if qualname not in LOADABLE.get(module, ()):
        raise ModelFileError(f"{path}: names the class {name!r}, which preimage does not "
                             "load from model files (altered, or not a preimage model)")
    return getattr(importlib.import_module(module), qualname)


class _Encoder:
    """The fitted state as a JSON tree plus a list of arrays.

    Arrays and objects met twice are stored once and referenced, so shared
    state stays shared after loading.
    """

    def __init__(self):
        self.arrays = []
        self.seen = {}     # id -> reference
        self.keep = []     # keeps encoded objects alive so ids stay unique

    def encode(self, value, where):
        if value is None or isinstance(value, (bool, int, float, str)):
            if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 2**53:
                return {"__int__": str(value)}
            return value
        if isinstance(value, np.generic):
            return {"__scalar__": [value.dtype.str, value.item()]}
        if isinstance(value, np.dtype):
            return {"__dtype__": value.str}
        if isinstance(value, (list, tuple)):
            items = [self.encode(v, f"{where}[{i}]") for i, v in enumerate(value)]
            return items if isinstance(value, list) else {"__tuple__": items}
        if isinstance(value, dict):
            if all(isinstance(k, str) for k in value) and not any(
                    k.startswith("__") for k in value):
                return {k: self.encode(v, f"{where}[{k!r}]") for k, v in value.items()}
            return {"__dict__": [[self.encode(k, f"{where} key"),
                                  self.encode(v, f"{where}[{k!r}]")]
                                 for k, v in value.items()]}
        if id(value) in self.seen:
            return {"__ref__": self.seen[id(value)]}
        if isinstance(value, np.ndarray):
            if value.dtype.kind not in _ARRAY_KINDS or value.dtype.hasobject:
                raise TypeError(f"{where} is an array of dtype {value.dtype}; model files "
                                "hold numeric and string arrays only (use pickle)")
            key = f"a{len(self.arrays)}"
            self.arrays.append((key, value, where))
            self._remember(value, {"array": key})
            return {"__array__": key}
        cls = type(value)
        if cls.__qualname__ not in LOADABLE.get(cls.__module__, ()):
            raise TypeError(
                f"{where} is a {cls.__module__}.{cls.__qualname__}, which a model file "
                "cannot hold (model files hold preimage's own estimators, kernels and "
                "solvers with NumPy arrays; use pickle for anything else)")
        ref = self._remember(value, None)
        state = vars(value)
        return {"__object__": _class_name(cls), "id": ref["object"],
                "state": {k: self.encode(v, f"{where}.{k}") for k, v in state.items()}}

    def _remember(self, value, ref):
        if ref is None:
            ref = {"object": len(self.seen)}
        self.seen[id(value)] = ref
        self.keep.append(value)
        return ref


class _Decoder:
    def __init__(self, arrays, path):
        self.arrays = arrays
        self.path = path
        self.objects = {}

    def decode(self, node):
        if isinstance(node, list):
            return [self.decode(v) for v in node]
        if not isinstance(node, dict):
            return node
        if "__array__" in node:
            return self.arrays[node["__array__"]]
        if "__ref__" in node:
            ref = node["__ref__"]
            if "array" in ref:
                return self.arrays[ref["array"]]
            return self.objects[ref["object"]]
        if "__tuple__" in node:
            return tuple(self.decode(v) for v in node["__tuple__"])
        if "__dict__" in node:
            return {self.decode(k): self.decode(v) for k, v in node["__dict__"]}
        if "__int__" in node:
            return int(node["__int__"])
        if "__scalar__" in node:
            dtype, value = node["__scalar__"]
            return np.array(value, dtype=np.dtype(dtype))[()]
        if "__dtype__" in node:
            return np.dtype(node["__dtype__"])
        if "__object__" in node:
            cls = _loadable_class(node["__object__"], self.path)
            obj = cls.__new__(cls)
            self.objects[node["id"]] = obj
            # Frozen dataclasses too: their fields live in the instance __dict__.
            vars(obj).update({k: self.decode(v) for k, v in node["state"].items()})
            return obj
        return {k: self.decode(v) for k, v in node.items()}


def _json_value(value):
    """A parameter as plain JSON for the human-readable summary."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, dict):
        return {str(k): _json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_value(v) for v in value]
    return repr(value)


def _summary(estimator):
    summary = {}
    kpca = getattr(estimator, "kpca_", estimator)
    kernel = getattr(kpca, "kernel_", None)
    if kernel is not None:
        summary["kernel"] = repr(kernel)
    for name in ("method", "add_mean"):
        if name in estimator.get_params(deep=False):
            summary[name] = _json_value(getattr(estimator, name))
    if getattr(kpca, "eigenvalues_", None) is not None:
        summary["n_components"] = int(kpca.eigenvalues_.shape[0])
    if getattr(kpca, "X_fit_", None) is not None:
        summary["n_training_samples"] = int(kpca.X_fit_.shape[0])
    if getattr(kpca, "landmarks_", None) is not None:
        summary["n_landmarks"] = int(kpca.landmarks_.shape[0])
    if hasattr(estimator, "n_features_in_"):
        summary["n_features_in"] = int(estimator.n_features_in_)
    return summary


def _sha256(array):
    return hashlib.sha256(np.ascontiguousarray(array).view(np.uint8).reshape(-1)).hexdigest()


def save_model(estimator, path, *, overwrite=False, metadata=None):
    """Write a fitted estimator to a model file, atomically.

    Parameters
    ----------
    estimator : fitted estimator of preimage
        :class:`~preimage.KernelPCA`, :class:`~preimage.KernelPCADenoiser`,
        the reduced-set estimators, :class:`~preimage.WienerRegressor` or
        :class:`~preimage.SequentialSVR`, with a kernel given by name or as a
        kernel of :mod:`preimage.kernels` (a Python callable cannot be stored).
    path : str or Path
        The file (conventionally ``.npz``). It is written to a temporary file
        beside it and renamed, so it appears whole or not at all.
    overwrite : bool, default=False
        Replace an existing file; without it an existing `path` is a
        :class:`FileExistsError` and is left untouched.
    metadata : dict, optional
        Extra JSON-serialisable facts to keep with the model (the command line
        keeps the image shape and where the training data came from).

    Returns
    -------
    Path
        The path written.
    """
    import sklearn
    from sklearn.exceptions import NotFittedError

    from ._version import __version__

    if not hasattr(estimator, "get_params"):
        raise TypeError(f"'estimator' must be a fitted estimator of preimage, got "
                        f"{type(estimator).__name__}")
    if not any(k.endswith("_") and not k.startswith("_") for k in vars(estimator)):
        raise NotFittedError(f"'estimator' ({type(estimator).__name__}) is not fitted; "
                             "fit it before saving it")
    encoder = _Encoder()
    state = encoder.encode(estimator, "estimator")
    meta = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "preimage_version": __version__,
        "numpy_version": np.__version__,
        "sklearn_version": sklearn.__version__,
        "created": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "estimator": type(estimator).__name__,
        "params": _json_value(estimator.get_params(deep=False)),
        "summary": _summary(estimator),
        "user": _json_value(dict(metadata or {})),
        "arrays": {key: {"dtype": a.dtype.str, "shape": list(a.shape), "sha256": _sha256(a),
                         "holds": where}
                   for key, a, where in encoder.arrays},
        "state": state,
    }
    text = json.dumps(meta, allow_nan=True).encode("utf-8")
    entries = {"metadata": np.frombuffer(text, dtype=np.uint8),
               "checksum": np.frombuffer(hashlib.sha256(text).hexdigest().encode(),
                                         dtype=np.uint8)}
    entries.update({key: a for key, a, _ in encoder.arrays})

    def write(tmp):
        with open(tmp, "wb") as f:
            np.savez_compressed(f, **entries)

    return atomic_write(path, write, overwrite=overwrite)


def _read(path):
    """(metadata, open NpzFile) with the metadata checked."""
    path = str(path)
    try:
        archive = np.load(path, allow_pickle=False)
    except FileNotFoundError:
        raise
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:
        # np.load takes anything that is neither a zip nor an .npy file for a
        # pickle, and says so; a model file is never a pickle.
        reason = ("neither a NumPy archive nor a NumPy array" if "pickled" in str(exc)
                  else f"{type(exc).__name__}: {exc}")
        raise ModelFileError(f"{path}: not a preimage model file, or truncated "
                             f"({reason})") from None
    if not isinstance(archive, np.lib.npyio.NpzFile):
        raise ModelFileError(f"{path}: a single NumPy array, not a preimage model file")
    try:
        if "metadata" not in archive.files or "checksum" not in archive.files:
            raise ModelFileError(f"{path}: not a preimage model file (no metadata)")
        text = archive["metadata"].tobytes()
        checksum = archive["checksum"].tobytes().decode("ascii", "replace")
    except ModelFileError:
        archive.close()
        raise
    except Exception as exc:  # zlib, zip CRC, short reads: a damaged archive
        archive.close()
        raise ModelFileError(f"{path}: damaged or truncated model file "
                             f"({type(exc).__name__}: {exc})") from None
    if hashlib.sha256(text).hexdigest() != checksum:
        archive.close()
        raise ModelFileError(f"{path}: the metadata does not match its checksum; "
                             "the file was altered or damaged")
    try:
        meta = json.loads(text.decode("utf-8"))
    except ValueError as exc:
        archive.close()
        raise ModelFileError(f"{path}: unreadable metadata ({exc})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        archive.close()
        raise ModelFileError(f"{path}: not a preimage model file")
    version = meta.get("format_version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        from ._version import __version__

        archive.close()
        raise ModelFileError(
            f"{path}: model format version {version!r}, written by preimage "
            f"{meta.get('preimage_version', '?')}; this preimage ({__version__}) reads "
            f"versions up to {FORMAT_VERSION}: upgrade preimage to load it")
    return meta, archive


def model_info(path):
    """The metadata of a model file, checked but without building the model.

    Returns
    -------
    dict
        ``format_version``, ``preimage_version``, ``created``, ``estimator``,
        ``params``, ``summary`` (kernel, method, component and sample counts,
        input width), ``user`` (what was passed as `metadata` to
        :func:`save_model`) and ``arrays`` (dtype, shape, checksum and role of
        each stored array); the internal ``state`` tree is left out.

    Raises
    ------
    ModelFileError
        For a file that is not a model file, is truncated or altered, or is of
        a newer format.
    """
    meta, archive = _read(path)
    archive.close()
    return {k: v for k, v in meta.items() if k != "state"}


def load_model(path):
    """Read a model file written by :func:`save_model`.

    Nothing is unpickled: arrays are read with ``allow_pickle=False``, every
    array is checked against the shape, dtype and SHA-256 recorded when it was
    written, and only the classes in :data:`LOADABLE` are rebuilt. The model
    predicts exactly as the saved one did.

    Raises
    ------
    FileNotFoundError
        For a missing `path`.
    ModelFileError
        For a file that is not a model file, is truncated or altered, or is of
        a newer format; the message says which.
    """
    meta, archive = _read(path)
    arrays = {}
    with archive:
        for key, spec in meta.get("arrays", {}).items():
            try:
                array = archive[key]
            except KeyError:
                raise ModelFileError(f"{path}: array {key} ({spec.get('holds')}) is "
                                     "missing; the file is truncated or altered") from None
            except Exception as exc:
                raise ModelFileError(f"{path}: array {key} ({spec.get('holds')}) cannot be "
                                     f"read ({type(exc).__name__}: {exc}); the file is "
                                     "damaged or altered") from None
            if (array.dtype.str != spec["dtype"] or list(array.shape) != spec["shape"]
                    or _sha256(array) != spec["sha256"]):
                raise ModelFileError(f"{path}: array {key} ({spec.get('holds')}) does not "
                                     "match its recorded checksum; the file was altered")
            arrays[key] = array
    try:
        model = _Decoder(arrays, path).decode(meta["state"])
    except ModelFileError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, ImportError) as exc:
        raise ModelFileError(f"{path}: the model's state is malformed "
                             f"({type(exc).__name__}: {exc})") from None
    if not hasattr(model, "get_params"):
        raise ModelFileError(f"{path}: does not hold an estimator")
    return model
