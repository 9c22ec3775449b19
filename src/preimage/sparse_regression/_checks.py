"""The argument checks the Wiener solution and the sequential algorithm share:
a Gram matrix with one target per row, vectors of a given length, the rank
cutoff, and the overflow refusal of results computed from finite input."""

from __future__ import annotations

import numpy as np

from preimage._utils.typing import ArrayLike
from preimage._utils.validation import check_gram, check_real, check_real_array, refuse_overflow

__all__ = ["check_rtol", "check_system", "check_vector", "refuse_overflow_rescale"]


def check_vector(values: ArrayLike, name: str, n: int, what: str) -> np.ndarray:
    """`values` as a finite float64 array of shape (n,), or an error naming
    `name` that says what the n entries are (`what`)."""
    arr = check_real_array(values, name)
    if arr.shape != (n,):
        raise ValueError(f"{name!r} must have shape ({n},) ({what}), got shape {arr.shape}")
    return arr


def check_system(K: ArrayLike, y: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """K as a finite square float64 Gram matrix (possibly empty: the
    incremental solution starts from no samples) and y as its finite targets,
    or an error naming the argument."""
    if np.shape(K) == (0, 0):
        K = np.zeros((0, 0))
    else:
        K, _ = check_gram(K, "K", dtype=np.float64)
    return K, check_vector(y, "y", K.shape[0], "one target per row of 'K'")


def check_rtol(rtol):
    """The relative rank cutoff, in [0, 1)."""
    return check_real(rtol, "rtol", low=0.0, high=1.0, high_open=True)


def refuse_overflow_rescale(values, what, names):
    """Refuse a result that overflowed float64 for finite input; the remedy is
    to rescale the arguments `names` blames."""
    return refuse_overflow(values, what, names, "rescale them")
