"""Figures of a kernel PCA: its spectrum and its first two coordinates."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from preimage._utils.typing import ArrayLike
from preimage.plot._backend import new_axes

if TYPE_CHECKING:
    from matplotlib.axes import Axes


def plot_spectrum(
    eigenvalues: ArrayLike,
    *,
    total: float | None = None,
    ax: Axes | None = None,
    n_show: int | None = None,
    title: str = "Kernel PCA spectrum",
) -> Axes:
    r"""Plot the eigenvalues of a kernel PCA and the fraction of variance they explain.

    The eigenvalues :math:`\lambda_k` go on a log scale (left axis), and the
    fraction of the variance :math:`T` that the first :math:`k` explain,

    .. math:: \frac{1}{T} \sum_{j \le k} \lambda_j,

    on a linear scale (right axis).

    Parameters
    ----------
    eigenvalues : array-like of shape (n_components,)
        The eigenvalues, largest first (such as ``KernelPCA.eigenvalues_``).
    total : float, optional
        The whole variance :math:`T`, the trace of the centred Gram matrix;
        by default the sum of the `eigenvalues`.
    ax : matplotlib.axes.Axes, optional
        Where to draw (a twin axis is added); a new figure by default.
    n_show : int, optional
        Draw only the first `n_show` eigenvalues; by default all.
    title : str, default="Kernel PCA spectrum"
        Title of the axes.

    Returns
    -------
    matplotlib.axes.Axes
        The axes of the eigenvalues.

    Examples
    --------
    >>> from preimage.plot import plot_spectrum
    >>> ax = plot_spectrum([4.0, 2.0, 1.0, 1.0])
    >>> cumulative = ax.figure.axes[1].lines[0]  # on the right axis
    >>> cumulative.get_ydata().tolist()
    [0.5, 0.75, 0.875, 1.0]
    >>> import matplotlib.pyplot as plt; plt.close(ax.figure)
    """
    eigenvalues = np.asarray(eigenvalues, dtype=float)
    ax = new_axes(ax, (5, 3.5), layout=None)
    shown = eigenvalues if n_show is None else eigenvalues[:n_show]
    k = np.arange(1, shown.size + 1)
    ax.semilogy(k, np.clip(shown, np.finfo(float).tiny, None), color="C0")
    ax.set(xlabel="component k", title=title)
    ax.set_ylabel("eigenvalue λ_k", color="C0")
    twin = ax.twinx()
    total = eigenvalues.sum() if total is None else float(total)
    twin.plot(k, np.cumsum(shown) / total, color="C1")
    twin.set_ylim(0, 1.02)
    twin.set_ylabel("cumulative variance fraction", color="C1")
    return ax


def plot_embedding(
    Y: ArrayLike,
    labels: ArrayLike | None = None,
    *,
    ax: Axes | None = None,
    title: str = "First two kernel principal components",
) -> Axes:
    """Plot the first two kernel principal components of the samples, coloured by label.

    Parameters
    ----------
    Y : array-like of shape (n_samples, n_components)
        Coordinates of the samples, such as ``KernelPCA.transform(X)``.
    labels : array-like of shape (n_samples,), optional
        A label per sample, which colours it (with a legend).
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure by default.
    title : str, default="First two kernel principal components"
        Title of the axes.

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.plot import plot_embedding
    >>> Y = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]])
    >>> ax = plot_embedding(Y, labels=[0, 1, 1])
    >>> ax.collections[0].get_offsets().tolist()
    [[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]]
    >>> import matplotlib.pyplot as plt; plt.close(ax.figure)
    """
    Y = np.asarray(Y)
    ax = new_axes(ax, (5, 4), layout=None)
    scatter = ax.scatter(Y[:, 0], Y[:, 1], c=labels, s=8, cmap="tab10", alpha=0.8)
    if labels is not None:
        style = dict(title="label", fontsize="small", loc="best", markerscale=0.8, ncols=2)
        ax.legend(*scatter.legend_elements(), **style)
    ax.set(xlabel="component 1", ylabel="component 2", title=title)
    return ax
