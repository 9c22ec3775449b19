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

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
