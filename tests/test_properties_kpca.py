"""Property tests of kernel PCA, the denoiser, Nyström and model files.

Every public entry point of the kernel PCA family is run on random data of
random shape and dtype (0, 1 or a few rows, 0 columns, NaN, inf, huge and
tiny values, duplicated rows, constant columns) and random, often absurd,
parameters, under the contract of :mod:`contract`: finite output of the
documented shape, or a ValueError/TypeError that names the argument.

Sizes stay small (at most 10 rows × 4 columns) so the file runs in well
under a minute with the ``default`` Hypothesis profile.
"""

import os
import tempfile
import warnings

from contract import check_contract, data_arrays
from hypothesis import given, settings, strategies as st
import numpy as np
import pytest

from preimage import (
    PREIMAGE_METHODS,
    FeatureExpansion,
    KernelPCA,
    KernelPCADenoiser,
    MemoryBudgetError,
    NumericalWarning,
    PreimageResult,
    config_context,
    load_model,
    save_model,
)
from preimage._utils.eigen import EIGEN_SOLVERS, landmark_basis
from preimage.kernels import GaussianKernel, PolynomialKernel, make_kernel
import preimage.kpca as kpca_functions
from preimage.kpca._guards import drop_rounding_level
from preimage.kpca._nystroem import select_landmarks
from preimage.kpca._result import leading_components

KERNELS = ["rbf", "laplacian", "poly", "linear", "sigmoid", "sine"]
GAMMAS = [None, 0.0, -1.0, 1e-300, 1e-12, 0.3, 1.0, 1e300, float("nan"), float("inf")]
LANDMARKS = list(kpca_functions.LANDMARK_METHODS)
DTYPES = ["float64", "float32", "int64", "bool", "object"]
ITERATIVE = ("fixed_point", "gradient")


def fewer_examples(fraction):
    """A fraction of the profile's examples (default 30, long 600), for the
    slower properties."""
    return settings(max_examples=max(5, round(settings.default.max_examples * fraction)))


# Data for fitting and for transforming: at most 10 rows and 4 columns.
adversarial_data = data_arrays(max_rows=10, max_cols=4, dtypes=DTYPES)
test_data = data_arrays(max_rows=4, max_cols=4, dtypes=DTYPES)
# Finite float data, for the cases that must fit (huge values stay).
finite_data = data_arrays(
    min_rows=2,
    max_rows=10,
    min_cols=1,
    max_cols=4,
    finite=True,
    dtypes=["float64", "float32", "int64", "bool"],
)
# Ordinary values only (still duplicated rows and constant columns).
plain_data = data_arrays(
    min_rows=2,
    max_rows=10,
    min_cols=1,
    max_cols=4,
    adversarial=False,
    dtypes=["float64", "float32", "int64", "bool"],
)


@st.composite
def spread_data(draw):
    """Gaussian points of random scale and dtype, with a duplicated row or
    a constant column now and then: data that kernel PCA should fit."""
    n, d = draw(st.integers(2, 10)), draw(st.integers(1, 4))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    X = rng.normal(size=(n, d)) * draw(st.sampled_from([1e-3, 1.0, 1e3]))
    if draw(st.booleans()):
        X[-1] = X[0]
    if d > 1 and draw(st.booleans()):
        X[:, 0] = X[0, 0]
    return X.astype(draw(st.sampled_from(["float64", "float32"])))


fit_data = st.one_of(adversarial_data, finite_data, plain_data, spread_data())
# Finite data, mostly fittable.
fittable_data = st.one_of(finite_data, plain_data, spread_data())


@st.composite
def rows_for(draw, X):
    """Data to transform after fitting on X: anything (any width, NaN,
    objects), or rows as wide as X."""
    if X.ndim != 2 or draw(st.booleans()):
        return draw(test_data)
    d = X.shape[1]
    return draw(
        data_arrays(
            min_rows=1,
            max_rows=4,
            min_cols=d,
            max_cols=d,
            adversarial=draw(st.booleans()),
            dtypes=["float64", "float32", "int64", "bool"],
        )
    )


@st.composite
def kpca_params(draw, *, nystroem_fit=None, sane=None):
    """Parameters of KernelPCA; absurd ones unless `sane` (None: either)."""
    if sane is None:
        sane = draw(st.booleans())
    if sane:
        params = {
            "n_components": draw(st.one_of(st.none(), st.integers(1, 3))),
            "kernel": draw(st.sampled_from(["rbf", "poly", "linear"])),
            "gamma": draw(st.sampled_from([None, 0.3, 1.0])),
        }
    else:
        params = {
            "n_components": draw(st.one_of(st.none(), st.integers(-1, 14))),
            "kernel": draw(st.sampled_from(KERNELS)),
            "gamma": draw(st.sampled_from(GAMMAS)),
        }
    params["random_state"] = draw(st.integers(0, 3))
    params["eigen_solver"] = draw(st.sampled_from(EIGEN_SOLVERS))
    use_landmarks = draw(st.booleans()) if nystroem_fit is None else nystroem_fit
    if use_landmarks:
        params["n_landmarks"] = draw(st.integers(1, 6) if sane else st.integers(-1, 12))
        params["landmarks"] = draw(st.sampled_from(LANDMARKS))
    return params


def _shape(expected):
    return lambda out: _assert_shape(out, expected)


def _assert_shape(out, expected):
    assert np.shape(out) == tuple(expected), f"shape {np.shape(out)}, expected {expected}"


def _fitted_kpca(params):
    """Shape check of a fitted KernelPCA: n_components of them when it was
    given (clipped to n_samples for exact kernel PCA, as scikit-learn does),
    q ≥ 1 with landmarks (exact kernel PCA of data with one image in feature
    space has none, as scikit-learn's), finite non-negative eigenvalues and
    finite axes."""

    def check(est):
        q = est.eigenvalues_.shape[0]
        nystroem = params.get("n_landmarks") is not None
        assert q >= 1 or not nystroem
        if params.get("n_components") is not None:
            assert q == (
                params["n_components"]
                if nystroem
                else min(params["n_components"], est.X_fit_.shape[0])
            )
        assert np.all(np.isfinite(est.eigenvalues_)) and np.all(est.eigenvalues_ >= 0)
        assert np.all(np.isfinite(est.fit_result_.coef))
        assert est.fit_result_.coef.shape == (est.X_fit_.shape[0], q)

    return check


def _expansion_shape(m, est):
    """Coefficients and norms of m expansions over the estimator's support."""

    def check(out):
        coef, norm2 = out
        assert coef.shape == (m, est.X_fit_.shape[0]) and norm2.shape == (m,)

    return check


def _arrays(psi, keep):
    """The arrays of a FeatureExpansion (for the contract's finiteness check);
    the expansion itself is appended to `keep`."""
    assert isinstance(psi, FeatureExpansion)
    keep.append(psi)
    return psi.coef, psi.norm2()


def _fit_kpca(X, params):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumericalWarning)
        warnings.simplefilter("ignore", UserWarning)
        return check_contract(lambda: KernelPCA(**params).fit(X), _fitted_kpca(params))


# ---------------------------------------------------------------------------
# KernelPCA
# ---------------------------------------------------------------------------


@given(data=st.data(), X=fit_data, params=kpca_params())
def test_kernel_pca_fit_transform(data, X, params):
    T = data.draw(rows_for(X))
    est = _fit_kpca(X, params)
    if est is None:
        return
    q = est.eigenvalues_.shape[0]
    check_contract(lambda: KernelPCA(**params).fit_transform(X), (X.shape[0], q))
    check_contract(lambda: est.transform(X), (X.shape[0], q))
    # T may be of another width, dtype or hold NaN: finite or named
    check_contract(lambda: est.transform(T), (T.shape[0], q))


@fewer_examples(0.5)
@given(
    data=st.data(),
    X=fittable_data,
    params=kpca_params(),
    method=st.sampled_from(sorted(PREIMAGE_METHODS)),
    add_mean=st.booleans(),
)
def test_kernel_pca_inverse_transform(data, X, params, method, add_mean):
    T = data.draw(rows_for(X))
    est = _fit_kpca(X, params)
    if est is None:
        return
    d = X.shape[1]
    Y = check_contract(lambda: est.transform(T), (T.shape[0], est.eigenvalues_.shape[0]))
    if Y is None:
        return
    x0 = T if method in ITERATIVE else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumericalWarning)
        check_contract(
            lambda: est.inverse_transform(Y, method=method, add_mean=add_mean, x0=x0),
            (T.shape[0], d),
        )
        result = check_contract(
            lambda: est.inverse_transform(
                Y, method=method, add_mean=add_mean, x0=x0, return_result=True
            ),
            lambda r: isinstance(r, PreimageResult) and _assert_shape(r.x, (T.shape[0], d)),
        )
    if result is not None:
        assert np.all(np.isfinite(result.distance2))


@fewer_examples(0.67)
@given(
    data=st.data(),
    X=fittable_data,
    Y=test_data,
    params=kpca_params(),
    n=st.one_of(st.none(), st.integers(-1, 12)),
    add_mean=st.booleans(),
)
def test_kernel_pca_project_and_expansion(data, X, Y, params, n, add_mean):
    T = data.draw(rows_for(X))
    est = _fit_kpca(X, params)
    if est is None:
        return
    keep = []
    if check_contract(
        lambda: _arrays(est.project(T, add_mean=add_mean, n_components=n), keep),
        _expansion_shape(T.shape[0], est),
    ):
        check_contract(lambda: keep[0].distance2(T.astype(np.float64)), (T.shape[0],))
    # adversarial coordinates of random width
    check_contract(
        lambda: _arrays(est.expansion_from_components(Y, add_mean=add_mean, n_components=n), keep),
        _expansion_shape(Y.shape[0], est),
    )


@fewer_examples(0.5)
@given(X=fittable_data, Y=test_data, params=kpca_params(sane=True))
def test_kernel_pca_inverse_transform_of_adversarial_coordinates(X, Y, params):
    est = _fit_kpca(X, params)
    if est is None:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumericalWarning)
        for method in ("closed_form", "learned", "fixed_point"):
            check_contract(
                lambda: est.inverse_transform(Y, method=method), (Y.shape[0], X.shape[1])
            )


@pytest.mark.parametrize("n_components", [0, -1, 2.5, True, "3"])
def test_absurd_n_components_is_named(n_components):
    X = np.random.default_rng(0).normal(size=(6, 2))
    assert (
        check_contract(
            lambda: KernelPCA(n_components, kernel="rbf", gamma="total_variance").fit(X)
        )
        is None
    )
    assert check_contract(lambda: KernelPCADenoiser(n_components).fit(X)) is None


@pytest.mark.parametrize("n_landmarks", [None, 4])
def test_more_components_than_samples_is_clipped_or_refused(n_landmarks):
    """Decision: n_components above n_samples is clipped to it, as
    scikit-learn's KernelPCA does; above n_landmarks (Nyström, ours) it is
    refused, naming 'n_components' and the limit."""
    X = np.random.default_rng(0).normal(size=(6, 2))
    if n_landmarks is None:
        est = KernelPCA(7, kernel="rbf", gamma="total_variance").fit(X)
        assert est.eigenvalues_.shape == (6,)
        return
    with pytest.raises(ValueError, match="'n_components' must be <= "):
        KernelPCA(5, kernel="rbf", gamma="total_variance", n_landmarks=n_landmarks).fit(X)


def test_components_beyond_the_rank_are_kept_as_zeros():
    """n_components ≤ n_samples but above the rank of the centred Gram matrix
    (here 6 points, 3 distinct: rank 2): the extra components keep their
    place with a zero eigenvalue and zero coordinates (scikit-learn's
    ``remove_zero_eig=False``, silently, as there), or are dropped with
    ``remove_zero_eig=True``."""
    X = np.repeat(np.random.default_rng(0).normal(size=(3, 2)), 2, axis=0)
    est = KernelPCA(5, kernel="rbf", gamma=0.5).fit(X)
    np.testing.assert_array_equal(est.eigenvalues_[2:], 0)
    Z = est.transform(X)
    assert np.all(np.isfinite(Z)) and np.all(Z[:, 2:] == 0)
    assert KernelPCA(5, kernel="rbf", gamma=0.5, remove_zero_eig=True).fit(X).transform(
        X
    ).shape == (6, 2)


@pytest.mark.parametrize("n_landmarks", [None, 3])
@pytest.mark.parametrize("X", [np.zeros((5, 2)), np.ones((4, 3))], ids=["zeros", "ones"])
def test_all_identical_rows_have_no_component(X, n_landmarks):
    """Exact kernel PCA gives no component with a warning (scikit-learn's
    KernelPCA returns none too); Nyström and the denoiser refuse, naming 'X'."""
    if n_landmarks is None:
        with pytest.warns(NumericalWarning, match="no component"):
            est = KernelPCA(kernel="rbf", gamma="total_variance").fit(X)
        assert est.transform(X).shape == (X.shape[0], 0)
        with pytest.raises(ValueError, match="'X'"), warnings.catch_warnings():
            warnings.simplefilter("ignore", NumericalWarning)
            KernelPCADenoiser().fit(X)
        return
    with pytest.raises(ValueError, match="'X'"):
        KernelPCA(
            kernel="rbf", gamma="total_variance", n_landmarks=n_landmarks, landmarks="kmeans"
        ).fit(X)


@pytest.mark.parametrize("n_landmarks", [None, 4])
@pytest.mark.parametrize("n_components", [None, 2])
def test_tiny_gamma_all_ones_gram_is_refused_naming_gamma(n_components, n_landmarks):
    """γ = 1e-300: every kernel value rounds to 1, the centred Gram matrix is
    zero: no component, never NaN; the denoiser and Nyström refuse it with an
    error naming 'gamma' (exact KernelPCA, like scikit-learn's, keeps no
    component, with a warning)."""
    X = np.random.default_rng(1).normal(size=(8, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumericalWarning)
        with pytest.raises(ValueError, match="'gamma'"):
            KernelPCADenoiser(n_components, gamma=1e-300, n_landmarks=n_landmarks).fit(X)
        if n_landmarks is not None:
            with pytest.raises(ValueError, match="'gamma'"):
                KernelPCA(n_components, kernel="rbf", gamma=1e-300, n_landmarks=n_landmarks).fit(X)
            return
        est = KernelPCA(n_components, kernel="rbf", gamma=1e-300).fit(X)
    assert np.all(est.transform(X) == 0)


@pytest.mark.parametrize("n_landmarks", [None, 5])
def test_huge_gamma_identity_gram_gives_finite_output(n_landmarks):
    X = np.random.default_rng(2).normal(size=(8, 3))
    T = np.random.default_rng(3).normal(size=(3, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumericalWarning)
        est = check_contract(
            lambda: KernelPCA(
                3, kernel="rbf", gamma=1e300, n_landmarks=n_landmarks, random_state=0
            ).fit(X),
            _fitted_kpca({}),
        )
        check_contract(lambda: est.transform(T), (3, 3))
        for method in PREIMAGE_METHODS:
            check_contract(
                lambda: est.inverse_transform(est.transform(T), method=method, x0=T), (3, 3)
            )


def test_a_single_sample_is_refused():
    with pytest.raises(ValueError, match="'X' has n_samples=1"):
        KernelPCA(kernel="rbf", gamma="total_variance").fit(np.ones((1, 3)))


@pytest.mark.parametrize("solver", ["dense", "arpack", "randomized"])
def test_rounding_level_eigenvalues_are_dropped_on_every_path(solver):
    """Duplicated points: the centred Gram matrix has rank 2 of 6. Every
    solver (and Nyström) drops or zeroes the rounding-level eigenvalues
    instead of dividing by them."""
    X = np.repeat(np.random.default_rng(4).normal(size=(3, 2)), 2, axis=0)
    est = KernelPCA(kernel="rbf", gamma=0.5, eigen_solver=solver, random_state=0).fit(X)
    assert est.eigenvalues_.shape == (2,)
    est = KernelPCA(4, kernel="rbf", gamma=0.5, eigen_solver=solver, random_state=0).fit(X)
    assert np.all(est.fit_result_.coef[:, 2:] == 0)
    assert np.abs(est.fit_result_.coef).max() < 1e3


def test_rounding_level_eigenvalues_are_dropped_in_nystroem():
    X = np.random.default_rng(5).normal(size=(30, 1))
    # a linear kernel spans one direction: the other landmark directions are
    # dropped when the basis is built, with a warning
    with pytest.warns(NumericalWarning):
        est = KernelPCA(kernel="linear", n_landmarks=4, random_state=0).fit(X)
    assert est.eigenvalues_.shape == (1,)


@pytest.mark.parametrize(
    "estimator, name, valid",
    [
        (
            lambda: KernelPCA(kernel="rbf", gamma="total_variance", eigen_solver="lapack"),
            "eigen_solver",
            EIGEN_SOLVERS,
        ),
        (
            lambda: KernelPCA(
                kernel="rbf", gamma="total_variance", n_landmarks=3, landmarks="random"
            ),
            "landmarks",
            LANDMARKS,
        ),
        (lambda: KernelPCA(kernel="gauss"), "kernel", ["rbf", "poly", "linear"]),
        (lambda: KernelPCADenoiser(method="newton"), "method", PREIMAGE_METHODS),
    ],
)
def test_unknown_names_list_the_valid_ones(estimator, name, valid):
    X = np.random.default_rng(0).normal(size=(6, 2))
    with pytest.raises(ValueError, match=f"'{name}'") as info:
        estimator().fit(X)
    for option in valid:
        assert option in str(info.value)


def test_unknown_inverse_transform_method_lists_the_valid_ones():
    X = np.random.default_rng(0).normal(size=(6, 2))
    est = KernelPCA(2, kernel="rbf", gamma="total_variance").fit(X)
    with pytest.raises(ValueError, match="'method'") as info:
        est.inverse_transform(est.transform(X), method="newton")
    for option in PREIMAGE_METHODS:
        assert option in str(info.value)


@given(X=fittable_data, width=st.integers(0, 6), params=kpca_params(sane=True))
@fewer_examples(0.33)
def test_width_mismatch_at_transform_names_x(X, width, params):
    est = _fit_kpca(X, params)
    if est is None or width == X.shape[1]:
        return
    with pytest.raises(ValueError, match="'X'"):
        est.transform(np.zeros((2, width)))


# ---------------------------------------------------------------------------
# KernelPCADenoiser
# ---------------------------------------------------------------------------


@st.composite
def denoiser_params(draw, *, sane=None):
    params = draw(kpca_params(sane=sane))
    params.pop("eigen_solver") if draw(st.booleans()) else None
    params["method"] = draw(st.sampled_from(sorted(PREIMAGE_METHODS)))
    params["add_mean"] = draw(st.booleans())
    if draw(st.integers(0, 3)) == 0:  # the count chosen from the data (the default)
        params["n_components"] = "auto"
    if params["method"] == "exact" and sane:
        params["kernel"] = "linear"
    return params


@st.composite
def targets(draw, X):
    """y for fit(X, y): None, labels (ignored), clean versions of X, or
    adversarial arrays of any shape."""
    kind = draw(st.sampled_from(["none", "labels", "clean", "adversarial"]))
    if kind == "none":
        return None
    if kind == "labels":
        return np.arange(X.shape[0])
    if kind == "clean":
        if X.dtype == object:
            return X
        with np.errstate(over="ignore", invalid="ignore"):
            return np.asarray(X, dtype=np.float64) + draw(st.floats(-1, 1))
    return draw(data_arrays(max_rows=10, max_cols=4, dtypes=DTYPES))


@fewer_examples(0.83)
@given(data=st.data(), X=fit_data, params=denoiser_params())
def test_denoiser(data, X, params):
    T = data.draw(rows_for(X))
    y = data.draw(targets(X))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumericalWarning)
        warnings.simplefilter("ignore", UserWarning)
        den = check_contract(lambda: KernelPCADenoiser(**params).fit(X, y))
        if den is None:
            return
        d = X.shape[1]
        for Z in (X, T):
            check_contract(lambda: den.transform(Z), (Z.shape[0], d))
            check_contract(lambda: den.denoise(Z), lambda r: _assert_shape(r.x, (Z.shape[0], d)))
            check_contract(lambda: den.score(Z), ())
        check_contract(lambda: den.score(X, y), ())


@fewer_examples(0.5)
@given(X=fittable_data, params=denoiser_params(sane=True))
def test_denoiser_with_clean_targets(X, params):
    X = np.asarray(X, dtype=np.float64)
    noisy = X + np.random.default_rng(0).normal(scale=0.1, size=X.shape)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumericalWarning)
        den = check_contract(lambda: KernelPCADenoiser(**params).fit(noisy, X))
        if den is not None:
            out = check_contract(lambda: den.transform(noisy), X.shape)
            if out is not None:
                score = check_contract(lambda: den.score(noisy, X), ())
                if score is not None:
                    np.testing.assert_allclose(
                        score, -np.mean(np.sum((out - X) ** 2, axis=1)), rtol=1e-12
                    )


def test_y_errors_name_y():
    X = np.random.default_rng(0).normal(size=(6, 2))
    for y, match in [
        (np.full((6, 2), np.nan), "'y' contains NaN"),
        (np.ones((6, 3)), "'y' has 3 features"),
        (np.ones((5, 2)), "'y' must have one row per row"),
        (np.full((6, 2), 1e300), "'y' holds values up to"),
        (np.full((6, 2), "a", dtype=object), "'y' must hold real numbers"),
    ]:
        with pytest.raises((ValueError, TypeError), match=match):
            KernelPCADenoiser(2).fit(X, y)


def test_validate_estimator_input_names_y():
    from sklearn.base import BaseEstimator

    from preimage._utils.validation import validate_estimator_input

    X = np.random.default_rng(0).normal(size=(6, 2))
    y = np.ones(6)
    y[2] = np.nan
    with pytest.raises(ValueError, match="'y'") as info:
        validate_estimator_input(BaseEstimator(), X, y=y, reset=True)
    assert "'X'" not in str(info.value)
    with pytest.raises(ValueError, match="'y'"):
        validate_estimator_input(
            BaseEstimator(), X, y=np.full(6, 1e300), reset=True, y_numeric=True
        )
    with pytest.raises(ValueError, match="'X'"):
        validate_estimator_input(BaseEstimator(), np.full((6, 2), 1e300), y=np.ones(6), reset=True)


# ---------------------------------------------------------------------------
# preimage.nystroem functions
# ---------------------------------------------------------------------------

KERNEL_OBJECTS = [
    GaussianKernel(gamma=0.5),
    GaussianKernel(gamma=1e-300),
    GaussianKernel(gamma=1e300),
    PolynomialKernel(gamma=0.5, degree=2),
    make_kernel("linear"),
]


@given(
    X=fit_data,
    m=st.integers(-1, 12),
    kernel=st.sampled_from(KERNEL_OBJECTS + [None]),
    method=st.sampled_from(LANDMARKS + ["random"]),
    seed=st.integers(0, 3),
)
def test_select_landmarks(X, m, kernel, method, seed):
    def check(out):
        landmarks, index = out
        assert 1 <= landmarks.shape[0] <= m and landmarks.shape[1] == X.shape[1]
        assert np.all(np.isfinite(landmarks))
        if index is not None:
            assert index.shape == (landmarks.shape[0],)
            np.testing.assert_array_equal(landmarks, np.asarray(X, landmarks.dtype)[index])

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumericalWarning)
        warnings.simplefilter("ignore", UserWarning)
        check_contract(
            lambda: select_landmarks(X, m, kernel, method=method, random_state=seed),
            check,
        )


@given(
    X=fit_data,
    L=test_data,
    n=st.one_of(st.none(), st.integers(-1, 6)),
    kernel=st.sampled_from(KERNEL_OBJECTS),
)
def test_fit_nystroem_kpca(X, L, n, kernel):
    def check(fit):
        # no component when the landmarks' span is 0 or the data have no scatter
        q = fit.eigenvalues.shape[0]
        assert n is None or q == n
        for a in (fit.eigenvalues, fit.coef, fit.mean_coords, fit.mean_coef, fit.K_mean):
            assert np.all(np.isfinite(a))
        assert fit.coef.shape == (L.shape[0], q)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumericalWarning)
        check_contract(lambda: kpca_functions.fit_nystroem_kpca(kernel, X, L, n), check)
        check_contract(
            lambda: landmark_basis(L), lambda W: _assert_shape(W[:, :0], (L.shape[0], 0))
        )


# ---------------------------------------------------------------------------
# preimage.kpca functions on arrays
# ---------------------------------------------------------------------------


@st.composite
def gram_matrices(draw):
    """Gram matrices of random data (symmetric PSD, often rank-deficient),
    or adversarial arrays of any shape."""
    if draw(st.booleans()):
        return draw(data_arrays(max_rows=8, max_cols=8, dtypes=DTYPES))
    X = draw(
        data_arrays(min_rows=1, max_rows=8, min_cols=1, dtypes=["float64"], adversarial=False)
    )
    kernel = draw(st.sampled_from(KERNEL_OBJECTS))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumericalWarning)
        return kernel(np.asarray(X, dtype=np.float64))


@given(
    K=gram_matrices(),
    K_x=test_data,
    Y=test_data,
    n=st.one_of(st.none(), st.integers(-1, 10)),
    solver=st.sampled_from(EIGEN_SOLVERS),
    add_mean=st.booleans(),
)
def test_kpca_functions(K, K_x, Y, n, solver, add_mean):
    N = K.shape[0]

    def check_fit(fit):
        # a zero centred Gram matrix leaves no component (a NumericalWarning)
        q = fit.eigenvalues.shape[0]
        assert n is None or q == n
        assert fit.coef.shape == (N, q) and fit.eigenvectors.shape == (N, q)
        for a in (fit.eigenvalues, fit.coef, fit.mean_coords, fit.K_col_mean, fit.K_mean):
            assert np.all(np.isfinite(a))

    check_contract(
        lambda: kpca_functions.center_gram(K), lambda out: _assert_shape(out[0], (N, N))
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumericalWarning)
        fit = check_contract(
            lambda: kpca_functions.fit_kernel_pca(K, n, eigen_solver=solver, random_state=0),
            check_fit,
        )
    if fit is None or not (fit.eigenvalues > 0).any():
        return
    q = fit.eigenvalues.shape[0]
    check_contract(
        lambda: kpca_functions.center_block(K_x, fit.K_col_mean, fit.K_mean), (K_x.shape[0], N)
    )
    check_contract(lambda: kpca_functions.transform_block(K_x, fit), (K_x.shape[0], q))
    check_contract(
        lambda: kpca_functions.expansion_coef(Y, fit, add_mean=add_mean),
        lambda out: (_assert_shape(out[0], (Y.shape[0], N)), _assert_shape(out[1], (Y.shape[0],))),
    )
    check_contract(
        lambda: leading_components(fit, n if n else 1),
        lambda f: _assert_shape(f.coef, (N, n if n else 1)),
    )
    # Coordinates of the training points come back as u_k √λ_k, up to the
    # eigensolver's residual ‖K̃u − λu‖ ≲ N eps max|K_ij| divided by √λ.
    # (A K asymmetric at rounding level is fitted as (K + Kᵀ)/2.)
    Ks = np.asarray(K, dtype=np.float64)
    Ks = (Ks + Ks.T) / 2
    kept = fit.eigenvalues[fit.eigenvalues > 0]
    eps = np.finfo(fit.coef.dtype).eps  # the dtype K was fitted in
    tol = 10 * N * eps * np.abs(Ks).max() / np.sqrt(kept.min())
    np.testing.assert_allclose(
        kpca_functions.transform_block(Ks, fit),
        fit.eigenvectors * np.sqrt(fit.eigenvalues),
        rtol=0,
        atol=tol,
    )


@given(
    values=data_arrays(
        min_rows=1, max_rows=1, min_cols=0, max_cols=6, dtypes=["float64", "float32"]
    ),
    n=st.one_of(st.none(), st.integers(1, 6)),
)
def test_drop_rounding_level(values, n):
    values = np.sort(values[0])[::-1]
    vectors = np.eye(max(values.shape[0], 1), values.shape[0], dtype=values.dtype)

    def check(out):
        kept, kept_vectors, nonzero = out
        assert kept.shape == nonzero.shape == (kept_vectors.shape[1],)
        assert np.all(kept[nonzero] > 0)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumericalWarning)
        check_contract(lambda: drop_rounding_level(values, vectors, n), check)


# ---------------------------------------------------------------------------
# model files
# ---------------------------------------------------------------------------


@fewer_examples(0.5)
@given(X=fittable_data, params=denoiser_params(sane=True), denoiser=st.booleans())
def test_model_file_round_trip_is_exact(X, params, denoiser):
    if not denoiser:
        params = {k: v for k, v in params.items() if k not in ("method", "add_mean")}
    cls = KernelPCADenoiser if denoiser else KernelPCA
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumericalWarning)
        est = check_contract(lambda: cls(**params).fit(X))
        if est is None:
            return
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "model.npz")
            save_model(est, path)
            loaded = load_model(path)
        assert loaded.get_params() == est.get_params()
        before = check_contract(lambda: est.transform(X))
        if before is not None:
            np.testing.assert_array_equal(loaded.transform(X), before)


# ---------------------------------------------------------------------------
# memory guard
# ---------------------------------------------------------------------------


def test_memory_guard_refuses_the_exact_gram_matrix_at_once():
    """200,000 points: the exact Gram matrix (2 × 320 GB with the
    eigensolver's copy) is refused before it is allocated, naming it and
    suggesting Nyström; with 50 landmarks the same shape fits in 1 GB.

    (All-zero data have no component at all: with landmarks they are
    refused by that rule, at once too.)"""
    import time

    X = np.zeros((200_000, 1))
    start = time.perf_counter()
    with config_context(memory_budget="1GB"):
        with pytest.raises(MemoryBudgetError, match="Gram matrix") as info:
            KernelPCA(2, kernel="rbf", gamma="total_variance").fit(X)
        assert "n_landmarks" in str(info.value)
        with pytest.raises(MemoryBudgetError, match="Gram matrix"):
            KernelPCADenoiser(2).fit(X)
        with pytest.raises(ValueError, match="'X'"), warnings.catch_warnings():
            warnings.simplefilter("ignore", NumericalWarning)
            KernelPCA(kernel="rbf", gamma="total_variance", n_landmarks=50).fit(X)
    assert time.perf_counter() - start < 5.0
    Z = np.random.default_rng(0).normal(size=(200_000, 1))
    with config_context(memory_budget="1GB"):
        est = KernelPCA(2, kernel="rbf", gamma=0.5, n_landmarks=50, random_state=0).fit(Z)
        den = KernelPCADenoiser(2, gamma=0.5, n_landmarks=50, random_state=0).fit(Z)
    assert est.transform(Z[:3]).shape == (3, 2)
    assert den.transform(Z[:3]).shape == (3, 1)


def test_memory_guard_refuses_the_landmark_matrix():
    X = np.random.default_rng(0).normal(size=(300, 2))
    with config_context(memory_budget="100kB"):
        with pytest.raises(MemoryBudgetError, match="landmark"):
            KernelPCA(2, kernel="rbf", gamma="total_variance", n_landmarks=200).fit(X)
        # 50 landmarks: 20 kB per m x m matrix
        KernelPCA(2, kernel="rbf", gamma="total_variance", n_landmarks=50, random_state=0).fit(X)


def test_memory_guard_precomputed_fits_what_is_given():
    """A precomputed Gram matrix already exists; the guard counts the copies
    kernel PCA makes of it."""
    X = np.random.default_rng(0).normal(size=(60, 2))
    K = GaussianKernel(gamma=0.5)(X)
    with config_context(memory_budget="10kB"):
        with pytest.raises(MemoryBudgetError, match="Gram matrix"):
            KernelPCA(2, kernel="precomputed").fit(K)
