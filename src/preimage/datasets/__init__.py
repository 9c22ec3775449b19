"""Data sets for pre-image experiments.

Synthetic sets from the pre-image literature (Mika et al. 1999; Schölkopf et
al. 1999; Bakır et al. 2004; Honeine & Richard 2011; Vijayakumar & Wu 1999),
real handwritten digits scaled to [0, 1], each with its class label, and the
noise models used to corrupt them.
"""

from .._lazy import lazy_exports

# For static type checkers (any TYPE_CHECKING is true to them); at run time
# lazy_exports reads these imports and makes each at the name's first use.
TYPE_CHECKING = False
if TYPE_CHECKING:
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

__getattr__, __dir__ = lazy_exports(__name__, __file__)

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
