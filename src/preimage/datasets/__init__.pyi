from ._clusters import (
    make_gaussian_sources as make_gaussian_sources,
    make_three_clusters as make_three_clusters,
)
from ._curves import (
    HONEINE_RICHARD_TABLE2 as HONEINE_RICHARD_TABLE2,
    make_banana as make_banana,
    make_frame as make_frame,
    make_half_circle as make_half_circle,
    make_sine as make_sine,
    make_spiral as make_spiral,
    make_square as make_square,
)
from ._noise import (
    add_gaussian_noise as add_gaussian_noise,
    add_speckle_noise as add_speckle_noise,
    random_shifts as random_shifts,
)
from ._real import load_digits as load_digits, load_mnist as load_mnist
from ._sine_sum import make_sine_sum as make_sine_sum, sine_sum as sine_sum
from ._strings import make_kde_strings as make_kde_strings
