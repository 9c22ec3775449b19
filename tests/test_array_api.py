"""The array API path (scikit-learn's ``array_api_dispatch``) on array-api-strict arrays
on its second device, against the NumPy path: every namespace or device slip fails here.

scikit-learn's own array API checks run on the estimators in tests/test_common.py.
"""

import warnings

import numpy as np
import pytest
import sklearn
from sklearn.datasets import load_digits

from preimage import FeatureExpansion, find_preimage
from preimage.denoising import KernelPCADenoiser, KernelPCADenoiserCV
from preimage.kernels import (
    GaussianKernel,
    LaplacianKernel,
    LinearKernel,
    PolynomialKernel,
    SigmoidKernel,
    SineKernel,
)
from preimage.kpca import KernelPCA
from preimage.kpca._xp import subspace_eigh
from preimage.reduced_set import ReducedKernelPCA

xps = pytest.importorskip("array_api_strict")
DEVICE, CPU = xps.Device("device1"), xps.Device("CPU_DEVICE")


@pytest.fixture(autouse=True)
def dispatch(monkeypatch):
    """array_api_dispatch on (scikit-learn asks SCIPY_ARRAY_API=1 and SciPy >= 1.14)."""
    monkeypatch.setenv("SCIPY_ARRAY_API", "1")
    try:
        with sklearn.config_context(array_api_dispatch=True):
            yield
    except ImportError as exc:  # the dependency floors' SciPy
        pytest.skip(str(exc))


def dev(a, dtype=None):
    return xps.asarray(np.asarray(a, dtype=dtype), device=DEVICE)


def host(a):
    """A device array's values as NumPy (array-api-strict converts from its CPU device only)."""
    assert a.device == DEVICE, "the result left the input's device"
    return np.asarray(xps.asarray(a, device=CPU))


@pytest.fixture(scope="module")
def digits():
    X = load_digits().data[:240] / 16.0
    noisy = X[200:] + 0.25 * np.random.default_rng(0).normal(size=X[200:].shape)
    return X[:200], noisy


KERNELS = [
    GaussianKernel(0.3),
    LaplacianKernel(0.5),
    LaplacianKernel(0.5, "l2"),
    PolynomialKernel(3, 0.5, 1.0),
    SigmoidKernel(0.1, 0.2),
    LinearKernel(),
]


@pytest.mark.parametrize("kernel", KERNELS, ids=repr)
def test_kernel_blocks_and_diagonal_equal_numpy(kernel):
    rng = np.random.default_rng(0)
    X, Y = rng.normal(size=(7, 3)), rng.normal(size=(5, 3))
    np.testing.assert_allclose(host(kernel.block(dev(X), dev(Y))), kernel.block(X, Y), atol=1e-13)
    np.testing.assert_allclose(host(kernel.diag(dev(X))), kernel.diag(X), atol=1e-13)
    blocks = [host(K) for _, K in kernel.blocks(dev(X), dev(Y), working_memory=1e-4)]
    np.testing.assert_allclose(np.vstack(blocks), kernel.block(X, Y), atol=1e-13)


def test_kernels_without_a_device_path_refuse_by_namespace():
    with pytest.raises(
        TypeError, match="SineKernel runs on NumPy arrays only, not on array_api_strict"
    ):
        SineKernel().block(dev(np.ones((2, 3))))


@pytest.mark.parametrize(
    ("kernel", "params"),
    [
        ("rbf", {"gamma": "total_variance"}),
        ("poly", {"gamma": 0.02}),
        ("laplacian", {"gamma": 0.01}),
    ],
)
def test_kernel_pca_equals_numpy(digits, kernel, params):
    X, noisy = digits
    ref = KernelPCA(12, kernel=kernel, fit_inverse_transform=True, **params).fit(X)
    est = KernelPCA(12, kernel=kernel, fit_inverse_transform=True, **params).fit(dev(X))
    assert est.gamma_ == pytest.approx(ref.gamma_, rel=1e-12)
    lam = ref.eigenvalues_[0]
    np.testing.assert_allclose(host(est.eigenvalues_), ref.eigenvalues_, atol=1e-10 * lam)
    np.testing.assert_allclose(host(est.eigenvectors_), ref.eigenvectors_, atol=1e-10)
    Y, Y_ref = est.transform(dev(noisy)), ref.transform(noisy)
    np.testing.assert_allclose(host(Y), Y_ref, atol=1e-10)
    np.testing.assert_allclose(host(est.fit_transform(dev(X))), ref.fit_transform(X), atol=1e-10)
    np.testing.assert_allclose(
        host(est.inverse_transform(Y)), ref.inverse_transform(Y_ref), atol=1e-10
    )
    Z = est.inverse_transform(Y, method="closed_form")
    np.testing.assert_allclose(
        host(Z), ref.inverse_transform(Y_ref, method="closed_form"), atol=1e-10
    )


@pytest.mark.parametrize("kernel", ["rbf", "poly"])
@pytest.mark.parametrize("alpha", [0.0, 0.5])
def test_fixed_point_equals_numpy(digits, kernel, alpha):
    """Equal to 1e-6: near the optimum the objective is flat to rounding, so the two
    paths may keep different iterates within √eps of it as the best point seen."""
    X, noisy = digits
    ref = KernelPCA(12, kernel=kernel, gamma=0.02).fit(X)
    est = KernelPCA(12, kernel=kernel, gamma=0.02).fit(dev(X))
    opts = {"method": "fixed_point", "alpha": alpha, "bounds": (0, 1), "return_result": True}
    want = ref.inverse_transform(ref.transform(noisy), x0=noisy, **opts)
    got = est.inverse_transform(est.transform(dev(noisy)), x0=dev(noisy), **opts)
    np.testing.assert_allclose(host(got.x), want.x, atol=1e-6)
    np.testing.assert_allclose(host(got.distance2), want.distance2, atol=1e-8)
    np.testing.assert_array_equal(host(got.n_iter), want.n_iter)
    assert float(xps.min(got.x)) >= 0 and float(xps.max(got.x)) <= 1


def test_find_preimage_of_a_device_expansion(digits):
    X, _ = digits
    kernel, coef = GaussianKernel(0.05), np.random.default_rng(1).dirichlet(np.ones(200), 3)
    for method in ("fixed_point", "closed_form"):
        want = find_preimage(FeatureExpansion(coef, X, kernel), method=method)
        got = find_preimage(FeatureExpansion(dev(coef), dev(X), kernel), method=method)
        np.testing.assert_allclose(host(got.x), want.x, atol=1e-6)
        np.testing.assert_allclose(host(got.distance2), want.distance2, atol=1e-10)


@pytest.mark.parametrize("landmarks", ["uniform", "kmeans"])
def test_nystroem_equals_numpy(digits, landmarks):
    """The n × m products on the device, the m × m parts on the host: the NumPy path's fit."""
    X, noisy = digits
    params = {"n_landmarks": 50, "landmarks": landmarks, "random_state": 0}
    ref = KernelPCA(10, kernel="rbf", gamma=0.05, fit_inverse_transform=True, **params).fit(X)
    est = KernelPCA(10, kernel="rbf", gamma=0.05, fit_inverse_transform=True, **params).fit(dev(X))
    np.testing.assert_allclose(host(est.landmarks_), ref.landmarks_)
    np.testing.assert_allclose(host(est.eigenvalues_), ref.eigenvalues_, rtol=1e-10)
    Y, Y_ref = est.transform(dev(noisy)), ref.transform(noisy)
    np.testing.assert_allclose(host(Y), Y_ref, atol=1e-10)
    np.testing.assert_allclose(
        host(est.inverse_transform(Y)), ref.inverse_transform(Y_ref), atol=1e-10
    )


@pytest.mark.parametrize(
    "params",
    [
        {"n_components": 16},
        {},
        {"method": "learned"},
        {"n_components": 8, "n_landmarks": 60},
        {"n_components": 8, "n_landmarks": 60, "method": "closed_form"},
    ],
)
def test_denoiser_equals_numpy(digits, params):
    X, noisy = digits
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the learned map without targets says it will blur
        # The held-out split of n_components="auto" is drawn from random_state.
        ref = KernelPCADenoiser(random_state=0, **params).fit(X)
        est = KernelPCADenoiser(random_state=0, **params).fit(dev(X))
    assert est.n_components_ == ref.n_components_
    np.testing.assert_allclose(host(est.transform(dev(noisy))), ref.transform(noisy), atol=1e-6)
    assert est.score(dev(noisy)) == pytest.approx(ref.score(noisy), rel=1e-8)


def test_denoiser_cv_and_auto_with_targets_equal_numpy(digits):
    """The search on the device: the same scores (to the fixed point's 1e-6) and choice."""
    X, noisy = digits
    train = X + 0.25 * np.random.default_rng(3).normal(size=X.shape), X  # (noisy, clean)
    kw = {"gammas": [0.02, 0.05], "n_components": [4, 8, 16], "cv": 3, "random_state": 0}
    ref = KernelPCADenoiserCV(**kw).fit(*train)
    est = KernelPCADenoiserCV(**kw).fit(*(dev(a) for a in train))
    assert est.best_params_ == ref.best_params_
    scores = est.cv_results_["mean_test_score"]
    np.testing.assert_allclose(scores, ref.cv_results_["mean_test_score"], rtol=1e-6)
    np.testing.assert_allclose(host(est.transform(dev(noisy))), ref.transform(noisy), atol=1e-6)
    auto = KernelPCADenoiser(random_state=0)
    assert auto.fit(*(dev(a) for a in train)).n_components_ == auto.fit(*train).n_components_


def test_float32_stays_float32(digits):
    X, noisy = digits
    est = KernelPCADenoiser(n_components=8).fit(dev(X, np.float32))
    Z = est.transform(dev(noisy, np.float32))
    assert Z.dtype == xps.float32
    ref = KernelPCADenoiser(n_components=8).fit(X).transform(noisy)
    np.testing.assert_allclose(host(Z), ref, atol=1e-3)


def test_subspace_iteration_against_dense_eigh():
    A = np.random.default_rng(2).normal(size=(300, 40))
    K = GaussianKernel(0.01).block(A)
    values, vectors, residual = subspace_eigh(dev(K), 10, xps)
    w, V = np.linalg.eigh(K)
    np.testing.assert_allclose(host(values), w[::-1][:10], rtol=1e-10)
    V, U = V[:, ::-1][:, :10], host(vectors)
    np.testing.assert_allclose(np.abs(np.sum(U * V, axis=0)), 1.0, atol=1e-9)
    assert residual <= 1e-11
    with pytest.warns(match="eigen-residual of .* the dense solver was used instead"):
        values, _, _ = subspace_eigh(dev(K), 10, xps, max_iter=1)
    np.testing.assert_allclose(host(values), w[::-1][:10], rtol=1e-10)


def test_out_of_scope_refused_in_one_line(digits):
    X, _ = digits
    with pytest.raises(
        TypeError, match=r"^ReducedKernelPCA runs on NumPy arrays only, not on array_api_strict"
    ):
        ReducedKernelPCA().fit(dev(X))
    with pytest.raises(TypeError, match="not on array_api_strict"):
        KernelPCA(2, n_landmarks=10, landmarks="leverage").fit(dev(X))
    with pytest.raises(TypeError, match="method='gradient' runs on NumPy arrays only"):
        KernelPCA(2, kernel="rbf").fit(dev(X)).inverse_transform(
            dev(np.zeros((1, 2))), method="gradient"
        )
    fitted = KernelPCA(2, kernel="rbf").fit(dev(X))
    with pytest.raises(ValueError, match=r"KernelPCA.transform\(\) must use the same namespace"):
        fitted.transform(X)


@pytest.mark.parametrize("method", ["fixed_point", "learned"])
def test_model_files_of_device_models_hold_numpy(digits, tmp_path, method):
    from preimage import ConfigurationWarning, load_model, save_model

    X, noisy = digits
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConfigurationWarning)
        est = KernelPCADenoiser(n_components=8, method=method).fit(dev(X))
    with pytest.warns(ConfigurationWarning, match="array_api_strict arrays were copied to NumPy"):
        path = save_model(est, tmp_path / "model.npz")
    assert est.kpca_.X_fit_.device == DEVICE  # the fitted model itself is untouched
    want = host(est.transform(dev(noisy)))
    with sklearn.config_context(array_api_dispatch=False):
        np.testing.assert_allclose(load_model(path).transform(noisy), want, atol=1e-6)


def test_kernel_pca_by_subspace_iteration_equals_numpy():
    """From 2,000 points and for q <= n/10 the device fit iterates (the NumPy path: Lanczos)."""
    X = np.random.default_rng(4).normal(size=(2000, 30))
    ref = KernelPCA(20, kernel="rbf", gamma=0.01).fit(X)
    est = KernelPCA(20, kernel="rbf", gamma=0.01).fit(dev(X))
    lam = ref.eigenvalues_[0]
    np.testing.assert_allclose(host(est.eigenvalues_), ref.eigenvalues_, atol=1e-10 * lam)
    np.testing.assert_allclose(host(est.transform(dev(X[:50]))), ref.transform(X[:50]), atol=1e-10)


def test_bad_device_input_is_refused_by_name(digits):
    X, _ = digits
    bad = X.copy()
    bad[3, 5] = np.nan
    with pytest.raises(ValueError, match="'X' contains NaN or inf"):
        KernelPCA(2, kernel="rbf").fit(dev(bad))
    with pytest.raises(ValueError, match="'X' must be a 2-D array"):
        KernelPCA(2, kernel="rbf").fit(dev(X[0]))
    fitted = KernelPCA(2, kernel="rbf", gamma=0.05).fit(dev(np.round(16 * X)))  # integers
    assert fitted.X_fit_.dtype == xps.float64
    with pytest.raises(ValueError, match="'X' has 3 features, but 64 were expected"):
        fitted.transform(dev(X[:2, :3]))
    with pytest.raises(ValueError, match="'fixed_point' needs a radial or dot-product kernel"):
        KernelPCA(2, kernel="laplacian").fit(dev(X)).inverse_transform(
            dev(np.zeros((1, 2))), method="fixed_point"
        )


def test_expansions_with_the_mean_and_the_methods_by_expansion(digits):
    """add_mean=True, the learned map fitted on its own kernel PCA of the support (solve),
    a map kernel given, and the fixed point stopped by max_iter: as the NumPy path."""
    X, noisy = digits
    ref, est = KernelPCA(12, kernel="rbf", gamma=0.05).fit(X), None
    est = KernelPCA(12, kernel="rbf", gamma=0.05).fit(dev(X))
    Y_ref, Y = ref.transform(noisy), est.transform(dev(noisy))
    for method in ("closed_form", "learned"):
        want = ref.inverse_transform(Y_ref, method=method, add_mean=True, return_result=True)
        got = est.inverse_transform(Y, method=method, add_mean=True, return_result=True)
        np.testing.assert_allclose(host(got.x), want.x, atol=1e-10)
        np.testing.assert_allclose(host(got.distance2), want.distance2, atol=1e-10)
    coef = np.random.default_rng(1).dirichlet(np.ones(200), 3)
    options = {"n_components": 10, "kernel": GaussianKernel(0.5), "alpha": 0.1}
    want = find_preimage(FeatureExpansion(coef, X, GaussianKernel(0.05)), "learned", **options)
    got = find_preimage(
        FeatureExpansion(dev(coef), dev(X), GaussianKernel(0.05)), "learned", **options
    )
    np.testing.assert_allclose(host(got.x), want.x, atol=1e-10)
    with pytest.warns(match="did not converge for 40 of 40 expansions within max_iter=1"):
        est.inverse_transform(Y, method="fixed_point", x0=dev(noisy), max_iter=1, tol=1e-12)


def test_a_users_radial_kernel_without_a_device_profile_is_refused():
    from dataclasses import dataclass

    from preimage.kernels import RadialKernel

    @dataclass(frozen=True)
    class InverseQuadratic(RadialKernel):
        def profile(self, r2):
            return 1 / (1 + r2)

    with pytest.raises(TypeError, match="InverseQuadratic runs on NumPy arrays only"):
        InverseQuadratic().block(dev(np.ones((2, 3))))
    assert InverseQuadratic().block(np.zeros((1, 3)))[0, 0] == 1.0
