"""Dask arrays give the same numbers as NumPy arrays.

Run on a ``dask.distributed.LocalCluster`` of two worker processes on
loopback, so that estimators, kernels and blocks really travel between
processes.
"""

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")

from preimage import KernelPCA, KernelPCADenoiser  # noqa: E402
from preimage.datasets import add_gaussian_noise, make_three_clusters  # noqa: E402
from preimage.solvers import LearnedPreimage  # noqa: E402


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
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
def test_nystroem_fit_on_dask_equals_in_memory(client, data, landmarks):
    X, T = data
    kw = dict(n_components=6, kernel="rbf", gamma="total_variance", n_landmarks=30,
              landmarks=landmarks, random_state=0)
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
    got = kpca.inverse_transform(chunked(Y, 9), method=method,
                                 x0=None if x0 is None else chunked(x0, 9))
    assert isinstance(got, da.Array)
    # The fixed point stops at its tolerance (1e-7 relative); GEMMs of other
    # shapes round differently, so blocks may stop a step apart.
    atol = 1e-7 if method == "fixed_point" else 1e-10
    np.testing.assert_allclose(got.compute(), expected, atol=atol)


@pytest.mark.parametrize("method", ["fixed_point", "learned"])
def test_denoiser_chooses_its_components_on_dask_as_in_memory(client, method):
    """n_components="auto" holds rows of the Dask array out (computed: at most
    1,000) and fits the Nyström kernel PCA on the rest block by block."""
    X, _ = make_three_clusters(random_state=0)
    noisy = add_gaussian_noise(X, 0.05, random_state=2)
    kw = dict(gamma=10.0, method=method, n_landmarks=25, random_state=0)
    mem = KernelPCADenoiser(**kw).fit(noisy, X)
    dsk = KernelPCADenoiser(**kw).fit(chunked(noisy, 17), chunked(X, 17))
    assert dsk.n_components_ == mem.n_components_
    np.testing.assert_allclose(dsk.component_selection_["scores"],
                               mem.component_selection_["scores"], rtol=1e-6)


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
        kpca.inverse_transform(kpca.transform(chunked(T)), method="fixed_point",
                               return_result=True)
    den = KernelPCADenoiser(3, gamma=0.2).fit(X)
    with pytest.raises(TypeError, match="transform"):
        den.denoise(chunked(T))
    bad = T.copy()
    bad[30, 2] = np.nan
    with pytest.raises(ValueError, match="'X' contains NaN"):
        KernelPCA(3, kernel="rbf", gamma="total_variance", n_landmarks=20, random_state=0).fit(chunked(np.vstack([X, bad]))).eigenvalues_
    with pytest.raises(ValueError, match="Dask arrays need 'n_landmarks'"):
        LearnedPreimage("rbf").fit_coordinates(chunked(X), chunked(X))
