"""Figures of a kernel PCA: its spectrum and its first two coordinates."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._typing import ArrayLike
from ._backend import pyplot

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["plot_embedding", "plot_spectrum"]


def plot_spectrum(
    eigenvalues: ArrayLike,
    *,
    total: float | None = None,
    ax: Axes | None = None,
    n_show: int | None = None,
    title: str = "Kernel PCA spectrum",
) -> Axes:
    """Eigenvalues (log scale) and the cumulative fraction of feature-space
    variance they explain.

    `total` is the whole variance, the trace of the centred Gram matrix; when
    it is not given, the sum of the eigenvalues shown stands in for it (right
    only when all are given).
    """
    plt = pyplot()
    eigenvalues = np.asarray(eigenvalues, dtype=float)
    if ax is None:
        _, ax = plt.subplots(figsize=(5, 3.5))
    shown = eigenvalues if n_show is None else eigenvalues[:n_show]
    k = np.arange(1, shown.size + 1)
    ax.semilogy(k, np.clip(shown, np.finfo(float).tiny, None), color="C0")
    ax.set_xlabel("component k")
    ax.set_ylabel("eigenvalue λ_k", color="C0")
    twin = ax.twinx()
    total = eigenvalues.sum() if total is None else float(total)
    twin.plot(k, np.cumsum(shown) / total, color="C1")
    twin.set_ylim(0, 1.02)
    twin.set_ylabel("cumulative variance fraction", color="C1")
    ax.set_title(title)
    return ax


def plot_embedding(
    Y: ArrayLike,
    labels: ArrayLike | None = None,
    *,
    ax: Axes | None = None,
    title: str = "First two kernel principal components",
) -> Axes:
    """Scatter of the first two coordinates, coloured by label."""
    plt = pyplot()
    Y = np.asarray(Y)
    if ax is None:
        _, ax = plt.subplots(figsize=(5, 4))
    scatter = ax.scatter(Y[:, 0], Y[:, 1], c=labels, s=8, cmap="tab10", alpha=0.8)
    if labels is not None:
        ax.legend(
            *scatter.legend_elements(),
            title="label",
            fontsize="small",
            loc="best",
            markerscale=0.8,
            ncols=2,
        )
    ax.set_xlabel("component 1")
    ax.set_ylabel("component 2")
    ax.set_title(title)
    return ax
