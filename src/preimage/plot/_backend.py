"""matplotlib, imported on first use, with the user's backend, and saving a figure."""

from __future__ import annotations

import os
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def pyplot() -> ModuleType:
    """Import and return :mod:`matplotlib.pyplot`, with the user's backend.

    Returns
    -------
    module
        :mod:`matplotlib.pyplot`.

    Raises
    ------
    ImportError
        If matplotlib is not installed, saying how to install it.

    Examples
    --------
    >>> from preimage.plot import pyplot
    >>> pyplot().__name__
    'matplotlib.pyplot'
    """
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError('preimage.plot needs matplotlib: pip install "preimage[plot]"') from exc
    return plt


def new_axes(ax, figsize, layout="constrained"):
    """`ax`, or the axes of a new figure of `figsize` when it is None."""
    if ax is None:
        _, ax = pyplot().subplots(figsize=figsize, layout=layout)
    return ax


def save_figure(
    fig: Figure, path: str | os.PathLike[str], *, dpi: float = 110
) -> str | os.PathLike[str]:
    """Save `fig` to `path`, cropped to what it draws, and close it.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure to save.
    path : str or path-like
        The file; its suffix says the format (``.png``, ``.pdf``, ``.svg``).
    dpi : float, default=110
        Resolution in dots per inch, for raster formats such as PNG.

    Returns
    -------
    str or path-like
        `path`, as given.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from preimage.plot import pyplot, save_figure
    >>> fig, ax = pyplot().subplots()
    >>> _ = ax.plot([0, 1], [1, 0])
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = save_figure(fig, Path(folder) / "line.png")
    ...     path.read_bytes()[1:4]
    b'PNG'
    """
    fig.savefig(path, dpi=dpi, bbox_inches="tight")
    pyplot().close(fig)
    return path
