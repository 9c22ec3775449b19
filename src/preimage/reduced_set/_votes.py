"""Multiclass decisions of one-vs-one machines, as scikit-learn and libsvm
make them: votes, and votes with a confidence that breaks ties.

Pair machine k separates classes (i, j), i < j, in libsvm's order (0, 1),
(0, 2), …, (1, 2), …; a positive value speaks for i.
"""

from itertools import combinations

import numpy as np

__all__ = ["ovo_to_ovr_decision", "ovo_votes"]


def _pairs(n_classes):
    """``(k, i, j)`` for every pair machine k of classes i < j, in libsvm's order."""
    return [(k, i, j) for k, (i, j) in enumerate(combinations(range(n_classes), 2))]


def ovo_to_ovr_decision(dec: np.ndarray, n_classes: int) -> np.ndarray:
    """scikit-learn's one-vs-rest shaped decision of a one-vs-one SVC.

    Votes plus a confidence squashed into (−1/3, 1/3): pair (i, j) votes for
    i when its value is ≥ 0 and adds its value to i's confidence and its
    negative to j's; the confidence sum s becomes ``s / (3(|s| + 1))`` so
    that it breaks ties between vote counts but never overturns one (as
    ``SVC.decision_function`` with ``decision_function_shape='ovr'``
    documents).
    """
    votes = np.zeros((dec.shape[0], n_classes))
    confidence = np.zeros((dec.shape[0], n_classes))
    for k, i, j in _pairs(n_classes):
        confidence[:, i] += dec[:, k]
        confidence[:, j] -= dec[:, k]
        votes[:, i] += dec[:, k] >= 0
        votes[:, j] += dec[:, k] < 0
    return votes + confidence / (3 * (np.abs(confidence) + 1))


def ovo_votes(dec: np.ndarray, n_classes: int) -> np.ndarray:
    """libsvm's votes: pair (i, j) votes for i when its value is > 0, else j."""
    votes = np.zeros((dec.shape[0], n_classes), dtype=int)
    for k, i, j in _pairs(n_classes):
        votes[:, i] += dec[:, k] > 0
        votes[:, j] += dec[:, k] <= 0
    return votes
