"""The argument checks the Wiener solution and the sequential algorithm share."""

from __future__ import annotations

import numpy as np

from preimage._utils.typing import ArrayLike
from preimage._utils.validation import check_gram, check_real, check_real_array, refuse_overflow


def check_vector(values: ArrayLike, name: str, n: int, what: str) -> np.ndarray:
    """`values` as a finite float64 array of shape (n,) of `what`."""
    arr = check_real_array(values, name)
    if arr.shape != (n,):
        raise ValueError(f"{name!r} must have shape ({n},) ({what}), got shape {arr.shape}")
    return arr


def check_system(K: ArrayLike, y: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """K as a finite square (possibly empty) Gram matrix and y as its targets."""
    K = np.zeros((0, 0)) if np.shape(K) == (0, 0) else check_gram(K, "K", dtype=np.float64)[0]
    return K, check_vector(y, "y", K.shape[0], "one target per row of 'K'")


def check_rtol(rtol):
    """The relative rank cutoff, in [0, 1)."""
    return check_real(rtol, "rtol", low=0.0, high=1.0, high_open=True)


def refuse_overflow_rescale(values, what, names):
    """Refuse a result that overflowed for finite input: rescale `names`."""
    return refuse_overflow(values, what, names, "rescale them")
