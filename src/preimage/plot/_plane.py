"""Points in the plane: what a denoiser does to 2-D points."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from preimage._utils.typing import ArrayLike
from preimage._utils.validation import check_array_2d
from preimage.plot._backend import new_axes

if TYPE_CHECKING:
    from matplotlib.axes import Axes

_CLEAN_KINDS = ("points", "curve")


def check_points(X: ArrayLike, name: str) -> np.ndarray:
    """`X` as a finite (n, 2) float array, or a ValueError naming `name`."""
    X = check_array_2d(X, name)
    if X.shape[1] != 2:
        raise ValueError(
            f"{name!r} must hold 2-D points, an array of shape (n, 2), got shape {X.shape}"
        )
    return X


def plot_denoising_2d(
    noisy: ArrayLike,
    denoised: ArrayLike,
    *,
    clean: ArrayLike | None = None,
    train: ArrayLike | None = None,
    ax: Axes | None = None,
    clean_kind: str = "points",
    title: str = "Kernel PCA denoising",
) -> Axes:
    r"""Plot noisy 2-D points, their denoised versions and the move between them.

    Each noisy point :math:`x` is joined to its denoised point :math:`\hat x`
    (Mika et al. (1999), Fig. 1).

    Parameters
    ----------
    noisy : array-like of shape (n, 2)
        The inputs.
    denoised : array-like of shape (n, 2)
        Their denoised versions, row for row.
    clean : array-like of shape (k, 2), optional
        The noiseless points or curve, drawn in black.
    train : array-like of shape (n_train, 2), optional
        The training points, drawn small and light grey underneath.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure by default.
    clean_kind : {"points", "curve"}, default="points"
        Draw `clean` as markers or as a line through its rows in order.
    title : str, default="Kernel PCA denoising"
        Title of the axes.

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on, with equal scales and a legend.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.plot import plot_denoising_2d
    >>> noisy = np.array([[0.1, 0.2], [0.9, 1.2]])
    >>> ax = plot_denoising_2d(noisy, np.round(noisy))
    >>> moves = ax.collections[0]  # one segment per point, noisy to denoised
    >>> moves.get_segments()[1].tolist()
    [[0.9, 1.2], [1.0, 1.0]]
    >>> import matplotlib.pyplot as plt; plt.close(ax.figure)
    """
    from matplotlib.collections import LineCollection

    noisy = check_points(noisy, "noisy")
    denoised = check_points(denoised, "denoised")
    if denoised.shape[0] != noisy.shape[0]:
        raise ValueError(
            f"'denoised' must have one row per row of 'noisy' "
            f"({noisy.shape[0]}), got shape {denoised.shape}"
        )
    clean = None if clean is None else check_points(clean, "clean")
    train = None if train is None else check_points(train, "train")
    if clean_kind not in _CLEAN_KINDS:
        raise ValueError(f"'clean_kind' must be one of {list(_CLEAN_KINDS)}, got {clean_kind!r}")
    ax = new_axes(ax, (5.5, 5))
    if train is not None:
        label = f"training points ({len(train)})"
        ax.scatter(train[:, 0], train[:, 1], s=5, color="0.8", zorder=1, label=label)
    if clean is not None and clean_kind == "curve":
        ax.plot(*clean.T, color="k", lw=1.2, zorder=4, label="clean")
    elif clean is not None:
        ax.scatter(
            clean[:, 0], clean[:, 1], s=12, marker="x", color="k", lw=0.8, zorder=4, label="clean"
        )
    # segment i runs from noisy point i to denoised point i
    moves = LineCollection(list(np.stack([noisy, denoised], axis=1)), colors="C0", lw=0.6)
    moves.set(alpha=0.6, zorder=2, label="noisy → denoised")
    ax.add_collection(moves)
    ax.scatter(noisy[:, 0], noisy[:, 1], s=14, fc="none", ec="C0", lw=0.8, zorder=3, label="noisy")
    ax.scatter(denoised[:, 0], denoised[:, 1], s=14, color="C3", zorder=5, label="denoised")
    return finish_plane(ax, title, markerscale=1.5)


def finish_plane(ax, title, *, markerscale):
    """Equal axes, legend, labels and title of a plot in the (x_1, x_2) plane."""
    ax.autoscale_view()
    ax.set_aspect("equal", adjustable="datalim")
    ax.legend(fontsize="small", loc="best", markerscale=markerscale, framealpha=0.9)
    ax.set(xlabel="$x_1$", ylabel="$x_2$", title=title)
    return ax
