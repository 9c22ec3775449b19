"""Files: model files that are safe to open, and the data files of the command line.

A model file (:func:`save_model`, :func:`load_model`, :func:`model_info`) is a
compressed ``.npz`` archive of a JSON ``metadata`` member (format, versions,
the estimator's class, parameters, summary and fitted state as a tree whose
leaves are JSON values or references to arrays), the arrays ``a0``, ``a1``,
... (each recorded with its dtype, shape and SHA-256), the metadata's
``checksum`` and, when saved with a key, an HMAC-SHA256 ``signature``.
Loading treats the file as hostile: nothing is unpickled, every member's
header is checked before its data are read, the JSON is bounded, only the
classes in :data:`LOADABLE` are rebuilt and the model is checked as ``fit``
would check it. A bad file is a :class:`~preimage.exceptions.ModelFileError`.
Checksums detect damage; a signature checked with its key detects changes.
Files of earlier formats are upgraded as they are read.

Data files (``.npy``, ``.npz``, ``.csv``, a folder of PNG images) are read by
:func:`read_data` as a 2-D float array and a :class:`DataSource`, and written
back by :func:`write_data` in the same layout. Reading never unpickles;
writing never overwrites unless asked, and the output appears whole or not at
all.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
