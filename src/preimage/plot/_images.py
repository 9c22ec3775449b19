"""Grids of images with labelled rows: digits, eigenvectors, pre-images."""

from __future__ import annotations

from collections.abc import Sequence
import textwrap
from typing import TYPE_CHECKING, Any

import numpy as np

from preimage.plot._backend import pyplot

if TYPE_CHECKING:
    from matplotlib.figure import Figure, SubFigure

#: Row labels of :func:`plot_image_grid` are wrapped to lines of this many characters.
LABEL_WIDTH = 18
_LABEL_FONTSIZE = 9
# Mean width of one character of a 9 pt label in inches; sizes the label column.
_INCH_PER_CHAR = 0.075


def shape_tuple(image_shape):
    """`image_shape` as a tuple of ints."""
    return tuple(int(s) for s in np.atleast_1d(image_shape))


def _wrap_label(label, width):
    """`label` with every line wrapped at `width` characters (words kept whole)."""
    label = str(label)
    if width is None:
        return label
    return "\n".join(
        textwrap.fill(line, width, break_long_words=False, break_on_hyphens=False) or line
        for line in label.split("\n")
    )


def plot_image_grid(
    rows: Sequence[Any],
    row_labels: Sequence[str] | None = None,
    *,
    image_shape: tuple[int, ...],
    fig: Figure | SubFigure | None = None,
    cmap: str = "gray_r",
    title: str | None = None,
    vmin: float = 0.0,
    vmax: float = 1.0,
    col_labels: Sequence[str] | None = None,
    label_width: int | None = LABEL_WIDTH,
) -> Figure | SubFigure:
    """Draw a grid of images, one row per entry of `rows`, labelled on the left.

    Parameters
    ----------
    rows : sequence of array-like, each of shape (n_images, n_pixels)
        The images of each row, flattened or of `image_shape`; shorter rows
        leave blank cells.
    row_labels : sequence of str, optional
        One label per row, left of its first image, wrapped at `label_width`
        characters; a new figure's label column fits the longest line.
    image_shape : tuple of int
        Shape of one image, e.g. ``(28, 28)``.
    fig : matplotlib.figure.Figure or matplotlib.figure.SubFigure, optional
        Where to draw; a new constrained-layout figure by default.
    cmap : str, default="gray_r"
        Colour map shared by every image (``"gray_r"``: 0 is white, 1 black).
    title : str, optional
        Figure title.
    vmin : float, default=0.0
        Value drawn with the lowest colour of `cmap`, in every image.
    vmax : float, default=1.0
        Value drawn with the highest colour of `cmap`, in every image.
    col_labels : sequence of str, optional
        One title per column, above the top row.
    label_width : int or None, default=18
        Wrap width of the row labels in characters; None does not wrap.

    Returns
    -------
    matplotlib.figure.Figure or matplotlib.figure.SubFigure
        The figure drawn on: `fig`, or the new figure.

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
    image_shape = shape_tuple(image_shape)
    n_pixels = int(np.prod(image_shape))
    rows = [np.asarray(images) for images in rows]
    if not rows or any(
        images.ndim < 1 or images.size != len(images) * n_pixels for images in rows
    ):
        raise ValueError(
            f"'rows' must be a non-empty sequence of arrays (n_images, {n_pixels}) "
            f"matching 'image_shape'={image_shape}, got shapes "
            f"{[images.shape for images in rows]}"
        )
    rows = [images.reshape(len(images), n_pixels) for images in rows]
    n_rows = len(rows)
    n_cols = max(len(images) for images in rows)
    row_labels = [""] * n_rows if row_labels is None else row_labels
    row_labels = [_wrap_label(label, label_width) for label in row_labels]
    if len(row_labels) != n_rows:
        raise ValueError(
            f"'row_labels' must hold one label per row ({n_rows}), got {len(row_labels)}"
        )
    if col_labels is not None and len(col_labels) != n_cols:
        raise ValueError(
            f"'col_labels' must hold one label per column ({n_cols}), got {len(col_labels)}"
        )
    if fig is None:
        longest = max(len(line) for label in row_labels for line in label.split("\n"))
        label_column = max(1.6, _INCH_PER_CHAR * longest + 0.3)
        height = 1.0 * n_rows + (0.5 if title else 0.1) + (0.3 if col_labels else 0.0)
        fig = pyplot().figure(figsize=(1.0 * n_cols + label_column, height), layout="compressed")
    axes = fig.subplots(n_rows, n_cols, squeeze=False)
    for i, (images, label) in enumerate(zip(rows, row_labels)):
        for j, ax in enumerate(axes[i]):
            ax.set(xticks=[], yticks=[])
            ax.spines[:].set_visible(False)
            if j < len(images):
                image = images[j].reshape(image_shape)
                ax.imshow(image, cmap=cmap, vmin=vmin, vmax=vmax, interpolation="nearest")
        axes[i, 0].set_ylabel(label, rotation=0, ha="right", va="center", fontsize=_LABEL_FONTSIZE)
    if col_labels is not None:
        for ax, label in zip(axes[0], col_labels):
            ax.set_title(str(label), fontsize=_LABEL_FONTSIZE)
    if title:
        fig.suptitle(title)
    return fig
