"""matplotlib, imported on first use, and saving a figure."""

from __future__ import annotations

import os
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["pyplot", "save_figure"]

# Backends that draw to files; any other needs a display.
_FILE_BACKENDS = ("agg", "pdf", "svg", "ps", "cairo")


def pyplot() -> ModuleType:
    """:mod:`matplotlib.pyplot`, imported now (never at ``import preimage``).

    Without a display (no ``DISPLAY`` and no ``MPLBACKEND``) an interactive
    default backend is replaced by Agg, so figures can always be drawn and
    saved. The plotting functions of :mod:`preimage.plot` call it, and so does
    a figure laid out by hand (the reproductions draw theirs this way).

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
        import matplotlib

        if matplotlib.get_backend().lower() not in _FILE_BACKENDS:
            import os

            if not os.environ.get("DISPLAY") and not os.environ.get("MPLBACKEND"):
                matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "preimage.plot needs matplotlib: pip install \"preimage[plot]\"") from exc
    return plt


def save_figure(fig: Figure, path: str | os.PathLike[str], *,
                dpi: float = 110) -> str | os.PathLike[str]:
    """Save `fig` to `path` and close it."""
    plt = pyplot()
    fig.savefig(path, dpi=dpi, bbox_inches="tight")
    plt.close(fig)
    return path
