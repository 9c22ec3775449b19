"""Kernel dependency estimation (Bakır, Weston & Schölkopf 2004, Secs. 2.2, 3.2).

Each exact test compares the library with something computed independently:
ridge regression written out in NumPy or done by scikit-learn, principal
directions from an SVD, joint-spectrum features counted by hand here, and the
ambiguity of a position read off the strings themselves.
"""

from collections import Counter, defaultdict

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import Ridge
from sklearn.model_selection import cross_val_score
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

from preimage import PREIMAGE_METHODS, KernelDependencyEstimator
from preimage.datasets import make_kde_strings
from preimage.dependency import (
    DECODERS,
    CandidateDecoder,
    PositionDecoder,
    PreimageDecoder,
    WindowDecoder,
    fit_kde,
    kde_regression,
    make_decoder,
    nearest_coordinates,
    symbol_accuracy,
    window_features,
)
from preimage.dependency._strings import check_sequences
from preimage.kernels import (
    GaussianKernel,
    JointSpectrumKernel,
    KernelDistanceRBF,
    LinearKernel,
    NormalizedKernel,
    SpectrumKernel,
    WeightedDegreeKernel,
)
from preimage.solvers import ExactPreimage


def paper_kernels():
    """The paper's kernels: RBF exp(−d) of the normalised 3-spectrum distance on
    inputs, the normalised joint 3-spectrum kernel on (input, output) pairs."""
    return (
        KernelDistanceRBF(NormalizedKernel(SpectrumKernel(3)), gamma=1.0),
        NormalizedKernel(JointSpectrumKernel(3)),
    )


def joint_counts(x, y, p=3):
    """Reference joint-spectrum features, counted here from the definition:
    (p-gram of x starting at i, y at the window's centre i + (p−1)/2)."""
    return Counter((x[i : i + p], y[i + (p - 1) // 2]) for i in range(len(x) - p + 1))


@pytest.fixture(scope="module")
def strings():
    X, Y, _ = make_kde_strings(40, random_state=3)
    return X, Y


@pytest.fixture(scope="module")
def vectors():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(25, 4))
    Y = X @ rng.normal(size=(4, 3)) + 0.3 * rng.normal(size=(25, 3)) + [1.0, -2.0, 0.5]
    return X, Y, rng.normal(size=(6, 4))


# -- vector outputs: equivalences with ridge regression ---------------------------


def test_linear_kde_equals_paper_ridge_regression_in_numpy(vectors):
    # Equivalence tested: with linear input and output kernels, all output
    # components (n_components=None) and the exact linear pre-image, KDE
    # predicts  Ŷ = X' Xᵀ (K² + γI)⁻¹ K (Y − ȳ) + ȳ  with K = XXᵀ — the
    # paper's β = (KᵀK + γI)⁻¹ K P mapped back through the output axes, which
    # span the centred outputs, so P Vᵀ = Y − ȳ and the pre-image is exact.
    X, Y, Xt = vectors
    gamma = 0.7
    K = X @ X.T
    ybar = Y.mean(axis=0)
    expected = Xt @ X.T @ np.linalg.solve(K @ K + gamma * np.eye(len(X)), K @ (Y - ybar)) + ybar
    kde = KernelDependencyEstimator(
        LinearKernel(), LinearKernel(), alpha=gamma, method="exact"
    ).fit(X, Y)
    np.testing.assert_allclose(kde.predict(Xt), expected, rtol=1e-9, atol=1e-9)
    assert kde.n_components_ == 3


def test_ridge_form_equals_scikit_learn_ridge_without_intercept(vectors):
    # regression="ridge": β = (K + γI)⁻¹ P is linear ridge regression of the
    # centred outputs on X with no intercept (dual form), i.e. scikit-learn's
    # Ridge(alpha=γ, fit_intercept=False) fitted on (X, Y − ȳ), plus ȳ.
    X, Y, Xt = vectors
    ybar = Y.mean(axis=0)
    ridge = Ridge(alpha=2.0, fit_intercept=False).fit(X, Y - ybar)
    kde = KernelDependencyEstimator(
        "linear", "linear", alpha=2.0, regression="ridge", method="fixed_point"
    ).fit(X, Y)
    np.testing.assert_allclose(kde.predict(Xt), ridge.predict(Xt) + ybar, rtol=1e-8, atol=1e-8)


def test_fewer_output_components_is_reduced_rank_regression(vectors):
    # With r < rank components of the linear output kernel the prediction is
    # projected onto the r leading principal directions of the centred outputs
    # (right singular vectors from NumPy's SVD).
    X, Y, Xt = vectors
    gamma = 0.5
    K = X @ X.T
    ybar = Y.mean(axis=0)
    _, _, Vt = np.linalg.svd(Y - ybar, full_matrices=False)
    V = Vt[:2].T
    full = Xt @ X.T @ np.linalg.solve(K @ K + gamma * np.eye(len(X)), K @ (Y - ybar))
    kde = KernelDependencyEstimator(
        "linear", "linear", n_components=2, alpha=gamma, method="exact"
    ).fit(X, Y)
    np.testing.assert_allclose(kde.predict(Xt), full @ V @ V.T + ybar, atol=1e-9)


def test_paper_regression_minimises_its_objective():
    # β = (KᵀK + γI)⁻¹KᵀP zeroes the gradient of ‖P − Kβ‖² + γ‖β‖².
    rng = np.random.default_rng(1)
    A = rng.normal(size=(8, 5))
    K, P, gamma = A @ A.T, rng.normal(size=(8, 2)), 0.3
    beta = kde_regression(K, P, gamma, "paper")
    np.testing.assert_allclose(K.T @ (K @ beta - P) + gamma * beta, 0, atol=1e-10)
    beta = kde_regression(K, P, gamma, "ridge")
    np.testing.assert_allclose((K + gamma * np.eye(8)) @ beta, P, atol=1e-10)


@pytest.mark.parametrize("method", ["learned", "closed_form", "mds", "candidates"])
def test_other_vector_preimages_run_and_are_close_on_training_outputs(vectors, method):
    X, Y, _ = vectors
    kde = KernelDependencyEstimator(
        GaussianKernel(gamma=0.1), "linear", alpha=1e-3, method=method
    ).fit(X, Y)
    pred = kde.predict(X)
    assert pred.shape == Y.shape and np.isfinite(pred).all()
    assert kde.score(X, Y) > 0.9


def test_vector_candidates_pick_the_candidate_with_the_given_coordinates(vectors):
    X, Y, _ = vectors
    rng = np.random.default_rng(2)
    cands = rng.normal(size=(7, 3))
    kde = KernelDependencyEstimator("rbf", "linear", method="candidates", candidates=cands).fit(
        X, Y
    )
    np.testing.assert_array_equal(
        kde.decode(kde.transform_outputs(cands[[4, 0, 6]])), cands[[4, 0, 6]]
    )


def test_one_dimensional_targets_give_one_dimensional_predictions(vectors):
    X, Y, Xt = vectors
    kde = KernelDependencyEstimator("rbf", "linear", method="exact").fit(X, Y[:, 0])
    assert kde.predict(Xt).shape == (len(Xt),)
    assert kde.predict_coordinates(Xt).shape == (len(Xt), 1)


# -- strings: candidates and k-NN pre-images ------------------------------------


def test_candidates_pick_the_true_output_when_coordinates_are_exact(strings):
    # decode(coordinates of (x_i, y_i)) must return a candidate whose pair with
    # x_i has exactly the joint features of (x_i, y_i), counted independently
    # here; where no other candidate has them, that is y_i itself. (The joint
    # kernel cannot see the first and last output symbol, so outputs differing
    # only there are indistinguishable.)
    X, Y = strings
    kde = KernelDependencyEstimator(*paper_kernels(), method="candidates").fit(X, Y)
    chosen = kde.decode(kde.transform_outputs(Y, X), X)
    n_unique = 0
    for x, y, z in zip(X, Y, chosen):
        assert len(z) == len(x)
        assert joint_counts(x, z) == joint_counts(x, y)
        twins = [c for c in Y if len(c) == len(x) and joint_counts(x, c) == joint_counts(x, y)]
        if len(set(twins)) == 1:
            n_unique += 1
            assert z == y
    assert n_unique >= 30


def test_candidates_recover_training_outputs_with_a_vanishing_ridge(strings):
    # γ → 0: the regression interpolates (the RBF input Gram matrix is
    # positive definite), so predicted coordinates of training inputs are the
    # true ones and the nearest candidate is the true output (up to the
    # kernel's blind spot, as above).
    X, Y = strings
    kde = KernelDependencyEstimator(*paper_kernels(), method="candidates", alpha=1e-9).fit(X, Y)
    np.testing.assert_allclose(kde.predict_coordinates(X), kde.coordinates_, atol=1e-5)
    for x, y, z in zip(X, Y, kde.predict(X)):
        assert joint_counts(x, z) == joint_counts(x, y)


def test_candidates_with_a_plain_output_kernel_need_no_inputs(strings):
    X, Y = strings
    kde = KernelDependencyEstimator(
        paper_kernels()[0],
        NormalizedKernel(SpectrumKernel(2)),
        method="candidates",
        candidates=["1122", "2211"],
    ).fit(X, Y)
    assert kde.decode(kde.transform_outputs(["2211", "1122"])) == ["2211", "1122"]


def test_knn_reproduces_training_strings_from_exact_coordinates(strings):
    # 1-NN on [true coordinates, window] with exact coordinates finds each
    # training position itself at distance 0, so it returns y_i[q] — except
    # where the same string has the same window with two different labels
    # (identical features): there it returns one of those labels. Ambiguity
    # is read off the strings directly.
    X, Y = strings
    kde = KernelDependencyEstimator(*paper_kernels(), n_neighbors=1).fit(X, Y)
    C = kde.transform_outputs(Y, X)
    np.testing.assert_allclose(C, kde.coordinates_, atol=1e-10)
    d2 = ((C[:, None] - C[None]) ** 2).sum(-1) + np.eye(len(C))
    assert d2.min() > 1e-8  # no two training pairs share coordinates
    decoded = kde.decode(C, X)
    n_exact = 0
    for x, y, z in zip(X, Y, decoded):
        padded = "$" + x + "$"
        labels = defaultdict(set)
        for q in range(len(x)):
            labels[padded[q : q + 3]].add(y[q])
        exact = all(len(labels[padded[q : q + 3]]) == 1 for q in range(len(x)))
        for q in range(len(x)):
            assert z[q] in labels[padded[q : q + 3]]
            if len(labels[padded[q : q + 3]]) == 1:
                assert z[q] == y[q]
        n_exact += exact
        if exact:
            assert z == y
    assert n_exact >= 10


def test_knn_decoding_of_unambiguous_strings_is_exact():
    # Strings without any ambiguous window: the decoded training set is the
    # training set itself.
    X, Y, _ = make_kde_strings(120, random_state=5)
    keep = []
    for i, (x, y) in enumerate(zip(X, Y)):
        padded = "$" + x + "$"
        seen = {}
        if all(seen.setdefault(padded[q : q + 3], y[q]) == y[q] for q in range(len(x))):
            keep.append(i)
    X, Y = [X[i] for i in keep], [Y[i] for i in keep]
    assert len(X) >= 15
    kde = KernelDependencyEstimator(*paper_kernels()).fit(X, Y)
    assert kde.decode(kde.transform_outputs(Y, X), X) == Y


def test_a_scikit_learn_classifier_can_decode(strings):
    X, Y = strings
    kde = KernelDependencyEstimator(
        *paper_kernels(),
        method=DecisionTreeClassifier(random_state=0),
        method_params={"max_depth": 3},
    ).fit(X[:30], Y[:30])
    assert kde.classifier_.max_depth == 3
    pred = kde.predict(X[30:])
    assert [len(z) for z in pred] == [len(x) for x in X[30:]]
    assert set("".join(pred)) <= {"1", "2"}


def test_kde_beats_chance_on_the_toy_problem(strings):
    X, Y = strings
    kde = KernelDependencyEstimator(*paper_kernels(), n_neighbors=5).fit(X[:30], Y[:30])
    assert kde.score(X[30:], Y[30:]) > 0.6


def test_list_outputs_come_back_as_tuples():
    X = [list("abcab"), list("bcabc"), list("cabca")]
    Y = [[0, 1, 1, 0, 0], [1, 1, 0, 0, 1], [0, 0, 1, 1, 0]]
    kde = KernelDependencyEstimator(
        KernelDistanceRBF(SpectrumKernel(2)), JointSpectrumKernel(3)
    ).fit(X, Y)
    pred = kde.predict(X)
    assert all(isinstance(z, tuple) and len(z) == 5 for z in pred)


def test_callable_kernels_on_sequences(strings):
    X, Y = strings

    def hamming_similarity(a, b):
        return float(sum(s == t for s, t in zip(a, b)))

    kde = KernelDependencyEstimator(hamming_similarity, paper_kernels()[1]).fit(X[:20], Y[:20])
    assert kde.predict_coordinates(X[20:25]).shape == (5, kde.n_components_)


def test_window_decoder_without_coordinates_is_the_window_knn(strings):
    # coordinate_weight = 0 leaves only the one-hot windows (the coordinate
    # columns are zeros, so every distance is the windows' own): the decoder is
    # then the plain window k-NN, built here from window_features and
    # scikit-learn (same brute-force search, so the same ties).
    X, Y = strings
    kde = KernelDependencyEstimator(
        *paper_kernels(),
        n_neighbors=3,
        coordinate_weight=0.0,
        method_params={"algorithm": "brute"},
    ).fit(X[:30], Y[:30])
    symbols = sorted({s for x in X[:30] for s in x})
    knn = KNeighborsClassifier(3, algorithm="brute").fit(
        window_features(X[:30], 3, symbols), list("".join(Y[:30]))
    )
    labels = iter(knn.predict(window_features(X[30:], 3, symbols)))
    assert kde.predict(X[30:]) == ["".join(next(labels) for _ in x) for x in X[30:]]


# -- position decoding --------------------------------------------------------


def reversal_words(seed, n, alphabet="abcd"):
    rng = np.random.default_rng(seed)
    return ["".join(rng.choice(list(alphabet), size=rng.integers(4, 7))) for _ in range(n)]


@pytest.mark.parametrize("output_kernel", [WeightedDegreeKernel(1), WeightedDegreeKernel(3)])
def test_positions_decode_the_true_coordinates_to_the_training_outputs(output_kernel):
    # The true coordinates of y_i stand for φ(y_i) itself (all components); its
    # degree-1 part is the one-hot of y_i, so each position votes for y_iq alone.
    X = reversal_words(0, 30)
    Y = [x[::-1] for x in X]
    kde = KernelDependencyEstimator(
        WeightedDegreeKernel(2), output_kernel, method="positions"
    ).fit(X, Y)
    assert kde.decode(kde.coordinates_, X) == Y


def test_positions_are_the_exact_preimage_of_the_degree_one_kernel():
    # Independently: the one-hot position features of the training outputs,
    # their mean μ and axes v = F_cᵀ P / λ from the fitted coordinates P, the
    # point Ψ = ĉ vᵀ + μ, and the nearest of all 4⁴ (or 4⁵) strings of the
    # input's length, by enumeration.
    import itertools

    X = reversal_words(1, 40)
    Y = [x[::-1] for x in X]
    kde = KernelDependencyEstimator(
        WeightedDegreeKernel(2, align="both"), WeightedDegreeKernel(1), method="positions"
    ).fit(X, Y)

    def one_hot(y, length=6):
        f = np.zeros((length, 4))
        f[np.arange(len(y)), ["abcd".index(s) for s in y]] = 1
        return f.ravel()

    F = np.array([one_hot(y) for y in Y])
    mean = F.mean(axis=0)
    V = (F - mean).T @ kde.coordinates_ / kde.eigenvalues_
    tests = reversal_words(2, 6)
    Psi = kde.predict_coordinates(tests) @ V.T + mean
    for x, psi, z in zip(tests, Psi, kde.predict(tests)):
        strings = ["".join(t) for t in itertools.product("abcd", repeat=len(x))]
        best = min(strings, key=lambda y: np.sum((one_hot(y) - psi) ** 2))
        assert z == best


def test_positions_learn_reversal_which_windows_cannot():
    # Reversal of words of 4 to 6 letters: the output symbol at q is the input
    # symbol |x| − 1 − q, read by a weighted-degree kernel counting from both
    # ends; the window decoder of Bakır et al. does not know q.
    X, tests = reversal_words(3, 150), reversal_words(4, 60)
    Y, Y_test = [x[::-1] for x in X], [x[::-1] for x in tests]
    kernels = WeightedDegreeKernel(2, align="both"), WeightedDegreeKernel(2)
    positions = KernelDependencyEstimator(*kernels, method="positions").fit(X, Y)
    assert positions.score(tests, Y_test) > 0.95
    assert KernelDependencyEstimator(*kernels).fit(X, Y).score(tests, Y_test) < 0.5


def test_positions_past_the_training_outputs_take_the_first_symbol():
    X = ["abc", "bca", "cab"]
    kde = KernelDependencyEstimator(
        WeightedDegreeKernel(1), WeightedDegreeKernel(1), method="positions"
    ).fit(X, [x.upper() for x in X])
    assert kde.output_symbols_ == ["A", "B", "C"]
    assert kde.predict(["abcab"])[0][3:] == "AA"
    lists = kde.fit([list(x) for x in X], [tuple(x) for x in X]).predict([list("bca")])
    assert lists == [("b", "c", "a")]


# -- the decoders -----------------------------------------------------------------


def test_make_decoder_dispatches_on_the_registry_and_on_what_the_method_is():
    settings = {"window": 5, "n_neighbors": 3, "coordinate_weight": 0.5, "candidates": ["12"]}
    assert dict(DECODERS) == {
        "candidates": CandidateDecoder,
        "knn": WindowDecoder,
        "positions": PositionDecoder,
    }
    knn = make_decoder("knn", {"weights": "distance"}, **settings)
    assert type(knn) is WindowDecoder and knn.params == {"weights": "distance"}
    assert (knn.window, knn.n_neighbors, knn.coordinate_weight) == (5, 3, 0.5)
    assert not hasattr(knn, "candidates") and knn.needs_inputs
    candidates = make_decoder("candidates", **settings)
    assert type(candidates) is CandidateDecoder and candidates.candidates == ["12"]
    assert not hasattr(candidates, "window")
    tree = DecisionTreeClassifier()
    assert type(make_decoder(tree, **settings)) is WindowDecoder
    for method in [*PREIMAGE_METHODS, ExactPreimage(), lambda psi, x0=None: None]:
        decoder = make_decoder(method, **settings)
        assert type(decoder) is PreimageDecoder and decoder.method is method
        assert not decoder.needs_inputs


def test_check_sequences_takes_the_rows_of_an_array_and_names_the_argument():
    assert check_sequences(np.array([["a", "b"], ["c", "d"]])) == [("a", "b"), ("c", "d")]
    assert check_sequences(["ab", ("a", 1), np.array([1, 2])]) == ["ab", ("a", 1), (1, 2)]
    assert check_sequences([]) == []
    with pytest.raises(TypeError, match=r"'Y'.*wrap a single sequence as \[Y\]"):
        check_sequences("abc", "Y")
    with pytest.raises(ValueError, match="'Y' must hold at least 1 sequence"):
        check_sequences([], "Y", min_samples=1)
    with pytest.raises(TypeError, match="'X' must hold hashable symbols"):
        check_sequences([[["a"]]])


# -- the functions --------------------------------------------------------------


def test_window_features_one_hot_with_terminal_padding():
    F = window_features(["abc", "b"], 3, "abc")
    # columns: 3 window positions × (a, b, c, terminal)
    assert F.shape == (4, 12)
    np.testing.assert_array_equal(F[0], [0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0])
    np.testing.assert_array_equal(F[3], [0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1])
    assert window_features(["z"], 1, "ab").sum() == 0  # unseen symbol: zeros


def test_nearest_coordinates_respects_the_mask():
    index, d2 = nearest_coordinates([[0.0, 0.0]], [[0.1, 0.0], [1.0, 0.0]], mask=[[False, True]])
    assert index.tolist() == [1] and d2.tolist() == pytest.approx([1.0])


def test_symbol_accuracy_pools_symbols_and_counts_missing_ones_wrong():
    assert symbol_accuracy(["1122", "12"], ["1121", "1"]) == pytest.approx(4 / 6)
    assert symbol_accuracy(["12"], ["12222"]) == 1.0


def test_fit_kde_keeps_nonzero_components():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(10, 2))
    fit = fit_kde(X @ X.T, X @ X.T)
    assert fit.coordinates.shape == (10, 2)
    np.testing.assert_allclose(fit.coordinates.mean(axis=0), 0, atol=1e-12)


# -- shapes, estimator conventions and bad input --------------------------------


def test_shapes_and_fitted_attributes(strings):
    X, Y = strings
    kde = KernelDependencyEstimator(*paper_kernels(), n_components=5).fit(X, Y)
    assert kde.coordinates_.shape == kde.dual_coef_.shape == (len(X), 5)
    assert kde.eigenvalues_.shape == (5,)
    assert kde.predict_coordinates(X[:3]).shape == (3, 5)
    assert kde.transform_outputs(Y[:3], X[:3]).shape == (3, 5)
    assert [len(z) for z in kde.predict(X[:3])] == [len(x) for x in X[:3]]


def test_get_params_clone_and_cross_validation(strings):
    X, Y = strings
    kde = KernelDependencyEstimator(*paper_kernels(), n_neighbors=3, alpha=0.5)
    params = kde.get_params()
    assert params["n_neighbors"] == 3 and params["alpha"] == 0.5
    assert params["input_kernel"] == paper_kernels()[0]
    twin = clone(kde)
    assert twin.get_params() == params and not hasattr(twin, "coordinates_")
    kde.fit(X, Y)
    assert clone(kde).set_params(alpha=2.0).fit(X, Y).alpha == 2.0
    assert clone(kde).fit(X, Y).predict(X[:5]) == kde.predict(X[:5])
    assert kde.score(X[:5], y=Y[:5]) == kde.score(X[:5], Y[:5])
    scores = cross_val_score(clone(kde), X, Y, cv=4)
    assert scores.shape == (4,) and np.all((scores > 0.4) & (scores <= 1))


def test_predict_before_fit_raises(strings):
    with pytest.raises(NotFittedError):
        KernelDependencyEstimator(*paper_kernels()).predict(strings[0][:2])


@pytest.mark.parametrize(
    "params, data, match",
    [
        ({"alpha": 0.0}, "strings", "'alpha'"),
        ({"window": 2}, "strings", "'window'"),
        ({"window": 0}, "strings", "'window'"),
        ({"n_neighbors": 0}, "strings", "'n_neighbors'"),
        ({"regression": "lasso"}, "strings", "'regression'"),
        ({"method": "nope"}, "strings", "'method'"),
        ({"method": "fixed_point"}, "strings", "'method'"),
        (
            {"method": "knn", "input_kernel": "linear", "output_kernel": "linear"},
            "vectors",
            "'method'",
        ),
        (
            {"method": "positions", "input_kernel": "linear", "output_kernel": "linear"},
            "vectors",
            "'method'",
        ),
        ({"n_components": 100}, "strings", "'n_components'"),
        ({"input_kernel": "rbf"}, "strings", "'input_kernel'"),
        ({"coordinate_weight": -1.0}, "strings", "'coordinate_weight'"),
    ],
)
def test_bad_parameters_name_the_argument(strings, vectors, params, data, match):
    X, Y = strings if data == "strings" else vectors[:2]
    kde = KernelDependencyEstimator(*paper_kernels()).set_params(**params)
    with pytest.raises(ValueError, match=match):
        kde.fit(X, Y)


def test_bad_data_name_the_argument(strings, vectors):
    X, Y = strings
    kde = KernelDependencyEstimator(*paper_kernels())
    with pytest.raises(ValueError, match="'Y'"):
        kde.fit(X, Y[:-1])
    with pytest.raises(ValueError, match="'Y'"):
        kde.fit(X[:3], ["1", "12", "121"])  # |y| != |x| for the joint kernel
    with pytest.raises(TypeError, match="'X'"):
        kde.fit("abcabc", Y[:1])
    kde.fit(X, Y)
    with pytest.raises(ValueError, match="'X'"):
        kde.decode(kde.predict_coordinates(X[:2]))  # windows need the inputs
    with pytest.raises(ValueError, match="'coordinates'"):
        kde.decode(np.zeros((2, 3)), X[:2])
    cand = KernelDependencyEstimator(*paper_kernels(), method="candidates", candidates=["12"]).fit(
        X, Y
    )
    with pytest.raises(ValueError, match="'candidates'"):
        cand.predict(X[:1])
    Xv, Yv, Xt = vectors
    lin = KernelDependencyEstimator("linear", "linear", method="exact").fit(Xv, Yv)
    with pytest.raises(ValueError, match="'X'"):
        lin.predict(Xt[:, :2])


def test_reproduction_k_sweep_equals_refitting_with_each_k(strings):
    # bakir-kde decodes one fit's estimated coordinates with every k by
    # changing the fitted k-NN's n_neighbors; that must equal refitting.
    from reproductions.bakir_kde import kde_predict, paper_kde

    X, Y = strings
    ks = (1, 3, 5)
    swept = kde_predict(X[:30], Y[:30], X[30:], ks)
    for k, pred in zip(ks, swept):
        assert pred == paper_kde(k).fit(X[:30], Y[:30]).predict(X[30:])


def test_regression_with_an_indefinite_kernel_warns_and_still_solves():
    from preimage.exceptions import NumericalWarning

    K = np.array([[0.0, 2.0], [2.0, 0.0]])  # eigenvalues ±2: not PSD
    P = np.array([[1.0], [-1.0]])
    with pytest.warns(NumericalWarning, match="not positive definite") as record:
        beta = kde_regression(K, P, 0.5, "ridge")
    assert record[0].filename == __file__  # the caller's line
    np.testing.assert_allclose((K + 0.5 * np.eye(2)) @ beta, P)
