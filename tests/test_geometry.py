"""The geometry a kernel induces on input space (Schölkopf et al. 1999, Sec. II-E).

Layers: the metric against the line element computed from kernel values alone
and against the finite differences of the kernel's gradient; the curvature of
the differences against metrics of known curvature (sphere, hyperbolic space)
and against the closed forms; the paper's claims on polynomial kernels; the
volume element; invalid input.
"""

import numpy as np
import pytest

from preimage.exceptions import NumericalWarning
from preimage.geometry import (
    induced_metric,
    metric_by_finite_differences,
    metric_scalar_curvature,
    polynomial_scalar_curvature,
    scalar_curvature,
    volume_element,
)
from preimage.kernels import (
    GaussianKernel,
    LaplacianKernel,
    LinearKernel,
    PairwiseKernel,
    PolynomialKernel,
    SigmoidKernel,
    SineKernel,
)

SMOOTH = [
    GaussianKernel(gamma=0.7),
    LinearKernel(),
    PolynomialKernel(degree=2, gamma=1.0, coef0=1.0),
    PolynomialKernel(degree=3, gamma=0.5, coef0=0.0),
    PolynomialKernel(degree=4, gamma=0.3, coef0=2.0),
    SigmoidKernel(gamma=0.3, coef0=0.1),
]


def _points(d, n=5, seed=0, scale=0.8):
    return scale * np.random.default_rng(seed).normal(size=(n, d))


# -- the metric ---------------------------------------------------------------


@pytest.mark.parametrize("kernel", SMOOTH, ids=repr)
@pytest.mark.parametrize("d", [1, 2, 3])
def test_metric_is_the_line_element_of_the_kernel_values(kernel, d):
    # ‖φ(x + δ) − φ(x)‖² = k(x+δ, x+δ) − 2k(x, x+δ) + k(x, x) = δᵀ g δ + O(|δ|³):
    # with |δ| = 1e-4 the relative error is O(1e-4), rounding O(1e-8).
    rng = np.random.default_rng(1)
    X = _points(d)
    g = induced_metric(kernel, X)
    for x, gx in zip(X, g):
        u = rng.normal(size=d)
        delta = 1e-4 * min(1.0, np.linalg.norm(x)) * u / np.linalg.norm(u)
        K = kernel(np.stack([x, x + delta]))
        feature = K[1, 1] - 2 * K[0, 1] + K[0, 0]
        # rounding of the three kernel values: a few ε·|k|
        atol = 1e-13 * np.abs(K).max()
        np.testing.assert_allclose(feature, delta @ gx @ delta, rtol=2e-3, atol=atol)


@pytest.mark.parametrize("kernel", SMOOTH, ids=repr)
def test_closed_form_metric_equals_finite_differences_of_the_gradient(kernel):
    # central differences with h = ε^{1/3}: error ~1e-10 of the metric's size
    X = _points(3, n=6, seed=2)
    closed = induced_metric(kernel, X, method="closed_form")
    numeric = metric_by_finite_differences(kernel, X)
    assert closed.shape == numeric.shape == (6, 3, 3)
    np.testing.assert_allclose(numeric, closed, atol=1e-8 * np.abs(closed).max())


@pytest.mark.parametrize("gamma", [0.1, 1.0, 25.0])
def test_gaussian_metric_is_two_gamma_identity(gamma):
    # exp(−γ‖x − x'‖²): g = 2γ I everywhere; exp(−‖x − x'‖²/(2σ²)): g = I/σ²
    X = _points(4, seed=3, scale=3.0)
    np.testing.assert_array_equal(
        induced_metric(GaussianKernel(gamma=gamma), X), 2 * gamma * np.eye(4)[None].repeat(5, 0)
    )
    sigma = 0.4
    g = induced_metric(GaussianKernel.from_sigma(sigma), X)
    np.testing.assert_allclose(g, np.eye(4)[None].repeat(5, 0) / sigma**2, rtol=1e-14)


@pytest.mark.parametrize("p, c", [(1, 1.0), (2, 1.0), (3, 0.0), (5, 0.5)])
def test_polynomial_metric_is_the_papers(p, c):
    # (⟨x, x'⟩ + c)^p: g_ij = p(‖x‖² + c)^{p−1} δ_ij + p(p − 1)(‖x‖² + c)^{p−2} x_i x_j
    X = _points(3, seed=4)
    s = (X**2).sum(1)
    expected = p * (s + c)[:, None, None] ** (p - 1) * np.eye(3) + (
        p * (p - 1) * (s + c)[:, None, None] ** (p - 2) * X[:, :, None] * X[:, None, :]
    )
    got = induced_metric(PolynomialKernel(degree=p, gamma=1.0, coef0=c), X)
    np.testing.assert_allclose(got, expected, rtol=1e-13)


def test_metric_of_a_kernel_without_closed_form_by_differences():
    # product Dirichlet kernel Π_j s(x_j − x'_j), s(δ) = Σ_{n≤N} cos nδ:
    # g = (Σ n²)(N + 1)^{d−1} I, exactly (s'(0) = 0)
    X = _points(2, seed=5)
    g = induced_metric(SineKernel(order=3), X)
    np.testing.assert_allclose(
        g, (1 + 4 + 9) * 4 * np.eye(2)[None].repeat(5, 0), rtol=1e-8, atol=1e-7
    )
    with pytest.raises(ValueError, match="'method' 'closed_form' is not known"):
        induced_metric(SineKernel(order=3), X, method="closed_form")


# -- curvature ------------------------------------------------------------------


@pytest.mark.parametrize("d", [2, 3, 4])
def test_finite_difference_curvature_of_known_metrics(d):
    # stereographic unit sphere 4/(1 + |x|²)² δ: R = d(d − 1);
    # Poincaré ball 4/(1 − |x|²)² δ: R = −d(d − 1). Step 1e-3: error O(1e-6).
    X = _points(d, seed=6, scale=0.25)

    def sphere(Z):
        return (4 / (1 + (Z**2).sum(1)) ** 2)[:, None, None] * np.eye(d)

    def ball(Z):
        return (4 / (1 - (Z**2).sum(1)) ** 2)[:, None, None] * np.eye(d)

    np.testing.assert_allclose(metric_scalar_curvature(sphere, X), d * (d - 1), rtol=3e-5)
    np.testing.assert_allclose(metric_scalar_curvature(ball, X), -d * (d - 1), rtol=3e-5)


def _curvature_scale(kernel, X, R):
    """The size of the terms that make up R at each point: for polynomial
    kernels 1/(γ‖x‖² + c)^p (they cancel to R = 0 for the homogeneous kernel
    in the plane), else max(1, |R|)."""
    scale = np.maximum(1.0, np.abs(R))
    if isinstance(kernel, PolynomialKernel):
        u = kernel.gamma * (X**2).sum(1) + kernel.coef0
        scale = np.maximum(scale, u ** (-kernel.degree))
    return scale


@pytest.mark.parametrize("kernel", SMOOTH, ids=repr)
@pytest.mark.parametrize("d", [2, 3, 4])
def test_closed_form_curvature_equals_finite_differences(kernel, d):
    # differences of the metric with h = 1e-3 max(‖x‖, ℓ): truncation
    # O(p²h²/‖x‖²) of the terms' size, at most ~1e-4 here; differences of the
    # finite-difference metric (errors ~1e-10 / h²) add ~1e-4
    X = _points(d, seed=7)
    closed = scalar_curvature(kernel, X, method="closed_form")
    scale = _curvature_scale(kernel, X, closed)
    numeric = scalar_curvature(kernel, X, method="finite_differences")
    assert np.all(np.abs(numeric - closed) <= 3e-4 * scale)
    twice = scalar_curvature(kernel, X, method="finite_differences", metric="finite_differences")
    assert np.all(np.abs(twice - closed) <= 1e-3 * scale)


def test_polynomial_closed_form_equals_the_general_dot_product_formula():
    X = _points(5, seed=8)
    for p, gamma, c in [(2, 1.0, 1.0), (3, 0.4, 0.0), (6, 2.0, 0.3)]:
        k = PolynomialKernel(degree=p, gamma=gamma, coef0=c)
        np.testing.assert_allclose(
            polynomial_scalar_curvature(X, degree=p, gamma=gamma, coef0=c),
            scalar_curvature(k, X),
            rtol=1e-12,
        )


def test_gaussian_surface_is_flat():
    X = _points(3, seed=9, scale=2.0)
    k = GaussianKernel(gamma=4.0)
    np.testing.assert_array_equal(scalar_curvature(k, X), 0.0)
    # the differences see a constant metric: zero to rounding
    np.testing.assert_allclose(scalar_curvature(k, X, method="finite_differences"), 0.0, atol=1e-6)


@pytest.mark.parametrize("p", [2, 3, 4, 5])
def test_paper_claims_on_polynomial_curvature_in_the_plane(p):
    # Sec. II-E: for d_L = 2 the homogeneous kernel's surface is flat for every
    # power, the inhomogeneous one (c > 0) curved for every p ≠ 1 — here
    # checked by the finite differences alone, independent of the closed form.
    X = _points(2, seed=10)
    homogeneous = PolynomialKernel(degree=p, coef0=0.0)
    flat = scalar_curvature(homogeneous, X, method="finite_differences")
    assert np.all(np.abs(flat) <= 3e-4 * _curvature_scale(homogeneous, X, flat))
    curved = scalar_curvature(
        PolynomialKernel(degree=p, coef0=1.0), X, method="finite_differences"
    )
    assert np.all(curved < -1e-3)


@pytest.mark.parametrize("d", [2, 3, 5])
def test_linear_kernel_surface_is_flat(d):
    # p = 1: both curvatures vanish, as expected (the map is affine)
    X = _points(d, seed=11)
    for c in (0.0, 1.0):
        R = scalar_curvature(PolynomialKernel(degree=1, coef0=c), X, method="finite_differences")
        np.testing.assert_allclose(R, 0.0, atol=1e-6)


@pytest.mark.parametrize("p", [2, 3])
def test_homogeneous_surface_is_singular_at_zero_inhomogeneous_is_not(p):
    # c = 0, d = 3: R = −(d − 1)(d − 2)(p − 1)/(p ‖x‖^{2p}) → −∞ as x → 0 (a cone
    # over a sphere of radius √p); c > 0: R(0) = −d(d − 1)(p − 1)/(p c^p), finite.
    u = np.array([[0.3, -0.5, 0.8]]) / np.linalg.norm([0.3, -0.5, 0.8])
    hom = PolynomialKernel(degree=p, coef0=0.0)
    for t in (1.0, 0.5, 0.25):
        R = scalar_curvature(hom, t * u, method="finite_differences")
        np.testing.assert_allclose(R, -2 * (p - 1) / (p * t ** (2 * p)), rtol=1e-4)
    c = 1.5
    inhom = PolynomialKernel(degree=p, coef0=c)
    R0 = scalar_curvature(inhom, np.zeros((1, 3)), method="finite_differences")
    np.testing.assert_allclose(R0, -6 * (p - 1) / (p * c**p), rtol=1e-5)
    with pytest.warns(NumericalWarning, match="singular at 1 of 1 points"):
        assert np.isnan(scalar_curvature(hom, np.zeros((1, 3))))[0]


# -- volume element -----------------------------------------------------------


def test_volume_element_closed_forms():
    X = _points(3, seed=12)
    np.testing.assert_allclose(volume_element(GaussianKernel(gamma=2.0), X), 8.0, rtol=1e-14)
    p, c = 3, 1.0
    s = (X**2).sum(1)
    d1, d2 = p * (s + c) ** (p - 1), p * (p - 1) * (s + c) ** (p - 2)
    expected = d1 ** ((3 - 1) / 2) * np.sqrt(d1 + s * d2)
    np.testing.assert_allclose(
        volume_element(PolynomialKernel(degree=p, coef0=c), X), expected, rtol=1e-12
    )
    np.testing.assert_allclose(
        volume_element(PolynomialKernel(degree=p, coef0=c), X, method="finite_differences"),
        expected,
        rtol=1e-8,
    )


def test_volume_element_of_an_indefinite_metric_is_nan_with_a_warning():
    # tanh(⟨x, x'⟩ − 2): K'' s + K' < 0 for large ‖x‖ — no positive-definite metric
    k = SigmoidKernel(gamma=1.0, coef0=-2.0)
    X = np.array([[0.1, 0.0], [3.0, 0.0]])
    assert np.linalg.eigvalsh(induced_metric(k, X))[1].min() < 0
    with pytest.warns(NumericalWarning, match="not positive definite at 1 of 2"):
        v = volume_element(k, X)
    assert np.isfinite(v[0]) and np.isnan(v[1])


# -- invalid input ----------------------------------------------------------------


@pytest.mark.parametrize(
    "call, error, match",
    [
        (
            lambda: induced_metric(LaplacianKernel(gamma=1.0), [[0.0, 1.0]]),
            ValueError,
            "'kernel' must be differentiable",
        ),
        (
            lambda: scalar_curvature(LaplacianKernel(norm="l2"), [[0.0, 1.0]]),
            ValueError,
            "'kernel'",
        ),
        (
            lambda: induced_metric("rbf", [[0.0, 1.0]]),
            TypeError,
            "'kernel' must be a preimage kernel",
        ),
        (
            lambda: induced_metric(PairwiseKernel(metric="cosine"), [[0.0, 1.0]]),
            ValueError,
            "'kernel' must have a gradient",
        ),
        (lambda: induced_metric(LinearKernel(), [[0.0, np.nan]]), ValueError, "'X'"),
        (lambda: induced_metric(LinearKernel(), [0.0, 1.0]), ValueError, "'X'"),
        (
            lambda: induced_metric(LinearKernel(), [[0.0]], method="exact"),
            ValueError,
            r"'method' must be one of \['auto'",
        ),
        (
            lambda: scalar_curvature(LinearKernel(), [[0.0]], metric="x"),
            ValueError,
            "'method' must be one of",
        ),
        (
            lambda: metric_by_finite_differences(LinearKernel(), [[0.0]], step=0.0),
            ValueError,
            "'step' must be positive",
        ),
        (
            lambda: metric_scalar_curvature(np.eye(2), [[0.0, 1.0]]),
            TypeError,
            "'metric' must be a callable",
        ),
        (
            lambda: metric_scalar_curvature(lambda Z: np.eye(2), [[0.0, 1.0]]),
            ValueError,
            r"'metric' must return an array of shape \(m, 2, 2\)",
        ),
        (lambda: polynomial_scalar_curvature([[0.0]], degree=0), ValueError, "'degree'"),
        (
            lambda: polynomial_scalar_curvature([[0.0]], degree=2, coef0=-1.0),
            ValueError,
            "'coef0'",
        ),
    ],
)
def test_invalid_input_names_the_argument(call, error, match):
    with pytest.raises(error, match=match):
        call()
