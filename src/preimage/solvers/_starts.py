"""Starting points and fallbacks shared by the pre-image methods: distances
from expansions to their support points, the nearest of them, and the
replacement of pre-images that left the float range."""

from __future__ import annotations

import numpy as np

from .._expansion import FeatureExpansion
from .._typing import ArrayLike
from .._validation import check_array_2d, refuse_overflow
from .._warnings import warn
from ..exceptions import NumericalWarning

__all__ = ["support_distance2", "nearest_support_points", "check_starts", "replace_non_finite"]


def support_distance2(expansion: FeatureExpansion) -> np.ndarray:
    """``‖Ψ_j − φ(x_i)‖²`` from every expansion to every support point, (m, n).

    Computed over row blocks of the support Gram matrix, so memory stays
    bounded: ``‖Ψ_j‖² − 2 (ΓK)_ji + k(x_i, x_i)``.
    """
    support, kernel = expansion.support, expansion.kernel
    norm2 = expansion.norm2()
    cross = np.empty((expansion.n_expansions, expansion.n_support))
    blocks = kernel.blocks(support, check_input=False, overflow="ignore")
    with np.errstate(over="ignore", invalid="ignore"):  # refused just below
        for rows, K_rows in blocks:
            cross[:, rows] = expansion.coef @ K_rows.T
        d2 = (
            norm2[:, None]
            - 2 * cross
            + kernel.diag(support, check_input=False, overflow="ignore")[None, :]
        )
    refuse_overflow(
        d2,
        "the feature-space distances ‖Ψ_j − φ(x_i)‖² from the expansions to their support points",
        "'coef'",
        "rescale 'coef' (or the support)",
    )
    return np.maximum(d2, 0.0)


def replace_non_finite(
    expansion: FeatureExpansion, x: ArrayLike, d2: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Pre-images `x` (m, d) with their residuals, where any that is not
    finite, or whose residual is not (the kernel overflows there), is
    replaced by the support point nearest in feature space, with a
    NumericalWarning. Returns ``x, d2``."""
    x = np.array(x, dtype=np.result_type(x, expansion.support))
    finite = np.isfinite(x).all(axis=1)
    if d2 is None:
        d2 = np.full(len(x), np.inf)
        if finite.all():
            d2 = expansion.distance2(x, check_input=False, overflow="ignore")
        elif finite.any():
            rows = np.flatnonzero(finite)
            d2[rows] = expansion[rows].distance2(x[rows], check_input=False, overflow="ignore")
    bad = ~finite | ~np.isfinite(d2)
    if bad.any():
        rows = np.flatnonzero(bad)
        sub = expansion[rows]
        near = nearest_support_points(sub)[:, 0]
        x[rows] = expansion.support[near]
        d2 = np.array(d2, dtype=float)
        d2[rows] = support_distance2(sub)[np.arange(rows.size), near]
        warn(
            f"{rows.size} of {len(x)} pre-images were not finite or lay where the "
            "kernel overflows; they were replaced by the support point nearest in "
            "feature space",
            NumericalWarning,
        )
    return x, np.maximum(d2, 0.0)


def nearest_support_points(expansion: FeatureExpansion, n: int = 1) -> np.ndarray:
    """Indices (m, n) of the support points whose images are nearest each
    expansion in feature space, nearest first."""
    d2 = support_distance2(expansion)
    n = min(n, d2.shape[1])
    idx = (
        np.argpartition(d2, n - 1, axis=1)[:, :n]
        if n < d2.shape[1]
        else np.tile(np.arange(d2.shape[1]), (d2.shape[0], 1))
    )
    order = np.take_along_axis(d2, idx, axis=1).argsort(axis=1)
    return np.take_along_axis(idx, order, axis=1)


def check_starts(x0: ArrayLike, expansion: FeatureExpansion, name: str = "x0") -> np.ndarray:
    """Validate points given per expansion (starts, anchors): one per
    expansion, or one shared by all."""
    x0 = np.asarray(x0)
    if x0.ndim == 1:
        x0 = np.broadcast_to(x0, (expansion.n_expansions, x0.shape[0]))
    x0 = check_array_2d(x0, name, n_features=expansion.n_features)
    if x0.shape[0] != expansion.n_expansions:
        raise ValueError(
            f"{name!r} must hold one point per expansion ({expansion.n_expansions}) "
            f"or a single point, got {x0.shape[0]}"
        )
    return np.array(x0, dtype=np.result_type(x0, expansion.support))
