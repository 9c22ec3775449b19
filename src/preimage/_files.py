"""File handling shared by the command line: never overwrite, never leave half a file."""

import os
from pathlib import Path
import tempfile

__all__ = ["fresh_path", "atomic_write"]


def fresh_path(path):
    """`path` if nothing is there, else the first free ``stem-N.suffix``."""
    path = Path(path)
    if not path.exists():
        return path
    n = 1
    while True:
        candidate = path.with_name(f"{path.stem}-{n}{path.suffix}")
        if not candidate.exists():
            return candidate
        n += 1


def atomic_write(path, write, *, overwrite=False):
    """Call ``write(tmp_path)`` and rename the result to `path`.

    The file appears whole or not at all. An existing `path` is an error unless
    `overwrite`.
    """
    path = Path(path)
    if path.exists() and not overwrite:
        raise FileExistsError(f"{str(path)!r} exists; refusing to overwrite it")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise type(exc)(
            f"{path}: cannot create the folder {exc.filename} ({exc.strerror or exc})"
        ) from None
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=path.suffix)
    except OSError as exc:
        # The error would name the temporary file; name the file asked for.
        raise type(exc)(f"{path}: cannot write in {path.parent} ({exc.strerror or exc})") from None
    os.close(fd)
    try:
        write(tmp)
        # mkstemp makes the file private (0600); give it the mode a plain
        # open() would, by the user's umask.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise
    return path
