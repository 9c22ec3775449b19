"""Property tests of the core under the contract (tests/contract.py): kernels,
FeatureExpansion, find_preimage and the solver classes.

For any input a public call returns finite values of the documented shape or
raises a ValueError/TypeError naming an argument; numerical trouble is a
NumericalWarning, never a bare NumPy RuntimeWarning or a NaN. Inputs are
small (at most 8 rows × 4 columns) so that the file runs in well under a
minute with the default Hypothesis profile.
"""

import time
import warnings

from contract import check_contract, data_arrays, names_an_argument
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp
import numpy as np
import pytest

from preimage import (
    PREIMAGE_METHODS,
    ConvergenceWarning,
    FeatureExpansion,
    MemoryBudgetError,
    NumericalWarning,
    config_context,
    find_preimage,
)
from preimage.kernels import (
    CallableKernel,
    DotProductKernel,
    GaussianKernel,
    JointSpectrumKernel,
    KernelDistanceRBF,
    LaplacianKernel,
    LinearKernel,
    NormalizedKernel,
    PolynomialKernel,
    RadialKernel,
    SigmoidKernel,
    SineKernel,
    SpectrumKernel,
    WeightedDegreeKernel,
    default_gamma,
    make_kernel,
    normalize_gram,
)
from preimage.solvers import (
    ClosedFormPreimage,
    LearnedPreimage,
    MDSPreimage,
    exact_preimage,
    fixed_point,
    gradient_descent,
)

pytestmark = pytest.mark.usefixtures("single_blas_thread")

# ---------------------------------------------------------------------------
# strategies
# ---------------------------------------------------------------------------

#: Parameter values no kernel should turn into a NaN: zeros of both signs,
#: negatives, non-finite and extreme magnitudes, wrong types.
ABSURD = [
    0,
    0.0,
    -0.0,
    -1,
    -2.5,
    1e-300,
    -1e-300,
    1e-8,
    1e8,
    1e150,
    1e300,
    np.nan,
    np.inf,
    -np.inf,
    None,
    True,
    False,
    "1",
    "l2",
    [1.0],
    1 + 2j,
    np.float32(0.5),
    np.int64(2),
    np.float64(3.0),
    1,
    2,
    3,
    4,
    0.5,
    1000,
]

absurd = st.one_of(st.sampled_from(ABSURD), st.floats(-1e3, 1e3), st.integers(-3, 60))

#: The parameters of each numeric kernel class.
KERNEL_PARAMS = {
    GaussianKernel: ("gamma",),
    LaplacianKernel: ("gamma", "norm"),
    PolynomialKernel: ("degree", "gamma", "coef0"),
    LinearKernel: (),
    SigmoidKernel: ("gamma", "coef0"),
    SineKernel: ("order",),
}

#: Widths from "every Gram matrix is all ones" to "every Gram matrix is I".
GAMMAS = [1e-300, 1e-12, 1e-3, 0.5, 1.0, 1e3, 1e12, 1e300]


@st.composite
def kernels(draw, families=tuple(KERNEL_PARAMS)):
    """Valid kernels of every numeric family, with extreme parameters."""
    cls = draw(st.sampled_from(families))
    gamma = draw(st.sampled_from(GAMMAS))
    if cls is GaussianKernel:
        return GaussianKernel(gamma)
    if cls is LaplacianKernel:
        return LaplacianKernel(gamma, norm=draw(st.sampled_from(["l1", "l2"])))
    if cls is PolynomialKernel:
        return PolynomialKernel(
            degree=draw(st.integers(1, 5)),
            gamma=gamma,
            coef0=draw(st.sampled_from([0.0, 1.0, -1.0, 1e-300, 1e3])),
        )
    if cls is SigmoidKernel:
        return SigmoidKernel(gamma, coef0=draw(st.sampled_from([0.0, 1.0, -3.0])))
    if cls is SineKernel:
        return SineKernel(order=draw(st.integers(0, 6)))
    return LinearKernel()


@st.composite
def points(draw, n_features=None, min_rows=1, max_rows=8, finite=None):
    """2-D inputs: adversarial (NaN, inf, 1e300, ...) or ordinary, at random."""
    cols = (
        dict(min_cols=1, max_cols=4)
        if n_features is None
        else dict(min_cols=n_features, max_cols=n_features)
    )
    adversarial = draw(st.booleans())
    if finite is None:
        finite = draw(st.booleans())
    return draw(
        data_arrays(
            min_rows=min_rows, max_rows=max_rows, finite=finite, adversarial=adversarial, **cols
        )
    )


# ---------------------------------------------------------------------------
# 1. kernels: construction with absurd parameters
# ---------------------------------------------------------------------------


@given(cls=st.sampled_from(list(KERNEL_PARAMS)), data=st.data())
def test_kernel_construction_with_absurd_parameters(cls, data):
    params = {
        name: data.draw(absurd, label=name)
        for name in KERNEL_PARAMS[cls]
        if data.draw(st.booleans(), label=f"set {name}")
    }
    kernel = check_contract(lambda: cls(**params))
    if kernel is None:
        return
    X = data.draw(points(finite=True), label="X")
    check_contract(lambda: kernel(X), (len(X), len(X)))
    check_contract(lambda: kernel.diag(X), (len(X),))


def user_kernel(x, y, value=0.5):
    """A user's kernel on pairs of samples that may return anything."""
    return value


@given(
    name=st.sampled_from(
        [
            "rbf",
            "gaussian",
            "laplacian",
            "poly",
            "polynomial",
            "linear",
            "sigmoid",
            "sine",
            "cosine",
            "",
            None,
            3,
            user_kernel,
        ]
    ),
    gamma=st.one_of(st.none(), absurd),
    degree=absurd,
    coef0=absurd,
    kernel_params=st.sampled_from(
        [None, {}, {"value": np.nan}, {"value": np.inf}, {"value": 1.0}, {"foo": 1}, 3, "a", [1]]
    ),
    X=st.one_of(st.none(), points()),
)
def test_make_kernel_with_absurd_parameters(name, gamma, degree, coef0, kernel_params, X):
    if callable(name):
        gamma = None
    elif isinstance(kernel_params, dict) and "value" in kernel_params:
        kernel_params = None
    kernel = check_contract(
        lambda: make_kernel(
            name, gamma=gamma, degree=degree, coef0=coef0, kernel_params=kernel_params, X=X
        )
    )
    if kernel is not None and X is not None:
        check_contract(lambda: kernel(X), (len(X), len(X)))


def test_invalid_kernel_parameters_name_the_parameter_and_what_was_expected():
    cases = [
        (GaussianKernel, {"gamma": 0}, "gamma", "positive"),
        (GaussianKernel, {"gamma": -1.0}, "gamma", "positive"),
        (GaussianKernel, {"gamma": np.nan}, "gamma", "finite"),
        (GaussianKernel, {"gamma": np.inf}, "gamma", "finite"),
        (GaussianKernel, {"gamma": "1"}, "gamma", "real number"),
        (LaplacianKernel, {"norm": "l3"}, "norm", "'l1' or 'l2'"),
        (PolynomialKernel, {"degree": -1}, "degree", ">= 1"),
        (PolynomialKernel, {"degree": 2.5}, "degree", "integer"),
        (PolynomialKernel, {"coef0": np.inf}, "coef0", "finite"),
        (SigmoidKernel, {"gamma": 0.0}, "gamma", "positive"),
        (SineKernel, {"order": -1}, "order", ">= 0"),
    ]
    for cls, params, name, expected in cases:
        with pytest.raises(ValueError) as info:
            cls(**params)
        message = str(info.value)
        assert f"'{name}'" in message and expected in message, message
        assert repr(next(iter(params.values()))) in message, message
    # validated parameters are stored as Python numbers, whatever came
    assert type(GaussianKernel(np.float32(0.5)).gamma) is float
    assert type(PolynomialKernel(degree=np.int64(2)).degree) is int


@given(
    default=st.sampled_from([None, 1.0]),
    X=points(),
    kernel=st.sampled_from(["rbf", "gaussian", "poly", "sine"]),
)
def test_default_gamma(default, X, kernel):
    def call():
        gamma = default_gamma(X, kernel)
        assert gamma > 0
        return gamma

    check_contract(call, ())


def test_default_gamma_refuses_non_numeric_input():
    for X in (np.array([["a", "b"]]), np.array([[None]], dtype=object), np.ones(3)):
        with pytest.raises((ValueError, TypeError)) as info:
            default_gamma(X)
        assert "'X'" in str(info.value)


# ---------------------------------------------------------------------------
# 2. kernels: Gram blocks, diagonals, gradients
# ---------------------------------------------------------------------------


@given(kernel=kernels(), data=st.data())
def test_gram_block_and_diagonal(kernel, data):
    X = data.draw(points(), label="X")
    d = X.shape[1] if data.draw(st.booleans(), label="same width") else None
    Y = data.draw(points(n_features=d), label="Y")
    check_contract(lambda: kernel(X, Y), (len(X), len(Y)))
    check_contract(lambda: kernel(X), (len(X), len(X)))
    check_contract(lambda: kernel.diag(X), (len(X),))
    check_contract(lambda: np.concatenate([K for _, K in kernel.blocks(X, Y)]), (len(X), len(Y)))


@given(
    kernel=kernels(families=(GaussianKernel, LaplacianKernel)), X=points(finite=True, n_features=2)
)
def test_radial_gram_is_between_zero_and_one(kernel, X):
    K = check_contract(lambda: kernel(X), (len(X), len(X)))
    if K is not None:
        assert np.all((K >= 0) & (K <= 1))


@pytest.mark.parametrize("gamma, expected", [(1e-300, "ones"), (1e300, "identity")])
@pytest.mark.parametrize("cls", [GaussianKernel, LaplacianKernel])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_extreme_gamma_gives_all_ones_or_identity_without_warnings(cls, gamma, expected, dtype):
    X = np.array([[0.0, 1.0], [3.0, -2.0], [1e6, 1e5], [-7.5, 0.25]], dtype=dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        K = cls(gamma)(X)
        Ky = cls(gamma)(X, X[:2])
    target = np.ones((4, 4)) if expected == "ones" else np.eye(4)
    np.testing.assert_allclose(K, target, atol=1e-12)
    np.testing.assert_allclose(Ky, target[:, :2], atol=1e-12)


@given(kernel=kernels(), data=st.data())
def test_gradients(kernel, data):
    Z = data.draw(points(max_rows=4), label="Z")
    d = Z.shape[1] if data.draw(st.booleans(), label="same width") else None
    X = data.draw(points(n_features=d, max_rows=5), label="X")
    m, n = len(Z), len(X)
    W = data.draw(
        st.one_of(
            st.none(),
            data_arrays(min_rows=m, max_rows=m, min_cols=n, max_cols=n),
            data_arrays(max_rows=4, max_cols=5),
        ),
        label="weights",
    )
    if W is None:
        check_contract(lambda: kernel.gradient(Z, X), (m, n, Z.shape[1]))
    else:
        check_contract(lambda: kernel.gradient(Z, X, W), (m, Z.shape[1]))
    check_contract(lambda: kernel.diag_gradient(Z), Z.shape)


def test_gradient_refuses_non_numeric_weights():
    k = GaussianKernel(1.0)
    Z, X = np.zeros((2, 1)), np.ones((3, 1))
    for weights, error in [
        (np.full((2, 3), "a"), TypeError),
        (np.full((2, 3), None, dtype=object), TypeError),
        (np.ones((3, 2)), ValueError),
        (np.ones(3), ValueError),
    ]:
        with pytest.raises(error) as info:
            k.gradient(Z, X, weights)
        assert "'weights'" in str(info.value)


# ---------------------------------------------------------------------------
# 3. kernels: inverse maps
# ---------------------------------------------------------------------------

values_strategy = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    hnp.arrays(
        np.float64,
        st.tuples(st.integers(0, 4), st.integers(1, 3)),
        elements=st.one_of(
            st.floats(-2, 2),
            st.sampled_from([0.0, -0.0, 1.0, -1.0, 1e-300, 1e300, -1e300, np.nan, np.inf]),
        ),
    ),
    st.sampled_from(["a", None, [1.0, "b"], np.array(["x"])]),
)


@given(kernel=kernels(), values=values_strategy)
def test_inverse_maps(kernel, values):
    shape = np.shape(values)
    if isinstance(kernel, RadialKernel):
        check_contract(lambda: kernel.distance2_from_value(values), shape)
        check_contract(lambda: kernel.distance2_from_feature_distance2(values), shape)
    elif isinstance(kernel, LaplacianKernel):
        check_contract(lambda: kernel.distance_from_value(values), shape)
    elif isinstance(kernel, DotProductKernel):
        check_contract(lambda: kernel.inner_product_from_value(values), shape)


@given(
    kernel=kernels(families=(GaussianKernel, LaplacianKernel)),
    values=hnp.arrays(np.float64, 5, elements=st.floats(1e-200, 1.0)),
)
def test_radial_inverse_maps_are_non_negative(kernel, values):
    if isinstance(kernel, GaussianKernel):
        out = check_contract(lambda: kernel.distance2_from_value(values), (5,))
    else:
        out = check_contract(lambda: kernel.distance_from_value(values), (5,))
    if out is not None:
        assert np.all(out >= 0)


def test_inverse_maps_refuse_nan_naming_values():
    for call in (
        GaussianKernel(1.0).distance2_from_value,
        GaussianKernel(1.0).distance2_from_feature_distance2,
        LaplacianKernel(1.0).distance_from_value,
        PolynomialKernel(3).inner_product_from_value,
        SigmoidKernel().inner_product_from_value,
        LinearKernel().inner_product_from_value,
    ):
        with pytest.raises(ValueError, match="'values'|'d2'"):
            call(np.array([0.5, np.nan]))
        with pytest.raises(TypeError, match="'values'|'d2'"):
            call(np.array(["a"]))


# ---------------------------------------------------------------------------
# 4. kernels: inputs out of scope give named errors
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kernel",
    [
        GaussianKernel(),
        LaplacianKernel(),
        PolynomialKernel(),
        LinearKernel(),
        SigmoidKernel(),
        SineKernel(),
    ],
)
def test_numeric_kernels_refuse_strings_and_objects(kernel):
    for X in (np.array([["a", "b"]]), np.full((2, 2), "a", dtype=object), [["a", 1.0]]):
        with pytest.raises(TypeError, match="'X'"):
            kernel(X)
        with pytest.raises(TypeError, match="'Y'"):
            kernel(np.zeros((1, 2)), X)
    with pytest.raises(ValueError, match="'X'"):
        kernel(np.zeros(3))


symbols = st.sampled_from("abc")
sequences = st.one_of(st.text("abc", max_size=6), st.lists(symbols, max_size=6))


@given(
    X=st.lists(sequences, min_size=1, max_size=6),
    Y=st.lists(sequences, min_size=1, max_size=6),
    p=st.integers(1, 4),
    gamma=st.sampled_from(GAMMAS),
    method=st.sampled_from(["cosine", "trace"]),
)
def test_string_kernels_on_sequences(X, Y, p, gamma, method):
    for kernel in (
        SpectrumKernel(p),
        NormalizedKernel(SpectrumKernel(p), method=method),
        KernelDistanceRBF(SpectrumKernel(p), gamma=gamma),
        WeightedDegreeKernel(p, shift=p - 1, align="both"),
        NormalizedKernel(WeightedDegreeKernel(p), method=method),
    ):
        check_contract(lambda: kernel(X, Y), (len(X), len(Y)))
        check_contract(lambda: kernel(X), (len(X), len(X)))
        check_contract(lambda: kernel.diag(X), (len(X),))


@given(
    pairs=st.lists(
        st.text("ab", min_size=0, max_size=6).map(lambda s: (s, s[::-1])), min_size=1, max_size=5
    ),
    p=st.sampled_from([1, 3, 5]),
)
def test_joint_spectrum_kernel_on_pairs(pairs, p):
    check_contract(lambda: JointSpectrumKernel(p)(pairs), (len(pairs), len(pairs)))


@given(p=absurd, gamma=absurd)
def test_string_kernel_construction_with_absurd_parameters(p, gamma):
    check_contract(lambda: SpectrumKernel(p))
    check_contract(lambda: JointSpectrumKernel(p))
    check_contract(lambda: KernelDistanceRBF(SpectrumKernel(), gamma=gamma))
    check_contract(lambda: WeightedDegreeKernel(p, shift=gamma))


def test_string_kernels_refuse_numeric_input_naming_it():
    for X in (np.zeros((2, 3)), "abc", 3, [1.0, 2.0]):
        with pytest.raises((TypeError, ValueError)) as info:
            SpectrumKernel(2)(X)
        assert "'X'" in str(info.value)


@given(
    S=data_arrays(min_rows=1, max_rows=5, min_cols=1, max_cols=5),
    method=st.sampled_from(["cosine", "trace", "l2"]),
    own_diagonal=st.booleans(),
)
def test_normalize_gram(S, method, own_diagonal):
    if own_diagonal:
        check_contract(lambda: normalize_gram(S, method=method), S.shape)
    else:
        diag_x, diag_y = np.abs(S).sum(axis=1), np.abs(S).sum(axis=0)
        check_contract(lambda: normalize_gram(S, diag_x, diag_y, method=method), S.shape)


# ---------------------------------------------------------------------------
# 5. FeatureExpansion
# ---------------------------------------------------------------------------


@st.composite
def expansions(draw, families=tuple(KERNEL_PARAMS), max_expansions=3):
    """Random expansions: random coefficients (zeros included), duplicated support
    points, extreme widths."""
    kernel = draw(kernels(families))
    support = draw(points(finite=True, max_rows=8))
    n = len(support)
    m = draw(st.integers(1, max_expansions))
    coef = draw(
        st.one_of(
            data_arrays(
                min_rows=m,
                max_rows=m,
                min_cols=n,
                max_cols=n,
                finite=True,
                adversarial=draw(st.booleans()),
                dtypes=["float64", "float32", "int64"],
            ),
            st.sampled_from([np.zeros((m, n)), np.ones((m, n)) / n, np.eye(m, n)]),
        )
    )
    return kernel, support, coef


def _expansion_or_none(kernel, support, coef, norm2=None):
    """The expansion, or None after a named error. (The contract is checked
    on its coefficients: NumPy would read the expansion itself as a sequence.)"""
    built = []

    def build():
        built.append(FeatureExpansion(coef, support, kernel, norm2=norm2))
        return built[0].coef

    return None if check_contract(build) is None else built[0]


@given(args=expansions(), data=st.data())
def test_feature_expansion(args, data):
    kernel, support, coef = args
    psi = _expansion_or_none(kernel, support, coef)
    if psi is None:
        return
    m, d = len(psi), psi.n_features
    check_contract(psi.norm2, (m,))
    Z = data.draw(
        points(n_features=d if data.draw(st.booleans()) else None, min_rows=m, max_rows=m),
        label="Z",
    )
    check_contract(lambda: psi.distance2(Z), (m,))
    check_contract(lambda: psi.cross(Z), (m, len(Z)))
    check_contract(lambda: psi.inner(Z), (m,))
    check_contract(lambda: psi.distance2_gradient(Z), Z.shape)
    d2 = check_contract(lambda: psi.distance2(Z), (m,))
    if d2 is not None:
        assert np.all(d2 >= 0)


@given(
    coef=data_arrays(min_rows=0, max_rows=3, min_cols=0, max_cols=8, dtypes=None),
    support=data_arrays(min_rows=0, max_rows=8),
    kernel=st.one_of(kernels(), st.sampled_from([None, "rbf", GaussianKernel])),
    norm2=st.one_of(st.none(), data_arrays(max_rows=1, max_cols=4).map(np.ravel)),
)
def test_feature_expansion_construction_with_mismatched_arguments(coef, support, kernel, norm2):
    _expansion_or_none(kernel, support, coef, norm2)


def test_feature_expansion_mismatched_shapes_name_both_arguments():
    with pytest.raises(ValueError) as info:
        FeatureExpansion(np.ones((2, 3)), np.zeros((4, 2)), GaussianKernel())
    assert "'coef'" in str(info.value) and "'support'" in str(info.value)
    with pytest.raises(TypeError, match="'coef'"):
        FeatureExpansion(np.full(3, "a"), np.zeros((3, 2)), GaussianKernel())
    with pytest.raises(ValueError, match="'kernel'"):
        FeatureExpansion(np.ones(3), np.zeros((3, 2)), "rbf")


# ---------------------------------------------------------------------------
# 6. find_preimage
# ---------------------------------------------------------------------------

#: Options that keep each method fast on these tiny problems.
FAST_OPTIONS = {
    "fixed_point": {"max_iter": 30},
    "gradient": {"max_iter": 30},
    "mds": {"n_neighbors": 4},
    "learned": {},
    "closed_form": {},
    "exact": {},
}


def result_shape(m, d):
    """The contract for a PreimageResult (check_contract sees an object)."""

    def check(result):
        assert result.x.shape == (m, d), result.x.shape
        assert result.distance2.shape == (m,)
        assert np.all(np.isfinite(result.x)) and np.all(np.isfinite(result.distance2))
        assert np.all(result.distance2 >= 0)
        assert result.n_iter.shape == (m,) and result.converged.shape == (m,)

    return check


@given(args=expansions(), method=st.sampled_from(sorted(PREIMAGE_METHODS)), data=st.data())
def test_find_preimage_every_method(args, method, data):
    kernel, support, coef = args
    psi = _expansion_or_none(kernel, support, coef)
    if psi is None:
        return
    m, d = len(psi), psi.n_features
    x0 = data.draw(
        st.one_of(
            st.none(),
            points(n_features=d, min_rows=m, max_rows=m, finite=True),
            points(max_rows=4),
        ),
        label="x0",
    )
    options = dict(FAST_OPTIONS[method])
    if method == "fixed_point" and x0 is not None and data.draw(st.booleans()):
        options["alpha"] = data.draw(st.sampled_from([1e-300, 1e-3, 1.0, 1e300]))

    def call():
        result = find_preimage(psi, method=method, x0=x0, **options)
        return result.x, result.distance2

    out = check_contract(
        call,
        lambda out: (
            np.testing.assert_equal(out[0].shape, (m, d)),
            np.testing.assert_equal(out[1].shape, (m,)),
        ),
    )
    if out is not None:
        assert np.all(out[1] >= 0)


@given(
    args=expansions(families=(GaussianKernel,)),
    gamma=st.sampled_from([1e-300, 1e-12, 1e12, 1e300]),
    method=st.sampled_from(sorted(PREIMAGE_METHODS)),
)
@settings(max_examples=20)
def test_find_preimage_all_ones_and_identity_gram(args, gamma, method):
    _, support, coef = args
    psi = _expansion_or_none(GaussianKernel(gamma), support, coef)
    if psi is None:
        return
    m, d = len(psi), psi.n_features
    check_contract(lambda: find_preimage(psi, method, **FAST_OPTIONS[method]), result_shape(m, d))


@pytest.mark.parametrize("name", ["newton", "", "FIXED_POINT", None, 3, "mds "])
def test_unknown_method_lists_the_valid_ones(name):
    psi = FeatureExpansion(np.ones(3) / 3, np.eye(3), GaussianKernel())
    with pytest.raises(ValueError) as info:
        find_preimage(psi, method=name)
    message = str(info.value)
    assert "'method'" in message and repr(name) in message
    for valid in PREIMAGE_METHODS:
        assert valid in message


@pytest.mark.parametrize("method", sorted(set(PREIMAGE_METHODS) - {"exact"}))
def test_x0_of_wrong_shape_is_a_named_error_or_ignored(method):
    psi = FeatureExpansion(np.ones((2, 4)) / 4, np.eye(4)[:, :3], GaussianKernel())
    for x0 in (
        np.zeros((2, 2)),
        np.zeros((3, 3)),
        np.zeros((2, 3, 1)),
        "a",
        np.full((2, 3), np.nan),
    ):
        check_contract(lambda: find_preimage(psi, method, x0=x0), result_shape(2, 3))
    if method in ("fixed_point", "gradient"):
        with pytest.raises(ValueError, match="'x0'"):
            find_preimage(psi, method, x0=np.zeros((3, 3)))


def test_gradient_method_on_a_kernel_without_gradient_is_a_named_error():
    psi = FeatureExpansion(
        np.ones(3) / 3,
        np.eye(3),
        CallableKernel(lambda x, y: float(np.exp(-np.sum((x - y) ** 2)))),
    )
    with pytest.raises(ValueError, match="'method'"):
        find_preimage(psi, "gradient")


# ---------------------------------------------------------------------------
# 7. Mika's fixed point: vanishing denominators, non-convergence
# ---------------------------------------------------------------------------


def test_fixed_point_restarts_when_the_denominator_vanishes_and_never_returns_nan():
    # Σ γ_i k(z, x_i) = 0 at the start (z far from every support point, where
    # all k(z, x_i) underflow): the iteration must restart and say so.
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    psi = FeatureExpansion(np.array([1.0, 0.5, 0.5]), X, GaussianKernel(gamma=1.0))
    with pytest.warns(NumericalWarning, match="restart"):
        result = fixed_point(psi, x0=[[1e3, 1e3]], random_state=0)
    assert np.all(np.isfinite(result.x)) and result.info["restarts"][0] >= 1
    np.testing.assert_allclose(result.x, [[0.25, 0.25]], atol=0.2)


def test_fixed_point_whose_restarts_all_fail_returns_the_best_finite_point():
    # Σ γ_i k(z, x_i) underflows to 0 at the midpoint of a narrow dipole.
    X = np.array([[0.0], [1.0]])
    psi = FeatureExpansion(np.array([1.0, -1.0]), X, GaussianKernel(gamma=1e8))
    with pytest.warns(NumericalWarning, match="best point"):
        result = fixed_point(psi, x0=[[0.5]], max_restarts=0)
    assert np.all(np.isfinite(result.x)) and np.isfinite(result.distance2).all()
    assert result.distance2[0] <= 2.0 + 1e-12  # no worse than a support point


@pytest.mark.parametrize(
    "method, options", [("fixed_point", {"max_iter": 1}), ("gradient", {"max_iter": 1})]
)
def test_unconverged_solvers_warn_with_the_iteration_count(method, options):
    X = np.random.default_rng(0).normal(size=(6, 2))
    psi = FeatureExpansion(
        np.random.default_rng(1).dirichlet(np.ones(6)), X, GaussianKernel(gamma=0.5)
    )
    with pytest.warns(ConvergenceWarning, match="max_iter=1"):
        result = find_preimage(psi, method, x0=X[:1] + 3.0, **options)
    assert np.all(np.isfinite(result.x))


# ---------------------------------------------------------------------------
# 8. fitted solvers
# ---------------------------------------------------------------------------

#: The constructor parameters of each fitted solver.
SOLVER_PARAMS = {
    MDSPreimage: ("n_neighbors", "rank_tol"),
    ClosedFormPreimage: ("alpha",),
    LearnedPreimage: (
        "kernel",
        "gamma",
        "degree",
        "coef0",
        "alpha",
        "n_components",
        "n_landmarks",
        "random_state",
    ),
}


@given(args=expansions(), cls=st.sampled_from(list(SOLVER_PARAMS)), data=st.data())
def test_fitted_solvers_fit_and_solve(args, cls, data):
    kernel, support, coef = args
    params = {
        name: data.draw(absurd, label=name)
        for name in SOLVER_PARAMS[cls]
        if data.draw(st.booleans(), label=f"set {name}")
    }
    built = []

    def fit():
        built.append(cls(**params).fit(support, kernel))
        return ()

    if check_contract(fit) is None:
        return
    psi = _expansion_or_none(kernel, support, coef)
    if psi is not None:
        check_contract(lambda: built[0].solve(psi), result_shape(len(psi), psi.n_features))


@pytest.mark.parametrize("cls", list(SOLVER_PARAMS))
def test_unfitted_solvers_and_foreign_expansions_are_named_errors(cls):
    psi = FeatureExpansion(np.ones(3) / 3, np.eye(3), GaussianKernel())
    with pytest.raises(ValueError, match="not fitted") as info:
        cls().solve(psi)
    assert names_an_argument(info.value)
    fitted = cls().fit(psi.support, psi.kernel)
    for expansion in (np.ones(3), None, "psi"):
        with pytest.raises(TypeError, match="'expansion'"):
            fitted.solve(expansion)


@pytest.mark.parametrize("method", list(PREIMAGE_METHODS) + [MDSPreimage()])
def test_find_preimage_refuses_what_is_not_an_expansion(method):
    for expansion in (np.ones((2, 3)), None, [1.0]):
        with pytest.raises(TypeError, match="'expansion'"):
            find_preimage(expansion, method)


@pytest.mark.parametrize("method", [["mds"], {"fixed_point": 1}, np.array(["mds"])])
def test_find_preimage_refuses_unhashable_methods_listing_the_valid_ones(method):
    psi = FeatureExpansion(np.ones(3) / 3, np.eye(3), GaussianKernel())
    with pytest.raises(ValueError, match="'method'") as info:
        find_preimage(psi, method)
    assert all(name in str(info.value) for name in PREIMAGE_METHODS)


@given(
    C=points(max_rows=8),
    T=points(max_rows=8),
    data=st.data(),
    alpha=st.sampled_from([1e-300, 1e-12, 1.0, 1e300]),
    kernel=st.one_of(kernels(), st.sampled_from(["rbf", "poly", "linear", None])),
)
def test_learned_map_fit_coordinates_and_predict(C, T, data, alpha, kernel):
    n_landmarks = data.draw(
        st.one_of(st.none(), st.integers(1, max(len(C), 1))), label="n_landmarks"
    )
    learned = LearnedPreimage(kernel, alpha=alpha, n_landmarks=n_landmarks, random_state=0)
    fitted = check_contract(
        lambda: learned.fit_coordinates(C, T, forward_kernel=GaussianKernel(1.0))
    )
    if fitted is None:
        return
    new = data.draw(
        points(n_features=C.shape[1] if data.draw(st.booleans()) else None), label="new"
    )
    check_contract(lambda: fitted.predict(new), (len(new), T.shape[1]))


def test_closed_form_drops_rounding_level_eigenvalues_with_a_warning():
    X = np.array([[0.0, 0.0], [0.0, 0.0], [1.0, 2.0], [1.0, 2.0 + 1e-12]])
    with pytest.warns(NumericalWarning, match="dropped"):
        solver = ClosedFormPreimage(alpha=1e-3).fit(X, GaussianKernel(0.5))
    assert np.all(np.isfinite(solver.M_))


# ---------------------------------------------------------------------------
# 9. where warnings point
# ---------------------------------------------------------------------------


def _far_expansion():
    # An expansion far from every support point in feature space: the MDS
    # logarithm is undefined for most support points, which are left out.
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    return FeatureExpansion(np.array([3.0, -2.0, 2.5, -3.0]), X, GaussianKernel(gamma=5.0))


def test_mds_far_neighbour_warning_points_at_the_callers_line():
    psi = _far_expansion()
    with pytest.warns(NumericalWarning, match="left out") as record:
        find_preimage(psi, "mds")
    assert record[0].filename == __file__
    solver = MDSPreimage().fit(psi.support, psi.kernel)
    with pytest.warns(NumericalWarning, match="left out") as record:
        solver.solve(psi)
    assert record[0].filename == __file__
    with pytest.warns(NumericalWarning, match="left out") as record:
        find_preimage(psi, solver)
    assert record[0].filename == __file__


def test_inverse_map_clip_warnings_point_at_the_callers_line():
    for call in (
        lambda: GaussianKernel(1.0).distance2_from_value([2.0]),
        lambda: GaussianKernel(1.0).distance2_from_feature_distance2([3.0]),
        lambda: LaplacianKernel(1.0).distance_from_value([0.0]),
        lambda: SigmoidKernel().inner_product_from_value([1.0]),
        lambda: PolynomialKernel(2).inner_product_from_value([-1.0]),
    ):
        with pytest.warns(NumericalWarning, match="clipped") as record:
            call()
        assert record[0].filename == __file__


@pytest.mark.parametrize(
    "call",
    [
        lambda psi: find_preimage(psi, "fixed_point", x0=[[1e3, 1e3]], max_restarts=0),
        lambda psi: fixed_point(psi, x0=[[1e3, 1e3]], max_restarts=0),
        lambda psi: find_preimage(psi, "gradient", x0=[[0.3, 0.3]], max_iter=1),
        lambda psi: gradient_descent(psi, x0=[[0.3, 0.3]], max_iter=1),
    ],
)
def test_solver_warnings_point_at_the_callers_line(call):
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    psi = FeatureExpansion(np.array([[0.6, 0.3, 0.1]]), X, GaussianKernel(gamma=1.0))
    with pytest.warns(NumericalWarning) as record:
        call(psi)
    assert {r.filename for r in record} == {__file__}


def test_exact_warning_points_at_the_callers_line():
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    psi = FeatureExpansion(np.array([1.0, 1.0]), X, PolynomialKernel(3))
    for call in (lambda: find_preimage(psi, "exact"), lambda: exact_preimage(psi)):
        with pytest.warns(NumericalWarning, match="exact") as record:
            call()
        assert record[0].filename == __file__


# ---------------------------------------------------------------------------
# 10. the memory guard
# ---------------------------------------------------------------------------


def test_learned_map_refuses_an_n_by_n_system_over_the_budget():
    rng = np.random.default_rng(0)
    C, T = rng.normal(size=(100, 1)), rng.normal(size=(100, 1))
    with config_context(memory_budget="10kB"):
        with pytest.raises(MemoryBudgetError) as info:
            LearnedPreimage(alpha=1.0).fit_coordinates(C, T, forward_kernel=GaussianKernel())
        message = str(info.value)
        assert "100 x 100" in message and "n_landmarks" in message
        assert "Nyström" in message
        # the landmark map needs no n × n matrix
        LearnedPreimage(alpha=1.0, n_landmarks=10, random_state=0).fit_coordinates(
            C, T, forward_kernel=GaussianKernel()
        )


@pytest.mark.parametrize("solver", [ClosedFormPreimage(), MDSPreimage(), LearnedPreimage()])
def test_fitted_solvers_refuse_huge_training_sets_before_allocating(solver):
    X = np.zeros((200_000, 1))  # its Gram matrix would need 320 GB
    start = time.perf_counter()
    with config_context(memory_budget="1GB"):
        if isinstance(solver, MDSPreimage):  # MDS builds nothing n × n at fit
            solver.fit(X, GaussianKernel())
        else:
            with pytest.raises(MemoryBudgetError) as info:
                solver.fit(X, GaussianKernel())
            assert "200000 x 200000" in str(info.value)
            assert "n_landmarks" in str(info.value)
    assert time.perf_counter() - start < 5.0


def test_find_preimage_refuses_a_huge_fitted_method_quickly():
    X = np.zeros((200_000, 1))
    psi = FeatureExpansion(np.zeros(200_000), X, GaussianKernel(), norm2=np.zeros(1))
    with config_context(memory_budget="1GB"):
        for method in ("closed_form", "learned"):
            with pytest.raises(MemoryBudgetError, match="n_landmarks"):
                find_preimage(psi, method)


def test_names_an_argument_helper():
    assert names_an_argument("'X' must be finite")
    assert not names_an_argument("something went wrong")
