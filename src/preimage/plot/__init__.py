"""Figures for kernel PCA and pre-images (matplotlib, imported lazily).

Importing :mod:`preimage` or :mod:`preimage.plot` never imports matplotlib; the
first figure drawn does, and says how to install it when it is missing
(``pip install "preimage[plot]"``). Figures are drawn with the user's backend
(inline in a notebook, a window on a desktop), which the library never
switches; saving a figure needs no display.

* image grids (:func:`plot_image_grid`): digits, eigenvectors, denoised images;
* points in the plane (:func:`plot_denoising_2d`): where a denoiser moves each point;
* kernel PCA: its spectrum (:func:`plot_spectrum`) and its first two
  coordinates, by class (:func:`plot_embedding`);
* reduced sets (:func:`plot_reduced_set`, :func:`plot_reduced_set_error`);
* a figure of one's own (:func:`pyplot`, as the reproductions draw theirs) and
  :func:`save_figure`.
"""

from .._lazy import lazy_exports

# For static type checkers (any TYPE_CHECKING is true to them); at run time
# lazy_exports reads these imports and makes each at the name's first use.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._backend import pyplot, save_figure
    from ._images import LABEL_WIDTH, plot_image_grid
    from ._kernel_pca import plot_embedding, plot_spectrum
    from ._plane import plot_denoising_2d
    from ._reduced_set import plot_reduced_set, plot_reduced_set_error

__getattr__, __dir__ = lazy_exports(__name__, __file__)

__all__ = [
    "LABEL_WIDTH",
    "plot_denoising_2d",
    "plot_embedding",
    "plot_image_grid",
    "plot_reduced_set",
    "plot_reduced_set_error",
    "plot_spectrum",
    "pyplot",
    "save_figure",
]
