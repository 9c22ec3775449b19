"""Reading a data set: :func:`read_data` and the ``.npy`` and ``.npz`` readers
(``.csv`` files are in ``_csv.py``, folders of PNG images in ``_png.py``).

Nothing is unpickled (``allow_pickle=False``), and anything that is not a
finite array of real numbers is refused with a message that starts with the
file's name.
"""

from __future__ import annotations

from collections.abc import Sequence
import os
from pathlib import Path
import zipfile

import numpy as np

from ._csv import read_csv
from ._kinds import SUFFIX_KINDS, SUPPORTED, DataSource
from ._png import read_png_folder

__all__ = ["read_data"]

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def read_data(
    path: str | os.PathLike[str],
    *,
    key: str | None = None,
    columns: str | Sequence[str | int] | None = None,
    delimiter: str | None = None,
) -> tuple[np.ndarray, DataSource]:
    """Read a data set as a 2-D float array.

    Parameters
    ----------
    path : str or path-like
        One of

        - ``.npy``: a 2-D array ``(n_samples, n_features)``, or a 3-D stack of
          images ``(n_images, height, width)`` which is flattened to
          ``(n_images, height * width)``;
        - ``.npz``: the same, taken from the archive's entry `key`, else its
          only entry, else its entry ``"X"``;
        - ``.csv``: one sample per line, numbers separated by commas,
          semicolons, tabs or whitespace (whichever splits the first lines
          into the same number of values), with an optional first row of
          column names (a first row that is not all numbers, where the next
          row has numbers); text after ``#`` is a comment;
        - a folder: its ``*.png`` files in natural order (``img2`` before
          ``img10``; names starting with a dot are skipped), converted to
          grayscale and scaled to [0, 1] (8-bit values / 255, 16-bit values /
          65535), one flattened image per row. All must have the same size.
    key : str, optional
        The entry to read from a ``.npz`` archive.
    columns : str or sequence of str and int, optional
        The columns to read from a ``.csv`` file, in this order (default:
        all, which must all be numbers). A string lists names of the header
        row and 0-based indices, separated by commas, with ranges that
        include both ends: ``"1-784"``, ``"x,y"``, ``"0,2-4"`` (an item of
        digits is an index). A sequence holds names (str) and indices (int),
        such as ``range(1, 785)`` or ``["x", "y"]``.
    delimiter : str, optional
        What separates the values of a ``.csv`` file: one character (``","``,
        ``";"``, ``"|"``), ``"tab"``, or ``"whitespace"`` (runs of spaces
        and tabs; also ``" "``). Default: detected from the first lines.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
        float64, or float32 if the array was stored as float32 (integer and
        boolean arrays become float64).
    source : DataSource
        Where `X` came from; pass it to :func:`write_data` to write results
        in the same layout.

    Raises
    ------
    FileNotFoundError
        If nothing is at `path`.
    ValueError
        For an unsupported kind of file, content that is not a non-empty
        array of finite real numbers, or `columns` that are not columns of
        numbers of the file. Every message starts with the file's name; a
        ``.csv`` file's lines are counted from 1, its columns from 0.

    Notes
    -----
    Arrays are loaded with ``allow_pickle=False``: a file holding Python
    objects is refused, never unpickled. A ``.csv`` file is streamed, a
    quarter megabyte of lines at a time, into one array: reading it takes
    little more memory than the array it gives.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> import numpy as np
    >>> from preimage.data_files import read_data, write_data
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = write_data(folder / "data.csv", np.array([[0.5, 1.0], [2.0, -3.0]]))
    >>> X, source = read_data(folder / "data.csv")
    >>> X
    array([[ 0.5,  1. ],
           [ 2. , -3. ]])
    >>> source.kind
    'csv'
    """
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such file or folder")
    if path.is_dir():
        kind = "png"
    else:
        suffix = path.suffix.lower()
        if suffix not in SUFFIX_KINDS:
            hint = "; to read images, pass the folder that holds them" if suffix == ".png" else ""
            raise ValueError(
                f"{path}: unsupported kind of data file {suffix or '(no suffix)'!r}; "
                f"supported are {SUPPORTED}{hint}"
            )
        kind = SUFFIX_KINDS[suffix]
    if key is not None and kind != "npz":
        raise ValueError(
            f"{path}: 'key' selects an entry of a .npz archive, but this is "
            f"not one; got key={key!r}"
        )
    for name, value in (("columns", columns), ("delimiter", delimiter)):
        if value is not None and kind != "csv":
            raise ValueError(
                f"{path}: {name!r} applies to a .csv file, but this is not "
                f"one; got {name}={value!r}"
            )
    if kind == "png":
        return read_png_folder(path)
    if kind == "csv":
        return read_csv(path, columns=columns, delimiter=delimiter)
    array, key = _load_npy(path) if kind == "npy" else _load_npz(path, key)
    X, image_shape = _array_to_samples(path, array)
    return X, DataSource(kind, path, image_shape=image_shape, key=key)


def _load_npy(path):
    try:
        loaded = np.load(path, allow_pickle=False)
    except (ValueError, OSError, EOFError) as exc:
        raise ValueError(f"{path}: {_load_error(exc)}") from None
    if not isinstance(loaded, np.ndarray):
        loaded.close()
        raise ValueError(f"{path}: this is a .npz archive, not a .npy array; rename it to .npz")
    return loaded, None


def _load_npz(path, key):
    try:
        archive = np.load(path, allow_pickle=False)
    except (ValueError, OSError, EOFError, zipfile.BadZipFile) as exc:
        raise ValueError(f"{path}: {_load_error(exc)}") from None
    if isinstance(archive, np.ndarray):
        raise ValueError(f"{path}: this is a .npy array, not a .npz archive; rename it to .npy")
    with archive:
        keys = archive.files
        listed = ", ".join(map(repr, keys))
        if key is not None:
            if key not in keys:
                raise ValueError(f"{path}: has no entry {key!r}; its entries are {listed}")
        elif len(keys) == 1:
            key = keys[0]
        elif "X" in keys:
            key = "X"
        elif not keys:
            raise ValueError(f"{path}: the archive holds no arrays")
        else:
            raise ValueError(
                f"{path}: holds {len(keys)} arrays ({listed}) and none is "
                "named 'X'; pass key=NAME to choose one"
            )
        try:
            return archive[key], key
        except (ValueError, OSError, EOFError, zipfile.BadZipFile) as exc:
            raise ValueError(f"{path}: entry {key!r}: {_load_error(exc)}") from None


def _load_error(exc):
    """What went wrong in ``np.load``, in words for the user."""
    message = str(exc)
    if "Object arrays cannot be loaded" in message:
        return (
            "holds an array of Python objects (dtype object); refusing to unpickle "
            "it, only arrays of numbers are read"
        )
    if "pickled" in message:
        return "is not a NumPy array file (it may be a Python pickle, which is never unpickled)"
    return f"cannot be read as a NumPy array file ({message})"


def _array_to_samples(path, array):
    """Check a loaded array and flatten a stack of images to one row each."""
    if array.dtype.kind not in "biuf":
        raise ValueError(f"{path}: expected an array of real numbers, found dtype {array.dtype}")
    if array.ndim not in (2, 3):
        raise ValueError(
            f"{path}: expected a 2-D array (n_samples, n_features) or a 3-D "
            f"stack of images (n_images, height, width), found an array of "
            f"shape {array.shape}"
        )
    if array.size == 0:
        raise ValueError(f"{path}: the array is empty (shape {array.shape})")
    X = array if array.dtype in _FLOATS else array.astype(np.float64)
    bad = ~np.isfinite(X)
    if bad.any():
        first = tuple(int(i) for i in np.unravel_index(np.argmax(bad), bad.shape))
        raise ValueError(f"{path}: {_count_non_finite(bad)} (first at index {first})")
    if X.ndim == 3:
        n, height, width = X.shape
        return np.ascontiguousarray(X).reshape(n, height * width), (height, width)
    return np.ascontiguousarray(X), None


def _count_non_finite(bad):
    count = int(np.count_nonzero(bad))
    return "1 value is NaN or infinite" if count == 1 else f"{count} values are NaN or infinite"
