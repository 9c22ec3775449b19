"""What the library takes of a shared machine: memory, CPUs, threads.

The memory budget's default is half of what the process may use, read from
the container's cgroup (simulated here as a file tree); the kernels' thread
pool uses as many threads as the CPUs (joblib's count) and the thread
limits in effect allow, with results bit-identical whatever the count.
"""

import os
import shutil
import subprocess
import sys
import threading

import numpy as np
import pytest
from threadpoolctl import threadpool_limits

from preimage import KernelPCA, config_context, get_config
from preimage._utils import config as _config
from preimage._utils import resources as _resources
from preimage.exceptions import MemoryBudgetError
from preimage.kernels import GaussianKernel, _pairwise

GiB = 2**30


# --- a simulated cgroup tree ------------------------------------------------


def cgroup_tree(tmp_path, files, proc_lines):
    """A cgroup mount under tmp_path/"cgroup" holding `files` ({relative path:
    text}), and a /proc/self/cgroup file of `proc_lines`; returns both paths."""
    root = tmp_path / "cgroup"
    root.mkdir()
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    proc = tmp_path / "proc_self_cgroup"
    proc.write_text("".join(line + "\n" for line in proc_lines))
    return root, proc


V1_PROC = ["9:name=systemd:/", "4:memory:/docker/abc", "2:cpu,cpuacct:/docker/abc", "0::/"]


@pytest.mark.parametrize(
    "files, proc_lines, expected",
    [
        pytest.param(
            {"app.slice/job/memory.max": f"{3 * GiB}\n"},
            ["0::/app.slice/job"],
            3 * GiB,
            id="v2-limit",
        ),
        pytest.param(
            {"app.slice/memory.max": f"{2 * GiB}\n", "app.slice/job/memory.max": "max\n"},
            ["0::/app.slice/job"],
            2 * GiB,
            id="v2-limit-on-a-parent",
        ),
        pytest.param(
            {"memory.max": f"{3 * GiB}\n"}, ["0::/"], 3 * GiB, id="v2-container-namespace-root"
        ),
        pytest.param(
            {"app.slice/job/memory.max": "max\n", "app.slice/memory.max": "max\n"},
            ["0::/app.slice/job"],
            None,
            id="v2-max",
        ),
        pytest.param(
            {"memory/docker/abc/memory.limit_in_bytes": f"{3 * GiB}\n"},
            V1_PROC,
            3 * GiB,
            id="v1-limit",
        ),
        pytest.param(
            {"memory/memory.limit_in_bytes": f"{3 * GiB}\n"},
            V1_PROC,
            3 * GiB,
            id="v1-container-mounts-its-own-group-as-root",
        ),
        pytest.param(
            {
                "memory/docker/abc/memory.limit_in_bytes": "9223372036854771712\n",
                "memory/memory.limit_in_bytes": "9223372036854771712\n",
            },
            V1_PROC,
            None,
            id="v1-unlimited-huge",
        ),
        pytest.param(
            {"memory/docker/abc/memory.limit_in_bytes": "lots\n"},
            V1_PROC,
            None,
            id="v1-unparsable",
        ),
        pytest.param({}, ["0::/app.slice/job"], None, id="v2-missing-files"),
        pytest.param(
            {
                "memory/docker/abc/memory.limit_in_bytes": f"{GiB}\n",
                "app.slice/memory.max": f"{3 * GiB}\n",
            },
            ["4:memory:/docker/abc", "0::/app.slice"],
            GiB,
            id="hybrid-smaller-wins",
        ),
    ],
)
def test_cgroup_memory_limit_read_from_the_process_cgroup(tmp_path, files, proc_lines, expected):
    root, proc = cgroup_tree(tmp_path, files, proc_lines)
    assert _resources.cgroup_memory_limit(root, proc) == expected


def test_unreadable_cgroup_files_mean_no_limit(tmp_path):
    root, proc = cgroup_tree(tmp_path, {}, ["0::/job"])
    (root / "job" / "memory.max").mkdir(parents=True)  # reading it fails (EISDIR)
    assert _resources.cgroup_memory_limit(root, proc) is None
    assert _resources.cgroup_memory_limit(root, tmp_path / "no_such_file") is None
    assert _resources.cgroup_memory_limit(tmp_path / "no_such_root", proc) is None


def test_available_memory_is_the_smaller_of_host_and_container(tmp_path):
    host = _resources.host_memory()
    for name, limit, expected in [("small", host // 4, host // 4), ("large", host * 4, host)]:
        (tmp_path / name).mkdir()
        root, proc = cgroup_tree(tmp_path / name, {"memory.max": f"{limit}\n"}, ["0::/"])
        assert _resources.available_memory(root, proc) == expected


@pytest.fixture
def container(tmp_path, monkeypatch):
    """``container(limit)`` makes the process see itself inside a cgroup v2
    container of `limit` bytes (the default paths pointed at a simulated
    tree), with no PREIMAGE_MEMORY_BUDGET and no budget set."""
    monkeypatch.delenv("PREIMAGE_MEMORY_BUDGET", raising=False)
    monkeypatch.setitem(_config._global, "memory_budget", None)

    def enter(limit):
        if _resources.host_memory() <= limit:
            pytest.skip("the host has no more memory than the simulated container")
        folder = tmp_path / f"container_{limit}"
        folder.mkdir()
        root, proc = cgroup_tree(folder, {"memory.max": f"{limit}\n"}, ["0::/"])
        monkeypatch.setattr(_resources, "CGROUP_ROOT", str(root))
        monkeypatch.setattr(_resources, "PROC_SELF_CGROUP", str(proc))

    return enter


def test_default_budget_is_half_the_container_limit(container):
    container(3 * GiB)
    assert get_config()["memory_budget"] == 3 * GiB // 2


def test_fit_inside_a_small_container_is_refused_not_killed(container):
    """5,000 points in 256 MiB: a 200 MB Gram matrix and its copy, over half
    the container (20,000 digits in 3 GiB are the same case, larger). On the
    host's default, half its RAM, this fit would be attempted."""
    container(256 * 2**20)
    X = np.random.default_rng(0).random((5_000, 16))
    with pytest.raises(
        MemoryBudgetError,
        match=r"5000 x 5000 .*would need 400\.0 MB, over the memory budget of "
        r"134\.2 MB",
    ):
        KernelPCA(4, kernel="rbf", gamma=0.1).fit(X)


def test_explicit_budget_and_environment_still_win(container, monkeypatch):
    container(3 * GiB)
    with config_context(memory_budget="10GB"):
        assert get_config()["memory_budget"] == 10**10
    monkeypatch.setenv("PREIMAGE_MEMORY_BUDGET", "5GB")
    assert get_config()["memory_budget"] == 5 * 10**9


# --- CPUs and threads ---------------------------------------------------------


# The readers as the library has them, before a test replaces them.
REAL_THREADPOOL_LIMIT = _resources._threadpool_limit


@pytest.fixture
def cpus(monkeypatch):
    """Set the CPUs the kernels' pool sees, with no thread limit in effect
    (no variables; threadpoolctl's reading, which on a one-core machine would
    say 1, neutralised)."""
    for name in _resources.THREAD_LIMIT_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(_resources, "_threadpool_limit", lambda: None)

    def set_cpus(n):
        monkeypatch.setattr(_pairwise, "available_cpus", lambda: n)

    return set_cpus


@pytest.fixture
def threads_used(monkeypatch):
    """The set of threads that ran the output pass of the blocks computed
    since the fixture started (a spy on the pass's row-range worker)."""
    used = set()
    original = _pairwise._map_blocks

    def spy(*args):
        used.add(threading.get_ident())
        return original(*args)

    monkeypatch.setattr(_pairwise, "_map_blocks", spy)
    return used


def large_block():
    """A Gaussian block large enough (600 x 600 entries) to be split."""
    X = np.random.default_rng(1).normal(size=(600, 20))
    assert X.shape[0] ** 2 >= _pairwise._PARALLEL_MIN_SIZE
    return GaussianKernel(gamma=0.05).block(X)


def test_two_cpus_give_two_threads(cpus, threads_used):
    """The control of the tests below: without limits the pass is split."""
    cpus(2)
    assert _pairwise.n_threads() == 2
    large_block()
    assert len(threads_used) == 2


def test_affinity_of_one_cpu_gives_one_thread(cpus, threads_used):
    cpus(1)
    assert _pairwise.n_threads() == 1
    large_block()
    assert threads_used == {threading.get_ident()}


def test_pool_is_capped(cpus):
    cpus(64)
    assert _pairwise.n_threads() == _pairwise._MAX_WORKERS


def test_available_cpus_follow_affinity_and_loky_max_cpu_count(monkeypatch):
    """joblib's count: the CPU affinity, the cgroup CPU quota and
    ``LOKY_MAX_CPU_COUNT``, the smallest."""
    import joblib

    monkeypatch.delenv("LOKY_MAX_CPU_COUNT", raising=False)
    assert _resources.available_cpus() == joblib.cpu_count()
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    if hasattr(os, "process_cpu_count"):  # Python 3.13+
        monkeypatch.setattr(os, "process_cpu_count", lambda: 1)
    assert _resources.available_cpus() == 1
    monkeypatch.undo()
    monkeypatch.setenv("LOKY_MAX_CPU_COUNT", "1")
    assert _resources.available_cpus() == 1


@pytest.mark.parametrize(
    "name, value, expected",
    [
        ("OMP_NUM_THREADS", "1", 1),
        ("OMP_NUM_THREADS", "3,2", 3),  # nested levels: the outer one counts
        ("OPENBLAS_NUM_THREADS", "2", 2),
        ("MKL_NUM_THREADS", "1", 1),
        ("OMP_NUM_THREADS", "none", 4),  # ignored, as OpenMP runtimes ignore it
        ("OMP_NUM_THREADS", "0", 4),
    ],
)
def test_thread_variables_limit_the_threads(cpus, monkeypatch, name, value, expected):
    cpus(4)
    monkeypatch.setenv(name, value)
    assert _pairwise.n_threads() == expected


def test_omp_num_threads_one_gives_one_thread(cpus, threads_used, monkeypatch):
    cpus(2)
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    large_block()
    assert threads_used == {threading.get_ident()}


def test_threadpool_limits_one_gives_one_thread(cpus, threads_used, monkeypatch):
    cpus(2)
    monkeypatch.setattr(_resources, "_threadpool_limit", REAL_THREADPOOL_LIMIT)
    with threadpool_limits(1):
        assert _resources.thread_limit() == 1
        large_block()
    assert threads_used == {threading.get_ident()}


def test_gram_block_is_bit_identical_with_one_and_two_threads(cpus, threads_used, monkeypatch):
    cpus(1)
    one = large_block()
    assert len(threads_used) == 1
    cpus(2)
    threads_used.clear()
    two = large_block()
    assert len(threads_used) == 2
    assert one.tobytes() == two.tobytes()


@pytest.mark.skipif(shutil.which("taskset") is None, reason="needs taskset (util-linux)")
def test_taskset_one_cpu_gives_one_thread():
    """The real affinity of a process started with ``taskset -c 0``."""
    code = (
        "from preimage.kernels import _pairwise; "
        "from preimage._utils import resources as _resources; "
        "print(_resources.available_cpus(), _pairwise.n_threads())"
    )
    env = {k: v for k, v in os.environ.items() if k not in _resources.THREAD_LIMIT_VARIABLES}
    done = subprocess.run(
        ["taskset", "-c", "0", sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.split() == ["1", "1"]


def test_joblib_worker_with_one_inner_thread_uses_one_thread():
    if _resources.available_cpus() < 2:
        pytest.skip("one CPU: a single thread is the default anyway")
    from joblib import Parallel, delayed, parallel_config

    with parallel_config(backend="loky", inner_max_num_threads=1):
        counts = Parallel(n_jobs=2)(delayed(_pairwise.n_threads)() for _ in range(2))
    assert counts == [1, 1]
