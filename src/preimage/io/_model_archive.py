"""The members of a model file, read with bounded memory.

:func:`numpy.load` unpacks a member whole before anything can be checked (a
zip bomb). Here each member is streamed: its ``.npy`` header is read first and
its dtype, shape and size checked against the record, the zip's declared size
and the limit; then exactly that many bytes are read. The metadata's JSON is
bounded (depth, number of values) before it is parsed.
"""

import errno
import os
import re
import zipfile

import numpy as np

from preimage.exceptions import ModelFileError
from preimage.io._files import open_regular
from preimage.io._model_codec import check_dtype

__all__ = [
    "MAX_DEPTH",
    "MAX_METADATA_BYTES",
    "MAX_NODES",
    "check_json_size",
    "open_archive",
    "read_member",
]

#: The largest metadata member, in bytes.
MAX_METADATA_BYTES = 64 * 2**20
#: The deepest nesting of JSON arrays and objects in the metadata.
MAX_DEPTH = 100
#: The most JSON values (arrays, objects and the items in them) in the metadata.
MAX_NODES = 200_000

_NPY_MAGIC = b"\x93NUMPY"
_read_header_2_0 = np.lib.format.read_array_header_2_0
_CHUNK = 2**20
# A JSON string literal; what is inside cannot open or close anything.
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


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
        return _Archive(file)
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
    except ModelFileError:
        raise
    except Exception as exc:  # a header numpy cannot read: damaged or hostile
        raise ModelFileError(
            f"{path}: {what} has an unreadable header ({type(exc).__name__}: {exc}); "
            "the file is damaged or altered"
        ) from None
    return dtype, shape, fortran


def read_member(archive, name, path, what, dtype, shape, limit):
    """The array stored as ``name.npy`` in `archive`, as `what` (for messages) says.

    Its dtype must be `dtype` (None: any plain one), its shape `shape` (None: any
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
            check_dtype(found.str, f"{what}'s dtype", path)
            if dtype is not None and found.str != dtype:
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
            buffer, done = bytearray(nbytes), 0
            while done < nbytes:
                chunk = raw.read(min(_CHUNK, nbytes - done))
                if not chunk:
                    raise ModelFileError(f"{path}: {what} is truncated")
                buffer[done : done + len(chunk)] = chunk
                done += len(chunk)
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


def check_json_size(text, path):
    """Refuse JSON `text` deeper than :data:`MAX_DEPTH` or of over :data:`MAX_NODES` values."""
    bare = _STRING.sub(b'""', text)
    nodes = sum(bare.count(c) for c in (b"[", b"{", b","))
    if nodes > MAX_NODES:
        raise ModelFileError(
            f"{path}: the metadata holds over {MAX_NODES:,} JSON values; the file was altered"
        )
    brackets = np.frombuffer(bare.translate(None, _NOT_BRACKETS), dtype=np.uint8)
    opens = (brackets == ord("[")) | (brackets == ord("{"))
    depth = np.cumsum(np.where(opens, 1, -1), dtype=np.int64)
    if depth.size and depth.max() > MAX_DEPTH:
        raise ModelFileError(
            f"{path}: the metadata is nested {int(depth.max())} levels deep, beyond "
            f"{MAX_DEPTH}; the file was altered"
        )
