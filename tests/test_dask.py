"""Dask arrays give the same numbers as NumPy arrays.

Run on a ``dask.distributed.LocalCluster`` of two worker processes on
loopback, so that estimators, kernels and blocks really travel between
processes.
"""

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")

from preimage import KernelPCA, KernelPCADenoiser, config_context, set_config  # noqa: E402
from preimage._utils.blocks import map_row_blocks  # noqa: E402
from preimage.datasets import add_gaussian_noise, make_three_clusters  # noqa: E402
from preimage.solvers import LearnedPreimage  # noqa: E402


@pytest.fixture(scope="module")
def client():
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    return rng.normal(size=(150, 5)), rng.normal(size=(40, 5))


def chunked(A, rows=23):
    return da.from_array(A, chunks=(rows, A.shape[1]))


def test_runs_on_two_worker_processes(client):
    info = client.scheduler_info()
    assert len(info["workers"]) == 2
    assert all(w.startswith("tcp://127.0.0.1") for w in info["workers"])


@pytest.mark.parametrize("landmarks", ["uniform", "kmeans", "leverage"])
@pytest.mark.slow
def test_nystroem_fit_on_dask_equals_in_memory(client, data, landmarks):
    X, T = data
    kw = dict(
        n_components=6,
        kernel="rbf",
        gamma="total_variance",
        n_landmarks=30,
        landmarks=landmarks,
        random_state=0,
    )
    mem = KernelPCA(**kw).fit(X)
    dsk = KernelPCA(**kw).fit(chunked(X))
    assert dsk.gamma_ == pytest.approx(mem.gamma_, rel=1e-12)
    np.testing.assert_allclose(dsk.landmarks_, mem.landmarks_)
    np.testing.assert_allclose(dsk.eigenvalues_, mem.eigenvalues_, rtol=1e-10)
    np.testing.assert_allclose(dsk.transform(T), mem.transform(T), atol=1e-10)


@pytest.mark.parametrize("n_landmarks", [None, 40])
def test_transform_is_blockwise_and_equal(client, data, n_landmarks):
    X, T = data
    kpca = KernelPCA(5, kernel="rbf", gamma=0.2, n_landmarks=n_landmarks, random_state=0).fit(X)
    Y = kpca.transform(chunked(T, 7))
    assert isinstance(Y, da.Array) and Y.numblocks == (6, 1)
    np.testing.assert_allclose(Y.compute(), kpca.transform(T), atol=1e-12)


@pytest.mark.parametrize("method", ["fixed_point", "learned", "closed_form", "mds"])
def test_inverse_transform_is_blockwise_and_equal(client, data, method):
    X, T = data
    kpca = KernelPCA(5, kernel="rbf", gamma=0.2).fit(X)
    Y = kpca.transform(T)
    x0 = T if method == "fixed_point" else None
    expected = kpca.inverse_transform(Y, method=method, x0=x0)
    got = kpca.inverse_transform(
        chunked(Y, 9), method=method, x0=None if x0 is None else chunked(x0, 9)
    )
    assert isinstance(got, da.Array)
    # The fixed point stops at its tolerance (1e-7 relative); GEMMs of other
    # shapes round differently, so blocks may stop a step apart.
    atol = 1e-7 if method == "fixed_point" else 1e-10
    np.testing.assert_allclose(got.compute(), expected, atol=atol)


@pytest.mark.parametrize("method", ["fixed_point", "learned"])
@pytest.mark.slow
def test_denoiser_chooses_its_components_on_dask_as_in_memory(client, method):
    """n_components="auto" holds rows of the Dask array out (computed: at most
    1,000) and fits the Nyström kernel PCA on the rest block by block."""
    X, _ = make_three_clusters(random_state=0)
    noisy = add_gaussian_noise(X, 0.05, random_state=2)
    kw = dict(gamma=10.0, method=method, n_landmarks=25, random_state=0)
    mem = KernelPCADenoiser(**kw).fit(noisy, X)
    dsk = KernelPCADenoiser(**kw).fit(chunked(noisy, 17), chunked(X, 17))
    assert dsk.n_components_ == mem.n_components_
    np.testing.assert_allclose(
        dsk.component_selection_["scores"], mem.component_selection_["scores"], rtol=1e-6
    )


@pytest.mark.parametrize("method", ["fixed_point", "learned"])
def test_denoiser_on_dask_equals_in_memory(client, method):
    X, _ = make_three_clusters(random_state=0)
    X_test, _ = make_three_clusters(random_state=1)
    noisy = add_gaussian_noise(X, 0.05, random_state=2)
    kw = dict(n_components=2, gamma=10.0, method=method, n_landmarks=25, random_state=0)
    mem = KernelPCADenoiser(**kw).fit(noisy, X)
    dsk = KernelPCADenoiser(**kw).fit(chunked(noisy, 17), chunked(X, 17))
    expected = mem.transform(X_test)
    # Fits agree to rounding; the fixed point (stopping at a relative step of
    # 1e-7) can turn that into differences of the order of its tolerance.
    atol = 1e-6 if method == "fixed_point" else 1e-9
    np.testing.assert_allclose(dsk.transform(X_test), expected, atol=atol)
    got = mem.transform(chunked(X_test, 11))
    assert isinstance(got, da.Array)
    np.testing.assert_allclose(got.compute(), expected, atol=atol)


def test_learned_map_on_dask_pairs_equals_in_memory(client):
    rng = np.random.default_rng(2)
    C, T, Q = rng.normal(size=(90, 3)), rng.normal(size=(90, 4)), rng.normal(size=(5, 3))
    kw = dict(kernel="rbf", gamma=0.4, alpha=0.1, n_landmarks=20, random_state=1)
    mem = LearnedPreimage(**kw).fit_coordinates(C, T)
    dsk = LearnedPreimage(**kw).fit_coordinates(chunked(C, 13), chunked(T, 13))
    np.testing.assert_allclose(dsk.predict(Q), mem.predict(Q), atol=1e-10)


def test_dask_errors_name_the_argument(client, data):
    X, T = data
    with pytest.raises(ValueError, match="'X' is a Dask array.*'n_landmarks'"):
        KernelPCA(3, kernel="rbf", gamma="total_variance").fit(chunked(X))
    kpca = KernelPCA(3, kernel="rbf", gamma=0.2).fit(X)
    with pytest.raises(ValueError, match="'X' has 4 features"):
        kpca.transform(chunked(T[:, :4]))
    with pytest.raises(ValueError, match="'return_result=True'"):
        kpca.inverse_transform(
            kpca.transform(chunked(T)), method="fixed_point", return_result=True
        )
    den = KernelPCADenoiser(3, gamma=0.2).fit(X)
    with pytest.raises(TypeError, match="transform"):
        den.denoise(chunked(T))
    bad = T.copy()
    bad[30, 2] = np.nan
    with pytest.raises(ValueError, match="'X' contains NaN"):
        KernelPCA(3, kernel="rbf", gamma="total_variance", n_landmarks=20, random_state=0).fit(
            chunked(np.vstack([X, bad]))
        ).eigenvalues_
    with pytest.raises(ValueError, match="Dask arrays need 'n_landmarks'"):
        LearnedPreimage("rbf").fit_coordinates(chunked(X), chunked(X))


# --- the caller's settings and the shared machine, on worker processes -------


def test_worker_tasks_see_the_callers_budget(client, data, monkeypatch):
    """A budget set only in the caller (config_context, or set_config) holds in
    tasks on worker processes: each refuses the learned map's 150 x 150 system."""
    from preimage._utils import config as _config
    from preimage.exceptions import MemoryBudgetError

    X, T = data
    kpca = KernelPCA(3, kernel="rbf", gamma=0.2).fit(X)
    Y = kpca.transform(chunked(T, 10))
    with config_context(memory_budget="1kB"):
        refused = kpca.inverse_transform(Y, method="learned")
    with pytest.raises(MemoryBudgetError, match=r"memory budget of 1\.0 kB"):
        refused.compute()
    monkeypatch.setitem(_config._global, "memory_budget", None)
    set_config(memory_budget="2kB")
    refused = kpca.inverse_transform(Y, method="learned")
    monkeypatch.setitem(_config._global, "memory_budget", None)
    with pytest.raises(MemoryBudgetError, match=r"memory budget of 2\.0 kB"):
        refused.compute()
    # The worker's own default allows it: the refusals came from the caller.
    assert kpca.inverse_transform(Y, method="learned").compute().shape == T.shape

    def block_budget(block):  # nested: pickled by value for the workers
        from preimage import get_config

        return np.full((block.shape[0], 1), float(get_config()["memory_budget"]))

    with config_context(memory_budget="3MB"):
        seen = map_row_blocks(block_budget, chunked(T, 10), n_columns=1, dtype=float)
    assert np.unique(seen.compute()).tolist() == [3e6]


def _tasks_holding(graph, obj):
    """How many values of a Dask graph hold `obj` (pickling each task and
    watching for the object), and the pickled size of each, as a scheduler
    sends them to workers: task by task."""
    import io

    import cloudpickle

    class Watcher(cloudpickle.Pickler):
        """Pickles as cloudpickle does, noting whether it met `obj`."""

        met = False

        def persistent_id(self, o):
            self.met = self.met or o is obj

    holding, sizes = 0, []
    for value in graph.values():
        buffer = io.BytesIO()
        watcher = Watcher(buffer)
        watcher.dump(value)
        holding += watcher.met
        sizes.append(len(buffer.getvalue()))
    return holding, sizes


@pytest.mark.slow
def test_fitted_estimator_is_in_the_graph_once(capsys):
    """20 blocks denoised by a denoiser fitted on digits: the estimator is one
    key of the graph that every block task depends on, not part of every
    task, and what a scheduler ships task by task is about one estimator
    (plus the input blocks). Same for kernel PCA's transform then its
    inverse: the two steps share the estimator's key. (The closed form keeps
    the test fast; the graph is the same for every method.)"""
    import pickle

    from preimage.datasets import load_digits

    digits, _ = load_digits()
    dX = da.from_array(digits[:400], chunks=(20, 64))
    denoiser = KernelPCADenoiser(n_components=16, gamma=0.02, method="closed_form").fit(
        digits[:600]
    )
    out = denoiser.transform(dX)
    graph = dict(out.__dask_graph__())
    size = len(pickle.dumps(denoiser))
    holding, sizes = _tasks_holding(graph, denoiser)
    data = sum(_tasks_holding(dict(dX.__dask_graph__()), None)[1])
    with capsys.disabled():
        print(
            f"\n{len(graph)} keys, estimator {size / 1e6:.2f} MB, tasks pickled one by "
            f"one {sum(sizes) / 1e6:.2f} MB (input blocks {data / 1e6:.2f} MB), "
            f"{holding} task(s) holding the estimator"
        )
    assert out.numblocks == (20, 1)
    assert holding == 1
    assert sum(sizes) - data < 1.1 * size
    # Identical to the in-memory transform of the same blocks.
    expected = np.vstack([denoiser.transform(digits[i : i + 20]) for i in range(0, 400, 20)])
    assert np.array_equal(out.compute(scheduler="sync"), expected)

    kpca = KernelPCA(8, kernel="rbf", gamma=0.02).fit(digits[:300])
    back = kpca.inverse_transform(kpca.transform(dX), method="mds")
    assert _tasks_holding(dict(back.__dask_graph__()), kpca)[0] == 1


def test_nystroem_denoiser_fit_on_dask_never_holds_the_whole_array():
    # Every task of the fit (reading, kernel blocks, moments, coordinates)
    # returns at most one block of rows: the data are streamed, never
    # materialised; and the fit is the in-memory one.
    import dask
    from dask.callbacks import Callback

    rng = np.random.default_rng(5)
    clean = rng.normal(size=(400, 6))
    noisy = clean + 0.1 * rng.normal(size=clean.shape)
    rows = 50
    largest = []

    class Rows(Callback):
        def _posttask(self, key, result, dsk, state, worker_id):
            for part in result if isinstance(result, tuple) else (result,):
                if isinstance(part, np.ndarray) and part.ndim == 2:
                    largest.append(part.shape[0])

    kw = dict(
        n_components=3,
        gamma=0.1,
        method="learned",
        method_params={"alpha": 0.1, "n_landmarks": 30},
        n_landmarks=40,
        random_state=0,
    )
    with dask.config.set(scheduler="sync"), Rows():
        dsk = KernelPCADenoiser(**kw).fit(chunked(noisy, rows), chunked(clean, rows))
    mem = KernelPCADenoiser(**kw).fit(noisy, clean)
    assert largest and max(largest) <= rows
    # The moments are summed in blocks of 50 rows instead of one: rounding,
    # amplified by the conditioning of the map's normal equations (~1e-7).
    np.testing.assert_allclose(dsk.transform(noisy[:20]), mem.transform(noisy[:20]), atol=1e-6)


def test_nystroem_fit_measures_unknown_chunk_sizes(data):
    # Rows picked by a mask (as DataFrame.to_dask_array()) have unknown (NaN) chunk sizes:
    # the fit measures them, in one pass, and leaves the caller's array as it was.
    from preimage.kpca._nystroem import select_landmarks

    X, T = data
    picked = chunked(X)[da.from_array(X[:, 0], chunks=23) > 0]
    assert np.isnan(picked.shape[0])
    kw = dict(n_components=3, kernel="rbf", gamma="total_variance", n_landmarks=20)
    mem = KernelPCA(**kw, random_state=0).fit(X[X[:, 0] > 0])
    dsk = KernelPCA(**kw, random_state=0).fit(picked)
    assert np.isnan(picked.shape[0])
    assert dsk.gamma_ == pytest.approx(mem.gamma_, rel=1e-12)
    np.testing.assert_allclose(dsk.eigenvalues_, mem.eigenvalues_, rtol=1e-10)
    np.testing.assert_allclose(dsk.transform(T), mem.transform(T), atol=1e-10)
    np.testing.assert_array_equal(
        select_landmarks(picked, 5, random_state=1)[0],
        select_landmarks(X[X[:, 0] > 0], 5, random_state=1)[0],
    )
    den = KernelPCADenoiser(3, n_landmarks=20, random_state=0).fit(picked, picked + 1.0)
    np.testing.assert_allclose(
        den.transform(picked).compute(),
        KernelPCADenoiser(3, n_landmarks=20, random_state=0)
        .fit(X[X[:, 0] > 0], X[X[:, 0] > 0] + 1.0)
        .transform(X[X[:, 0] > 0]),
        atol=1e-8,
    )


@pytest.mark.parametrize("gamma", [0.5, "total_variance"])
def test_nystroem_fit_of_huge_dask_values_names_x(data, gamma):
    # Squared distances overflow: the refusal names 'X' and says so (it named the
    # landmarks drawn from it, or, with the default width, called X non-finite).
    kpca = KernelPCA(2, kernel="rbf", gamma=gamma, n_landmarks=10, random_state=0)
    with pytest.raises(ValueError, match=r"^'X' holds values up to \S+e\+154 .*squared distances"):
        kpca.fit(chunked(data[0] * 1e154))
