"""The memory this process may use: the host's RAM or its container's limit.

On a shared machine the host's total overstates what a process has: a
container's memory limit is enforced by the OOM killer, not by a failed
allocation. The limit is the smaller of the host's RAM and the cgroup limit of
this process and its ancestors (v2 ``memory.max``, v1
``memory.limit_in_bytes``); the cgroup files are found under
:data:`CGROUP_ROOT` for the cgroups named in :data:`PROC_SELF_CGROUP` (module
attributes, so that tests can point them at a simulated tree). A file that
cannot be read means no limit from it.
"""

import os
from pathlib import Path, PurePosixPath

__all__ = [
    "CGROUP_ROOT",
    "PROC_SELF_CGROUP",
    "host_memory",
    "cgroup_memory_limit",
    "available_memory",
]

#: Where the cgroup hierarchies are mounted (v2 directly, v1 one folder per controller).
CGROUP_ROOT = "/sys/fs/cgroup"
#: The file naming this process's cgroup in each hierarchy.
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
    """The smallest memory limit in bytes of this process's cgroup and its
    ancestors (a container mounts its own cgroup as the root), or None.

    `root` and `proc_cgroup` default to :data:`CGROUP_ROOT` and
    :data:`PROC_SELF_CGROUP`. v1 values of 2**62 and above are the kernel's
    "unlimited".
    """
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
    """Bytes of memory this process may use: the smaller of the host's RAM
    and its cgroup's limit (arguments as for :func:`cgroup_memory_limit`)."""
    limit = cgroup_memory_limit(root, proc_cgroup)
    return host_memory() if limit is None else min(host_memory(), limit)
