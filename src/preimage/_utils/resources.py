"""What this process may use of the machine: memory, CPUs and threads.

On a shared machine the host's totals overstate what a process has: a
container's memory limit is enforced by the OOM killer, not by a failed
allocation, and a pool sized by ``os.cpu_count()`` oversubscribes a process
pinned to a few cores or limited by a CPU quota.

* memory: the host's RAM and the cgroup limit of this process and its
  ancestors (v2 ``memory.max``, v1 ``memory.limit_in_bytes``), the smaller; the
  cgroup files are found under :data:`CGROUP_ROOT` for the cgroups named in
  :data:`PROC_SELF_CGROUP` (module attributes, so that tests can point them at
  a simulated tree). A file that cannot be read means no limit from it;
* CPUs: joblib's ``cpu_count`` (affinity, cgroup CPU quota, ``LOKY_MAX_CPU_COUNT``);
* threads: the limits a caller set for the numerical thread pools, in the
  environment (:data:`THREAD_LIMIT_VARIABLES`, which joblib sets in its workers
  and a Dask nanny in its worker processes) or with threadpoolctl, the smallest.
"""

import os
from pathlib import Path, PurePosixPath
import sys

__all__ = [
    "CGROUP_ROOT",
    "PROC_SELF_CGROUP",
    "THREAD_LIMIT_VARIABLES",
    "host_memory",
    "cgroup_memory_limit",
    "available_memory",
    "available_cpus",
    "thread_limit",
]

#: Where the cgroup hierarchies are mounted (v2 directly, v1 one folder per controller).
CGROUP_ROOT = "/sys/fs/cgroup"
#: The file naming this process's cgroup in each hierarchy.
PROC_SELF_CGROUP = "/proc/self/cgroup"
#: Environment variables that limit a process's numerical threads (OpenMP and BLAS).
THREAD_LIMIT_VARIABLES = (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "BLIS_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
)


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


def available_cpus():
    """CPUs this process may run on: joblib's ``cpu_count()``."""
    from joblib import cpu_count

    return cpu_count()


def _positive_int(text):
    """The first entry of a thread-count variable (``OMP_NUM_THREADS=4,2`` sets
    4 for the outer level), or None when it is not a positive integer, as the
    OpenMP and BLAS runtimes read it."""
    try:
        value = int((text or "").split(",")[0])
    except ValueError:
        return None
    return value if value > 0 else None


# (len(sys.modules) when made, threadpoolctl.ThreadpoolController)
_CONTROLLER = (-1, None)


def _threadpool_limit():
    """The smallest thread count of the OpenMP and BLAS libraries loaded, as
    threadpoolctl reads it, or None. Finding the libraries takes milliseconds:
    the controller is made again only when ``sys.modules`` has changed size."""
    global _CONTROLLER
    made_at, controller = _CONTROLLER
    if controller is None or made_at != len(sys.modules):
        from threadpoolctl import ThreadpoolController

        controller = ThreadpoolController()
        _CONTROLLER = (len(sys.modules), controller)
    counts = []
    for lib in controller.lib_controllers:
        try:
            counts.append(lib.num_threads)
        except Exception:  # pragma: no cover - a library without the query
            continue
    return min((c for c in counts if isinstance(c, int) and c > 0), default=None)


def thread_limit(environ=None):
    """The smallest thread limit in effect for this process's numerical code, or
    None: the positive integers of :data:`THREAD_LIMIT_VARIABLES` in `environ`
    (default ``os.environ``) and the thread counts threadpoolctl reads."""
    environ = os.environ if environ is None else environ
    limits = [_positive_int(environ.get(name)) for name in THREAD_LIMIT_VARIABLES]
    limits.append(_threadpool_limit())
    return min((v for v in limits if v is not None), default=None)
