"""Tests for the string kernels and the toy strings of Bakır et al. (2004).

Every kernel value is compared with a brute-force count written here with
collections.Counter over all pairs of sequences, or with the formula computed
directly from those counts; the string generator is checked against the
transition probabilities of the paper's table, typed in again below.
"""

from collections import Counter
from fractions import Fraction
import time
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from preimage.datasets import make_kde_strings
from preimage.exceptions import NumericalWarning
from preimage.kernels import (
    CallableSequenceKernel,
    GaussianKernel,
    JointSpectrumKernel,
    KernelDistanceRBF,
    LinearKernel,
    NormalizedKernel,
    SequenceKernel,
    SpectrumKernel,
    WeightedDegreeKernel,
    normalize_gram,
)

# ---------------------------------------------------------------------------
# brute-force references
# ---------------------------------------------------------------------------


def brute_spectrum_counts(s, p):
    return Counter(tuple(s[i : i + p]) for i in range(len(s) - p + 1))


def brute_spectrum(X, Y, p):
    cx = [brute_spectrum_counts(x, p) for x in X]
    cy = [brute_spectrum_counts(y, p) for y in Y]
    return np.array([[sum(a[g] * b[g] for g in a) for b in cy] for a in cx], dtype=float)


def brute_joint_counts(x, y, p):
    h = (p - 1) // 2
    return Counter((tuple(x[i : i + p]), y[i + h]) for i in range(len(x) - p + 1))


def brute_joint(P, Q, p):
    cp = [brute_joint_counts(x, y, p) for x, y in P]
    cq = [brute_joint_counts(x, y, p) for x, y in Q]
    return np.array([[sum(a[g] * b[g] for g in a) for b in cq] for a in cp], dtype=float)


def brute_weighted_degree(x, y, degree, shift, align="start"):
    """The weighted-degree kernel of Rätsch & Sonnenburg (2004), with the shifts
    of Rätsch, Sonnenburg & Schölkopf (2005), summed exactly in fractions over
    every pair of positions (i, m) of x and y: β_d = 2(D − d + 1)/(D(D + 1)),
    weight 1 at the same position, 1/(2(s + 1)) at positions s ≤ S apart."""
    if align == "both":
        return brute_weighted_degree(x, y, degree, shift) + brute_weighted_degree(
            x, y, degree, shift, "end"
        )
    total = Fraction(0)
    for d in range(1, degree + 1):
        beta = Fraction(2 * (degree - d + 1), degree * (degree + 1))
        for i in range(len(x) - d + 1):
            for m in range(len(y) - d + 1):
                # positions counted from the end: i - |x| and m - |y|
                s = abs(i - m) if align == "start" else abs((i - len(x)) - (m - len(y)))
                if s <= shift and list(x[i : i + d]) == list(y[m : m + d]):
                    total += beta * (1 if s == 0 else Fraction(1, 2 * (s + 1)))
    return total


def random_strings(rng, n, alphabet="abc", low=0, high=12):
    return [
        "".join(rng.choice(list(alphabet), size=rng.integers(low, high + 1))) for _ in range(n)
    ]


@pytest.fixture
def strings():
    rng = np.random.default_rng(0)
    return random_strings(rng, 12, low=3), random_strings(rng, 7, alphabet="abcd", low=3)


# ---------------------------------------------------------------------------
# spectrum kernel
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("p", [1, 2, 3])
def test_spectrum_equals_brute_force_strings(strings, p):
    X, Y = strings
    k = SpectrumKernel(p=p)
    np.testing.assert_array_equal(k(X, Y), brute_spectrum(X, Y, p))
    np.testing.assert_array_equal(k(X), brute_spectrum(X, X, p))
    np.testing.assert_array_equal(k.diag(X), np.diag(brute_spectrum(X, X, p)))


@pytest.mark.parametrize("p", [1, 2, 3])
def test_spectrum_equals_brute_force_symbol_lists(p):
    rng = np.random.default_rng(1)
    words = ["the", "cat", "sat", ("on", "mat"), 7]
    X = [[words[j] for j in rng.integers(0, 5, size=rng.integers(3, 10))] for _ in range(6)]
    Y = [tuple(words[j] for j in rng.integers(0, 5, size=rng.integers(3, 10))) for _ in range(4)]
    np.testing.assert_array_equal(SpectrumKernel(p=p)(X, Y), brute_spectrum(X, Y, p))


def test_string_and_list_of_its_characters_are_the_same_sequence():
    K = SpectrumKernel(p=2)(["abcab", list("abcab"), np.array(list("abcab"))])
    np.testing.assert_array_equal(K, np.full((3, 3), 6.0))  # ab ab bc ca: 2² + 1 + 1


def test_features_are_sparse_counts_with_a_shared_vocabulary(strings):
    X, Y = strings
    k = SpectrumKernel(p=2)
    F, vocab = k.features(X + Y)
    assert sp.isspmatrix_csr(F) or sp.issparse(F)
    assert F.shape == (len(X) + len(Y), len(vocab))
    for i, s in enumerate(X + Y):
        counts = brute_spectrum_counts(s, 2)
        row = F[i].toarray().ravel()
        assert {g: row[j] for g, j in vocab.items() if row[j]} == dict(counts)
    # A fixed vocabulary keeps the columns and drops unseen p-grams.
    Fy, vocab_y = k.features(["zzab"], vocabulary=vocab)
    assert vocab_y is vocab and Fy.shape == (1, len(vocab))
    assert Fy.sum() == 1 and Fy[0, vocab[("a", "b")]] == 1
    np.testing.assert_array_equal((F[: len(X)] @ F[len(X) :].T).toarray(), k(X, Y))


def test_strings_shorter_than_p_have_zero_features():
    k = SpectrumKernel(p=3)
    K = k(["ab", "abc", ""], ["abcabc", "a"])
    np.testing.assert_array_equal(K, [[0, 0], [2, 0], [0, 0]])
    F, _ = k.features(["ab", ""])
    assert F.shape[0] == 2 and F.nnz == 0
    np.testing.assert_array_equal(k.diag(["ab", "abc"]), [0.0, 1.0])


def test_thousands_of_strings_take_one_sparse_product():
    # 2,000 strings of length 20: a Python loop over the 4·10⁶ pairs would take
    # minutes; the sparse product takes well under a second. Timed, not asserted.
    rng = np.random.default_rng(2)
    X = ["".join(rng.choice(list("abc"), size=20)) for _ in range(2000)]
    start = time.perf_counter()
    K = SpectrumKernel(p=3)(X)
    elapsed = time.perf_counter() - start
    assert K.shape == (2000, 2000) and K.dtype == np.float64
    np.testing.assert_array_equal(K[:5, :7], brute_spectrum(X[:5], X[:7], 3))
    np.testing.assert_array_equal(np.diag(K), SpectrumKernel(p=3).diag(X))
    print(f"spectrum Gram of 2000 strings of length 20: {elapsed:.3f} s")


# ---------------------------------------------------------------------------
# weighted-degree kernel
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("align", ["start", "end", "both"])
@pytest.mark.parametrize("degree, shift", [(1, 0), (2, 0), (3, 0), (1, 1), (3, 2), (4, 5)])
def test_weighted_degree_equals_brute_force(degree, shift, align):
    # Strings of 0 to 9 symbols, as strings and as lists of symbols; the
    # reference is exact (fractions), the kernel sums in float64.
    rng = np.random.default_rng(degree + 10 * shift)
    X = random_strings(rng, 9, low=0, high=9)
    Y = [list(y) for y in random_strings(rng, 5, alphabet="abcd", low=2, high=9)]
    k = WeightedDegreeKernel(degree, shift, align)
    for A, B in ((X, Y), (X, X), (Y, X)):
        expected = [
            [float(brute_weighted_degree(a, b, degree, shift, align)) for b in B] for a in A
        ]
        np.testing.assert_allclose(k(A, B), expected, rtol=1e-13, atol=1e-13)
    expected = [float(brute_weighted_degree(a, a, degree, shift, align)) for a in X]
    np.testing.assert_allclose(k.diag(X), expected, rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(k(X), k(X).T, rtol=0, atol=1e-13)


def test_weighted_degree_of_a_string_with_itself_is_sum_of_beta_times_positions():
    # Without shifts k(x, x) = Σ_d β_d (L − d + 1), whatever the symbols; with
    # D = 3 and L = 5: 5/2 + 4/3 + 3/6 = 13/3. "abcde" and "edcba" share only c.
    k = WeightedDegreeKernel(3)
    np.testing.assert_allclose(k.diag(["abcde", "aaaaa"]), [13 / 3] * 2, rtol=1e-15)
    np.testing.assert_allclose(k(["abcde"], ["edcba"]), [[0.5]], rtol=1e-15)  # β_1 · 1
    assert SpectrumKernel(1)(["abcde"], ["edcba"])[0, 0] == 5  # blind to the order


@pytest.mark.parametrize("shift", [1, 2, 5])
def test_weighted_degree_with_shifts_gives_positive_semidefinite_grams(shift):
    rng = np.random.default_rng(shift)
    X = random_strings(rng, 60, alphabet="ab", low=1, high=14)
    for align in ("start", "both"):
        eigenvalues = np.linalg.eigvalsh(WeightedDegreeKernel(4, shift, align)(X))
        assert eigenvalues.min() > -1e-10 * eigenvalues.max()


def test_weighted_degree_features_without_shifts_give_the_gram():
    rng = np.random.default_rng(3)
    X, Y = random_strings(rng, 8, low=1), random_strings(rng, 5, low=1)
    for align in ("start", "end", "both"):
        k = WeightedDegreeKernel(3, align=align)
        F, vocabulary = k.features(X)
        Fy, _ = k.features(Y, vocabulary)
        np.testing.assert_allclose((F @ F.T).toarray(), k(X), rtol=1e-13)
        np.testing.assert_allclose((F @ Fy.T).toarray(), k(X, Y), rtol=1e-13)
    with pytest.raises(NotImplementedError, match="a shift"):
        WeightedDegreeKernel(3, shift=1).features(X)
    # Normalised: 1 on the diagonal, its features too.
    N = NormalizedKernel(WeightedDegreeKernel(2))
    np.testing.assert_allclose(np.diag(N(X)), 1.0)
    F = N.features(X)[0]
    np.testing.assert_allclose(F.multiply(F).sum(axis=1), 1.0)


def test_weighted_degree_from_the_end_is_that_of_the_reversed_strings():
    rng = np.random.default_rng(4)
    X, Y = random_strings(rng, 7), random_strings(rng, 6)
    rev = lambda S: [s[::-1] for s in S]  # noqa: E731
    for shift in (0, 2):
        start, end = WeightedDegreeKernel(3, shift), WeightedDegreeKernel(3, shift, "end")
        np.testing.assert_allclose(end(X, Y), start(rev(X), rev(Y)), rtol=1e-13)
        both = WeightedDegreeKernel(3, shift, "both")(X, Y)
        np.testing.assert_allclose(both, start(X, Y) + end(X, Y), rtol=1e-13)
    assert WeightedDegreeKernel(1, align="end")(["xab"], ["ab"])[0, 0] == 2


# ---------------------------------------------------------------------------
# joint spectrum kernel
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("p", [1, 3, 5])
def test_joint_spectrum_equals_brute_force(p):
    X, Y, _ = make_kde_strings(15, random_state=3)
    P = list(zip(X, Y))
    Q = list(zip(X[:5], Y[::-1][:5]))  # mismatched (x, y) of different lengths
    Q = [(x, (y * 3)[: len(x)]) for x, y in Q]
    k = JointSpectrumKernel(p=p)
    np.testing.assert_array_equal(k(P, Q), brute_joint(P, Q, p))
    np.testing.assert_array_equal(k(P), brute_joint(P, P, p))
    np.testing.assert_array_equal(k.diag(P), np.diag(brute_joint(P, P, p)))


def test_joint_spectrum_features_pair_window_and_centre_symbol():
    F, vocab = JointSpectrumKernel(p=3).features([("abcab", "12212")])
    # windows abc, bca, cab with centres y[1], y[2], y[3] = 2, 2, 1
    assert set(vocab) == {(("a", "b", "c"), "2"), (("b", "c", "a"), "2"), (("c", "a", "b"), "1")}
    assert F.sum() == 3


# ---------------------------------------------------------------------------
# normalisation
# ---------------------------------------------------------------------------


def test_cosine_normalisation_equals_direct_formula(strings):
    X, Y = strings
    S_xy, S_xx, S_yy = (brute_spectrum(A, B, 3) for A, B in ((X, Y), (X, X), (Y, Y)))
    k = NormalizedKernel(SpectrumKernel(p=3))
    expected = S_xy / np.sqrt(np.outer(np.diag(S_xx), np.diag(S_yy)))
    np.testing.assert_allclose(k(X, Y), expected, rtol=1e-13)
    K = k(X)
    np.testing.assert_allclose(
        K, S_xx / np.sqrt(np.outer(np.diag(S_xx), np.diag(S_xx))), rtol=1e-13
    )
    np.testing.assert_array_equal(np.diag(K), 1.0)
    np.testing.assert_array_equal(k.diag(X), 1.0)
    np.testing.assert_allclose(normalize_gram(S_xx), K, rtol=1e-13)
    np.testing.assert_allclose(
        normalize_gram(S_xy, np.diag(S_xx), np.diag(S_yy)), expected, rtol=1e-13
    )
    # The features are the row-normalised counts.
    F, _ = k.features(X)
    np.testing.assert_allclose((F @ F.T).toarray(), K, rtol=1e-13)


def test_trace_normalisation_is_the_literal_reading(strings):
    # Bakır et al.: S ← D⁻¹SD⁻¹ with D_ii = Σ_i S_ii, one scalar: S / trace(S)².
    X, Y = strings
    S = brute_spectrum(X, X, 3)
    k = NormalizedKernel(SpectrumKernel(p=3), method="trace")
    np.testing.assert_allclose(k(X), S / np.trace(S) ** 2, rtol=1e-13)
    np.testing.assert_allclose(normalize_gram(S, method="trace"), S / np.trace(S) ** 2, rtol=1e-13)
    np.testing.assert_allclose(k.diag(X), np.diag(S) / np.trace(S) ** 2, rtol=1e-13)
    # A cross block is scaled by both traces.
    S_yy = brute_spectrum(Y, Y, 3)
    np.testing.assert_allclose(
        k(X, Y), brute_spectrum(X, Y, 3) / (np.trace(S) * np.trace(S_yy)), rtol=1e-13
    )


def test_zero_feature_strings_normalise_to_zero_with_a_warning():
    k = NormalizedKernel(SpectrumKernel(p=3))
    with pytest.warns(NumericalWarning, match="1 sequences with k"):
        K = k(["ab", "abc", "abcabc"])
    assert np.isfinite(K).all()
    S = brute_spectrum(["abc", "abcabc"], ["abc", "abcabc"], 3)
    np.testing.assert_array_equal(K[0], 0.0)
    np.testing.assert_array_equal(K[:, 0], 0.0)
    np.testing.assert_allclose(K[1:, 1:], S / np.sqrt(np.outer(np.diag(S), np.diag(S))))
    with pytest.warns(NumericalWarning):
        np.testing.assert_array_equal(k.diag(["ab", "abc"]), [0.0, 1.0])
    with pytest.warns(NumericalWarning):
        assert np.isfinite(k(["ab"], ["abc"])).all()
    with pytest.warns(NumericalWarning, match="whole block"):
        np.testing.assert_array_equal(normalize_gram(np.zeros((2, 2)), method="trace"), 0.0)


def test_normalisation_warnings_point_at_the_callers_line():
    k = NormalizedKernel(SpectrumKernel(p=3))
    for call in (
        lambda: k(["ab", "abc"]),
        lambda: k(["ab"], ["abc"]),
        lambda: k.diag(["ab"]),
        lambda: k.features(["ab"]),
        lambda: KernelDistanceRBF(k)(["ab", "abc"]),
        lambda: normalize_gram(np.zeros((2, 2)), method="trace"),
    ):
        with pytest.warns(NumericalWarning) as record:
            call()
        assert {r.filename for r in record} == {__file__}


def test_no_warning_without_zero_rows(strings):
    X, Y = strings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        NormalizedKernel(SpectrumKernel(p=3))(X, Y)
        KernelDistanceRBF(NormalizedKernel(SpectrumKernel(p=3)))(X)


# ---------------------------------------------------------------------------
# RBF of the kernel-induced distance
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "base",
    [
        SpectrumKernel(p=2),
        NormalizedKernel(SpectrumKernel(p=3)),
        NormalizedKernel(SpectrumKernel(p=3), method="trace"),
    ],
    ids=["spectrum", "cosine", "trace"],
)
def test_kernel_distance_rbf_equals_direct_computation(strings, base):
    X, Y = strings
    gamma = 0.7
    k = KernelDistanceRBF(base, gamma=gamma)
    S_xy, dx, dy = base(X, Y), base.diag(X), base.diag(Y)
    d2 = dx[:, None] + dy[None, :] - 2 * S_xy
    np.testing.assert_allclose(
        k(X, Y), np.exp(-gamma * np.sqrt(np.maximum(d2, 0))), rtol=1e-12, atol=1e-14
    )
    K = k(X)
    S = base(X)
    d2 = np.diag(S)[:, None] + np.diag(S)[None, :] - 2 * S
    np.testing.assert_allclose(
        K, np.exp(-gamma * np.sqrt(np.maximum(d2, 0))), rtol=1e-7, atol=1e-12
    )
    np.testing.assert_array_equal(np.diag(K), 1.0)
    np.testing.assert_array_equal(k.diag(X), 1.0)
    np.testing.assert_array_equal(K, K.T)


@pytest.mark.parametrize(
    "base",
    [
        SpectrumKernel(p=1),
        SpectrumKernel(p=3),
        NormalizedKernel(SpectrumKernel(p=3)),
        JointSpectrumKernel(p=3),
    ],
    ids=["spectrum1", "spectrum3", "cosine", "joint"],
)
def test_kernel_distance_rbf_is_positive_semidefinite(base):
    # exp(−γ d) with d a Hilbert-space distance is PSD (d is conditionally
    # negative definite, Schoenberg), whatever the base kernel.
    X, Y, _ = make_kde_strings(60, random_state=4)
    data = list(zip(X, Y)) if isinstance(base, JointSpectrumKernel) else X
    for gamma in (0.1, 1.0):
        K = KernelDistanceRBF(base, gamma=gamma)(data)
        assert np.linalg.eigvalsh(K).min() >= -1e-10


def test_wrappers_accept_vector_kernels():
    Z = np.random.default_rng(5).standard_normal((6, 3))
    K = KernelDistanceRBF(LinearKernel(), gamma=0.5)(Z)
    D = np.sqrt(((Z[:, None] - Z[None]) ** 2).sum(-1))
    np.testing.assert_allclose(K, np.exp(-0.5 * D), atol=1e-12)
    np.testing.assert_allclose(NormalizedKernel(GaussianKernel(0.3))(Z), GaussianKernel(0.3)(Z))


def test_kernels_are_frozen_sequence_kernels_with_params():
    base = SpectrumKernel(p=2)
    for k, params in [
        (base, {"p": 2}),
        (JointSpectrumKernel(5), {"p": 5}),
        (NormalizedKernel(base, "trace"), {"base": base, "method": "trace"}),
        (KernelDistanceRBF(base, 2.0), {"base": base, "gamma": 2.0}),
    ]:
        assert isinstance(k, SequenceKernel)
        assert k.get_params() == params
        with pytest.raises(AttributeError):
            k.p = 4
    assert SpectrumKernel(3) == SpectrumKernel(3) and hash(SpectrumKernel(3))


# ---------------------------------------------------------------------------
# the toy strings
# ---------------------------------------------------------------------------

# The paper's table (Sec. 4), typed in again: [model][output] rows a, b, c.
PAPER_TRANSITIONS = {
    (0, "1"): [[0, 0, 1], [0, 0, 1], [1, 0, 0]],
    (0, "2"): [[0.5, 0.5, 0], [0.5, 0.5, 0], [0, 1, 0]],
    (1, "1"): [[0.5, 0.5, 0], [0.5, 0.5, 0], [0, 0.5, 0.5]],
    (1, "2"): [[1, 0, 0], [0, 1, 0], [0, 1, 0]],
}


def test_make_kde_strings_shapes_alphabets_and_reproducibility():
    X, Y, model = make_kde_strings(300, random_state=6)
    assert len(X) == len(Y) == model.shape[0] == 300
    assert all(isinstance(x, str) and isinstance(y, str) for x, y in zip(X, Y))
    lengths = np.array([len(x) for x in X])
    assert (lengths == [len(y) for y in Y]).all()
    assert lengths.min() == 10 and lengths.max() == 20  # both ends reached
    assert set("".join(X)) == set("abc") and set("".join(Y)) == set("12")
    assert set(model.tolist()) == {0, 1}
    X2, Y2, model2 = make_kde_strings(300, random_state=6)
    assert X2 == X and Y2 == Y and np.array_equal(model2, model)
    assert make_kde_strings(300, random_state=7)[0] != X
    X3, _, _ = make_kde_strings(50, min_length=4, max_length=4, random_state=0)
    assert {len(x) for x in X3} == {4}


def test_make_kde_strings_output_switch_rate():
    _, Y, _ = make_kde_strings(5000, random_state=8)
    switches = sum(a != b for y in Y for a, b in zip(y, y[1:]))
    steps = sum(len(y) - 1 for y in Y)
    assert abs(switches / steps - 0.2) < 0.02
    starts = np.mean([y[0] == "1" for y in Y])
    assert abs(starts - 0.5) < 0.03


def test_make_kde_strings_input_transitions_match_the_paper():
    X, Y, model = make_kde_strings(5000, random_state=9)
    counts = {key: np.zeros((3, 3)) for key in PAPER_TRANSITIONS}
    for x, y, m in zip(X, Y, model):
        for t in range(len(x) - 1):  # transition t → t + 1 under output y_t
            counts[m, y[t]]["abc".index(x[t]), "abc".index(x[t + 1])] += 1
    for key, expected in PAPER_TRANSITIONS.items():
        C = counts[key]
        visited = C.sum(axis=1) > 0
        freq = C[visited] / C[visited].sum(axis=1, keepdims=True)
        np.testing.assert_allclose(
            freq,
            np.asarray(expected)[visited],
            atol=0.03,
            err_msg=f"model {key[0] + 1}, output {key[1]}",
        )
    assert abs(model.mean() - 0.5) < 0.03
    assert abs(np.mean([x[0] == "a" for x in X]) - 1 / 3) < 0.03


# ---------------------------------------------------------------------------
# a user's function, and what a kernel takes
# ---------------------------------------------------------------------------


def test_callable_sequence_kernel_equals_the_spectrum_kernel_of_the_same_function(strings):
    # Two implementations of the 2-spectrum kernel: counted pair by pair
    # with Counter (the callable) and as one sparse product (the kernel).
    X, Y = strings

    def spectrum2(a, b):
        ca, cb = brute_spectrum_counts(a, 2), brute_spectrum_counts(b, 2)
        return sum(ca[g] * cb[g] for g in ca)

    k = CallableSequenceKernel(spectrum2)
    np.testing.assert_array_equal(k(X, Y), SpectrumKernel(p=2)(X, Y))
    np.testing.assert_array_equal(k(X), SpectrumKernel(p=2)(X))
    np.testing.assert_array_equal(k.diag(X), SpectrumKernel(p=2).diag(X))
    assert k.get_params() == {"function": spectrum2} and not k.joint
    # wrapped like any sequence kernel
    np.testing.assert_allclose(
        NormalizedKernel(k)(X, Y), NormalizedKernel(SpectrumKernel(2))(X, Y), rtol=1e-13
    )


@pytest.mark.parametrize(
    "kernel, joint, vector_input",
    [
        (SpectrumKernel(2), False, False),
        (JointSpectrumKernel(3), True, False),
        (NormalizedKernel(JointSpectrumKernel(3)), True, False),
        (KernelDistanceRBF(NormalizedKernel(JointSpectrumKernel(3))), True, False),
        (KernelDistanceRBF(NormalizedKernel(SpectrumKernel(3))), False, False),
        (NormalizedKernel(GaussianKernel(0.5)), False, True),
        (KernelDistanceRBF(NormalizedKernel(GaussianKernel(0.5))), False, True),
        (CallableSequenceKernel(len), False, False),
    ],
)
def test_sequence_kernels_say_what_they_take(kernel, joint, vector_input):
    assert kernel.joint is joint and kernel.vector_input is vector_input


# ---------------------------------------------------------------------------
# invalid input
# ---------------------------------------------------------------------------

BAD_INPUT = [
    (lambda: SpectrumKernel(p=0), ValueError, "'p'"),
    (lambda: SpectrumKernel(p=2.5), ValueError, "'p'"),
    (lambda: SpectrumKernel(p=True), ValueError, "'p'"),
    (lambda: JointSpectrumKernel(p=2), ValueError, "'p' must be odd"),
    (lambda: WeightedDegreeKernel(degree=0), ValueError, "'degree'"),
    (lambda: WeightedDegreeKernel(shift=-1), ValueError, "'shift'"),
    (lambda: WeightedDegreeKernel(shift=1.5), ValueError, "'shift'"),
    (lambda: WeightedDegreeKernel(align="middle"), ValueError, "'align'"),
    (lambda: WeightedDegreeKernel()("abcabc"), TypeError, "'X'.*bare str"),
    (lambda: WeightedDegreeKernel()(["abc"], [1.0]), TypeError, "'Y'"),
    (lambda: WeightedDegreeKernel(1)([[["a"], "b"]]), TypeError, "'X'.*hashable"),
    (lambda: SpectrumKernel()("abcabc"), TypeError, "'X'.*bare str"),
    (lambda: SpectrumKernel()(np.ones((3, 4))), TypeError, "'X'.*dtype float64"),
    (lambda: SpectrumKernel()([1, 2, 3]), TypeError, "'X'.*int"),
    (lambda: SpectrumKernel()(["abc"], "abc"), TypeError, "'Y'"),
    (lambda: SpectrumKernel()([]), ValueError, "'X' must hold at least one"),
    (lambda: SpectrumKernel()({"abc"}), TypeError, "'X'.*set"),
    (lambda: SpectrumKernel(p=1)([[["a"], "b"]]), TypeError, "'X'.*hashable"),
    (lambda: SpectrumKernel().features(["abc"], vocabulary=["a"]), TypeError, "'vocabulary'"),
    (lambda: JointSpectrumKernel()([("abc", "12")]), ValueError, "'X'.*len"),
    (lambda: JointSpectrumKernel()(["abc"]), TypeError, "'X'.*pairs"),
    (lambda: JointSpectrumKernel()([("abc", "121", "x")]), TypeError, "'X'.*pairs"),
    (lambda: NormalizedKernel("spectrum"), TypeError, "'base'"),
    (lambda: NormalizedKernel(SpectrumKernel(), method="max"), ValueError, "'method'"),
    (lambda: KernelDistanceRBF(SpectrumKernel(), gamma=0), ValueError, "'gamma'"),
    (lambda: KernelDistanceRBF(SpectrumKernel(), gamma=-1.0), ValueError, "'gamma'"),
    (lambda: KernelDistanceRBF(None), TypeError, "'base'"),
    (lambda: KernelDistanceRBF().features(["abc"]), NotImplementedError, "no explicit"),
    (lambda: CallableSequenceKernel("f"), ValueError, "'function'"),
    (lambda: CallableSequenceKernel(len)("abc"), TypeError, "'X'.*bare str"),
    (lambda: CallableSequenceKernel(len).features(["abc"]), NotImplementedError, "no explicit"),
    (lambda: normalize_gram(np.ones((2, 3))), ValueError, "'diag_x'"),
    (lambda: normalize_gram(np.ones((2, 2)), [1.0]), ValueError, "'diag_x'"),
    (lambda: normalize_gram(np.ones((2, 2)), [1.0, -1.0]), ValueError, "'diag_x'"),
    (lambda: normalize_gram(np.ones((2, 2)), method="l2"), ValueError, "'method'"),
    (lambda: make_kde_strings(0), ValueError, "'n_samples'"),
    (lambda: make_kde_strings(5, min_length=0), ValueError, "'min_length'"),
    (lambda: make_kde_strings(5, min_length=12, max_length=11), ValueError, "'min_length'"),
    (lambda: make_kde_strings(5, switch_probability=1.5), ValueError, "'switch_probability'"),
    (lambda: make_kde_strings(5, random_state="seed"), ValueError, "'random_state'"),
]


@pytest.mark.parametrize(
    "call, error, match", BAD_INPUT, ids=[f"bad{i}" for i in range(len(BAD_INPUT))]
)
def test_bad_input(call, error, match):
    with pytest.raises(error, match=match):
        call()
