"""Figures for kernel PCA and pre-images (matplotlib, imported lazily).

Importing :mod:`preimage` never imports matplotlib; the functions here do, and
say how to install it when it is missing (``pip install "preimage[plot]"``).
"""

import numpy as np

__all__ = ["plot_spectrum", "plot_embedding", "plot_image_grid", "save_figure"]


def _pyplot():
    try:
        import matplotlib

        if matplotlib.get_backend().lower() not in ("agg", "pdf", "svg", "ps", "cairo"):
            import os

            if not os.environ.get("DISPLAY") and not os.environ.get("MPLBACKEND"):
                matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "preimage.plot needs matplotlib: pip install \"preimage[plot]\"") from exc
    return plt


def plot_spectrum(eigenvalues, *, total=None, ax=None, n_show=None,
                  title="Kernel PCA spectrum"):
    """Eigenvalues (log scale) and the cumulative fraction of feature-space
    variance they explain.

    `total` is the whole variance, the trace of the centred Gram matrix; when
    it is not given, the sum of the eigenvalues shown stands in for it (right
    only when all are given).
    """
    plt = _pyplot()
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


def plot_embedding(Y, labels=None, *, ax=None, title="First two kernel principal components"):
    """Scatter of the first two coordinates, coloured by label."""
    plt = _pyplot()
    Y = np.asarray(Y)
    if ax is None:
        _, ax = plt.subplots(figsize=(5, 4))
    scatter = ax.scatter(Y[:, 0], Y[:, 1], c=labels, s=8, cmap="tab10", alpha=0.8)
    if labels is not None:
        ax.legend(*scatter.legend_elements(), title="label", fontsize="small",
                  loc="best", markerscale=0.8, ncols=2)
    ax.set_xlabel("component 1")
    ax.set_ylabel("component 2")
    ax.set_title(title)
    return ax


def plot_image_grid(rows, row_labels, *, image_shape, fig=None, cmap="gray_r",
                    title=None, vmin=0.0, vmax=1.0):
    """A grid of images: one row per entry of `rows` (each (n_cols, n_pixels)),
    labelled on the left."""
    plt = _pyplot()
    n_rows = len(rows)
    n_cols = max(len(r) for r in rows)
    if fig is None:
        fig = plt.figure(figsize=(1.0 * n_cols + 1.6, 1.0 * n_rows + (0.5 if title else 0.1)),
                         layout="constrained")
    axes = fig.subplots(n_rows, n_cols, squeeze=False)
    for i, (images, label) in enumerate(zip(rows, row_labels)):
        for j in range(n_cols):
            ax = axes[i, j]
            ax.set_xticks([])
            ax.set_yticks([])
            for spine in ax.spines.values():
                spine.set_visible(False)
            if j < len(images):
                ax.imshow(np.asarray(images[j]).reshape(image_shape), cmap=cmap,
                          vmin=vmin, vmax=vmax, interpolation="nearest")
        axes[i, 0].set_ylabel(label, rotation=0, ha="right", va="center", fontsize=9)
    if title:
        fig.suptitle(title)
    return fig


def save_figure(fig, path, *, dpi=110):
    """Save `fig` to `path` and close it."""
    plt = _pyplot()
    fig.savefig(path, dpi=dpi, bbox_inches="tight")
    plt.close(fig)
    return path
