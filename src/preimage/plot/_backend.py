"""matplotlib, imported on first use, and saving a figure.

The library draws with whatever backend the user has: inline in a notebook,
in a window on a desktop, Agg in a script without a display. It never
chooses one; the command line chooses Agg for itself (``preimage demo``,
``python -m reproductions``), where figures only go to files. Saving does not
need a display whatever the backend: :meth:`~matplotlib.figure.Figure.savefig`
renders a PNG with Agg.
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["pyplot", "save_figure"]


def pyplot() -> ModuleType:
    """Import and return :mod:`matplotlib.pyplot` (never done at ``import preimage``).

    The backend is the user's: this neither reads nor sets it. The plotting
    functions of :mod:`preimage.plot` call it, and so does a figure laid out
    by hand (the reproductions draw theirs this way).

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
    >>> plt = pyplot()
    >>> fig, axes = plt.subplots(1, 2)
    >>> len(axes)
    2
    >>> plt.close(fig)
    """
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError('preimage.plot needs matplotlib: pip install "preimage[plot]"') from exc
    return plt


def save_figure(
    fig: Figure, path: str | os.PathLike[str], *, dpi: float = 110
) -> str | os.PathLike[str]:
    """Save `fig` to `path` and close it (a figure saved is not also shown).

    The figure is cropped to what it draws (``bbox_inches="tight"``). Saving
    needs no display, whatever the backend.

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
    >>> pyplot().fignum_exists(fig.number)  # closed once saved
    False
    """
    plt = pyplot()
    fig.savefig(path, dpi=dpi, bbox_inches="tight")
    plt.close(fig)
    return path
