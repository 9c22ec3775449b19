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
    r"""Turn one-vs-one decision values into scikit-learn's one-vs-rest shape.

    Pair machine (i, j) votes for class i when its value is at least 0, for
    j otherwise, and adds its value to i's confidence and its negative to
    j's. With :math:`v_c` the votes and :math:`s_c` the confidence sum of
    class c, the decision of class c is

    .. math:: v_c + \frac{s_c}{3 (|s_c| + 1)},

    the confidence squashed into :math:`(-1/3, 1/3)` so that it breaks ties
    between vote counts but never overturns one (as ``SVC.decision_function``
    with ``decision_function_shape='ovr'`` documents).

    Parameters
    ----------
    dec : ndarray of shape (n_samples, n_classes * (n_classes - 1) / 2)
        The values of the pair machines, in libsvm's order (0, 1), (0, 2),
        ..., (1, 2), ...; a positive value speaks for the first class.
    n_classes : int
        The number of classes.

    Returns
    -------
    ndarray of shape (n_samples, n_classes)
        The votes plus the squashed confidence of every class.

    Examples
    --------
    Pairs (0, 1) and (0, 2) vote for class 0, pair (1, 2) for class 2; the
    confidences are 3, -1.5 and -1.5.

    >>> import numpy as np
    >>> from preimage.reduced_set import ovo_to_ovr_decision
    >>> ovo_to_ovr_decision(np.array([[1.0, 2.0, -0.5]]), 3)  # 2 + 3/12, 0 - 1.5/7.5, 1 - 1.5/7.5
    array([[ 2.25, -0.2 ,  0.8 ]])
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
    """Count libsvm's one-vs-one votes.

    Pair machine (i, j) votes for class i when its value is positive, for j
    otherwise: a value of exactly 0 votes for j, as in libsvm's prediction
    (:func:`ovo_to_ovr_decision` gives it to i, as scikit-learn's
    one-vs-rest shape does).

    Parameters
    ----------
    dec : ndarray of shape (n_samples, n_classes * (n_classes - 1) / 2)
        The values of the pair machines, in libsvm's order (0, 1), (0, 2),
        ..., (1, 2), ...
    n_classes : int
        The number of classes.

    Returns
    -------
    ndarray of shape (n_samples, n_classes)
        The number of votes of every class.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.reduced_set import ovo_votes
    >>> ovo_votes(np.array([[1.0, 2.0, -0.5], [0.0, 0.0, 0.0]]), 3)
    array([[2, 0, 1],
           [0, 1, 2]])
    """
    votes = np.zeros((dec.shape[0], n_classes), dtype=int)
    for k, i, j in _pairs(n_classes):
        votes[:, i] += dec[:, k] > 0
        votes[:, j] += dec[:, k] <= 0
    return votes
