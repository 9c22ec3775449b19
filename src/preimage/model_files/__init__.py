"""Model files that are safe to open: NumPy arrays and JSON, never pickle.

A model file is a compressed ``.npz`` archive (a zip of ``.npy``
files) holding

- ``metadata``: UTF-8 JSON, as an array of bytes, with the format name and
  version, the library versions that wrote it, the estimator's class and
  parameters, a human-readable summary, and the estimator's fitted state as a
  tree whose leaves are JSON numbers and strings or references to arrays;
- ``a0``, ``a1``, ...: the numeric arrays of that state, each recorded in the
  metadata with its dtype, shape and SHA-256;
- ``checksum``: the SHA-256 of the metadata bytes;
- ``signature`` (when saved with a key): HMAC-SHA256 of the metadata bytes
  under that key (:mod:`preimage.model_files._signature`).

Loading treats the file as hostile. Nothing is unpickled; every member is
streamed with its ``.npy`` header checked (a plain dtype, the recorded shape,
a size within the memory budget and equal to what the zip declares) before
its data are read, and the JSON's nesting and size are bounded
(:mod:`preimage.model_files._archive`); only classes of this library listed
in :data:`LOADABLE` are rebuilt, and the model is then checked as ``fit``
would check it (:mod:`preimage.model_files._checks`). A truncated, damaged,
inconsistent or foreign file is a :class:`~preimage.exceptions.ModelFileError`
that says which, never arbitrary code or an exhausted memory.

The checksums detect damage, not deliberate changes: whoever alters a file
can recompute them. A file signed with a key (``save_model(..., key=...)`` or
the environment variable ``PREIMAGE_MODEL_KEY``) and loaded with it cannot be
altered without the key; loaded without a key it loads unverified. A file
written by another version of preimage loads with a warning. Files written in
an earlier format are upgraded as they are read
(:mod:`preimage.model_files._upgrade`): a model saved by an earlier version of
the library predicts as it did. Fitted estimators also pickle, for users who
choose pickle for files they trust.
"""

from .._lazy import lazy_exports

# For static type checkers (any TYPE_CHECKING is true to them); at run time
# lazy_exports reads these imports and makes each at the name's first use.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._codec import LOADABLE
    from ._io import FORMAT, FORMAT_VERSION, load_model, model_info, save_model

__getattr__, __dir__ = lazy_exports(__name__, __file__)

__all__ = ["FORMAT", "FORMAT_VERSION", "LOADABLE", "load_model", "model_info", "save_model"]
