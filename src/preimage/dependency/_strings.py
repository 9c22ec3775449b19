"""The string pieces of kernel dependency estimation (Bakır et al. 2004,
Sec. 3.2): the check of a list of sequences, one-hot input windows, the
features a position classifier decodes from, and the symbol accuracy."""

from __future__ import annotations

from collections.abc import Sequence
from numbers import Integral
from typing import Any

import numpy as np

from preimage._utils.typing import ArrayLike, Sequences
from preimage._utils.validation import check_overflow, check_positive, check_real_array


def check_sequences(X: Any, name: str = "X", *, min_samples: int = 0) -> list[Any]:
    """`X` as a list of at least `min_samples` sequences (strings, or lists or
    tuples of hashable symbols; 1-D arrays as tuples), or an error naming `name`."""
    if isinstance(X, (str, bytes)) or not hasattr(X, "__iter__"):
        hint = f"; wrap a single sequence as [{name}]" if isinstance(X, (str, bytes)) else ""
        raise TypeError(
            f"{name!r} must be a list of sequences (strings or lists of "
            f"symbols), got {type(X).__name__} {X!r}{hint}"
        )
    items = list(X)
    for i, x in enumerate(items):
        if isinstance(x, np.ndarray) and x.ndim == 1:
            items[i] = x = tuple(x.tolist())
        if not isinstance(x, (str, list, tuple)):
            raise TypeError(
                f"{name!r} must hold strings or lists/tuples of symbols, got "
                f"{type(x).__name__} {x!r} at index {i}"
            )
        try:
            set(x)
        except TypeError:
            raise TypeError(
                f"{name!r} must hold hashable symbols, got {x!r} at index {i}"
            ) from None
    if len(items) < min_samples:
        raise ValueError(
            f"{name!r} must hold at least {min_samples} sequence(s), got {len(items)}"
        )
    return items


def check_equal_lengths(X: Sequences, Y: Sequences, name: str = "Y") -> None:
    """Refuse pairs of an input and an output of different lengths, naming `name`."""
    for i, (x, y) in enumerate(zip(X, Y)):
        if len(x) != len(y):
            raise ValueError(
                f"{name!r} must hold outputs of the length of their inputs (|x_i| = |y_i|), got "
                f"lengths {len(x)} and {len(y)} at index {i}"
            )


def window_features(X: Sequences, window: int, symbols: Sequence[Any]) -> np.ndarray:
    r"""Return the one-hot windows of length `window` centred at every position.

    The window of length :math:`n + 1` centred at position :math:`q` of :math:`x`,

    .. math::

        \alpha_q = (x_{q - n/2}, x_{q - n/2 + 1}, \ldots, x_{q + n/2}),

    with a terminal symbol beyond either end of :math:`x`; each symbol coded one-hot.

    Parameters
    ----------
    X : list of sequences
        Input strings (or lists of symbols).
    window : int
        Odd window length :math:`n + 1`.
    symbols : sequence
        The input alphabet. The terminal symbol has a column of its own; a
        symbol not in `symbols` has all-zero columns.

    Returns
    -------
    ndarray of shape (n_positions, window * (len(symbols) + 1))
        One row per position (string 0 position 0, string 0 position 1, ...);
        column block :math:`w` codes window position :math:`w`, terminal last.

    References
    ----------
    Bakır et al. (2004), Sec. 3.2.

    Examples
    --------
    Columns ``a, b, terminal`` for each of the three window positions:

    >>> from preimage.dependency import window_features
    >>> window_features(["ab"], 3, "ab").astype(int)
    array([[0, 0, 1, 1, 0, 0, 0, 1, 0],
           [1, 0, 0, 0, 1, 0, 0, 0, 1]])
    """
    if isinstance(window, bool) or not (
        isinstance(window, Integral) and window > 0 and window % 2
    ):
        raise ValueError(f"'window' must be an odd positive integer, got {window!r}")
    X = check_sequences(X, "X")
    try:
        index = {s: j for j, s in enumerate(symbols)}  # a string enumerates its characters
    except TypeError:
        raise TypeError(
            f"'symbols' must be a sequence of hashable symbols, got {symbols!r}"
        ) from None
    V = len(index) + 1  # the terminal symbol is column V - 1
    h = (window - 1) // 2
    # All strings in one array, each followed by h terminals (and h before
    # the first): the window of position q of a string is a slice around q.
    flat = [V - 1] * h
    for x in X:
        flat += [index.get(s, -1) for s in x] + [V - 1] * h
    codes = np.array(flat, dtype=np.int64)
    centres = np.flatnonzero(codes != V - 1)  # every position of a string, in order
    codes = codes[centres[:, None] + np.arange(-h, h + 1)[None, :]]
    F = np.zeros((codes.shape[0], window * V))
    rows, cols = np.nonzero(codes >= 0)
    F[rows, cols * V + codes[rows, cols]] = 1.0
    return F


def string_preimage_features(
    coordinates: ArrayLike,
    X: Sequences,
    window: int,
    symbols: Sequence[Any],
    *,
    coordinate_weight: float = 1.0,
) -> np.ndarray:
    r"""Return the features a position classifier decodes string outputs from.

    Position :math:`q` of the output of :math:`x` is decoded from its output
    coordinates :math:`c` and the window :math:`\alpha_q` of
    :func:`window_features`,

    .. math::

        f_q = \bigl[\, w\, c,\ \operatorname{onehot}(\alpha_q) \,\bigr].

    Windows that differ in :math:`j` positions are at squared distance :math:`2j`,
    coordinates at :math:`w^2 \|c - c'\|^2` (at most :math:`4 w^2` when normalised).

    Parameters
    ----------
    coordinates : array-like of shape (m, r)
        Output coordinates of each string: the true ones of the training
        outputs, the estimated ones at prediction.
    X : list of sequences
        The :math:`m` inputs; string :math:`i` gives :math:`|x_i|` rows.
    window : int
        Odd window length :math:`n + 1`.
    symbols : sequence
        The input alphabet.
    coordinate_weight : float, default=1.0
        The factor :math:`w \ge 0` on the coordinates.

    Returns
    -------
    ndarray of shape (n_positions, r + window * (len(symbols) + 1))
        One row per position: the weighted coordinates, then the window.

    References
    ----------
    Bakır et al. (2004), Sec. 3.2.

    Examples
    --------
    >>> from preimage.dependency import string_preimage_features
    >>> string_preimage_features([[0.5]], ["ab"], 1, "ab", coordinate_weight=2.0)
    array([[1., 1., 0., 0.],
           [1., 0., 1., 0.]])
    """
    X = check_sequences(X, "X")
    C = check_real_array(coordinates, "coordinates")
    lengths = [len(x) for x in X]
    if C.ndim != 2 or C.shape[0] != len(lengths):
        raise ValueError(
            f"'coordinates' must have one row per sequence of 'X' "
            f"({len(lengths)}), got shape {C.shape}"
        )
    weight = check_positive(coordinate_weight, "coordinate_weight", strict=False)
    with np.errstate(over="ignore"):
        scaled = weight * np.repeat(C, lengths, axis=0)
    what, names = "the weighted coordinates", "'coordinate_weight' and 'coordinates'"
    check_overflow(scaled, what, names, f"use a 'coordinate_weight' smaller than {weight!r}")
    return np.hstack([scaled, window_features(X, window, symbols)])


def symbol_accuracy(Y_true: Sequences, Y_pred: Sequences) -> float:
    r"""Return the fraction of output symbols predicted correctly, pooled over strings.

    .. math::

        \mathrm{accuracy} = \frac{\sum_i \sum_{q=1}^{|y_i|}
        [\hat{y}_{i,q} = y_{i,q}]}{\sum_i |y_i|}.

    Positions a shorter prediction lacks count as wrong; extra predicted
    symbols are ignored. The paper's classification error is
    ``1 - symbol_accuracy``.

    Parameters
    ----------
    Y_true : list of sequences
        The true outputs :math:`y_i`.
    Y_pred : list of sequences
        The predicted outputs :math:`\hat{y}_i`, one per true output.

    Returns
    -------
    float
        The fraction of the symbols of `Y_true` predicted correctly.

    References
    ----------
    Bakır et al. (2004), Sec. 4.

    Examples
    --------
    >>> from preimage.dependency import symbol_accuracy
    >>> print(f"{symbol_accuracy(['1122', '12'], ['1121', '1']):.4f}")  # 4 / 6
    0.6667
    """
    Y_true = check_sequences(Y_true, "Y_true")
    Y_pred = check_sequences(Y_pred, "Y_pred")
    if len(Y_true) != len(Y_pred):
        raise ValueError(
            f"'Y_pred' must hold one sequence per sequence of 'Y_true' "
            f"({len(Y_true)}), got {len(Y_pred)}"
        )
    total = sum(len(y) for y in Y_true)
    if total == 0:
        raise ValueError("'Y_true' holds no symbols")
    correct = sum(sum(a == b for a, b in zip(y, z)) for y, z in zip(Y_true, Y_pred))
    return correct / total
