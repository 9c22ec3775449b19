"""Reading a data set: :func:`read_data` and the ``.npy`` and ``.npz`` readers
(``.csv`` files are in ``_csv.py``, folders of PNG images in ``_png.py``).

Nothing is unpickled (``allow_pickle=False``), and anything that is not a
finite array of real numbers is refused with a message that starts with the
file's name.
"""

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
from preimage.io._data_csv import read_csv
from preimage.io._data_kinds import SUFFIX_KINDS, SUPPORTED, DataSource
from preimage.io._data_png import read_png_folder
from preimage.io._files import file_kind, open_regular

__all__ = ["read_data"]

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
_NPY_MAGIC = fmt.MAGIC_PREFIX
_ZIP_STARTS = (b"PK\x03\x04", b"PK\x05\x06")
_NOT_NUMPY = "is not a NumPy array file (it may be a Python pickle, which is never unpickled)"


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
        - a folder: its ``*.png`` files (``.PNG`` too) in natural order
          (``img2`` before ``img10``; names starting with a dot are skipped),
          converted to grayscale and scaled to [0, 1] (8-bit values / 255,
          16-bit values / 65535), one flattened image per row. All must have
          the same size. Each must be a regular file, or a symbolic link to
          one inside the folder (see Notes).
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
        The data: float64, or float32 if the array was stored as float32
        (integer and boolean arrays become float64).
    source : DataSource
        Where `X` came from; pass it to :func:`write_data` to write results
        in the same layout.

    Raises
    ------
    FileNotFoundError
        If nothing is at `path`.
    MemoryBudgetError
        If the array, with what decoding it takes, would exceed the memory
        budget (``preimage.config_context(memory_budget=...)``); known from
        the headers before anything is decoded; or a ``.csv`` line longer
        than the budget allows.
    ValueError
        For an unsupported kind of file, a path that is neither a regular
        file nor a folder, content that is not a non-empty
        array of finite real numbers, or `columns` that are not columns of
        numbers of the file. Every message starts with the file's name; a
        ``.csv`` file's lines are counted from 1, its columns from 0.

    Notes
    -----
    Arrays are loaded with ``allow_pickle=False``: a file holding Python
    objects is refused, never unpickled. A ``.csv`` file is streamed, a
    quarter megabyte of lines at a time, into one array: reading it takes
    little more memory than the array it gives, however long its rows.

    Files from anyone can be read. What a file will cost is known before it
    is read: the shape and dtype from a ``.npy`` header (of an ``.npz``
    entry, read from the zip stream), the size of each image from its PNG
    header. It is checked against the bytes the file holds (a header that
    claims more is refused as truncated) and against the memory budget, and
    an image over Pillow's limit against decompression bombs
    (``PIL.Image.MAX_IMAGE_PIXELS``) is refused; nothing is decoded first.

    `path` must be a regular file (a symbolic link to one is followed) or a
    folder: a FIFO, socket or device is an error naming it, and is never
    opened. A file is opened without blocking and checked again once open.
    A ``.csv`` line longer than the memory budget allows, or a cell of over a
    quarter million characters, is refused as it is read.

    Links and special files in a folder of images: a ``*.png`` name that is
    a symbolic link is read if it resolves to a regular file inside the
    folder (or below it), and refused if it leads outside: the folder is the
    data set, and a folder from elsewhere must not make the library read, and
    ``preimage denoise`` write back, another file of the machine. A dangling
    link, a FIFO, socket, device or folder named ``*.png`` is an error naming
    it, and is never opened (opening a FIFO would wait for a writer). Names
    equal but for case (``A.png``, ``a.png``) are refused: they could not be
    written back one for one where case is ignored.

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
        with open_regular(path, follow_links=True) as file:
            if file.read(4) in _ZIP_STARTS:
                raise ValueError(
                    f"{path}: this is a .npz archive, not a .npy array; rename it to .npz"
                )
            file.seek(0)
            size = os.fstat(file.fileno()).st_size
            return _read_array(f"{path}:", file, size), None
    except OSError as exc:
        raise ValueError(f"{path}: cannot be read ({exc.strerror or exc})") from None


def _load_npz(path, key):
    try:
        with open_regular(path, follow_links=True) as file, _zip(path, file) as archive:
            # np.savez stores the array `key` as the member "key.npy".
            members = {
                name[:-4] if name.endswith(".npy") else name: name for name in archive.namelist()
            }
            key = _choose_entry(path, key, list(members))
            info = archive.getinfo(members[key])
            with archive.open(info) as member:
                return _read_array(f"{path}: entry {key!r}:", member, info.file_size), key
    except (
        OSError,
        EOFError,
        RuntimeError,
        NotImplementedError,
        zipfile.BadZipFile,
        zlib.error,
    ) as exc:
        raise ValueError(f"{path}: cannot be read as a .npz archive ({exc})") from None


def _zip(path, file):
    """The open `file` as a zip archive, refused unless it starts as one."""
    start = file.read(len(_NPY_MAGIC))
    if start.startswith(_NPY_MAGIC):
        raise ValueError(f"{path}: this is a .npy array, not a .npz archive; rename it to .npy")
    if start[:4] not in _ZIP_STARTS:
        raise ValueError(f"{path}: {_NOT_NUMPY}")
    file.seek(0)
    return zipfile.ZipFile(file)


def _choose_entry(path, key, keys):
    listed = ", ".join(map(repr, keys))
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
    """The array of a ``.npy`` stream of `size` bytes, its header checked first.

    Its shape and dtype are checked, and the bytes they declare are checked
    against the bytes the file holds (a header may claim any shape) and
    against the memory budget, before anything is allocated; no object is
    unpickled. `where` starts every message.
    """
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
    _check_declared(where, shape, dtype)
    count = math.prod(shape)
    need, held = count * dtype.itemsize, size - file.tell()
    if need > held:
        raise ValueError(
            f"{where} is truncated or damaged: its header declares a {_shape(shape)} array "
            f"of {dtype} ({format_bytes(need)}), but {format_bytes(max(held, 0))} follow"
        )
    out = dtype if dtype in _FLOATS else np.dtype(np.float64)
    n_features = math.prod(shape[1:])
    check_dense(
        (shape[0], n_features),
        out,
        f"{where} a {_shape(shape)} array of {dtype}, read as {shape[0]} x {n_features} {out},",
        hint="read fewer samples",
        copies=1 + (out != dtype) + (fortran_order and len(shape) > 1),
    )
    array = np.empty(count, dtype)
    buffer, got = memoryview(array.view(np.uint8)), 0
    while got < need:
        n = file.readinto(buffer[got:])
        if not n:
            raise ValueError(f"{where} is truncated ({got} of {need} bytes of data)")
        got += n
    if fortran_order:
        return array.reshape(shape[::-1]).transpose()
    return array.reshape(shape)


def _shape(shape):
    return " x ".join(map(str, shape))


def _check_declared(where, shape, dtype):
    """Refuse an array of the wrong kind before reading it."""
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


def _array_to_samples(path, array):
    """A float array of one row per sample, checked to be finite; a stack of
    images is flattened to one row each."""
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
                    row, column = np.unravel_index(np.argmax(bad), bad.shape)
                    first = np.unravel_index(
                        start * rows.shape[1] + row * rows.shape[1] + column, X.shape
                    )
        if count:
            where = tuple(int(i) for i in first)
            values = "1 value is" if count == 1 else f"{count} values are"
            raise ValueError(f"{path}: {values} NaN or infinite (first at index {where})")
    return rows, (X.shape[1:] if X.ndim == 3 else None)
