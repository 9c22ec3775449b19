"""Determinism and dtype agreement of kernel PCA and the denoiser.

* The same `random_state` gives bit-identical results (``np.array_equal``)
  when a model is fitted twice in one process: the randomized eigensolver,
  Nyström with each landmark choice, and the denoiser with every method.
* float32 and float64 inputs agree to float32 precision on a
  well-conditioned problem. Tolerances, relative to the largest value
  compared: 1e-4 for kernel PCA coordinates (exact, randomized, Nyström) and
  for denoised points of every method but the fixed point, which gets 1e-3:
  it returns the best iterate by the objective ``‖Ψ − φ(z)‖²``, which is flat
  to about √eps near its minimum, so in float32 (√eps ≈ 3e-4) iterates that
  far apart tie (measured: 2e-4 on the data below).
"""

import warnings

import numpy as np
import pytest

from preimage import PREIMAGE_METHODS, KernelPCA, KernelPCADenoiser, NumericalWarning
from preimage.datasets import make_three_clusters


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    scales = np.array([2.0, 1.0, 0.5])  # well separated principal directions
    return rng.normal(size=(60, 3)) * scales, rng.normal(size=(10, 3)) * scales


@pytest.fixture(scope="module")
def clusters():
    X, _ = make_three_clusters(random_state=0)
    T, _ = make_three_clusters(random_state=1)
    return X, T


def _fit_twice(make, X):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumericalWarning)
        return make().fit(X), make().fit(X)


def _align(A, B):
    """Flip the columns of A to match B (eigenvectors have no sign)."""
    signs = np.sign(np.einsum("ij,ij->j", A, B))
    signs[signs == 0] = 1
    return A * signs


def _denoiser_kwargs(method):
    # the exact pre-image needs an invertible dot-product kernel
    return {"kernel": "poly", "degree": 3} if method == "exact" else {"gamma": 10.0}


# -- the same random_state, the same bits -------------------------------------


@pytest.mark.parametrize("seed", [0, 7])
@pytest.mark.parametrize(
    "params",
    [
        {"eigen_solver": "randomized"},
        {"eigen_solver": "arpack"},
        {"n_landmarks": 20, "landmarks": "uniform"},
        {"n_landmarks": 20, "landmarks": "kmeans"},
        {"n_landmarks": 20, "landmarks": "leverage"},
    ],
    ids=["randomized", "arpack", "uniform", "kmeans", "leverage"],
)
def test_kernel_pca_same_random_state_is_bit_identical(data, params, seed):
    X, T = data
    a, b = _fit_twice(
        lambda: KernelPCA(3, kernel="rbf", gamma=0.2, random_state=seed, **params), X
    )
    assert np.array_equal(a.eigenvalues_, b.eigenvalues_)
    assert np.array_equal(a.fit_result_.coef, b.fit_result_.coef)
    assert np.array_equal(a.X_fit_, b.X_fit_)
    assert np.array_equal(a.transform(T), b.transform(T))
    assert np.array_equal(a.project(T).coef, b.project(T).coef)
    assert np.array_equal(
        a.inverse_transform(a.transform(T), method="fixed_point", x0=T),
        b.inverse_transform(b.transform(T), method="fixed_point", x0=T),
    )


@pytest.mark.parametrize("n_landmarks", [None, 30], ids=["exact", "nystroem"])
@pytest.mark.parametrize("method", PREIMAGE_METHODS)
def test_denoiser_same_random_state_is_bit_identical(clusters, method, n_landmarks):
    X, T = clusters
    noisy = X + np.random.default_rng(2).normal(scale=0.05, size=X.shape)

    def make():
        return KernelPCADenoiser(
            2,
            method=method,
            n_landmarks=n_landmarks,
            landmarks="leverage",
            random_state=3,
            **_denoiser_kwargs(method),
        )

    a, b = _fit_twice(make, X)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumericalWarning)
        assert np.array_equal(a.transform(T), b.transform(T))
        ra, rb = a.denoise(T), b.denoise(T)
    assert np.array_equal(ra.x, rb.x) and np.array_equal(ra.distance2, rb.distance2)
    if method == "learned":  # fitted on noisy inputs against clean targets
        c, d = (make().fit(noisy, X) for _ in range(2))
        assert np.array_equal(c.transform(T), d.transform(T))


def test_generator_random_state_is_reproducible(data):
    X, T = data
    a, b = (
        KernelPCA(
            3,
            kernel="rbf",
            gamma=0.2,
            n_landmarks=20,
            landmarks="leverage",
            random_state=np.random.default_rng(5),
        ).fit(X)
        for _ in range(2)
    )
    assert np.array_equal(a.transform(T), b.transform(T))


# -- float32 agrees with float64 -----------------------------------------------


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"eigen_solver": "randomized"},
        {"n_landmarks": 10, "landmarks": "uniform"},
        {"n_landmarks": 10, "landmarks": "kmeans"},
        {"n_landmarks": 10, "landmarks": "leverage"},
    ],
    ids=["dense", "randomized", "uniform", "kmeans", "leverage"],
)
def test_kernel_pca_float32_agrees_with_float64(data, params):
    X, T = data
    a = KernelPCA(3, kernel="rbf", gamma=0.1, random_state=0, **params).fit(X)
    b = KernelPCA(3, kernel="rbf", gamma=0.1, random_state=0, **params).fit(X.astype(np.float32))
    Ya, Yb = a.transform(T), b.transform(T.astype(np.float32))
    assert Yb.dtype == np.float32
    np.testing.assert_allclose(b.eigenvalues_, a.eigenvalues_, rtol=1e-4)
    np.testing.assert_allclose(_align(Yb, Ya), Ya, rtol=0, atol=1e-4 * np.abs(Ya).max())


@pytest.mark.parametrize("n_landmarks", [None, 10], ids=["exact", "nystroem"])
@pytest.mark.parametrize("method", PREIMAGE_METHODS)
def test_denoiser_float32_agrees_with_float64(clusters, method, n_landmarks):
    X, T = clusters
    if method == "exact" and n_landmarks:
        n_landmarks = 6  # 10 landmarks nearly span the 10-D cubic feature space

    def make():
        return KernelPCADenoiser(
            2, method=method, n_landmarks=n_landmarks, random_state=0, **_denoiser_kwargs(method)
        )

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumericalWarning)
        a = make().fit(X).transform(T)
        b = make().fit(X.astype(np.float32)).transform(T.astype(np.float32))
    assert np.all(np.isfinite(b))
    rtol = 1e-3 if method == "fixed_point" else 1e-4
    np.testing.assert_allclose(b, a, rtol=0, atol=rtol * np.abs(a).max())


@pytest.mark.parametrize("method", ["fixed_point", "gradient"])
def test_random_restarts_follow_random_state(data, method):
    """The iterative methods restart from random support points when their
    denominator vanishes; those draws use the estimator's random_state
    (non-regression: a denoiser reloaded from its model file once gave other
    pre-images than the original, both drawing from fresh entropy)."""
    from unittest import mock

    from preimage.solvers import PREIMAGE_METHODS

    # The solver calls its method's function (fixed_point, gradient_descent).
    solver = PREIMAGE_METHODS[method]
    X, T = data
    kpca = KernelPCA(2, kernel="rbf", gamma=0.2, random_state=11).fit(X)
    with mock.patch.object(solver, "_function", wraps=solver._function) as spy:
        kpca.inverse_transform(kpca.transform(T), method=method, x0=T)
    assert spy.call_args.kwargs["random_state"] == 11
    den = KernelPCADenoiser(2, gamma=0.2, method=method, random_state=12).fit(X)
    with mock.patch.object(solver, "_function", wraps=solver._function) as spy:
        den.transform(T)
    assert spy.call_args.kwargs["random_state"] == 12
