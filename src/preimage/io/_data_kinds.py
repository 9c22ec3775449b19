"""The kinds of data file, :class:`DataSource`, and the checks of an output path."""

from dataclasses import dataclass
from pathlib import Path

from preimage.io._files import refusal

#: The kinds of data :func:`read_data` and :func:`write_data` understand, for help text.
DATA_KINDS = (".npy", ".npz", ".csv", "a folder of .png images")

#: A file's kind by its suffix (lower case); a folder is ``"png"``.
SUFFIX_KINDS = {".npy": "npy", ".npz": "npz", ".csv": "csv"}
SUPPORTED = ", ".join(DATA_KINDS[:-1]) + " or " + DATA_KINDS[-1]


@dataclass(frozen=True)
class DataSource:
    """Where a data array came from, for :func:`write_data` to write results alike.

    Parameters
    ----------
    kind : {"npy", "npz", "csv", "png"}
        The file type; ``"png"`` is a folder of images.
    path : pathlib.Path
        The file or folder read.
    image_shape, names, key, header : tuple or str or None
        The image size (height, width[, channels]), image names, ``.npz`` entry
        and CSV header.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import numpy as np
    >>> from preimage.io import read_data
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "images.npy"
    ...     np.save(path, np.zeros((5, 2, 3)))  # five 2 x 3 images
    ...     X, source = read_data(path)
    >>> X.shape, source.kind, source.image_shape
    ((5, 6), 'npy', (2, 3))
    """

    kind: str
    path: Path
    image_shape: tuple[int, ...] | None = None
    names: tuple[str, ...] | None = None
    key: str | None = None
    header: tuple[str, ...] | None = None


def output_kind(path):
    """The kind of data `path` names: its suffix's, or a PNG folder if it has none."""
    suffix = path.suffix.lower()
    if suffix in SUFFIX_KINDS:
        return SUFFIX_KINDS[suffix]
    if suffix == "":
        return "png"
    raise ValueError(
        f"{path}: unsupported kind of output {suffix!r}; supported are "
        f"{SUPPORTED} (a path without a suffix)"
    )


def check_target(path, kind, overwrite):
    """Refuse an existing `path`, unless `overwrite` and it is of the same sort."""
    if not (path.exists() or path.is_symlink()):
        return
    if kind == "png" and not path.is_dir():
        raise NotADirectoryError(
            f"{path}: exists and is a file; refusing to replace a file with a folder of images"
        )
    if kind != "png" and path.is_dir():
        raise IsADirectoryError(
            f"{path}: exists and is a folder; refusing to replace a folder with a .{kind} file"
        )
    if not overwrite:
        raise refusal(path)
