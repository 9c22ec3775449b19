"""Data sets on disk for the command line: ``.npy``, ``.npz``, ``.csv`` and
folders of PNG images.

:func:`read_data` turns any of them into a 2-D float array ``(n_samples,
n_features)`` and a :class:`DataSource` saying where it came from (image size,
file names, ``.npz`` key, CSV header); :func:`write_data` writes an array back
in any of them, reusing that description so that ``preimage denoise`` gives back
data laid out like its input.

Reading never unpickles (``allow_pickle=False``) and refuses anything that is
not a finite array of real numbers; every message starts with the file's name.
Writing never overwrites unless asked, and the output appears whole or not at
all: a file is written under a temporary name and renamed into place, a folder
of images is filled under a temporary name and renamed into place.
"""

import csv
from dataclasses import dataclass
import math
from numbers import Integral
import os
from pathlib import Path
import re
import secrets
import shutil
import warnings
import zipfile

import numpy as np

from ._files import atomic_write
from ._validation import check_array_2d

__all__ = ["DATA_KINDS", "DataSource", "read_data", "write_data"]

#: The kinds of data :func:`read_data` and :func:`write_data` understand, for help text.
DATA_KINDS = (".npy", ".npz", ".csv", "a folder of .png images")

_SUPPORTED = ", ".join(DATA_KINDS[:-1]) + " or " + DATA_KINDS[-1]
_SUFFIX_KINDS = {".npy": "npy", ".npz": "npz", ".csv": "csv"}
_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
_SIXTEEN_BIT_MODES = ("I", "I;16", "I;16B", "I;16L")


@dataclass(frozen=True)
class DataSource:
    """Where a data array came from, as far as writing it back needs to know.

    Attributes
    ----------
    kind : {"npy", "npz", "csv", "png"}
        The file type; ``"png"`` is a folder of PNG images.
    path : pathlib.Path
        The file or folder read.
    image_shape : tuple of int or None
        ``(height, width)`` of each sample when the data are images (a PNG
        folder or a 3-D array), else None.
    names : tuple of str or None
        The image file names, in the order of the rows (PNG folders only).
    key : str or None
        The entry of the ``.npz`` archive that was read.
    header : tuple of str or None
        The column names of a CSV file's header row, if it had one.
    """

    kind: str
    path: Path
    image_shape: tuple = None
    names: tuple = None
    key: str = None
    header: tuple = None


def read_data(path, *, key=None):
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
        - ``.csv``: one sample per line, numbers separated by commas, with an
          optional first row of column names (a row in which no cell is a
          number); lines starting with ``#`` are comments;
        - a folder: its ``*.png`` files in natural order (``img2`` before
          ``img10``; names starting with a dot are skipped), converted to
          grayscale and scaled to [0, 1] (8-bit values / 255, 16-bit values /
          65535), one flattened image per row. All must have the same size.
    key : str, optional
        The entry to read from a ``.npz`` archive.

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
        For an unsupported kind of file, or content that is not a non-empty
        array of finite real numbers. Every message starts with the file's
        name.

    Notes
    -----
    Arrays are loaded with ``allow_pickle=False``: a file holding Python
    objects is refused, never unpickled.

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
        if suffix not in _SUFFIX_KINDS:
            hint = ("; to read images, pass the folder that holds them"
                    if suffix == ".png" else "")
            raise ValueError(f"{path}: unsupported kind of data file {suffix or '(no suffix)'!r}; "
                             f"supported are {_SUPPORTED}{hint}")
        kind = _SUFFIX_KINDS[suffix]
    if key is not None and kind != "npz":
        raise ValueError(f"{path}: 'key' selects an entry of a .npz archive, but this is "
                         f"not one; got key={key!r}")
    if kind == "png":
        return _read_png_folder(path)
    if kind == "csv":
        return _read_csv(path)
    array, key = _load_npy(path) if kind == "npy" else _load_npz(path, key)
    X, image_shape = _array_to_samples(path, array)
    return X, DataSource(kind, path, image_shape=image_shape, key=key)


def write_data(path, X, *, source=None, image_shape=None, overwrite=False):
    """Write a 2-D array as ``.npy``, ``.npz``, ``.csv`` or a folder of PNG images.

    The kind follows `path`'s suffix; a path without a suffix is a folder of
    PNG images.

    Parameters
    ----------
    path : str or path-like
        Where to write. Its parent folders are created.
    X : array-like of shape (n_samples, n_features)
        Finite real numbers.
    source : DataSource, optional
        What :func:`read_data` returned with the input; it supplies the
        ``.npz`` key, the CSV header (if it has one name per column), the image
        size and the image file names (if there is one per row).
    image_shape : tuple of int, optional
        ``(height, width)`` of each sample, with ``height * width ==
        n_features``. For a PNG folder it defaults to ``source.image_shape``,
        else to a square. ``.npy`` and ``.npz`` files hold a 3-D array
        ``(n_samples, height, width)`` when it is given or when `source` was
        such an array, else the 2-D `X`.
    overwrite : bool, default=False
        Replace an existing file or folder of the same kind at `path`.

    Returns
    -------
    path : pathlib.Path
        The path written.

    Raises
    ------
    FileExistsError
        If `path` exists and `overwrite` is False.
    IsADirectoryError, NotADirectoryError
        If the output would replace a folder with a file or a file with a
        folder (even with `overwrite`).
    ValueError
        For an unsupported suffix, an `X` that is not 2-D and finite, or an
        image size that does not fit `X`.
    TypeError
        If `X` does not hold real numbers (object, string or complex data).

    Notes
    -----
    CSV values are written with Python's ``repr``, the shortest text that
    reads back as the same float64, so a CSV round trip is exact. PNG images
    are 8-bit grayscale: values are clipped to [0, 1] and stored as
    ``round(255 x)``, so multiples of 1/255 round-trip exactly.

    A file is written to a temporary file beside `path` and renamed into
    place. A folder is filled under a temporary name beside `path` and renamed
    into place; an existing folder being overwritten is first renamed aside,
    then deleted once the new one is in place. A failure part way leaves
    `path` as it was and removes the temporary files.
    """
    path = Path(path)
    kind = _output_kind(path)
    try:
        # Files hold any finite values, however large.
        X = check_array_2d(X, "X", magnitude=False)
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"{path}: {exc}") from None
    n_samples, n_features = X.shape
    if image_shape is not None:
        image_shape = _check_image_shape(path, image_shape, n_features)
    _check_target(path, kind, overwrite)

    if kind == "png":
        shape = _png_shape(path, n_features, image_shape, source)
        names = _png_names(n_samples, source)
        return _write_png_folder(path, X, shape, names, overwrite)

    if kind == "csv":
        header = source.header if source is not None else None
        if header is not None and len(header) != n_features:
            header = None
        return atomic_write(path, lambda tmp: _save_csv(tmp, X, header), overwrite=overwrite)

    if image_shape is None and source is not None and source.kind in ("npy", "npz"):
        shape = source.image_shape
        if shape is not None and shape[0] * shape[1] == n_features:
            image_shape = tuple(shape)
    array = X if image_shape is None else X.reshape((n_samples,) + image_shape)
    if kind == "npy":
        return atomic_write(path, lambda tmp: _save_npy(tmp, array), overwrite=overwrite)
    key = source.key if source is not None and source.key else "X"
    return atomic_write(path, lambda tmp: _save_npz(tmp, array, key), overwrite=overwrite)


# --- reading ---------------------------------------------------------------


def _load_npy(path):
    try:
        loaded = np.load(path, allow_pickle=False)
    except (ValueError, OSError, EOFError) as exc:
        raise ValueError(f"{path}: {_load_error(exc)}") from None
    if not isinstance(loaded, np.ndarray):
        loaded.close()
        raise ValueError(f"{path}: this is a .npz archive, not a .npy array; rename it "
                         "to .npz")
    return loaded, None


def _load_npz(path, key):
    try:
        archive = np.load(path, allow_pickle=False)
    except (ValueError, OSError, EOFError, zipfile.BadZipFile) as exc:
        raise ValueError(f"{path}: {_load_error(exc)}") from None
    if isinstance(archive, np.ndarray):
        raise ValueError(f"{path}: this is a .npy array, not a .npz archive; rename it "
                         "to .npy")
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
            raise ValueError(f"{path}: holds {len(keys)} arrays ({listed}) and none is "
                             "named 'X'; pass key=NAME to choose one")
        try:
            return archive[key], key
        except (ValueError, OSError, EOFError, zipfile.BadZipFile) as exc:
            raise ValueError(f"{path}: entry {key!r}: {_load_error(exc)}") from None


def _load_error(exc):
    """What went wrong in ``np.load``, in words for the user."""
    message = str(exc)
    if "Object arrays cannot be loaded" in message:
        return ("holds an array of Python objects (dtype object); refusing to unpickle "
                "it, only arrays of numbers are read")
    if "pickled" in message:
        return ("is not a NumPy array file (it may be a Python pickle, which is never "
                "unpickled)")
    return f"cannot be read as a NumPy array file ({message})"


def _array_to_samples(path, array):
    """Check a loaded array and flatten a stack of images to one row each."""
    if array.dtype.kind not in "biuf":
        raise ValueError(f"{path}: expected an array of real numbers, found dtype "
                         f"{array.dtype}")
    if array.ndim not in (2, 3):
        raise ValueError(f"{path}: expected a 2-D array (n_samples, n_features) or a 3-D "
                         f"stack of images (n_images, height, width), found an array of "
                         f"shape {array.shape}")
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


def _strip_comment(line):
    return line.split("#", 1)[0].strip()


def _is_number(text):
    try:
        float(text)
    except ValueError:
        return False
    return True


def _read_csv(path):
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not a UTF-8 text file ({exc.reason} at byte "
                         f"{exc.start})") from None
    # Line numbers (0-based) of the lines that hold anything besides a comment.
    rows = [i for i, line in enumerate(lines) if _strip_comment(line)]
    header = None
    if rows:
        cells = next(csv.reader([lines[rows[0]]]))
        numeric = [_is_number(cell) for cell in cells]
        if not any(numeric):
            header = tuple(cell.strip() for cell in cells)
            rows = rows[1:]
        elif not all(numeric):
            message = (_diagnose_csv(path, lines, rows[:1])
                       or f"{path}: line {rows[0] + 1} mixes numbers and text")
            if any(cell.strip() and not number for cell, number in zip(cells, numeric)):
                message += " (a header row of column names must hold no numbers)"
            raise ValueError(message)
    if not rows:
        raise ValueError(f"{path}: holds no rows of data"
                         + (" (only a header)" if header is not None else ""))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            X = np.loadtxt((lines[i] for i in rows), delimiter=",", comments="#",
                           dtype=np.float64, ndmin=2)
    except ValueError as exc:
        raise ValueError(_diagnose_csv(path, lines, rows) or f"{path}: {exc}") from None
    if header is not None and len(header) != X.shape[1]:
        raise ValueError(f"{path}: the header row has {len(header)} names, but the rows "
                         f"have {X.shape[1]} values")
    bad = ~np.isfinite(X)
    if bad.any():
        row, column = np.unravel_index(np.argmax(bad), bad.shape)
        raise ValueError(f"{path}: {_count_non_finite(bad)} (first at line "
                         f"{rows[row] + 1}, column {column + 1})")
    return X, DataSource("csv", path, header=header)


def _diagnose_csv(path, lines, rows):
    """The first ragged row or non-numeric cell, named by its line, or None."""
    width = None
    for i in rows:
        cells = _strip_comment(lines[i]).split(",")
        if width is None:
            width, first = len(cells), i
        elif len(cells) != width:
            return (f"{path}: line {i + 1} has {len(cells)} values, but line {first + 1} "
                    f"has {width}; every row must have the same number of values")
        for j, cell in enumerate(cells):
            if not _is_number(cell):
                found = repr(cell.strip()) if cell.strip() else "an empty cell"
                return f"{path}: line {i + 1}, column {j + 1}: expected a number, found {found}"
    return None


def _natural_key(path):
    # re.split with a group alternates text and digit runs, digits at odd places.
    parts = re.split(r"(\d+)", path.name)
    return [int(part) if i % 2 else part.casefold() for i, part in enumerate(parts)], path.name


def _read_png_folder(folder):
    files = sorted((entry for entry in folder.iterdir()
                    if entry.suffix.lower() == ".png" and not entry.name.startswith(".")
                    and entry.is_file()), key=_natural_key)
    if not files:
        raise ValueError(f"{folder}: no .png images in this folder")
    X = shape = None
    for i, file in enumerate(files):
        image = _read_png(file)
        if X is None:
            shape = image.shape
            X = np.empty((len(files), image.size))
        elif image.shape != shape:
            raise ValueError(
                f"{file}: the image is {image.shape[0]}x{image.shape[1]} pixels (height x "
                f"width), but {files[0].name} is {shape[0]}x{shape[1]}; all images must have "
                "the same size")
        X[i] = image.ravel()
    return X, DataSource("png", folder, image_shape=shape,
                         names=tuple(file.name for file in files))


def _read_png(file):
    """One PNG image as a 2-D grayscale float array in [0, 1]."""
    from PIL import Image

    try:
        with Image.open(file, formats=["PNG"]) as image:
            if image.mode in _SIXTEEN_BIT_MODES:
                # convert("L") would clip 16-bit values at 255 rather than scale them.
                return np.clip(np.asarray(image, dtype=np.float64) / 65535, 0, 1)
            return np.asarray(image.convert("L"), dtype=np.float64) / 255
    except (OSError, SyntaxError, ValueError) as exc:
        raise ValueError(f"{file}: cannot be read as a PNG image ({exc})") from None


# --- writing ---------------------------------------------------------------


def _output_kind(path):
    suffix = path.suffix.lower()
    if suffix in _SUFFIX_KINDS:
        return _SUFFIX_KINDS[suffix]
    if suffix == "":
        return "png"
    raise ValueError(f"{path}: unsupported kind of output {suffix!r}; supported are "
                     f"{_SUPPORTED} (a path without a suffix)")


def _check_image_shape(path, image_shape, n_features):
    try:
        height, width = image_shape
    except (TypeError, ValueError):
        height = width = None
    if not all(isinstance(v, Integral) and not isinstance(v, bool) and v > 0
               for v in (height, width)):
        raise ValueError(f"{path}: 'image_shape' must be a pair of positive integers "
                         f"(height, width), got {image_shape!r}")
    if height * width != n_features:
        raise ValueError(f"{path}: 'image_shape' {image_shape!r} holds {height * width} "
                         f"pixels, but X has {n_features} features")
    return int(height), int(width)


def _check_target(path, kind, overwrite):
    if not (path.exists() or path.is_symlink()):
        return
    if kind == "png" and not path.is_dir():
        raise NotADirectoryError(f"{path}: exists and is a file; refusing to replace a file "
                                 "with a folder of images")
    if kind != "png" and path.is_dir():
        raise IsADirectoryError(f"{path}: exists and is a folder; refusing to replace a "
                                f"folder with a .{kind} file")
    if not overwrite:
        raise FileExistsError(f"{path}: already exists; refusing to overwrite it (pass "
                              "--force, or overwrite=True)")


def _sync(file):
    file.flush()
    os.fsync(file.fileno())


def _save_npy(tmp, array):
    # np.save on a file name would append ".npy" to the temporary name.
    with open(tmp, "wb") as file:
        np.save(file, array, allow_pickle=False)
        _sync(file)


def _save_npz(tmp, array, key):
    # What np.savez does, without its keyword arguments (a key "file" would clash).
    with open(tmp, "wb") as file:
        with zipfile.ZipFile(file, "w", compression=zipfile.ZIP_STORED,
                             allowZip64=True) as archive:
            with archive.open(f"{key}.npy", "w", force_zip64=True) as member:
                np.lib.format.write_array(member, array, allow_pickle=False)
        _sync(file)


def _save_csv(tmp, X, header):
    with open(tmp, "w", encoding="utf-8", newline="") as file:
        if header is not None:
            csv.writer(file, lineterminator="\n").writerow(header)
        for row in X:
            # repr of a Python float is the shortest text that reads back identically.
            file.write(",".join(map(repr, row.tolist())) + "\n")
        _sync(file)


def _png_shape(path, n_features, image_shape, source):
    if image_shape is not None:
        return image_shape
    if source is not None and source.image_shape is not None:
        height, width = source.image_shape
        if height * width == n_features:
            return int(height), int(width)
        raise ValueError(f"{path}: the input's images are {height}x{width} pixels, but X "
                         f"has {n_features} features; pass 'image_shape' (height, width)")
    side = math.isqrt(n_features)
    if side * side != n_features:
        raise ValueError(f"{path}: cannot tell the image size: X has {n_features} features, "
                         "which is not a perfect square; pass 'image_shape' (height, width)")
    return side, side


def _png_names(n_samples, source):
    names = source.names if source is not None else None
    if names is None or len(names) != n_samples:
        width = max(6, len(str(n_samples - 1)))
        return [f"{i:0{width}d}.png" for i in range(n_samples)]
    for name in names:
        if (not isinstance(name, str) or Path(name).name != name or name.startswith(".")
                or not name.lower().endswith(".png")):
            raise ValueError(f"'source.names' must be plain .png file names, got {name!r}")
    if len({name.casefold() for name in names}) != len(names):
        raise ValueError("'source.names' must not repeat a name")
    return list(names)


def _sibling_dir(path, tag):
    """Create and return a new hidden folder beside `path` (permissions as for mkdir)."""
    while True:
        candidate = path.with_name(f".{path.name}.{secrets.token_hex(4)}.{tag}")
        try:
            candidate.mkdir()
        except FileExistsError:
            continue
        return candidate


def _write_png_folder(path, X, shape, names, overwrite):
    from PIL import Image

    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _sibling_dir(path, "tmp")
    try:
        for row, name in zip(X, names):
            pixels = np.rint(np.clip(row, 0, 1) * 255).astype(np.uint8).reshape(shape)
            Image.fromarray(pixels).save(tmp / name, format="PNG")
        _replace_folder(tmp, path, overwrite)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return path


def _replace_folder(new, path, overwrite):
    """Rename the folder `new` to `path`, moving an existing `path` aside first."""
    if not (path.exists() or path.is_symlink()):
        os.rename(new, path)
        return
    if not overwrite:
        raise FileExistsError(f"{path}: already exists; refusing to overwrite it (pass "
                              "--force, or overwrite=True)")
    aside = _sibling_dir(path, "old")
    old = aside / path.name
    os.rename(path, old)
    try:
        os.rename(new, path)
    except BaseException:
        os.rename(old, path)
        os.rmdir(aside)
        raise
    try:
        shutil.rmtree(aside)
    except OSError as exc:
        warnings.warn(f"{path}: written, but the folder it replaced could not be deleted "
                      f"from {aside} ({exc})", stacklevel=4)
