"""Tests for the reduced-set front ends: trained SVMs and kernel PCA.

References, each independent of the code under test: scikit-learn's own
``decision_function``/``predict``/``transform`` and its pairwise kernels;
brute-force search for the thresholds; the Cauchy–Schwarz bound
``|⟨Ψ − Ψ', φ(x)⟩| ≤ √(ρ k(x, x))``, which ties every change of a decision
value to the feature-space error the reduced set reports.
"""

import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.decomposition import KernelPCA as SklearnKernelPCA
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LogisticRegression
from sklearn.metrics.pairwise import (
    linear_kernel,
    polynomial_kernel,
    rbf_kernel,
    sigmoid_kernel,
)
from sklearn.multiclass import OneVsRestClassifier
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC, SVR

from preimage import (
    ConvergenceWarning,
    KernelPCA,
    NumericalWarning,
    ReducedKernelPCA,
    ReducedSVC,
    ReducedSVR,
    reduce_kernel_pca,
    reduce_svm,
)
from preimage.reduced_set import (
    ReducedSetResult,
    classification_threshold,
    epsilon_insensitive_threshold,
    kernel_pca_expansion,
    svm_expansion,
)
from preimage.reduced_set._sklearn_svm import svm_kernel

# ---------------------------------------------------------------------------
# data and models (small: the whole file should run in a few seconds)
# ---------------------------------------------------------------------------


def blobs(sizes, d=2, spread=1.3, seed=0):
    """Gaussian classes of the given sizes around well-separated centres."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(scale=2.0, size=(len(sizes), d))
    X = np.vstack([c + spread * rng.normal(size=(s, d)) for c, s in zip(centres, sizes)])
    y = np.repeat(np.arange(len(sizes)), sizes)
    return X, y


X3, Y3 = blobs([25, 35, 30], seed=1)  # unequal classes: libsvm's grouping shows
X4, Y4 = blobs([12, 20, 16, 24], seed=2)
T = np.random.default_rng(3).normal(scale=3.0, size=(40, 2))
LABELS = np.array(["ant", "bee", "cat"])


def regression_data():
    rng = np.random.default_rng(4)
    X = rng.uniform(-3, 3, size=(60, 2))
    return X, np.sin(X[:, 0]) + 0.3 * X[:, 1] + 0.05 * rng.normal(size=60)


XR, YR = regression_data()

#: name -> (estimator factory taking SVC keyword overrides, X, y)
SETUPS = {
    "binary": (lambda **kw: SVC(gamma=0.4, **kw), X3, Y3 == 1),
    "binary_labels": (
        lambda **kw: SVC(gamma=0.4, C=2.0, **kw),
        X3,
        LABELS[1:][(Y3 == 1).astype(int)],
    ),
    "ovo3": (lambda **kw: SVC(gamma=0.4, **kw), X3, LABELS[Y3]),
    "ovo4": (lambda **kw: SVC(kernel="poly", degree=3, gamma=0.2, coef0=1.0, **kw), X4, Y4),
    "ovo4_sigmoid": (lambda **kw: SVC(kernel="sigmoid", gamma=0.05, coef0=-0.5, **kw), X4, Y4),
    "ovo3_linear": (
        lambda **kw: SVC(kernel="linear", C=0.5, **{"decision_function_shape": "ovo", **kw}),
        X3,
        Y3,
    ),
    "ovr3": (lambda **kw: OneVsRestClassifier(SVC(gamma="scale")), X3, Y3),
    "ovr2": (lambda **kw: OneVsRestClassifier(SVC(gamma=0.4)), X3, Y3 == 2),
    "svr": (lambda **kw: SVR(gamma=0.5, epsilon=0.1), XR, YR),
}
MODELS = list(SETUPS)


def make_model(name, **overrides):
    factory, X, y = SETUPS[name]
    return factory(**overrides).fit(X, y)


def training_data(name):
    return SETUPS[name][1:]


def ovo_reference(name):
    """The same model with pairwise ('ovo') decision values for an SVC."""
    model = make_model(name)
    if isinstance(model, SVC) and len(model.classes_) > 2:
        return make_model(name, decision_function_shape="ovo")
    return model


def total_support(model):
    if isinstance(model, OneVsRestClassifier):
        return np.unique(np.vstack([e.support_vectors_ for e in model.estimators_]), axis=0).shape[
            0
        ]
    return model.support_vectors_.shape[0]


def decision(model, X):
    return model.predict(X) if isinstance(model, (SVR, ReducedSVR)) else model.decision_function(X)


def _reduced_shell(machines, reduced, model):
    """The reduced estimator of `model` holding `reduced` as it is, with the
    original thresholds (a reduction that removes nothing)."""
    if machines.kind == "regression":
        shell = ReducedSVR()
    else:
        shell = ReducedSVC(
            decision_function_shape=machines.decision_function_shape,
            break_ties=machines.break_ties,
        )
    shell._set_reduced(reduced, machines.intercept, machines.expansion, model)
    shell._set_machines(machines)
    return shell


# ---------------------------------------------------------------------------
# the kernel and the expansions, before any reduction
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "params, reference",
    [
        (dict(kernel="rbf", gamma="scale"), "rbf"),
        (dict(kernel="poly", degree=2, gamma=0.3, coef0=0.7), "poly"),
        (dict(kernel="sigmoid", gamma=0.1, coef0=-0.2), "sigmoid"),
        (dict(kernel="linear"), "linear"),
    ],
)
def test_kernel_mapping_equals_sklearn_pairwise(params, reference):
    model = SVC(**params).fit(X3, Y3)
    A, B = T[:7], X3[:9]
    # 'scale' resolved by hand, not read back from the model
    gamma = (
        1.0 / (X3.shape[1] * X3.var()) if params.get("gamma") == "scale" else params.get("gamma")
    )
    expected = {
        "rbf": lambda: rbf_kernel(A, B, gamma=gamma),
        "poly": lambda: polynomial_kernel(A, B, degree=2, gamma=gamma, coef0=0.7),
        "sigmoid": lambda: sigmoid_kernel(A, B, gamma=gamma, coef0=-0.2),
        "linear": lambda: linear_kernel(A, B),
    }[reference]()
    np.testing.assert_allclose(svm_kernel(model)(A, B), expected, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name", MODELS)
def test_expansions_reproduce_the_model(name):
    model = make_model(name)
    machines = svm_expansion(model)
    values = machines.decision_values(T)
    reference = ovo_reference(name)
    expected = decision(reference, T)
    np.testing.assert_allclose(
        values.reshape(expected.shape),
        expected,
        rtol=0,
        atol=1e-10 * max(1.0, np.abs(expected).max()),
    )
    # the pairwise order is libsvm's (0, 1), (0, 2), ..., (1, 2), ...
    if machines.kind == "ovo":
        c = len(model.classes_)
        assert [tuple(p) for p in machines.pairs] == [
            (i, j) for i in range(c) for j in range(i + 1, c)
        ]
    # the un-reduced expansions in the reduced machine's shell: same decision
    # (in the model's own shape) and the same labels
    e = machines.expansion
    exact = ReducedSetResult(e.support, e.coef, e.kernel, np.zeros(len(e)), e.norm2(), "none")
    shell = _reduced_shell(machines, exact, model)
    for X in (T, training_data(name)[0]):
        expected = decision(model, X)
        np.testing.assert_allclose(
            decision(shell, X), expected, rtol=0, atol=1e-10 * max(1.0, np.abs(expected).max())
        )
        if name != "svr":
            np.testing.assert_array_equal(shell.predict(X), model.predict(X))


def test_model_fitted_on_sparse_data():
    import scipy.sparse as sp

    model = SVC(gamma=0.4, decision_function_shape="ovo").fit(sp.csr_matrix(X3), Y3)
    np.testing.assert_allclose(
        svm_expansion(model).decision_values(T),
        model.decision_function(sp.csr_matrix(T)),
        atol=1e-10,
    )
    small = reduce_svm(model, 2, X=sp.csr_matrix(X3), y=Y3, random_state=0)
    np.testing.assert_array_equal(small.predict(sp.csr_matrix(T)), small.predict(T))


# ---------------------------------------------------------------------------
# a reduction that removes nothing gives back the original machine
# ---------------------------------------------------------------------------


# The sigmoid kernel is not positive definite: the reduced-set problem is
# ill-posed there (see test_sigmoid_kernel_warns).
@pytest.mark.parametrize("name", [m for m in MODELS if m != "ovo4_sigmoid"])
def test_selection_of_every_support_vector_is_the_original(name):
    model = make_model(name)
    small = reduce_svm(model, total_support(model), method="selection_kpca")
    assert not small.threshold_recomputed_
    for X in (T, training_data(name)[0]):
        expected = decision(model, X)
        np.testing.assert_allclose(
            decision(small, X), expected, rtol=0, atol=1e-8 * max(1.0, np.abs(expected).max())
        )
        if name != "svr":
            np.testing.assert_array_equal(small.predict(X), model.predict(X))
    np.testing.assert_allclose(small.approximation_error_, 0, atol=1e-8)
    if isinstance(model, SVC) and len(model.classes_) > 2:
        # the other shape convention and its predictions
        other = {"ovr": "ovo", "ovo": "ovr"}[model.decision_function_shape]
        ref = make_model(name, decision_function_shape=other)
        small.set_params(decision_function_shape=other)
        np.testing.assert_allclose(small.decision_function(T), ref.decision_function(T), atol=1e-8)
        np.testing.assert_array_equal(small.predict(T), ref.predict(T))


def test_sigmoid_kernel_warns():
    with pytest.warns(NumericalWarning, match="not positive definite"):
        reduce_svm(make_model("ovo4_sigmoid"), 2, method="selection_kpca")


def test_break_ties_follows_svc():
    model = SVC(gamma=0.4, break_ties=True).fit(X4, Y4)
    small = reduce_svm(model, model.support_vectors_.shape[0], method="selection_kpca")
    assert small.break_ties
    np.testing.assert_array_equal(small.predict(T), model.predict(T))


# ---------------------------------------------------------------------------
# same inputs, same output shapes and dtypes as the original
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["binary", "binary_labels", "ovo3", "ovo3_linear", "ovr3", "ovr2", "svr"]
)
def test_outputs_have_the_originals_shapes_and_dtypes(name):
    model = make_model(name)
    small = reduce_svm(model, 3, random_state=0)
    d = model.n_features_in_
    for X in (T, T[:1], T.astype(np.float32), T[:2].tolist(), np.zeros((1, d), dtype=int)):
        for method in ("predict", "decision_function", "score"):
            if method == "decision_function" and name == "svr":
                continue
            if method == "score":
                if len(X) < 2:
                    continue  # R² needs two samples
                y = model.predict(X)
                assert isinstance(small.score(X, y), float)
                continue
            ours, theirs = getattr(small, method)(X), getattr(model, method)(X)
            assert ours.shape == theirs.shape, (method, ours.shape, theirs.shape)
            assert ours.dtype == theirs.dtype, (method, ours.dtype, theirs.dtype)
    if isinstance(model, SVC) and len(model.classes_) > 2:
        other = {"ovr": "ovo", "ovo": "ovr"}[model.decision_function_shape]
        small.set_params(decision_function_shape=other)
        theirs = make_model(name, decision_function_shape=other).decision_function(T[:1])
        assert small.decision_function(T[:1]).shape == theirs.shape


# ---------------------------------------------------------------------------
# thresholds
# ---------------------------------------------------------------------------


def brute_classification_threshold(values, y_sign, b0):
    """The rule, by scanning a grid much finer than the gaps between the
    switching points −g_i (all on a 0.1 lattice)."""
    t = np.unique(-values)
    grid = np.arange(t.min() - 3, t.max() + 3, 0.01) + 0.005
    errors = ((y_sign[None, :] * (values[None, :] + grid[:, None])) <= 0).sum(axis=1)
    optimal = grid[errors == errors.min()]
    nearest = optimal[np.argmin(np.abs(optimal - b0))]
    lo, hi = t[t < nearest], t[t > nearest]
    if lo.size and hi.size:
        return (lo.max() + hi.min()) / 2, errors.min()
    end = lo.max() if lo.size else hi.min()
    inside = (b0 > end) if lo.size else (b0 < end)
    return (b0 if inside else (end + 1 if lo.size else end - 1)), errors.min()


@pytest.mark.parametrize("seed", range(12))
def test_classification_threshold_matches_brute_force(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 30))
    values = np.round(rng.normal(scale=2.0, size=n), 1)
    y_sign = rng.choice([-1, 1], size=n)
    if seed % 4 == 0:
        y_sign[:] = 1  # unbounded optimum
    if seed % 4 == 1:
        y_sign = np.where(values + 0.3 > 0, 1, -1)  # separable
    b0 = float(np.round(rng.normal(scale=2.0), 2)) + 0.001
    b = classification_threshold(values, y_sign, b0)
    expected, min_errors = brute_classification_threshold(values, y_sign, b0)
    assert b == pytest.approx(expected, abs=1e-12)
    assert ((y_sign * (values + b)) <= 0).sum() == min_errors


def test_classification_threshold_edge_cases():
    assert classification_threshold([], [], 0.7) == 0.7
    # b0 inside the optimal interval: its midpoint, not b0
    assert classification_threshold([-1.0, 1.0], [-1, 1], 0.9) == 0.0


def epsilon_loss(residuals, b, epsilon):
    return np.maximum(
        np.abs(np.asarray(residuals)[None, :] - np.atleast_1d(b)[:, None]) - epsilon, 0
    ).sum(axis=1)


@pytest.mark.parametrize("seed", range(12))
def test_epsilon_threshold_matches_brute_force(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 25))
    # integer residuals and ε on a 0.5 lattice: every breakpoint and loss exact
    r = rng.integers(-10, 10, size=n).astype(float)
    epsilon = 0.5 * int(rng.integers(0, 6))
    b = epsilon_insensitive_threshold(r, epsilon)
    breaks = np.concatenate([r - epsilon, r + epsilon])
    losses = epsilon_loss(r, breaks, epsilon)
    minimisers = breaks[losses == losses.min()]
    assert b == (minimisers.min() + minimisers.max()) / 2
    assert epsilon_loss(r, b, epsilon)[0] == losses.min()
    # and no point of a fine grid does better
    grid = np.linspace(r.min() - 3, r.max() + 3, 2001)
    assert epsilon_loss(r, b, epsilon)[0] <= epsilon_loss(r, grid, epsilon).min() + 1e-9


def test_epsilon_threshold_real_residuals():
    r = np.random.default_rng(7).standard_t(2, size=101)
    for epsilon in (0.0, 0.1, 1.0):
        b = epsilon_insensitive_threshold(r, epsilon)
        breaks = np.concatenate([r - epsilon, r + epsilon])
        assert epsilon_loss(r, b, epsilon)[0] <= epsilon_loss(r, breaks, epsilon).min() + 1e-12
    assert epsilon_insensitive_threshold(r, 0.0) == pytest.approx(np.median(r))


@pytest.mark.parametrize("name", ["binary", "ovo3", "ovr3", "svr"])
def test_recomputed_threshold_is_no_worse_on_the_training_set(name):
    model = make_model(name)
    X, y = training_data(name)
    small = reduce_svm(model, 2, X=X, y=y, random_state=0)
    assert small.threshold_recomputed_
    g = small.reduced_set_.evaluate(X)  # no threshold
    if name == "svr":
        kept = epsilon_loss(y - g[:, 0], small.original_intercept_, model.epsilon)[0]
        new = epsilon_loss(y - g[:, 0], small.intercept_, model.epsilon)[0]
        assert new <= kept + 1e-12
        return
    index = np.searchsorted(model.classes_, y)
    machines = svm_expansion(model)
    for k, (positive, negative) in enumerate(machines.pairs):
        rows = (
            ((index == positive) | (index == negative))
            if machines.kind == "ovo"
            else np.ones(len(y), bool)
        )
        s = np.where(index[rows] == positive, 1, -1)

        def errors(b, k=k, rows=rows, s=s):
            return int((s * (g[rows, k] + b) <= 0).sum())

        assert errors(small.intercept_[k]) <= errors(small.original_intercept_[k])


# ---------------------------------------------------------------------------
# reduction quality
# ---------------------------------------------------------------------------


def test_construction_error_decreases_and_bounds_the_decision_change():
    model = make_model("binary")
    errors = []
    for p in (1, 2, 4, 8):
        small = reduce_svm(model, p, random_state=0)
        errors.append(small.approximation_error_[0])
        # |g − g'| ≤ √(ρ k(x, x)), k(x, x) = 1 for the Gaussian kernel
        change = np.abs(small.decision_function(T) - model.decision_function(T))
        assert change.max() <= np.sqrt(small.approximation_error_[0]) + 1e-7
    assert np.all(np.diff(errors) <= 1e-10 * errors[0]), errors
    assert errors[-1] < errors[0]


def test_ten_percent_construction_keeps_accuracy_on_two_blobs():
    # Margin fixed before running: the reduced machine (10% of the support
    # vectors, threshold recomputed) may lose at most 5 points of accuracy.
    rng = np.random.default_rng(11)

    def sample(n):
        y = rng.integers(0, 2, size=n)
        return rng.normal(size=(n, 2)) + np.where(y[:, None] == 1, 2.0, -2.0) * [1, 0], y

    X, y = sample(200)
    X_test, y_test = sample(400)
    model = SVC(gamma=0.5).fit(X, y)
    p = max(1, int(np.ceil(0.1 * model.support_vectors_.shape[0])))
    small = reduce_svm(model, p, X=X, y=y, random_state=0)
    assert small.n_vectors_ <= p
    assert small.score(X_test, y_test) >= model.score(X_test, y_test) - 0.05


@pytest.mark.parametrize("method", ["construction", "selection_kpca", "selection_l1"])
def test_multiclass_reduction_runs_every_method(method):
    model = make_model("ovo3")
    options = {"random_state": 0} if method == "construction" else {}
    small = reduce_svm(model, 4, method=method, shared=False, X=X3, y=LABELS[Y3], **options)
    assert small.dual_coef_.shape == (3, small.n_vectors_)
    assert small.vectors_.shape == (small.n_vectors_, 2)
    assert small.n_vectors_ <= 3 * 4
    assert np.all((small.dual_coef_ != 0).sum(axis=1) <= 4)
    assert np.all(small.relative_error_ >= 0)
    shared = reduce_svm(model, 4, method=method, **options)
    assert shared.shared and shared.n_vectors_ <= 4


# ---------------------------------------------------------------------------
# multiclass: one reduced set shared by the machines unless asked otherwise
# ---------------------------------------------------------------------------


def digits_split():
    """400 training and 600 test digits (10 classes, 64 pixels) of
    scikit-learn's bundled set."""
    from sklearn.datasets import load_digits

    X, y = load_digits(return_X_y=True)
    return X[:400], y[:400], X[1000:1600], y[1000:1600]


def brute_ovo(model, small, X):
    """The reduced one-vs-one machines evaluated term by term with
    scikit-learn's rbf_kernel, and libsvm's vote (ties to the lowest class)."""
    values = (
        rbf_kernel(X, small.vectors_, gamma=model._gamma) @ small.dual_coef_.T + small.intercept_
    )
    c = len(model.classes_)
    votes = np.zeros((len(X), c), dtype=int)
    for k, (i, j) in enumerate((a, b) for a in range(c) for b in range(a + 1, c)):
        votes[:, i] += values[:, k] > 0
        votes[:, j] += values[:, k] <= 0
    return values, model.classes_[np.argmax(votes, axis=1)]


@pytest.mark.slow
def test_multiclass_reduction_is_shared_and_no_larger_than_the_original():
    # Ten digit classes, 45 one-vs-one machines. Reducing each machine to 50
    # vectors on its own (the per-machine default of earlier versions) gave
    # 45 × 50 = 2,250 vectors for 251 support vectors: a "reduced" model 9×
    # larger and slower than the original. Shared, 50 vectors serve all 45.
    X, y, X_test, y_test = digits_split()
    model = SVC().fit(X, y)
    n_support = model.support_vectors_.shape[0]
    assert n_support > 50
    with warnings.catch_warnings():  # some pre-image runs stop at max_iter
        warnings.simplefilter("ignore", ConvergenceWarning)
        small = reduce_svm(model, 50, random_state=0)
    assert small.n_vectors_ <= min(50, n_support)
    assert small.shared
    assert small.original_n_support_ == n_support
    assert small.dual_coef_.shape == (45, small.n_vectors_)
    # Margin fixed before running: at most 3 points of test accuracy lost
    # (measured: 0.948 → 0.932, 0.938 and 0.940 for seeds 0, 1, 2).
    assert small.score(X_test, y_test) >= model.score(X_test, y_test) - 0.03
    # the prediction is the reduced expansion's, evaluated term by term
    values, labels = brute_ovo(model, small, X_test)
    np.testing.assert_array_equal(small.predict(X_test), labels)
    small.set_params(decision_function_shape="ovo")
    np.testing.assert_allclose(small.decision_function(X_test), values, rtol=0, atol=1e-10)


@pytest.mark.parametrize(
    "n, make",
    [
        (50, lambda model, X, y: reduce_svm(model, 50, shared=False)),
        (6, lambda model, X, y: reduce_svm(model, 6, "selection_kpca", shared=False, X=X, y=y)),
        (50, lambda model, X, y: ReducedSVC(SVC(), 50, shared=False).fit(X, y)),
    ],
)
def test_per_machine_reduction_no_smaller_than_the_original_is_refused(n, make):
    X, y, _, _ = digits_split()
    model = SVC().fit(X, y)
    message = (
        f"'n_vectors'={n} with 'shared'=False reduces each of the 45 machines on its "
        f"own and pools their vectors: 45 machines × {n} vectors = up to {45 * n:,} "
        "vectors, more than the 251 support vectors of the original, so the reduced "
        f"model would decide no faster; pass shared=True ({n} vectors in all, shared "
        "by every machine) or n_vectors ≤ 5 per machine"
    )
    with pytest.raises(ValueError) as info:
        make(model, X, y)
    assert str(info.value) == message


def test_per_machine_refusal_counts_every_machine_kind():
    # one-vs-rest: 3 machines over the union of their support vectors
    model = make_model("ovr3")
    n_support = total_support(model)
    largest = (n_support - 1) // 3
    with pytest.raises(
        ValueError,
        match=rf"3 machines × {largest + 1} vectors .* the "
        rf"{n_support} support vectors .* n_vectors ≤ "
        rf"{largest} per machine",
    ):
        reduce_svm(model, largest + 1, shared=False)
    assert reduce_svm(model, largest, "selection_kpca", shared=False).n_vectors_ <= 3 * largest
    # a binary machine and an SVR are one machine: any size, shared or not
    for name in ("binary", "svr"):
        model = make_model(name)
        size = total_support(model) + 1
        for shared in (False, True):
            assert reduce_svm(model, size, "selection_kpca", shared=shared).n_vectors_ <= size


def test_per_machine_reduction_that_fits_is_kept():
    X, y, X_test, y_test = digits_split()
    model = SVC().fit(X, y)
    small = reduce_svm(model, 2, shared=False, X=X, y=y, random_state=0)
    assert not small.shared
    assert small.n_vectors_ <= 45 * 2 < small.original_n_support_
    assert np.all((small.dual_coef_ != 0).sum(axis=1) <= 2)
    values, labels = brute_ovo(model, small, X_test)
    np.testing.assert_array_equal(small.predict(X_test), labels)
    small.set_params(decision_function_shape="ovo")
    np.testing.assert_allclose(small.decision_function(X_test), values, rtol=0, atol=1e-10)


# ---------------------------------------------------------------------------
# kernel PCA
# ---------------------------------------------------------------------------


def kpca_models():
    X = blobs([20, 25], seed=5)[0]
    return X, [
        KernelPCA(kernel="rbf", n_components=3, gamma=0.3).fit(X),
        SklearnKernelPCA(n_components=3, kernel="rbf", gamma=0.3).fit(X),
        SklearnKernelPCA(n_components=2, kernel="poly", degree=2, gamma=0.2, coef0=1.0).fit(X),
    ]


def test_kernel_pca_expansion_plus_offset_is_transform():
    X, models = kpca_models()
    for kpca in models:
        expansion, offset = kernel_pca_expansion(kpca)
        for Z in (T, X):
            np.testing.assert_allclose(
                expansion.cross(Z).T + offset, kpca.transform(Z), rtol=0, atol=1e-10
            )


def test_reduced_kernel_pca_error_shrinks_with_n_vectors():
    X, models = kpca_models()
    kpca = models[0]
    reference = kpca.transform(T)
    largest = []
    for p in (2, 4, 8):
        small = reduce_kernel_pca(kpca, p, random_state=0)
        assert small.n_vectors_ <= p
        rho = small.approximation_error_
        # Cauchy–Schwarz, k(x, x) = 1: each coordinate within √ρ_k
        diff = np.abs(small.transform(T) - reference)
        assert np.all(diff <= np.sqrt(rho)[None, :] + 1e-7)
        largest.append(rho)
    largest = np.array(largest)
    assert np.all(np.diff(largest, axis=0) <= 1e-10)
    exact = reduce_kernel_pca(kpca, X.shape[0], method="selection_kpca")
    np.testing.assert_allclose(exact.transform(T), reference, atol=1e-8)


def test_reduced_sklearn_kernel_pca():
    X, models = kpca_models()
    for kpca in models[1:]:
        small = reduce_kernel_pca(kpca, 6, random_state=0)
        out = small.transform(T)
        assert out.shape == kpca.transform(T).shape
        diag = {"rbf": np.ones(len(T)), "poly": (0.2 * (T**2).sum(1) + 1.0) ** 2}[kpca.kernel]
        bound = np.sqrt(small.approximation_error_)[None, :] * np.sqrt(diag)[:, None]
        assert np.all(np.abs(out - kpca.transform(T)) <= bound * (1 + 1e-6) + 1e-7)


# ---------------------------------------------------------------------------
# fit: the estimators fit a clone of the machine and reduce it, exactly as
# the functions reduce a machine fitted already
# ---------------------------------------------------------------------------


def _same_reduction(fitted, made):
    for name in (
        "vectors_",
        "dual_coef_",
        "intercept_",
        "original_intercept_",
        "approximation_error_",
    ):
        np.testing.assert_array_equal(getattr(fitted, name), getattr(made, name), err_msg=name)
    assert fitted.n_vectors_ == made.n_vectors_
    assert fitted.original_n_support_ == made.original_n_support_
    assert fitted.threshold_recomputed_ and made.threshold_recomputed_


@pytest.mark.parametrize("name", ["binary_labels", "ovo3", "ovo4", "ovr3", "svr"])
@pytest.mark.parametrize("method", ["construction", "selection_kpca", "selection_l1"])
def test_fit_reduces_as_reduce_svm_does(name, method):
    factory, X, y = SETUPS[name]
    Reduced = ReducedSVR if name == "svr" else ReducedSVC
    options = {"random_state": 0} if method == "construction" else {}
    template = factory()
    fitted = Reduced(
        template,
        3,
        method=method,
        method_params={"n_starts": 4} if method == "construction" else None,
        **options,
    ).fit(X, y)
    extra = {"n_starts": 4} if method == "construction" else {}
    made = reduce_svm(factory().fit(X, y), 3, method, X=X, y=y, **options, **extra)
    _same_reduction(fitted, made)
    np.testing.assert_array_equal(decision(fitted, T), decision(made, T))
    if name != "svr":
        np.testing.assert_array_equal(fitted.predict(T), made.predict(T))
    # the machine given is a template: cloned, never fitted itself
    assert not hasattr(template, "support_vectors_") and not hasattr(template, "estimators_")


def test_fit_with_default_svc_is_reduce_svm_of_a_default_svc():
    X, y = training_data("ovo3")
    fitted = ReducedSVC(SVC(C=10), 5, random_state=0).fit(X, y)
    made = reduce_svm(SVC(C=10).fit(X, y), 5, X=X, y=y, random_state=0)
    np.testing.assert_array_equal(fitted.decision_function(T), made.decision_function(T))
    default = ReducedSVC(n_vectors=5, random_state=0).fit(X, y)
    np.testing.assert_array_equal(
        default.decision_function(T),
        reduce_svm(SVC().fit(X, y), 5, X=X, y=y, random_state=0).decision_function(T),
    )
    svr = ReducedSVR(n_vectors=4, random_state=0).fit(XR, YR)
    np.testing.assert_array_equal(
        svr.predict(T), reduce_svm(SVR().fit(XR, YR), 4, X=XR, y=YR, random_state=0).predict(T)
    )


def test_reduce_svm_says_how_it_was_made():
    model = make_model("ovo3", decision_function_shape="ovo", break_ties=False)
    small = reduce_svm(model, 3, "construction", shared=True, random_state=5, n_starts=2)
    assert small.get_params() == dict(
        estimator=None,
        n_vectors=3,
        method="construction",
        shared=True,
        method_params={"n_starts": 2},
        random_state=5,
        decision_function_shape="ovo",
        break_ties=False,
    )
    assert not small.threshold_recomputed_
    # its parameters make the same reduction again with fit
    again = clone(small).set_params(estimator=make_model("ovo3")).fit(*training_data("ovo3"))
    assert again.n_vectors_ == small.n_vectors_
    assert reduce_svm(make_model("svr"), 2, "selection_kpca").get_params() == dict(
        estimator=None,
        n_vectors=2,
        method="selection_kpca",
        shared=True,
        method_params=None,
        random_state=None,
    )


@pytest.mark.filterwarnings("ignore::preimage.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("name", ["binary_labels", "ovo3", "ovr3", "svr"])
@pytest.mark.parametrize("given", [True, False])
def test_reduce_svm_of_a_pipeline_is_its_last_step_reduced_by_hand(name, given):
    factory, X, y = SETUPS[name]

    def decision(model, X):  # a pipeline has the methods of its last step
        return model.predict(X) if name == "svr" else model.decision_function(X)

    pipe = Pipeline([("scale", StandardScaler()), ("svm", factory())]).fit(X, y)
    steps, scale, svm = list(pipe.steps), pipe[0], pipe[-1]
    before = decision(pipe, T)
    data = dict(X=X, y=y) if given else {}
    small = reduce_svm(pipe, 3, random_state=0, n_starts=2, **data)
    # by hand: the SVM reduced where its support vectors live, X mapped there too
    data = dict(X=scale.transform(X), y=y) if given else {}
    hand = reduce_svm(svm, 3, random_state=0, n_starts=2, **data)
    assert isinstance(small, Pipeline) and [n for n, _ in small.steps] == ["scale", "svm"]
    assert small[0] is scale and small[-1].threshold_recomputed_ == given
    np.testing.assert_allclose(decision(small, T), decision(hand, scale.transform(T)), atol=1e-12)
    np.testing.assert_array_equal(small.predict(T), hand.predict(scale.transform(T)))
    # the original pipeline is untouched
    assert pipe.steps == steps and pipe[-1] is svm
    np.testing.assert_array_equal(decision(pipe, T), before)


def test_reduce_svm_of_a_pipeline_of_the_svm_alone_is_reducing_the_svm():
    X, y = training_data("ovo3")
    svm = make_model("ovo3")
    alone = reduce_svm(Pipeline([("svm", svm)]), 3, "selection_kpca", X=X, y=y)
    hand = reduce_svm(svm, 3, "selection_kpca", X=X, y=y)
    np.testing.assert_array_equal(alone.decision_function(T), hand.decision_function(T))


def test_reduce_svm_refuses_an_unfitted_pipeline_or_one_not_ending_in_an_svm():
    with pytest.raises(NotFittedError, match=r"^'model' is not fitted \(Pipeline\)"):
        reduce_svm(make_pipeline(StandardScaler(), SVC()), 2)
    pipe = make_pipeline(StandardScaler(), LogisticRegression()).fit(X3, Y3)
    with pytest.raises(TypeError) as info:
        reduce_svm(pipe, 2, X=X3, y=Y3)
    assert str(info.value) == (
        "'model[-1]' must be a fitted sklearn.svm.SVC, sklearn.svm.SVR or "
        "OneVsRestClassifier of binary SVCs, got LogisticRegression"
    )


@pytest.mark.filterwarnings("ignore::preimage.exceptions.ConvergenceWarning")
def test_reduced_svc_in_a_pipeline_is_fit_on_the_transformed_data():
    X, y = training_data("ovo3")
    pipe = make_pipeline(StandardScaler(), ReducedSVC(SVC(C=10), 4, random_state=0)).fit(X, y)
    hand = ReducedSVC(SVC(C=10), 4, random_state=0).fit(StandardScaler().fit_transform(X), y)
    np.testing.assert_array_equal(
        pipe.decision_function(T), hand.decision_function(pipe[0].transform(T))
    )


def test_fit_with_sparse_data_is_fit_with_dense_data():
    import scipy.sparse as sp

    X, y = training_data("ovo3")
    dense = ReducedSVC(n_vectors=2, random_state=0).fit(X, y)
    sparse = ReducedSVC(n_vectors=2, random_state=0).fit(sp.csr_matrix(X), y)
    np.testing.assert_array_equal(
        sparse.decision_function(sp.csr_matrix(T)), dense.decision_function(T)
    )


def test_fit_reduced_kernel_pca_is_reduce_kernel_pca():
    X = kpca_models()[0]
    for template in (
        KernelPCA(kernel="rbf", n_components=3, gamma=0.3),
        SklearnKernelPCA(n_components=2, kernel="poly", degree=2, gamma=0.2, coef0=1.0),
    ):
        fitted = ReducedKernelPCA(template, 5, random_state=0).fit(X)
        made = reduce_kernel_pca(clone(template).fit(X), 5, random_state=0)
        for attr in ("vectors_", "dual_coef_", "intercept_", "approximation_error_"):
            np.testing.assert_array_equal(getattr(fitted, attr), getattr(made, attr))
        np.testing.assert_array_equal(fitted.transform(T), made.transform(T))
        assert fitted.n_components_ == made.n_components_
    assert made.get_params() == dict(
        estimator=None,
        n_vectors=5,
        method="construction",
        shared=True,
        method_params=None,
        random_state=0,
    )
    # the default is preimage's KernelPCA with its defaults
    np.testing.assert_array_equal(
        ReducedKernelPCA(n_vectors=4, random_state=1).fit(X).transform(T),
        reduce_kernel_pca(
            KernelPCA(kernel="rbf", gamma="total_variance").fit(X), 4, random_state=1
        ).transform(T),
    )
    assert list(ReducedKernelPCA(n_vectors=4).fit(X).get_feature_names_out()[:2]) == [
        "reducedkernelpca0",
        "reducedkernelpca1",
    ]


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: ReducedSVC(SVR()).fit(XR, YR > 0), ValueError, "'estimator'"),
        (lambda: ReducedSVR(SVC()).fit(X3, Y3), ValueError, "'estimator'"),
        (lambda: ReducedSVC(LogisticRegression()).fit(X3, Y3), TypeError, "'estimator'"),
        (lambda: ReducedKernelPCA(SVC()).fit(X3), ValueError, "'estimator'"),
        (lambda: ReducedSVC(n_vectors=0).fit(X3, Y3), ValueError, "'n_vectors'"),
        (lambda: ReducedSVC(method="magic").fit(X3, Y3), ValueError, "'method'"),
        (
            lambda: ReducedSVC(method_params={"random_state": 1}).fit(X3, Y3),
            ValueError,
            "'method_params'",
        ),
        (lambda: ReducedSVC(method_params={"nope": 1}).fit(X3, Y3), TypeError, "nope"),
        (lambda: ReducedSVR().fit(XR, np.full(len(XR), np.nan)), ValueError, "'y'"),
        (lambda: ReducedSVC().predict(T), NotFittedError, r"fit\(X, y\).*reduce_svm"),
        (lambda: ReducedKernelPCA().transform(T), NotFittedError, r"fit\(X\).*reduce_kernel_pca"),
    ],
)
def test_fit_refusals_name_the_argument(call, error, match):
    with pytest.raises(error, match=match):
        call()


# ---------------------------------------------------------------------------
# invalid input: every message names the argument
# ---------------------------------------------------------------------------


def _lr():
    return LogisticRegression().fit(X3, Y3)


@pytest.mark.parametrize(
    "call, error, name",
    [
        (lambda: reduce_svm(SVC(), 2), ValueError, "'model'"),
        (lambda: reduce_svm(SVR(), 2), ValueError, "'model'"),
        (lambda: reduce_svm(_lr(), 2), TypeError, "'model'"),
        (
            lambda: reduce_svm(OneVsRestClassifier(LogisticRegression()).fit(X3, Y3), 2),
            ValueError,
            "'model'",
        ),
        (
            lambda: reduce_svm(SVC(kernel="precomputed").fit(X3 @ X3.T, Y3), 2),
            ValueError,
            "'model'",
        ),
        (lambda: reduce_svm(SVC(kernel=linear_kernel).fit(X3, Y3), 2), ValueError, "'model'"),
        (lambda: reduce_svm(make_model("binary"), 0), ValueError, "'n_vectors'"),
        (lambda: reduce_svm(make_model("binary"), 2.5), ValueError, "'n_vectors'"),
        (lambda: reduce_svm(make_model("binary"), 2, X=X3), ValueError, "'y'"),
        (lambda: reduce_svm(make_model("binary"), 2, X=X3[:, :1], y=Y3 == 1), ValueError, "'X'"),
        (lambda: reduce_svm(make_model("ovo3"), 2, X=X3, y=Y3), ValueError, "'y'"),
        (lambda: reduce_svm(make_model("binary"), 2, method="nope"), ValueError, "'method'"),
        (lambda: reduce_svm(make_model("binary"), 2).predict(T[:, :1]), ValueError, "'X'"),
        (lambda: reduce_svm(make_model("svr"), 2).predict(np.ones((2, 3))), ValueError, "'X'"),
        (lambda: reduce_svm(make_model("ovo3"), 2).decision_function(T[0]), ValueError, "'X'"),
        (lambda: reduce_svm(make_model("binary"), 2).predict([[np.nan, 0.0]]), ValueError, "'X'"),
        (lambda: ReducedSVC().predict(T), ValueError, "reduce_svm"),
        (
            lambda: reduce_kernel_pca(KernelPCA(kernel="rbf", gamma="total_variance"), 2),
            ValueError,
            "'kpca'",
        ),
        (lambda: reduce_kernel_pca(SVC().fit(X3, Y3), 2), TypeError, "'kpca'"),
        (
            lambda: reduce_kernel_pca(SklearnKernelPCA(kernel="cosine").fit(X3), 2),
            ValueError,
            "'kpca'",
        ),
        (
            lambda: reduce_kernel_pca(KernelPCA(kernel="precomputed").fit(X3 @ X3.T), 2),
            ValueError,
            "'kpca'",
        ),
        (lambda: reduce_kernel_pca(kpca_models()[1][0], -1), ValueError, "'n_vectors'"),
        (lambda: reduce_kernel_pca(kpca_models()[1][0], 3).transform(T[:, :1]), ValueError, "'X'"),
        (lambda: classification_threshold([0.0, 1.0], [0, 1], 0.0), ValueError, "'y_sign'"),
        (lambda: classification_threshold([0.0, 1.0], [1, -1], np.nan), ValueError, "'b0'"),
        (lambda: epsilon_insensitive_threshold([0.0], -0.1), ValueError, "'epsilon'"),
        (lambda: epsilon_insensitive_threshold([], 0.1), ValueError, "'residuals'"),
    ],
)
def test_invalid_input_names_the_argument(call, error, name):
    with pytest.raises(error, match=name):
        call()


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: reduce_svm(SVC(kernel="precomputed").fit(X3 @ X3.T, Y3), 2), "'model'"),
        (lambda: reduce_svm(SVR(kernel=linear_kernel).fit(X3, X3[:, 0]), 2), "'model'"),
        (lambda: svm_expansion(SVC(kernel=linear_kernel).fit(X3, Y3)), "'model'"),
        (
            lambda: reduce_svm(OneVsRestClassifier(SVC(kernel=linear_kernel)).fit(X3, Y3), 2),
            "'model'",
        ),
        (lambda: ReducedSVC(SVC(kernel="precomputed"), 2).fit(X3, Y3), "'estimator'"),
        (lambda: ReducedSVR(SVR(kernel=linear_kernel), 2).fit(X3, X3[:, 0]), "'estimator'"),
    ],
)
def test_precomputed_or_callable_kernel_is_refused_for_what_it_is(call, name):
    # libsvm keeps no support vectors for such a kernel: it was refused as having none (it
    # has some), or, for ReducedSVC's estimator, by libsvm's "square matrix" check.
    with pytest.raises(ValueError) as info:
        call()
    message = str(info.value)
    assert message.startswith(f"{name} has ") and "cannot be reduced" in message, message
    assert "support vectors" not in message and "['rbf', 'poly', 'sigmoid', 'linear']" in message
