"""Tests for preimage.kernels.

Every value is compared with an independent computation: scikit-learn's
pairwise kernels, SciPy's cdist, explicit sums, central finite differences or a
closed form written out in the test.
"""

from dataclasses import dataclass
import pickle

from hypothesis import given, settings, strategies as st
from hypothesis.extra.numpy import arrays
import numpy as np
import pytest
from scipy.spatial.distance import cdist
from sklearn.metrics.pairwise import (
    laplacian_kernel,
    linear_kernel,
    pairwise_kernels,
    polynomial_kernel,
    rbf_kernel,
    sigmoid_kernel,
)

from preimage.kernels import (
    CallableKernel,
    GaussianKernel,
    Kernel,
    LaplacianKernel,
    LinearKernel,
    PolynomialKernel,
    RadialKernel,
    SigmoidKernel,
    SineKernel,
    make_kernel,
    squared_distances,
)

FAST = settings(max_examples=30, deadline=None)


def exp_l1(x, y, scale=1.0):
    """A user kernel on pairs of 1-D samples (module level, so it pickles)."""
    return np.exp(-scale * np.abs(x - y).sum())


def data(n, d, seed=0, scale=1.0):
    return scale * np.random.default_rng(seed).normal(size=(n, d))


def sine_sum(delta, order):
    """Σ_{n=0}^{N} cos(nδ), term by term."""
    return sum(np.cos(n * delta) for n in range(order + 1))


def sine_gram(X, Y, order):
    """Product over coordinates of the explicit cosine sums."""
    out = np.ones((X.shape[0], Y.shape[0]))
    for j in range(X.shape[1]):
        out *= sine_sum(X[:, j, None] - Y[None, :, j], order)
    return out


# Every kernel, with a reference Gram computation that does not use the library.
REFERENCE_GRAMS = [
    pytest.param(
        GaussianKernel(gamma=0.3), lambda X, Y: rbf_kernel(X, Y, gamma=0.3), id="gaussian"
    ),
    pytest.param(
        LaplacianKernel(gamma=0.4),
        lambda X, Y: laplacian_kernel(X, Y, gamma=0.4),
        id="laplacian-l1",
    ),
    pytest.param(
        LaplacianKernel(gamma=0.4, norm="l2"),
        lambda X, Y: np.exp(-0.4 * cdist(X, Y, "euclidean")),
        id="laplacian-l2",
    ),
    pytest.param(
        PolynomialKernel(degree=3, gamma=0.5, coef0=1.0),
        lambda X, Y: polynomial_kernel(X, Y, degree=3, gamma=0.5, coef0=1.0),
        id="poly3",
    ),
    pytest.param(
        PolynomialKernel(degree=2, gamma=0.7, coef0=0.0),
        lambda X, Y: polynomial_kernel(X, Y, degree=2, gamma=0.7, coef0=0.0),
        id="poly2-homogeneous",
    ),
    pytest.param(
        PolynomialKernel(degree=1, gamma=2.0, coef0=-0.5),
        lambda X, Y: polynomial_kernel(X, Y, degree=1, gamma=2.0, coef0=-0.5),
        id="poly1",
    ),
    pytest.param(
        SigmoidKernel(gamma=0.2, coef0=0.3),
        lambda X, Y: sigmoid_kernel(X, Y, gamma=0.2, coef0=0.3),
        id="sigmoid",
    ),
    pytest.param(LinearKernel(), lambda X, Y: linear_kernel(X, Y), id="linear"),
    pytest.param(SineKernel(order=3), lambda X, Y: sine_gram(X, Y, 3), id="sine"),
    pytest.param(
        CallableKernel(exp_l1, {"scale": 0.5}),
        lambda X, Y: np.array([[exp_l1(x, y, 0.5) for y in Y] for x in X]),
        id="callable",
    ),
]

ALL_KERNELS = [p.values[0] for p in REFERENCE_GRAMS]
ALL_IDS = [p.id for p in REFERENCE_GRAMS]

DIFFERENTIABLE = [
    pytest.param(GaussianKernel(gamma=0.3), id="gaussian"),
    pytest.param(LaplacianKernel(gamma=0.4, norm="l1"), id="laplacian-l1"),
    pytest.param(LaplacianKernel(gamma=0.4, norm="l2"), id="laplacian-l2"),
    *[
        pytest.param(PolynomialKernel(degree=p, gamma=0.5, coef0=c), id=f"poly{p}-c{c}")
        for p in (1, 2, 3, 4)
        for c in (0.0, 1.0)
    ],
    pytest.param(SigmoidKernel(gamma=0.2, coef0=0.3), id="sigmoid"),
    pytest.param(LinearKernel(), id="linear"),
    pytest.param(SineKernel(order=5), id="sine"),
]


# ---------------------------------------------------------------------------
# Gram blocks against independent implementations
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("kernel, reference", REFERENCE_GRAMS)
def test_gram_block_matches_reference(kernel, reference):
    X, Y = data(13, 4, seed=1), data(7, 4, seed=2)
    np.testing.assert_allclose(kernel(X, Y), reference(X, Y), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("kernel, reference", REFERENCE_GRAMS)
def test_gram_with_y_none_is_square_gram_of_x(kernel, reference, request):
    X = data(11, 3, seed=3)
    np.testing.assert_allclose(kernel(X), reference(X, X), rtol=1e-12, atol=1e-12)


@FAST
@given(
    X=arrays(np.float64, (6, 3), elements=st.floats(-5, 5)),
    Y=arrays(np.float64, (4, 3), elements=st.floats(-5, 5)),
    gamma=st.floats(0.01, 3.0),
)
def test_gaussian_and_laplacian_match_sklearn_property(X, Y, gamma):
    np.testing.assert_allclose(
        GaussianKernel(gamma=gamma)(X, Y), rbf_kernel(X, Y, gamma=gamma), rtol=1e-10, atol=1e-12
    )
    np.testing.assert_allclose(
        LaplacianKernel(gamma=gamma)(X, Y),
        laplacian_kernel(X, Y, gamma=gamma),
        rtol=1e-10,
        atol=1e-12,
    )


@FAST
@given(
    X=arrays(np.float64, (5, 3), elements=st.floats(-3, 3)),
    Y=arrays(np.float64, (4, 3), elements=st.floats(-3, 3)),
    degree=st.integers(1, 5),
    gamma=st.floats(0.05, 2.0),
    coef0=st.floats(-2, 2),
)
def test_polynomial_matches_sklearn_property(X, Y, degree, gamma, coef0):
    expected = polynomial_kernel(X, Y, degree=degree, gamma=gamma, coef0=coef0)
    got = PolynomialKernel(degree=degree, gamma=gamma, coef0=coef0)(X, Y)
    np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-10)


def test_integer_input_is_computed_in_float64():
    X = np.array([[0, 1], [2, 3], [-1, 4]])
    got = PolynomialKernel(degree=2, gamma=1.0, coef0=1.0)(X)
    assert got.dtype == np.float64
    np.testing.assert_array_equal(got, (X @ X.T + 1.0) ** 2)


# ---------------------------------------------------------------------------
# dtypes
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("kernel", ALL_KERNELS, ids=ALL_IDS)
def test_float32_in_float32_out(kernel):
    X, Y = data(9, 3, seed=4), data(5, 3, seed=5)
    expected = kernel(X, Y)
    got = kernel(X.astype(np.float32), Y.astype(np.float32))
    assert got.dtype == np.float32
    scale = np.abs(expected).max()
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5 * scale)
    assert kernel(X.astype(np.float32)).dtype == np.float32


@pytest.mark.parametrize("kernel", ALL_KERNELS, ids=ALL_IDS)
def test_mixed_float32_float64_gives_float64(kernel):
    X, Y = data(6, 2, seed=6), data(4, 2, seed=7)
    expected = kernel(X, Y)
    for A, B in [(X.astype(np.float32), Y), (X, Y.astype(np.float32))]:
        got = kernel(A, B)
        assert got.dtype == np.float64
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6 * np.abs(expected).max())


# ---------------------------------------------------------------------------
# squared distances (GEMM route)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("offset", [0.0, 1e4], ids=["centred", "offset-1e4"])
def test_squared_distances_match_cdist_and_are_non_negative(offset):
    base = data(40, 5, seed=8)
    X = np.vstack([base, base[:10]]) + offset  # rows 40.. duplicate rows 0..9
    Y = data(15, 5, seed=9) + offset
    norms = max((X**2).sum(axis=1).max(), (Y**2).sum(axis=1).max())
    atol = 64 * np.finfo(float).eps * norms  # the GEMM route's rounding scale
    for A, B in [(X, Y), (X, X)]:
        D = squared_distances(A, B)
        assert D.shape == (A.shape[0], B.shape[0])
        assert (D >= 0).all()
        np.testing.assert_allclose(D, cdist(A, B, "sqeuclidean"), rtol=1e-12, atol=atol)
    D = squared_distances(X, X)
    assert np.abs(np.diag(D)).max() <= atol
    assert np.abs(D[np.arange(40, 50), np.arange(10)]).max() <= atol


@pytest.mark.parametrize("offset", [0.0, 10.0], ids=["centred", "offset-10"])
@pytest.mark.parametrize("n", [7, 300])
def test_gram_of_x_alone_is_symmetric_and_equals_general_block(n, offset):
    # Y=None takes the symmetric product (SYRK); a copy of X takes the general one
    X = data(n, 20, seed=11) + offset
    for kernel in (GaussianKernel(gamma=0.05), LaplacianKernel(gamma=0.05)):
        K, general = kernel(X), kernel(X, X.copy())
        np.testing.assert_array_equal(K, K.T)
        assert np.abs(K - general).max() <= 1e-12 * np.abs(general).max()
    D = squared_distances(X)
    np.testing.assert_array_equal(D, D.T)
    assert (D >= 0).all()
    assert np.abs(D - squared_distances(X, X.copy())).max() <= 1e-12 * D.max()
    X32 = X.astype(np.float32)
    K32 = GaussianKernel(gamma=0.05)(X32)
    assert K32.dtype == np.float32
    np.testing.assert_array_equal(K32, K32.T)


def test_squared_distances_small_data_exact_cases():
    X = np.array([[0.0, 0.0], [3.0, 4.0]])
    Y = np.array([[0.0, 0.0], [1.0, 0.0], [3.0, 4.0]])
    np.testing.assert_allclose(squared_distances(X, Y), [[0, 1, 25], [25, 20, 0]], atol=1e-12)


@FAST
@given(
    X=arrays(np.float64, (6, 3), elements=st.floats(-10, 10)),
    offset=st.sampled_from([0.0, 1.0, 1e3, 1e5, -1e6]),
)
def test_squared_distances_never_negative_property(X, offset):
    A = np.vstack([X, X]) + offset  # every point twice: cancellation on purpose
    D = squared_distances(A, A)
    assert (D >= 0).all()
    # the rounding bound 64 eps max‖a‖², floored at the smallest normal float
    # (for subnormal inputs the bound itself underflows to zero)
    atol = max(64 * np.finfo(float).eps * (A**2).sum(axis=1).max(), np.finfo(float).tiny)
    np.testing.assert_allclose(D, cdist(A, A, "sqeuclidean"), rtol=1e-9, atol=atol)


def test_squared_distances_float32_stays_float32_and_non_negative():
    X = (data(20, 4, seed=10) + 100).astype(np.float32)
    D = squared_distances(X, X)
    assert D.dtype == np.float32
    assert (D >= 0).all()
    ref = cdist(X.astype(float), X.astype(float), "sqeuclidean")
    np.testing.assert_allclose(D, ref, atol=64 * np.finfo(np.float32).eps * 4 * 100**2 * 2)


# ---------------------------------------------------------------------------
# diagonal
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("kernel", ALL_KERNELS, ids=ALL_IDS)
def test_diag_equals_diagonal_of_gram(kernel):
    X = data(8, 3, seed=11)
    np.testing.assert_allclose(kernel.diag(X), np.diag(kernel(X)), rtol=1e-12, atol=1e-12)


# Non-regression: the l2 distance once came from sqrt of GEMM-route squared
# distances, whose rounding became sqrt(eps)-sized errors (k(x, x) = 0.99986).
@pytest.mark.parametrize("offset", [0.0, 1e4])
def test_laplacian_l2_self_similarity_is_one(offset):
    X = data(11, 3, seed=3) + offset
    k = LaplacianKernel(gamma=0.4, norm="l2")
    K = k(X)
    np.testing.assert_allclose(np.diag(K), k.diag(X), rtol=0, atol=1e-12)
    np.testing.assert_allclose(K, np.exp(-0.4 * cdist(X, X, "euclidean")), rtol=1e-10, atol=1e-10)


def test_diag_closed_forms():
    X = data(5, 3, seed=12)
    sq = (X**2).sum(axis=1)
    np.testing.assert_array_equal(GaussianKernel(gamma=2.0).diag(X), np.ones(5))
    np.testing.assert_array_equal(LaplacianKernel(gamma=2.0).diag(X), np.ones(5))
    np.testing.assert_allclose(SineKernel(order=4).diag(X), np.full(5, 5.0**3))
    np.testing.assert_allclose(
        PolynomialKernel(degree=3, gamma=0.5, coef0=2).diag(X), (0.5 * sq + 2) ** 3, rtol=1e-13
    )


# ---------------------------------------------------------------------------
# gradients against central finite differences
# ---------------------------------------------------------------------------


def _points(kernel, seed):
    """Z and X in general position (no ties between coordinates)."""
    rng = np.random.default_rng(seed)
    d = 2
    X = rng.uniform(-1.5, 1.5, size=(6, d))
    Z = rng.uniform(-1.5, 1.5, size=(4, d))
    if isinstance(kernel, LaplacianKernel):
        # keep every |z_c - x_c| away from the kink at 0
        gaps = np.abs(Z[:, None, :] - X[None, :, :])
        assert gaps.min() > 1e-3
    return Z, X


@pytest.mark.parametrize("kernel", DIFFERENTIABLE)
def test_gradient_full_form_matches_finite_differences(kernel, fdiff):
    Z, X = _points(kernel, seed=13)
    G = kernel.gradient(Z, X)
    assert G.shape == (Z.shape[0], X.shape[0], Z.shape[1])
    # row j of k(Z, X) depends on z_j only: differentiate all rows at once
    expected = fdiff(lambda A: kernel(A, X), Z)
    scale = max(np.abs(expected).max(), 1.0)
    np.testing.assert_allclose(G, expected, rtol=1e-6, atol=1e-7 * scale)


@pytest.mark.parametrize("kernel", DIFFERENTIABLE)
def test_weighted_gradient_is_weighted_sum_of_full_form(kernel):
    Z, X = _points(kernel, seed=14)
    W = np.random.default_rng(15).normal(size=(Z.shape[0], X.shape[0]))
    full = kernel.gradient(Z, X)
    np.testing.assert_allclose(
        kernel.gradient(Z, X, weights=W), np.einsum("ji,jid->jd", W, full), rtol=1e-12, atol=1e-12
    )


@pytest.mark.parametrize("kernel", DIFFERENTIABLE)
def test_diag_gradient_matches_finite_differences(kernel, fdiff):
    Z, _ = _points(kernel, seed=16)
    expected = fdiff(kernel.diag, Z)
    np.testing.assert_allclose(kernel.diag_gradient(Z), expected, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("d", [1, 2, 3])
def test_sine_kernel_gradient_in_d_dimensions(d, fdiff):
    rng = np.random.default_rng(17)
    kernel = SineKernel(order=4)
    X, Z = rng.uniform(-3, 3, size=(5, d)), rng.uniform(-3, 3, size=(3, d))
    np.testing.assert_allclose(
        kernel.gradient(Z, X), fdiff(lambda A: kernel(A, X), Z), rtol=1e-6, atol=1e-6
    )


def test_gaussian_gradient_closed_form():
    # ∇_z exp(−γ‖z − x‖²) = −2γ k (z − x); at z = (1, 0), x = 0, γ = 1/2: −e^{−1/2}(1, 0)
    g = GaussianKernel(gamma=0.5).gradient(np.array([[1.0, 0.0]]), np.zeros((1, 2)))
    np.testing.assert_allclose(g[0, 0], [-np.exp(-0.5), 0.0], rtol=1e-14)


def test_laplacian_l2_gradient_at_coincident_point_is_zero_subgradient():
    X = np.array([[0.5, -0.5]])
    g = LaplacianKernel(gamma=1.0, norm="l2").gradient(X, X)
    np.testing.assert_array_equal(g, np.zeros((1, 1, 2)))


@dataclass(frozen=True)
class InverseQuadratic(RadialKernel):
    """A radial kernel defined only here: f(r²) = 1/(1 + γr²), f⁻¹(k) = (1/k − 1)/γ.

    It runs the generic RadialKernel machinery (block, gradient, inverse), which
    the library's own Gaussian kernel overrides.
    """

    gamma: float = 1.0

    def profile(self, r2):
        return 1.0 / (1.0 + self.gamma * r2)

    def profile_derivative(self, r2):
        return -self.gamma / (1.0 + self.gamma * r2) ** 2

    def inverse_profile(self, k):
        return (1.0 / k - 1.0) / self.gamma


def test_generic_radial_kernel_machinery(fdiff):
    k = InverseQuadratic(gamma=0.7)
    X, Z = data(6, 3, seed=41), data(4, 3, seed=42)
    np.testing.assert_allclose(k(Z, X), 1 / (1 + 0.7 * cdist(Z, X, "sqeuclidean")), rtol=1e-12)
    np.testing.assert_array_equal(k.diag(Z), np.ones(4))
    full = k.gradient(Z, X)
    np.testing.assert_allclose(full, fdiff(lambda A: k(A, X), Z), rtol=1e-6, atol=1e-8)
    W = np.random.default_rng(43).normal(size=(4, 6))
    np.testing.assert_allclose(
        k.gradient(Z, X, weights=W), np.einsum("ji,jid->jd", W, full), rtol=1e-12, atol=1e-12
    )
    np.testing.assert_array_equal(k.diag_gradient(Z), np.zeros_like(Z))
    np.testing.assert_allclose(
        k.distance2_from_value(k(Z, X)), cdist(Z, X, "sqeuclidean"), rtol=1e-10
    )
    # ‖φ(x) − φ(y)‖² = 2f(0) − 2f(r²) = 2 − 2k
    np.testing.assert_allclose(
        k.distance2_from_feature_distance2(2 - 2 * k(Z, X)), cdist(Z, X, "sqeuclidean"), rtol=1e-9
    )


# ---------------------------------------------------------------------------
# inverse maps
# ---------------------------------------------------------------------------


def test_gaussian_distance2_from_value_round_trips():
    X, Y = data(6, 3, seed=18), data(5, 3, seed=19)
    k = GaussianKernel(gamma=0.3)
    expected = cdist(X, Y, "sqeuclidean")
    np.testing.assert_allclose(k.distance2_from_value(k(X, Y)), expected, rtol=1e-9, atol=1e-10)
    np.testing.assert_allclose(
        k.distance2_from_feature_distance2(2 - 2 * k(X, Y)), expected, rtol=1e-8, atol=1e-10
    )


def test_gaussian_inverse_closed_form():
    k = GaussianKernel(gamma=0.5)
    # exp(−0.5 · 2) = e^{−1}
    assert k.distance2_from_value(np.exp(-1.0)) == pytest.approx(2.0, rel=1e-15)
    assert k.distance2_from_value(1.0) == 0.0
    # ‖φ(x) − φ(y)‖² = 2 − 2e^{−1} for ‖x − y‖² = 2
    assert k.distance2_from_feature_distance2(2 - 2 * np.exp(-1.0)) == pytest.approx(
        2.0, rel=1e-14
    )


@pytest.mark.parametrize("values", [[0.0], [-0.3], [1.5], [0.5, -1e-3, 2.0]])
def test_gaussian_inverse_outside_range_warns_and_stays_finite(values):
    k = GaussianKernel(gamma=0.5)
    with pytest.warns(RuntimeWarning, match="clipped"):
        out = k.distance2_from_value(np.array(values))
    assert np.isfinite(out).all()
    assert (out >= 0).all()
    values = np.array(values)
    above = values > 1
    np.testing.assert_array_equal(out[above], 0.0)  # clipped to k = 1
    inside = (values > 0) & (values <= 1)
    np.testing.assert_allclose(out[inside], -np.log(values[inside]) / 0.5)


def test_gaussian_feature_distance_beyond_two_warns():
    k = GaussianKernel(gamma=1.0)
    with pytest.warns(RuntimeWarning):
        out = k.distance2_from_feature_distance2(np.array([2.0, 2.5]))
    assert np.isfinite(out).all()


@pytest.mark.parametrize("norm, metric", [("l1", "cityblock"), ("l2", "euclidean")])
def test_laplacian_distance_from_value_round_trips(norm, metric):
    X, Y = data(6, 3, seed=20), data(4, 3, seed=21)
    k = LaplacianKernel(gamma=0.7, norm=norm)
    np.testing.assert_allclose(
        k.distance_from_value(k(X, Y)), cdist(X, Y, metric), rtol=1e-10, atol=1e-12
    )


def test_laplacian_inverse_outside_range_warns():
    with pytest.warns(RuntimeWarning):
        out = LaplacianKernel(gamma=1.0).distance_from_value(np.array([0.0, 1.2, -1.0]))
    assert np.isfinite(out).all()


@pytest.mark.parametrize("degree", [1, 3, 5])
@pytest.mark.parametrize("coef0", [0.0, 1.0, -0.5])
def test_odd_polynomial_inner_product_round_trips(degree, coef0):
    X, Y = data(6, 3, seed=22), data(5, 3, seed=23)
    G = X @ Y.T
    assert (G < 0).any() and (G > 0).any()
    k = PolynomialKernel(degree=degree, gamma=0.8, coef0=coef0)
    np.testing.assert_allclose(k.inner_product_from_value(k(X, Y)), G, rtol=1e-9, atol=1e-9)


def test_polynomial_invertible_flag():
    assert PolynomialKernel(degree=2).invertible is False
    assert PolynomialKernel(degree=4).invertible is False
    assert PolynomialKernel(degree=3).invertible is True
    assert PolynomialKernel(degree=1).invertible is True


def test_even_polynomial_round_trips_on_non_negative_branch():
    rng = np.random.default_rng(24)
    X, Y = rng.uniform(0, 1, size=(5, 3)), rng.uniform(0, 1, size=(4, 3))  # <x, y> ≥ 0
    k = PolynomialKernel(degree=2, gamma=0.5, coef0=1.0)
    np.testing.assert_allclose(
        k.inner_product_from_value(k(X, Y)), X @ Y.T, rtol=1e-10, atol=1e-12
    )
    # a negative base γ<x,y> + c₀ < 0 is not recoverable: the other branch comes back
    x, y = np.array([[2.0, 0.0]]), np.array([[-3.0, 0.0]])  # 0.5·(−6) + 1 = −2
    assert k.inner_product_from_value(k(x, y))[0, 0] == pytest.approx((2 - 1) / 0.5)


def test_even_polynomial_negative_value_warns_and_stays_finite():
    k = PolynomialKernel(degree=2, gamma=0.5, coef0=1.0)
    with pytest.warns(RuntimeWarning, match="clipped"):
        out = k.inner_product_from_value(np.array([-0.5, 4.0]))
    assert np.isfinite(out).all()
    assert out[1] == pytest.approx((2.0 - 1.0) / 0.5)


def test_sigmoid_inner_product_round_trips():
    X, Y = data(6, 3, seed=25), data(5, 3, seed=26)
    k = SigmoidKernel(gamma=0.3, coef0=0.2)
    K = k(X, Y)
    assert np.abs(K).max() < 0.999
    np.testing.assert_allclose(k.inner_product_from_value(K), X @ Y.T, rtol=1e-8, atol=1e-8)


@pytest.mark.parametrize("values", [[1.0], [-1.0], [1.5, 0.2], [-7.0]])
def test_sigmoid_inverse_at_or_beyond_one_warns_and_stays_finite(values):
    k = SigmoidKernel(gamma=0.3, coef0=0.2)
    with pytest.warns(RuntimeWarning, match="clipped"):
        out = k.inner_product_from_value(np.array(values))
    assert np.isfinite(out).all()
    values = np.array(values)
    inside = np.abs(values) < 1
    np.testing.assert_allclose(out[inside], (np.arctanh(values[inside]) - 0.2) / 0.3)


def test_linear_inner_product_is_identity():
    v = np.array([-3.0, 0.0, 2.5])
    np.testing.assert_array_equal(LinearKernel().inner_product_from_value(v), v)


@FAST
@given(
    x=arrays(np.float64, (1, 3), elements=st.floats(-3, 3)),
    y=arrays(np.float64, (1, 3), elements=st.floats(-3, 3)),
    gamma=st.floats(0.05, 2.0),
)
def test_inverse_maps_property(x, y, gamma):
    r2 = float(((x - y) ** 2).sum())
    kg = GaussianKernel(gamma=gamma)
    value = kg(x, y)[0, 0]
    if value > 1e-200:  # not underflowed
        assert kg.distance2_from_value(value) == pytest.approx(r2, rel=1e-8, abs=1e-10)
    kp = PolynomialKernel(degree=3, gamma=gamma, coef0=1.0)
    t = (x @ y.T).item()
    assert kp.inner_product_from_value(kp(x, y))[0, 0] == pytest.approx(t, rel=1e-8, abs=1e-8)


# ---------------------------------------------------------------------------
# sine kernel
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "delta",
    [
        0.0,
        1e-9,
        -1e-9,
        1e-7,
        1.9e-6,
        -1.9e-6,
        2.1e-6,
        0.3,
        -1.7,
        np.pi,
        2 * np.pi,
        -2 * np.pi,
        2 * np.pi + 1.9e-6,
        4 * np.pi,
        10.0,
    ],
)
def test_sine_kernel_equals_explicit_cosine_sum(delta):
    k = SineKernel(order=5)
    x, y = np.array([[0.4 + delta]]), np.array([[0.4]])
    d = x[0, 0] - y[0, 0]  # the difference as the kernel sees it
    got = k(x, y)[0, 0]
    assert got == pytest.approx(sine_sum(d, 5), rel=1e-12, abs=1e-12)
    assert got <= 6.0


def test_sine_kernel_vijayakumar_wu_closed_form():
    k = SineKernel(order=5)
    assert k(np.array([[0.3]]))[0, 0] == 6.0
    d = np.linspace(0.1, 6.0, 25)
    closed = 0.5 * (np.sin(11 * d / 2) / np.sin(d / 2) + 1)
    np.testing.assert_allclose(
        k(d[:, None], np.zeros((1, 1)))[:, 0], closed, rtol=1e-12, atol=1e-12
    )


# Non-regression: a closed form near δ = 2πk once divided rounding errors by
# sin(δ/2) ~ 1e-6 and lost ~1e-9, even exceeding k(x, x) = N + 1.
@pytest.mark.parametrize("offset", [2.1e-6, 3e-6, -2.5e-6])
def test_sine_kernel_accurate_just_outside_series_region_near_two_pi(offset):
    k = SineKernel(order=5)
    x, y = np.array([[2 * np.pi + offset]]), np.array([[0.0]])
    d = x[0, 0]
    got = k(x, y)[0, 0]
    # explicit sum and the two-term series agree to 1e-15 here
    series = 6 - (d - 2 * np.pi) ** 2 * 5 * 6 * 11 / 12
    assert sine_sum(d, 5) == pytest.approx(series, abs=1e-14)
    assert got == pytest.approx(sine_sum(d, 5), rel=1e-12, abs=1e-12)


@FAST
@given(
    X=arrays(np.float64, (5, 2), elements=st.floats(-7, 7)),
    Y=arrays(np.float64, (3, 2), elements=st.floats(-7, 7)),
    order=st.integers(0, 6),
)
def test_sine_kernel_product_over_coordinates_property(X, Y, order):
    np.testing.assert_allclose(
        SineKernel(order=order)(X, Y), sine_gram(X, Y, order), rtol=1e-12, atol=1e-12
    )


@pytest.mark.parametrize("d", [1, 2])
def test_sine_gram_is_positive_semidefinite(d):
    X = np.random.default_rng(27).uniform(-np.pi, np.pi, size=(40, d))
    w = np.linalg.eigvalsh(SineKernel(order=5)(X))
    assert w.min() >= -1e-9 * w.max()


def test_sine_order_zero_is_constant_one():
    X = data(4, 2, seed=28)
    np.testing.assert_array_equal(SineKernel(order=0)(X), np.ones((4, 4)))


# ---------------------------------------------------------------------------
# make_kernel
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, expected",
    [
        ("rbf", GaussianKernel(gamma=0.25)),
        ("gaussian", GaussianKernel(gamma=0.25)),
        ("laplacian", LaplacianKernel(gamma=0.25)),
        ("poly", PolynomialKernel(degree=4, gamma=0.25, coef0=2.0)),
        ("polynomial", PolynomialKernel(degree=4, gamma=0.25, coef0=2.0)),
        ("sigmoid", SigmoidKernel(gamma=0.25, coef0=2.0)),
        ("linear", LinearKernel()),
        ("sine", SineKernel()),  # `degree` is the polynomial's only
    ],
)
def test_make_kernel_names(name, expected):
    k = make_kernel(name, gamma=0.25, degree=4, coef0=2.0)
    assert type(k) is type(expected)
    assert k == expected


def test_make_kernel_sine_order_comes_from_kernel_params():
    """The sine kernel's order N is `order`, never the polynomial `degree`: by
    name it comes from ``kernel_params``, else from SineKernel's default
    (N = 5, ``k(x, x) = N + 1``)."""
    k = make_kernel("sine", degree=2, kernel_params={"order": 4})
    assert k == SineKernel(order=4)
    assert make_kernel("sine", degree=2) == SineKernel() == SineKernel(order=5)
    X = data(6, 1, seed=33)
    np.testing.assert_allclose(k(X), sine_gram(X, X, 4), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(np.diag(make_kernel("sine", degree=2)(X)), 6.0)


def test_make_kernel_passes_kernel_params():
    k = make_kernel("laplacian", gamma=0.5, kernel_params={"norm": "l2"})
    assert k == LaplacianKernel(gamma=0.5, norm="l2")


def test_make_kernel_gamma_none_rbf_is_inverse_twice_total_variance():
    X = data(30, 4, seed=29) * np.array([1.0, 2.0, 0.5, 3.0])
    centred = X - X.mean(axis=0)
    total_variance = np.mean(np.sum(centred**2, axis=1))
    for name in ("rbf", "gaussian"):
        k = make_kernel(name, gamma=None, X=X)
        assert k.gamma == pytest.approx(1 / (2 * total_variance), rel=1e-12)


@pytest.mark.parametrize("name", ["poly", "sigmoid", "laplacian"])
def test_make_kernel_gamma_none_others_is_inverse_n_features(name):
    X = data(10, 4, seed=30)
    assert make_kernel(name, gamma=None, X=X).gamma == pytest.approx(0.25)


def test_default_width_is_computed_without_underflow():
    # The variance is taken over a power of two above max |x|, so squares neither underflow
    # nor overflow: the width scales as 1/scale² as far as float64 holds it. At 1e-155 it
    # would be about 1e309, beyond float64, and the refusal says so (it was called zero
    # variance, and the width fell back to 1/n_features).
    from scipy.sparse import csr_matrix

    from preimage.kernels import default_gamma

    X = data(20, 3, seed=31)
    for scale in (1e-154, 1e-150, 1e-100, 1e100, 1e150):
        for A in (X * scale, csr_matrix(X * scale)):
            assert default_gamma(A) * scale**2 == pytest.approx(default_gamma(X), rel=1e-12)
    for A in (X * 1e-155, csr_matrix(X * 1e-155)):
        with pytest.raises(ValueError, match=r"up to \S+e-155 .*width .* overflows float64"):
            default_gamma(A)
    with pytest.warns(RuntimeWarning, match="zero variance"):
        assert default_gamma(np.full((20, 3), 1e-155)) == pytest.approx(1 / 3)


def test_make_kernel_constant_data_warns_and_falls_back():
    X = np.full((5, 4), 3.0)
    with pytest.warns(RuntimeWarning, match="variance"):
        k = make_kernel("rbf", gamma=None, X=X)
    assert k.gamma == pytest.approx(0.25)


def test_make_kernel_gamma_none_without_data_names_gamma():
    with pytest.raises(ValueError, match="'gamma'"):
        make_kernel("rbf", gamma=None)


def test_make_kernel_callable_equals_pairwise_kernels():
    X, Y = data(7, 3, seed=31), data(4, 3, seed=32)
    k = make_kernel(exp_l1, kernel_params={"scale": 0.3})
    assert isinstance(k, CallableKernel)
    expected = pairwise_kernels(X, Y, metric=exp_l1, scale=0.3)
    np.testing.assert_allclose(k(X, Y), expected, rtol=1e-14)
    loops = np.array([[np.exp(-0.3 * np.abs(x - y).sum()) for y in Y] for x in X])
    np.testing.assert_allclose(k(X, Y), loops, rtol=1e-14)


def test_make_kernel_returns_kernel_object_and_warns_on_ignored_gamma():
    k = GaussianKernel(gamma=2.0)
    assert make_kernel(k) is k
    with pytest.warns(UserWarning, match="'gamma'"):
        assert make_kernel(k, gamma=0.1) is k


@pytest.mark.parametrize("name", ["foo", "RBF", "precomputed-ish", 3])
def test_make_kernel_unknown_name(name):
    with pytest.raises(ValueError, match="'kernel'") as info:
        make_kernel(name, gamma=1.0)
    for valid in ("rbf", "poly", "linear", "sigmoid", "laplacian", "sine"):
        assert repr(valid) in str(info.value)


# ---------------------------------------------------------------------------
# invalid parameters and inputs
# ---------------------------------------------------------------------------

BAD_GAMMAS = [0, 0.0, -1, -1e-3, np.nan, np.inf, -np.inf, True, "1", None]


@pytest.mark.parametrize("cls", [GaussianKernel, LaplacianKernel, PolynomialKernel, SigmoidKernel])
@pytest.mark.parametrize("gamma", BAD_GAMMAS)
def test_invalid_gamma_names_gamma(cls, gamma):
    with pytest.raises(ValueError, match="'gamma'"):
        cls(gamma=gamma)


@pytest.mark.parametrize("degree", [0, -2, 1.5, True, 2.0, None])
def test_invalid_degree_names_degree(degree):
    with pytest.raises(ValueError, match="'degree'"):
        PolynomialKernel(degree=degree)


@pytest.mark.parametrize(
    "coef0",
    [
        np.nan,
        np.inf,
        -np.inf,
        None,
        True,
        [1.0],
        "1",
    ],
)
@pytest.mark.parametrize("cls", [PolynomialKernel, SigmoidKernel])
def test_invalid_coef0_names_coef0(cls, coef0):
    with pytest.raises(ValueError, match="'coef0'"):
        cls(coef0=coef0)


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"norm": "l3"}, "'norm'"),
        ({"norm": "L1"}, "'norm'"),
    ],
)
def test_invalid_laplacian_norm(kwargs, name):
    with pytest.raises(ValueError, match=name):
        LaplacianKernel(**kwargs)


@pytest.mark.parametrize("order", [-1, 2.5, True])
def test_invalid_sine_order(order):
    with pytest.raises(ValueError, match="'order'"):
        SineKernel(order=order)


@pytest.mark.parametrize("sigma", [0, -1.0, np.nan])
def test_gaussian_from_sigma(sigma):
    with pytest.raises(ValueError, match="'sigma'"):
        GaussianKernel.from_sigma(sigma)
    assert GaussianKernel.from_sigma(2.0) == GaussianKernel(gamma=1 / 8)


def test_callable_kernel_requires_callable():
    with pytest.raises(ValueError, match="'kernel'"):
        CallableKernel(42)


def _with_nan(A):
    A = A.copy()
    A[1, 1] = np.nan
    return A


CALL_ERRORS = [
    pytest.param(lambda X: (X[0], None), "'X'", id="1d-X"),
    pytest.param(lambda X: (X[None], None), "'X'", id="3d-X"),
    pytest.param(lambda X: (_with_nan(X), None), "'X'", id="nan-X"),
    pytest.param(lambda X: (np.where(X > 1, np.inf, X), None), "'X'", id="inf-X"),
    pytest.param(lambda X: (X, X[:, :2]), "'Y'", id="Y-wrong-width"),
    pytest.param(lambda X: (X, _with_nan(X)), "'Y'", id="nan-Y"),
    pytest.param(lambda X: (X, X[0]), "'Y'", id="1d-Y"),
    pytest.param(lambda X: (np.empty((0, 3)), None), "'X'", id="empty-X"),
    pytest.param(lambda X: (np.empty((4, 0)), None), "'X'", id="no-features"),
]


@pytest.mark.parametrize("kernel", ALL_KERNELS, ids=ALL_IDS)
@pytest.mark.parametrize("make_args, name", CALL_ERRORS)
def test_call_with_bad_input_names_the_argument(kernel, make_args, name):
    X = data(5, 3, seed=33)
    X[0, 0] = 2.0  # so that the inf case has something to replace
    A, B = make_args(X)
    with pytest.raises(ValueError, match=name):
        kernel(A, B)


def test_bad_input_to_diag_blocks_gradient():
    k = GaussianKernel(gamma=1.0)
    X = data(5, 3, seed=34)
    with pytest.raises(ValueError, match="'X'"):
        k.diag(X[0])
    with pytest.raises(ValueError, match="'Y'"):
        list(k.blocks(X, X[:, :1]))
    with pytest.raises(ValueError, match="'Z'"):
        k.gradient(_with_nan(X), X)
    with pytest.raises(ValueError, match="'X'"):
        k.gradient(X, X[:, :2])
    with pytest.raises(ValueError, match="'Z'"):
        k.diag_gradient(X[0])


@pytest.mark.parametrize("shape", [(5,), (4, 6), (6, 5), (5, 6, 1)])
@pytest.mark.parametrize(
    "kernel",
    [GaussianKernel(gamma=1.0), PolynomialKernel(), LaplacianKernel(), SineKernel()],
    ids=["gaussian", "poly", "laplacian", "sine"],
)
def test_gradient_weights_wrong_shape_names_weights(kernel, shape):
    Z, X = data(5, 2, seed=35), data(6, 2, seed=36)
    with pytest.raises(ValueError, match="'weights'"):
        kernel.gradient(Z, X, weights=np.ones(shape))


def test_callable_kernel_has_no_gradient():
    k = CallableKernel(exp_l1)
    X = data(4, 2, seed=37)
    assert k.differentiable is False
    with pytest.raises(NotImplementedError):
        k.gradient(X, X)
    with pytest.raises(NotImplementedError):
        k.diag_gradient(X)


# ---------------------------------------------------------------------------
# blocks
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("kernel", ALL_KERNELS, ids=ALL_IDS)
@pytest.mark.parametrize("working_memory", [None, 1.0, 0.001])
def test_blocks_concatenate_to_full_gram(kernel, working_memory):
    X, Y = data(37, 3, seed=38), data(50, 3, seed=39)
    for B in (Y, None):
        parts = list(kernel.blocks(X, B, working_memory=working_memory))
        if working_memory == 0.001:
            # 0.001 MiB = 1048.576 bytes; a row of 50 (37) float64 values takes 400
            # (296) bytes: 2 (3) rows a chunk
            assert len(parts) == (19 if B is not None else 13)
        starts = [rows.start for rows, _ in parts]
        stops = [rows.stop for rows, _ in parts]
        assert starts[0] == 0 and stops[-1] == X.shape[0]
        assert starts[1:] == stops[:-1]  # contiguous, no overlap
        full = np.vstack([block for _, block in parts])
        np.testing.assert_allclose(full, kernel(X, B), rtol=1e-13, atol=1e-13)


# ---------------------------------------------------------------------------
# pickling, equality, hashing
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("kernel", ALL_KERNELS, ids=ALL_IDS)
def test_kernel_pickles_compares_and_hashes(kernel):
    clone = pickle.loads(pickle.dumps(kernel))
    assert clone == kernel
    assert hash(clone) == hash(kernel)
    assert len({kernel, clone}) == 1
    assert isinstance(clone, Kernel)
    X = data(4, 2, seed=40)
    np.testing.assert_array_equal(clone(X), kernel(X))


@pytest.mark.parametrize(
    "a, b",
    [
        (GaussianKernel(gamma=1.0), GaussianKernel(gamma=2.0)),
        (GaussianKernel(gamma=1.0), LaplacianKernel(gamma=1.0)),
        (LaplacianKernel(norm="l1"), LaplacianKernel(norm="l2")),
        (PolynomialKernel(degree=2), PolynomialKernel(degree=3)),
        (PolynomialKernel(coef0=0.0), PolynomialKernel(coef0=1.0)),
        (SigmoidKernel(gamma=1.0, coef0=1.0), PolynomialKernel(degree=1, gamma=1.0, coef0=1.0)),
        (SineKernel(order=2), SineKernel(order=3)),
        (CallableKernel(exp_l1, {"scale": 1.0}), CallableKernel(exp_l1, {"scale": 2.0})),
    ],
)
def test_different_kernels_are_unequal(a, b):
    assert a != b
    assert len({a, b}) == 2


def test_equal_parameters_equal_kernels():
    assert GaussianKernel(gamma=0.5) == GaussianKernel(gamma=0.5)
    assert LinearKernel() == LinearKernel()
    assert {PolynomialKernel(degree=2, gamma=0.5, coef0=0.0): 1}[
        PolynomialKernel(degree=2, gamma=0.5, coef0=0.0)
    ] == 1


@pytest.mark.parametrize("kernel", [GaussianKernel(), PolynomialKernel(), SineKernel()])
def test_kernels_are_immutable(kernel):
    field = next(iter(kernel.get_params()))
    with pytest.raises(AttributeError):
        setattr(kernel, field, 2)


def test_pairwise_kernel_refuses_an_unknown_metric_naming_it():
    from preimage.kernels import PairwiseKernel

    with pytest.raises(ValueError, match="'metric' must be one of .*'cosine'"):
        PairwiseKernel("foo")
    X = np.random.default_rng(0).normal(size=(4, 3))
    from sklearn.metrics.pairwise import cosine_similarity

    np.testing.assert_allclose(PairwiseKernel("cosine").block(X), cosine_similarity(X), rtol=1e-12)
