"""The memory this process may use: the smaller of the host's RAM and the cgroup limit
(v2 ``memory.max``, v1 ``memory.limit_in_bytes``) of its cgroup and ancestors, which a
container enforces by the OOM killer. Unreadable files set no limit."""

import os
from pathlib import Path, PurePosixPath

#: Where the cgroup hierarchies are mounted, and the file naming this process's cgroups
#: (module attributes, so that tests can point them at a simulated tree).
CGROUP_ROOT = "/sys/fs/cgroup"
PROC_SELF_CGROUP = "/proc/self/cgroup"


def host_memory():
    """The host's physical memory in bytes; 16 GiB where the system does not say."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        return 16 * 2**30


def _read_int(path):
    """The integer a file holds, or None (unreadable, ``max``, unparsable)."""
    try:
        return int(Path(path).read_text().strip())
    except (OSError, UnicodeDecodeError, ValueError):
        return None


def cgroup_memory_limit(root=None, proc_cgroup=None):
    """The smallest memory limit in bytes of this process's cgroup and its ancestors, or
    None (v1's 2**62 and above mean unlimited); paths default to the module's."""
    root = Path(CGROUP_ROOT if root is None else root)
    try:
        lines = Path(PROC_SELF_CGROUP if proc_cgroup is None else proc_cgroup).read_text()
    except (OSError, UnicodeDecodeError):
        lines = ""
    limits = []
    for line in lines.splitlines():
        _, controllers, path = (line.split(":", 2) + ["", ""])[:3]
        if not path.startswith("/"):
            continue
        if controllers == "":
            folder, name = root, "memory.max"
        elif "memory" in controllers.split(","):
            folder, name = root / "memory", "memory.limit_in_bytes"
        else:
            continue
        parts = PurePosixPath(path).parts[1:]
        limits += [_read_int(folder.joinpath(*parts[:i], name)) for i in range(len(parts) + 1)]
    return min((v for v in limits if v is not None and 0 < v < 2**62), default=None)


def available_memory(root=None, proc_cgroup=None):
    """Bytes this process may use: the smaller of the host's RAM and its cgroup's limit."""
    limit = cgroup_memory_limit(root, proc_cgroup)
    return host_memory() if limit is None else min(host_memory(), limit)
