from ._clusters import make_gaussian_sources, make_three_clusters
from ._curves import (
    HONEINE_RICHARD_TABLE2,
    make_banana,
    make_frame,
    make_half_circle,
    make_sine,
    make_spiral,
    make_square,
)
from ._noise import add_gaussian_noise, add_speckle_noise, random_shifts
from ._real import load_digits, load_mnist
from ._sine_sum import make_sine_sum, sine_sum
from ._strings import make_kde_strings

__all__ = [
    "HONEINE_RICHARD_TABLE2",
    "add_gaussian_noise",
    "add_speckle_noise",
    "load_digits",
    "load_mnist",
    "make_banana",
    "make_frame",
    "make_gaussian_sources",
    "make_half_circle",
    "make_kde_strings",
    "make_sine",
    "make_sine_sum",
    "make_spiral",
    "make_square",
    "make_three_clusters",
    "random_shifts",
    "sine_sum",
]
