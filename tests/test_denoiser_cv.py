"""Tests for preimage.KernelPCADenoiserCV.

References: scikit-learn's GridSearchCV over KernelPCADenoiser (the same
candidates and folds, one kernel PCA fit per candidate: the brute force the
search must equal), KernelPCADenoiser itself (a single candidate), and
exact cases of the width search on functions known in closed form.
scikit-learn's own estimator checks are in test_common.py.
"""

import math
import warnings

import numpy as np
import pytest
from sklearn.model_selection import GridSearchCV, KFold, ParameterGrid

from preimage import (
    ConfigurationWarning,
    KernelPCADenoiser,
    KernelPCADenoiserCV,
    NumericalWarning,
    load_model,
    save_model,
)
from preimage.datasets import make_three_clusters
from preimage.denoising._search import refine_count, search_widths
from preimage.kernels import default_gamma

pytestmark = pytest.mark.usefixtures("single_blas_thread")


@pytest.fixture(scope="module")
def pairs():
    """Noisy copies of three tight clusters, with their clean versions."""
    X, _ = make_three_clusters(20, noise=0.03, random_state=0)
    rng = np.random.default_rng(1)
    return X + rng.normal(scale=0.1, size=X.shape), X


def scores_by_params(results, keys):
    return {
        tuple(repr(p[k]) for k in keys): s
        for p, s in zip(results["params"], results["mean_test_score"])
    }


# ---------------------------------------------------------------------------
# the search equals the brute force
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "method, fixed, grid",
    [
        # The fixed point is regularised: an unregularised one sits at flat
        # minima, where rounding in the eigenvectors (one fit at q_max against
        # one per q) moves it by ~sqrt(eps).
        ("fixed_point", {"alpha": 0.1}, None),
        ("learned", None, [{"gamma": 1.0, "alpha": 1e-2}, {"gamma": 10.0, "alpha": 1e-3}]),
        ("mds", None, None),
    ],
)
def test_cv_scores_equal_grid_search_over_denoisers(pairs, method, fixed, grid):
    X_noisy, X = pairs
    gammas, counts = [0.5, 2.0, 8.0], [1, 2, 5]
    folds = KFold(3, shuffle=True, random_state=0)
    cv = KernelPCADenoiserCV(
        gammas,
        counts,
        method=method,
        method_params=grid if grid is not None else fixed,
        bounds=[None, "data"],
        cv=folds,
        random_state=0,
    ).fit(X_noisy, X)
    param_grid = {"gamma": gammas, "n_components": counts, "bounds": [None, "data"]}
    if grid is not None:
        param_grid["method_params"] = grid
    search = GridSearchCV(
        KernelPCADenoiser(method=method, method_params=fixed, random_state=0),
        param_grid,
        cv=folds,
        error_score="raise",
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumericalWarning)
        search.fit(X_noisy, X)
    keys = list(param_grid)
    ours = scores_by_params(cv.cv_results_, keys)
    theirs = scores_by_params(search.cv_results_, keys)
    assert ours.keys() == theirs.keys()
    for key in theirs:
        assert ours[key] == pytest.approx(theirs[key], rel=1e-7, abs=1e-12), key
    assert cv.best_params_ == search.best_params_
    assert cv.best_score_ == pytest.approx(search.best_score_, rel=1e-7)
    assert len(cv.cv_results_["params"]) == len(search.cv_results_["params"])
    # the splits and ranks, row by row
    order = [
        list(theirs).index(k)
        for k in (tuple(repr(p[c]) for c in keys) for p in cv.cv_results_["params"])
    ]
    for k in range(3):
        np.testing.assert_allclose(
            cv.cv_results_[f"split{k}_test_score"],
            search.cv_results_[f"split{k}_test_score"][order],
            rtol=1e-7,
        )
    np.testing.assert_array_equal(
        cv.cv_results_["rank_test_score"], search.cv_results_["rank_test_score"][order]
    )


def test_a_single_candidate_is_that_denoiser(pairs):
    X_noisy, X = pairs
    cv = KernelPCADenoiserCV([2.0], [3], bounds=[None], random_state=0).fit(X_noisy, X)
    ref = KernelPCADenoiser(3, gamma=2.0, bounds=None, random_state=0).fit(X_noisy, X)
    assert cv.best_params_ == {"gamma": 2.0, "n_components": 3, "bounds": None}
    assert cv.n_components_ == 3
    np.testing.assert_array_equal(cv.transform(X_noisy), ref.transform(X_noisy))
    assert cv.score(X_noisy, X) == ref.score(X_noisy, X)
    np.testing.assert_array_equal(cv.denoise(X_noisy).x, ref.transform(X_noisy))
    assert cv.best_estimator_.get_params() == ref.get_params()


def test_the_best_candidate_is_refitted_on_all_pairs(pairs):
    X_noisy, X = pairs
    cv = KernelPCADenoiserCV([1.0, 4.0], [1, 2, 4], random_state=0).fit(X_noisy, X)
    best = cv.best_params_
    ref = KernelPCADenoiser(random_state=0, **best)
    np.testing.assert_array_equal(cv.transform(X_noisy), ref.fit(X_noisy, X).transform(X_noisy))
    results = cv.cv_results_
    assert results["rank_test_score"][cv.best_index_] == 1
    assert cv.best_score_ == np.max(results["mean_test_score"])
    np.testing.assert_allclose(
        results["mean_test_score"],
        np.mean([results[f"split{k}_test_score"] for k in range(3)], axis=0),
    )


# ---------------------------------------------------------------------------
# the width search
# ---------------------------------------------------------------------------


def test_width_search_scores_the_coarse_widths_then_bisects_toward_the_minimum():
    calls = []

    def score(g):
        calls.append(g)
        return (math.log2(g) - math.log2(2.6)) ** 2

    widths = search_widths(score, 1.0)
    assert widths == calls
    assert widths[:3] == [1.0, 2.0, 4.0]
    # best 2 (|1 - 1.38| < |2 - 1.38|), better neighbour 4: their geometric mean
    assert widths[3:] == [pytest.approx(math.sqrt(8.0))]


@pytest.mark.parametrize("best, extended", [(30.0, [8.0, 16.0, 32.0]), (0.05, [0.5, 0.25, 0.125])])
def test_width_search_extends_beyond_an_edge_at_most_three_times(best, extended):
    widths = search_widths(lambda g: abs(math.log(g / best)), 1.0)
    assert widths[3:6] == extended
    assert len(widths) == 7


def test_given_widths_are_scored_once_each_and_nothing_else():
    widths = search_widths(lambda g: g, 1.0, [3.0, 1.0, 3.0])
    assert widths == [3.0, 1.0]


def test_default_search_starts_at_the_papers_width(pairs):
    X_noisy, X = pairs
    cv = KernelPCADenoiserCV(n_components=[2], random_state=0).fit(X_noisy, X)
    gamma0 = default_gamma(X)
    np.testing.assert_allclose(cv.gammas_[:3], [gamma0, 2 * gamma0, 4 * gamma0])
    assert set(cv.cv_results_["param_gamma"]) == set(cv.gammas_)
    assert 4 <= len(cv.gammas_) <= 7


def test_default_counts_are_shares_of_the_smallest_training_fold(pairs):
    X_noisy, X = pairs  # 60 pairs, 3 folds: 40 training pairs each
    cv = KernelPCADenoiserCV([1.0], random_state=0).fit(X_noisy, X)
    counts = sorted(set(cv.cv_results_["param_n_components"]))
    assert {6, 12, 20, 30} <= set(counts)
    # then halved while the smallest is the best (at most three times), and
    # one count between the best and its better neighbour (refine_count)
    halved = [q for q in counts if q < 6 and 6 % q == 0 and (6 // q) & (6 // q - 1) == 0]
    assert halved == [6 // 2**k for k in range(len(halved), 0, -1)]
    assert len(counts) - 4 - len(halved) <= 1


def test_refine_count_scores_the_geometric_mean_of_the_best_and_its_better_neighbour():
    calls = []

    def errors_at(qs):  # one fold, error |q - 15|, no correction fitted
        calls.append(list(qs))
        return np.abs(np.asarray(qs, dtype=float) - 15)[None, :, None], np.zeros((len(qs), 2))

    counts = [6, 12, 20, 30]
    got = refine_count(errors_at, counts, *errors_at(counts))
    # best 12 (error 3), better neighbour 20 (5): round(sqrt(240)) = 15
    assert got[0] == [6, 12, 15, 20, 30] and calls == [counts, [15]]
    np.testing.assert_array_equal(got[1][0, :, 0], [9, 3, 0, 5, 15])
    assert got[2].shape == (5, 2)
    # a mean already scored is not scored again
    assert refine_count(errors_at, [14, 15], *errors_at([14, 15]))[0] == [14, 15]  # 14.49
    assert calls[-1] == [14, 15]


# ---------------------------------------------------------------------------
# without pairs, model files, bad input
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("y", [None, "labels"])
def test_without_clean_targets_it_warns_and_scores_reconstruction(pairs, y):
    X_noisy, X = pairs
    labels = np.zeros(X.shape[0]) if y == "labels" else None
    with pytest.warns(ConfigurationWarning, match=r"fit\(X_noisy, y=X_clean\)"):
        cv = KernelPCADenoiserCV([1.0], [1, 4], random_state=0).fit(X_noisy, labels)
    ref = KernelPCADenoiserCV([1.0], [1, 4], random_state=0).fit(X_noisy, X_noisy)
    np.testing.assert_array_equal(
        cv.cv_results_["mean_test_score"], ref.cv_results_["mean_test_score"]
    )


def test_save_model_saves_the_chosen_denoiser(pairs, tmp_path):
    X_noisy, X = pairs
    cv = KernelPCADenoiserCV([1.0, 4.0], [2, 4], random_state=0).fit(X_noisy, X)
    loaded = load_model(save_model(cv, tmp_path / "cv.npz"))
    assert type(loaded) is KernelPCADenoiser
    np.testing.assert_array_equal(loaded.transform(X_noisy), cv.transform(X_noisy))


def test_save_model_refuses_an_unfitted_search(tmp_path):
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError, match="KernelPCADenoiserCV"):
        save_model(KernelPCADenoiserCV(), tmp_path / "cv.npz")


@pytest.mark.parametrize(
    "params, match",
    [
        ({"gammas": [1.0, -1.0]}, "'gammas' must be a non-empty list of positive"),
        ({"gammas": []}, "'gammas' must be a non-empty list"),
        ({"gammas": [np.nan]}, "'gammas'"),
        ({"n_components": [0, 2]}, "'n_components' must be a non-empty list of integers"),
        ({"n_components": [2.5]}, "'n_components'"),
        ({"n_components": [41]}, r"between 1 and 40 \(the smallest training part"),
        ({"method_params": []}, "'method_params' must be a dict or a non-empty list"),
        ({"method_params": [{"alpha": 1}, 3]}, "'method_params'"),
    ],
)
def test_bad_candidates_are_refused_naming_the_argument(pairs, params, match):
    X_noisy, X = pairs
    with pytest.raises(ValueError, match=match):
        KernelPCADenoiserCV(**params).fit(X_noisy, X)


def test_targets_of_the_wrong_shape_are_refused(pairs):
    X_noisy, X = pairs
    with pytest.raises(ValueError, match="'y' has 3 features"):
        KernelPCADenoiserCV().fit(X_noisy, np.hstack([X, X[:, :1]]))
    with pytest.raises(ValueError, match="'y' must have one row per row of 'X'"):
        KernelPCADenoiserCV().fit(X_noisy, X[:-1])


def test_fewer_samples_than_folds_are_refused():
    with pytest.raises(ValueError, match="cv=3 needs at least 3 samples"):
        KernelPCADenoiserCV().fit(np.zeros((2, 2)), np.zeros((2, 2)))


def test_kernel_without_a_width_is_refused(pairs):
    X_noisy, X = pairs
    with pytest.raises(ValueError, match="'kernel'"):
        KernelPCADenoiserCV(kernel="linear").fit(X_noisy, X)


def test_method_params_grid_is_searched(pairs):
    X_noisy, X = pairs
    grid = list(ParameterGrid({"gamma": [1.0, 10.0], "alpha": [1e-3, 1e-1]}))
    cv = KernelPCADenoiserCV([2.0], [2, 4], method="learned", method_params=grid)
    cv.set_params(bounds=[None, "data"]).fit(X_noisy, X)
    assert len(cv.cv_results_["params"]) == 16  # and two boxes each
    assert cv.best_params_["method_params"] in grid
    assert cv.best_estimator_.method_params == cv.best_params_["method_params"]
