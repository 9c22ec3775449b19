"""Writing, checking and reading model files (see :mod:`preimage.model_files`)."""

from __future__ import annotations

import datetime
import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any
import zipfile

import numpy as np

from .._files import atomic_write
from .._version import __version__
from ..exceptions import ModelFileError
from ._codec import Decoder, Encoder, json_value, sha256
from ._upgrade import upgrade_model, upgrade_state

if TYPE_CHECKING:
    from sklearn.base import BaseEstimator

__all__ = ["FORMAT", "FORMAT_VERSION", "load_model", "model_info", "save_model"]

FORMAT = "preimage-model"

#: The version written; files of a higher version are refused with a request
#: to upgrade, files of a lower one upgraded as they are read
#: (:mod:`preimage.model_files._upgrade`).
FORMAT_VERSION = 3


def _summary(estimator):
    summary = {}
    kpca = getattr(estimator, "kpca_", estimator)
    kernel = getattr(kpca, "kernel_", None)
    if kernel is not None:
        summary["kernel"] = repr(kernel)
    for name in ("method", "add_mean"):
        if name in estimator.get_params(deep=False):
            summary[name] = json_value(getattr(estimator, name))
    if getattr(kpca, "eigenvalues_", None) is not None:
        summary["n_components"] = int(kpca.eigenvalues_.shape[0])
    if getattr(kpca, "X_fit_", None) is not None:
        summary["n_training_samples"] = int(kpca.X_fit_.shape[0])
    if getattr(kpca, "landmarks_", None) is not None:
        summary["n_landmarks"] = int(kpca.landmarks_.shape[0])
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
) -> Path:
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

    if not hasattr(estimator, "get_params"):
        raise TypeError(
            f"'estimator' must be a fitted estimator of preimage, got {type(estimator).__name__}"
        )
    if not any(k.endswith("_") and not k.startswith("_") for k in vars(estimator)):
        raise NotFittedError(
            f"'estimator' ({type(estimator).__name__}) is not fitted; fit it before saving it"
        )
    encoder = Encoder()
    state = encoder.encode(estimator, "estimator")
    meta = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "preimage_version": __version__,
        "numpy_version": np.__version__,
        "sklearn_version": sklearn.__version__,
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "estimator": type(estimator).__name__,
        "params": json_value(estimator.get_params(deep=False)),
        "summary": _summary(estimator),
        "user": json_value(dict(metadata or {})),
        "arrays": {
            key: {
                "dtype": a.dtype.str,
                "shape": list(a.shape),
                "sha256": sha256(a),
                "holds": where,
            }
            for key, a, where in encoder.arrays
        },
        "state": state,
    }
    text = json.dumps(meta, allow_nan=True).encode("utf-8")
    entries = {
        "metadata": np.frombuffer(text, dtype=np.uint8),
        "checksum": np.frombuffer(hashlib.sha256(text).hexdigest().encode(), dtype=np.uint8),
    }
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
        reason = (
            "neither a NumPy archive nor a NumPy array"
            if "pickled" in str(exc)
            else f"{type(exc).__name__}: {exc}"
        )
        raise ModelFileError(
            f"{path}: not a preimage model file, or truncated ({reason})"
        ) from None
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
        raise ModelFileError(
            f"{path}: damaged or truncated model file ({type(exc).__name__}: {exc})"
        ) from None
    if hashlib.sha256(text).hexdigest() != checksum:
        archive.close()
        raise ModelFileError(
            f"{path}: the metadata does not match its checksum; the file was altered or damaged"
        )
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
        archive.close()
        raise ModelFileError(
            f"{path}: model format version {version!r}, written by preimage "
            f"{meta.get('preimage_version', '?')}; this preimage ({__version__}) reads "
            f"versions up to {FORMAT_VERSION}: upgrade preimage to load it"
        )
    return meta, archive


def model_info(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The metadata of a model file, checked but without building the model.

    Returns
    -------
    dict
        ``format_version``, ``preimage_version``, ``created``, ``estimator``,
        ``params``, ``summary`` (kernel, method, component and sample counts,
        how an automatic component count was chosen, input width), ``user`` (what was passed as `metadata` to
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


def load_model(path: str | os.PathLike[str]) -> BaseEstimator:
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
                raise ModelFileError(
                    f"{path}: array {key} ({spec.get('holds')}) is "
                    "missing; the file is truncated or altered"
                ) from None
            except Exception as exc:
                raise ModelFileError(
                    f"{path}: array {key} ({spec.get('holds')}) cannot be "
                    f"read ({type(exc).__name__}: {exc}); the file is "
                    "damaged or altered"
                ) from None
            if (
                array.dtype.str != spec["dtype"]
                or list(array.shape) != spec["shape"]
                or sha256(array) != spec["sha256"]
            ):
                raise ModelFileError(
                    f"{path}: array {key} ({spec.get('holds')}) does not "
                    "match its recorded checksum; the file was altered"
                )
            arrays[key] = array
    version = meta["format_version"]
    try:
        model = Decoder(arrays, path).decode(upgrade_state(meta["state"], version))
    except ModelFileError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, ImportError) as exc:
        raise ModelFileError(
            f"{path}: the model's state is malformed ({type(exc).__name__}: {exc})"
        ) from None
    if not hasattr(model, "get_params"):
        raise ModelFileError(f"{path}: does not hold an estimator")
    return upgrade_model(model, version)
