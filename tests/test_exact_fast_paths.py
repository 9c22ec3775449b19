"""The fast paths that must give the exact answer.

* ``eigen_solver="dense"`` by Lanczos (q ≤ n/20, n ≥ 1,000) against LAPACK's
  index-range driver on the same matrix, and ARPACK's failure falling back to
  LAPACK;
* the learned map's Cholesky solve (LAPACK ?potrf/?potrs, zero columns of the
  targets skipped) against :func:`scipy.linalg.solve`, and its refusal of
  matrices that are not numerically positive definite;
* the Gaussian fixed point (weights formed in place, the factor 2γ
  cancelled) against a plain NumPy loop of Mika et al.'s update, with and
  without the input-space penalty.
"""

import warnings

import numpy as np
import pytest
from scipy import linalg
from sklearn.datasets import load_digits
from sklearn.metrics.pairwise import rbf_kernel

from preimage import FeatureExpansion, KernelPCA
from preimage._utils import eigen as _eigen
from preimage._utils.eigen import _index_range_eigh, flip_signs, top_eigh
from preimage.exceptions import ConvergenceWarning
from preimage.kernels import GaussianKernel
from preimage.kpca import center_gram
from preimage.solvers import fixed_point
from preimage.solvers._learned import _cholesky_solve, _solve_psd


@pytest.fixture(scope="module")
def digits():
    return load_digits().data / 16.0


@pytest.fixture(scope="module")
def centred_gram(digits):
    return center_gram(rbf_kernel(digits[:1000], gamma=0.02))[0]


@pytest.mark.slow
def test_dense_lanczos_equals_lapack(centred_gram, monkeypatch):
    n, q = centred_gram.shape[0], 40
    assert n >= 20 * q  # a shape where "dense" runs Lanczos, and only Lanczos:
    ref_values, ref_vectors = linalg.eigh(centred_gram, subset_by_index=(n - q, n - 1))
    monkeypatch.setattr(_eigen, "_index_range_eigh", None)
    values, vectors = top_eigh(centred_gram, q, solver="dense")
    np.testing.assert_allclose(values, ref_values[::-1], rtol=1e-12)
    np.testing.assert_allclose(vectors, flip_signs(ref_vectors[:, ::-1]), rtol=0, atol=1e-9)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("order", ["C", "F", "strided"])
def test_symmetric_operator_is_the_product_with_k(centred_gram, dtype, order):
    """Lanczos multiplies by one triangle of K (?symv): the same product as
    the general one, to the rounding of the dtype, for any memory layout."""
    K = centred_gram[:300, :300].astype(dtype)
    K = {"C": K, "F": np.asfortranarray(K), "strided": np.repeat(K, 2, axis=1)[:, ::2]}[order]
    V = np.random.default_rng(0).standard_normal((300, 3)).astype(dtype)
    op = _eigen._symmetric_operator(K)
    for v in V.T:
        out = op.matvec(v)
        assert out.dtype == dtype and out.shape == (300,)
        exact = K.astype(np.float64) @ v.astype(np.float64)
        scale = np.abs(K).sum(axis=1).astype(np.float64) @ np.abs(v).astype(np.float64)
        assert np.abs(out - exact).max() <= 300 * np.finfo(dtype).eps * scale


def test_symmetric_operator_leaves_other_dtypes_to_the_matrix():
    K = np.eye(4, dtype=np.int64)
    assert _eigen._symmetric_operator(K) is K


def test_dense_does_not_depend_on_random_state(centred_gram):
    a = top_eigh(centred_gram, 30, solver="dense", random_state=0)
    b = top_eigh(centred_gram, 30, solver="dense", random_state=7)
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])


@pytest.mark.slow
def test_dense_lanczos_failure_falls_back_to_lapack_silently():
    """A zero matrix stops ARPACK (a zero residual vector); LAPACK answers."""
    K = np.zeros((1000, 1000))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        values, vectors = top_eigh(K, 10, solver="dense")
    np.testing.assert_array_equal(values, np.zeros(10))
    np.testing.assert_allclose(vectors.T @ vectors, np.eye(10), atol=1e-12)


@pytest.mark.slow
def test_kernel_pca_dense_on_1000_digits_equals_lapack(digits):
    """The estimator through the Lanczos path: transform equal to the
    coordinates computed from LAPACK's eigenpairs of the same Gram matrix."""
    X, T = digits[:1000], digits[1000:1100]
    kpca = KernelPCA(40, kernel="rbf", gamma=0.02, eigen_solver="dense").fit(X)
    K = rbf_kernel(X, gamma=0.02)
    Kc = center_gram(K)[0]
    values, vectors = _index_range_eigh(Kc, 40)
    order = np.argsort(values)[::-1]
    values, vectors = values[order], flip_signs(vectors[:, order])
    K_t = rbf_kernel(T, X, gamma=0.02)
    K_t = K_t - K.mean(axis=0) - K_t.mean(axis=1, keepdims=True) + K.mean()
    expected = K_t @ (vectors / np.sqrt(values))
    out = kpca.transform(T)
    np.testing.assert_allclose(out, expected, rtol=0, atol=1e-9 * np.abs(expected).max())


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_cholesky_solve_equals_scipy_solve_with_zero_columns(dtype):
    rng = np.random.default_rng(0)
    M = rng.standard_normal((200, 200))
    A = (M @ M.T / 200 + np.eye(200)).astype(dtype)
    B = rng.standard_normal((200, 30)).astype(dtype)
    B[:, [0, 7, 29]] = 0
    expected = linalg.solve(A.astype(np.float64), B.astype(np.float64), assume_a="pos")
    out = _cholesky_solve(A.copy(), B)
    assert out.dtype == dtype
    rtol = 1e-12 if dtype == np.float64 else 1e-4
    np.testing.assert_allclose(out, expected, rtol=0, atol=rtol * np.abs(expected).max())
    assert not out[:, [0, 7, 29]].any()


@pytest.mark.parametrize(
    "A",
    [
        np.ones((40, 40)),  # singular
        np.diag(np.r_[np.ones(39), -1.0]),  # indefinite
        np.ones((40, 40)) + 1e-17 * np.eye(40),  # positive, beyond 1/eps conditioned
    ],
    ids=["singular", "indefinite", "ill-conditioned"],
)
def test_cholesky_solve_refuses_what_is_not_positive_definite(A):
    assert _cholesky_solve(A.copy(), np.ones((40, 2))) is None


def test_solve_psd_of_a_singular_system_is_the_pseudo_inverse_with_a_warning():
    x = np.linspace(0, 1, 40)
    A = np.outer(x, x)  # rank one
    B = np.outer(x, [1.0, 2.0])
    with pytest.warns(Warning, match="pseudo-inverse"):
        out = _solve_psd(A.copy, B, "the test system")
    np.testing.assert_allclose(out, np.linalg.pinv(A) @ B, atol=1e-10)


def _plain_fixed_point(expansion, X, Z, gamma, iters, lam=0.0, anchor=None):
    """Mika et al.'s update, regularised as Abrahamsen & Hansen's:
    ``z = (Σ c_i x_i + λa)/(Σ c_i + λ)``, ``c_i = 2γ γ_i k(z, x_i)``; of the
    points visited, each row's best by the objective ``‖Ψ − φ(z)‖² + λ‖z − a‖²``
    (the fixed point need not descend)."""
    points = [Z]
    for _ in range(iters):
        C = 2 * gamma * expansion.coef * rbf_kernel(Z, X, gamma=gamma)
        num, den = C @ X, C.sum(axis=1)
        if lam:
            num, den = num + lam * anchor, den + lam
        Z = num / den[:, None]
        points.append(Z)
    objective = [expansion.distance2(P) + lam * ((P - anchor) ** 2).sum(axis=1) for P in points]
    best = np.argmin(np.array(objective), axis=0)
    return np.array([points[b][j] for j, b in enumerate(best)]), best


@pytest.mark.parametrize("lam", [0.0, 0.3])
def test_gaussian_fixed_point_equals_the_plain_update(digits, lam):
    X, T = digits[:300], digits[300:320]
    kpca = KernelPCA(20, kernel="rbf", gamma=0.02).fit(X)
    expansion = kpca.expansion_from_components(kpca.transform(T))
    x0 = T + 0.1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        result = fixed_point(expansion, x0, max_iter=5, tol=1e-300, alpha=lam)
    expected, best = _plain_fixed_point(expansion, X, x0, 0.02, 5, lam, x0)
    if not lam:
        assert len(set(best)) > 1  # rows whose best point is not the last one
    np.testing.assert_allclose(result.x, expected, rtol=0, atol=1e-12)
    np.testing.assert_allclose(
        result.distance2, expansion.distance2(expected), rtol=1e-10, atol=1e-12
    )


def test_gaussian_fixed_point_restarts_where_the_denominator_vanishes():
    """Coefficients summing to zero over two symmetric points: at z = 0 the
    denominator is exactly 0 (the scale is summed there), and the start is
    replaced."""
    X = np.array([[-1.0], [1.0], [3.0]])
    expansion = FeatureExpansion([[1.0, -1.0, 0.0]], X, GaussianKernel(gamma=0.5))
    with pytest.warns(Warning, match="vanished"):
        result = fixed_point(expansion, [[0.0]], max_iter=50, random_state=0)
    assert result.info["restarts"][0] >= 1
    assert np.isfinite(result.x).all()


def test_learned_map_with_blank_pixels_equals_the_direct_solve(digits):
    """Digits have pixels blank in every image: their columns of β and of the
    predictions are exactly 0, the others those of the direct solve."""
    X, T = digits[:400], digits[400:450]
    assert not X[:, 0].any()
    kpca = KernelPCA(20, kernel="rbf", gamma=0.02, alpha=0.1, fit_inverse_transform=True).fit(X)
    C = kpca.X_transformed_fit_
    beta = linalg.solve(rbf_kernel(C, gamma=0.02) + 0.1 * np.eye(400), X, assume_a="pos")
    np.testing.assert_allclose(kpca.dual_coef_, beta, rtol=0, atol=1e-10 * np.abs(beta).max())
    assert not kpca.dual_coef_[:, 0].any()
    Y = kpca.transform(T)
    expected = rbf_kernel(Y, C, gamma=0.02) @ beta
    out = kpca.inverse_transform(Y)
    np.testing.assert_allclose(out, expected, rtol=0, atol=1e-10 * np.abs(expected).max())
    assert not out[:, 0].any()


@pytest.mark.parametrize("share", [0.1, 0.5, 0.75])
@pytest.mark.slow
def test_dense_for_a_large_share_equals_the_index_range(centred_gram, share):
    """Below n/5 LAPACK's index range, from n/5 on its full decomposition:
    both the eigenpairs LAPACK's index-range driver gives (independent
    computation, the same signs fixed)."""
    K = centred_gram[:400, :400]
    n = K.shape[0]
    q = int(share * n)
    ref_values, ref_vectors = linalg.eigh(K, subset_by_index=(n - q, n - 1))
    values, vectors = top_eigh(K, q, solver="dense")
    np.testing.assert_allclose(values, ref_values[::-1], rtol=0, atol=1e-12 * ref_values[-1])
    # Eigenvectors of well-separated eigenvalues (gap above 1e-6 of the
    # largest) agree to rounding; the rest span the same subspaces.
    gaps = np.abs(np.diff(ref_values[::-1]))
    separated = np.flatnonzero(
        np.minimum(np.r_[np.inf, gaps], np.r_[gaps, np.inf]) > 1e-6 * ref_values[-1]
    )
    np.testing.assert_allclose(
        vectors[:, separated],
        flip_signs(ref_vectors[:, ::-1])[:, separated],
        rtol=0,
        atol=1e-7,
    )
