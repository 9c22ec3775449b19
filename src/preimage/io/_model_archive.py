"""The members of a model file, read with bounded memory.

:func:`numpy.load` unpacks a member whole before anything can be checked (a
zip bomb). Here each member is streamed: its ``.npy`` header is read first and
its dtype, shape and size checked against the record, the zip's declared size
and the limit; then exactly that many bytes are read. The metadata's JSON is
bounded (:data:`MAX_METADATA_BYTES`), and the number of members is read from
the zip's end record before its directory is parsed.
"""

import errno
import os
import zipfile

import numpy as np

from preimage.exceptions import ModelFileError
from preimage.io._files import open_regular, read_into, zip_directory

#: The largest metadata member, in bytes: a model's metadata is a few kilobytes.
MAX_METADATA_BYTES = 2**20
#: The most members a model file may have (a model holds a few dozen arrays).
MAX_MEMBERS = 256

_NPY_MAGIC = b"\x93NUMPY"
_read_header_2_0 = np.lib.format.read_array_header_2_0


def plain_dtype(text):
    """The dtype spelled `text` if plain numbers or Unicode strings, else None."""
    try:
        dtype = np.dtype(text) if isinstance(text, str) and len(text) < 40 else None
    except (TypeError, ValueError, SyntaxError):
        return None
    plain = dtype.kind in "biufcU" and dtype.subdtype is None and dtype.names is None
    return dtype if plain and not dtype.hasobject and dtype.itemsize <= 2**18 else None


class _Archive(zipfile.ZipFile):
    """A zip archive over a file it was given, closing that file with itself."""

    def __init__(self, file):
        self._given = file
        super().__init__(file)

    def close(self):
        try:
            super().close()
        finally:
            self._given.close()


def open_archive(path):
    """The model file at `path` as an open zip; a FIFO or a device is never read."""
    if not os.path.exists(path):
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(path))
    try:
        file = open_regular(path, follow_links=True)
    except ValueError as exc:
        raise ModelFileError(str(exc)) from None
    try:
        count, size = zip_directory(file)
        if count > MAX_MEMBERS or size > MAX_MEMBERS * 1024:
            raise ModelFileError(
                f"{path}: the archive declares {count:,} members in a directory of "
                f"{size:,} bytes, over the limit of {MAX_MEMBERS} members; the file was altered"
            )
        return _Archive(file)
    except ModelFileError:
        file.close()
        raise
    except (OSError, zipfile.BadZipFile, ValueError, EOFError) as exc:
        with file:
            file.seek(0)
            start = file.read(len(_NPY_MAGIC))
        if start.startswith(b"PK"):
            reason = f"damaged or truncated model file ({type(exc).__name__}: {exc})"
        elif start == _NPY_MAGIC:
            reason = "a single NumPy array, not a preimage model file"
        else:
            reason = "not a preimage model file, or truncated (neither a NumPy archive nor a NumPy array)"
        raise ModelFileError(f"{path}: {reason}") from None


def _header(file, what, path):
    """(dtype, shape, fortran_order) from an ``.npy`` header."""
    try:
        version = np.lib.format.read_magic(file)
        if version not in ((1, 0), (2, 0), (3, 0)):
            raise ValueError(f"unknown .npy format version {version}")
        read = np.lib.format.read_array_header_1_0 if version == (1, 0) else _read_header_2_0
        shape, fortran, dtype = read(file)
    except Exception as exc:  # a header numpy cannot read: damaged or hostile
        raise ModelFileError(
            f"{path}: {what} has an unreadable header ({type(exc).__name__}: {exc}); "
            "the file is damaged or altered"
        ) from None
    return dtype, shape, fortran


def read_member(archive, name, path, what, dtype, shape, limit):
    """The array stored as ``name.npy`` in `archive`, as `what` (for messages) says.

    Its dtype must be `dtype` (a plain one's ``str``), its shape `shape` (None: any
    1-D), its data at most `limit` bytes; else a :class:`ModelFileError`.
    """
    try:
        info = archive.getinfo(name + ".npy")
    except KeyError:
        raise ModelFileError(
            f"{path}: {what} is missing; the file is truncated or altered"
        ) from None
    try:
        with archive.open(info) as raw:
            found, found_shape, fortran = _header(raw, what, path)
            header = raw.tell()  # its length
            if found.str != dtype:
                raise ModelFileError(
                    f"{path}: {what} holds dtype {found.str!r}, but the metadata records "
                    f"{dtype!r}; the file was altered"
                )
            if len(found_shape) != 1 if shape is None else list(found_shape) != list(shape):
                expected = "one dimension" if shape is None else f"shape {tuple(shape)}"
                raise ModelFileError(
                    f"{path}: {what} has shape {found_shape}, but {expected} was expected; "
                    "the file was altered"
                )
            nbytes = int(np.prod(found_shape, dtype=np.float64)) * found.itemsize
            if nbytes > limit:
                raise ModelFileError(
                    f"{path}: {what} would need {nbytes:,} bytes, over the limit of "
                    f"{limit:,} bytes"
                )
            if info.file_size != header + nbytes:
                raise ModelFileError(
                    f"{path}: {what} unpacks to {info.file_size:,} bytes, but its header "
                    f"says {header + nbytes:,}; the file is damaged or altered"
                )
            buffer = bytearray(nbytes)
            if read_into(raw, buffer) < nbytes:
                raise ModelFileError(f"{path}: {what} is truncated")
            raw.read(1)  # at the end: the zip's CRC is checked
    except ModelFileError:
        raise
    except Exception as exc:  # zlib, zip CRC, short reads: a damaged archive
        raise ModelFileError(
            f"{path}: {what} cannot be read ({type(exc).__name__}: {exc}); the file is "
            "damaged or altered"
        ) from None
    array = np.frombuffer(buffer, dtype=found)
    return array.reshape(found_shape[::-1]).T if fortran else array.reshape(found_shape)
