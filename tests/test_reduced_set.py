"""Reduced sets (Schölkopf et al. 1999, Sec. V): optimal coefficients against an
explicit feature map, exact removal of redundant vectors, construction error
along the run, the second phase's gradient, and bad input."""

import itertools

import numpy as np
import pytest
from scipy.optimize import approx_fprime
from sklearn.svm import SVC

from preimage import FeatureExpansion
from preimage.kernels import (
    CallableKernel,
    GaussianKernel,
    LaplacianKernel,
    LinearKernel,
    PolynomialKernel,
)
from preimage.reduced_set import (
    REDUCED_SET_METHODS,
    ReducedSetResult,
    approximation_error,
    construct,
    optimal_coefficients,
    reduce_expansion,
    select_kpca,
    select_l1,
)
from preimage.reduced_set._construction import _phase2_objective


def poly2_features(X):
    """The explicit feature map of (⟨x, y⟩ + 1)²: all monomials of degree ≤ 2
    with the weights that make ⟨φ(x), φ(y)⟩ equal the kernel."""
    X = np.asarray(X, dtype=float)
    d = X.shape[1]
    cols = [np.ones(len(X))]
    cols += [np.sqrt(2) * X[:, i] for i in range(d)]
    cols += [X[:, i] ** 2 for i in range(d)]
    cols += [np.sqrt(2) * X[:, i] * X[:, j] for i, j in itertools.combinations(range(d), 2)]
    return np.column_stack(cols)


@pytest.fixture
def svm_expansion():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(-1, 1, (60, 2)), rng.normal(1, 1, (60, 2))])
    y = np.r_[np.zeros(60), np.ones(60)]
    svc = SVC(gamma=0.5, C=1.0).fit(X, y)
    return FeatureExpansion(svc.dual_coef_, svc.support_vectors_, GaussianKernel(gamma=0.5))


def test_explicit_feature_map_matches_kernel():
    X = np.random.default_rng(1).normal(size=(7, 3))
    Phi = poly2_features(X)
    np.testing.assert_allclose(
        Phi @ Phi.T, PolynomialKernel(degree=2, gamma=1.0, coef0=1.0)(X), rtol=1e-12
    )


def test_optimal_coefficients_match_least_squares_in_feature_space():
    rng = np.random.default_rng(2)
    X, Z = rng.normal(size=(12, 3)), rng.normal(size=(4, 3))
    alpha = rng.normal(size=(3, 12))
    kernel = PolynomialKernel(degree=2, gamma=1.0, coef0=1.0)
    psi = FeatureExpansion(alpha, X, kernel)
    beta = optimal_coefficients(psi, Z)
    # independent: least squares Φ_zᵀ β ≈ Φ_xᵀ α in the explicit feature space
    Phi_x, Phi_z = poly2_features(X), poly2_features(Z)
    expected = np.linalg.lstsq(Phi_z.T, Phi_x.T @ alpha.T, rcond=None)[0].T
    np.testing.assert_allclose(beta, expected, rtol=1e-8, atol=1e-10)
    # and the error is the squared residual of that least-squares problem
    residual = Phi_x.T @ alpha.T - Phi_z.T @ expected.T
    np.testing.assert_allclose(
        approximation_error(psi, Z, beta), (residual**2).sum(axis=0), rtol=1e-8
    )


def test_optimal_coefficients_singular_gram_uses_pseudo_inverse():
    X = np.array([[0.0, 1.0], [1.0, 0.5], [2.0, -1.0]])
    psi = FeatureExpansion([0.5, -1.0, 2.0], X, GaussianKernel(gamma=0.7))
    Z = np.vstack([X[:2], X[:2]])  # every vector twice
    beta = optimal_coefficients(psi, Z)
    assert np.isfinite(beta).all()
    # the duplicated pair shares the coefficient of the single vector
    single = optimal_coefficients(psi, X[:2])
    np.testing.assert_allclose(beta[:, :2] + beta[:, 2:], single, rtol=1e-8)
    np.testing.assert_allclose(
        approximation_error(psi, Z, beta),
        approximation_error(psi, X[:2], single),
        rtol=1e-8,
        atol=1e-12,
    )
    ridged = optimal_coefficients(psi, Z, alpha=1e-3)
    assert np.isfinite(ridged).all()


def test_kpca_selection_removes_duplicates_with_zero_error():
    rng = np.random.default_rng(3)
    base = rng.normal(size=(8, 2))
    X = np.vstack([base, base[:5]])  # five points duplicated
    alpha = rng.normal(size=13)
    psi = FeatureExpansion(alpha, X, GaussianKernel(gamma=0.5))
    rs = select_kpca(psi, 8)
    assert rs.n_vectors == 8
    # one copy of each distinct point is kept
    kept = {tuple(x) for x in rs.vectors}
    assert kept == {tuple(x) for x in base}
    assert rs.error[0] <= 1e-10 * rs.norm2[0]
    # the reduced expansion equals the original everywhere
    grid = rng.normal(size=(50, 2))
    np.testing.assert_allclose(rs.evaluate(grid)[:, 0], psi.cross(grid)[0], atol=1e-8)


@pytest.mark.parametrize("select", [select_kpca, select_l1], ids=["kpca", "l1"])
def test_selection_on_rank_deficient_polynomial_gram_is_exact(select):
    rng = np.random.default_rng(4)
    X = rng.normal(size=(15, 2))  # feature space of dimension 6
    psi = FeatureExpansion(
        rng.normal(size=15), X, PolynomialKernel(degree=2, gamma=1.0, coef0=1.0)
    )
    assert np.linalg.matrix_rank(psi.kernel(X)) == 6
    rs = select(psi, 6)
    assert rs.n_vectors == 6
    assert rs.error[0] <= 1e-9 * rs.norm2[0]
    # Fewer than the rank: the error reported is the least-squares residual of
    # the five vectors kept, in the explicit feature space, and no five of the
    # fifteen points do better. (The best of the 3003 sets is exact to 1e-10
    # here, so which set a greedy selection reaches depends on rounding: NumPy,
    # SciPy and their LAPACK each lead it elsewhere.)
    target = poly2_features(X).T @ psi.coef.T  # Ψ in the explicit space

    def residual(Z):
        Phi_z = poly2_features(Z).T
        beta = np.linalg.lstsq(Phi_z, target, rcond=None)[0]
        return float(((target - Phi_z @ beta) ** 2).sum())

    five = select(psi, 5)
    assert five.n_vectors == 5
    np.testing.assert_allclose(
        five.error[0], residual(five.vectors), rtol=1e-8, atol=1e-12 * rs.norm2[0]
    )
    best = min(residual(X[list(s)]) for s in itertools.combinations(range(15), 5))
    assert five.error[0] >= best - 1e-12 * rs.norm2[0]


def test_kpca_selection_history_and_removal_order(svm_expansion):
    rs = select_kpca(svm_expansion, 10)
    counts, err = rs.history["n_vectors"], rs.history["error"][:, 0]
    assert counts[0] == 10 and counts[-1] == svm_expansion.n_support
    assert err[-1] <= 1e-10 * rs.norm2[0]  # nothing removed yet: exact
    order = rs.info["removal_order"][0]
    assert order.size == svm_expansion.n_support - 10
    # the kept points are the support minus everything removed
    assert set(rs.support_indices) == set(range(svm_expansion.n_support)) - set(order)
    # refitting any intermediate subset from the removal order reproduces the history
    size = 30
    keep = np.setdiff1d(
        np.arange(svm_expansion.n_support), order[: svm_expansion.n_support - size]
    )
    Z = svm_expansion.support[keep]
    e = approximation_error(svm_expansion, Z, optimal_coefficients(svm_expansion, Z))
    np.testing.assert_allclose(e[0], err[counts == size][0], rtol=1e-6, atol=1e-12)


def test_l1_selection_by_penalty_and_by_count(svm_expansion):
    by_count = select_l1(svm_expansion, 12)
    assert by_count.n_vectors == 12
    lam = by_count.info["penalty"][0]
    by_penalty = select_l1(svm_expansion, penalty=lam)
    assert 1 <= by_penalty.n_vectors <= svm_expansion.n_support
    # a larger penalty keeps fewer points
    assert select_l1(svm_expansion, penalty=10 * lam).n_vectors <= by_penalty.n_vectors
    inverse = select_l1(svm_expansion, 12, weights="inverse")
    assert inverse.n_vectors == 12


def test_construction_error_decreases_and_full_size_matches(svm_expansion):
    psi = svm_expansion
    rs = construct(psi, 8, random_state=0)
    err = rs.history["error"][:, 0]
    np.testing.assert_array_equal(rs.history["n_vectors"], np.arange(9))
    assert err[0] == pytest.approx(psi.norm2()[0])
    assert (np.diff(err) <= 1e-12 * err[0]).all()  # refitting on a superset never hurts
    np.testing.assert_allclose(err[-1], rs.error[0])
    # at high reduction, construction beats selection (the paper's claim)
    for p in (1, 2, 5):
        assert construct(psi, p, random_state=0).error[0] < select_kpca(psi, p).error[0]
    # with as many vectors as the original, the decision function is reproduced
    full = construct(psi, psi.n_support, phase2=True, phase2_max_iter=1000, random_state=0)
    grid = np.random.default_rng(5).uniform(-3, 3, (300, 2))
    f = psi.cross(grid)[0]
    assert np.abs(full.evaluate(grid)[:, 0] - f).max() <= 1e-3 * np.abs(f).max()


def test_construction_is_deterministic(svm_expansion):
    a = construct(svm_expansion, 5, random_state=3)
    b = construct(svm_expansion, 5, random_state=3)
    np.testing.assert_array_equal(a.vectors, b.vectors)
    np.testing.assert_array_equal(a.coef, b.coef)


def test_phase2_lowers_the_error(svm_expansion):
    one = construct(svm_expansion, 6, random_state=0)
    two = construct(svm_expansion, 6, random_state=0, phase2=True)
    assert two.error[0] <= one.error[0]
    assert two.info["phase2_iterations"] > 0


@pytest.mark.parametrize(
    "kernel",
    [GaussianKernel(gamma=0.8), PolynomialKernel(degree=3, gamma=0.5, coef0=1.0)],
    ids=["gaussian", "poly"],
)
@pytest.mark.parametrize("alpha", [0.0, 1e-2])
def test_phase2_gradient_matches_finite_differences(kernel, alpha):
    rng = np.random.default_rng(6)
    X, A = rng.normal(size=(10, 2)), rng.normal(size=(2, 10))
    Z = rng.normal(size=(3, 2))
    norm2 = FeatureExpansion(A, X, kernel).norm2()
    fun = _phase2_objective(kernel, X, A, norm2, Z.shape, alpha)
    numeric = approx_fprime(Z.ravel(), lambda z: fun(z)[0], 1e-7)
    np.testing.assert_allclose(fun(Z.ravel())[1], numeric, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("method", REDUCED_SET_METHODS)
def test_shared_and_separate_reduced_sets(method):
    rng = np.random.default_rng(7)
    X = rng.normal(size=(30, 2))
    psi = FeatureExpansion(rng.normal(size=(3, 30)), X, GaussianKernel(gamma=1.0))
    separate = (
        reduce_expansion(psi, 4, method=method, random_state=0)
        if method == "construction"
        else reduce_expansion(psi, 4, method=method)
    )
    assert isinstance(separate, ReducedSetResult)
    assert separate.coef.shape == (3, separate.n_vectors)
    assert ((separate.coef != 0).sum(axis=1) <= 4).all()
    assert separate.n_vectors <= 12
    options = {"random_state": 0} if method == "construction" else {}
    shared = reduce_expansion(psi, 4, method=method, shared=True, **options)
    assert shared.n_vectors <= 4
    assert shared.coef.shape == (3, shared.n_vectors)
    # the stored errors are the errors of the stored vectors and coefficients
    np.testing.assert_allclose(
        shared.error, approximation_error(psi, shared.vectors, shared.coef), rtol=1e-8, atol=1e-12
    )
    assert (shared.relative_error >= 0).all() and (shared.relative_error <= 1 + 1e-9).all()


def test_construction_with_gradient_for_non_radial_kernel():
    rng = np.random.default_rng(8)
    X = rng.normal(size=(20, 2))
    psi = FeatureExpansion(rng.normal(size=20), X, LaplacianKernel(gamma=0.5))
    rs = construct(psi, 3, random_state=0)
    assert rs.info["preimage_method"] == "gradient"
    assert rs.error[0] < rs.norm2[0]


def test_zero_expansion_needs_no_vectors():
    X = np.array([[0.0], [1.0]])
    psi = FeatureExpansion([0.0, 0.0], X, GaussianKernel())
    assert construct(psi, 3).n_vectors == 0
    assert select_kpca(psi, 1).n_vectors == 0


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda psi: reduce_expansion(psi, 2, method="magic"), "'method' must be one of"),
        (lambda psi: reduce_expansion(psi, 0), "'n_vectors'"),
        (lambda psi: construct(psi, 2.5), "'n_vectors'"),
        (lambda psi: select_kpca(psi, 2, shared="yes"), "'shared'"),
        (lambda psi: select_l1(psi), "exactly one of 'n_vectors' and 'penalty'"),
        (lambda psi: select_l1(psi, 2, penalty=1.0), "exactly one"),
        (lambda psi: select_l1(psi, penalty=-1.0), "'penalty'"),
        (lambda psi: select_l1(psi, 2, weights="odd"), "'weights'"),
        (lambda psi: select_l1(psi, 2, weights=np.ones(3)), "'weights'"),
        (lambda psi: construct(psi, 2, preimage_method="newton"), "'preimage_method'"),
        (lambda psi: construct(psi, 2, preimage_method="mds"), "'preimage_method'"),
        (lambda psi: construct(psi, 2, alpha=-1.0), "'alpha'"),
        (lambda psi: optimal_coefficients(psi, np.ones((2, 5))), "'vectors'"),
        (lambda psi: approximation_error(psi, psi.support[:2], np.ones(3)), "'coef'"),
        (lambda psi: optimal_coefficients(psi.coef, psi.support), "'expansion'"),
    ],
)
def test_bad_input_names_the_argument(call, match):
    X = np.random.default_rng(9).normal(size=(6, 2))
    psi = FeatureExpansion(np.ones(6), X, LinearKernel())
    with pytest.raises((ValueError, TypeError), match=match):
        call(psi)


def test_construction_refuses_kernel_without_gradient():
    X = np.random.default_rng(10).normal(size=(6, 2))
    kernel = CallableKernel(lambda x, y: float(np.exp(-np.sum((x - y) ** 2))))
    psi = FeatureExpansion(np.ones(6), X, kernel)
    with pytest.raises(ValueError, match="selection_kpca"):
        construct(psi, 2)
    assert select_kpca(psi, 2).n_vectors == 2  # selection needs no gradient
