"""Sparse function approximation (Vijayakumar & Wu 1999): the RKHS Wiener
solution, its exact incremental form, and the sequential sparse SV algorithm.

Layers: exact cases (sine kernel, function in its span), equivalences
(incremental == batch, sequential == scikit-learn's SVR), properties (the dual
objective never increases, the box holds) and an invalid-input table.
"""

import warnings

import numpy as np
import pytest
from sklearn.exceptions import DataConversionWarning
from sklearn.svm import SVR

from preimage import ConvergenceWarning, SequentialSVR, WienerRegressor
from preimage.kernels import GaussianKernel, LinearKernel, SineKernel
from preimage.sparse_regression import (
    WienerState,
    dual_objective,
    sequential_svr,
    wiener_coefficients,
    wiener_update,
)


def paper_function(x):
    """Their Fig. 3 target, in the span of {sin nx, cos nx}, n ≤ 5."""
    return 4 - np.sin(x) + np.sin(2 * x) - np.sin(3 * x) + np.sin(4 * x) - np.sin(5 * x)


GRID = np.linspace(0, 2 * np.pi, 20, endpoint=False)[:, None]
TEST = np.linspace(0, 2 * np.pi, 301)[:, None]


def _incremental(K, y):
    state = WienerState()
    for i in range(len(y)):
        state = wiener_update(state, K[state.basis, i], K[i, i], y[i])
    return state


def _all_samples(model):
    """A fitted regressor's coefficients over every training sample: its
    dual coefficients on `support_`, zero elsewhere."""
    a = np.zeros(model.X_fit_.shape[0])
    a[model.support_] = model.dual_coef_[0]
    return a


# -- Wiener solution ----------------------------------------------------------


def test_batch_coefficients_are_the_pseudo_inverse():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(8, 2))
    K = GaussianKernel(0.5)(X)
    y = rng.normal(size=8)
    np.testing.assert_allclose(wiener_coefficients(K, y), np.linalg.solve(K, y), rtol=1e-8)
    # A repeated input: K is singular and a is the minimum-norm solution.
    K2 = GaussianKernel(0.5)(np.vstack([X, X[:1]]))
    y2 = np.append(y, y[0])
    np.testing.assert_allclose(
        wiener_coefficients(K2, y2), np.linalg.pinv(K2, rcond=1e-9) @ y2, atol=1e-8
    )


@pytest.mark.parametrize(
    "kernel", [SineKernel(order=5), GaussianKernel.from_sigma(0.5)], ids=["sine", "gaussian"]
)
@pytest.mark.parametrize("design", ["grid", "repeated"])
@pytest.mark.parametrize("noise", [0.0, 0.3])
def test_incremental_equals_batch(kernel, design, noise):
    """Theorem 2 sample by sample from the empty model gives the batch function.

    The sine kernel's space has dimension 11, so with 20 grid points the last
    nine add no direction (the theorem's denominator is 0); repeated inputs do
    the same for the Gaussian kernel. With noise those samples change the
    least-squares fit, which the update must follow as well.
    """
    rng = np.random.default_rng(1)
    X = GRID if design == "grid" else np.vstack([GRID[::2], GRID[::4]])
    y = paper_function(X[:, 0]) + noise * rng.normal(size=len(X))
    K = kernel(X)
    batch = wiener_coefficients(K, y)
    state = _incremental(K, y)
    Kt = kernel(TEST, X)
    np.testing.assert_allclose(Kt @ state.coef(), Kt @ batch, atol=1e-8)
    np.testing.assert_allclose(K @ state.coef(), K @ batch, atol=1e-8)
    if state.basis.size == len(y):  # every sample independent: a is unique
        np.testing.assert_allclose(state.coef(), batch, rtol=1e-6, atol=1e-8)


def test_partial_fit_equals_fit_from_empty_and_after_fit():
    rng = np.random.default_rng(2)
    X = rng.uniform(0, 2 * np.pi, size=(15, 1))
    y = np.sin(X[:, 0]) + 0.1 * rng.normal(size=15)
    batch = WienerRegressor(kernel="rbf", gamma=2.0).fit(X, y)
    one_by_one = WienerRegressor(kernel="rbf", gamma=2.0)
    for i in range(15):
        one_by_one.partial_fit(X[i : i + 1], y[i : i + 1])
    chunks = WienerRegressor(kernel="rbf", gamma=2.0).fit(X[:6], y[:6])
    chunks.partial_fit(X[6:11], y[6:11]).partial_fit(X[11:], y[11:])
    # K is invertible here: a = K⁻¹y, every sample in the expansion.
    K = GaussianKernel(2.0)(X)
    np.testing.assert_allclose(_all_samples(batch), np.linalg.solve(K, y), rtol=1e-5, atol=1e-7)
    for model in (one_by_one, chunks):
        np.testing.assert_allclose(model.predict(TEST), batch.predict(TEST), atol=1e-7)
        np.testing.assert_allclose(_all_samples(model), _all_samples(batch), rtol=1e-5, atol=1e-7)
        assert model.n_vectors_ == model.support_.size == model.dual_coef_.shape[1]
        assert np.all(model.dual_coef_ != 0)
        np.testing.assert_array_equal(model.support_vectors_, X[model.support_])
    assert one_by_one.X_fit_.shape == (15, 1) and chunks.n_features_in_ == 1


def test_partial_fit_keeps_only_the_new_directions():
    """The sine kernel's space has dimension 11: of 20 grid samples taken one
    by one, nine add no direction and keep a zero coefficient (Theorem 2),
    so the expansion has 11 vectors; the batch a = K⁺y uses all 20."""
    y = paper_function(GRID[:, 0])
    one_by_one = WienerRegressor(kernel=SineKernel(order=5))
    for i in range(20):
        one_by_one.partial_fit(GRID[i : i + 1], y[i : i + 1])
    batch = WienerRegressor(kernel=SineKernel(order=5)).fit(GRID, y)
    assert one_by_one.n_vectors_ == 11 and batch.n_vectors_ == 20
    K = SineKernel(order=5)(GRID)
    np.testing.assert_allclose(K @ _all_samples(one_by_one), y, atol=1e-8)
    np.testing.assert_allclose(_all_samples(batch), np.linalg.pinv(K, rcond=1e-9) @ y, atol=1e-8)


@pytest.mark.parametrize(
    "X", [GRID, np.random.default_rng(3).uniform(0, 2 * np.pi, (20, 1))], ids=["grid", "random"]
)
def test_sine_kernel_reproduces_a_function_in_its_span(X):
    """Noiseless samples of f ∈ span{sin nx, cos nx}_{n≤5}: the Wiener solution
    is f itself, everywhere (their Sec. 6, 'learned exactly')."""
    reg = WienerRegressor(kernel="sine", kernel_params={"order": 5}).fit(
        X, paper_function(X[:, 0])
    )
    np.testing.assert_allclose(reg.predict(TEST), paper_function(TEST[:, 0]), atol=1e-8)
    obj = WienerRegressor(kernel=SineKernel(order=5)).fit(X, paper_function(X[:, 0]))
    np.testing.assert_allclose(obj.predict(TEST), reg.predict(TEST), atol=1e-12)
    # By name without an order: SineKernel's own default, N = 5.
    default = WienerRegressor(kernel="sine").fit(X, paper_function(X[:, 0]))
    assert default.kernel_ == SineKernel(order=5)
    np.testing.assert_allclose(default.predict(TEST), reg.predict(TEST), atol=1e-12)


def test_degree_is_not_the_sine_kernels_order():
    """`degree` belongs to the polynomial kernel: a sine kernel of order 3
    cannot reproduce sin 5x, whatever `degree` says."""
    X, y = GRID, paper_function(GRID[:, 0])
    low = WienerRegressor(kernel="sine", degree=5, kernel_params={"order": 3}).fit(X, y)
    assert low.kernel_ == SineKernel(order=3)
    assert np.abs(low.predict(TEST) - paper_function(TEST[:, 0])).max() > 0.1
    assert WienerRegressor(kernel="sine", degree=3).fit(X, y).kernel_ == SineKernel(order=5)


# -- sequential sparse SV algorithm -------------------------------------------


def test_sequential_svr_matches_scikit_learn_svr():
    """Same solution as SVR(kernel="precomputed") on R = K + λ², same ε, large C.

    The two duals differ by one constraint: SVR adds Σ(α*_i − α_i) = 0 and an
    intercept b, the sequential algorithm has neither (λ² plays the bias). On
    a design symmetric about 0 with an odd target the unconstrained optimum is
    antisymmetric (the dual is invariant under a ↦ −Pa, P the reflection, and
    strictly convex), so Σ a_i = 0 holds by itself: both solve the same
    problem, SVR's b must be 0 and the decision values must agree. The
    tolerance 1e-4 (in units of y ~ 1) covers both solvers' stopping rules.
    """
    x = np.linspace(-3, 3, 21)[:, None]
    y = np.sin(x[:, 0]) + 0.3 * x[:, 0]
    kernel, lam, eps = GaussianKernel.from_sigma(0.7), 1.0, 0.05
    K = kernel(x)
    res = sequential_svr(K, y, epsilon=eps, augmentation=lam, tol=1e-9, max_iter=50_000)
    svr = SVR(kernel="precomputed", C=1e6, epsilon=eps, tol=1e-9).fit(K + lam**2, y)
    assert res.converged
    assert abs(res.coef.sum()) < 1e-8
    assert abs(svr.intercept_[0]) < 1e-5
    Rt = kernel(TEST - np.pi, x) + lam**2
    ours = Rt @ res.coef
    theirs = svr.predict(Rt)
    np.testing.assert_allclose(ours, theirs, atol=1e-4)
    np.testing.assert_array_equal(res.support, np.sort(svr.support_))
    np.testing.assert_allclose(res.coef[svr.support_], svr.dual_coef_[0], atol=1e-4)


@pytest.mark.parametrize(
    "options",
    [
        dict(kernel=SineKernel(order=5), epsilon=0.01),
        dict(kernel=GaussianKernel.from_sigma(0.5), epsilon=0.2),
        dict(kernel=GaussianKernel.from_sigma(0.5), epsilon=0.05, C=2.0),
        dict(kernel=GaussianKernel.from_sigma(0.5), epsilon=0.1, learning_rate=0.4),
        dict(kernel=GaussianKernel.from_sigma(0.5), epsilon=0.1, augmentation=3.0),
    ],
    ids=["sine", "gaussian", "finite-C", "scalar-rate", "large-lambda"],
)
def test_dual_objective_never_increases(options):
    options = dict(options)
    kernel = options.pop("kernel")
    rng = np.random.default_rng(4)
    y = paper_function(GRID[:, 0]) + 0.05 * rng.normal(size=20)
    K = kernel(GRID)
    res = sequential_svr(K, y, max_iter=3000, warn=False, **options)
    J = res.objective
    # Rounding of ½aᵀRa − yᵀa: relative 1e-11 of the terms it is made of.
    scale = 1e-11 * (abs(J).max() + 1.0)
    assert np.all(np.diff(J) <= scale)
    R = K + options.get("augmentation", 1.0) ** 2
    assert J[-1] == pytest.approx(
        dual_objective(R, y, res.alpha, res.alpha_star, options["epsilon"]), abs=1e-8
    )
    C = options.get("C", np.inf)
    assert np.all((res.alpha >= 0) & (res.alpha <= C))
    assert np.all((res.alpha_star >= 0) & (res.alpha_star <= C))


def test_converged_solution_meets_the_kkt_conditions():
    """C = ∞: a_i > 0 ⇒ E_i = ε, a_i < 0 ⇒ E_i = −ε, a_i = 0 ⇒ |E_i| ≤ ε."""
    y = paper_function(GRID[:, 0])
    K = GaussianKernel.from_sigma(0.5)(GRID)
    res = sequential_svr(K, y, epsilon=0.2, tol=1e-9, max_iter=50_000)
    E = y - (K + 1.0) @ res.coef
    a = res.coef
    np.testing.assert_allclose(E[a > 0], 0.2, atol=1e-7)
    np.testing.assert_allclose(E[a < 0], -0.2, atol=1e-7)
    assert np.all(np.abs(E[a == 0]) <= 0.2 + 1e-7)
    assert 0 < res.support.size < 20


def test_estimator_exposes_the_solution():
    y = paper_function(GRID[:, 0])
    svr = SequentialSVR(kernel="sine", kernel_params={"order": 5}, epsilon=0.01).fit(GRID, y)
    assert svr.converged_ and svr.n_iter_ == svr.objective_.size
    assert svr.n_vectors_ == svr.support_.size == svr.dual_coef_.shape[1]
    np.testing.assert_array_equal(svr.support_vectors_, GRID[svr.support_])
    coef = svr.alpha_star_ - svr.alpha_
    np.testing.assert_allclose(svr.dual_coef_[0], coef[svr.support_])
    assert svr.intercept_ == pytest.approx(coef.sum())
    pred = (SineKernel(order=5)(TEST, GRID) + 1.0) @ coef
    np.testing.assert_allclose(svr.predict(TEST), pred, atol=1e-10)
    # ε = 0.01 on a function in the span: within the tube at the samples.
    assert np.abs(svr.predict(GRID) - y).max() <= 0.01 + 1e-5
    np.testing.assert_allclose(svr.learning_rate_, 0.95 / 7.0)


def test_convergence_warning_when_max_iter_is_too_small():
    y = paper_function(GRID[:, 0])
    with pytest.warns(ConvergenceWarning, match="max_iter=1"):
        svr = SequentialSVR(kernel=SineKernel(order=5), epsilon=0.01, max_iter=1).fit(GRID, y)
    assert not svr.converged_ and svr.n_iter_ == 1


def test_learning_rate_bound_raise_or_clip():
    y = paper_function(GRID[:, 0])
    # R_ii = 6 + λ² = 7 for the sine kernel: the bound is 1/7.
    sine = {"kernel": "sine", "kernel_params": {"order": 5}}
    with pytest.raises(ValueError, match="'learning_rate' must be below 1/R_ii"):
        SequentialSVR(**sine, learning_rate=0.2).fit(GRID, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        clipped = SequentialSVR(
            **sine, epsilon=0.01, learning_rate=0.2, learning_rate_bound="clip"
        ).fit(GRID, y)
    np.testing.assert_allclose(clipped.learning_rate_, 0.95 / 7)
    rates = np.full(20, 0.1)
    ok = SequentialSVR(**sine, epsilon=0.01, learning_rate=rates).fit(GRID, y)
    np.testing.assert_allclose(ok.learning_rate_, 0.1)


@pytest.mark.parametrize(
    "make, match",
    [
        (lambda: SequentialSVR(epsilon=-1.0), "'epsilon'"),
        (lambda: SequentialSVR(C=0.0), "'C'"),
        (lambda: SequentialSVR(tol=-1.0), "'tol'"),
        (lambda: SequentialSVR(max_iter=0), "'max_iter'"),
        (lambda: SequentialSVR(kernel="nope"), "'kernel'"),
        (lambda: SequentialSVR(learning_rate=-0.1), "'learning_rate'"),
        (lambda: SequentialSVR(learning_rate=np.ones(3)), "'learning_rate'"),
        (lambda: SequentialSVR(learning_rate_bound="ignore"), "'learning_rate_bound'"),
        (lambda: WienerRegressor(rtol=-1.0), "'rtol'"),
        (lambda: WienerRegressor(kernel=3), "'kernel'"),
    ],
    ids=[
        "epsilon",
        "C",
        "tol",
        "max_iter",
        "kernel",
        "rate-negative",
        "rate-shape",
        "rate-bound",
        "rtol",
        "wiener-kernel",
    ],
)
def test_invalid_parameters_name_the_argument(make, match):
    with pytest.raises(ValueError, match=match):
        make().fit(GRID, paper_function(GRID[:, 0]))


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: sequential_svr(np.ones((3, 2)), np.ones(3), epsilon=0.1), "'K'"),
        (lambda: sequential_svr(np.eye(3), np.ones(4), epsilon=0.1), "'y'"),
        (lambda: sequential_svr(np.eye(3), np.ones(3), epsilon=np.nan), "'epsilon'"),
        (
            lambda: sequential_svr(np.eye(3), np.ones(3), epsilon=0.1, augmentation=np.inf),
            "'augmentation'",
        ),
        (
            lambda: sequential_svr(
                LinearKernel()(np.array([[0.0], [1.0]])), np.ones(2), epsilon=0.1, augmentation=0.0
            ),
            "'augmentation'",
        ),
        (lambda: wiener_coefficients(np.eye(2), np.ones((2, 2))), "'y'"),
        (lambda: wiener_update(WienerState(), np.ones(2), 1.0, 0.0), "'k'"),
        (lambda: WienerRegressor().fit(GRID, np.ones((20, 2))), "'y'"),
        (lambda: SequentialSVR().fit(np.full((3, 1), np.nan), np.ones(3)), "X contains NaN"),
        (lambda: WienerRegressor().fit(GRID, np.ones(20)).predict(np.ones((2, 3))), "features"),
    ],
    ids=[
        "K-square",
        "y-shape",
        "epsilon-nan",
        "augmentation-inf",
        "zero-diagonal",
        "wiener-y",
        "update-k",
        "estimator-y-2d",
        "X-nan",
        "predict-features",
    ],
)
def test_invalid_input_names_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize(
    "make",
    [lambda: WienerRegressor(gamma=2.0), lambda: SequentialSVR(gamma=2.0, epsilon=0.05)],
    ids=["wiener", "sequential"],
)
def test_column_targets_are_raveled_with_a_warning(make):
    """A y of one column is the same regression as its 1-D form, with
    scikit-learn's DataConversionWarning, as its regressors do."""
    y = paper_function(GRID[:, 0])
    flat = make().fit(GRID, y)
    with pytest.warns(DataConversionWarning, match="1d array was expected"):
        column = make().fit(GRID, y[:, None])
    np.testing.assert_array_equal(column.predict(TEST), flat.predict(TEST))
    np.testing.assert_array_equal(column.dual_coef_, flat.dual_coef_)


@pytest.mark.parametrize(
    "call",
    [
        lambda: WienerRegressor().fit(GRID, None),
        lambda: WienerRegressor().partial_fit(GRID, None),
        lambda: SequentialSVR().fit(GRID, None),
    ],
    ids=["wiener-fit", "wiener-partial-fit", "sequential"],
)
def test_targets_are_required(call):
    with pytest.raises(ValueError, match="'y'.*requires y to be passed"):
        call()
