"""Figures for kernel PCA and pre-images (matplotlib, imported lazily).

Importing :mod:`preimage` never imports matplotlib; the functions here do, and
say how to install it when it is missing (``pip install "preimage[plot]"``).
"""

import textwrap

import numpy as np

from ._validation import check_array_2d, check_positive_int

__all__ = [
    "plot_spectrum",
    "plot_embedding",
    "plot_image_grid",
    "plot_denoising_2d",
    "plot_reduced_set",
    "plot_reduced_set_error",
    "save_figure",
]

#: Row labels of :func:`plot_image_grid` are wrapped to lines of this many characters.
LABEL_WIDTH = 18
_CLEAN_KINDS = ("points", "curve")
_LABEL_FONTSIZE = 9
# Mean width of one character of a 9 pt label in inches; sizes the label column.
_INCH_PER_CHAR = 0.075


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


def _wrap_label(label, width):
    """`label` with every line wrapped at `width` characters (words kept whole)."""
    label = str(label)
    if width is None:
        return label
    return "\n".join(textwrap.fill(line, width, break_long_words=False,
                                   break_on_hyphens=False) or line
                     for line in label.split("\n"))


def plot_image_grid(rows, row_labels=None, *, image_shape, fig=None, cmap="gray_r",
                    title=None, vmin=0.0, vmax=1.0, col_labels=None,
                    label_width=LABEL_WIDTH):
    """A grid of images, one row per entry of `rows`, labelled on the left.

    Parameters
    ----------
    rows : sequence of array-like, each of shape (n_images, n_pixels)
        The images of each row, flattened (or already of `image_shape`);
        rows may hold different numbers of images (missing cells stay blank).
    row_labels : sequence of str, optional
        One label per row, written left of its first image. Each line is
        wrapped at `label_width` characters, and the label column of a new
        figure is made wide enough for the longest line, so long labels
        ("preimage fixed point (recommended)") neither overlap the images
        nor squeeze them.
    image_shape : tuple of int
        Shape of one image, e.g. ``(28, 28)``.
    fig : Figure or SubFigure, optional
        Where to draw; a new constrained-layout figure by default.
    cmap, vmin, vmax
        Colour map and range shared by every image.
    title : str, optional
        Figure title.
    col_labels : sequence of str, optional
        One title per column, above the top row.
    label_width : int or None, default=18
        Wrap width of the row labels in characters; None leaves them as
        given.

    Returns
    -------
    Figure or SubFigure

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.plot import plot_image_grid
    >>> fig = plot_image_grid([np.eye(4)[:3], np.eye(4)[1:]], ["first row", "second"],
    ...                       image_shape=(2, 2), col_labels=["a", "b", "c"])
    >>> sum(1 for ax in fig.axes if ax.images)
    6
    >>> import matplotlib.pyplot as plt; plt.close(fig)
    """
    plt = _pyplot()
    image_shape = tuple(int(s) for s in np.atleast_1d(image_shape))
    n_pixels = int(np.prod(image_shape))
    rows = [np.asarray(images) for images in rows]
    if not rows or any(images.ndim < 1 or images.size != len(images) * n_pixels
                       for images in rows):
        raise ValueError(
            f"'rows' must be a non-empty sequence of arrays (n_images, {n_pixels}) "
            f"matching 'image_shape'={image_shape}, got shapes "
            f"{[images.shape for images in rows]}")
    rows = [images.reshape(len(images), n_pixels) for images in rows]
    n_rows = len(rows)
    n_cols = max(len(images) for images in rows)
    if row_labels is None:
        row_labels = [""] * n_rows
    row_labels = [_wrap_label(label, label_width) for label in row_labels]
    if len(row_labels) != n_rows:
        raise ValueError(f"'row_labels' must hold one label per row ({n_rows}), got "
                         f"{len(row_labels)}")
    if col_labels is not None and len(col_labels) != n_cols:
        raise ValueError(f"'col_labels' must hold one label per column ({n_cols}), got "
                         f"{len(col_labels)}")
    if fig is None:
        longest = max(len(line) for label in row_labels for line in label.split("\n"))
        label_column = max(1.6, _INCH_PER_CHAR * longest + 0.3)
        height = 1.0 * n_rows + (0.5 if title else 0.1) + (0.3 if col_labels else 0.0)
        fig = plt.figure(figsize=(1.0 * n_cols + label_column, height), layout="compressed")
    axes = fig.subplots(n_rows, n_cols, squeeze=False)
    for i, (images, label) in enumerate(zip(rows, row_labels)):
        for j in range(n_cols):
            ax = axes[i, j]
            ax.set_xticks([])
            ax.set_yticks([])
            for spine in ax.spines.values():
                spine.set_visible(False)
            if j < len(images):
                ax.imshow(images[j].reshape(image_shape), cmap=cmap,
                          vmin=vmin, vmax=vmax, interpolation="nearest")
        axes[i, 0].set_ylabel(label, rotation=0, ha="right", va="center",
                              fontsize=_LABEL_FONTSIZE)
    if col_labels is not None:
        for ax, label in zip(axes[0], col_labels):
            ax.set_title(str(label), fontsize=_LABEL_FONTSIZE)
    if title:
        fig.suptitle(title)
    return fig


def _check_points(X, name):
    """`X` as a finite (n, 2) float array, or a ValueError naming `name`."""
    X = check_array_2d(X, name)
    if X.shape[1] != 2:
        raise ValueError(f"{name!r} must hold 2-D points, an array of shape (n, 2), "
                         f"got shape {X.shape}")
    return X


def plot_denoising_2d(noisy, denoised, *, clean=None, train=None, ax=None,
                      clean_kind="points", title="Kernel PCA denoising"):
    """Noisy 2-D points, their denoised versions and the move between them.

    Each noisy point x is joined by a thin line to its denoised point x̂ (the
    pre-image of its projection onto the leading kernel principal
    components, Mika et al. 1999, Fig. 1), so the figure shows where the
    denoiser pulls every point: onto the structure of the training data.

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
    ax : Axes, optional
        Where to draw; a new figure by default.
    clean_kind : {"points", "curve"}, default="points"
        Draw `clean` as markers or as a line through its rows in order.
    title : str

    Returns
    -------
    Axes

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.plot import plot_denoising_2d
    >>> noisy = np.array([[0.1, -0.1], [0.9, 1.2]])
    >>> ax = plot_denoising_2d(noisy, np.round(noisy))
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['noisy → denoised', 'noisy', 'denoised']
    >>> import matplotlib.pyplot as plt; plt.close(ax.figure)
    """
    plt = _pyplot()
    from matplotlib.collections import LineCollection

    noisy = _check_points(noisy, "noisy")
    denoised = _check_points(denoised, "denoised")
    if denoised.shape[0] != noisy.shape[0]:
        raise ValueError(f"'denoised' must have one row per row of 'noisy' "
                         f"({noisy.shape[0]}), got shape {denoised.shape}")
    clean = None if clean is None else _check_points(clean, "clean")
    train = None if train is None else _check_points(train, "train")
    if clean_kind not in _CLEAN_KINDS:
        raise ValueError(f"'clean_kind' must be one of {list(_CLEAN_KINDS)}, "
                         f"got {clean_kind!r}")
    if ax is None:
        _, ax = plt.subplots(figsize=(5.5, 5), layout="constrained")
    if train is not None:
        ax.scatter(train[:, 0], train[:, 1], s=5, color="0.8", zorder=1,
                   label=f"training points ({train.shape[0]})")
    if clean is not None and clean_kind == "curve":
        ax.plot(clean[:, 0], clean[:, 1], color="k", lw=1.2, zorder=4, label="clean")
    elif clean is not None:
        ax.scatter(clean[:, 0], clean[:, 1], s=12, marker="x", color="k", linewidths=0.8,
                   zorder=4, label="clean")
    # segment i runs from noisy point i to denoised point i: shape (n, 2, 2)
    moves = LineCollection(np.stack([noisy, denoised], axis=1), colors="C0",
                           linewidths=0.6, alpha=0.6, zorder=2, label="noisy → denoised")
    ax.add_collection(moves)
    ax.scatter(noisy[:, 0], noisy[:, 1], s=14, facecolors="none", edgecolors="C0",
               linewidths=0.8, zorder=3, label="noisy")
    ax.scatter(denoised[:, 0], denoised[:, 1], s=14, color="C3", zorder=5, label="denoised")
    return _finish_plane(ax, title, markerscale=1.5)


def _finish_plane(ax, title, *, markerscale):
    """Equal axes, legend, labels and title of a plot in the (x_1, x_2) plane."""
    ax.autoscale_view()
    ax.set_aspect("equal", adjustable="datalim")
    ax.legend(fontsize="small", loc="best", markerscale=markerscale, framealpha=0.9)
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    ax.set_title(title)
    return ax


def _reduced_parts(reduced, coef):
    """Vectors (p, d), coefficients (m, p) or None and method name of `reduced`.

    `reduced` is a :class:`~preimage.reduced_set.ReducedSet`, anything with
    ``.vectors`` (and ``.coef``), a reduced SVM (its ``reduced_set_``) or a
    plain array of vectors; an explicit `coef` wins over ``reduced.coef``.
    """
    source = getattr(reduced, "reduced_set_", reduced)
    method = getattr(source, "method", None)
    if hasattr(source, "vectors"):
        vectors = source.vectors
        if coef is None:
            coef = getattr(source, "coef", None)
    else:
        vectors = source
    vectors = check_array_2d(vectors, "reduced")
    if coef is not None:
        coef = np.asarray(coef, dtype=float)
        if coef.ndim == 1:
            coef = coef[None, :]
        if coef.ndim != 2 or coef.shape[1] != vectors.shape[0]:
            raise ValueError(f"'coef' must have shape (p,) or (m, p) with p = "
                             f"{vectors.shape[0]} reduced-set vectors, got shape {coef.shape}")
        if not np.isfinite(coef).all():
            raise ValueError("'coef' contains NaN or inf; all values must be finite")
    return vectors, coef, method


def plot_reduced_set(reduced, *, X=None, coef=None, ax=None, fig=None, image_shape=None,
                     n_cols=8, cmap=None, title=None):
    """The reduced-set vectors z_j, weighted by their coefficients.

    A reduced set replaces ``Ψ_k = Σ_i α_ki φ(x_i)`` by
    ``Ψ'_k = Σ_j β_kj φ(z_j)`` (Schölkopf et al. 1999, Sec. V); each vector
    is weighted by ``w_j = Σ_k |β_kj|``, its total weight over the m
    expansions.

    * 2-D vectors (and no `image_shape`): a scatter of the data `X` in grey
      and the z_j as large markers, coloured and sized by w_j (colour bar).
    * `image_shape` given: a grid of the z_j as images, `n_cols` per row,
      each titled with its coefficient β_j (or w_j for several expansions);
      signed vectors get a symmetric diverging colour map centred on 0.

    Parameters
    ----------
    reduced : ReducedSet, reduced SVM or array-like of shape (p, d)
        Anything with ``.vectors`` (and ``.coef``), a fitted
        :class:`~preimage.ReducedSVC`/:class:`~preimage.ReducedSVR` (its
        ``reduced_set_``), or the vectors themselves.
    X : array-like of shape (n, 2), optional
        The original points (the support vectors, the training set), scatter
        only.
    coef : array-like of shape (p,) or (m, p), optional
        Coefficients β; replace ``reduced.coef`` when given. Without any,
        the vectors are drawn unweighted.
    ax : Axes, optional
        Where to draw the scatter; a new figure by default.
    fig : Figure or SubFigure, optional
        Where to draw the image grid; a new figure by default.
    image_shape : tuple of int, optional
        Shape of one vector seen as an image; ``prod(image_shape) == d``.
    n_cols : int, default=8
        Images per row of the grid.
    cmap : str, optional
        Colour map: ``"viridis"`` for the weights of the scatter,
        ``"RdBu_r"`` (signed) or ``"gray_r"`` (non-negative) for images.
    title : str, optional

    Returns
    -------
    Axes (scatter) or Figure (image grid)

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.plot import plot_reduced_set
    >>> ax = plot_reduced_set(np.array([[0.0, 0.0], [1.0, 1.0]]), coef=[0.5, -2.0])
    >>> ax.collections[0].get_offsets().tolist()
    [[0.0, 0.0], [1.0, 1.0]]
    >>> import matplotlib.pyplot as plt; plt.close(ax.figure)
    """
    plt = _pyplot()
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
                "otherwise give 'image_shape' to draw them as images")
        if fig is not None:
            raise ValueError("'fig' is for the image grid (with 'image_shape'); pass 'ax' "
                             "to place the 2-D scatter")
        if ax is None:
            _, ax = plt.subplots(figsize=(6, 5), layout="constrained")
        if X is not None:
            X = _check_points(X, "X")
            ax.scatter(X[:, 0], X[:, 1], s=8, color="0.7", zorder=1,
                       label=f"original points ({X.shape[0]})")
        label = f"reduced-set vectors $z_j$ ({p})"
        if weight is None:
            ax.scatter(vectors[:, 0], vectors[:, 1], s=120, color="C3", edgecolors="k",
                       zorder=3, label=label)
        else:
            top = float(weight.max())
            sizes = 40.0 + 160.0 * (weight / top if top > 0 else np.ones(p))
            points = ax.scatter(vectors[:, 0], vectors[:, 1], c=weight, s=sizes,
                                cmap=cmap or "viridis", vmin=0.0, edgecolors="k",
                                zorder=3, label=label)
            ax.figure.colorbar(points, ax=ax, shrink=0.85,
                               label=r"$|\beta_j|$" if single else r"$\sum_k |\beta_{kj}|$")
        return _finish_plane(ax, title, markerscale=0.6)

    image_shape = tuple(int(s) for s in np.atleast_1d(image_shape))
    if int(np.prod(image_shape)) != d:
        raise ValueError(f"'image_shape' must have {d} pixels in all (the dimension of "
                         f"the vectors), got {image_shape}")
    if ax is not None:
        raise ValueError("'ax' holds one Axes but 'image_shape' draws a grid of images; "
                         "pass 'fig' (a Figure or SubFigure) instead")
    n_cols = min(p, check_positive_int(n_cols, "n_cols"))
    low, high = float(vectors.min()), float(vectors.max())
    if low < 0:
        span = max(-low, high)
        cmap, vmin, vmax = cmap or "RdBu_r", -span, span
    else:
        cmap, vmin, vmax = cmap or "gray_r", 0.0, (high if high > 0 else 1.0)
    rows = [vectors[start:start + n_cols] for start in range(0, p, n_cols)]
    fig = plot_image_grid(rows, None, image_shape=image_shape, fig=fig, cmap=cmap,
                          title=title, vmin=vmin, vmax=vmax)
    image_axes = [a for a in fig.axes if a.images][-p:]
    for j, a in enumerate(image_axes):
        if coef is None:
            text = f"z_{j + 1}"
        elif single:
            text = f"β = {coef[0, j]:.3g}"
        else:
            text = f"Σ|β| = {weight[j]:.3g}"
        a.set_title(text, fontsize=8)
    fig.colorbar(image_axes[0].images[0], ax=image_axes, shrink=0.8, aspect=30,
                 label="value")
    return fig


def plot_reduced_set_error(reduced, *, ax=None, max_legend=8, title=None):
    """Relative feature-space error ``ρ_k / ‖Ψ_k‖²`` against the number of vectors.

    ``ρ_k = ‖Ψ_k − Ψ'_k‖²`` is read from ``reduced.history`` (recorded as
    vectors are added by construction or removed by kernel PCA selection),
    one line per expansion k, on a log axis: 1 means no better than the
    empty set, and each decade is a tenfold smaller error (Schölkopf et al.
    1999, Sec. V).

    Parameters
    ----------
    reduced : ReducedSet or reduced SVM
        With ``history = {"n_vectors": (s,), "error": (s, m)}`` and
        ``norm2`` (m,); a reduced SVM gives its ``reduced_set_``.
    ax : Axes, optional
        Where to draw; a new figure by default.
    max_legend : int, default=8
        Legend entries for at most this many expansions; the rest are
        counted in one extra entry.
    title : str, optional

    Returns
    -------
    Axes

    Notes
    -----
    An expansion with ``‖Ψ_k‖² = 0`` has no relative error and an exact zero
    error cannot sit on a log axis: both are left out of the line (a gap).

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
    plt = _pyplot()
    from matplotlib.ticker import MaxNLocator

    source = getattr(reduced, "reduced_set_", reduced)
    history = getattr(source, "history", None)
    if not isinstance(history, dict) or not {"n_vectors", "error"} <= set(history):
        raise ValueError("'reduced' must be a ReducedSet (or a reduced SVM) with a "
                         "history {'n_vectors': ..., 'error': ...}, got "
                         f"{type(reduced).__name__} with history {history!r}")
    n_vectors = np.asarray(history["n_vectors"], dtype=float)
    error = np.asarray(history["error"], dtype=float)
    if error.ndim == 1:
        error = error[:, None]
    norm2 = np.atleast_1d(np.asarray(source.norm2, dtype=float))
    if (n_vectors.ndim != 1 or error.shape[0] != n_vectors.size
            or error.shape[1] != norm2.size):
        raise ValueError(
            f"'reduced' has an inconsistent history: n_vectors {n_vectors.shape}, error "
            f"{error.shape}, norm2 {norm2.shape}; expected (s,), (s, m) and (m,)")
    max_legend = check_positive_int(max_legend, "max_legend", minimum=0)
    relative = np.divide(error, norm2, out=np.full_like(error, np.nan), where=norm2 > 0)
    relative[~(relative > 0)] = np.nan    # log axis: zeros and ‖Ψ‖² = 0 left out
    if ax is None:
        _, ax = plt.subplots(figsize=(5.5, 4), layout="constrained")
    m = relative.shape[1]
    marker = "o" if n_vectors.size <= 40 else None
    for k in range(m):
        ax.plot(n_vectors, relative[:, k], marker=marker, ms=3, lw=1.2, color=f"C{k % 10}",
                label=f"expansion {k + 1}" if k < max_legend else None)
    if m > max_legend:
        ax.plot([], [], " ", label=f"(+{m - max_legend} more)")
    ax.set_yscale("log")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(True, which="major", alpha=0.3)
    ax.set_xlabel("number of reduced-set vectors")
    ax.set_ylabel(r"relative error $\rho\,/\,\|\Psi\|^2$")
    if m > 1:
        ax.legend(fontsize="small", loc="best", ncols=2 if min(m, max_legend) > 4 else 1)
    method = getattr(source, "method", None)
    ax.set_title(title if title is not None
                 else "Reduced-set error" + (f" ({method})" if method else ""))
    return ax


def save_figure(fig, path, *, dpi=110):
    """Save `fig` to `path` and close it."""
    plt = _pyplot()
    fig.savefig(path, dpi=dpi, bbox_inches="tight")
    plt.close(fig)
    return path
