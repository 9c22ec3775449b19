"""Files: model files that are safe to open, and the data files of the command line.

A model file (:func:`save_model`, :func:`load_model`, :func:`model_info`) is a
compressed ``.npz`` archive of a JSON ``metadata`` member (format, versions,
the estimator's public class name, its parameters, a summary, and its fitted
state as its class declares it, with references to arrays), the arrays ``a0``,
``a1``, ... (each recorded with its dtype, shape and SHA-256), the metadata's
``checksum`` and, when saved with a key, an HMAC-SHA256 ``signature``.
Loading treats the file as hostile: nothing is unpickled, the number of
members is read from the zip's end record, every member's header is checked
before its data are read, the metadata is at most 1 MiB of JSON, the estimator
is built from its parameters (checked by its own constraints) and only its
declared fitted state is set, checked against the declaration; everything else
(kernels, caches, inverse maps) is computed again. A bad file is a
:class:`~preimage.exceptions.ModelFileError`. Checksums detect damage; a
signature checked with its key detects changes. Files of earlier formats are
refused: refit the model.

Data files (``.npy``, ``.npz``, ``.csv``, a folder of PNG images) are read by
:func:`read_data` as a 2-D float array and a :class:`DataSource`, and written
back by :func:`write_data` in the same layout. Reading never unpickles;
writing never overwrites unless asked, and the output appears whole or not at
all.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
