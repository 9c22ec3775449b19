"""The caller's settings follow the library's work to other threads and
processes (``bind_config``), as scikit-learn's follow its joblib tasks.

The Dask cluster case (worker processes) is in test_dask.py.
"""

import pickle
import threading

import numpy as np
import pytest
import sklearn

from preimage import KernelPCA, config_context, get_config, set_config
from preimage._utils import config as _config
from preimage._utils.blocks import map_row_blocks, sum_row_blocks
from preimage._utils.config import ConfiguredCall, bind_config
from preimage.exceptions import MemoryBudgetError

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")


def budget():
    return get_config()["memory_budget"]


def in_a_thread(func):
    out = []
    thread = threading.Thread(target=lambda: out.append(func()))
    thread.start()
    thread.join()
    return out[0]


def test_config_context_alone_does_not_reach_another_thread():
    """Why the binding is needed: the context is the calling thread's."""
    default = budget()
    with config_context(memory_budget="1kB"):
        assert budget() == 1000
        assert in_a_thread(budget) == default


def test_bound_function_runs_under_the_callers_settings_in_any_thread():
    with config_context(memory_budget="1kB"), sklearn.config_context(working_memory=7):
        bound = bind_config(lambda: (budget(), sklearn.get_config()["working_memory"]))
    assert budget() != 1000
    assert in_a_thread(bound) == (1000, 7)
    assert bound() == (1000, 7)
    assert budget() != 1000  # and leaves the thread's own settings as they were


def test_set_config_is_bound_too(monkeypatch):
    monkeypatch.setitem(_config._global, "memory_budget", None)
    set_config(memory_budget="2kB")
    bound = bind_config(budget)
    monkeypatch.setitem(_config._global, "memory_budget", None)
    assert budget() != 2000
    assert in_a_thread(bound) == 2000


def test_defaults_are_not_bound(monkeypatch):
    """A default is each machine's own (its memory, its environment)."""
    monkeypatch.setitem(_config._global, "memory_budget", None)
    bound = bind_config(budget)
    assert bound.settings == {}
    monkeypatch.setenv("PREIMAGE_MEMORY_BUDGET", "3kB")
    assert bound() == 3000


def test_bound_function_pickles_with_its_settings():
    with config_context(memory_budget="1kB"):
        bound = bind_config(np.negative)
    again = pickle.loads(pickle.dumps(bound))
    assert isinstance(again, ConfiguredCall) and again.settings == {"memory_budget": 1000}
    assert again(np.ones(2)).tolist() == [-1, -1]


@pytest.mark.parametrize("scheduler", ["threads", "processes"])
@pytest.mark.slow
def test_dask_tasks_see_the_callers_budget(scheduler):
    """The tasks run in Dask's threads or processes, where the caller's
    context is not; the graph carries it."""
    X = da.ones((40, 3), chunks=(10, 3))

    def block_budget(block):
        return np.full((block.shape[0], 1), float(get_config()["memory_budget"]))

    with config_context(memory_budget="1MB"):
        seen = map_row_blocks(block_budget, X, n_columns=1, dtype=float)
    other = map_row_blocks(block_budget, X, n_columns=1, dtype=float)
    with dask.config.set(scheduler=scheduler):
        assert np.unique(seen.compute()).tolist() == [1e6]
        assert 1e6 not in other.compute()


def test_dask_reductions_see_the_callers_budget():
    X = da.ones((40, 3), chunks=(10, 3))

    def block_budget(block):
        return (np.array([get_config()["memory_budget"]], dtype=float),)

    with dask.config.set(scheduler="threads"), config_context(memory_budget="1MB"):
        (total,) = sum_row_blocks(block_budget, X, row_bytes=24)
    assert total.tolist() == [4e6]  # 1 MB seen by each of the 4 blocks


def test_dask_inverse_transform_refuses_under_the_callers_budget():
    """The learned map, fitted inside each task, solves a 60 x 60 system: over
    a 1 kB budget set only in the caller."""
    rng = np.random.default_rng(0)
    kpca = KernelPCA(3, kernel="rbf", gamma=0.5).fit(rng.normal(size=(60, 4)))
    Y = da.from_array(kpca.transform(rng.normal(size=(20, 4))), chunks=(5, 3))
    with config_context(memory_budget="1kB"):
        refused = kpca.inverse_transform(Y, method="learned")
    with dask.config.set(scheduler="threads"), pytest.raises(MemoryBudgetError):
        refused.compute()
    allowed = kpca.inverse_transform(Y, method="learned")
    assert allowed.compute().shape == (20, 4)


@pytest.mark.parametrize("backend", ["threading", "loky"])
@pytest.mark.slow
def test_joblib_tasks_made_by_delayed_see_the_callers_budget(backend):
    """joblib's workers (threads, or loky's processes) do not see the caller's
    context; tasks made by ``preimage.delayed`` carry it, as
    ``sklearn.utils.parallel.delayed`` carries scikit-learn's."""
    from joblib import Parallel, delayed as joblib_delayed

    from preimage import delayed

    with config_context(memory_budget="1MB"), sklearn.config_context(working_memory=7):
        seen = Parallel(n_jobs=2, backend=backend)(
            delayed(lambda: (budget(), sklearn.get_config()["working_memory"]))() for _ in range(4)
        )
        plain = Parallel(n_jobs=2, backend=backend)(joblib_delayed(budget)() for _ in range(4))
    assert seen == [(10**6, 7)] * 4
    assert 10**6 not in plain  # why it is needed


def test_joblib_refusal_under_the_callers_budget():
    """A fit too large for the caller's budget is refused in the worker too."""
    from joblib import Parallel

    from preimage import delayed

    X = np.random.default_rng(0).standard_normal((60, 3))
    with config_context(memory_budget="1kB"):
        with pytest.raises(MemoryBudgetError, match="memory budget"):
            Parallel(n_jobs=2, backend="threading")(delayed(KernelPCA(2).fit)(X) for _ in range(2))
    Parallel(n_jobs=2, backend="threading")(delayed(KernelPCA(2).fit)(X) for _ in range(2))


def test_delayed_names_its_argument():
    from preimage import delayed

    with pytest.raises(TypeError, match="'function' must be callable"):
        delayed(3)
