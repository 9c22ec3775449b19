"""What the library takes of a shared machine: its memory.

The memory budget's default is half of what the process may use, read from
the container's cgroup (simulated here as a file tree).
"""

import numpy as np
import pytest

from preimage import KernelPCA, config_context, get_config
from preimage._utils import config as _config, resources as _resources
from preimage.exceptions import MemoryBudgetError

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
