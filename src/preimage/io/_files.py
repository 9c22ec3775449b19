"""Files and folders written whole or not at all, and never over another.

Made under a temporary name ``.NAME.preimage-HOST-PID-TOKEN.tmp`` beside the
final one, then given the final name in one step that fails if it is taken: a
file by ``os.link`` (or, without hard links, a name claimed with ``O_EXCL``), a
folder by renaming it onto an empty folder claimed with ``os.mkdir``. Two
writers racing for one name: one wins, the other gets a FileExistsError. What
a killed writer leaves is removed by the next write (:func:`remove_stale_temps`).
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
import time
import zipfile

from preimage._utils.warnings import warn

#: A temporary name unchanged for this long (in seconds) is stale whoever made it.
STALE_AFTER = 24 * 3600

_TOKEN = r"\.preimage-(?P<host>[0-9a-f]{6})-(?P<pid>[1-9][0-9]*)-[0-9a-f]{8}"
_TEMP = re.compile(rf"\.(?P<name>.+){_TOKEN}\.(?P<kind>tmp|old)(?:\.[A-Za-z0-9]+)?")
_IN_TEXT = re.compile(rf"\.([^\s/'\"]+?){_TOKEN}\.(?:tmp|old)(?:\.[A-Za-z0-9]+)?")

# os.link fails with these where the file system has no hard links.
_NO_LINKS = {errno.EPERM, errno.EXDEV, errno.EMLINK, errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOTSUP}


def refusal(path):
    """The error refusing to overwrite `path`."""
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
    return _IN_TEXT.sub(r"\1", text)


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
    except OSError as exc:  # PermissionError: there, and not ours
        return isinstance(exc, ProcessLookupError)
    return False


def remove_stale_temps(folder):
    """Remove from `folder` the temporaries of dead writers (process gone, or
    unchanged for :data:`STALE_AFTER` seconds); an ``.old`` folder once replaced."""
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
        _remove(entry.path, entry.is_dir(follow_symlinks=False))


def check_writable(path):
    """Refuse now a `path` whose nearest existing folder cannot be written in."""
    path = Path(path)
    folder = path.parent
    while not os.path.lexists(folder) and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise NotADirectoryError(f"{path}: cannot create the folder {folder} (it is a file)")
    probe = _temp_path(folder / path.name, "tmp")
    try:
        _create(probe)
    except OSError as exc:
        raise _named(exc, path, f"cannot write in {folder}") from None
    os.unlink(probe)


def _create(path, folder=False):
    """Make `path`, an empty folder or file; FileExistsError if the name is taken."""
    if folder:
        os.mkdir(path)
    else:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))


def _remove(path, folder):
    """Remove a file, or a folder and its content; errors are ignored."""
    if folder:
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(OSError):
            os.unlink(path)


def _claim_and_move(tmp, path, folder):
    """Claim `path` with an empty folder or file, then rename `tmp` onto the claim."""
    try:
        _create(path, folder)
    except FileExistsError:
        raise refusal(path) from None
    claim = os.lstat(path)
    try:
        os.rename(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            now = os.lstat(path)
            if (now.st_dev, now.st_ino) == (claim.st_dev, claim.st_ino):
                (os.rmdir if folder else os.unlink)(path)  # our claim, not another's
        raise


def _link_new(tmp, path):
    """Give the file `tmp` the name `path` if no file has it; FileExistsError if one has."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise refusal(path) from None
    except OSError as exc:
        if exc.errno not in _NO_LINKS:
            raise
        _claim_and_move(tmp, path, folder=False)
        return
    with contextlib.suppress(OSError):  # written; a temporary left is removed as stale
        os.unlink(tmp)


def _check_sort(path, folder):
    """Refuse to replace anything but a folder with a folder, or a folder with a file."""
    if folder and (not path.is_dir() or path.is_symlink()):
        raise NotADirectoryError(
            f"{path}: exists and is not a folder; refusing to replace it with a folder"
        )
    if not folder and path.is_dir() and not path.is_symlink():
        raise IsADirectoryError(
            f"{path}: exists and is a folder; refusing to replace a folder with a file"
        )


def _replace_dir(tmp, path):
    """Put the folder `tmp` in place of the folder `path`, then delete the old one."""
    if not os.path.lexists(path):
        try:
            return _claim_and_move(tmp, path, folder=True)
        except FileExistsError:
            pass  # made meanwhile: replace it
    _check_sort(path, folder=True)
    old = _temp_path(path, "old")
    os.rename(path, old)
    try:
        os.rename(tmp, path)
    except BaseException:
        os.rename(old, path)
        raise
    try:
        shutil.rmtree(old)
    except OSError as exc:
        warn(
            f"{path}: written, but the folder it replaced could not be deleted from {old} ({exc})",
            UserWarning,
        )


def _atomic(path, make, overwrite, numbered, folder):
    path = Path(path)
    if os.path.lexists(path) and not numbered:
        if not overwrite:
            raise refusal(path)
        _check_sort(path, folder)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise type(exc)(
            f"{path}: cannot create the folder {exc.filename} ({exc.strerror or exc})"
        ) from None
    remove_stale_temps(path.parent)
    tmp = _temp_path(path, "tmp", "" if folder else path.suffix)
    try:
        _create(tmp, folder)
    except OSError as exc:
        raise _named(exc, path, f"cannot write in {path.parent}") from None
    try:
        make(tmp)
        if overwrite and not numbered:
            _replace_dir(tmp, path) if folder else os.replace(tmp, path)
            return path
        stem, suffix = (path.name, "") if folder else (path.stem, path.suffix)
        for n in range(2**31):  # the first free name, if numbered
            name = path.with_name(f"{stem}-{n}{suffix}") if n else path
            try:
                _claim_and_move(tmp, name, True) if folder else _link_new(tmp, name)
                return name
            except FileExistsError:
                if not numbered:
                    raise
    except BaseException as exc:
        _remove(tmp, folder)  # tidying must not hide the failure
        if isinstance(exc, OSError) and not isinstance(exc, FileExistsError):
            raise _named(exc, path) from None
        raise


def atomic_write(path, write, *, overwrite=False, numbered=False):
    """Call ``write(tmp)`` to write a file beside `path`, then give it `path`'s name.

    An existing `path` is a :class:`FileExistsError` (also when another writer
    takes it meanwhile) unless `overwrite`, or `numbered`: then the first free
    name of ``stem-1.suffix``, ``stem-2.suffix``, ... is taken. An
    :class:`OSError` names `path`, never the temporary. Returns the path written.
    """
    return _atomic(path, write, overwrite, numbered, folder=False)


def atomic_dir(path, fill, *, overwrite=False, numbered=False):
    """Call ``fill(tmp)`` to fill a new folder, then rename it to `path`; as
    :func:`atomic_write` (`overwrite` replaces a folder whole, `numbered` takes
    ``path-1``, ``path-2``, ...)."""
    return _atomic(path, fill, overwrite, numbered, folder=True)


_KINDS = {
    stat.S_IFDIR: "is a folder",
    stat.S_IFIFO: "is a FIFO (named pipe)",
    stat.S_IFSOCK: "is a socket",
    stat.S_IFCHR: "is a character device",
    stat.S_IFBLK: "is a block device",
}


def file_kind(mode):
    """What a file of `mode` (``st_mode``) is, for messages: ``"is a FIFO (named pipe)"``."""
    return _KINDS.get(stat.S_IFMT(mode), "is a special file")


def open_regular(path, name=None, *, follow_links=False):
    """`path` opened in binary if a regular file (checked once open, opened
    without blocking), else a :class:`ValueError` naming `name`."""
    name = path if name is None else name
    flags = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)
    flags |= 0 if follow_links else getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise ValueError(f"{name}: cannot be opened ({exc.strerror})") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise ValueError(f"{name}: {file_kind(mode)}, not a regular file")
    return os.fdopen(fd, "rb")


def read_into(file, buffer):
    """Fill `buffer` (bytes) from `file` a mebibyte at a time, up to its
    end; the number of bytes read."""
    view, got = memoryview(buffer), 0
    while got < len(view) and (n := file.readinto(view[got : got + 2**20])):
        got += n
    return got


def zip_directory(file):
    """(members, bytes) of the central directory the zip `file`'s end records
    declare (zip64's included; (0, 0) if it has none), read before
    :class:`zipfile.ZipFile` builds an object for every member listed."""
    end = zipfile._EndRecData(file) or [0] * 6  # the records ZipFile itself reads
    file.seek(0)
    return end[zipfile._ECD_ENTRIES_TOTAL], end[zipfile._ECD_SIZE]
