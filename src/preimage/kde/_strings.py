"""The string pieces of kernel dependency estimation (Bakır, Weston &
Schölkopf 2004, Sec. 3.2): the check of a list of sequences, one-hot input
windows, the features a position classifier decodes from, and the symbol
accuracy of predicted strings.

The pre-image of a string output is decoded position by position: the
output symbol at position q of the output of x is predicted from the
estimated output coordinates of x and the window of x centred at q,

    f_q(x) = [w · ĉ(x), one-hot(x_{q−n/2}, …, x_{q+n/2})],

by any classifier trained on the same features of the training positions
(with the *true* coordinates of the training outputs).
"""

from __future__ import annotations

from collections.abc import Sequence
from numbers import Integral
from typing import Any

import numpy as np

from .._typing import ArrayLike, Sequences
from .._validation import check_positive, check_real_array, refuse_overflow

__all__ = [
    "check_equal_lengths",
    "check_sequences",
    "string_preimage_features",
    "symbol_accuracy",
    "window_features",
]


def check_sequences(X: Any, name: str = "X", *, min_samples: int = 0) -> list[Any]:
    """`X` as a list of sequences, or an error naming `name`.

    A sequence is a string, or a list or tuple of hashable symbols; 1-D
    arrays (and the rows of a 2-D array) become tuples.

    Parameters
    ----------
    X : iterable of sequences
    name : str, default="X"
        The argument named by an error.
    min_samples : int, default=0
        The fewest sequences accepted.

    Returns
    -------
    list
    """
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
    """Refuse pairs with ``|x_i| ≠ |y_i|`` (a joint kernel, or a decoder that
    predicts one output symbol per input position), naming `name`."""
    for i, (x, y) in enumerate(zip(X, Y)):
        if len(x) != len(y):
            raise ValueError(
                f"{name!r} must hold outputs of the length of their inputs "
                f"(|x_i| = |y_i|), got lengths {len(x)} and {len(y)} at "
                f"index {i}"
            )


def window_features(X: Sequences, window: int, symbols: Sequence[Any]) -> np.ndarray:
    """One-hot windows of length `window` centred at every position.

    Parameters
    ----------
    X : list of sequences
        Input strings (or lists of symbols).
    window : int
        Odd window length n + 1; the window at position q covers
        ``q − n/2, …, q + n/2``.
    symbols : sequence
        The input alphabet. Positions beyond either end hold the terminal
        symbol, which has a column of its own; a symbol not in `symbols`
        (unseen in training) has all-zero columns.

    Returns
    -------
    F : ndarray of shape ``(Σ_i |x_i|, window · (|symbols| + 1))``
        Rows in order: string 0 position 0, string 0 position 1, …; column
        block w holds the one-hot code of window position w (the terminal
        last).

    Examples
    --------
    >>> from preimage.kde import window_features
    >>> window_features(["ab"], 3, "ab").astype(int)
    array([[0, 0, 1, 1, 0, 0, 0, 1, 0],
           [1, 0, 0, 0, 1, 0, 0, 0, 1]])
    """
    if (
        isinstance(window, bool)
        or not isinstance(window, Integral)
        or window < 1
        or window % 2 == 0
    ):
        raise ValueError(f"'window' must be an odd positive integer, got {window!r}")
    X = check_sequences(X, "X")
    if isinstance(symbols, (str, bytes)):
        symbols = list(symbols)
    try:
        index = {s: j for j, s in enumerate(symbols)}
    except TypeError:
        raise TypeError(
            f"'symbols' must be a sequence of hashable symbols, got {symbols!r}"
        ) from None
    V = len(index) + 1  # the terminal symbol is column V - 1
    h = (window - 1) // 2
    # All strings in one array, each followed by h terminals (and h before
    # the first): the window of position q of a string is a slice around q.
    lengths = np.array([len(x) for x in X], dtype=np.int64)
    codes = np.full(h + int(lengths.sum()) + h * len(lengths), V - 1, dtype=np.int64)
    starts = h + np.concatenate([[0], np.cumsum(lengths + h)[:-1]]).astype(np.int64)
    for x, start in zip(X, starts):
        codes[start : start + len(x)] = [index.get(s, -1) for s in x]
    centres = (
        np.concatenate([np.arange(a, a + n) for a, n in zip(starts, lengths)])
        if len(lengths)
        else np.empty(0, dtype=np.int64)
    )
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
    """Features ``[w · c(y), one-hot window of x at q]`` of every position q.

    Parameters
    ----------
    coordinates : array of shape (m, r)
        Output coordinates of each string (the true ones of training outputs,
        estimated ones ``k(x, X) β`` at prediction).
    X : list of m sequences
        The inputs; string i contributes ``|x_i|`` rows.
    window, symbols
        See :func:`window_features`.
    coordinate_weight : float, default=1.0
        w, the factor on the coordinates. The one-hot entries are 0/1, so two
        windows that differ in j positions are at squared distance 2j; two
        coordinate vectors are at squared distance ``w²‖c − c'‖²``, which for
        a cosine-normalised output kernel is at most ``4w²`` (unit feature
        vectors). With w = 1 a k-NN on these features mostly matches the
        window first and then the string's estimated output.

    Returns
    -------
    F : ndarray of shape ``(Σ_i |x_i|, r + window · (|symbols| + 1))``
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
    refuse_overflow(
        scaled,
        "the weighted coordinates",
        "'coordinate_weight' and 'coordinates'",
        f"use a 'coordinate_weight' smaller than {weight!r}",
    )
    return np.hstack([scaled, window_features(X, window, symbols)])


def symbol_accuracy(Y_true: Sequences, Y_pred: Sequences) -> float:
    """Fraction of output symbols predicted correctly, pooled over strings.

    Position q of ``Y_pred[i]`` is compared with position q of
    ``Y_true[i]``; positions of ``Y_true[i]`` that ``Y_pred[i]`` lacks (a
    shorter prediction) count as wrong, extra predicted symbols are ignored.
    The misclassification rate of Bakır et al. (2004, Sec. 4) is
    ``1 − symbol_accuracy``.

    Examples
    --------
    >>> from preimage.kde import symbol_accuracy
    >>> symbol_accuracy(["1122", "12"], ["1121", "1"])
    0.6666666666666666
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
