"""preimage.KernelPCA as a drop-in for scikit-learn's KernelPCA.

scikit-learn's own suite runs in ``test_sklearn_kernel_pca.py``; here the
numbers on real data (scikit-learn's bundled digits) are compared with
scikit-learn's to 1e-8, the defaults and parameters are compared one by one,
and what the library adds on top (the papers' width one parameter away, any
pre-image method without ``fit_inverse_transform``) is checked.
"""

import inspect

import numpy as np
import pytest
from sklearn.datasets import load_digits
from sklearn.decomposition import KernelPCA as SklearnKernelPCA
from sklearn.exceptions import NotFittedError

from preimage import KernelPCA
from preimage.kernels import default_gamma


@pytest.fixture(scope="module")
def digits():
    X = load_digits().data / 16.0
    return X[:600], X[600:700]


def _aligned(ours, theirs):
    """Our columns with the signs of scikit-learn's (the sign of an
    eigenvector is arbitrary; both fix it the same way, this only guards
    against a tie)."""
    signs = np.sign(np.sum(ours * theirs, axis=0))
    signs[signs == 0] = 1
    return ours * signs


def test_every_sklearn_parameter_with_its_default():
    theirs = inspect.signature(SklearnKernelPCA).parameters
    ours = inspect.signature(KernelPCA).parameters
    for name, parameter in theirs.items():
        assert name in ours, name
        assert ours[name].default == parameter.default, name
        assert ours[name].kind == parameter.kind, name


@pytest.mark.parametrize(
    "params",
    [
        {},  # scikit-learn's defaults
        {"n_components": 20},
        {"n_components": 30, "kernel": "rbf", "gamma": 0.02},
        {"n_components": 5, "kernel": "rbf"},  # ARPACK under "auto"
        {"n_components": 15, "kernel": "poly", "degree": 2},
        {"n_components": 10, "kernel": "cosine"},
        {"n_components": 10, "kernel": "sigmoid", "gamma": 1e-3, "coef0": 0.0},
    ],
)
@pytest.mark.slow
def test_transform_equals_sklearn_on_digits(digits, params):
    X, T = digits
    theirs = SklearnKernelPCA(**params, random_state=0).fit(X)
    ours = KernelPCA(**params, random_state=0).fit(X)
    assert ours.gamma_ == theirs.gamma_
    np.testing.assert_allclose(ours.eigenvalues_, theirs.eigenvalues_, rtol=1e-8)
    scale = np.abs(theirs.transform(T)).max()
    np.testing.assert_allclose(
        _aligned(ours.transform(T), theirs.transform(T)),
        theirs.transform(T),
        rtol=0,
        atol=1e-8 * scale,
    )
    np.testing.assert_allclose(
        _aligned(ours.fit_transform(X), theirs.fit_transform(X)),
        theirs.fit_transform(X),
        rtol=0,
        atol=1e-8 * scale,
    )


@pytest.mark.parametrize(
    "params",
    [
        {"n_components": 30, "kernel": "rbf", "gamma": 0.02, "alpha": 0.1},
        {"n_components": 20, "kernel": "rbf"},
        {"n_components": 10, "kernel": "poly", "degree": 2, "alpha": 1e-3},
    ],
)
@pytest.mark.slow
def test_inverse_transform_equals_sklearn_on_digits(digits, params):
    X, T = digits
    theirs = SklearnKernelPCA(**params, fit_inverse_transform=True).fit(X)
    ours = KernelPCA(**params, fit_inverse_transform=True).fit(X)
    Y = theirs.transform(T)
    np.testing.assert_allclose(
        ours.inverse_transform(_aligned(ours.transform(T), Y)),
        theirs.inverse_transform(Y),
        rtol=0,
        atol=1e-8,
    )
    np.testing.assert_allclose(
        ours.dual_coef_, theirs.dual_coef_, rtol=0, atol=1e-8 * np.abs(theirs.dual_coef_).max()
    )
    np.testing.assert_allclose(
        np.abs(ours.X_transformed_fit_), np.abs(theirs.X_transformed_fit_), rtol=0, atol=1e-8
    )


def test_inverse_transform_without_a_map_is_sklearns_error_and_names_the_way(digits):
    X, T = digits
    kpca = KernelPCA(10, kernel="rbf").fit(X)
    with pytest.raises(NotFittedError, match="fit_inverse_transform.*method='fixed_point'"):
        kpca.inverse_transform(kpca.transform(T))
    # any pre-image method stays available without the learned map
    out = kpca.inverse_transform(kpca.transform(T), method="fixed_point", x0=T)
    assert out.shape == T.shape and np.isfinite(out).all()


def test_papers_width_is_one_parameter_away(digits):
    X, _ = digits
    kpca = KernelPCA(5, kernel="rbf", gamma="total_variance").fit(X)
    assert kpca.gamma_ == pytest.approx(1.0 / (2.0 * X.var(axis=0).sum()), rel=1e-12)
    assert kpca.gamma_ == default_gamma(X)
    assert KernelPCA(5, kernel="rbf").fit(X).gamma_ == 1.0 / X.shape[1]


def test_more_components_than_samples_are_clipped_as_in_sklearn():
    X = np.random.default_rng(0).normal(size=(6, 3))
    ours, theirs = KernelPCA(10, kernel="rbf").fit(X), SklearnKernelPCA(10, kernel="rbf").fit(X)
    assert ours.eigenvalues_.shape == theirs.eigenvalues_.shape == (6,)


def test_non_psd_precomputed_kernel_is_sklearns_error():
    rng = np.random.default_rng(1)
    A = rng.normal(size=(8, 8))
    K = A + A.T  # symmetric, indefinite
    for estimator in (KernelPCA, SklearnKernelPCA):
        with pytest.raises(ValueError, match="significant negative eigenvalues"):
            estimator(7, kernel="precomputed", eigen_solver="dense").fit(K)


def test_sparse_input_equals_dense(digits):
    from scipy.sparse import csr_matrix

    X, T = digits
    dense = KernelPCA(8, kernel="rbf", gamma=0.02).fit(X)
    sparse = KernelPCA(8, kernel="rbf", gamma=0.02).fit(csr_matrix(X))
    np.testing.assert_allclose(
        _aligned(sparse.transform(csr_matrix(T)), dense.transform(T)),
        dense.transform(T),
        rtol=0,
        atol=1e-8,
    )
    with pytest.raises(ValueError, match="dense"):
        sparse.project(T)


@pytest.mark.slow
def test_auto_solver_is_exact_where_randomized_is_not():
    """eigen_solver="auto" never trades accuracy: at n = 1,500 with 100
    components (where it used to take the randomized solver) it is the dense
    answer to 1e-8 relative; the randomized solver, by name, is not."""
    X = load_digits().data[:1500] / 16.0
    dense = KernelPCA(100, kernel="rbf", gamma=0.02, eigen_solver="dense").fit(X)
    auto = KernelPCA(100, kernel="rbf", gamma=0.02).fit(X)
    fast = KernelPCA(100, kernel="rbf", gamma=0.02, eigen_solver="randomized", random_state=0).fit(
        X
    )
    np.testing.assert_allclose(auto.eigenvalues_, dense.eigenvalues_, rtol=1e-8)
    np.testing.assert_allclose(
        np.abs(auto.eigenvectors_), np.abs(dense.eigenvectors_), rtol=0, atol=1e-8
    )
    gap = np.abs(fast.eigenvalues_ - dense.eigenvalues_).max() / dense.eigenvalues_[0]
    assert gap > 1e-8


def test_degenerate_top_eigenvalue_gives_the_components_asked_for():
    """Points far apart for the width (an identity Gram matrix): the centred
    matrix I − 11ᵀ/n has one eigenvalue of multiplicity n − 1, where LAPACK's
    index-range driver returns no eigenpair; the dense solver still gives
    the q asked for."""
    X = np.array([[125.7], [-132.1], [640.4], [104.9], [-535.7], [361.6], [1304.0], [947.1]])
    kpca = KernelPCA(2, kernel="rbf", eigen_solver="dense").fit(X)
    np.testing.assert_allclose(kpca.eigenvalues_, [1.0, 1.0], rtol=1e-12)


def test_papers_width_of_sparse_data_equals_dense(digits):
    from scipy.sparse import csr_matrix

    X, _ = digits
    assert default_gamma(csr_matrix(X)) == pytest.approx(default_gamma(X), rel=1e-12)
