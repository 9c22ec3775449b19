"""Figures: what each plot draws is the data it was given, labels never cover
images, bad input fails naming the argument, and `import preimage` stays free
of matplotlib."""

import os
import subprocess
import sys
from types import SimpleNamespace

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
from matplotlib.collections import LineCollection, PathCollection  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

from preimage import FeatureExpansion, KernelPCADenoiser  # noqa: E402
from preimage.datasets import make_half_circle, make_three_clusters  # noqa: E402
from preimage.kernels import GaussianKernel  # noqa: E402
from preimage.plot import (  # noqa: E402
    plot_denoising_2d,
    plot_image_grid,
    plot_reduced_set,
    plot_reduced_set_error,
    pyplot,
    save_figure,
)
from preimage.reduced_set import reduce_expansion  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def reduced():
    """Three expansions over 2-D cluster points, reduced to 5 shared vectors."""
    X, _ = make_three_clusters(20, random_state=0)
    alpha = np.random.default_rng(0).normal(size=(3, X.shape[0]))
    psi = FeatureExpansion(alpha, X, GaussianKernel(gamma=5.0))
    return X, reduce_expansion(psi, 5, method="construction", shared=True, random_state=0)


def _scatter(ax, label_start):
    (found,) = [
        c
        for c in ax.collections
        if isinstance(c, PathCollection) and c.get_label().startswith(label_start)
    ]
    return found


# ---------------------------------------------------------------------------
# the import stays light
# ---------------------------------------------------------------------------


def test_import_preimage_does_not_import_matplotlib():
    code = "import preimage, sys; assert 'matplotlib' not in sys.modules, 'imported'"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_import_preimage_plot_waits_for_the_first_figure_to_import_matplotlib():
    code = (
        "import sys\n"
        "import preimage.plot as plot\n"
        "assert 'matplotlib' not in sys.modules, 'imported by preimage.plot'\n"
        "ax = plot.plot_spectrum([3.0, 2.0, 1.0])\n"
        "assert 'matplotlib.pyplot' in sys.modules\n"
        "assert plot.pyplot() is sys.modules['matplotlib.pyplot']\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "MPLBACKEND": "Agg"},
    )
    assert run.returncode == 0, run.stderr


def test_pyplot_is_matplotlib_pyplot_for_a_figure_of_ones_own():
    assert pyplot() is plt
    fig, axes = pyplot().subplots(1, 2)
    assert len(axes) == 2 and fig is axes[0].figure


# ---------------------------------------------------------------------------
# plot_denoising_2d
# ---------------------------------------------------------------------------


def test_denoising_2d_segments_join_each_noisy_point_to_its_denoised_point():
    rng = np.random.default_rng(0)
    noisy, denoised = rng.normal(size=(15, 2)), rng.normal(size=(15, 2))
    train, clean = rng.normal(size=(40, 2)), rng.normal(size=(15, 2))
    ax = plot_denoising_2d(noisy, denoised, clean=clean, train=train)

    (lines,) = [c for c in ax.collections if isinstance(c, LineCollection)]
    segments = np.array(lines.get_segments())
    assert segments.shape == (15, 2, 2)
    np.testing.assert_array_equal(segments[:, 0], noisy)
    np.testing.assert_array_equal(segments[:, 1], denoised)
    np.testing.assert_array_equal(_scatter(ax, "noisy").get_offsets(), noisy)
    np.testing.assert_array_equal(_scatter(ax, "denoised").get_offsets(), denoised)
    np.testing.assert_array_equal(_scatter(ax, "training").get_offsets(), train)
    np.testing.assert_array_equal(_scatter(ax, "clean").get_offsets(), clean)
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["training points (40)", "clean", "noisy → denoised", "noisy", "denoised"]
    assert ax.get_aspect() == 1.0


def test_denoising_2d_clean_curve_and_given_axes():
    t = np.linspace(0, np.pi, 30)
    curve = np.column_stack([np.cos(t), np.sin(t)])
    _, ax = plt.subplots()
    out = plot_denoising_2d(
        curve + 0.1, curve, clean=curve, clean_kind="curve", ax=ax, title="half circle"
    )
    assert out is ax and ax.get_title() == "half circle"
    (line,) = ax.lines
    np.testing.assert_array_equal(line.get_xydata(), curve)


def test_denoising_2d_on_a_toy_set_moves_points_toward_the_curve():
    X_train, _ = make_half_circle(150, noise=0.05, random_state=0)
    X_test, _ = make_half_circle(20, noise=0.2, random_state=1)
    X_hat = KernelPCADenoiser(n_components=4, gamma=2.0).fit(X_train).transform(X_test)
    ax = plot_denoising_2d(X_test, X_hat, train=X_train)
    (lines,) = [c for c in ax.collections if isinstance(c, LineCollection)]
    np.testing.assert_allclose(np.array(lines.get_segments())[:, 1], X_hat)


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"noisy": np.zeros(4), "denoised": np.zeros((4, 2))}, "noisy"),
        ({"noisy": np.zeros((4, 3)), "denoised": np.zeros((4, 3))}, "noisy"),
        ({"noisy": np.zeros((4, 2)), "denoised": np.zeros((4, 3))}, "denoised"),
        ({"noisy": np.zeros((4, 2)), "denoised": np.zeros((5, 2))}, "denoised"),
        ({"noisy": np.zeros((4, 2)), "denoised": np.full((4, 2), np.nan)}, "denoised"),
        (
            {"noisy": np.zeros((4, 2)), "denoised": np.zeros((4, 2)), "train": np.zeros((3, 1))},
            "train",
        ),
        ({"noisy": np.zeros((4, 2)), "denoised": np.zeros((4, 2)), "clean": np.zeros(2)}, "clean"),
        (
            {"noisy": np.zeros((4, 2)), "denoised": np.zeros((4, 2)), "clean_kind": "line"},
            "clean_kind",
        ),
    ],
)
def test_denoising_2d_bad_input_names_the_argument(kwargs, name):
    noisy, denoised = kwargs.pop("noisy"), kwargs.pop("denoised")
    with pytest.raises(ValueError, match=f"'{name}'"):
        plot_denoising_2d(noisy, denoised, **kwargs)


# ---------------------------------------------------------------------------
# plot_reduced_set
# ---------------------------------------------------------------------------


def test_reduced_set_scatter_offsets_and_colours_are_the_vectors_and_weights(reduced):
    X, rs = reduced
    ax = plot_reduced_set(rs, X=X)
    vectors = _scatter(ax, "reduced-set")
    np.testing.assert_array_equal(vectors.get_offsets(), rs.vectors)
    np.testing.assert_allclose(vectors.get_array(), np.abs(rs.coef).sum(axis=0))
    np.testing.assert_array_equal(_scatter(ax, "original").get_offsets(), X)
    sizes = vectors.get_sizes()
    assert sizes[np.argmax(np.abs(rs.coef).sum(axis=0))] == sizes.max()
    colorbar_axes = [a for a in ax.figure.axes if a is not ax]
    assert len(colorbar_axes) == 1  # the colour bar of the weights
    assert "construction" in ax.get_title()


def test_reduced_set_accepts_a_plain_array_with_or_without_coef():
    Z = np.array([[0.0, 1.0], [2.0, -1.0], [0.5, 0.5]])
    ax = plot_reduced_set(Z, coef=[1.0, -3.0, 0.5])
    np.testing.assert_array_equal(_scatter(ax, "reduced-set").get_array(), [1.0, 3.0, 0.5])
    ax = plot_reduced_set(Z)
    np.testing.assert_array_equal(_scatter(ax, "reduced-set").get_offsets(), Z)
    assert ax.get_legend() is not None


def test_reduced_set_of_a_reduced_svm():
    from sklearn.svm import SVC

    from preimage import reduce_svm

    X, y = make_three_clusters(20, random_state=0)
    y = (y == 0).astype(int)
    small = reduce_svm(SVC(gamma=5.0).fit(X, y), 3, random_state=0)
    ax = plot_reduced_set(small, X=X)
    np.testing.assert_array_equal(_scatter(ax, "reduced-set").get_offsets(), small.vectors_)
    ax = plot_reduced_set_error(small)
    assert len(ax.lines) == 1


def test_reduced_set_image_grid_shows_each_vector_with_its_coefficient():
    rng = np.random.default_rng(1)
    Z = rng.normal(size=(7, 12))  # signed: symmetric diverging map
    beta = rng.normal(size=7)
    fig = plot_reduced_set(Z, coef=beta, image_shape=(3, 4), n_cols=4)
    image_axes = [a for a in fig.axes if a.images]
    assert len(image_axes) == 7
    for j, a in enumerate(image_axes):
        image = a.images[0]
        np.testing.assert_array_equal(image.get_array(), Z[j].reshape(3, 4))
        assert a.get_title() == f"β = {beta[j]:.3g}"
        low, high = image.get_clim()
        assert low == -high == -np.abs(Z).max()
        assert image.get_cmap().name == "RdBu_r"
    grid = fig.axes[0].get_gridspec()
    assert (grid.nrows, grid.ncols) == (2, 4)


def test_reduced_set_image_grid_non_negative_uses_grey(reduced):
    _, rs = reduced
    fig = plot_reduced_set(np.abs(rs.vectors), coef=rs.coef, image_shape=(1, 2))
    image_axes = [a for a in fig.axes if a.images]
    assert [a.get_title() for a in image_axes] == [
        f"Σ|β| = {w:.3g}" for w in np.abs(rs.coef).sum(axis=0)
    ]
    assert image_axes[0].images[0].get_clim()[0] == 0.0


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"reduced": np.zeros((3, 5))}, "reduced"),  # d != 2 and no image_shape
        ({"reduced": np.zeros(3)}, "reduced"),
        ({"reduced": np.zeros((3, 2)), "coef": np.ones(4)}, "coef"),
        ({"reduced": np.zeros((3, 2)), "coef": np.ones((2, 2, 3))}, "coef"),
        ({"reduced": np.zeros((3, 2)), "coef": [1.0, np.nan, 2.0]}, "coef"),
        ({"reduced": np.zeros((3, 2)), "coef": [1.0, np.inf, 2.0]}, "coef"),
        ({"reduced": np.zeros((3, 2)), "X": np.zeros((5, 3))}, "X"),
        ({"reduced": np.zeros((3, 6)), "image_shape": (2, 2)}, "image_shape"),
        ({"reduced": np.zeros((3, 4)), "image_shape": (2, 2), "n_cols": 0}, "n_cols"),
    ],
)
def test_reduced_set_bad_input_names_the_argument(kwargs, name):
    reduced = kwargs.pop("reduced")
    with pytest.raises(ValueError, match=f"'{name}'"):
        plot_reduced_set(reduced, **kwargs)


def test_reduced_set_refuses_axes_for_a_grid_and_figure_for_a_scatter():
    _, ax = plt.subplots()
    with pytest.raises(ValueError, match="'ax'"):
        plot_reduced_set(np.zeros((3, 4)), image_shape=(2, 2), ax=ax)
    with pytest.raises(ValueError, match="'fig'"):
        plot_reduced_set(np.zeros((3, 2)), fig=plt.figure())


# ---------------------------------------------------------------------------
# plot_reduced_set_error
# ---------------------------------------------------------------------------


def test_reduced_set_error_lines_are_the_relative_history(reduced):
    _, rs = reduced
    ax = plot_reduced_set_error(rs)
    assert ax.get_yscale() == "log"
    history = rs.history
    assert len(ax.lines) == rs.coef.shape[0]
    for k, line in enumerate(ax.lines):
        np.testing.assert_array_equal(line.get_xdata(), history["n_vectors"])
        np.testing.assert_allclose(line.get_ydata(), history["error"][:, k] / rs.norm2[k])
    assert ax.lines[0].get_ydata()[0] == pytest.approx(1.0)  # empty set: ρ = ‖Ψ‖²
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "expansion 1",
        "expansion 2",
        "expansion 3",
    ]


def test_reduced_set_error_legend_is_capped_and_zeros_left_out():
    history = {
        "n_vectors": np.arange(4),
        "error": np.vstack([np.full(12, 2.0), np.full(12, 1.0), np.full(12, 0.5), np.zeros(12)]),
    }
    rs = SimpleNamespace(history=history, norm2=np.full(12, 2.0), method="construction")
    ax = plot_reduced_set_error(rs, max_legend=5)
    assert len(ax.lines) == 13  # 12 expansions + the count
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts == [f"expansion {k}" for k in range(1, 6)] + ["(+7 more)"]
    np.testing.assert_array_equal(ax.lines[0].get_ydata(), [1.0, 0.5, 0.25, np.nan])


@pytest.mark.parametrize(
    "reduced",
    [
        np.zeros((3, 2)),
        SimpleNamespace(history={}, norm2=np.ones(1)),
        SimpleNamespace(
            history={"n_vectors": np.arange(3), "error": np.ones((2, 1))}, norm2=np.ones(1)
        ),
        SimpleNamespace(
            history={"n_vectors": np.arange(3), "error": np.ones((3, 2))}, norm2=np.ones(1)
        ),
    ],
)
def test_reduced_set_error_bad_input_names_the_argument(reduced):
    with pytest.raises(ValueError, match="'reduced'"):
        plot_reduced_set_error(reduced)


# ---------------------------------------------------------------------------
# plot_image_grid
# ---------------------------------------------------------------------------


def _assert_labels_left_of_images(fig):
    """Every row label ends left of the first image of its row, inside the figure."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    axes = np.array(fig.axes).reshape(fig.axes[0].get_gridspec().get_geometry())
    for first in axes[:, 0]:
        label = first.yaxis.label
        if not label.get_text():
            continue
        text = label.get_window_extent(renderer)
        image = first.get_window_extent(renderer)
        assert text.x1 <= image.x0 + 0.5, (label.get_text(), text, image)
        assert text.x0 >= fig.bbox.x0 - 0.5, (label.get_text(), text)
        assert image.y0 - 0.5 <= (text.y0 + text.y1) / 2 <= image.y1 + 0.5


def test_image_grid_draws_the_reshaped_inputs_with_column_titles():
    rng = np.random.default_rng(0)
    rows = [rng.random((4, 6)), rng.random((3, 6))]
    fig = plot_image_grid(
        rows, ["a", "b"], image_shape=(2, 3), col_labels=list("wxyz"), title="grid"
    )
    axes = np.array(fig.axes).reshape(2, 4)
    assert sum(1 for a in fig.axes if a.images) == 7
    for i, images in enumerate(rows):
        for j, image in enumerate(images):
            np.testing.assert_array_equal(axes[i, j].images[0].get_array(), image.reshape(2, 3))
    assert not axes[1, 3].images  # the short row leaves a blank
    assert [a.get_title() for a in axes[0]] == list("wxyz")
    assert [text.get_text() for text in fig.texts] == ["grid"]  # the suptitle, alone


def test_image_grid_wraps_long_labels_and_keeps_them_off_the_images():
    rows = [np.random.default_rng(i).random((8, 64)) for i in range(4)]
    labels = [
        "clean",
        "preimage fixed point (recommended)",
        "scikit-learn KernelPCA.inverse_transform",
        "fixed point\n(recommended)\nMSE 15.4",
    ]
    fig = plot_image_grid(rows, labels, image_shape=(8, 8), title="demo")
    texts = [a.yaxis.label.get_text() for a in np.array(fig.axes).reshape(4, 8)[:, 0]]
    assert texts[1] == "preimage fixed\npoint\n(recommended)"
    assert texts[2] == "scikit-learn\nKernelPCA.inverse_transform"
    assert texts[3] == labels[3]
    assert all(len(line) <= 18 or " " not in line for t in texts for line in t.split("\n"))
    _assert_labels_left_of_images(fig)


def test_image_grid_label_width_none_keeps_labels():
    fig = plot_image_grid(
        [np.zeros((2, 4))],
        ["a rather long label that stays on one line"],
        image_shape=(2, 2),
        label_width=None,
    )
    assert fig.axes[0].yaxis.label.get_text() == "a rather long label that stays on one line"
    _assert_labels_left_of_images(fig)


def test_image_grid_of_the_demo_keeps_labels_off_the_images():
    from preimage.cli._demo import plot_demo

    rng = np.random.default_rng(0)
    names = [
        "preimage fixed point (recommended)",
        "preimage learned",
        "scikit-learn KernelPCA.inverse_transform",
    ]
    result = SimpleNamespace(
        clean=rng.random((6, 64)),
        noisy=rng.random((6, 64)),
        denoised={name: rng.random((6, 64)) for name in names},
        rows=[(name, 10.0 + k, 1.0) for k, name in enumerate(names)],
        image_shape=(8, 8),
        source="digits",
        noise="gaussian",
        n_train=100,
    )
    fig = plot_demo(result)
    assert sum(1 for a in fig.axes if a.images) == 5 * 6
    _assert_labels_left_of_images(fig)


def test_image_grid_in_a_subfigure_as_the_reproductions_use_it():
    fig = plt.figure(layout="constrained")
    subs = fig.subfigures(2, 1)
    for sub, label in zip(subs, ["linear PCA\neigenvector", "pre-image\nof ±V_k"]):
        out = plot_image_grid([np.eye(4)], [label], image_shape=(2, 2), fig=sub, vmin=-1, vmax=1)
        assert out is sub
    assert sum(1 for a in fig.axes if a.images) == 8


@pytest.mark.parametrize(
    "args, kwargs, name",
    [
        (([np.zeros((2, 4))], ["a", "b"]), {}, "row_labels"),
        (([np.zeros((2, 4))], ["a"]), {"col_labels": ["x"]}, "col_labels"),
        (([np.zeros((2, 5))], ["a"]), {}, "rows"),
        (([], []), {}, "rows"),
        (([np.zeros(4)], ["a"]), {}, "rows"),
    ],
)
def test_image_grid_bad_input_names_the_argument(args, kwargs, name):
    with pytest.raises(ValueError, match=f"'{name}'"):
        plot_image_grid(*args, image_shape=(2, 2), **kwargs)


def test_save_figure_writes_a_png(tmp_path, reduced):
    X, rs = reduced
    ax = plot_reduced_set(rs, X=X)
    path = save_figure(ax.figure, tmp_path / "reduced.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_image_grid_accepts_images_already_in_shape():
    images = np.arange(24.0).reshape(3, 2, 4)
    fig = plot_image_grid([images], ["shaped"], image_shape=(2, 4), vmax=23)
    for ax, image in zip(fig.axes, images):
        np.testing.assert_array_equal(ax.images[0].get_array(), image)
