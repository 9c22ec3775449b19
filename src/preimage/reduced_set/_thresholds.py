"""The thresholds of reduced machines, recomputed on the training set.

"In all RS systems, the optimal SV threshold was recomputed on the training
set" (Schölkopf et al. 1999, Sec. VI-A): once the weight vector Ψ of a
machine is replaced by a reduced Ψ', the constant b is chosen again for the
new decision values ``g(x_i) = ⟨Ψ', φ(x_i)⟩``: the b with the fewest training
errors for a classifier, the b with the least ε-insensitive loss for a
regressor. Both are exact minimisations of piecewise constant or piecewise
linear functions of b, in O(n log n).
"""

from __future__ import annotations

import numpy as np

from .._typing import ArrayLike
from .._validation import check_positive, check_real, check_real_array

__all__ = ["classification_threshold", "epsilon_insensitive_threshold"]


def classification_threshold(values: ArrayLike, y_sign: ArrayLike, b0: float = 0.0) -> float:
    """The threshold b with the fewest training errors of ``sign(g(x) + b)``.

    The number of errors ``#{i : y_i (g_i + b) ≤ 0}`` is piecewise constant in
    b, changing only at ``b = −g_i``; it is smallest on one or more open
    intervals between consecutive such points. Of those the one nearest `b0`
    (the SVM's own threshold) is taken, and b is its midpoint, the point
    farthest from both neighbouring training values — "in all RS systems,
    the optimal SV threshold was recomputed on the training set" (Schölkopf
    et al. 1999, Sec. VI-A).

    Parameters
    ----------
    values : array of shape (n,)
        ``g(x_i)``, the decision values without threshold.
    y_sign : array of shape (n,)
        The labels as −1 or +1 (+1: the class of positive values).
    b0 : float, default=0
        The original threshold, which decides between equally good intervals.

    Returns
    -------
    float
        b. An unbounded optimal interval has no midpoint: then b is `b0` when
        it lies inside, otherwise the interval's finite end moved outward by
        1, the margin of a canonical SVM. With no samples, `b0`.

    Notes
    -----
    O(n log n): one sort, then cumulative counts of positives and negatives.

    Examples
    --------
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
    """The threshold b minimising the ε-insensitive loss.

    .. math:: L(b) = Σ_i \\max(0, |r_i − b| − ε),  r_i = y_i − g(x_i)

    the loss an SVR's threshold minimises once its weight vector is fixed
    (Vapnik's ε-insensitive loss; recomputed on the training set as Schölkopf
    et al. 1999, Sec. VI, do for classifiers).

    L is convex and piecewise linear with breakpoints ``r_i ± ε``; its right
    slope at b is ``#{r_i + ε ≤ b} − #{r_i − ε > b}``, an integer count, so
    the minimisers ``{b : slope(b⁻) ≤ 0 ≤ slope(b⁺)}`` are found exactly by
    binary search in the sorted breakpoints, O(n log n). They form an
    interval [lo, hi] between two breakpoints; its midpoint is returned.

    Parameters
    ----------
    residuals : array of shape (n,)
        ``y_i − g(x_i)``.
    epsilon : float
        Half-width ε ≥ 0 of the insensitive tube.

    Returns
    -------
    float

    Examples
    --------
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

    def right_slope(b):
        return np.searchsorted(upper, b, side="right") - (
            n - np.searchsorted(lower, b, side="right")
        )

    def left_slope(b):
        return np.searchsorted(upper, b, side="left") - (
            n - np.searchsorted(lower, b, side="left")
        )

    lo = breaks[right_slope(breaks) >= 0].min()
    hi = breaks[left_slope(breaks) <= 0].max()
    return float((lo + hi) / 2)
