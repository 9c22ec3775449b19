from ._backend import pyplot as pyplot, save_figure as save_figure
from ._images import LABEL_WIDTH as LABEL_WIDTH, plot_image_grid as plot_image_grid
from ._kernel_pca import plot_embedding as plot_embedding, plot_spectrum as plot_spectrum
from ._plane import plot_denoising_2d as plot_denoising_2d
from ._reduced_set import (
    plot_reduced_set as plot_reduced_set,
    plot_reduced_set_error as plot_reduced_set_error,
)
