from ._backend import pyplot, save_figure
from ._images import LABEL_WIDTH, plot_image_grid
from ._kernel_pca import plot_embedding, plot_spectrum
from ._plane import plot_denoising_2d
from ._reduced_set import plot_reduced_set, plot_reduced_set_error

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
