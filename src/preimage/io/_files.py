"""Files and folders written whole or not at all, and never over another.

A file is written under a temporary name beside its final one, then given its
final name in one step that fails if the name is taken: a hard link
(``os.link`` refuses an existing name), where the file system has none, a
name claimed with ``O_EXCL`` and replaced; with ``overwrite``, ``os.replace``.
A folder is filled under a temporary name beside its final one and renamed
into place: ``renameat2(RENAME_NOREPLACE)`` on Linux, elsewhere the final
name claimed with ``os.mkdir`` and the folder renamed onto the empty claim;
with ``overwrite``, the two folders are exchanged in one step
(``RENAME_EXCHANGE``) or, without it, the old one is renamed aside first. Two
writers racing for one name: one wins, the other gets a
:class:`FileExistsError`, and the name holds one whole result.

Temporary names are ``.NAME.preimage-HOST-PID-TOKEN.tmp`` (``.old`` for a
folder being replaced; a file keeps its suffix after ``.tmp``), HOST a hash
of the host name and PID the writer's process. A writer interrupted by an
exception, Ctrl-C or a SIGTERM the command line turns into one removes its
temporary files; what a killed writer (``kill -9``, a power cut) leaves is
removed by the next write into the same folder (:func:`remove_stale_temps`):
a name of exactly that pattern whose process, on this host, is gone, or that
has not changed for a day. Nothing else is ever removed.

A file from elsewhere is read only if it is a regular file
(:func:`open_regular`): opened without blocking (opening a FIFO would wait for
a writer) and checked once open.
"""

import contextlib
import errno
import functools
import os
from pathlib import Path
import re
import secrets
import shutil
import stat
import sys
import time

from preimage._utils.warnings import warn

__all__ = [
    "atomic_dir",
    "atomic_write",
    "check_writable",
    "file_kind",
    "open_regular",
    "remove_stale_temps",
    "without_temp_names",
]

#: A temporary name unchanged for this long (in seconds) is stale whoever made it.
STALE_AFTER = 24 * 3600

_TEMP = re.compile(
    r"\.(?P<name>.+)\.preimage-(?P<host>[0-9a-f]{6})-(?P<pid>[1-9][0-9]*)-[0-9a-f]{8}"
    r"\.(?P<kind>tmp|old)(?:\.[A-Za-z0-9]+)?"
)

# os.link fails with these where the file system has no hard links.
_NO_LINKS = {errno.EPERM, errno.EXDEV, errno.EMLINK, errno.ENOSYS, errno.EOPNOTSUPP}
_NO_LINKS.add(getattr(errno, "ENOTSUP", errno.EOPNOTSUPP))
_RENAME_NOREPLACE, _RENAME_EXCHANGE = 1, 2


def _refusal(path):
    return FileExistsError(
        f"{path}: already exists; refusing to overwrite it (pass --force, or overwrite=True)"
    )


def _named(exc, path, doing=None):
    """`exc` (an OSError) retold naming `path`, the file asked for, not a temporary one."""
    if str(exc).startswith(f"{path}: "):
        return exc
    detail = exc.strerror or str(exc)
    message = f"{path}: {doing} ({detail})" if doing else f"{path}: {detail}"
    try:
        named = type(exc)(message)
    except TypeError:
        named = OSError(message)
    named.errno = exc.errno  # (not strerror: str() would become "[Errno N] ...")
    return named


@functools.cache
def _host():
    import hashlib
    import socket

    return hashlib.blake2s(socket.gethostname().encode(), digest_size=3).hexdigest()


def _temp_path(path, kind, suffix=""):
    token = f"preimage-{_host()}-{os.getpid()}-{secrets.token_hex(4)}"
    return path.with_name(f".{path.name[:120]}.{token}.{kind}{suffix}")


def without_temp_names(text):
    """`text` with each temporary name of this module replaced by its final name."""
    return re.sub(
        r"\.([^\s/'\"]+?)\.preimage-[0-9a-f]{6}-[1-9][0-9]*-[0-9a-f]{8}\.(?:tmp|old)"
        r"(?:\.[A-Za-z0-9]+)?",
        r"\1",
        text,
    )


def _is_stale(match, entry):
    try:
        if time.time() - entry.stat(follow_symlinks=False).st_mtime > STALE_AFTER:
            return True
    except OSError:
        return False
    pid = int(match["pid"])
    if os.name != "posix" or match["host"] != _host() or pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)  # signal 0: is the process there?
    except ProcessLookupError:
        return True
    except OSError:
        return False  # there, and not ours
    return False


def remove_stale_temps(folder):
    """Remove from `folder` the temporary files and folders of writers that died.

    Only names of the exact pattern of this module's temporary names, whose
    process on this host is gone or that have not changed for
    :data:`STALE_AFTER` seconds; an ``.old`` folder (the previous content of
    a folder being replaced) only once the new folder is in place. Errors are
    ignored: this is tidying, not the write.
    """
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        match = _TEMP.fullmatch(entry.name)
        if match is None or not _is_stale(match, entry):
            continue
        if match["kind"] == "old" and not os.path.lexists(os.path.join(folder, match["name"])):
            continue  # the swap did not happen: the old folder is the only copy
        try:
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)
        except OSError:
            pass


def _make_parent(path):
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise type(exc)(
            f"{path}: cannot create the folder {exc.filename} ({exc.strerror or exc})"
        ) from None


def check_writable(path):
    """Refuse now a `path` whose folder could not be created or written in.

    The nearest existing folder above `path` must be a folder the process can
    create a file in (a file is created there and removed at once): a
    read-only file system or a folder without permission fails before the
    work rather than after it.
    """
    path = Path(path)
    folder = path.parent
    while not os.path.lexists(folder) and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise NotADirectoryError(f"{path}: cannot create the folder {folder} (it is a file)")
    probe = _temp_path(folder / path.name, "tmp")
    try:
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    except OSError as exc:
        raise _named(exc, path, f"cannot write in {folder}") from None
    os.unlink(probe)


def _renameat2(src, dst, flags):
    """Linux's ``renameat2(src, dst, flags)``; False where the system or the
    file system does not have it."""
    rename = _libc_renameat2()
    if rename is None:
        return False
    import ctypes

    if rename(-100, os.fsencode(src), -100, os.fsencode(dst), flags) == 0:  # AT_FDCWD
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(src), None, str(dst))


@functools.cache
def _libc_renameat2():
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        rename = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return None
    rename.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    rename.restype = ctypes.c_int
    return rename


def _link_new(tmp, path):
    """Give the file `tmp` the name `path` if no file has it; FileExistsError if one has."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise _refusal(path) from None
    except OSError as exc:
        if exc.errno not in _NO_LINKS:
            raise
        _claim_and_replace(tmp, path)
        return
    with contextlib.suppress(OSError):  # written; a temporary left is removed as stale
        os.unlink(tmp)


def _claim_and_replace(tmp, path):
    # Without hard links: claim the name with an empty file, then replace it.
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except FileExistsError:
        raise _refusal(path) from None
    claim = os.fstat(fd)
    os.close(fd)
    try:
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            now = os.lstat(path)
            if (now.st_dev, now.st_ino) == (claim.st_dev, claim.st_ino):
                os.unlink(path)  # our empty claim, not another writer's file
        raise


def _numbered(path, n):
    return path if n == 0 else path.with_name(f"{path.stem}-{n}{path.suffix}")


def _numbered_dir(path, n):
    return path if n == 0 else path.with_name(f"{path.name}-{n}")


def _first_free(move, tmp, path, numbered, name):
    """``move(tmp, name(path, n))`` for n = 0, 1, ... until a name is free:
    the name taken. Without `numbered`, only n = 0 (FileExistsError if taken)."""
    n = 0
    while True:
        try:
            move(tmp, name(path, n))
            return name(path, n)
        except FileExistsError:
            if not numbered:
                raise
            n += 1


def atomic_write(path, write, *, overwrite=False, numbered=False):
    """Call ``write(tmp)`` to write a file beside `path`, then give it `path`'s name.

    The file appears whole or not at all. An existing `path` is an error
    (:class:`FileExistsError`, also when another writer takes the name while
    this one writes) unless `overwrite`, or `numbered`: then the first free
    name of ``stem-1.suffix``, ``stem-2.suffix``, ... is taken. An
    :class:`OSError` names `path`, never the temporary file. Returns the path
    written.
    """
    path = Path(path)
    if os.path.lexists(path) and not numbered:
        if not overwrite:
            raise _refusal(path)
        if path.is_dir() and not path.is_symlink():
            raise IsADirectoryError(
                f"{path}: exists and is a folder; refusing to replace a folder with a file"
            )
    _make_parent(path)
    remove_stale_temps(path.parent)
    tmp = _temp_path(path, "tmp", path.suffix)
    try:
        os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    except OSError as exc:
        raise _named(exc, path, f"cannot write in {path.parent}") from None
    try:
        try:
            write(tmp)
            if overwrite and not numbered:
                os.replace(tmp, path)
                return path
            return _first_free(_link_new, tmp, path, numbered, _numbered)
        except FileExistsError:
            raise
        except OSError as exc:
            raise _named(exc, path) from None
    except BaseException:
        with contextlib.suppress(OSError):  # tidying must not hide the failure
            os.unlink(tmp)
        raise


def _move_dir_new(tmp, path):
    """Rename the folder `tmp` to `path` if nothing has that name; FileExistsError if it has."""
    try:
        if _renameat2(tmp, path, _RENAME_NOREPLACE):
            return
    except FileExistsError:
        raise _refusal(path) from None
    try:
        os.mkdir(path)  # claim the name; a folder can be renamed onto an empty one
    except FileExistsError:
        raise _refusal(path) from None
    try:
        os.rename(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):  # tidying must not hide the failure
            os.rmdir(path)
        raise


def _replace_dir(tmp, path):
    """Put the folder `tmp` in place of the folder `path`, then delete the old one."""
    if not os.path.lexists(path):
        try:
            _move_dir_new(tmp, path)
            return
        except FileExistsError:
            pass  # made meanwhile: replace it
    if not path.is_dir() or path.is_symlink():
        raise NotADirectoryError(
            f"{path}: exists and is not a folder; refusing to replace it with a folder"
        )
    if _renameat2(tmp, path, _RENAME_EXCHANGE):
        old = tmp  # the old folder now has the temporary name
    else:
        aside = _temp_path(path, "old")
        os.rename(path, aside)
        try:
            os.rename(tmp, path)
        except BaseException:
            os.rename(aside, path)
            raise
        old = aside
    try:
        shutil.rmtree(old)
    except OSError as exc:
        warn(
            f"{path}: written, but the folder it replaced could not be deleted from {old} ({exc})",
            UserWarning,
        )


def atomic_dir(path, fill, *, overwrite=False, numbered=False):
    """Call ``fill(tmp)`` to fill a new folder beside `path`, then rename it to `path`.

    The folder appears whole or not at all. An existing `path` is an error
    (:class:`FileExistsError`, also when another writer takes the name while
    this one writes) unless `overwrite` (an existing folder is replaced whole)
    or `numbered` (the first free name of ``path-1``, ``path-2``, ... is
    taken). An :class:`OSError` names `path`, never the temporary folder.
    Returns the folder written.
    """
    path = Path(path)
    if os.path.lexists(path) and not numbered:
        if not overwrite:
            raise _refusal(path)
        if not path.is_dir() or path.is_symlink():
            raise NotADirectoryError(
                f"{path}: exists and is not a folder; refusing to replace it with a folder"
            )
    _make_parent(path)
    remove_stale_temps(path.parent)
    while True:
        tmp = _temp_path(path, "tmp")
        try:
            os.mkdir(tmp)
            break
        except FileExistsError:
            continue
        except OSError as exc:
            raise _named(exc, path, f"cannot write in {path.parent}") from None
    try:
        try:
            fill(tmp)
            if overwrite and not numbered:
                _replace_dir(tmp, path)
                return path
            return _first_free(_move_dir_new, tmp, path, numbered, _numbered_dir)
        except FileExistsError:
            raise
        except OSError as exc:
            raise _named(exc, path) from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def file_kind(mode):
    """What a file of `mode` (``st_mode``) is, for messages: ``"is a FIFO (named pipe)"``."""
    for test, kind in (
        (stat.S_ISDIR, "is a folder"),
        (stat.S_ISFIFO, "is a FIFO (named pipe)"),
        (stat.S_ISSOCK, "is a socket"),
        (stat.S_ISCHR, "is a character device"),
        (stat.S_ISBLK, "is a block device"),
    ):
        if test(mode):
            return kind
    return "is a special file"


def open_regular(path, name=None, *, follow_links=False):
    """`path` opened for reading in binary, if it is a regular file.

    It is opened without blocking (opening a FIFO would wait for a writer)
    and checked once open (``fstat``): a file checked before and swapped for
    a FIFO or a device since is refused all the same. A link is followed only
    if `follow_links`. Errors are a :class:`ValueError` naming `name` (default:
    `path`).
    """
    name = path if name is None else name
    flags = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)
    if not follow_links:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise ValueError(f"{name}: cannot be opened ({exc.strerror})") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise ValueError(f"{name}: {file_kind(mode)}, not a regular file")
    return os.fdopen(fd, "rb")
