"""What this process may use of the machine: memory, CPUs and threads.

On a shared machine the host's totals overstate what a process has. A
container's memory limit is enforced by the kernel's OOM killer, not by a
failed allocation, so a budget taken from the host's RAM lets a fit that
would be refused be killed instead; and a pool sized by ``os.cpu_count()``
oversubscribes a process pinned to a few cores, limited by a CPU quota, or
running as one of many workers. The readings here follow the conventions of
scikit-learn and joblib:

* memory: the host's RAM (``os.sysconf``) and the cgroup limit of this
  process (v2 ``memory.max``, v1 ``memory.limit_in_bytes``), the smaller;
* CPUs: the CPU affinity (``os.sched_getaffinity``, ``os.process_cpu_count``
  on Python 3.13+), the cgroup CPU quota (v2 ``cpu.max``, v1
  ``cpu.cfs_quota_us``) and ``LOKY_MAX_CPU_COUNT``, the smallest, as joblib's
  ``cpu_count`` does;
* threads: the limits a caller set for the process's numerical thread pools,
  in the environment (``OMP_NUM_THREADS`` and the BLAS variables, which joblib
  sets in its workers with ``inner_max_num_threads`` and a Dask nanny sets to
  1 in its worker processes) or at run time with threadpoolctl
  (``with threadpool_limits(1):``), the smallest.

The cgroup files are found under :data:`CGROUP_ROOT` for the cgroup named in
:data:`PROC_SELF_CGROUP`; both are module attributes (and arguments of the
readers) so that tests can point them at a simulated tree. A file that is
missing, unreadable or unparsable means no limit from it: outside a
container, or on a system without cgroups, the host's figures stand.
"""

import functools
import math
import os
from pathlib import Path, PurePosixPath
import sys

__all__ = [
    "CGROUP_ROOT",
    "PROC_SELF_CGROUP",
    "THREAD_LIMIT_VARIABLES",
    "host_memory",
    "cgroup_memory_limit",
    "cgroup_cpu_limit",
    "available_memory",
    "available_cpus",
    "thread_limit",
]

#: Where the cgroup hierarchies are mounted (v2 directly, v1 one folder per controller).
CGROUP_ROOT = "/sys/fs/cgroup"
#: The file naming this process's cgroup in each hierarchy.
PROC_SELF_CGROUP = "/proc/self/cgroup"
#: Environment variables that limit a process's numerical threads: those joblib
#: sets in its workers (``inner_max_num_threads``) for OpenMP and the BLAS
#: libraries. NUMBA_, NUMEXPR_ and TBB_ variables concern other libraries.
THREAD_LIMIT_VARIABLES = (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "BLIS_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
)
# A v1 memory limit this large is the kernel's "unlimited" (PAGE_COUNTER_MAX
# pages: 2**63 - 4096 bytes with 4 KiB pages, a little less with larger ones).
_V1_UNLIMITED = 2**62


def host_memory():
    """The host's physical memory in bytes (``os.sysconf``); 16 GiB where the
    system does not say."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        return 16 * 2**30


def _read(path):
    """The stripped text of a file, or None when it cannot be read."""
    try:
        return Path(path).read_text().strip()
    except (OSError, UnicodeDecodeError):
        return None


def _own_cgroups(proc_cgroup):
    """{controller: path} of this process's cgroups; ``""`` is the v2 (unified)
    hierarchy, ``"memory"``, ``"cpu"``, ... the v1 controllers, each also under
    the name of its mount folder (``"cpu,cpuacct"``)."""
    text = _read(proc_cgroup) or ""
    groups = {}
    for line in text.splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3 or not parts[2].startswith("/"):
            continue
        _, controllers, path = parts
        groups[controllers] = path
        for name in controllers.split(","):
            groups.setdefault(name, path)
    return groups


def _ancestry(folder, path):
    """The folders of cgroup `path` and of each of its ancestors, under the
    hierarchy mounted at `folder`. A limit on an ancestor binds its
    descendants, and in a container without a cgroup namespace the process's
    own path is not mounted at all: only the mount (its root) is."""
    path = PurePosixPath(path)
    chain = [path, *path.parents]
    return [Path(folder, *p.parts[1:]) for p in chain]


def _smallest(values):
    values = [v for v in values if v is not None]
    return min(values) if values else None


def _parse_int(text):
    try:
        return int(text)
    except (TypeError, ValueError):
        return None


def cgroup_memory_limit(root=None, proc_cgroup=None):
    """The memory limit of this process's cgroup in bytes, or None if it has none.

    Parameters
    ----------
    root : str or path, optional
        Where the hierarchies are mounted; default :data:`CGROUP_ROOT`.
    proc_cgroup : str or path, optional
        The file naming the process's cgroups; default :data:`PROC_SELF_CGROUP`.

    Returns
    -------
    limit : int or None
        The smallest limit over the process's cgroup and its ancestors, in the
        v2 hierarchy (``memory.max``; ``max`` is no limit) and the v1 memory
        controller (``memory/…/memory.limit_in_bytes``; values of 2**62 and
        above are the kernel's "unlimited"). None when no limit is set or
        none can be read.
    """
    root = CGROUP_ROOT if root is None else root
    groups = _own_cgroups(PROC_SELF_CGROUP if proc_cgroup is None else proc_cgroup)
    limits = []
    if "" in groups:
        for folder in _ancestry(root, groups[""]):
            text = _read(folder / "memory.max")
            limits.append(None if text == "max" else _parse_int(text))
    if "memory" in groups:
        for folder in _ancestry(Path(root, "memory"), groups["memory"]):
            value = _parse_int(_read(folder / "memory.limit_in_bytes"))
            limits.append(value if value is not None and value < _V1_UNLIMITED else None)
    return _smallest([v for v in limits if v is None or v > 0])


def cgroup_cpu_limit(root=None, proc_cgroup=None):
    """The CPU quota of this process's cgroup, in CPUs, or None if it has none.

    Parameters
    ----------
    root, proc_cgroup : str or path, optional
        As for :func:`cgroup_memory_limit`.

    Returns
    -------
    cpus : float or None
        ``quota / period`` (v2 ``cpu.max`` "quota period", ``max`` is no
        quota; v1 ``cpu.cfs_quota_us`` over ``cpu.cfs_period_us``, -1 is no
        quota), the smallest over the cgroup and its ancestors.
    """
    root = CGROUP_ROOT if root is None else root
    groups = _own_cgroups(PROC_SELF_CGROUP if proc_cgroup is None else proc_cgroup)
    quotas = []
    if "" in groups:
        for folder in _ancestry(root, groups[""]):
            parts = (_read(folder / "cpu.max") or "").split()
            if len(parts) == 2 and parts[0] != "max":
                quotas.append((_parse_int(parts[0]), _parse_int(parts[1])))
    if "cpu" in groups:
        # v1 mounts the controller as "cpu" or jointly with cpuacct, in either
        # order (often both, one a link to the other).
        for name in ("cpu", "cpu,cpuacct", "cpuacct,cpu"):
            for folder in _ancestry(Path(root, name), groups["cpu"]):
                quotas.append(
                    (
                        _parse_int(_read(folder / "cpu.cfs_quota_us")),
                        _parse_int(_read(folder / "cpu.cfs_period_us")),
                    )
                )
    return _smallest(
        [q / p for q, p in quotas if q is not None and p is not None and q > 0 and p > 0]
    )


def available_memory(root=None, proc_cgroup=None):
    """Bytes of memory this process may use: the smaller of the host's RAM
    and its cgroup's limit (arguments as for :func:`cgroup_memory_limit`)."""
    return _smallest([host_memory(), cgroup_memory_limit(root, proc_cgroup)])


@functools.cache
def _cgroup_cpus(root, proc_cgroup):
    # A CPU quota is set when a container starts; reading it costs a few file
    # reads, too many for every kernel block, so it is read once per process.
    return cgroup_cpu_limit(root, proc_cgroup)


def _positive_int(text):
    """The first entry of a thread-count variable (``OMP_NUM_THREADS=4,2`` sets
    4 for the outer level), or None when it is not a positive integer: the
    OpenMP and BLAS runtimes ignore such values too."""
    value = _parse_int((text or "").split(",")[0].strip())
    return value if value is not None and value > 0 else None


def available_cpus():
    """CPUs this process may run on: the smallest of its CPU affinity
    (``os.sched_getaffinity``; also ``os.process_cpu_count`` on Python 3.13+,
    which honours ``-X cpu_count``), the cgroup CPU quota rounded up, and
    ``LOKY_MAX_CPU_COUNT`` — the rule of joblib's ``cpu_count``. At least 1."""
    if hasattr(os, "sched_getaffinity"):
        # A system call of a microsecond; os.cpu_count() reads a file (20 µs)
        # and can only be larger.
        counts = [len(os.sched_getaffinity(0))]
    else:  # pragma: no cover - macOS, Windows
        counts = [os.cpu_count()]
    if hasattr(os, "process_cpu_count"):  # Python 3.13+
        counts.append(os.process_cpu_count())
    quota = _cgroup_cpus(str(CGROUP_ROOT), str(PROC_SELF_CGROUP))
    if quota is not None:
        counts.append(math.ceil(quota))
    counts.append(_positive_int(os.environ.get("LOKY_MAX_CPU_COUNT")))
    return max(_smallest([c for c in counts if c]) or 1, 1)


# (len(sys.modules) when made, threadpoolctl.ThreadpoolController) — see
# _threadpool_limit.
_CONTROLLER = (-1, None)


def _threadpool_limit():
    """The smallest thread count of the OpenMP and BLAS libraries loaded, as
    threadpoolctl reads it (``threadpool_limits`` sets these), or None.

    Finding the libraries (a ``ThreadpoolController``) takes milliseconds;
    asking each for its thread count takes microseconds. The controller is
    kept and made again only when ``sys.modules`` has changed size, which is
    when a newly imported extension may have loaded another library.
    """
    global _CONTROLLER
    n_modules = len(sys.modules)
    made_at, controller = _CONTROLLER
    if controller is None or made_at != n_modules:
        try:
            from threadpoolctl import ThreadpoolController
        except ImportError:  # pragma: no cover - a dependency of scikit-learn
            return None
        controller = ThreadpoolController()
        _CONTROLLER = (n_modules, controller)
    counts = []
    for lib in controller.lib_controllers:
        try:
            counts.append(lib.num_threads)
        except Exception:  # pragma: no cover - a library without the query
            continue
    return _smallest([c for c in counts if isinstance(c, int) and c > 0])


def thread_limit(environ=None):
    """The thread limit in effect for this process's numerical code, or None.

    Parameters
    ----------
    environ : mapping, optional
        The environment to read; default ``os.environ``.

    Returns
    -------
    limit : int or None
        The smallest of the positive integers in
        :data:`THREAD_LIMIT_VARIABLES` and of the thread counts of the OpenMP
        and BLAS libraries loaded (threadpoolctl's ``threadpool_limits`` sets
        these for a block; a variable set after a library was loaded reaches
        only this reading). None when nothing limits the threads.
    """
    environ = os.environ if environ is None else environ
    limits = [_positive_int(environ.get(name)) for name in THREAD_LIMIT_VARIABLES]
    limits.append(_threadpool_limit())
    return _smallest(limits)
