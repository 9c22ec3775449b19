"""Tests for preimage.FeatureExpansion.

The feature-space quantities are checked against explicit feature maps: the
degree-2 polynomial kernel ``(γ⟨x, y⟩ + c)²`` has a finite map written out in
conftest.py, and the linear kernel's map is the identity. There Ψ = Γ Φ(X) is an
explicit matrix and every norm, inner product and distance is plain algebra.
"""

from hypothesis import given, settings, strategies as st
from hypothesis.extra.numpy import arrays
import numpy as np
import pytest
import sklearn

from preimage import FeatureExpansion
from preimage.kernels import (
    CallableKernel,
    GaussianKernel,
    LaplacianKernel,
    LinearKernel,
    PolynomialKernel,
    SineKernel,
)

FAST = settings(max_examples=30, deadline=None)


def data(n, d, seed=0):
    return np.random.default_rng(seed).normal(size=(n, d))


def explicit_cases(poly2_map):
    """(kernel, feature map) pairs with finite explicit maps."""
    return [
        (PolynomialKernel(degree=2, gamma=1.0, coef0=1.0), lambda A: poly2_map(A, 1.0, 1.0)),
        (PolynomialKernel(degree=2, gamma=0.5, coef0=2.0), lambda A: poly2_map(A, 0.5, 2.0)),
        (PolynomialKernel(degree=2, gamma=0.3, coef0=0.0), lambda A: poly2_map(A, 0.3, 0.0)),
        (LinearKernel(), lambda A: np.asarray(A, dtype=float)),
    ]


CASE_IDS = ["poly2", "poly2-g0.5-c2", "poly2-homogeneous", "linear"]


@pytest.fixture(params=range(4), ids=CASE_IDS)
def explicit(request, poly2_map):
    return explicit_cases(poly2_map)[request.param]


def test_feature_map_reproduces_kernel(explicit):
    # the reference itself: Φ(X) Φ(Y)ᵀ is the kernel (so the tests below mean something)
    kernel, phi = explicit
    X, Y = data(6, 3, seed=1), data(4, 3, seed=2)
    np.testing.assert_allclose(phi(X) @ phi(Y).T, kernel(X, Y), rtol=1e-12, atol=1e-12)


def test_quantities_match_explicit_feature_map(explicit):
    kernel, phi = explicit
    X, Z, W = data(9, 3, seed=3), data(4, 3, seed=4), data(5, 3, seed=5)
    G = np.random.default_rng(6).normal(size=(4, 9))
    psi = FeatureExpansion(G, X, kernel)
    Psi = G @ phi(X)
    np.testing.assert_allclose(psi.norm2(), (Psi**2).sum(axis=1), rtol=1e-11)
    np.testing.assert_allclose(psi.inner(Z), (Psi * phi(Z)).sum(axis=1), rtol=1e-11, atol=1e-11)
    np.testing.assert_allclose(psi.cross(W), Psi @ phi(W).T, rtol=1e-11, atol=1e-11)
    np.testing.assert_allclose(
        psi.distance2(Z), ((Psi - phi(Z)) ** 2).sum(axis=1), rtol=1e-10, atol=1e-10
    )
    assert psi.cross(W).shape == (4, 5)


def test_single_expansion_from_1d_coef(explicit):
    kernel, phi = explicit
    X, z = data(7, 3, seed=7), data(1, 3, seed=8)
    g = np.random.default_rng(9).normal(size=7)
    psi = FeatureExpansion(g, X, kernel)
    assert len(psi) == 1 and psi.coef.shape == (1, 7)
    Psi = g @ phi(X)
    assert psi.distance2(z)[0] == pytest.approx(((Psi - phi(z)[0]) ** 2).sum(), rel=1e-10)


@FAST
@given(
    X=arrays(np.float64, (5, 3), elements=st.floats(-2, 2)),
    Z=arrays(np.float64, (3, 3), elements=st.floats(-2, 2)),
    G=arrays(np.float64, (3, 5), elements=st.floats(-2, 2)),
)
def test_distance2_matches_explicit_map_property(poly2_map, X, Z, G):
    poly2_feature_map = poly2_map
    psi = FeatureExpansion(G, X, PolynomialKernel(degree=2, gamma=1.0, coef0=1.0))
    Psi = G @ poly2_feature_map(X)
    expected = ((Psi - poly2_feature_map(Z)) ** 2).sum(axis=1)
    scale = max(
        1.0,
        float((Psi**2).sum(axis=1).max()),
        float((poly2_feature_map(Z) ** 2).sum(axis=1).max()),
    )
    np.testing.assert_allclose(psi.distance2(Z), expected, rtol=1e-9, atol=1e-12 * scale)


def test_gaussian_distance2_closed_form():
    # Ψ = ½φ(0) + ½φ(1), z = ½: 0.25(2 + 2e^{−γ}) − 2e^{−γ/4} + 1 with γ = 1
    psi = FeatureExpansion([0.5, 0.5], np.array([[0.0], [1.0]]), GaussianKernel(gamma=1.0))
    expected = 0.25 * (2 + 2 * np.exp(-1)) - 2 * np.exp(-0.25) + 1
    assert psi.distance2(np.array([[0.5]]))[0] == pytest.approx(expected, rel=1e-14)


@pytest.mark.parametrize(
    "kernel",
    [
        GaussianKernel(gamma=0.4),
        PolynomialKernel(degree=2, gamma=0.5, coef0=1.0),
        PolynomialKernel(degree=3, gamma=0.5, coef0=1.0),
        LaplacianKernel(gamma=0.3, norm="l2"),
        SineKernel(order=3),
        LinearKernel(),
    ],
    ids=["gaussian", "poly2", "poly3", "laplacian-l2", "sine", "linear"],
)
def test_distance2_gradient_matches_finite_differences(kernel, fdiff):
    X, Z = data(8, 3, seed=10), data(5, 3, seed=11)
    G = np.random.default_rng(12).normal(size=(5, 8))
    psi = FeatureExpansion(G, X, kernel)
    # distance2 pairs row j of Z with expansion j, so one pass differentiates all rows
    expected = fdiff(psi.distance2, Z)
    np.testing.assert_allclose(
        psi.distance2_gradient(Z),
        expected,
        rtol=1e-6,
        atol=1e-7 * max(1.0, np.abs(expected).max()),
    )


def test_distance2_gradient_needs_a_differentiable_kernel():
    X = data(4, 2, seed=13)
    psi = FeatureExpansion(np.eye(4), X, CallableKernel(lambda x, y: float(x @ y)))
    with pytest.raises(NotImplementedError):
        psi.distance2_gradient(X)


@pytest.mark.parametrize(
    "kernel",
    [
        GaussianKernel(gamma=0.5),
        PolynomialKernel(degree=2),
        LaplacianKernel(gamma=0.5),
        SineKernel(order=2),
        LinearKernel(),
    ],
    ids=["gaussian", "poly2", "laplacian", "sine", "linear"],
)
def test_of_points_is_exact_at_the_points(kernel):
    Z = data(6, 2, seed=14)
    psi = FeatureExpansion.of_points(Z, kernel)
    np.testing.assert_array_equal(psi.coef, np.eye(6))
    scale = np.abs(kernel.diag(Z)).max()
    np.testing.assert_allclose(psi.distance2(Z), 0.0, atol=1e-10 * max(scale, 1.0))
    other = Z + 0.3
    assert (psi.distance2(other) > 1e-6).all()


def test_of_points_distance_is_feature_distance():
    # ‖φ(z) − φ(y)‖² = 2 − 2 exp(−γ‖z − y‖²) for the Gaussian
    Z, Y = data(5, 3, seed=15), data(5, 3, seed=16)
    psi = FeatureExpansion.of_points(Z, GaussianKernel(gamma=0.2))
    expected = 2 - 2 * np.exp(-0.2 * ((Z - Y) ** 2).sum(axis=1))
    np.testing.assert_allclose(psi.distance2(Y), expected, rtol=1e-12)


# ---------------------------------------------------------------------------
# norm2: given or streamed
# ---------------------------------------------------------------------------


def test_given_norm2_is_used():
    X, Z = data(5, 2, seed=17), data(2, 2, seed=18)
    kernel = GaussianKernel(gamma=0.5)
    G = np.random.default_rng(19).normal(size=(2, 5))
    psi = FeatureExpansion(G, X, kernel, norm2=[42.0, 7.0])
    np.testing.assert_array_equal(psi.norm2(), [42.0, 7.0])
    inner = np.einsum("ji,ji->j", G, np.exp(-0.5 * ((Z[:, None] - X[None]) ** 2).sum(-1)))
    np.testing.assert_allclose(
        psi.distance2(Z), np.array([42.0, 7.0]) - 2 * inner + 1.0, rtol=1e-13
    )


@pytest.mark.parametrize("norm2", [[1.0], [1.0, 2.0, 3.0], [[1.0, 2.0, 3.0]]])
def test_given_norm2_wrong_shape_names_norm2(norm2):
    with pytest.raises(ValueError, match="'norm2'"):
        FeatureExpansion(np.ones((2, 3)), data(3, 2), LinearKernel(), norm2=norm2)


@pytest.mark.parametrize("working_memory", [0.0005, 0.01, 1024])
@pytest.mark.parametrize(
    "kernel",
    [GaussianKernel(gamma=0.3), PolynomialKernel(degree=3), LaplacianKernel(gamma=0.3)],
    ids=["gaussian", "poly3", "laplacian"],
)
def test_streamed_norm2_equals_quadratic_form(kernel, working_memory):
    X = data(60, 4, seed=20)
    G = np.random.default_rng(21).normal(size=(3, 60))
    K = kernel(X)
    expected = np.diag(G @ K @ G.T)
    with sklearn.config_context(working_memory=working_memory):
        n_chunks = len(list(kernel.blocks(X)))
        got = FeatureExpansion(G, X, kernel).norm2()
    if working_memory == 0.0005:  # 524 bytes, 480 bytes a row: one row a chunk
        assert n_chunks == 60
    np.testing.assert_allclose(got, expected, rtol=1e-11)


# ---------------------------------------------------------------------------
# indexing
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("given_norm2", [False, True])
@pytest.mark.parametrize(
    "index",
    [slice(1, 4), 2, -1, [0, 3], slice(None, None, 2), np.array([True, False, True, False, True])],
    ids=["slice", "int", "negative", "list", "step", "mask"],
)
def test_getitem_keeps_coef_and_norm2_consistent(index, given_norm2, poly2_map):
    X, Z = data(7, 3, seed=22), data(5, 3, seed=23)
    G = np.random.default_rng(24).normal(size=(5, 7))
    kernel = PolynomialKernel(degree=2, gamma=1.0, coef0=1.0)
    Psi = G @ poly2_map(X)
    full_norm2 = (Psi**2).sum(axis=1)
    psi = FeatureExpansion(G, X, kernel, norm2=full_norm2 if given_norm2 else None)
    sub = psi[index]
    rows = np.atleast_1d(np.arange(5)[index])
    assert len(sub) == len(rows) == sub.n_expansions
    np.testing.assert_array_equal(sub.coef, G[rows])
    assert sub.support is psi.support and sub.kernel == kernel
    np.testing.assert_allclose(sub.norm2(), full_norm2[rows], rtol=1e-11)
    np.testing.assert_allclose(
        sub.distance2(Z[rows]),
        ((Psi[rows] - poly2_map(Z[rows])) ** 2).sum(axis=1),
        rtol=1e-10,
        atol=1e-10,
    )


def test_len_and_shape_properties():
    psi = FeatureExpansion(np.ones((3, 4)), data(4, 2), LinearKernel())
    assert len(psi) == 3 and psi.n_expansions == 3
    assert psi.n_support == 4 and psi.n_features == 2


# ---------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------


def test_coef_support_mismatch_names_both():
    with pytest.raises(ValueError, match="'coef'.*'support'"):
        FeatureExpansion(np.ones((2, 5)), data(4, 2), LinearKernel())


@pytest.mark.parametrize(
    "coef, match",
    [
        (np.array([[1.0, np.nan, 0.0]]), "'coef'"),
        (np.array([[1.0, np.inf, 0.0]]), "'coef'"),
        (np.ones((1, 1, 3)), "'coef'"),
    ],
)
def test_bad_coef_names_coef(coef, match):
    with pytest.raises(ValueError, match=match):
        FeatureExpansion(coef, data(3, 2), LinearKernel())


@pytest.mark.parametrize("support", [np.ones(3), np.array([[0.0, np.nan]] * 3)])
def test_bad_support_names_support(support):
    with pytest.raises(ValueError, match="'support'"):
        FeatureExpansion(np.ones((1, 3)), support, LinearKernel())


@pytest.mark.parametrize("kernel", ["rbf", None, lambda x, y: x @ y, 3.0])
def test_non_kernel_names_kernel(kernel):
    with pytest.raises(ValueError, match="'kernel'"):
        FeatureExpansion(np.ones((1, 3)), data(3, 2), kernel)


@pytest.mark.parametrize("method", ["distance2", "inner", "distance2_gradient"])
def test_wrong_number_of_points_names_z(method):
    psi = FeatureExpansion(np.ones((3, 4)), data(4, 2), GaussianKernel())
    with pytest.raises(ValueError, match="'Z'"):
        getattr(psi, method)(data(2, 2))


@pytest.mark.parametrize("method", ["distance2", "inner", "cross", "distance2_gradient"])
@pytest.mark.parametrize(
    "Z", [np.ones((3, 5)), np.ones(3), np.full((3, 2), np.nan)], ids=["wrong-width", "1d", "nan"]
)
def test_bad_z_names_z(method, Z):
    psi = FeatureExpansion(np.ones((3, 4)), data(4, 2), GaussianKernel())
    with pytest.raises(ValueError, match="'Z'"):
        getattr(psi, method)(Z)


def test_precomputed_expansion_without_support():
    psi = FeatureExpansion(np.ones((2, 4)), None, None, norm2=[3.0, 4.0])
    np.testing.assert_array_equal(psi.norm2(), [3.0, 4.0])
    assert psi.n_features is None and psi.n_support == 4
    for method in ("distance2", "inner", "cross", "distance2_gradient"):
        with pytest.raises(ValueError, match="precomputed"):
            getattr(psi, method)(np.ones((2, 3)))
    # without a given norm2 there is nothing to compute it from
    with pytest.raises(ValueError):
        FeatureExpansion(np.ones((2, 4)), None, None).norm2()
    np.testing.assert_array_equal(psi[1].norm2(), [4.0])
