"""The guards of kernel PCA: eigenvalues checked (significant negative ones
refused, rounding set to 0, those at rounding level found) and fits refused
when they have no component or overflowed."""

from __future__ import annotations

import numpy as np

from preimage._utils.typing import ArrayLike
from preimage._utils.validation import check_overflow
from preimage._utils.warnings import warn
from preimage.exceptions import NumericalWarning
from preimage.kpca._result import KernelPCAResult

# Eigenvalues below this fraction of the largest are rounding noise (the
# thresholds scikit-learn uses for the same purpose).
_RELATIVE_ZERO = {np.dtype(np.float32): 2e-7, np.dtype(np.float64): 1e-12}


def check_psd_eigenvalues(
    values: ArrayLike, *, floor: float = 0.0, names: str = "'K'"
) -> np.ndarray:
    """A copy of `values` with rounding-level negative eigenvalues set to 0;
    significant ones (scikit-learn's thresholds and message) raise a
    ValueError, unless all eigenvalues are within the absolute `floor`."""
    values = np.array(values, copy=True)
    if not values.size:
        return values
    ratio, floor = (5e-3, 1e-6) if values.dtype == np.float32 else (1e-5, 1e-10)
    top, bottom = float(values.max()), float(values.min())
    if max(top, -bottom) <= floor:
        return np.maximum(values, 0)
    if top < 0:
        found = f"All eigenvalues are negative (maximum is {top:g})"
    elif bottom < -ratio * top and bottom < -floor:
        share = f"{-bottom / top:g}" if top > 0 else "inf"
        found = f"There are significant negative eigenvalues ({share} of the maximum positive)"
    else:
        values[values < 0] = 0
        return values
    raise ValueError(
        f"the centred Gram matrix of {names} is not positive semi-definite. {found}. Either "
        "the matrix is not PSD, or there was an issue while computing the "
        "eigendecomposition of the matrix."
    )


def rounding_floor(k_max: float, n: int, dtype: np.dtype | type) -> float:
    """``10 n eps k_max``: the rounding error of the eigenvalues of a centred
    Gram matrix of n points with kernel values at most `k_max` (each entry of
    HKH carries a few ``eps k_max``, so the error matrix has norm below
    ``5 n eps k_max``)."""
    eps = np.finfo(dtype).eps if np.dtype(dtype).kind == "f" else np.finfo(float).eps
    return 10.0 * n * eps * k_max


def drop_rounding_level(
    values: ArrayLike,
    vectors: ArrayLike,
    n_components: int | None,
    *,
    floor: float = 0.0,
    warn_rank: bool = True,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(values, vectors, nonzero)``: the eigenpairs with those at rounding
    level (below 1e-12, 2e-7 in float32, of the largest, or below `floor`)
    dropped when `n_components` is None, else kept in place with a
    NumericalWarning if `warn_rank`; `nonzero` marks those above it."""
    values, vectors = np.asarray(values), np.asarray(vectors)
    if values.ndim != 1 or values.dtype.kind != "f" or not np.isfinite(values).all():
        raise ValueError(
            f"'values' must be a finite 1-D floating array, got shape "
            f"{values.shape} and dtype {values.dtype}"
        )
    if vectors.ndim != 2 or vectors.shape[1] != values.shape[0]:
        raise ValueError(
            f"'vectors' must have one column per value ({values.shape[0]}), "
            f"got shape {vectors.shape}"
        )
    q = values.shape[0]
    scale = max(float(values[0]), 0.0) if q else 0.0
    cutoff = max(_RELATIVE_ZERO.get(values.dtype, 1e-12) * scale, floor)
    nonzero = values > cutoff if scale > 0 else np.zeros(q, bool)
    if q and not nonzero.any():
        warn(
            "the centred Gram matrix is zero at rounding level (the points have one "
            "image in feature space, or the kernel is constant on them): kernel PCA "
            "has no component"
            + ("" if n_components is None else f"; the {q} components requested are set to 0"),
            NumericalWarning,
        )
    elif warn_rank and n_components is not None and not nonzero.all():
        warn(
            f"{int((~nonzero).sum())} of the {q} components requested have an eigenvalue "
            "at rounding level (the centred Gram matrix has lower rank); their "
            "coordinates are set to 0. Ask for fewer components.",
            NumericalWarning,
        )
    if n_components is None:
        values, vectors = values[nonzero], vectors[:, nonzero]
        nonzero = nonzero[nonzero]
    return values, vectors, nonzero


def check_has_components(fit: KernelPCAResult, gamma: float | None = None) -> KernelPCAResult:
    """`fit`, or a ValueError naming 'X' (and 'gamma' when given) when it has
    no positive eigenvalue."""
    if not (fit.eigenvalues.shape[0] and float(fit.eigenvalues[0]) > 0):  # they decrease
        hint = "" if gamma is None else f", e.g. 'gamma'={gamma:.3g} too small"
        raise ValueError(
            "kernel PCA of 'X' has no component: its centred Gram matrix has no "
            "eigenvalue above rounding level, so all points have one image in "
            f"feature space (identical rows, or a kernel constant on them{hint}), "
            "or the kernel is indefinite without positive eigenvalue"
        )
    return fit


def check_finite_fit(fit: KernelPCAResult | None, names: str, n: int) -> KernelPCAResult:
    """`fit`, or a ValueError when it is None or holds a non-finite value
    (kernel values beyond about 1e154, whose products overflow)."""
    parts = [np.inf] if fit is None else [a for a in vars(fit).values() if a is not None]
    what = f"the results of kernel PCA of {names} ({n} samples)"
    hint = (
        "the kernel values are too large for the products of the fit; "
        "rescale the data (e.g. with sklearn.preprocessing.StandardScaler) "
        "or choose milder kernel parameters"
    )
    for part in parts:
        check_overflow(part, what, names, hint)
    return fit
