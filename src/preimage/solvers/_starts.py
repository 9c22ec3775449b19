"""Distances from expansions to their support points, the nearest of them (the
methods' starts), and the fallback for pre-images that left the float range."""

from __future__ import annotations

import numpy as np

from preimage._utils.typing import ArrayLike
from preimage._utils.validation import check_array_2d, check_overflow
from preimage._utils.warnings import warn
from preimage.exceptions import NumericalWarning
from preimage.kernels._expansion import FeatureExpansion

_DISTANCES = (
    "the feature-space distances ‖Ψ_j − φ(x_i)‖² from the expansions to their support points"
)


def support_distance2(expansion: FeatureExpansion) -> np.ndarray:
    r"""Return the squared distances from the expansions to the support points' images.

    .. math:: \|\Psi_j - \phi(x_i)\|^2 = \|\Psi_j\|^2 - 2 (\Gamma K)_{ji} + k(x_i, x_i),

    with :math:`\Gamma` the coefficients (one row per expansion) and
    :math:`K` the Gram matrix of the support, formed over row blocks.

    Parameters
    ----------
    expansion : FeatureExpansion
        The m expansions, over n support points.

    Returns
    -------
    ndarray of shape (m, n)
        The squared feature-space distances.

    References
    ----------
    Kwok and Tsang (2004), the first step of their pre-image.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.solvers import support_distance2
    >>> from preimage import FeatureExpansion
    >>> from preimage.kernels import LinearKernel
    >>> X = np.array([[0.0], [1.0], [3.0]])
    >>> psi = FeatureExpansion([0.2, 0.8, 0.0], X, LinearKernel())
    >>> np.round(support_distance2(psi), 4)
    array([[0.64, 0.04, 4.84]])
    """
    support, kernel, norm2 = expansion.support, expansion.kernel, expansion.norm2()
    cross = np.empty((expansion.n_expansions, expansion.n_support))
    with np.errstate(over="ignore", invalid="ignore"):  # refused just below
        for rows, K_rows in kernel.blocks(support, check_input=False, overflow="ignore"):
            cross[:, rows] = expansion.coef @ K_rows.T
        diag = kernel.diag(support, check_input=False, overflow="ignore")
        d2 = norm2[:, None] - 2 * cross + diag[None, :]
    check_overflow(d2, _DISTANCES, "'coef'", "rescale 'coef' (or the support)")
    return np.maximum(d2, 0.0)


def replace_non_finite(
    expansion: FeatureExpansion, x: ArrayLike, d2: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """``x, d2``: pre-images (m, d) and their residuals, where any that is not
    finite, or whose residual is not, is replaced by the support point nearest
    in feature space, with a NumericalWarning."""
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
        x[rows], d2 = expansion.support[near], np.array(d2, dtype=float)
        d2[rows] = support_distance2(sub)[np.arange(rows.size), near]
        warn(
            f"{rows.size} of {len(x)} pre-images were not finite or lay where the "
            "kernel overflows; they were replaced by the support point nearest in "
            "feature space",
            NumericalWarning,
        )
    return x, np.maximum(d2, 0.0)


def nearest_support_points(expansion: FeatureExpansion, n: int = 1) -> np.ndarray:
    r"""Return the indices of the support points nearest each expansion in feature space.

    For each expansion :math:`\Psi_j` the indices i of the `n` smallest
    :math:`\|\Psi_j - \phi(x_i)\|^2` (:func:`support_distance2`), nearest first.

    Parameters
    ----------
    expansion : FeatureExpansion
        The m expansions, over their support points.
    n : int, default=1
        How many support points per expansion (at most all of them).

    Returns
    -------
    ndarray of shape (m, n)
        Indices into ``expansion.support``, nearest first.

    References
    ----------
    Kwok and Tsang (2004) (the neighbours of their pre-image).

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.solvers import nearest_support_points
    >>> from preimage import FeatureExpansion
    >>> from preimage.kernels import LinearKernel
    >>> X = np.array([[0.0], [1.0], [3.0]])
    >>> psi = FeatureExpansion([0.2, 0.8, 0.0], X, LinearKernel())
    >>> nearest_support_points(psi, n=2)
    array([[1, 0]])
    """
    d2 = support_distance2(expansion)
    if n >= d2.shape[1]:
        return d2.argsort(axis=1)
    idx = np.argpartition(d2, n - 1, axis=1)[:, :n]
    order = np.take_along_axis(d2, idx, axis=1).argsort(axis=1)
    return np.take_along_axis(idx, order, axis=1)


def check_starts(x0: ArrayLike, expansion: FeatureExpansion, name: str = "x0") -> np.ndarray:
    """Points given per expansion (starts, anchors), checked: one per expansion
    or one for all."""
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
