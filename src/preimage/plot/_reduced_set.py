"""Reduced sets: their vectors, and their error against their size."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from preimage._utils.typing import ArrayLike
from preimage._utils.validation import check_array_2d, check_positive_int, check_real_array
from preimage.plot._backend import new_axes
from preimage.plot._images import plot_image_grid, shape_tuple
from preimage.plot._plane import check_points, finish_plane

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure, SubFigure


def _reduced_parts(
    reduced: Any, coef: ArrayLike | None
) -> tuple[np.ndarray, np.ndarray | None, str | None]:
    """Vectors (p, d), coefficients (m, p) or None and method name of `reduced`."""
    source = getattr(reduced, "reduced_set_", reduced)
    method = getattr(source, "method", None)
    if coef is None and hasattr(source, "vectors"):
        coef = getattr(source, "coef", None)
    vectors = check_array_2d(getattr(source, "vectors", source), "reduced")
    if coef is not None:
        coef = np.atleast_2d(check_real_array(coef, "coef"))
        if coef.ndim != 2 or coef.shape[1] != vectors.shape[0]:
            raise ValueError(
                f"'coef' must have shape (p,) or (m, p) with p = "
                f"{vectors.shape[0]} reduced-set vectors, got shape {coef.shape}"
            )
    return vectors, coef, method


def plot_reduced_set(
    reduced: Any,
    *,
    X: ArrayLike | None = None,
    coef: ArrayLike | None = None,
    ax: Axes | None = None,
    fig: Figure | SubFigure | None = None,
    image_shape: tuple[int, ...] | None = None,
    n_cols: int = 8,
    cmap: str | None = None,
    title: str | None = None,
) -> Axes | Figure | SubFigure:
    r"""Plot the reduced-set vectors :math:`z_j`, weighted by their coefficients.

    Each vector is weighted over the :math:`m` expansions
    :math:`\Psi'_k = \sum_j \beta_{kj} \phi(z_j)` by

    .. math:: w_j = \sum_k |\beta_{kj}|.

    2-D vectors are drawn over the data `X`, coloured and sized by :math:`w_j`;
    with `image_shape`, as a grid of images titled with their coefficient.

    Parameters
    ----------
    reduced : ReducedSetResult, reduced SVM or array-like of shape (p, d)
        Anything with ``.vectors`` (and ``.coef``), a fitted reduced SVM (its
        ``reduced_set_``), or the vectors themselves.
    X : array-like of shape (n, 2), optional
        The original points, scatter only.
    coef : array-like of shape (p,) or (m, p), optional
        Coefficients :math:`\beta`, instead of ``reduced.coef``; none draws
        the vectors unweighted.
    ax : matplotlib.axes.Axes, optional
        Where to draw the scatter; a new figure by default.
    fig : matplotlib.figure.Figure or matplotlib.figure.SubFigure, optional
        Where to draw the image grid; a new figure by default.
    image_shape : tuple of int, optional
        Shape of one vector seen as an image; ``prod(image_shape) == d``.
    n_cols : int, default=8
        Images per row of the grid.
    cmap : str, optional
        Colour map: ``"viridis"`` for the weights of the scatter,
        ``"RdBu_r"`` (signed) or ``"gray_r"`` (non-negative) for images.
    title : str, optional
        Title; by default the number of vectors and their method.

    Returns
    -------
    matplotlib.axes.Axes or matplotlib.figure.Figure
        The axes of the scatter, or the figure (or `fig`) of the image grid.

    References
    ----------
    Schölkopf et al. (1999), Sec. V.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.plot import plot_reduced_set
    >>> ax = plot_reduced_set(np.array([[0.0, 0.0], [1.0, 1.0]]), coef=[0.5, -2.0])
    >>> ax.collections[0].get_offsets().tolist()
    [[0.0, 0.0], [1.0, 1.0]]
    >>> import matplotlib.pyplot as plt; plt.close(ax.figure)
    """
    vectors, coef, method = _reduced_parts(reduced, coef)
    p, d = vectors.shape
    weight = None if coef is None else np.abs(coef).sum(axis=0)
    single = coef is not None and coef.shape[0] == 1
    if title is None:
        title = f"Reduced set: {p} vectors" + (f" ({method})" if method else "")

    if image_shape is None:
        if d != 2:
            raise ValueError(
                f"'reduced' holds vectors of dimension {d}; the scatter needs d = 2, "
                "otherwise give 'image_shape' to draw them as images"
            )
        if fig is not None:
            raise ValueError(
                "'fig' is for the image grid (with 'image_shape'); pass 'ax' "
                "to place the 2-D scatter"
            )
        ax = new_axes(ax, (6, 5))
        if X is not None:
            X = check_points(X, "X")
            label = f"original points ({len(X)})"
            ax.scatter(X[:, 0], X[:, 1], s=8, color="0.7", zorder=1, label=label)
        style: dict[str, Any] = dict(ec="k", zorder=3, label=f"reduced-set vectors $z_j$ ({p})")
        if weight is None:
            ax.scatter(vectors[:, 0], vectors[:, 1], s=120, color="C3", **style)
        else:
            top = float(weight.max())
            sizes = 40.0 + 160.0 * (weight / top if top > 0 else np.ones(p))
            x, y = vectors[:, 0], vectors[:, 1]
            points = ax.scatter(x, y, c=weight, s=sizes, cmap=cmap or "viridis", vmin=0.0, **style)
            label = r"$|\beta_j|$" if single else r"$\sum_k |\beta_{kj}|$"
            ax.figure.colorbar(points, ax=ax, shrink=0.85, label=label)
        return finish_plane(ax, title, markerscale=0.6)

    image_shape = shape_tuple(image_shape)
    if int(np.prod(image_shape)) != d:
        raise ValueError(
            f"'image_shape' must have {d} pixels in all (the dimension of "
            f"the vectors), got {image_shape}"
        )
    if ax is not None:
        raise ValueError(
            "'ax' holds one Axes but 'image_shape' draws a grid of images; "
            "pass 'fig' (a Figure or SubFigure) instead"
        )
    n_cols = min(p, check_positive_int(n_cols, "n_cols"))
    low, high = float(vectors.min()), float(vectors.max())
    if low < 0:
        span = max(-low, high)
        cmap, vmin, vmax = cmap or "RdBu_r", -span, span
    else:
        cmap, vmin, vmax = cmap or "gray_r", 0.0, (high if high > 0 else 1.0)
    rows = [vectors[start : start + n_cols] for start in range(0, p, n_cols)]
    fig = plot_image_grid(
        rows, None, image_shape=image_shape, fig=fig, cmap=cmap, title=title, vmin=vmin, vmax=vmax
    )
    image_axes = [a for a in fig.axes if a.images][-p:]
    for j, a in enumerate(image_axes):
        text = f"β = {coef[0, j]:.3g}" if single else f"Σ|β| = {weight[j]:.3g}"
        a.set_title(f"z_{j + 1}" if coef is None else text, fontsize=8)
    fig.colorbar(image_axes[0].images[0], ax=image_axes, shrink=0.8, aspect=30, label="value")
    return fig


def plot_reduced_set_error(
    reduced: Any, *, ax: Axes | None = None, max_legend: int = 8, title: str | None = None
) -> Axes:
    r"""Plot the relative feature-space error of a reduced set against its size.

    The relative error of expansion :math:`k`,

    .. math:: \frac{\rho_k}{\|\Psi_k\|^2}, \qquad
              \rho_k = \|\Psi_k - \Psi'_k\|^2,

    is drawn from ``reduced.history`` on a log axis, one line per expansion;
    a zero error or :math:`\|\Psi_k\|^2 = 0` leaves a gap.

    Parameters
    ----------
    reduced : ReducedSetResult or reduced SVM
        With ``history = {"n_vectors": (s,), "error": (s, m)}`` and
        ``norm2`` (m,); a reduced SVM gives its ``reduced_set_``.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure by default.
    max_legend : int, default=8
        Legend entries for at most this many expansions; the rest are
        counted in one extra entry.
    title : str, optional
        Title; by default the method that made the reduced set.

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on.

    References
    ----------
    Schölkopf et al. (1999), Sec. V.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage import FeatureExpansion
    >>> from preimage.kernels import GaussianKernel
    >>> from preimage.reduced_set import reduce_expansion
    >>> from preimage.plot import plot_reduced_set_error
    >>> X = np.array([[0.0], [0.5], [3.0]])
    >>> rs = reduce_expansion(FeatureExpansion([1.0, 1.0, -0.5], X, GaussianKernel()), 2,
    ...                       method="selection_kpca")
    >>> ax = plot_reduced_set_error(rs)
    >>> len(ax.lines)
    1
    >>> import matplotlib.pyplot as plt; plt.close(ax.figure)
    """
    from matplotlib.ticker import MaxNLocator

    source = getattr(reduced, "reduced_set_", reduced)
    history = getattr(source, "history", None)
    if not isinstance(history, dict) or not {"n_vectors", "error"} <= set(history):
        raise ValueError(
            "'reduced' must be a ReducedSetResult (or a reduced SVM) with "
            "history {'n_vectors': ..., 'error': ...}, got "
            f"{type(reduced).__name__} with history {history!r}"
        )
    n_vectors = np.asarray(history["n_vectors"], dtype=float)
    error = np.asarray(history["error"], dtype=float)
    error = error[:, None] if error.ndim == 1 else error
    norm2 = np.atleast_1d(np.asarray(source.norm2, dtype=float))
    if n_vectors.ndim != 1 or error.shape[0] != n_vectors.size or error.shape[1] != norm2.size:
        raise ValueError(
            f"'reduced' has an inconsistent history: n_vectors {n_vectors.shape}, error "
            f"{error.shape}, norm2 {norm2.shape}; expected (s,), (s, m) and (m,)"
        )
    max_legend = check_positive_int(max_legend, "max_legend", minimum=0)
    relative = np.divide(error, norm2, out=np.full_like(error, np.nan), where=norm2 > 0)
    relative[~(relative > 0)] = np.nan  # log axis: zeros and ‖Ψ‖² = 0 left out
    ax = new_axes(ax, (5.5, 4))
    m = relative.shape[1]
    marker = "o" if n_vectors.size <= 40 else None
    for k in range(m):
        label = f"expansion {k + 1}" if k < max_legend else None
        ax.plot(
            n_vectors, relative[:, k], marker=marker, ms=3, lw=1.2, color=f"C{k % 10}", label=label
        )
    if m > max_legend:
        ax.plot([], [], " ", label=f"(+{m - max_legend} more)")
    ax.set_yscale("log")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(True, which="major", alpha=0.3)
    ax.set(xlabel="number of reduced-set vectors", ylabel=r"relative error $\rho\,/\,\|\Psi\|^2$")
    if m > 1:
        ax.legend(fontsize="small", loc="best", ncols=2 if min(m, max_legend) > 4 else 1)
    method = getattr(source, "method", None)
    ax.set_title(
        title if title is not None else "Reduced-set error" + (f" ({method})" if method else "")
    )
    return ax
