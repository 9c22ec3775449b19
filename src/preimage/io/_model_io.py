"""Writing, checking and reading model files (see :mod:`preimage.io`)."""

from __future__ import annotations

import datetime
import hashlib
import hmac
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, overload

import numpy as np

from preimage._utils.config import get_config
from preimage._utils.memory import format_bytes
from preimage._utils.warnings import warn
from preimage._utils.xp import numpy_copy
from preimage._version import __version__
from preimage.exceptions import ConfigurationWarning, ModelFileError
from preimage.io import _model_archive as _archive
from preimage.io._files import atomic_write
from preimage.io._model_schema import decode_model, encode_model, shown

if TYPE_CHECKING:
    from sklearn.base import BaseEstimator

    _Path = str | os.PathLike[str]
    _Key = bytes | str | None
    _Info = tuple[BaseEstimator, dict[str, Any]]

FORMAT = "preimage-model"

#: The version written and read; files of other versions are refused.
FORMAT_VERSION = 4

#: The environment variable holding the key of signed files when none is passed.
KEY_VARIABLE = "PREIMAGE_MODEL_KEY"


def _bare(value, limit):
    """A name or version from a file for a message: escaped, without quotes."""
    return shown(value, limit).strip("'\"")


def _resolve_key(key):
    """The key as bytes: `key`, else ``$PREIMAGE_MODEL_KEY``, else None."""
    name = "key" if key is not None else KEY_VARIABLE
    key = key if key is not None else os.environ.get(KEY_VARIABLE) or None
    if key is None:
        return None
    if isinstance(key, str):
        key = key.encode("utf-8")
    if not isinstance(key, (bytes, bytearray)):
        raise TypeError(f"{name!r} must be bytes or a str, got {type(key).__name__}")
    if not key:
        raise ValueError(f"{name!r} must not be empty")
    return bytes(key)


def _sign(text, key):
    """HMAC-SHA256 of the metadata bytes `text` under `key`, as hex (ASCII bytes)."""
    return hmac.new(key, text, hashlib.sha256).hexdigest().encode("ascii")


def sha256(array):
    return hashlib.sha256(np.ascontiguousarray(array).view(np.uint8).reshape(-1)).hexdigest()


def json_value(value):
    """A value as plain JSON for the human-readable summary."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, dict):
        return {str(k): json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_value(v) for v in value]
    return repr(value)


_COUNTED = dict(n_components="eigenvalues_", n_training_samples="X_fit_", n_landmarks="landmarks_")


def _summary(estimator):
    summary = {}
    kpca = getattr(estimator, "kpca_", estimator)
    kernel = getattr(kpca, "kernel_", None)
    if kernel is not None:
        summary["kernel"] = repr(kernel)
    for name in ("method", "add_mean"):
        if name in estimator.get_params(deep=False):
            summary[name] = json_value(getattr(estimator, name))
    for name, attribute in _COUNTED.items():
        if getattr(kpca, attribute, None) is not None:
            summary[name] = int(getattr(kpca, attribute).shape[0])
    if getattr(estimator, "component_selection_", None) is not None:
        summary["component_selection"] = json_value(estimator.component_selection_)
    if hasattr(estimator, "n_features_in_"):
        summary["n_features_in"] = int(estimator.n_features_in_)
    return summary


def save_model(
    estimator: BaseEstimator,
    path: str | os.PathLike[str],
    *,
    overwrite: bool = False,
    metadata: dict[str, Any] | None = None,
    key: bytes | str | None = None,
) -> Path:
    """Write a fitted estimator to a model file, atomically.

    Parameters
    ----------
    estimator : fitted estimator of preimage
        Its kernel a name or a kernel of :mod:`preimage.kernels`, not a
        callable. A :class:`~preimage.KernelPCADenoiserCV` is saved as its
        `best_estimator_`.
    path : str or Path
        The file (conventionally ``.npz``); it appears whole or not at all.
    overwrite : bool, default=False
        Replace an existing file.
    metadata : dict, optional
        Extra JSON-serialisable facts to keep with the model.
    key : bytes or str, optional
        Sign the file with this secret key (HMAC-SHA256 of the metadata, which
        holds every array's SHA-256); default ``$PREIMAGE_MODEL_KEY``, if set.

    Returns
    -------
    pathlib.Path
        The path written.

    Raises
    ------
    FileExistsError
        If `path` exists and `overwrite` is False.
    sklearn.exceptions.NotFittedError
        If `estimator` is not fitted.
    TypeError
        If `estimator` is not of preimage, or holds what a model file cannot
        store (a callable, an array of objects).

    See Also
    --------
    load_model : Read the model back.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import numpy as np
    >>> from preimage import KernelPCA, load_model, save_model
    >>> X = np.random.default_rng(0).normal(size=(20, 3))
    >>> kpca = KernelPCA(2, kernel="rbf", gamma=0.5).fit(X)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = save_model(kpca, Path(folder) / "kpca.npz")
    ...     loaded = load_model(path)
    >>> path.name
    'kpca.npz'
    >>> bool(np.array_equal(loaded.transform(X), kpca.transform(X)))
    True
    """
    import sklearn
    from sklearn.utils.validation import check_is_fitted

    if not hasattr(estimator, "get_params"):
        raise TypeError(
            f"'estimator' must be a fitted estimator of preimage, got {type(estimator).__name__}"
        )
    from preimage import KernelPCADenoiserCV

    if isinstance(estimator, KernelPCADenoiserCV) and hasattr(estimator, "best_estimator_"):
        estimator = estimator.best_estimator_  # what denoises, not the search
    key = _resolve_key(key)
    check_is_fitted(estimator, msg="'estimator' (%(name)s) is not fitted; fit it before saving it")
    moved: set[str] = set()
    estimator = numpy_copy(estimator, moved)
    if moved:
        warn(
            f"the model's {' and '.join(sorted(moved))} arrays were copied to NumPy for the "
            "file: load_model gives a model fitted on NumPy arrays",
            ConfigurationWarning,
        )
    tree, arrays = encode_model(estimator)
    meta = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "preimage_version": __version__,
        "numpy_version": np.__version__,
        "sklearn_version": sklearn.__version__,
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "estimator": type(estimator).__name__,
        "summary": _summary(estimator),
        "user": json_value(dict(metadata or {})),
        "arrays": {
            k: {"dtype": a.dtype.str, "shape": list(a.shape), "sha256": sha256(a), "holds": where}
            for k, (a, where) in arrays.items()
        },
        "model": tree,
    }
    text = json.dumps(meta, allow_nan=True).encode("utf-8")
    if len(text) > _archive.MAX_METADATA_BYTES:
        raise ValueError(
            f"the model's metadata would take {format_bytes(len(text))}, over the limit of "
            f"{format_bytes(_archive.MAX_METADATA_BYTES)}; keep 'metadata' small"
        )
    members = {"metadata": text, "checksum": hashlib.sha256(text).hexdigest().encode()}
    members |= {} if key is None else {"signature": _sign(text, key)}
    entries = {name: np.frombuffer(data, dtype=np.uint8) for name, data in members.items()}
    entries.update({name: a for name, (a, _) in arrays.items()})

    def write(tmp):
        with open(tmp, "wb") as f:
            np.savez_compressed(f, **entries)

    return atomic_write(path, write, overwrite=overwrite)


def _read(path, key=None):
    """(metadata, open ZipFile, signed, verified), checksum and signature verified."""
    path = str(path)
    key = _resolve_key(key)
    archive = _archive.open_archive(path)
    try:
        names = archive.namelist()
        if "metadata.npy" not in names or "checksum.npy" not in names:
            raise ModelFileError(f"{path}: not a preimage model file (no metadata)")

        def member(name, shape=(64,), limit=64):
            return _archive.read_member(archive, name, path, f"the {name}", "|u1", shape, limit)

        text = member("metadata", None, _archive.MAX_METADATA_BYTES).tobytes()
        checksum = member("checksum").tobytes()
        if not hmac.compare_digest(hashlib.sha256(text).hexdigest().encode(), checksum):
            raise ModelFileError(
                f"{path}: the metadata does not match its checksum; the file is damaged "
                "(a checksum detects damage, not deliberate changes: sign files with a key "
                "to detect those)"
            )
        signed = "signature.npy" in names
        if key is not None:
            if not signed:
                raise ModelFileError(
                    f"{path}: the file is not signed, but a key was given; it was not "
                    "written with that key"
                )
            if not hmac.compare_digest(_sign(text, key), member("signature").tobytes()):
                raise ModelFileError(
                    f"{path}: the signature does not match the key given; the file was "
                    "altered, or signed with another key"
                )
        try:
            meta = json.loads(text.decode("utf-8"))
        except (ValueError, RecursionError) as exc:
            raise ModelFileError(f"{path}: unreadable metadata ({exc})") from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise ModelFileError(f"{path}: not a preimage model file")
        version, written_by = meta.get("format_version"), meta.get("preimage_version", "?")
        if version != FORMAT_VERSION or isinstance(version, bool):
            newer = isinstance(version, int) and version > FORMAT_VERSION
            raise ModelFileError(
                f"{path}: model format version {_bare(version, 20)}, written by preimage "
                f"{_bare(written_by, 40)}; this preimage ({__version__}) reads version "
                f"{FORMAT_VERSION} only: "
                + ("upgrade preimage to load it" if newer else "refit the model and save it again")
            )
    except BaseException:
        archive.close()
        raise
    return meta, archive, signed, key is not None


def _read_arrays(meta, archive, path):
    """The arrays the metadata records, each checked against its record."""
    specs = meta.get("arrays", {})
    if not isinstance(specs, dict) or len(specs) > _archive.MAX_MEMBERS:
        raise ModelFileError(f"{path}: the metadata's 'arrays' is not a mapping of arrays")
    records, total = {}, 0
    for name, spec in specs.items():
        what = f"array {_bare(name, 20)} ({shown(spec.get('holds') if isinstance(spec, dict) else None)})"
        shape = spec.get("shape") if isinstance(spec, dict) else None
        good = isinstance(shape, list) and all(type(n) is int and 0 <= n < 2**63 for n in shape)
        good = good and len(shape) <= 32 and len(name) <= 10 and name[:1] == "a"
        if not (good and name[1:].isdigit()):
            raise ModelFileError(f"{path}: {what} has a malformed record; the file was altered")
        dtype = _archive.plain_dtype(spec.get("dtype"))
        if dtype is None:
            raise ModelFileError(
                f"{path}: {what}'s recorded dtype {shown(spec.get('dtype'), 40)} is not a plain "
                "numeric or string dtype; the file was altered"
            )
        count = int(np.prod(shape, dtype=np.float64))
        records[name] = (what, spec, count * dtype.itemsize)
        # strings become Python objects: about 84 bytes each beyond their characters
        total += count * (dtype.itemsize + (84 if dtype.kind == "U" else 0))
    budget = get_config()["memory_budget"]
    if total > budget:
        raise ModelFileError(
            f"{path}: the model's arrays would need {format_bytes(total)}, "
            f"over the memory budget of {format_bytes(budget)}; raise the budget "
            "(preimage.set_config(memory_budget=...) or PREIMAGE_MEMORY_BUDGET) to load it"
        )
    arrays = {}
    for name, (what, spec, size) in records.items():
        array = _archive.read_member(archive, name, path, what, spec["dtype"], spec["shape"], size)
        if not hmac.compare_digest(sha256(array), str(spec.get("sha256"))):
            raise ModelFileError(
                f"{path}: {what} does not match its recorded checksum; the file is damaged"
            )
        arrays[name] = array
    return arrays


def model_info(
    path: str | os.PathLike[str], *, key: bytes | str | None = None, check_state: bool = False
) -> dict[str, Any]:
    """Return the metadata of a model file, checked, without building the model.

    Parameters
    ----------
    path : str or path-like
        The model file.
    key : bytes or str, optional
        The key the file was signed with; default ``$PREIMAGE_MODEL_KEY``.
    check_state : bool, default=False
        Load the model too, with every check, and describe what was loaded.

    Returns
    -------
    dict
        ``format_version``, ``preimage_version``, ``created``, ``estimator``,
        ``params``, ``summary``, ``user`` (the `metadata` saved), ``arrays``,
        ``signed`` and ``verified`` (checked with the key).

    Raises
    ------
    ModelFileError
        As :func:`load_model`.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import numpy as np
    >>> from preimage import KernelPCA, model_info, save_model
    >>> X = np.random.default_rng(0).normal(size=(20, 3))
    >>> kpca = KernelPCA(2, kernel="rbf", gamma=0.5).fit(X)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = save_model(kpca, Path(folder) / "kpca.npz", metadata={"data": "demo"})
    ...     info = model_info(path)
    >>> info["estimator"], info["user"], info["signed"]
    ('KernelPCA', {'data': 'demo'}, False)
    >>> info["summary"]["kernel"], info["summary"]["n_components"]
    ('GaussianKernel(gamma=0.5)', 2)
    """
    if check_state:
        model, meta, signed, verified = _load(path, key)
        return _described(meta, signed, verified, model)
    meta, archive, signed, verified = _read(path, key)
    archive.close()
    return _described(meta, signed, verified)


def _described(meta, signed, verified, model=None):
    """What :func:`model_info` returns, of the loaded `model` if there is one."""
    if model is not None:
        info = {"estimator": type(model).__name__, "summary": _summary(model)}
        meta = {**meta, **info, "params": json_value(model.get_params(deep=False))}
    info = {k: v for k, v in meta.items() if k != "model"}
    tree = meta.get("model")
    info.setdefault("params", tree.get("params") if isinstance(tree, dict) else None)
    return {**info, "signed": signed, "verified": verified}


@overload
def load_model(
    path: _Path, *, key: _Key = ..., with_info: Literal[False] = ...
) -> BaseEstimator: ...
@overload
def load_model(path: _Path, *, key: _Key = ..., with_info: Literal[True]) -> _Info: ...


def load_model(path: _Path, *, key: _Key = None, with_info: bool = False) -> BaseEstimator | _Info:
    """Read a model file written by :func:`~preimage.io.save_model`.

    Files from anyone are safe to load (see :mod:`preimage.io`); a file signed
    with a key and loaded with it cannot be altered without the key.

    Parameters
    ----------
    path : str or path-like
        The model file.
    key : bytes or str, optional
        The key to verify the signature with (an unsigned file is then
        refused); default ``$PREIMAGE_MODEL_KEY``. Without one, a signed file
        loads unverified.
    with_info : bool, default=False
        Also return ``model_info(path, check_state=True)``.

    Returns
    -------
    estimator or tuple of (estimator, dict)
        The model, or ``(model, info)``.

    Raises
    ------
    FileNotFoundError
        For a missing `path`.
    ModelFileError
        For a file that is not a model file, is damaged or inconsistent, of a
        newer format, or whose signature does not match the key.

    Warns
    -----
    UserWarning
        For a file written by another version of preimage.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import numpy as np
    >>> from preimage import KernelPCADenoiser, load_model, save_model
    >>> X = np.random.default_rng(0).normal(size=(30, 2))
    >>> denoiser = KernelPCADenoiser(2, gamma=0.5).fit(X)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = save_model(denoiser, Path(folder) / "denoiser.npz", key="secret")
    ...     loaded, info = load_model(path, key="secret", with_info=True)
    >>> type(loaded).__name__, info["verified"]
    ('KernelPCADenoiser', True)
    >>> bool(np.array_equal(loaded.transform(X[:5]), denoiser.transform(X[:5])))
    True
    """
    if not isinstance(with_info, (bool, np.bool_)):
        raise TypeError(f"'with_info' must be True or False, got {with_info!r}")
    model, meta, signed, verified = _load(path, key)
    if not with_info:
        return model
    return model, _described(meta, signed, verified, model)


def _load(path, key):
    meta, archive, signed, verified = _read(path, key)
    with archive:
        arrays = _read_arrays(meta, archive, path)
    written_by = meta.get("preimage_version")
    if written_by != __version__:
        warn(
            f"{path} was written by preimage {_bare(written_by, 40)}, and this is preimage "
            f"{__version__}; it is loaded and checked, but may behave differently",
            UserWarning,
        )
    return decode_model(meta.get("model"), arrays, path), meta, signed, verified
