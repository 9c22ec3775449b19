"""Data sets on disk: ``.npy``, ``.npz`` and ``.csv`` files, and folders of PNG images.

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

from .._lazy import lazy_exports

# For static type checkers (any TYPE_CHECKING is true to them); at run time
# lazy_exports reads these imports and makes each at the name's first use.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._kinds import DATA_KINDS, DataSource
    from ._read import read_data
    from ._write import check_output, write_data

__getattr__, __dir__ = lazy_exports(__name__, __file__)

__all__ = ["DATA_KINDS", "DataSource", "check_output", "read_data", "write_data"]
