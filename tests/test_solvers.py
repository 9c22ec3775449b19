"""Tests for the pre-image methods (preimage.solvers, find_preimage).

Every expected value comes from outside the solvers:

* the linear kernel, where every pre-image problem is linear algebra and
  scikit-learn's ``PCA`` gives the kernel PCA reconstruction;
* expansions with an exact pre-image (an image φ(x0) itself, or φ(x0) written
  over many support points through an explicit polynomial feature map);
* a brute-force grid search of the residual on 2-D toy problems, evaluated with
  scikit-learn's kernel functions and polished with scipy;
* scikit-learn's ``KernelPCA(kernel="rbf", gamma="total_variance", fit_inverse_transform=True)`` for the learned map;
* step-by-step reimplementations of the closed form (a least-squares solve of
  its defining system) and of Kwok & Tsang's MDS (REFERENCE.md, "Pre-image
  solvers");
* the fixed-point equations of REFERENCE.md, checked at the returned points.
"""

import itertools
import math
import re
import warnings

import numpy as np
import pytest
from scipy.optimize import minimize
from sklearn.decomposition import PCA, KernelPCA as SklearnKernelPCA
from sklearn.metrics.pairwise import (
    linear_kernel,
    polynomial_kernel,
    rbf_kernel,
    sigmoid_kernel,
)

from preimage import (
    PREIMAGE_METHODS,
    ConvergenceWarning,
    FeatureExpansion,
    KernelPCA,
    NumericalWarning,
    PreimageResult,
    find_preimage,
)
from preimage.datasets import make_half_circle, make_three_clusters
from preimage.kernels import (
    CallableKernel,
    GaussianKernel,
    LaplacianKernel,
    LinearKernel,
    PolynomialKernel,
    SigmoidKernel,
    SineKernel,
)
from preimage.solvers import ClosedFormPreimage, LearnedPreimage, MDSPreimage

pytestmark = pytest.mark.usefixtures("single_blas_thread")


def data(n, d, seed=0, scale=1.0):
    # anisotropic, so that principal directions are well separated
    return np.random.default_rng(seed).normal(size=(n, d)) * np.linspace(2.0, 0.5, d) * scale


# ---------------------------------------------------------------------------
# independent references
# ---------------------------------------------------------------------------


def sk_kernel(kernel):
    """The scikit-learn kernel function equal to a preimage kernel object."""
    if isinstance(kernel, GaussianKernel):
        return lambda A, B: rbf_kernel(A, B, gamma=kernel.gamma)
    if isinstance(kernel, PolynomialKernel):
        return lambda A, B: polynomial_kernel(
            A, B, degree=kernel.degree, gamma=kernel.gamma, coef0=kernel.coef0
        )
    if isinstance(kernel, SigmoidKernel):
        return lambda A, B: sigmoid_kernel(A, B, gamma=kernel.gamma, coef0=kernel.coef0)
    if isinstance(kernel, LinearKernel):
        return linear_kernel
    if isinstance(kernel, LaplacianKernel) and kernel.norm == "l2":
        return lambda A, B: np.exp(
            -kernel.gamma
            * np.sqrt(np.maximum(((A[:, None, :] - B[None, :, :]) ** 2).sum(-1), 0.0))
        )
    raise NotImplementedError(kernel)


def residual(coef, support, Z, kfun):
    """``‖Σ_i γ_ji φ(x_i) − φ(z_j)‖²`` for each row j, from Gram matrices alone."""
    coef, Z = np.atleast_2d(coef), np.atleast_2d(Z)
    K = kfun(support, support)
    norm2 = np.einsum("ji,ik,jk->j", coef, K, coef)
    cross = np.einsum("ji,ij->j", coef, kfun(support, Z))
    diag = np.array([kfun(z[None], z[None])[0, 0] for z in Z])
    return norm2 - 2 * cross + diag


def poly_feature_map(X, degree, gamma=1.0, coef0=1.0):
    """Explicit feature map of ``(γ⟨x, y⟩ + c)^p`` (c ≥ 0), by the multinomial
    theorem: one coordinate ``√(p!/(a_0! a_1! … a_d!) c^{a_0} γ^{|a|}) x^a`` per
    exponent vector a with |a| ≤ p and a_0 = p − |a|."""
    X = np.asarray(X, dtype=float)
    d = X.shape[1]
    cols = []
    for a in itertools.product(range(degree + 1), repeat=d):
        s = sum(a)
        if s > degree:
            continue
        a0 = degree - s
        multinom = math.factorial(degree) / math.prod(math.factorial(k) for k in (a0, *a))
        scale = math.sqrt(multinom * coef0**a0 * gamma**s)
        cols.append(scale * np.prod(X ** np.array(a), axis=1))
    return np.column_stack(cols)


def image_over_support(x0, support, degree, coef0=1.0):
    """Coefficients γ with ``Σ_i γ_i φ(x_i) = φ(x0)`` exactly (explicit feature
    map, minimum-norm least squares; exact when the φ(x_i) span the space)."""
    Phi = poly_feature_map(support, degree, 1.0, coef0)
    target = poly_feature_map(np.atleast_2d(x0), degree, 1.0, coef0)
    coef = np.linalg.lstsq(Phi.T, target.T, rcond=None)[0].T
    assert np.abs(coef @ Phi - target).max() < 1e-10  # the setup is exact
    return coef


def assert_same(a, b):
    """Equal up to the last bits that BLAS may change with memory alignment."""
    np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)


def assert_no_preimage_warnings(record):
    bad = [w for w in record if issubclass(w.category, RuntimeWarning)]
    assert not bad, [str(w.message) for w in bad]


def test_explicit_feature_map_reproduces_polynomial_kernel():
    # the reference used by several tests below is itself checked against sklearn
    X, Y = data(7, 2, seed=1), data(5, 2, seed=2)
    for degree, coef0 in [(2, 1.0), (3, 1.0), (3, 0.5)]:
        np.testing.assert_allclose(
            poly_feature_map(X, degree, 1.0, coef0) @ poly_feature_map(Y, degree, 1.0, coef0).T,
            polynomial_kernel(X, Y, degree=degree, gamma=1.0, coef0=coef0),
            rtol=1e-12,
            atol=1e-12,
        )


# ---------------------------------------------------------------------------
# 1. linear kernel: every method is linear PCA's reconstruction
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def linear_setup():
    X, T = data(40, 3, seed=3), data(7, 3, seed=4)
    q = 2
    pca = PCA(q).fit(X)
    expected = pca.inverse_transform(pca.transform(T))
    kpca = KernelPCA(q, kernel="linear").fit(X)
    psi = kpca.project(T, add_mean=True)
    return X, T, expected, kpca, psi


def test_linear_setup_expansion_vector_is_pca_reconstruction(linear_setup):
    X, _T, expected, _kpca, psi = linear_setup
    # with φ = identity the expansion is the explicit vector Γ X
    np.testing.assert_allclose(psi.coef @ X, expected, atol=1e-10)
    # and its closed-form squared norm is that vector's
    np.testing.assert_allclose(psi.norm2(), np.sum(expected**2, axis=1), rtol=1e-10)


@pytest.mark.parametrize(
    "method, options, atol",
    [
        ("fixed_point", {}, 1e-10),
        ("gradient", {}, 1e-5),
        ("mds", {"n_neighbors": 6}, 1e-8),
        ("mds", {"n_neighbors": 40}, 1e-8),
        ("closed_form", {"alpha": 0.0}, 1e-10),
        ("exact", {}, 1e-10),
    ],
)
def test_linear_kernel_every_method_gives_pca_reconstruction(linear_setup, method, options, atol):
    _X, T, expected, _kpca, psi = linear_setup
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        result = find_preimage(psi, method=method, x0=T, **options)
    assert_no_preimage_warnings(record)
    np.testing.assert_allclose(result.x, expected, atol=atol)
    # the residual is ‖Pφ(x) − z‖² in input space
    np.testing.assert_allclose(
        result.distance2, np.sum((result.x - expected) ** 2, axis=1), atol=1e-9
    )
    assert result.method == method


# ---------------------------------------------------------------------------
# 2. when an exact pre-image exists, every method finds it
# ---------------------------------------------------------------------------

X0 = np.array([[0.4, -0.3], [-0.2, 0.5]])
NEAR = X0 + np.array([[0.05, 0.04], [-0.03, 0.06]])


@pytest.mark.parametrize(
    "kernel",
    [
        GaussianKernel(gamma=0.7),
        PolynomialKernel(degree=3, gamma=1.0, coef0=1.0),
        PolynomialKernel(degree=2, gamma=1.0, coef0=1.0),
        PolynomialKernel(degree=4, gamma=0.5, coef0=1.0),
        LinearKernel(),
    ],
)
def test_fixed_point_recovers_image_of_a_point(kernel):
    psi = FeatureExpansion.of_points(X0, kernel)
    result = find_preimage(psi, "fixed_point", x0=NEAR, tol=1e-12)
    np.testing.assert_allclose(result.x, X0, atol=1e-8)
    assert result.converged.all()
    np.testing.assert_allclose(result.distance2, 0.0, atol=1e-12)


@pytest.mark.parametrize(
    "kernel",
    [
        GaussianKernel(gamma=0.7),
        PolynomialKernel(degree=3, gamma=1.0, coef0=1.0),
        PolynomialKernel(degree=2, gamma=1.0, coef0=1.0),
        SigmoidKernel(gamma=0.2, coef0=0.5),
        LaplacianKernel(gamma=0.8, norm="l2"),
    ],
)
def test_gradient_recovers_image_of_a_point(kernel):
    psi = FeatureExpansion.of_points(X0, kernel)
    # the sigmoid kernel is not positive definite: ρ is only locally minimal at
    # x0, where 2γ‖x0‖² tanh(γ‖x0‖² + c) < 1 holds for these points
    result = find_preimage(psi, "gradient", x0=NEAR)
    atol = 1e-3 if isinstance(kernel, LaplacianKernel) else 1e-4  # a cusp at x0
    np.testing.assert_allclose(result.x, X0, atol=atol)
    ref = residual(np.eye(2), X0, result.x, sk_kernel(kernel))
    np.testing.assert_allclose(result.distance2, np.maximum(ref, 0), atol=1e-12)
    assert np.all(ref < 1e-6)


@pytest.mark.parametrize(
    "kernel",
    [
        LinearKernel(),
        PolynomialKernel(degree=3, gamma=1.0, coef0=1.0),
        PolynomialKernel(degree=5, gamma=0.7, coef0=-0.4),
        SigmoidKernel(gamma=0.3, coef0=0.2),
    ],
)
def test_exact_recovers_image_of_a_point(kernel):
    psi = FeatureExpansion.of_points(X0, kernel)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        result = find_preimage(psi, "exact")
    assert_no_preimage_warnings(record)
    np.testing.assert_allclose(result.x, X0, atol=1e-10)
    assert result.converged.all()


@pytest.mark.parametrize("degree", [2, 3])
def test_iterative_methods_recover_a_point_written_over_many_support_points(degree):
    # φ(x0) as a genuine combination of 25 images: Σ_i γ_i φ(x_i) = φ(x0) with
    # dense γ, built through the explicit feature map (dimension 10 here)
    support = data(25, 2, seed=5, scale=0.6)
    x0 = np.array([[0.3, -0.45]])
    kernel = PolynomialKernel(degree=degree, gamma=1.0, coef0=1.0)
    coef = image_over_support(x0, support, degree)
    assert np.count_nonzero(np.abs(coef) > 1e-6) > 10
    psi = FeatureExpansion(coef, support, kernel)
    start = x0 + np.array([[0.06, -0.05]])
    fp = find_preimage(psi, "fixed_point", x0=start, tol=1e-12)
    np.testing.assert_allclose(fp.x, x0, atol=1e-6)
    gd = find_preimage(psi, "gradient", x0=start)
    np.testing.assert_allclose(gd.x, x0, atol=1e-4)
    if degree % 2:
        ex = find_preimage(psi, "exact")
        np.testing.assert_allclose(ex.x, x0, atol=1e-8)
        assert ex.converged.all()


@pytest.mark.parametrize(
    "kernel",
    [GaussianKernel(gamma=0.5), PolynomialKernel(degree=3, gamma=1.0, coef0=1.0), LinearKernel()],
)
def test_mds_and_closed_form_recover_a_training_point(kernel):
    # Ψ = φ(x_k) over the whole support (γ = e_k): its feature distances to the
    # support are exact, so MDS gives x_k; the closed form with λ = 0 is Σ γ_i x_i
    X = data(30, 2, seed=6)
    ks = [0, 7, 19]
    coef = np.eye(len(X))[ks]
    psi = FeatureExpansion(coef, X, kernel)
    mds = find_preimage(psi, "mds", n_neighbors=6)
    np.testing.assert_allclose(mds.x, X[ks], atol=1e-6)
    cf = find_preimage(psi, "closed_form", alpha=0.0)
    np.testing.assert_allclose(cf.x, X[ks], atol=1e-12)
    np.testing.assert_allclose(cf.distance2, 0.0, atol=1e-10)


@pytest.mark.parametrize(
    "kernel", [GaussianKernel(gamma=0.5), PolynomialKernel(degree=2, gamma=1.0, coef0=1.0)]
)
def test_iterative_methods_recover_a_training_point_image(kernel):
    X = data(30, 2, seed=7)
    ks = [3, 11]
    psi = FeatureExpansion(np.eye(len(X))[ks], X, kernel)
    start = X[ks] + 0.05
    fp = find_preimage(psi, "fixed_point", x0=start, tol=1e-12)
    np.testing.assert_allclose(fp.x, X[ks], atol=1e-8)
    gd = find_preimage(psi, "gradient", x0=start)
    np.testing.assert_allclose(gd.x, X[ks], atol=1e-4)
    # without x0 both start from the nearest support point, which is the answer
    np.testing.assert_allclose(find_preimage(psi, "fixed_point").x, X[ks], atol=1e-12)
    np.testing.assert_allclose(find_preimage(psi, "gradient").x, X[ks], atol=1e-8)


# ---------------------------------------------------------------------------
# 3. on 2-D problems the iterative methods reach the brute-force minimum
# ---------------------------------------------------------------------------


def grid_minimum(coef, support, kfun, diag_fun, lo, hi, n=400):
    """Minimum of the residual over an n × n grid, then polished by Nelder–Mead
    from the best grid point (objective from Gram matrices alone)."""
    gx, gy = np.linspace(lo[0], hi[0], n), np.linspace(lo[1], hi[1], n)
    P = np.column_stack([a.ravel() for a in np.meshgrid(gx, gy)])
    K = kfun(support, support)
    norm2 = np.einsum("ji,ik,jk->j", coef, K, coef)
    rho = norm2[:, None] - 2 * coef @ kfun(support, P) + diag_fun(P)[None, :]
    best = rho.argmin(axis=1)
    grid_min = rho[np.arange(len(coef)), best]

    polished = []
    for j, i in enumerate(best):

        def f(z, j=j):
            return norm2[j] - 2 * coef[j] @ kfun(support, z[None])[:, 0] + diag_fun(z[None])[0]

        res = minimize(
            f,
            P[i],
            method="Nelder-Mead",
            options={"xatol": 1e-10, "fatol": 1e-14, "maxiter": 4000},
        )
        polished.append(min(res.fun, grid_min[j]))
    return grid_min, np.array(polished), P[best]


TOY_KERNELS = [
    ("rbf", {"gamma": 2.0}, lambda P: np.ones(len(P))),
    (
        "poly",
        {"gamma": 1.0, "degree": 2, "coef0": 1.0},
        lambda P: (np.sum(P**2, axis=1) + 1.0) ** 2,
    ),
]


@pytest.fixture(scope="module", params=TOY_KERNELS, ids=["rbf", "poly2"])
def toy_problem(request):
    name, params, diag_fun = request.param
    X, clean = make_half_circle(60, noise=0.05, random_state=0)
    T = clean[:6] + 0.2 * np.random.default_rng(1).normal(size=(6, 2))
    kpca = KernelPCA(4, kernel=name, **params).fit(X)
    psi = kpca.project(T)
    kfun = sk_kernel(kpca.kernel_)
    lo, hi = X.min(axis=0) - 0.5, X.max(axis=0) + 0.5
    grid_min, polished, argmin = grid_minimum(psi.coef, X, kfun, diag_fun, lo, hi)
    return X, T, psi, kfun, grid_min, polished, argmin


@pytest.mark.parametrize(
    "method, options",
    [
        ("fixed_point", {}),
        ("gradient", {}),
        ("gradient", {"n_starts": 4, "random_state": 0}),
    ],
)
def test_iterative_methods_reach_brute_force_minimum(toy_problem, method, options):
    X, T, psi, kfun, grid_min, polished, argmin = toy_problem
    result = find_preimage(psi, method, x0=T, **options)
    ours = residual(psi.coef, X, result.x, kfun)
    # the grid minimum is an upper bound of the true minimum
    assert np.all(ours <= grid_min + 1e-9)
    # and the polished grid minimum is the true one to optimisation accuracy
    np.testing.assert_allclose(ours, polished, atol=1e-7)
    np.testing.assert_allclose(result.x, argmin, atol=0.02)  # grid spacing ≈ 0.008
    # the reported residual is the independently recomputed one
    np.testing.assert_allclose(result.distance2, ours, atol=1e-10)
    np.testing.assert_allclose(result.distance2, psi.distance2(result.x), atol=1e-12)
    # never worse than the start
    assert np.all(result.distance2 <= residual(psi.coef, X, T, kfun) + 1e-12)


@pytest.mark.parametrize("method", ["fixed_point", "gradient"])
@pytest.mark.parametrize(
    "kernel",
    [
        GaussianKernel(gamma=3.0),
        PolynomialKernel(degree=2, gamma=1.0, coef0=1.0),
        PolynomialKernel(degree=3, gamma=1.0, coef0=1.0),
    ],
)
def test_iterative_methods_never_worse_than_start(kernel, method):
    # many starts all over the plane, some far from the data
    X, _ = make_three_clusters(20, random_state=2)
    kpca = KernelPCA(3, kernel=kernel).fit(X)
    starts = np.random.default_rng(3).uniform(-1.5, 1.5, size=(25, 2))
    psi = kpca.project(starts)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # not the point here
        result = find_preimage(psi, method, x0=starts, max_iter=50)
    kfun = sk_kernel(kernel)
    start_rho = residual(psi.coef, X, starts, kfun)
    end_rho = residual(psi.coef, X, result.x, kfun)
    assert np.all(np.isfinite(result.x))
    assert np.all(end_rho <= start_rho + 1e-10 * np.maximum(1, np.abs(start_rho)))
    np.testing.assert_allclose(
        result.distance2, np.maximum(end_rho, 0), atol=1e-9 * max(1.0, np.abs(end_rho).max())
    )


def test_gradient_starts_are_x0_then_nearest_support_points():
    # n_starts = k without x0: the k support points nearest in feature space
    # (found here from sklearn's Gram), keeping the best end point
    X, _ = make_three_clusters(8, random_state=12)
    kernel = GaussianKernel(gamma=4.0)
    coef = np.random.default_rng(13).normal(size=(4, len(X)))
    psi = FeatureExpansion(coef, X, kernel)
    K = rbf_kernel(X, X, gamma=4.0)
    feature_d2 = np.einsum("ji,ik,jk->j", coef, K, coef)[:, None] + 1 - 2 * coef @ K
    k = 3
    result = find_preimage(psi, "gradient", n_starts=k)
    for j in range(len(coef)):
        singles = [
            find_preimage(psi[j], "gradient", x0=X[i][None]).distance2[0]
            for i in np.argsort(feature_d2[j])[:k]
        ]
        np.testing.assert_allclose(result.distance2[j], min(singles), rtol=1e-12, atol=1e-14)
    # with x0, x0 is the first start and the k − 1 nearest follow
    x0 = np.zeros((4, 2))
    result = find_preimage(psi, "gradient", x0=x0, n_starts=k)
    for j in range(len(coef)):
        starts = [x0[j]] + [X[i] for i in np.argsort(feature_d2[j])[: k - 1]]
        singles = [find_preimage(psi[j], "gradient", x0=s[None]).distance2[0] for s in starts]
        np.testing.assert_allclose(result.distance2[j], min(singles), rtol=1e-12, atol=1e-14)


def test_gradient_more_starts_find_the_deeper_well():
    # ⟨Ψ, φ(z)⟩ for Ψ = 1.4 φ(p) + φ(q1) + φ(q2) (γ = 1, ‖q1 − q2‖ = 1, p far
    # away): 1.4 at p, 1 + e⁻¹ ≈ 1.37 at q1 and q2, 2e^(−1/4) ≈ 1.56 at their
    # midpoint, which is the global minimum of ρ. The nearest support point in
    # feature space is p, a local minimum; the second nearest leads to the
    # midpoint. Far decoys with tiny coefficients make random starts useless.
    p, q1, q2 = [-4.0, 0.0], [4.0, -0.5], [4.0, 0.5]
    decoys = 10 * np.column_stack([np.cos(np.arange(6)), np.sin(np.arange(6))])
    support = np.vstack([p, q1, q2, decoys])
    coef = np.tile(np.r_[1.4, 1.0, 1.0, np.full(6, 0.05)], (4, 1))
    psi = FeatureExpansion(coef, support, GaussianKernel(gamma=1.0))
    one = find_preimage(psi, "gradient", n_starts=1)
    np.testing.assert_allclose(one.x, np.tile(p, (4, 1)), atol=1e-4)
    two = find_preimage(psi, "gradient", n_starts=2)
    np.testing.assert_allclose(two.x, np.tile([4.0, 0.0], (4, 1)), atol=1e-4)
    np.testing.assert_allclose(
        two.distance2, one.distance2 - 2 * (2 * np.exp(-0.25) - 1.4), atol=1e-8
    )


# ---------------------------------------------------------------------------
# 4. learned = scikit-learn's KernelPCA(kernel="rbf", gamma="total_variance", fit_inverse_transform=True)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kernel, params, alpha",
    [
        ("rbf", {"gamma": 0.1}, 1.0),
        ("rbf", {"gamma": 0.5}, 0.1),
        ("poly", {"gamma": 0.2, "degree": 3, "coef0": 1.0}, 1.0),
        ("poly", {"gamma": 0.3, "degree": 2, "coef0": 1.0}, 0.1),
    ],
)
def test_learned_reproduces_sklearn_inverse_transform(kernel, params, alpha, match_signs):
    X, T = data(60, 4, seed=8), data(9, 4, seed=9)
    q = 3
    ours = KernelPCA(q, kernel=kernel, **params).fit(X)
    sk = SklearnKernelPCA(q, kernel=kernel, alpha=alpha, fit_inverse_transform=True, **params).fit(
        X
    )
    Y, Y_sk = ours.transform(T), sk.transform(T)
    # same coordinates up to a sign per column (the setup)
    np.testing.assert_allclose(match_signs(Y, Y_sk), Y_sk, rtol=1e-8, atol=1e-10)
    expected = sk.inverse_transform(Y_sk)
    got = ours.inverse_transform(Y, method="learned", alpha=alpha)
    np.testing.assert_allclose(got, expected, rtol=1e-8, atol=1e-10)


def test_learned_with_default_alpha_is_sklearn_default():
    X, T = data(50, 3, seed=10), data(5, 3, seed=11)
    ours = KernelPCA(2, kernel="rbf", gamma=0.3).fit(X)
    sk = SklearnKernelPCA(2, kernel="rbf", gamma=0.3, fit_inverse_transform=True).fit(X)
    np.testing.assert_allclose(
        ours.inverse_transform(ours.transform(T), method="learned"),
        sk.inverse_transform(sk.transform(T)),
        rtol=1e-8,
        atol=1e-10,
    )


def test_learned_one_call_path_is_kernel_ridge_on_support_coordinates():
    # find_preimage(psi, "learned") fits on the support's own kernel PCA
    # coordinates; for a kernel PCA expansion over the same support with all
    # components, sklearn's KernelPCA(kernel="rbf", gamma="total_variance", fit_inverse_transform=True) is the reference
    X, T = data(40, 3, seed=12), data(6, 3, seed=13)
    kpca = KernelPCA(None, kernel="rbf", gamma=0.4).fit(X)
    psi = kpca.project(T, add_mean=True)
    q = kpca.eigenvalues_.shape[0]
    sk = SklearnKernelPCA(q, kernel="rbf", gamma=0.4, fit_inverse_transform=True, alpha=0.5).fit(X)
    got = find_preimage(psi, "learned", alpha=0.5)
    np.testing.assert_allclose(got.x, sk.inverse_transform(sk.transform(T)), rtol=1e-6, atol=1e-8)


# ---------------------------------------------------------------------------
# 5. closed form = least squares of X x = (P − λK⁺) γ
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("lam", [0.0, 1e-9, 1e-3, 0.5])
@pytest.mark.parametrize(
    "kernel", [GaussianKernel(gamma=0.4), PolynomialKernel(degree=2, gamma=1.0, coef0=1.0)]
)
def test_closed_form_is_least_squares_solution_of_its_system(kernel, lam):
    X = data(25, 3, seed=14)
    Gamma = np.random.default_rng(15).normal(size=(6, 25)) / 5
    K = sk_kernel(kernel)(X, X)
    P = X @ X.T
    rhs = (P - lam * np.linalg.pinv(K, hermitian=True)) @ Gamma.T
    expected = np.linalg.lstsq(X, rhs, rcond=None)[0].T
    psi = FeatureExpansion(Gamma, X, kernel)
    one_call = find_preimage(psi, "closed_form", alpha=lam)
    fitted = ClosedFormPreimage(lam).fit(X, kernel).solve(psi)
    scale = np.abs(expected).max()
    np.testing.assert_allclose(one_call.x, expected, atol=1e-9 * scale)
    assert_same(fitted.x, one_call.x)
    np.testing.assert_allclose(
        one_call.distance2, residual(Gamma, X, one_call.x, sk_kernel(kernel)), atol=1e-10
    )


def test_closed_form_default_regularization_is_tiny():
    # default λ = 1e-9 (the paper's MNIST value): x* ≈ Σ γ_i x_i
    X = data(20, 2, seed=16)
    Gamma = np.random.default_rng(17).dirichlet(np.ones(20), size=4)
    result = find_preimage(FeatureExpansion(Gamma, X, GaussianKernel(0.5)), "closed_form")
    np.testing.assert_allclose(result.x, Gamma @ X, atol=1e-6)


def test_closed_form_on_one_support_point_solves_its_system():
    # K is 1 x 1, which SciPy before 1.14 refuses to its divide-and-conquer
    # eigensolver; the system is the same as for many points
    X = data(1, 3, seed=18)
    Gamma = np.array([[1.0], [-0.5]])
    kernel = GaussianKernel(gamma=0.4)
    K = sk_kernel(kernel)(X, X)
    rhs = (X @ X.T - 0.5 * np.linalg.pinv(K, hermitian=True)) @ Gamma.T
    expected = np.linalg.lstsq(X, rhs, rcond=None)[0].T
    result = find_preimage(FeatureExpansion(Gamma, X, kernel), "closed_form", alpha=0.5)
    np.testing.assert_allclose(result.x, expected, rtol=1e-10)


# ---------------------------------------------------------------------------
# 6. MDS = Kwok & Tsang step by step
# ---------------------------------------------------------------------------


def mds_reference(coef, X, kfun, to_input_d2, n):
    """REFERENCE.md, "Pre-image solvers" 3, for one expansion (coef of shape (N,))."""
    N = len(X)
    K = kfun(X, X)
    norm2 = sum(coef[i] * coef[j] * K[i, j] for i in range(N) for j in range(N))
    inner = np.array([sum(coef[j] * K[j, i] for j in range(N)) for i in range(N)])
    feature_d2 = norm2 + np.diag(K) - 2 * inner
    idx = np.argsort(feature_d2)[:n]  # nearest in feature space
    d2 = np.full(N, np.nan)  # only the neighbours' are needed
    d2[idx] = to_input_d2(feature_d2[idx], norm2, np.diag(K)[idx], inner[idx])
    assert np.all(np.isfinite(d2[idx]))  # no clipping among the neighbours
    Xn = X[idx]
    mean = Xn.mean(axis=0)
    U, s, Vt = np.linalg.svd((Xn - mean).T, full_matrices=False)
    keep = s > 1e-10 * s[0]
    U, s, Vt = U[:, keep], s[keep], Vt[keep]
    Z = np.diag(s) @ Vt
    d0 = np.sum(Z**2, axis=0)
    z = -0.5 * np.diag(1 / s) @ Vt @ (d2[idx] - d0)
    x = U @ z + mean
    # the same point as the least-squares solution of the linearised distance
    # equations 2(x_i − x̄)ᵀ(x − x̄) = ‖x_i − x̄‖² − d_i² (the centred rows sum to 0)
    w = np.linalg.lstsq(2 * (Xn - mean), np.sum((Xn - mean) ** 2, axis=1) - d2[idx], rcond=None)[0]
    np.testing.assert_allclose(x, w + mean, atol=1e-10)
    return x


def gaussian_to_input(gamma):
    return lambda fd2, norm2, diag, inner: -np.log(1 - fd2 / 2) / gamma


def homogeneous_poly_to_input(p):
    root = np.cbrt if p == 3 else (lambda v: v ** (1.0 / p))
    return lambda fd2, norm2, diag, inner: root(norm2) + root(diag) - 2 * root(inner)


@pytest.mark.parametrize("n_neighbors", [3, 5, 10])
def test_mds_gaussian_matches_step_by_step_reference(n_neighbors):
    X, _ = make_three_clusters(10, random_state=4)
    kernel = GaussianKernel(gamma=1.5)
    kpca = KernelPCA(3, kernel=kernel).fit(X)
    T = X[[0, 12, 25]] + np.random.default_rng(5).normal(scale=0.1, size=(3, 2))
    for add_mean in (False, True):
        psi = kpca.project(T, add_mean=add_mean)
        with warnings.catch_warnings():
            # far points of other clusters have d̃² ≥ 2 and are clipped (with a
            # warning, tested below); they are not among the neighbours
            warnings.simplefilter("ignore", NumericalWarning)
            result = find_preimage(psi, "mds", n_neighbors=n_neighbors)
        expected = np.array(
            [
                mds_reference(c, X, sk_kernel(kernel), gaussian_to_input(1.5), n_neighbors)
                for c in psi.coef
            ]
        )
        np.testing.assert_allclose(result.x, expected, atol=1e-8)
        np.testing.assert_allclose(
            result.distance2, residual(psi.coef, X, result.x, sk_kernel(kernel)), atol=1e-10
        )
        # the neighbours used are the nearest in feature space (= in input space here)
        assert result.info["neighbors"].shape == (3, n_neighbors)


@pytest.mark.parametrize("n_neighbors", [6, 20], ids=["local", "global"])
@pytest.mark.parametrize("degree", [3, 2])
def test_mds_homogeneous_polynomial_matches_step_by_step_reference(degree, n_neighbors):
    # non-negative data, so that every inner product is positive and even
    # degrees can be inverted on their non-negative branch; n_neighbors = 20 is
    # every training point (the "global" MDS, solved with one shared SVD)
    rng = np.random.default_rng(6)
    X = rng.uniform(0.2, 1.5, size=(20, 3))
    kernel = PolynomialKernel(degree=degree, gamma=1.0, coef0=0.0)
    coef = rng.dirichlet(np.ones(20), size=3)
    psi = FeatureExpansion(coef, X, kernel)
    if degree % 2:
        solver = MDSPreimage(n_neighbors=n_neighbors).fit(X, kernel)
    else:
        with pytest.warns(NumericalWarning, match="not invertible"):
            solver = MDSPreimage(n_neighbors=n_neighbors).fit(X, kernel)
    result = find_preimage(psi, solver)
    expected = np.array(
        [
            mds_reference(c, X, sk_kernel(kernel), homogeneous_poly_to_input(degree), n_neighbors)
            for c in coef
        ]
    )
    np.testing.assert_allclose(result.x, expected, atol=1e-8)


def test_mds_with_every_feature_distance_beyond_two_gives_the_nearest_point():
    X = data(12, 2, seed=18)
    # Ψ = −φ(x_1): every feature distance is 2 + 2k(x_1, x_i) ≥ 2, so no
    # neighbour has an input distance; the nearest point in feature space (the
    # one farthest from x_1) is the answer.
    psi = FeatureExpansion(-np.eye(12)[:1], X, GaussianKernel(gamma=0.5))
    with pytest.warns(NumericalWarning, match="had none left and were given their nearest"):
        result = find_preimage(psi, "mds", n_neighbors=5)
    farthest = np.argmax(np.sum((X - X[0]) ** 2, axis=1))
    np.testing.assert_array_equal(result.x, X[[farthest]])
    np.testing.assert_allclose(
        result.distance2, residual(psi.coef, X, result.x, sk_kernel(psi.kernel)), atol=1e-10
    )


# Non-regression: MDSPreimage.input_distance2 warns about every support point with d̃² ≥
# 2,  also those that are not among the n neighbours and do not affect the  answer; with
# principal-part projections on clustered data every call warns
def test_mds_does_not_warn_when_no_neighbour_is_clipped():
    X, _ = make_three_clusters(15, random_state=4)
    kpca = KernelPCA(3, kernel="rbf", gamma=1.5).fit(X)
    psi = kpca.project(X[::5] + 0.05)
    K = rbf_kernel(X, X, gamma=1.5)
    norm2 = np.einsum("ji,ik,jk->j", psi.coef, K, psi.coef)
    feature_d2 = norm2[:, None] + 1 - 2 * psi.coef @ K
    nearest = np.sort(feature_d2, axis=1)[:, :5]
    assert np.all(nearest < 1.9)  # the neighbours need no clipping
    assert np.any(feature_d2 >= 2)  # far points would
    with warnings.catch_warnings():
        warnings.simplefilter("error", NumericalWarning)
        find_preimage(psi, "mds", n_neighbors=5)


# ---------------------------------------------------------------------------
# 7. the vanishing denominator of the fixed point
# ---------------------------------------------------------------------------

A, B = np.array([-1.0, 0.0]), np.array([1.0, 0.0])


def dipole(gamma=0.5):
    """Ψ = φ(a) − φ(b): the coefficients sum to 0 and Σγ_i k(z, x_i) = 0 exactly
    on the bisector of a and b, e.g. at their midpoint."""
    return FeatureExpansion(
        [[1.0, -1.0], [1.0, 0.5]], np.array([A, B]), GaussianKernel(gamma=gamma)
    )


def dipole_minimum(gamma=0.5):
    # ρ(z) = ‖Ψ‖² + 1 − 2(k(z, a) − k(z, b)) is smallest on the line through a and b
    t = np.linspace(-4, 4, 800001)
    gain = np.exp(-gamma * (t + 1) ** 2) - np.exp(-gamma * (t - 1) ** 2)
    return np.array([t[np.argmax(gain)], 0.0])


def test_fixed_point_restarts_when_the_denominator_vanishes():
    psi = dipole()
    starts = np.array([[0.0, 0.0], [0.1, 0.2]])  # the first on the bisector
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        result = find_preimage(psi, "fixed_point", x0=starts)
    # either restarted silently or warned, and in any case finite
    assert result.info["restarts"][0] > 0
    assert result.info["restarts"][1] == 0
    assert np.all(np.isfinite(result.x))
    assert all(
        issubclass(w.category, NumericalWarning)
        for w in record
        if issubclass(w.category, RuntimeWarning)
    )
    # the restart reaches the true minimum of row 0 (brute force along the line)
    np.testing.assert_allclose(result.x[0], dipole_minimum(), atol=1e-4)
    # whatever the seed: the first restart is documented to be the support point
    # nearest in feature space (a), not a random one (b would lead to the
    # stationary point near b, a maximum of ρ)
    for seed in range(5):
        again = find_preimage(psi, "fixed_point", x0=starts, random_state=seed)
        np.testing.assert_allclose(again.x, result.x, atol=1e-12)


def test_fixed_point_without_restarts_warns_and_stays_finite():
    psi = dipole()[:1]
    with pytest.warns(NumericalWarning, match="denominator vanished"):
        result = find_preimage(psi, "fixed_point", x0=[[0.0, 0.0]], max_restarts=0)
    assert np.all(np.isfinite(result.x)) and np.all(np.isfinite(result.distance2))
    assert not result.converged[0]
    assert result.info["restarts"][0] == 0
    np.testing.assert_allclose(
        result.distance2,
        residual(psi.coef, psi.support, result.x, sk_kernel(psi.kernel)),
        atol=1e-12,
    )


# Non-regression: fixed_point with max_restarts=0 returns the start (best seen, here the
# midpoint, residual ≈ 2.73) although its docstring promises 'at worst the  support
# point nearest in feature space' (a, residual 1.0) and its message  says the row 'fell
# back to the nearest support point'
def test_fixed_point_fallback_is_no_worse_than_nearest_support_point():
    psi = dipole()[:1]
    with pytest.warns(NumericalWarning, match="denominator vanished"):
        result = find_preimage(psi, "fixed_point", x0=[[0.0, 0.0]], max_restarts=0)
    nearest = residual(psi.coef, psi.support, A[None], sk_kernel(psi.kernel))
    assert result.distance2[0] <= nearest[0] + 1e-12


# ---------------------------------------------------------------------------
# 8. the fixed-point equations hold at the returned points
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def half_circle():
    X, clean = make_half_circle(50, noise=0.05, random_state=7)
    T = clean[:5] + 0.15 * np.random.default_rng(8).normal(size=(5, 2))
    return X, T


def test_regularized_fixed_point_equation_gaussian(half_circle):
    X, T = half_circle
    gamma, lam = 2.0, 0.3
    kpca = KernelPCA(3, kernel="rbf", gamma=gamma).fit(X)
    psi = kpca.project(T)
    anchor = T + 0.1
    result = find_preimage(psi, "fixed_point", x0=T, anchor=anchor, alpha=lam, tol=1e-12)
    assert result.converged.all()
    z = result.x
    k = rbf_kernel(z, X, gamma=gamma)  # k_i = exp(−‖z − x_i‖²/c)
    w = (2 * gamma) * psi.coef * k  # (2/c) γ̃_i k_i
    rhs = (w @ X + lam * anchor) / (w.sum(axis=1) + lam)[:, None]
    np.testing.assert_allclose(z, rhs, atol=1e-9)
    # and it is not the unregularised answer: the anchor pulls it
    plain = find_preimage(psi, "fixed_point", x0=T, tol=1e-12).x
    assert np.all(np.linalg.norm(z - anchor, axis=1) < np.linalg.norm(plain - anchor, axis=1))


def test_regularized_fixed_point_with_huge_regularization_returns_the_anchor(half_circle):
    X, T = half_circle
    psi = KernelPCA(3, kernel="rbf", gamma=2.0).fit(X).project(T)
    result = find_preimage(psi, "fixed_point", x0=T, alpha=1e8)
    np.testing.assert_allclose(result.x, T, atol=1e-6)  # anchor defaults to x0
    anchor = T[::-1] * 0.5
    result = find_preimage(psi, "fixed_point", x0=T, anchor=anchor, alpha=1e8)
    np.testing.assert_allclose(result.x, anchor, atol=1e-6)


@pytest.mark.parametrize("degree, c", [(2, 1.0), (3, 1.0), (2, 0.5)])
def test_polynomial_fixed_point_satisfies_kwok_tsang_equation(half_circle, degree, c):
    X, T = half_circle
    kernel = PolynomialKernel(degree=degree, gamma=1.0, coef0=c)
    psi = KernelPCA(3, kernel=kernel).fit(X).project(T)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        result = find_preimage(psi, "fixed_point", x0=T, tol=1e-12, max_iter=2000)
    ok = result.converged
    assert ok.sum() >= 3
    z = result.x[ok]
    ratio = (z @ X.T + c) / (np.sum(z**2, axis=1) + c)[:, None]
    rhs = (psi.coef[ok] * ratio ** (degree - 1)) @ X
    np.testing.assert_allclose(z, rhs, atol=1e-8)


# Non-regression: fixed_point's default tol=1e-7 (relative step) is below float32
# resolution  (eps ≈ 1.2e-7): on float32 data some rows jitter at rounding level
# forever,  end unconverged after max_iter=300 and raise a ConvergenceWarning, although
# the same problems in float64 converge in < 50 iterations
def test_fixed_point_on_float32_data_converges_like_float64():
    for seed in range(3):
        X, _ = make_three_clusters(30, noise=0.05, random_state=seed)
        T = X + np.random.default_rng(seed).normal(scale=0.1, size=X.shape)
        psi64 = KernelPCA(3, kernel="rbf", gamma=5.0).fit(X).project(T)
        r64 = find_preimage(psi64, "fixed_point", x0=T)
        assert r64.success and r64.n_iter.max() < 50
        psi32 = (
            KernelPCA(3, kernel="rbf", gamma=5.0)
            .fit(X.astype(np.float32))
            .project(T.astype(np.float32))
        )
        with warnings.catch_warnings():
            warnings.simplefilter("error", ConvergenceWarning)
            r32 = find_preimage(psi32, "fixed_point", x0=T.astype(np.float32))
        assert r32.success


# ---------------------------------------------------------------------------
# 9. exact method when no exact pre-image exists
# ---------------------------------------------------------------------------


def test_exact_warns_and_flags_expansions_without_exact_preimage():
    a, b = np.array([0.5, -0.2]), np.array([-0.3, 0.4])
    kernel = PolynomialKernel(degree=3, gamma=1.0, coef0=1.0)
    psi = FeatureExpansion([[1.0, 0.0], [0.5, 0.5]], np.array([a, b]), kernel)
    with pytest.warns(NumericalWarning, match="exact"):
        result = find_preimage(psi, "exact")
    np.testing.assert_array_equal(result.converged, [True, False])
    assert not result.success
    np.testing.assert_allclose(result.x[0], a, atol=1e-12)
    # the reported residual is the true one, and it is not zero
    ref = residual(psi.coef, psi.support, result.x, sk_kernel(kernel))
    np.testing.assert_allclose(result.distance2, np.maximum(ref, 0), atol=1e-12)
    assert result.distance2[1] > 1e-3
    # the answer is the formula z_j = f⁻¹(⟨Ψ, φ(e_j)⟩) (Schölkopf et al. 1999, Prop. 3)
    values = 0.5 * polynomial_kernel(
        np.array([a, b]), np.eye(2), degree=3, gamma=1.0, coef0=1.0
    ).sum(0)
    np.testing.assert_allclose(result.x[1], np.cbrt(values) - 1.0, atol=1e-12)


def test_exact_rtol_decides_what_counts_as_exact():
    a, b = np.array([0.5, -0.2]), np.array([-0.3, 0.4])
    kernel = PolynomialKernel(degree=3, gamma=1.0, coef0=1.0)
    psi = FeatureExpansion([[0.5, 0.5]], np.array([a, b]), kernel)
    K = polynomial_kernel(np.array([a, b]), degree=3, gamma=1.0, coef0=1.0)
    result = find_preimage(psi, "exact", rtol=1.0)  # d2 / ‖Ψ‖² is below 1
    relative = result.distance2[0] / (np.array([0.5, 0.5]) @ K @ np.array([0.5, 0.5]))
    assert 0 < relative < 1
    assert result.converged[0]
    with pytest.warns(NumericalWarning):
        assert not find_preimage(psi, "exact", rtol=relative / 2).converged[0]
    assert find_preimage(psi, "exact", rtol=relative * 2).converged[0]


# ---------------------------------------------------------------------------
# 10. dispatch and argument checking
# ---------------------------------------------------------------------------


@pytest.fixture
def small_psi():
    X = data(15, 2, seed=19)
    return FeatureExpansion(
        np.random.default_rng(20).dirichlet(np.ones(15), size=3), X, GaussianKernel(gamma=0.5)
    )


def test_methods_lists_every_method():
    assert set(PREIMAGE_METHODS) == {
        "closed_form",
        "exact",
        "fixed_point",
        "gradient",
        "learned",
        "mds",
    }


def test_unknown_method_lists_valid_names(small_psi):
    with pytest.raises(ValueError, match="fixed_point") as info:
        find_preimage(small_psi, method="newton")
    for name in PREIMAGE_METHODS:
        assert name in str(info.value)
    assert "newton" in str(info.value)


def test_callable_method_receives_expansion_x0_and_options(small_psi):
    calls = []
    sentinel = PreimageResult(
        np.zeros((3, 2)), np.zeros(3), np.zeros(3, int), np.ones(3, bool), "mine", "mine"
    )

    def method(expansion, x0=None, **options):
        calls.append((expansion, x0, options))
        return sentinel

    x0 = np.ones((3, 2))
    assert find_preimage(small_psi, method, x0=x0, alpha=3, beta="b") is sentinel
    ((expansion, got_x0, options),) = calls
    assert expansion is small_psi and got_x0 is x0
    assert options == {"alpha": 3, "beta": "b"}


@pytest.mark.parametrize(
    "solver, method, options",
    [
        (ClosedFormPreimage(1e-3), "closed_form", {"alpha": 1e-3}),
        (MDSPreimage(n_neighbors=4), "mds", {"n_neighbors": 4}),
        (LearnedPreimage(alpha=0.5), "learned", {"alpha": 0.5}),
    ],
)
def test_fitted_solver_is_reused_and_equals_one_call_path(small_psi, solver, method, options):
    fitted = solver.fit(small_psi.support, small_psi.kernel)
    state = {k: np.copy(v) for k, v in vars(fitted).items() if isinstance(v, np.ndarray)}
    r1 = find_preimage(small_psi, fitted)
    r2 = find_preimage(small_psi[1:], fitted)
    r3 = find_preimage(small_psi, method, **options)
    np.testing.assert_allclose(r1.x, r3.x, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(r2.x, r1.x[1:], rtol=1e-12, atol=1e-12)
    for k, v in state.items():  # not refitted
        np.testing.assert_array_equal(getattr(fitted, k), v)


def test_fitted_solver_rejects_options_and_other_supports(small_psi):
    fitted = ClosedFormPreimage().fit(small_psi.support, small_psi.kernel)
    with pytest.raises(ValueError, match="options"):
        find_preimage(small_psi, fitted, alpha=0.1)
    other = FeatureExpansion(small_psi.coef, small_psi.support + 1.0, small_psi.kernel)
    for solver in (
        fitted,
        MDSPreimage().fit(small_psi.support, small_psi.kernel),
        LearnedPreimage().fit(small_psi.support, small_psi.kernel),
    ):
        with pytest.raises(ValueError, match="support"):
            find_preimage(other, solver)
    with pytest.raises(ValueError, match="not fitted"):
        find_preimage(small_psi, ClosedFormPreimage())


@pytest.mark.parametrize("kernel", [LaplacianKernel(gamma=1.0, norm="l1"), SineKernel(order=3)])
def test_fixed_point_needs_radial_or_dot_product_kernel(kernel):
    X = data(6, 2, seed=21)
    psi = FeatureExpansion(np.ones(6) / 6, X, kernel)
    with pytest.raises(ValueError, match="gradient"):
        find_preimage(psi, "fixed_point")
    # the suggested method does run (the l1 kernel is not smooth: L-BFGS-B may
    # stop on its line search, which is reported as a ConvergenceWarning)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        result = find_preimage(psi, "gradient", x0=X[:1])
    assert np.all(np.isfinite(result.x))
    assert result.distance2[0] <= psi.distance2(X[:1])[0] + 1e-12


def test_gradient_needs_a_differentiable_kernel():
    X = data(6, 2, seed=22)
    kernel = CallableKernel(lambda x, y: float(np.exp(-np.sum((x - y) ** 2))))
    psi = FeatureExpansion(np.ones(6) / 6, X, kernel)
    with pytest.raises(ValueError, match="'method'"):
        find_preimage(psi, "gradient")


@pytest.mark.parametrize(
    "kernel", [GaussianKernel(1.0), PolynomialKernel(degree=2), LaplacianKernel(1.0)]
)
def test_exact_needs_invertible_dot_product_kernel(kernel):
    psi = FeatureExpansion(np.ones(4) / 4, data(4, 2), kernel)
    with pytest.raises(ValueError, match="exact"):
        find_preimage(psi, "exact")


@pytest.mark.parametrize(
    "method, options, name",
    [
        ("fixed_point", {"max_iter": 0}, "max_iter"),
        ("fixed_point", {"tol": -1}, "tol"),
        ("fixed_point", {"alpha": -1}, "alpha"),
        ("fixed_point", {"max_restarts": -1}, "max_restarts"),
        ("fixed_point", {"random_state": "seed"}, "random_state"),
        ("gradient", {"max_iter": 0}, "max_iter"),
        ("gradient", {"tol": -1}, "tol"),
        ("gradient", {"n_starts": 0}, "n_starts"),
        ("gradient", {"bounds": (1, 0)}, "bounds"),
        ("closed_form", {"alpha": -1}, "alpha"),
        ("mds", {"n_neighbors": 0}, "n_neighbors"),
        ("learned", {"alpha": 0}, "alpha"),
        ("fixed_point", {"x0": np.zeros((3, 3))}, "x0"),
        ("fixed_point", {"x0": np.zeros((2, 2))}, "x0"),
        ("gradient", {"x0": np.zeros((3, 1))}, "x0"),
        ("gradient", {"x0": np.zeros((4, 2))}, "x0"),
        ("fixed_point", {"x0": np.full((3, 2), np.nan)}, "x0"),
        ("fixed_point", {"alpha": 1.0}, "anchor"),
    ],
)
def test_bad_options_raise_value_error_naming_the_argument(small_psi, method, options, name):
    with pytest.raises(ValueError, match=name):
        find_preimage(small_psi, method, **options)


# Non-regression: fixed_point validates 'anchor' with check_starts, whose messages
# always name  'x0': a bad anchor is reported as \
@pytest.mark.parametrize("anchor", [np.zeros((3, 5)), np.zeros((2, 2))])
def test_bad_anchor_error_names_anchor(small_psi, anchor):
    with pytest.raises(ValueError, match="anchor"):
        find_preimage(small_psi, "fixed_point", x0=np.zeros((3, 2)), anchor=anchor, alpha=1.0)


def test_unknown_option_raises_type_error(small_psi):
    """The message names the option and lists the method's own parameters."""
    import inspect

    for method in PREIMAGE_METHODS:
        params = sorted(inspect.signature(PREIMAGE_METHODS[method]).parameters)
        with pytest.raises(TypeError, match=r"no_such_option.*" + re.escape(str(params))):
            find_preimage(small_psi, method, no_such_option=1)


def test_expansion_without_support_is_refused():
    psi = FeatureExpansion(np.ones((2, 3)), None, None, norm2=np.ones(2))
    for method in ("fixed_point", "gradient", "exact", "mds", "closed_form", "learned"):
        with pytest.raises(ValueError, match="support"):
            find_preimage(psi, method)


def test_single_shared_start_broadcasts(small_psi):
    x0 = np.array([0.1, -0.2])
    one = find_preimage(small_psi, "fixed_point", x0=x0)
    many = find_preimage(small_psi, "fixed_point", x0=np.tile(x0, (3, 1)))
    assert_same(one.x, many.x)


# ---------------------------------------------------------------------------
# 11. PreimageResult
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("method", sorted(set(PREIMAGE_METHODS) - {"exact"}))
def test_result_fields_have_documented_shapes_and_types(small_psi, method):
    result = find_preimage(small_psi, method, x0=small_psi.support[:3])
    m, d = 3, 2
    assert isinstance(result, PreimageResult)
    assert result.x.shape == (m, d) and result.x.dtype == np.float64
    assert result.distance2.shape == (m,) and result.distance2.dtype == np.float64
    assert result.n_iter.shape == (m,) and np.issubdtype(result.n_iter.dtype, np.integer)
    assert result.converged.shape == (m,) and result.converged.dtype == bool
    assert isinstance(result.message, str) and result.message
    assert result.method == method
    assert isinstance(result.info, dict)
    assert np.all(result.distance2 >= 0)
    assert result.success == bool(result.converged.all())
    text = repr(result)
    assert text.startswith("PreimageResult(") and method in text and "3" in text


def test_result_success_property():
    r = PreimageResult(
        np.zeros((2, 1)), np.zeros(2), np.zeros(2, int), np.array([True, False]), "m", "x"
    )
    assert r.success is False
    r.converged[:] = True
    assert r.success is True
    assert "converged=2/2" in repr(r)


def test_iterative_results_count_iterations(small_psi):
    fp = find_preimage(small_psi, "fixed_point", x0=small_psi.support[:3])
    assert np.all(fp.n_iter >= 1)
    gd = find_preimage(small_psi, "gradient", x0=small_psi.support[:3])
    assert np.all(gd.n_iter >= 1)
    for method in ("mds", "closed_form", "learned"):
        r = find_preimage(small_psi, method)
        np.testing.assert_array_equal(r.n_iter, 0)
        assert r.success


def test_fixed_point_max_iter_one_warns_convergence(small_psi):
    with pytest.warns(ConvergenceWarning, match="max_iter=1"):
        result = find_preimage(
            small_psi, "fixed_point", x0=small_psi.support[:3] + 1.0, max_iter=1
        )
    assert not result.converged.any()
    np.testing.assert_array_equal(result.n_iter, 1)


# ---------------------------------------------------------------------------
# 12. KernelPCA.inverse_transform
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fitted_kpca():
    X, _ = make_three_clusters(15, random_state=9)
    kpca = KernelPCA(4, kernel="rbf", gamma=2.0).fit(X)
    T = X[::9] + np.random.default_rng(10).normal(scale=0.1, size=X[::9].shape)
    return kpca, T


@pytest.mark.parametrize("add_mean", [False, True])
@pytest.mark.parametrize(
    "method, options",
    [
        ("fixed_point", {}),
        ("gradient", {}),
        ("mds", {"n_neighbors": 5}),
        ("closed_form", {"alpha": 1e-4}),
    ],
)
def test_inverse_transform_equals_find_preimage(fitted_kpca, method, options, add_mean):
    kpca, T = fitted_kpca
    Y = kpca.transform(T)
    x0 = T if method in ("fixed_point", "gradient") else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumericalWarning)  # MDS clips far points
        got = kpca.inverse_transform(Y, method=method, add_mean=add_mean, x0=x0, **options)
        expected = find_preimage(
            kpca.expansion_from_components(Y, add_mean=add_mean), method, x0=x0, **options
        )
        full = kpca.inverse_transform(
            Y, method=method, add_mean=add_mean, x0=x0, return_result=True, **options
        )
    np.testing.assert_allclose(got, expected.x, rtol=1e-12, atol=1e-12)
    assert isinstance(full, PreimageResult)
    assert_same(full.x, got)
    np.testing.assert_allclose(full.distance2, expected.distance2, atol=1e-12)


def test_inverse_transform_learned_return_result(fitted_kpca):
    kpca, T = fitted_kpca
    Y = kpca.transform(T)
    full = kpca.inverse_transform(Y, method="learned", return_result=True, alpha=0.1)
    assert isinstance(full, PreimageResult) and full.method == "learned"
    assert_same(full.x, kpca.inverse_transform(Y, method="learned", alpha=0.1))
    psi = kpca.expansion_from_components(Y)
    np.testing.assert_allclose(
        full.distance2,
        residual(psi.coef, kpca.X_fit_, full.x, sk_kernel(kpca.kernel_)),
        atol=1e-10,
    )


def test_inverse_transform_caches_fitted_solvers():
    X, _ = make_three_clusters(10, random_state=11)
    kpca = KernelPCA(3, kernel="rbf", gamma=2.0).fit(X)
    Y = kpca.transform(X[:5])
    a = kpca.inverse_transform(Y, method="closed_form", alpha=1e-3)
    assert len(kpca._solvers) == 1
    solver = next(iter(kpca._solvers.values()))
    b = kpca.inverse_transform(Y, method="closed_form", alpha=1e-3)
    assert len(kpca._solvers) == 1
    assert next(iter(kpca._solvers.values())) is solver
    assert_same(a, b)
    kpca.inverse_transform(Y, method="closed_form", alpha=1e-2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumericalWarning)  # MDS clips far points
        kpca.inverse_transform(Y, method="mds")
    kpca.inverse_transform(Y, method="learned")
    assert len(kpca._solvers) == 4
    # refitting clears the cache (solvers fitted on the old support are stale)
    kpca.fit(X[::-1])
    assert len(kpca._solvers) == 0


def test_inverse_transform_refuses_precomputed_kernel():
    X = data(10, 2)
    kpca = KernelPCA(2, kernel="precomputed").fit(rbf_kernel(X, X))
    Y = kpca.transform(rbf_kernel(X[:2], X))
    for method in ("fixed_point", "learned", "mds"):
        with pytest.raises(ValueError, match="precomputed"):
            kpca.inverse_transform(Y, method=method)


def test_inverse_transform_accepts_a_fitted_solver(fitted_kpca):
    kpca, T = fitted_kpca
    Y = kpca.transform(T)
    solver = MDSPreimage(n_neighbors=5).fit(kpca.X_fit_, kpca.kernel_)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumericalWarning)  # MDS clips far points
        assert_same(
            kpca.inverse_transform(Y, method=solver),
            kpca.inverse_transform(Y, method="mds", n_neighbors=5),
        )


# ---------------------------------------------------------------------------
# 13. determinism
# ---------------------------------------------------------------------------


def random_restart_problem():
    """An expansion whose nearest support point m sits where the Gaussian
    fixed-point denominator vanishes, so that without x0 the restarts are drawn
    at random: Ψ = −φ(a) − φ(b) + c φ(m) with ⟨Ψ, φ(m)⟩ = 0."""
    gamma = 0.5
    a, b, m = np.array([-1.5, 0.0]), np.array([1.5, 0.0]), np.array([0.0, 0.0])
    support = np.array([a, b, m, [0.0, 3.0], [0.0, -3.0]])
    k = rbf_kernel(support, support, gamma=gamma)
    c = k[2, 0] + k[2, 1]
    coef = np.array([-1.0, -1.0, c, -0.3, -0.3])
    coef[2] += 0.3 * k[2, 3] + 0.3 * k[2, 4]
    return FeatureExpansion(np.tile(coef, (8, 1)), support, GaussianKernel(gamma))


def test_fixed_point_random_restarts_are_reproducible():
    psi = random_restart_problem()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumericalWarning)
        r1 = find_preimage(psi, "fixed_point", random_state=0)
        r2 = find_preimage(psi, "fixed_point", random_state=0)
        r3 = find_preimage(psi, "fixed_point", random_state=np.random.default_rng(0))
    assert np.all(r1.info["restarts"] > 0)  # the random path was taken
    assert_same(r1.x, r2.x)
    np.testing.assert_array_equal(r1.info["restarts"], r2.info["restarts"])
    assert_same(r1.x, r3.x)
    assert np.all(np.isfinite(r1.x))


# Non-regression: gradient_descent allocates x with np.empty and writes a row only when
# some  start ends with a finite objective; when every start overflows (here a
# degree-301 polynomial kernel at x0 = (50, 50)) the returned x is  uninitialised memory
# (e.g. 3.96e263), not a point that was tried. (Since issue 10 such a row falls back
# to the support point nearest in feature space, whose residual is finite.)
def test_gradient_returns_a_tried_point_when_the_objective_overflows():
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    psi = FeatureExpansion([[1.0, 0.0]], X, PolynomialKernel(degree=301, coef0=1.0))
    with (
        pytest.warns(ConvergenceWarning),
        pytest.warns(NumericalWarning, match="kernel overflows"),
    ):
        result = find_preimage(psi, "gradient", x0=[[50.0, 50.0]])
    np.testing.assert_allclose(result.x, [[1.0, 0.0]])
    np.testing.assert_allclose(result.distance2, [0.0], atol=1e-12)


def test_gradient_random_starts_are_reproducible():
    X = data(5, 2, seed=23)
    psi = FeatureExpansion(
        np.random.default_rng(24).normal(size=(3, 5)), X, GaussianKernel(gamma=0.8)
    )
    # 9 starts per expansion > 5 support points: 4 are drawn at random
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        r1 = find_preimage(psi, "gradient", n_starts=9, random_state=3)
        r2 = find_preimage(psi, "gradient", n_starts=9, random_state=3)
        r_one = find_preimage(psi, "gradient", n_starts=1)
    assert_same(r1.x, r2.x)
    # more starts never do worse than the first one alone
    assert np.all(r1.distance2 <= r_one.distance2 + 1e-12)


def test_mds_leaves_out_neighbours_no_input_distance_explains():
    """A support point with d̃² ≥ 2k(x, x) (here exp underflows: φ(x_far) is
    orthogonal to Ψ, and ‖Ψ‖² > 1) says nothing about where x lies. MDS over
    all six points must equal MDS over the five others, solved on its own."""
    from preimage.solvers import MDSPreimage

    near = np.array([[0.0, 0.0], [1.0, 0.2], [0.1, 0.9], [0.8, 0.9], [0.5, 0.4]])
    far = np.array([[100.0, 100.0]])
    kernel = GaussianKernel(gamma=1.0)
    coef = np.array([[1.0, 0.5, 0.2, 0.1, 0.3]])
    psi_all = FeatureExpansion(np.hstack([coef, [[0.0]]]), np.vstack([near, far]), kernel)
    psi_near = FeatureExpansion(coef, near, kernel)
    assert psi_near.norm2()[0] > 1  # so d̃² to the far point exceeds 2
    with pytest.warns(NumericalWarning, match="1 of the 6 distances .* left out"):
        with_far = MDSPreimage(n_neighbors=6).fit(psi_all.support, kernel).solve(psi_all)
    alone = MDSPreimage(n_neighbors=5).fit(near, kernel).solve(psi_near)
    np.testing.assert_allclose(with_far.x, alone.x, rtol=0, atol=1e-12)


def test_mds_on_few_nystroem_landmarks_stays_near_the_data():
    """With 10 landmarks most far landmarks have undefined input distances;
    clipping them to the largest finite distance threw pre-images 40 away
    from data in [-1, 1] (MSE 950). Left out, MDS denoises."""
    from preimage import KernelPCADenoiser
    from preimage.datasets import make_three_clusters

    X, _, centers = make_three_clusters(return_centers=True, random_state=0)
    X_test, y_test = make_three_clusters(random_state=1)
    den = KernelPCADenoiser(2, gamma=10, method="mds", n_landmarks=10, random_state=0).fit(X)
    with pytest.warns(NumericalWarning, match="left out"):
        Z = den.transform(X_test)
    assert np.abs(Z).max() < 1.5
    assert np.mean(np.sum((Z - centers[y_test]) ** 2, axis=1)) < 0.2


def test_exact_preimage_of_a_width_below_float32_warns_only_of_its_own():
    """A float32 support with gamma = 1e-300 (0 in float32): the inverse
    profile divides by zero, which the non-finite fallback handles, without
    NumPy's RuntimeWarning (found by the property tests on NumPy 1.23)."""
    from preimage import FeatureExpansion, NumericalWarning, find_preimage
    from preimage.kernels import SigmoidKernel

    support = np.zeros((2, 1), dtype=np.float32)
    psi = FeatureExpansion(np.zeros((1, 2)), support, SigmoidKernel(gamma=1e-300, coef0=1.0))
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        warnings.simplefilter("ignore", NumericalWarning)
        result = find_preimage(psi, method="exact")
    assert np.isfinite(result.x).all()
