"""The learned ridge correction of the pre-images (``correction="ridge"``).

References: scikit-learn's Ridge on the same features (the correction is
exactly its solution), the folds by construction (no pair's own pre-image
fits its correction), and the search choosing it where it helps.
"""

import warnings

import numpy as np
import pytest
from sklearn.linear_model import Ridge
from sklearn.model_selection import KFold

from preimage import (
    KernelPCADenoiser,
    KernelPCADenoiserCV,
    ModelFileError,
    load_model,
    save_model,
)
from preimage.datasets import load_digits, make_three_clusters
from preimage.denoising import _correction
from preimage.denoising._correction import (
    apply_correction,
    correction_features,
    fit_correction,
    out_of_fold_preimages,
)
from preimage.exceptions import ConvergenceWarning, NumericalWarning

pytestmark = pytest.mark.usefixtures("single_blas_thread")


@pytest.fixture(scope="module")
def pairs():
    X, _ = make_three_clusters(20, noise=0.03, random_state=0)
    return X + np.random.default_rng(1).normal(scale=0.1, size=X.shape), X


@pytest.fixture(scope="module")
def digits():
    """Noisy 8 × 8 digits and their clean versions: 60 to train, 60 to test."""
    X = load_digits()[0][:120]
    noisy = X + np.random.default_rng(0).normal(scale=0.3, size=X.shape)
    return noisy[:60], X[:60], noisy[60:], X[60:]


def _sklearn_ridge(parts, image_shape, size, alpha):
    """Ridge(alpha) from the features of the triples to the pre-images' errors."""
    A = np.vstack([correction_features(Z, X, image_shape, size)[:, :-1] for Z, X, _ in parts])
    R = np.vstack([(T - Z).reshape(A.shape[0] // len(parts), -1) for Z, _, T in parts])
    return Ridge(alpha=alpha).fit(A, R)


@pytest.mark.parametrize("image_shape, size", [(None, 1), ((2, 3), 3), ((3, 2), 1)])
def test_correction_is_the_ridge_solution_on_the_same_features(image_shape, size):
    rng = np.random.default_rng(0)
    parts = [tuple(rng.normal(size=(5, 6)) for _ in range(3)) for _ in range(3)]
    ridge = fit_correction(parts, image_shape, alphas=[0.1], sizes=[size])
    reference = _sklearn_ridge(parts, image_shape, size, ridge.alpha)
    m = ridge.intercept.size
    np.testing.assert_allclose(
        ridge.coef.reshape(-1, m), reference.coef_.reshape(m, -1).T, atol=1e-10
    )
    np.testing.assert_allclose(ridge.intercept, reference.intercept_, atol=1e-10)
    Z, X = rng.normal(size=(2, 4, 6))
    predicted = reference.predict(correction_features(Z, X, image_shape, size)[:, :-1])
    corrected = apply_correction(Z, X, ridge.coef, ridge.intercept, image_shape)
    np.testing.assert_allclose(corrected, Z + predicted.reshape(Z.shape), atol=1e-10)


@pytest.mark.parametrize("image_shape, size", [(None, 1), ((2, 2), 3)])
def test_each_folds_error_is_that_of_the_ridge_of_the_other_folds(image_shape, size):
    rng = np.random.default_rng(1)
    parts = [tuple(rng.normal(size=(6, 4)) for _ in range(3)) for _ in range(3)]
    ridge = fit_correction(parts, image_shape, alphas=[0.01], sizes=[size])
    for f, (Z, X, T) in enumerate(parts):
        others = fit_correction(parts[:f] + parts[f + 1 :], image_shape, [0.01], [size])
        corrected = apply_correction(Z, X, others.coef, others.intercept, image_shape)
        error = np.mean(np.sum((corrected - T) ** 2, axis=1))
        assert ridge.errors[f] == pytest.approx(error, rel=1e-9)


# ---------------------------------------------------------------------------
# the denoiser: out-of-fold pre-images, then the ridge
# ---------------------------------------------------------------------------


def test_denoiser_corrects_its_pre_images_by_the_ridge_of_out_of_fold_triples(pairs):
    X, T = pairs
    den = KernelPCADenoiser(2, gamma=10, correction="ridge", random_state=0).fit(X, T)
    plain = KernelPCADenoiser(2, gamma=10, random_state=0).fit(X, T)
    ridge = fit_correction(out_of_fold_preimages(den, X, T))
    np.testing.assert_array_equal(den.correction_coef_, ridge.coef)
    np.testing.assert_array_equal(den.correction_intercept_, ridge.intercept)
    assert den.correction_alpha_ == ridge.alpha
    X_new = make_three_clusters(10, noise=0.1, random_state=5)[0]
    expected = apply_correction(plain.transform(X_new), X_new, ridge.coef, ridge.intercept)
    np.testing.assert_allclose(den.transform(X_new), expected, atol=1e-12)
    np.testing.assert_allclose(den.denoise(X_new).x, expected, atol=1e-12)
    # without correction, nothing changes
    assert plain.correction_coef_ is None
    np.testing.assert_array_equal(
        plain.transform(X_new),
        plain.solver_.solve_coordinates(plain.kpca_.transform(X_new), x0=X_new),
    )


def test_no_training_pairs_own_pre_image_fits_its_correction(pairs, monkeypatch):
    """By construction: every pre-image the correction is fitted on comes from
    a denoiser fitted on the other folds, and every pair gives one."""
    X, T = pairs
    fitted, transformed = [], []
    fit, transform = KernelPCADenoiser.fit, KernelPCADenoiser.transform

    def rows(A):
        return {row.tobytes() for row in np.asarray(A)}

    def spy_fit(self, A, y=None):
        fitted.append(rows(A))
        return fit(self, A, y)

    def spy_transform(self, A):
        transformed.append(rows(A))
        return transform(self, A)

    monkeypatch.setattr(KernelPCADenoiser, "fit", spy_fit)
    monkeypatch.setattr(KernelPCADenoiser, "transform", spy_transform)
    KernelPCADenoiser(2, gamma=10, correction="ridge", random_state=0).fit(X, T)
    assert fitted[0] == rows(X) and len(fitted) == len(transformed) + 1 == _correction.N_FOLDS + 1
    for train, held in zip(fitted[1:], transformed):
        assert train and held and not train & held
    assert set().union(*transformed) == rows(X) and sum(map(len, transformed)) == len(X)


def test_cv_fits_the_correction_on_its_own_held_out_pre_images(pairs):
    X, T = pairs
    folds = KFold(3, shuffle=True, random_state=0)
    cv = KernelPCADenoiserCV(
        gammas=[10.0], n_components=[2], cv=folds, correction="ridge", random_state=0
    ).fit(X, T)
    parts = []
    for train, held in folds.split(X):
        den = KernelPCADenoiser(2, gamma=10.0, random_state=0).fit(X[train], T[train])
        parts.append((den.transform(X[held]), X[held], T[held]))
    ridge = fit_correction(parts)
    best = cv.best_estimator_
    assert best.correction == "ridge"
    np.testing.assert_allclose(best.correction_coef_, ridge.coef, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(best.correction_intercept_, ridge.intercept, rtol=1e-6, atol=1e-9)
    assert cv.best_score_ == pytest.approx(-ridge.errors.mean(), rel=1e-6)


def test_cv_chooses_the_correction_where_it_helps(digits):
    X, T, X_test, T_test = digits
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        warnings.simplefilter("ignore", NumericalWarning)
        cv = KernelPCADenoiserCV(
            gammas=[0.05],
            n_components=[8],
            correction=[None, "ridge"],
            image_shape=(8, 8),
            random_state=0,
        ).fit(X, T)
        plain = KernelPCADenoiser(8, gamma=0.05, random_state=0).fit(X, T)
        corrected, uncorrected = cv.transform(X_test), plain.transform(X_test)
    assert list(cv.cv_results_["param_correction"]) == [None, "ridge"]
    assert cv.best_params_["correction"] == "ridge"
    assert cv.best_estimator_.correction_coef_.shape[0] == 2

    def error(Z):
        return np.mean(np.sum((Z - T_test) ** 2, axis=1))

    assert error(corrected) < 0.8 * error(uncorrected)


# ---------------------------------------------------------------------------
# refusals, model files
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("y", [None, np.zeros(60)])
@pytest.mark.parametrize("cls", [KernelPCADenoiser, KernelPCADenoiserCV])
def test_correction_without_clean_targets_is_refused(pairs, cls, y):
    X = pairs[0]
    with pytest.raises(ValueError, match=r"^correction='ridge' needs clean targets: fit\("):
        cls(correction=[None, "ridge"] if cls is KernelPCADenoiserCV else "ridge").fit(X, y)


@pytest.mark.parametrize("shape", [(1, 3), (2,), (1.0, 2.0), (-1, -2), [[1, 2]]])
def test_an_image_shape_that_is_not_the_features_is_refused(pairs, shape):
    message = r"^'image_shape' must be two positive integers whose product is the number of "
    with pytest.raises(ValueError, match=message + r"features \(2\), got "):
        KernelPCADenoiser(2, correction="ridge", image_shape=shape).fit(*pairs)


def test_unknown_correction_candidates_are_refused(pairs):
    with pytest.raises(ValueError, match=r"^'correction' must be None, 'ridge' or a non-empty"):
        KernelPCADenoiserCV(correction=["ridge", "lasso"]).fit(*pairs)


@pytest.mark.parametrize("image_shape", [None, [2, 1]])
def test_model_file_keeps_the_correction(pairs, image_shape, tmp_path):
    den = KernelPCADenoiser(2, gamma=10, correction="ridge", image_shape=image_shape)
    den = den.fit(*pairs)
    loaded = load_model(save_model(den, tmp_path / "m.npz"))
    np.testing.assert_array_equal(loaded.correction_coef_, den.correction_coef_)
    np.testing.assert_array_equal(loaded.transform(pairs[0]), den.transform(pairs[0]))
    # a file whose map is not that of its parameters is refused
    den.set_params(correction=None)
    with pytest.raises(ModelFileError, match="'correction_coef_' is not the map of the denoiser"):
        load_model(save_model(den, tmp_path / "altered.npz"))
