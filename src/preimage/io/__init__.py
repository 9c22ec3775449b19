"""Files: model files that are safe to open, and the data files of the command line.

Model files
-----------
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
  under that key (:mod:`preimage.io._model_signature`).

Loading treats the file as hostile. Nothing is unpickled; every member is
streamed with its ``.npy`` header checked (a plain dtype, the recorded shape,
a size within the memory budget and equal to what the zip declares) before
its data are read, and the JSON's nesting and size are bounded
(:mod:`preimage.io._model_archive`); only classes of this library listed
in :data:`LOADABLE` are rebuilt, and the model is then checked as ``fit``
would check it (:mod:`preimage.io._model_checks`). A truncated, damaged,
inconsistent or foreign file is a :class:`~preimage.exceptions.ModelFileError`
that says which, never arbitrary code or an exhausted memory.

The checksums detect damage, not deliberate changes: whoever alters a file
can recompute them. A file signed with a key (``save_model(..., key=...)`` or
the environment variable ``PREIMAGE_MODEL_KEY``) and loaded with it cannot be
altered without the key; loaded without a key it loads unverified. A file
written by another version of preimage loads with a warning. Files written in
an earlier format are upgraded as they are read
(:mod:`preimage.io._model_upgrade`): a model saved by an earlier version of
the library predicts as it did. Fitted estimators also pickle, for users who
choose pickle for files they trust.

Data files
----------
The files the command line reads and writes. :func:`read_data` turns any of
them into a 2-D float array ``(n_samples, n_features)`` and a
:class:`DataSource` saying where it came from (image size, file names,
``.npz`` key, CSV header); :func:`write_data` writes an array back in any of
them, reusing that description so that ``preimage denoise`` gives back data
laid out like its input; :func:`check_output` refuses a bad output before the
work that computes it.

Reading never unpickles (``allow_pickle=False``) and refuses anything that is
not a finite array of real numbers; every message starts with the file's name.
Writing never overwrites unless asked, and the output appears whole or not at
all: a file is written under a temporary name and renamed into place, a folder
of images is filled under a temporary name and renamed into place.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
