"""Kernels on sequences (strings, lists/tuples or 1-D arrays of hashable symbols)."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from preimage._utils.typing import Sequences, Vocabulary
from preimage.kernels._base import Kernel
from preimage.kernels._docs import fill


def _is_symbol_sequence(s):
    """A string, or a non-string sequence (list, tuple, 1-D array) of symbols."""
    return s.ndim == 1 if isinstance(s, np.ndarray) else isinstance(s, Sequence)


def _check_sequences(X, name, pairs=False):
    """Return `X` as a list of sequences (of ``(x, y)`` pairs of equal-length
    sequences with `pairs`), refusing a bare string or a float array."""
    if isinstance(X, (str, bytes)):
        raise TypeError(
            f"{name!r} must be a list of sequences (strings or lists of symbols), got a "
            f"bare {type(X).__name__} {X!r}; wrap a single sequence as [{name}]"
        )
    if isinstance(X, np.ndarray):
        if X.dtype.kind in "fcbmM":
            raise TypeError(
                f"{name!r} must be a list of sequences (strings or lists of symbols), got "
                f"an array of dtype {X.dtype} with shape {X.shape}; string kernels do "
                "not take numeric feature vectors, use a kernel of preimage.kernels"
            )
        items = [row.tolist() if isinstance(row, np.ndarray) else row for row in X]
    elif isinstance(X, (list, tuple)):
        items = list(X)
    else:
        raise TypeError(
            f"{name!r} must be a list, tuple or array of sequences, got {type(X).__name__}"
        )
    if not items:
        raise ValueError(
            f"{name!r} must hold at least one sequence, got an empty {type(X).__name__}"
        )
    what = "(x, y) pairs of sequences" if pairs else "strings or sequences of symbols"
    for i, s in enumerate(items):
        ok = _is_symbol_sequence(s)
        if pairs:
            ok = ok and not isinstance(s, str) and len(s) == 2 and all(map(_is_symbol_sequence, s))
        if not ok:
            raise TypeError(
                f"{name!r} must hold {what}, got {type(s).__name__} {s!r} at index {i}"
            )
        if pairs and len(s[0]) != len(s[1]):
            raise ValueError(
                f"{name!r} must hold pairs (x, y) with len(x) == len(y), got lengths "
                f"{len(s[0])} and {len(s[1])} at index {i}"
            )
    return items


def _count_matrix(grams_per_row, vocabulary, name):
    """CSR counts of the features of each row, and the vocabulary: unseen features
    grow a new one (`vocabulary` None) or are dropped."""
    grow, vocabulary = vocabulary is None, {} if vocabulary is None else vocabulary
    indices, indptr = [], [0]
    column = (lambda g: vocabulary.setdefault(g, len(vocabulary))) if grow else vocabulary.get
    for i, grams in enumerate(grams_per_row):
        try:
            indices.extend(j for j in map(column, grams) if j is not None)
        except TypeError as exc:  # an unhashable symbol
            raise TypeError(
                f"{name!r} must hold sequences of hashable symbols; sequence {i} "
                f"has an unhashable one: {exc}"
            ) from None
        indptr.append(len(indices))
    n = max(len(vocabulary), max(vocabulary.values(), default=-1) + 1)  # columns
    F = sp.csr_matrix((np.ones(len(indices)), indices, indptr), shape=(len(indptr) - 1, n))
    F.sum_duplicates()  # repeated p-grams of a row become counts
    return F, vocabulary


def _row_norms2(F):
    return np.asarray(F.multiply(F).sum(axis=1), dtype=np.float64).ravel()


@fill
class SequenceKernel:
    """Base class of kernels on sequences (strings, lists of symbols).

    Subclasses are frozen dataclasses; ``_grams`` yields the features of one
    sequence, which the base counts into sparse matrices and Gram blocks.

    Examples
    --------
    >>> from preimage.kernels import SpectrumKernel
    >>> k = SpectrumKernel(p=2)
    >>> F, vocabulary = k.features(["abab", "ba"])
    >>> sorted(vocabulary.items())
    [(('a', 'b'), 0), (('b', 'a'), 1)]
    >>> F.toarray()  # "abab": ab twice, ba once
    array([[2., 1.],
           [0., 1.]])
    """

    #: The kernel takes ``(x, y)`` pairs of equal-length sequences (a joint kernel).
    joint = False
    #: The kernel takes 2-D numeric arrays (it wraps a :class:`~preimage.kernels.Kernel`).
    vector_input = False
    # Why the kernel has no explicit features, if it has none.
    _no_features = ""

    _check = staticmethod(_check_sequences)

    def _grams(self, s):  # pragma: no cover - abstract
        raise NotImplementedError

    def features(
        self, X: Sequences, vocabulary: Vocabulary | None = None
    ) -> tuple[sp.csr_matrix, Vocabulary]:
        """Return the sparse count features of the sequences `X`.

        Parameters
        ----------
        %(sequences)s
        %(vocabulary)s

        Returns
        -------
        F : scipy.sparse.csr_matrix of shape (n, n_features), float64
            ``F[i, j]`` is the count of feature j in sequence i.
        vocabulary : dict
            Feature to column index; the features are p-gram tuples
            (spectrum) or ``(p-gram, output symbol)`` pairs (joint spectrum).

        Raises
        ------
        NotImplementedError
            For a kernel with no explicit features; use its Gram blocks.
        """
        if self._no_features:
            raise NotImplementedError(
                f"{type(self).__name__} has no explicit features ({self._no_features}); use "
                "its Gram blocks"
            )
        items = self._check(X, "X")
        if vocabulary is not None and not isinstance(vocabulary, dict):
            raise TypeError(
                f"'vocabulary' must be a dict feature -> column, got {type(vocabulary).__name__}"
            )
        return _count_matrix(map(self._grams, items), vocabulary, "X")

    def __call__(self, X: Sequences, Y: Sequences | None = None) -> np.ndarray:
        """Gram block ``K_ij = k(x_i, y_j) = F_x F_yᵀ`` of shape (n_x, n_y), float64."""
        Fx, vocabulary = self.features(X)
        rows = None if Y is None else map(self._grams, self._check(Y, "Y"))
        Fy = Fx if rows is None else _count_matrix(rows, vocabulary, "Y")[0]
        return np.asarray((Fx @ Fy.T).toarray(), dtype=np.float64)

    def diag(self, X: Sequences) -> np.ndarray:
        r"""Return the diagonal :math:`k(x_i, x_i) = \|\phi(x_i)\|^2` without the Gram matrix.
        %(seq_diag)s
        """
        return _row_norms2(self.features(X)[0])

    get_params = Kernel.get_params


@fill
@dataclass(frozen=True)
class CallableSequenceKernel(SequenceKernel):
    """A user's kernel function ``f(a, b)`` on two single sequences, evaluated pair by pair.

    The sequence counterpart of :class:`~preimage.kernels.CallableKernel`; it
    has no explicit features.

    Parameters
    ----------
    function : callable
        ``f(a, b) -> float`` on two sequences (strings, tuples of symbols or
        ``(x, y)`` pairs).

    Examples
    --------
    >>> from preimage.kernels import CallableSequenceKernel
    >>> k = CallableSequenceKernel(lambda a, b: float(len(a) * len(b)))
    >>> k(["ab", "abc"], ["a"])
    array([[2.],
           [3.]])
    """

    function: Callable[..., float] | None = None

    _no_features = "a user's function"

    def __post_init__(self):
        if not callable(self.function):
            raise ValueError(f"'function' must be callable, got {self.function!r}")

    def __call__(self, X: Sequences, Y: Sequences | None = None) -> np.ndarray:
        """Gram block ``K_ij = f(x_i, y_j)`` of shape (n_x, n_y), float64."""
        X = self._check(X, "X")
        Y = X if Y is None else self._check(Y, "Y")
        return np.array([[float(self.function(a, b)) for b in Y] for a in X])

    def diag(self, X: Sequences) -> np.ndarray:
        """Return the diagonal :math:`f(x_i, x_i)`.
        %(seq_diag)s
        """
        return np.array([float(self.function(a, a)) for a in self._check(X, "X")])
