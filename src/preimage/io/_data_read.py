"""Reading a data set: :func:`read_data` and the ``.npy`` and ``.npz`` readers."""

from __future__ import annotations

from collections.abc import Sequence
import math
import os
from pathlib import Path
import stat
import zipfile
import zlib

import numpy as np
from numpy.lib import format as fmt

from preimage._utils.memory import check_dense, format_bytes
from preimage.io._data_csv import _short, read_csv
from preimage.io._data_kinds import SUFFIX_KINDS, SUPPORTED, DataSource
from preimage.io._data_png import read_png_folder
from preimage.io._files import file_kind, open_regular, read_into, zip_directory

_BAD_ZIP = (OSError, EOFError, RuntimeError, NotImplementedError, zipfile.BadZipFile, zlib.error)
_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
_NPY_MAGIC = fmt.MAGIC_PREFIX
_ZIP_STARTS = (b"PK\x03\x04", b"PK\x05\x06")
#: A data archive holds a few arrays: its directory is read only within these.
_MAX_MEMBERS, _MAX_DIRECTORY = 10_000, 1 << 21
_NOT_NUMPY = "is not a NumPy array file (it may be a Python pickle, which is never unpickled)"


def read_data(
    path: str | os.PathLike[str],
    *,
    key: str | None = None,
    columns: str | Sequence[str | int] | None = None,
    delimiter: str | None = None,
    header: bool | None = None,
) -> tuple[np.ndarray, DataSource]:
    """Read a data set as a 2-D float array.

    Files from anyone can be read: nothing is unpickled, and sizes are checked
    against the memory budget before anything is decoded.

    Parameters
    ----------
    path : str or path-like
        ``.npy`` (a 2-D array, or a 3-D stack of images flattened to one row
        each), ``.npz`` (the same, from entry `key`, else the only one, else
        ``"X"``), ``.csv`` (one sample per line; an optional header row; ``#``
        comments) or a folder of ``*.png`` images (in natural order, grayscale
        scaled to [0, 1], one flattened image per row).
    key : str, optional
        The entry to read from a ``.npz`` archive.
    columns : str or sequence of str and int, optional
        The ``.csv`` columns to read, in order: header names and 0-based
        indices, as a string with ranges (``"1-784"``, ``"x,y"``) or a
        sequence. Default: all.
    delimiter : str, optional
        What separates ``.csv`` values: one character, ``"tab"`` or
        ``"whitespace"``. Default: detected.
    header : bool, optional
        Whether the first line of a ``.csv`` file names the columns. Default:
        detected, a header when none of its cells is a number (a line of
        names with one number, such as ``x,1,y``, is read as data and
        refused: pass ``header=True``).

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
        The data: float64, or float32 if stored as float32.
    source : DataSource
        Where `X` came from, for :func:`write_data`.

    Raises
    ------
    FileNotFoundError
        If nothing is at `path`.
    MemoryBudgetError
        If the array would exceed the memory budget (known before decoding).
    ValueError
        For an unsupported or special file, content that is not a non-empty
        array of finite real numbers, or bad `columns`; the message starts
        with the file's name.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import numpy as np
    >>> from preimage.io import read_data, write_data
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = write_data(Path(folder) / "data.csv", np.array([[0.5, 1.0], [2.0, -3.0]]))
    ...     X, source = read_data(path)
    >>> X
    array([[ 0.5,  1. ],
           [ 2. , -3. ]])
    >>> source.kind
    'csv'
    """
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such file or folder")
    mode = path.stat().st_mode
    if stat.S_ISDIR(mode):
        kind = "png"
    elif not stat.S_ISREG(mode):
        # Never opened: a FIFO would wait for a writer, a device never end.
        raise ValueError(
            f"{path}: {file_kind(mode)}, not a regular file; data are read from "
            f"{SUPPORTED} (it was not opened)"
        )
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
    for name, value in (("columns", columns), ("delimiter", delimiter), ("header", header)):
        if value is not None and kind != "csv":
            raise ValueError(
                f"{path}: {name!r} applies to a .csv file, but this is not "
                f"one; got {name}={value!r}"
            )
    if kind == "png":
        return read_png_folder(path)
    if kind == "csv":
        return read_csv(path, columns=columns, delimiter=delimiter, header=header)
    array, key = _load_npy(path) if kind == "npy" else _load_npz(path, key)
    X, image_shape = _array_to_samples(path, array)
    return X, DataSource(kind, path, image_shape=image_shape, key=key)


def _load_npy(path):
    try:
        with open_regular(path, follow_links=True) as file:
            if file.read(4) in _ZIP_STARTS:
                raise ValueError(
                    f"{path}: this is a .npz archive, not a .npy array; rename it to .npz"
                )
            file.seek(0)
            return _read_array(f"{path}:", file, os.fstat(file.fileno()).st_size), None
    except OSError as exc:
        raise ValueError(f"{path}: cannot be read ({exc.strerror or exc})") from None


def _load_npz(path, key):
    try:
        with open_regular(path, follow_links=True) as file, _zip(path, file) as archive:
            # np.savez stores the array `key` as the member "key.npy".
            members = {name.removesuffix(".npy"): name for name in archive.namelist()}
            key = _choose_entry(path, key, list(members))
            info = archive.getinfo(members[key])
            with archive.open(info) as member:
                return _read_array(f"{path}: entry {key!r}:", member, info.file_size), key
    except _BAD_ZIP as exc:
        raise ValueError(f"{path}: cannot be read as a .npz archive ({exc})") from None


def _zip(path, file):
    """The open `file` as a zip archive, refused unless it starts as one."""
    start = file.read(len(_NPY_MAGIC))
    if start.startswith(_NPY_MAGIC):
        raise ValueError(f"{path}: this is a .npy array, not a .npz archive; rename it to .npy")
    if start[:4] not in _ZIP_STARTS:
        raise ValueError(f"{path}: {_NOT_NUMPY}")
    # The end records zipfile reads (zip64's included): ZipFile makes an object
    # for every member the central directory holds, so its size is checked first.
    count, size = zip_directory(file)
    if count > _MAX_MEMBERS or size > _MAX_DIRECTORY:
        raise ValueError(
            f"{path}: the archive lists {count:,} members in a directory of "
            f"{format_bytes(size)}; a data .npz is read only "
            f"up to {_MAX_MEMBERS:,} members and {format_bytes(_MAX_DIRECTORY)} (not read)"
        )
    return zipfile.ZipFile(file)


def _choose_entry(path, key, keys):
    listed = ", ".join(map(_short, keys[:5]))
    listed += f" and {len(keys) - 5:,} more" if len(keys) > 5 else ""
    if key is not None:
        if key not in keys:
            raise ValueError(f"{path}: has no entry {key!r}; its entries are {listed}")
        return key
    if len(keys) == 1:
        return keys[0]
    if "X" in keys:
        return "X"
    if not keys:
        raise ValueError(f"{path}: the archive holds no arrays")
    raise ValueError(
        f"{path}: holds {len(keys)} arrays ({listed}) and none is "
        "named 'X'; pass key=NAME to choose one"
    )


def _read_array(where, file, size):
    """The array of a ``.npy`` stream of `size` bytes, its header checked first."""
    magic = file.read(len(_NPY_MAGIC) + 2)
    if not magic.startswith(_NPY_MAGIC) or len(magic) < len(_NPY_MAGIC) + 2:
        raise ValueError(f"{where} {_NOT_NUMPY}")
    version = (magic[-2], magic[-1])
    if version not in ((1, 0), (2, 0), (3, 0)):
        raise ValueError(f"{where} unsupported .npy format version {version[0]}.{version[1]}")
    try:
        read_header = fmt.read_array_header_1_0 if version == (1, 0) else fmt.read_array_header_2_0
        shape, fortran_order, dtype = read_header(file)
    except (ValueError, EOFError) as exc:
        raise ValueError(f"{where} cannot be read as a NumPy array file ({exc})") from None
    if dtype.hasobject:
        raise ValueError(
            f"{where} holds an array of Python objects (dtype object); refusing to "
            "unpickle it, only arrays of numbers are read"
        )
    if dtype.kind not in "biuf":
        raise ValueError(f"{where} expected an array of real numbers, found dtype {dtype}")
    if len(shape) not in (2, 3):
        raise ValueError(
            f"{where} expected a 2-D array (n_samples, n_features) or a 3-D "
            f"stack of images (n_images, height, width), found an array of "
            f"shape {shape}"
        )
    if 0 in shape:
        raise ValueError(f"{where} the array is empty (shape {shape})")
    count, dims = math.prod(shape), " x ".join(map(str, shape))
    need, held = count * dtype.itemsize, size - file.tell()
    if need > held:
        raise ValueError(
            f"{where} is truncated or damaged: its header declares a {dims} array "
            f"of {dtype} ({format_bytes(need)}), but {format_bytes(max(held, 0))} follow"
        )
    out = dtype if dtype in _FLOATS else np.dtype(np.float64)
    n_features = math.prod(shape[1:])
    what = f"{where} a {dims} array of {dtype}, read as {shape[0]} x {n_features} {out},"
    copies = 1 + (out != dtype) + (fortran_order and len(shape) > 1)
    check_dense((shape[0], n_features), out, what, hint="read fewer samples", copies=copies)
    array = np.empty(count, dtype)
    if (got := read_into(file, array.view(np.uint8))) < need:
        raise ValueError(f"{where} is truncated ({got} of {need} bytes of data)")
    return array.reshape(shape[::-1]).transpose() if fortran_order else array.reshape(shape)


def _array_to_samples(path, array):
    """A finite float array of one row per sample (an image flattened)."""
    X = np.ascontiguousarray(array, dtype=array.dtype if array.dtype in _FLOATS else np.float64)
    rows = X.reshape(X.shape[0], -1)
    if array.dtype.kind == "f":
        # In blocks of rows: no mask the size of the whole array.
        step, count, first = max(1, (1 << 20) // rows.shape[1]), 0, None
        for start in range(0, rows.shape[0], step):
            bad = ~np.isfinite(rows[start : start + step])
            if bad.any():
                count += int(np.count_nonzero(bad))
                if first is None:
                    first = np.unravel_index(start * rows.shape[1] + np.argmax(bad), X.shape)
        if count:
            where = tuple(int(i) for i in first)
            values = "1 value is" if count == 1 else f"{count} values are"
            raise ValueError(f"{path}: {values} NaN or infinite (first at index {where})")
    return rows, (X.shape[1:] if X.ndim == 3 else None)
