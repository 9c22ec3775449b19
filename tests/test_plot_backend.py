"""The user's matplotlib backend is the user's.

Every public function of :mod:`preimage.plot` draws with the backend the user
set, never switching it (a switch breaks inline figures in Jupyter and
windows on a desktop), and saves without a display. The command line is a
program with figures for files only: it chooses Agg for itself, unless the
user set ``MPLBACKEND``.

The backend the tests set is one of their own (a ``module://`` backend that
no library would pick by itself), with no display, which is when the
library used to switch to Agg.
"""

import os
from pathlib import Path
import subprocess
import sys

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")

import preimage  # noqa: E402
from preimage import FeatureExpansion, plot  # noqa: E402
from preimage.kernels import GaussianKernel  # noqa: E402
from preimage.reduced_set import reduce_expansion  # noqa: E402

#: A backend of the user's own: Agg's drawing under a canvas class of its own,
#: which writes a line to $USERS_BACKEND_LOG (if set) for every figure made.
BACKEND_SOURCE = """
import os

from matplotlib.backend_bases import FigureManagerBase
from matplotlib.backends.backend_agg import FigureCanvasAgg


class FigureCanvas(FigureCanvasAgg):
    manager_class = FigureManagerBase

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if os.environ.get("USERS_BACKEND_LOG"):
            with open(os.environ["USERS_BACKEND_LOG"], "a") as log:
                log.write("figure\\n")


FigureManager = FigureManagerBase
"""
BACKEND = "module://users_backend"
PNG = b"\x89PNG\r\n\x1a\n"

# Where a session would find its display (X11, Wayland) or its chosen backend.
_DISPLAY_VARIABLES = ("DISPLAY", "WAYLAND_DISPLAY", "MPLBACKEND")


@pytest.fixture
def users_backend(tmp_path, monkeypatch):
    """The user's own backend, set as a user sets it, without a display; the
    test run's backend is back afterwards."""
    (tmp_path / "users_backend.py").write_text(BACKEND_SOURCE)
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in _DISPLAY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    original = matplotlib.get_backend()
    matplotlib.use(BACKEND)
    yield BACKEND
    plot.pyplot().close("all")
    matplotlib.use(original)


def _calls(tmp_path):
    """Small valid inputs for every public function of preimage.plot, by name."""
    rng = np.random.default_rng(0)
    points = rng.normal(size=(6, 2))
    X = np.array([[0.0], [0.5], [3.0]])
    reduced = reduce_expansion(
        FeatureExpansion([1.0, 1.0, -0.5], X, GaussianKernel()), 2, method="selection_kpca"
    )
    return {
        "pyplot": lambda: plot.pyplot(),
        "save_figure": lambda: plot.save_figure(plot.pyplot().figure(), tmp_path / "figure.png"),
        "plot_image_grid": lambda: plot.plot_image_grid(
            [rng.random((3, 4))], ["row"], image_shape=(2, 2)
        ),
        "plot_denoising_2d": lambda: plot.plot_denoising_2d(points, points / 2),
        "plot_spectrum": lambda: plot.plot_spectrum([3.0, 2.0, 1.0]),
        "plot_embedding": lambda: plot.plot_embedding(points, [0, 1, 0, 1, 0, 1]),
        "plot_reduced_set": lambda: plot.plot_reduced_set(points[:3], coef=[0.5, -1.0, 2.0]),
        "plot_reduced_set_error": lambda: plot.plot_reduced_set_error(reduced),
    }


def test_every_plot_function_draws_with_the_users_backend_and_leaves_it(users_backend, tmp_path):
    calls = _calls(tmp_path)
    public = {name for name in plot.__all__ if callable(getattr(plot, name))}
    assert public == set(calls), (
        "give every public function of preimage.plot small "
        "inputs in _calls: "
        f"{sorted(public ^ set(calls))}"
    )
    for name in sorted(public):
        calls[name]()
        assert matplotlib.get_backend() == users_backend, f"{name} changed the backend"
    plt = plot.pyplot()
    figures = [plt.figure(n) for n in plt.get_fignums()]
    assert len(figures) >= len(public) - 2  # pyplot() draws none, save_figure closes its own
    assert all(type(f.canvas).__module__ == "users_backend" for f in figures)
    # saved without a display, whatever the backend
    assert (tmp_path / "figure.png").read_bytes()[:8] == PNG


def _command(args, cwd, **env):
    """`preimage ARGS` (or `python -m reproductions ARGS[1:]` for ARGS
    starting with "reproduce") in a subprocess without a display, on this
    test run's package (and the user's backend module importable)."""
    if args[0] == "reproduce":
        args = ["-m", "reproductions", *args[1:]]
    else:
        args = ["-m", "preimage.cli", *args]
    root = Path(__file__).resolve().parents[1]
    paths = [str(Path(preimage.__file__).parents[1]), str(root), str(cwd)]
    paths.append(os.environ.get("PYTHONPATH"))
    environment = {k: v for k, v in os.environ.items() if k not in _DISPLAY_VARIABLES}
    environment.update(PYTHONPATH=os.pathsep.join(filter(None, paths)), **env)
    return subprocess.run(
        [sys.executable, *args],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture
def window_only_matplotlibrc(tmp_path):
    """A user's matplotlibrc asking for windows (TkAgg) and no fallback: the
    library's figures then need a display, and a server has none."""
    rc = tmp_path / "rc"
    rc.mkdir()
    (rc / "matplotlibrc").write_text("backend: TkAgg\nbackend_fallback: False\n")
    return str(rc)


def test_the_library_keeps_a_backend_that_needs_a_display(tmp_path, window_only_matplotlibrc):
    """What the command line's own choice is for: without it, the user's
    backend stands, and a figure needs a display."""
    code = "from preimage.plot import plot_spectrum; plot_spectrum([2.0, 1.0])"
    environment = {k: v for k, v in os.environ.items() if k not in _DISPLAY_VARIABLES}
    environment.update(
        MATPLOTLIBRC=window_only_matplotlibrc, PYTHONPATH=str(Path(preimage.__file__).parents[1])
    )
    run = subprocess.run(
        [sys.executable, "-c", code], env=environment, capture_output=True, text=True, timeout=300
    )
    assert run.returncode != 0 and "TkAgg" in run.stderr


@pytest.mark.parametrize(
    "args, figures",
    [
        (
            ["reproduce", "toy-2d", "--quick", "--output-dir", "out", "--quiet"],
            ["out/toy-2d-quick/curves.png", "out/toy-2d-quick/three_clusters.png"],
        ),
        (
            ["demo", "--n-train", "10", "--n-test", "10", "--output-dir", "out", "--quiet"],
            ["out/denoising.png"],
        ),
    ],
)
@pytest.mark.slow
def test_the_command_line_writes_its_figures_without_a_display(
    tmp_path, args, figures, window_only_matplotlibrc
):
    run = _command(args, tmp_path, MATPLOTLIBRC=window_only_matplotlibrc)
    assert run.returncode == 0, run.stderr
    assert "no figure" not in run.stderr
    for figure in figures:
        assert (tmp_path / figure).read_bytes()[:8] == PNG


@pytest.mark.slow
def test_the_command_line_keeps_the_backend_of_mplbackend(tmp_path):
    (tmp_path / "users_backend.py").write_text(BACKEND_SOURCE)
    log = tmp_path / "figures.log"
    run = _command(
        ["reproduce", "toy-2d", "--quick", "--output-dir", "out", "--quiet"],
        tmp_path,
        MPLBACKEND=BACKEND,
        USERS_BACKEND_LOG=str(log),
    )
    assert run.returncode == 0, run.stderr
    # toy-2d draws two figures, each made by the user's backend
    assert log.read_text().count("figure") >= 2
    assert (tmp_path / "out" / "toy-2d-quick" / "curves.png").read_bytes()[:8] == PNG
