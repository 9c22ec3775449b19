"""Tests for preimage.KernelPCA and its projections as feature-space expansions.

References: scikit-learn's PCA and KernelPCA (coordinates, eigenvalues), and an
explicit feature map (degree-2 polynomial kernel on 3-D inputs: 10 features)
whose principal axes are computed with a plain NumPy SVD, so that every
projection is an explicit vector.
"""

import pickle

import numpy as np
import pytest
from sklearn.decomposition import PCA, KernelPCA as SklearnKernelPCA
from sklearn.metrics.pairwise import rbf_kernel

from preimage import FeatureExpansion, KernelPCA
from preimage.kernels import GaussianKernel, PolynomialKernel


def data(n, d, seed=0):
    # anisotropic, so that the principal directions are well separated
    scales = np.linspace(2.0, 0.5, d)
    return np.random.default_rng(seed).normal(size=(n, d)) * scales


# ---------------------------------------------------------------------------
# linear kernel = PCA
# ---------------------------------------------------------------------------


def test_linear_kernel_pca_equals_pca(match_signs):
    X, T = data(50, 5, seed=1), data(8, 5, seed=2)
    q = 3
    kpca = KernelPCA(q, kernel="linear").fit(X)
    pca = PCA(q).fit(X)
    np.testing.assert_allclose(
        kpca.eigenvalues_, (X.shape[0] - 1) * pca.explained_variance_, rtol=1e-10
    )
    np.testing.assert_allclose(
        match_signs(kpca.transform(T), pca.transform(T)), pca.transform(T), rtol=1e-9, atol=1e-10
    )
    np.testing.assert_allclose(
        match_signs(kpca.fit_transform(X), pca.transform(X)),
        pca.transform(X),
        rtol=1e-9,
        atol=1e-10,
    )


def test_linear_kernel_projection_is_pca_reconstruction():
    X, T = data(50, 5, seed=3), data(8, 5, seed=4)
    q = 3
    kpca = KernelPCA(q, kernel="linear").fit(X)
    pca = PCA(q).fit(X)
    C = pca.components_
    # φ is the identity, so an expansion's vector is coef @ X_fit_
    psi = kpca.project(T, add_mean=True)
    vec = psi.coef @ kpca.X_fit_
    np.testing.assert_allclose(vec, pca.inverse_transform(pca.transform(T)), rtol=1e-9, atol=1e-10)
    np.testing.assert_allclose(psi.norm2(), (vec**2).sum(axis=1), rtol=1e-9)
    np.testing.assert_allclose(
        psi.distance2(T), ((vec - T) ** 2).sum(axis=1), rtol=1e-8, atol=1e-10
    )
    # principal part: Σ_k ⟨V_k, x⟩ V_k, the uncentred x projected on the axes
    part = kpca.project(T, add_mean=False)
    vec = part.coef @ kpca.X_fit_
    np.testing.assert_allclose(vec, (T @ C.T) @ C, rtol=1e-9, atol=1e-10)
    np.testing.assert_allclose(part.norm2(), (vec**2).sum(axis=1), rtol=1e-9)


# ---------------------------------------------------------------------------
# against scikit-learn's KernelPCA
# ---------------------------------------------------------------------------

SKLEARN_CASES = [
    pytest.param(dict(kernel="rbf", gamma=0.2), id="rbf"),
    pytest.param(dict(kernel="poly", degree=3, gamma=0.3, coef0=1.0), id="poly3"),
    pytest.param(dict(kernel="poly", degree=2, gamma=0.5, coef0=0.0), id="poly2-homogeneous"),
    pytest.param(dict(kernel="sigmoid", gamma=0.05, coef0=0.1), id="sigmoid"),
    pytest.param(dict(kernel="linear"), id="linear"),
]


@pytest.mark.parametrize("params", SKLEARN_CASES)
@pytest.mark.parametrize("solver", ["dense", "arpack"])
def test_equals_sklearn_kernel_pca(params, solver, match_signs):
    X, T = data(60, 6, seed=5), data(9, 6, seed=6)
    q = 5
    ours = KernelPCA(q, eigen_solver=solver, random_state=0, **params).fit(X)
    ref = SklearnKernelPCA(q, eigen_solver=solver, random_state=0, **params).fit(X)
    assert (ref.eigenvalues_ > 0).all()
    np.testing.assert_allclose(ours.eigenvalues_, ref.eigenvalues_, rtol=1e-9)
    scale = np.sqrt(ref.eigenvalues_[0])
    for got, expected in [
        (ours.transform(T), ref.transform(T)),
        (ours.fit_transform(X), ref.fit_transform(X)),
        (ours.transform(X), ref.transform(X)),
    ]:
        assert got.shape == (len(got), q)
        np.testing.assert_allclose(
            match_signs(got, expected), expected, rtol=1e-7, atol=1e-9 * scale
        )


@pytest.mark.parametrize("params", SKLEARN_CASES[:3])
def test_all_components_equal_sklearn(params, match_signs):
    X, T = data(25, 3, seed=7), data(5, 3, seed=8)
    ours = KernelPCA(**params).fit(X)
    ref = SklearnKernelPCA(**params).fit(X)
    assert ours.eigenvalues_.shape == ref.eigenvalues_.shape
    np.testing.assert_allclose(
        ours.eigenvalues_, ref.eigenvalues_, rtol=1e-8, atol=1e-10 * ref.eigenvalues_[0]
    )
    # the leading components are well determined; compare them
    got, expected = ours.transform(T)[:, :6], ref.transform(T)[:, :6]
    np.testing.assert_allclose(match_signs(got, expected), expected, rtol=1e-6, atol=1e-8)


def _low_rank_data(n=120, seed=9):
    """Three strong directions in 12 dimensions plus weak noise: a clear gap."""
    rng = np.random.default_rng(seed)
    return (rng.normal(size=(n, 3)) * [5.0, 3.0, 2.0]) @ rng.normal(
        size=(3, 12)
    ) + 1e-3 * rng.normal(size=(n, 12))


@pytest.mark.parametrize(
    "params",
    [dict(kernel="linear"), dict(kernel="poly", degree=1, gamma=0.1, coef0=0.0)],
    ids=["linear", "poly1"],
)
def test_randomized_solver_close_to_dense(params, match_signs):
    X = _low_rank_data()
    T = _low_rank_data(10, seed=10)
    dense = KernelPCA(3, eigen_solver="dense", **params).fit(X)
    rand = KernelPCA(3, eigen_solver="randomized", random_state=0, **params).fit(X)
    values = dense.eigenvalues_
    # the gap: the 4th eigenvalue of the centred Gram matrix is noise-sized
    spectrum = np.linalg.eigvalsh(np.cov(X.T, bias=True) * X.shape[0])[::-1]
    assert spectrum[3] < 1e-4 * spectrum[2]
    np.testing.assert_allclose(rand.eigenvalues_, values, rtol=1e-6)
    expected = dense.transform(T)
    np.testing.assert_allclose(
        match_signs(rand.transform(T), expected),
        expected,
        rtol=1e-5,
        atol=1e-6 * np.abs(expected).max(),
    )
    sk = SklearnKernelPCA(3, eigen_solver="dense", **params).fit(X)
    np.testing.assert_allclose(values, sk.eigenvalues_, rtol=1e-9)


# ---------------------------------------------------------------------------
# precomputed kernels
# ---------------------------------------------------------------------------


def test_precomputed_equals_computed(match_signs):
    X, T = data(40, 3, seed=11), data(7, 3, seed=12)
    computed = KernelPCA(4, kernel="rbf", gamma=0.4).fit(X)
    pre = KernelPCA(4, kernel="precomputed").fit(rbf_kernel(X, gamma=0.4))
    assert pre.kernel_ is None and pre.gamma_ == 1 / 40  # scikit-learn's 1/n_features
    np.testing.assert_allclose(pre.eigenvalues_, computed.eigenvalues_, rtol=1e-10)
    expected = computed.transform(T)
    got = pre.transform(rbf_kernel(T, X, gamma=0.4))
    np.testing.assert_allclose(match_signs(got, expected), expected, rtol=1e-9, atol=1e-11)
    np.testing.assert_allclose(
        match_signs(pre.fit_transform(rbf_kernel(X, gamma=0.4)), computed.fit_transform(X)),
        computed.fit_transform(X),
        rtol=1e-9,
        atol=1e-11,
    )
    for add_mean in (True, False):
        psi_pre = pre.project(rbf_kernel(T, X, gamma=0.4), add_mean=add_mean)
        psi = computed.project(T, add_mean=add_mean)
        assert psi_pre.support is None
        np.testing.assert_allclose(psi_pre.norm2(), psi.norm2(), rtol=1e-9)
        # the norm in closed form is the quadratic form with the training Gram matrix
        K = rbf_kernel(X, gamma=0.4)
        np.testing.assert_allclose(
            psi_pre.norm2(), np.einsum("ji,ik,jk->j", psi_pre.coef, K, psi_pre.coef), rtol=1e-9
        )
        with pytest.raises(ValueError):
            psi_pre.distance2(T)


def test_precomputed_transform_wrong_width_names_x():
    X = data(20, 3, seed=13)
    pre = KernelPCA(3, kernel="precomputed").fit(rbf_kernel(X))
    with pytest.raises(ValueError, match=r"\bX\b"):
        pre.transform(rbf_kernel(X[:5], X[:10]))


# ---------------------------------------------------------------------------
# projections against an explicit feature map
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def explicit_pca(poly2_map):
    """Kernel PCA of (⟨x, y⟩ + 1)² on 3-D data, and the same PCA done explicitly."""
    X, Z = data(40, 3, seed=14), data(6, 3, seed=15)
    Phi = poly2_map(X)
    mu = Phi.mean(axis=0)
    _, S, Vt = np.linalg.svd(Phi - mu, full_matrices=False)
    return X, Z, Phi, mu, S, Vt


@pytest.mark.parametrize("q", [1, 3, 6])
@pytest.mark.parametrize("solver", ["dense", "arpack"])
def test_projection_equals_explicit_pca(explicit_pca, poly2_map, q, solver, match_signs):
    X, Z, Phi, mu, S, Vt = explicit_pca
    assert S[q - 1] > 1.05 * S[q]  # the q-dimensional principal subspace is well defined
    kernel = PolynomialKernel(degree=2, gamma=1.0, coef0=1.0)
    kpca = KernelPCA(q, kernel=kernel, eigen_solver=solver, random_state=0).fit(X)
    np.testing.assert_allclose(kpca.eigenvalues_, S[:q] ** 2, rtol=1e-9)
    V = Vt[:q]  # unit principal axes, one per row
    P = V.T @ V
    PhiZ = poly2_map(Z)
    coords = (PhiZ - mu) @ V.T
    np.testing.assert_allclose(
        match_signs(kpca.transform(Z), coords), coords, rtol=1e-8, atol=1e-9
    )
    # the unit principal axes as expansions: Σ_i α_ki φ(x_i) = V_k (up to sign)
    axes = kpca.fit_result_.coef.T @ Phi
    np.testing.assert_allclose(match_signs(axes.T, V.T).T, V, atol=1e-8)

    part = kpca.project(Z, add_mean=False)
    expected = PhiZ @ P  # Σ_k ⟨V_k, φ(z)⟩ V_k
    vec = part.coef @ Phi
    np.testing.assert_allclose(vec, expected, rtol=1e-8, atol=1e-9)
    np.testing.assert_allclose(part.norm2(), (expected**2).sum(axis=1), rtol=1e-8)
    np.testing.assert_allclose(
        part.distance2(Z), ((expected - PhiZ) ** 2).sum(axis=1), rtol=1e-7, atol=1e-8
    )

    recon = kpca.project(Z, add_mean=True)
    expected = (PhiZ - mu) @ P + mu  # Pφ̃(z) + μ
    vec = recon.coef @ Phi
    np.testing.assert_allclose(vec, expected, rtol=1e-8, atol=1e-9)
    np.testing.assert_allclose(recon.norm2(), (expected**2).sum(axis=1), rtol=1e-8)
    np.testing.assert_allclose(
        recon.distance2(Z), ((expected - PhiZ) ** 2).sum(axis=1), rtol=1e-7, atol=1e-8
    )


def test_expansion_norm2_closed_form_equals_streamed(explicit_pca):
    X, Z = explicit_pca[:2]
    kpca = KernelPCA(4, kernel="poly", degree=2, gamma=1.0, coef0=1.0).fit(X)
    for add_mean in (True, False):
        psi = kpca.project(Z, add_mean=add_mean)
        streamed = FeatureExpansion(psi.coef, psi.support, psi.kernel).norm2()
        np.testing.assert_allclose(psi.norm2(), streamed, rtol=1e-9)


@pytest.mark.parametrize(
    "params",
    [
        dict(kernel="rbf", gamma=0.3),
        dict(kernel="poly", degree=2, gamma=1.0, coef0=1.0),
        dict(kernel="linear"),
    ],
    ids=["rbf", "poly2", "linear"],
)
def test_all_components_reconstruct_training_points(params):
    X = data(30, 3, seed=16)
    kpca = KernelPCA(**params).fit(X)
    psi = kpca.project(X, add_mean=True)
    scale = kpca.kernel_.diag(X).max()
    np.testing.assert_allclose(psi.distance2(X), 0.0, atol=1e-9 * scale)


# ---------------------------------------------------------------------------
# expansion_from_components
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("add_mean", [True, False])
def test_expansion_from_components_equals_project(add_mean):
    X, T = data(30, 3, seed=17), data(5, 3, seed=18)
    kpca = KernelPCA(4, kernel="rbf", gamma=0.3).fit(X)
    a = kpca.expansion_from_components(kpca.transform(T), add_mean=add_mean)
    b = kpca.project(T, add_mean=add_mean)
    np.testing.assert_array_equal(a.coef, b.coef)
    np.testing.assert_array_equal(a.norm2(), b.norm2())
    assert a.kernel == b.kernel == GaussianKernel(gamma=0.3)
    np.testing.assert_array_equal(a.support, X)


@pytest.mark.parametrize(
    "Y",
    [np.ones((2, 3)), np.ones((2, 5)), np.ones(4), np.full((2, 4), np.nan)],
    ids=["narrow", "wide", "1d", "nan"],
)
def test_expansion_from_components_bad_y_names_y(Y):
    kpca = KernelPCA(4, kernel="rbf", gamma=0.3).fit(data(20, 3, seed=19))
    with pytest.raises(ValueError, match="'Y'"):
        kpca.expansion_from_components(Y)


def test_expansion_from_components_zero_is_mean_or_offset():
    # Y = 0 with add_mean: Ψ = μ, coefficients 1/N, ‖μ‖² = 1ᵀK1/N²
    X = data(20, 3, seed=20)
    kpca = KernelPCA(3, kernel="rbf", gamma=0.3).fit(X)
    psi = kpca.expansion_from_components(np.zeros((1, 3)), add_mean=True)
    np.testing.assert_allclose(psi.coef, np.full((1, 20), 1 / 20), rtol=1e-12)
    np.testing.assert_allclose(psi.norm2(), [rbf_kernel(X, gamma=0.3).mean()], rtol=1e-12)


# ---------------------------------------------------------------------------
# parameters resolved at fit time, dtypes, rank deficiency
# ---------------------------------------------------------------------------


def test_gamma_none_resolves_to_inverse_twice_total_variance():
    X = data(30, 4, seed=21)
    total_variance = np.mean(np.sum((X - X.mean(axis=0)) ** 2, axis=1))
    kpca = KernelPCA(3, kernel="rbf", gamma="total_variance").fit(X)
    assert kpca.gamma_ == pytest.approx(1 / (2 * total_variance), rel=1e-12)
    assert kpca.kernel_ == GaussianKernel(gamma=kpca.gamma_)
    assert KernelPCA(3, kernel="poly").fit(X).gamma_ == pytest.approx(0.25)
    assert KernelPCA(3, kernel="linear").fit(X).gamma_ == 0.25  # scikit-learn's gamma_
    assert KernelPCA(3, kernel="rbf").fit(X).gamma_ == 0.25  # scikit-learn's default


def test_kernel_object_and_callable_equal_named_kernel(match_signs):
    X, T = data(30, 3, seed=22), data(5, 3, seed=23)
    named = KernelPCA(3, kernel="rbf", gamma=0.3).fit(X).transform(T)
    obj = KernelPCA(3, kernel=GaussianKernel(gamma=0.3)).fit(X).transform(T)
    np.testing.assert_array_equal(obj, named)
    func = KernelPCA(3, kernel=lambda x, y: np.exp(-0.3 * np.sum((x - y) ** 2))).fit(X)
    np.testing.assert_allclose(match_signs(func.transform(T), named), named, rtol=1e-9, atol=1e-11)


def test_float32_transform_is_float32_and_close():
    X, T = data(40, 3, seed=24), data(6, 3, seed=25)
    k64 = KernelPCA(3, kernel="rbf", gamma=0.3).fit(X)
    k32 = KernelPCA(3, kernel="rbf", gamma=0.3).fit(X.astype(np.float32))
    got = k32.transform(T.astype(np.float32))
    assert got.dtype == np.float32
    assert k32.fit_transform(X.astype(np.float32)).dtype == np.float32
    expected = k64.transform(T)
    signs = np.sign(np.sum(got * expected, axis=0))
    np.testing.assert_allclose(got * signs, expected, rtol=1e-3, atol=1e-4)


# Non-regression: the rounding cutoff was 1e-12·λ_max whatever the dtype, so
# float32 kept a noise component (scikit-learn uses 2e-7 for float32).
def test_float32_all_components_drop_rounding_level_eigenvalues():
    X = np.random.default_rng(0).normal(size=(20, 3)).astype(np.float32)
    ref = SklearnKernelPCA(kernel="rbf", gamma=0.5).fit(X)
    ours = KernelPCA(kernel="rbf", gamma=0.5).fit(X)
    ours64 = KernelPCA(kernel="rbf", gamma=0.5).fit(X.astype(np.float64))
    assert ref.eigenvalues_.shape == ours64.eigenvalues_.shape == (19,)
    assert ours.eigenvalues_.shape == ref.eigenvalues_.shape


@pytest.mark.parametrize("solver", ["dense", "arpack"])
def test_rank_deficient_extra_components_are_exactly_zero(solver):
    base = data(10, 3, seed=26)
    X = np.vstack([base, base])  # 20 rows, 10 distinct: centred Gram of rank 9
    T = data(4, 3, seed=27)
    # kept silently with zero eigenvalues, as scikit-learn's remove_zero_eig=False
    kpca = KernelPCA(15, kernel="rbf", gamma=0.3, eigen_solver=solver, random_state=0).fit(X)
    ref = SklearnKernelPCA(9, kernel="rbf", gamma=0.3).fit(base)
    # duplicating every point doubles the centred Gram's eigenvalues
    np.testing.assert_allclose(kpca.eigenvalues_[:9], 2 * ref.eigenvalues_, rtol=1e-8)
    np.testing.assert_array_equal(kpca.eigenvalues_[9:], 0.0)
    Y_fit = KernelPCA(
        15, kernel="rbf", gamma=0.3, eigen_solver=solver, random_state=0
    ).fit_transform(X)
    for Y in (kpca.transform(T), kpca.transform(X), Y_fit):
        assert Y.shape[1] == 15 and np.isfinite(Y).all()
        np.testing.assert_array_equal(Y[:, 9:], 0.0)
    for add_mean in (True, False):
        psi = kpca.project(T, add_mean=add_mean)
        assert np.isfinite(psi.coef).all() and np.isfinite(psi.norm2()).all()
    np.testing.assert_allclose(
        np.abs(kpca.transform(T)[:, :9]), np.abs(ref.transform(T)), rtol=1e-6, atol=1e-8
    )


# ---------------------------------------------------------------------------
# invalid input
# ---------------------------------------------------------------------------


def _with(value):
    X = data(10, 3, seed=28)
    X[2, 1] = value
    return X


INVALID = [
    pytest.param(
        KernelPCA(kernel="rbf", gamma="total_variance"), _with(np.nan), None, r"\bX\b", id="nan"
    ),
    pytest.param(
        KernelPCA(kernel="rbf", gamma="total_variance"), _with(np.inf), None, r"\bX\b", id="inf"
    ),
    pytest.param(
        KernelPCA(kernel="rbf", gamma="total_variance"), np.empty((0, 3)), None, r"'X'", id="empty"
    ),
    pytest.param(
        KernelPCA(kernel="rbf", gamma="total_variance"),
        np.empty((5, 0)),
        None,
        r"'X'",
        id="no-features",
    ),
    pytest.param(
        KernelPCA(kernel="rbf", gamma="total_variance"), data(10, 3)[:, 0], None, r"'X'", id="1d"
    ),
    pytest.param(
        KernelPCA(kernel="rbf", gamma="total_variance"),
        data(1, 3),
        None,
        r"'X'",
        id="single-sample",
    ),
    pytest.param(
        KernelPCA(kernel="rbf", gamma="total_variance"),
        data(10, 3),
        data(4, 2),
        r"\bX\b",
        id="transform-width",
    ),
    pytest.param(
        KernelPCA(kernel="rbf", gamma="total_variance"),
        data(10, 3),
        _with(np.nan),
        r"\bX\b",
        id="transform-nan",
    ),
    pytest.param(
        KernelPCA(kernel="rbf", gamma="total_variance"),
        data(10, 3),
        data(4, 3)[0],
        r"'X'",
        id="transform-1d",
    ),
    pytest.param(
        KernelPCA(kernel="rbf", gamma="total_variance", n_components=11, n_landmarks=5),
        data(10, 3),
        None,
        "'n_components'",
        id="n_components-too-large",
    ),
    pytest.param(
        KernelPCA(kernel="rbf", gamma="total_variance", n_components=0),
        data(10, 3),
        None,
        "'n_components'",
        id="n_components-0",
    ),
    pytest.param(
        KernelPCA(kernel="rbf", gamma="total_variance", n_components=2.5),
        data(10, 3),
        None,
        "'n_components'",
        id="n_components-float",
    ),
    pytest.param(KernelPCA(kernel="rbf", gamma=0), data(10, 3), None, "'gamma'", id="gamma-0"),
    pytest.param(
        KernelPCA(kernel="rbf", gamma=-1), data(10, 3), None, "'gamma'", id="gamma-negative"
    ),
    pytest.param(KernelPCA(kernel="foo"), data(10, 3), None, "'kernel'", id="kernel"),
    pytest.param(
        KernelPCA(kernel="rbf", gamma="total_variance", eigen_solver="foo"),
        data(10, 3),
        None,
        "'eigen_solver'",
        id="eigen_solver",
    ),
    pytest.param(KernelPCA(kernel="poly", degree=0), data(10, 3), None, "'degree'", id="degree-0"),
    pytest.param(
        KernelPCA(kernel="laplacian", kernel_params={"norm": "l3"}),
        data(10, 3),
        None,
        "'norm'",
        id="kernel_params",
    ),
    pytest.param(
        KernelPCA(kernel="precomputed"),
        data(10, 3),
        None,
        "'X'.*square",
        id="precomputed-not-square",
    ),
]


@pytest.mark.parametrize("estimator, X, T, match", INVALID)
def test_invalid_input_names_the_argument(estimator, X, T, match):
    with pytest.raises(ValueError, match=match):
        estimator.fit(X)
        if T is not None:
            estimator.transform(T)


def test_transform_before_fit_raises():
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        KernelPCA(kernel="rbf", gamma="total_variance").transform(data(3, 2))
    with pytest.raises(NotFittedError):
        KernelPCA(kernel="rbf", gamma="total_variance").project(data(3, 2))


# ---------------------------------------------------------------------------
# determinism and persistence
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("solver", ["arpack", "randomized"])
@pytest.mark.parametrize("seed", [0, 123, "generator"])
def test_same_random_state_is_bit_identical(solver, seed):
    X, T = data(80, 4, seed=29), data(5, 4, seed=30)

    def fit():
        rs = np.random.default_rng(7) if seed == "generator" else seed
        return KernelPCA(4, kernel="rbf", gamma=0.2, eigen_solver=solver, random_state=rs).fit(X)

    a, b = fit(), fit()
    np.testing.assert_array_equal(a.eigenvalues_, b.eigenvalues_)
    np.testing.assert_array_equal(a.eigenvectors_, b.eigenvectors_)
    np.testing.assert_array_equal(a.transform(T), b.transform(T))
    np.testing.assert_array_equal(a.project(T).coef, b.project(T).coef)


def test_pickle_round_trip_gives_identical_results():
    X, T = data(30, 3, seed=31), data(5, 3, seed=32)
    kpca = KernelPCA(4, kernel="poly", degree=2).fit(X)
    clone = pickle.loads(pickle.dumps(kpca))
    np.testing.assert_array_equal(clone.transform(T), kpca.transform(T))
    for add_mean in (True, False):
        a, b = clone.project(T, add_mean=add_mean), kpca.project(T, add_mean=add_mean)
        np.testing.assert_array_equal(a.coef, b.coef)
        np.testing.assert_array_equal(a.norm2(), b.norm2())
        np.testing.assert_array_equal(a.distance2(T), b.distance2(T))


def test_feature_names_out_follow_sklearn_convention():
    kpca = KernelPCA(3, kernel="rbf", gamma=0.5).fit(data(10, 2, seed=33))
    assert list(kpca.get_feature_names_out()) == ["kernelpca0", "kernelpca1", "kernelpca2"]


# ---------------------------------------------------------------------------
# leading components: one fit serves a sweep over component counts
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("add_mean", [False, True])
def test_project_leading_components_equals_smaller_fit(add_mean):
    X, T = data(40, 3, seed=23), data(6, 3, seed=24)
    big = KernelPCA(8, kernel="rbf", gamma=0.4, eigen_solver="dense").fit(X)
    small = KernelPCA(3, kernel="rbf", gamma=0.4, eigen_solver="dense").fit(X)
    a = big.project(T, n_components=3, add_mean=add_mean)
    b = small.project(T, add_mean=add_mean)
    # same subspace, so the same feature-space point: coefficients and norms agree
    np.testing.assert_allclose(a.coef, b.coef, atol=1e-10)
    np.testing.assert_allclose(a.norm2(), b.norm2(), rtol=1e-10)


@pytest.mark.parametrize("n", [0, 9, 2.5, True])
def test_leading_components_out_of_range_names_argument(n):
    kpca = KernelPCA(8, kernel="rbf", gamma=0.4).fit(data(40, 3, seed=23))
    with pytest.raises(ValueError, match="'n_components'"):
        kpca.project(data(2, 3, seed=1), n_components=n)


def test_no_kernel_block_is_computed_twice():
    """fit_transform evaluates the Gram matrix once; a learned-map denoiser
    fits kernel PCA and its map with one block each (scikit-learn's
    fit_transform with fit_inverse_transform=True fits its map twice)."""
    from unittest import mock

    from preimage import KernelPCADenoiser

    X = data(60, 3)
    original = GaussianKernel._block
    with mock.patch.object(GaussianKernel, "_block", autospec=True, side_effect=original) as spy:
        KernelPCA(4, kernel="rbf", gamma=0.3).fit_transform(X)
        assert spy.call_count == 1
        spy.reset_mock()
        KernelPCADenoiser(4, gamma=0.3, method="learned").fit(X)
        shapes = [(call.args[1].shape[0], call.args[2].shape[0]) for call in spy.call_args_list]
        assert shapes == [(60, 60), (60, 60)]  # Gram of X, then of the coordinates


def test_very_wide_gaussian_kernel_pca_is_linear_pca_scaled():
    # exp(−γ‖x − y‖²) = 1 − γ‖x‖² − γ‖y‖² + 2γ xᵀy + O(γ²): centred, HKH is
    # 2γ times the centred linear Gram matrix. With γ‖x − y‖² ~ 1e-8 the
    # centred matrix is ~1e-8 while centring rounds at ~1e-16 (the scale of
    # K): its asymmetry must be read at the scale of K, not refused.
    # (Honeine & Richard's σ = 1e5 on digits is this case.)
    # 60 "images" of 100 pixels in [0, 1]: ‖x − y‖² ~ 20.
    X = np.random.default_rng(5).random((60, 100))
    gamma = 5e-11
    kpca = KernelPCA(3, kernel="rbf", gamma=gamma).fit(X)
    pca = PCA(3).fit(X)
    np.testing.assert_allclose(
        kpca.eigenvalues_, 2 * gamma * (X.shape[0] - 1) * pca.explained_variance_, rtol=1e-5
    )


# ---------------------------------------------------------------------------
# the library's own Gram matrix is not checked again
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kernel", "params"),
    [
        ("rbf", {"gamma": 0.3}),
        ("poly", {"degree": 3, "gamma": 0.2, "coef0": 1.0}),
        ("cosine", {"n_jobs": 2}),  # scikit-learn's blocks: symmetric to rounding
    ],
)
@pytest.mark.parametrize("n_components", [6, None])
def test_own_gram_fit_equals_the_checked_fit(kernel, params, n_components, match_signs):
    # KernelPCA skips check_gram on k(X, X) and centres with one mean vector;
    # the public fit_kernel_pca checks K and centres with both. Same outputs.
    from preimage.kernels import make_sklearn_kernel
    from preimage.kpca import fit_kernel_pca

    X, T = data(80, 4, seed=21), data(9, 4, seed=22)
    K = make_sklearn_kernel(kernel, X=X, **params)[0].block(X)
    solver = {"eigen_solver": "arpack", "random_state": 0} if n_components else {}
    computed = KernelPCA(n_components, kernel=kernel, **params, **solver).fit(X)
    checked = fit_kernel_pca(K, n_components, warn_rank=False, **solver)
    pre = KernelPCA(n_components, kernel="precomputed", **solver).fit(K)
    # The leading axes of non-zero eigenvalue (cosine: rank 4) are well separated.
    q = min(6, np.count_nonzero(checked.eigenvalues > 1e-8 * checked.eigenvalues[0]))
    for fit in (computed, pre):
        np.testing.assert_allclose(fit.eigenvalues_, checked.eigenvalues, rtol=0, atol=1e-10)
        vectors = fit.eigenvectors_[:, :q]
        got = match_signs(vectors, checked.eigenvectors[:, :q])
        np.testing.assert_allclose(got, checked.eigenvectors[:, :q], rtol=0, atol=1e-10)
    kernel_T = make_sklearn_kernel(kernel, X=X, **params)[0].block(T, X)
    expected = pre.transform(kernel_T)[:, :q]
    got = match_signs(computed.transform(T)[:, :q], expected)
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-10)


def test_own_gram_is_not_checked_again_but_a_given_one_is():
    from unittest import mock

    import preimage.kpca._fit as fit_module

    X = data(30, 3, seed=23)
    with mock.patch.object(fit_module, "check_gram", wraps=fit_module.check_gram) as spy:
        KernelPCA(3, kernel="rbf", gamma=0.3).fit(X)
        assert spy.call_count == 0
        KernelPCA(3, kernel="precomputed").fit(rbf_kernel(X, gamma=0.3))
        assert spy.call_count == 2  # K, then HKH for its symmetry


def test_own_centring_is_hkh_exactly_symmetric_with_the_largest_entry():
    from preimage.kpca._fit import _center_gram

    X = data(50, 3, seed=24)
    K = PolynomialKernel(degree=2, gamma=0.5, coef0=-3.0).block(X)  # entries of both signs
    H = np.eye(50) - 1 / 50
    Kc, mean, grand, top = _center_gram(K, True, symmetric=True)
    np.testing.assert_allclose(Kc, H @ K @ H, rtol=0, atol=1e-12 * np.abs(K).max())
    assert np.array_equal(Kc, Kc.T)
    np.testing.assert_allclose(mean, K.mean(axis=0), rtol=1e-14)
    assert grand == pytest.approx(K.mean(), rel=1e-14) and top == np.abs(K).max()


def test_user_kernel_or_gram_that_is_not_symmetric_or_finite_is_still_refused():
    from preimage.kernels import Kernel
    from preimage.kpca import fit_kernel_pca

    class Skewed(Kernel):  # a user's kernel: its k(X, X) is checked as a given K
        def _block(self, X, Y):
            return X @ Y.T + 0.1 * np.outer(X[:, 0], Y[:, 1])

        def _diag(self, X):
            return np.einsum("ij,ij->i", X, X) + 0.1 * X[:, 0] * X[:, 1]

    X = data(20, 3, seed=25)
    K = rbf_kernel(X, gamma=0.3)
    K[0, 1] += 0.1
    asymmetric = r"'K' must be a symmetric Gram matrix, got entries K\[i, j\] - K\[j, i\] up to"
    for fit in (
        lambda: fit_kernel_pca(K, 3),
        lambda: KernelPCA(3, kernel="precomputed").fit(K),
        lambda: KernelPCA(3, kernel=Skewed()).fit(X),
    ):
        with pytest.raises(ValueError, match=asymmetric):
            fit()
    K[0, 1] = np.nan
    with pytest.raises(ValueError, match="^'K' contains NaN; all values must be finite$"):
        fit_kernel_pca(K, 3)
    with pytest.raises(ValueError, match="^invalid 'X': Input X contains NaN"):
        KernelPCA(3, kernel="precomputed").fit(K)
