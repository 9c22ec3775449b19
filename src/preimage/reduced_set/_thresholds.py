"""Thresholds of reduced machines recomputed on the training set (Sec. VI-B)."""

from __future__ import annotations

import numpy as np

from preimage._utils.typing import ArrayLike
from preimage._utils.validation import check_positive, check_real, check_real_array

__all__ = ["classification_threshold", "epsilon_insensitive_threshold"]


def classification_threshold(values: ArrayLike, y_sign: ArrayLike, b0: float = 0.0) -> float:
    r"""Return the threshold with the fewest training errors.

    The number of training errors of :math:`\operatorname{sign}(g(x_i) + b)`,

    .. math:: E(b) = \#\{i : y_i (g(x_i) + b) \le 0\},

    is piecewise constant in b, smallest on open intervals between the
    points :math:`-g(x_i)`; b is the midpoint of the one nearest `b0`.

    Parameters
    ----------
    values : array-like of shape (n,)
        The decision values :math:`g(x_i)`, without threshold.
    y_sign : array-like of shape (n,)
        The labels as -1 or +1 (+1: the class of positive values).
    b0 : float, default=0
        The original threshold, which decides between equally good intervals.

    Returns
    -------
    float
        The threshold b; for an unbounded interval `b0` if inside, else its
        finite end moved outward by 1; with no samples, `b0`.

    References
    ----------
    Schölkopf et al. (1999), Sec. VI-B.

    Examples
    --------
    Every b in (1, 2) separates the samples:

    >>> from preimage.reduced_set import classification_threshold
    >>> classification_threshold([-2.0, -1.0, 1.0, 3.0], [-1, 1, 1, 1], b0=0.0)
    1.5
    """
    values = check_real_array(values, "values").ravel()
    y_sign = np.asarray(y_sign).ravel()
    b0 = check_real(b0, "b0")
    if values.shape != y_sign.shape:
        raise ValueError(
            f"'y_sign' must have the shape of 'values' {values.shape}, got {y_sign.shape}"
        )
    if not np.isin(y_sign, (-1, 1)).all():
        raise ValueError(
            f"'y_sign' must hold only -1 and +1, got values {np.unique(y_sign)[:5]!r}"
        )
    if values.size == 0:
        return b0
    t = -values  # sample i changes side at b = t_i
    u, inverse = np.unique(t, return_inverse=True)
    k = u.size
    pos = np.bincount(inverse, weights=(y_sign > 0), minlength=k)
    neg = np.bincount(inverse, weights=(y_sign < 0), minlength=k)
    # Interval j (j = 0 … k) is (u_{j−1}, u_j) with u_{−1} = −∞, u_k = +∞. On it
    # a positive is wrong when g + b < 0, i.e. t ≥ u_j (index ≥ j); a negative
    # when t ≤ u_{j−1} (index < j).
    pos_at_or_above = np.concatenate([np.cumsum(pos[::-1])[::-1], [0.0]])
    neg_below = np.concatenate([[0.0], np.cumsum(neg)])
    errors = pos_at_or_above + neg_below
    best = np.flatnonzero(errors == errors.min())
    lo = np.where(best > 0, u[np.maximum(best - 1, 0)], -np.inf)
    hi = np.where(best < k, u[np.minimum(best, k - 1)], np.inf)
    distance = np.maximum(np.maximum(lo - b0, b0 - hi), 0.0)
    j = int(np.argmin(distance))
    lo, hi = lo[j], hi[j]
    if np.isfinite(lo) and np.isfinite(hi):
        return float((lo + hi) / 2)
    if lo < b0 < hi:
        return b0
    return float(hi - 1.0) if np.isfinite(hi) else float(lo + 1.0)


def epsilon_insensitive_threshold(residuals: ArrayLike, epsilon: float) -> float:
    r"""Return the threshold minimising the :math:`\varepsilon`-insensitive loss.

    .. math::
        L(b) = \sum_i \max(0, |r_i - b| - \varepsilon), \qquad
        r_i = y_i - g(x_i),

    convex and piecewise linear with breakpoints :math:`r_i \pm \varepsilon`:
    its minimisers, found exactly by binary search on the slopes, form an
    interval whose midpoint is returned.

    Parameters
    ----------
    residuals : array-like of shape (n,)
        The residuals :math:`r_i = y_i - g(x_i)`.
    epsilon : float
        The half-width :math:`\varepsilon \ge 0` of the insensitive tube.

    Returns
    -------
    float
        The threshold b, the midpoint of the minimisers of L.

    Raises
    ------
    ValueError
        If `residuals` is empty.

    References
    ----------
    Vapnik (1995). Schölkopf et al. (1999), Sec. VI-B.

    Examples
    --------
    With :math:`\varepsilon = 0.5`, L is flat on [0.5, 1.5], the tube around
    the middle residual:

    >>> from preimage.reduced_set import epsilon_insensitive_threshold
    >>> epsilon_insensitive_threshold([0.0, 1.0, 10.0], epsilon=0.5)
    1.0
    """
    r = check_real_array(residuals, "residuals").ravel()
    epsilon = check_positive(epsilon, "epsilon", strict=False)
    if r.size == 0:
        raise ValueError("'residuals' must hold at least one value, got an empty array")
    lower = np.sort(r - epsilon)  # where a term's slope stops being −1
    upper = np.sort(r + epsilon)  # where a term's slope becomes +1
    n = r.size
    breaks = np.concatenate([lower, upper])

    def slope(side):  # at every breakpoint, from the right or the left
        return np.searchsorted(upper, breaks, side) - (n - np.searchsorted(lower, breaks, side))

    lo = breaks[slope("right") >= 0].min()
    hi = breaks[slope("left") <= 0].max()
    return float((lo + hi) / 2)
