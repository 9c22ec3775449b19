"""Kernels on sequences: the base class, its input checks and sparse count
features, and a user's function on two sequences as a kernel.

Sequences are Python strings or lists/tuples (or 1-D arrays) of hashable
symbols. Kernels on them are not :class:`~preimage.kernels.Kernel`
subclasses, which take 2-D float arrays; they share the small base
:class:`SequenceKernel`, which also says what a kernel takes: single
sequences, ``(x, y)`` pairs of a joint kernel (:attr:`SequenceKernel.joint`),
or the numeric vectors of a wrapped :class:`~preimage.kernels.Kernel`
(:attr:`SequenceKernel.vector_input`).

Features are sparse count matrices. The features of each sequence (its
p-grams, say) are extracted in one pass over the sequences (never over
pairs), mapped to columns through a vocabulary dict fitted on ``X ∪ Y``, and
the Gram block is the sparse product ``F_x F_yᵀ``, so thousands of strings
cost one sparse matrix product.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
import dataclasses
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp

from preimage._utils.typing import Sequences, Vocabulary

__all__ = ["CallableSequenceKernel", "SequenceKernel"]

# ---------------------------------------------------------------------------
# input checks
# ---------------------------------------------------------------------------


def _is_symbol_sequence(s):
    """A string, or a non-string sequence (list, tuple, 1-D array) of symbols."""
    if isinstance(s, np.ndarray):
        return s.ndim == 1
    return isinstance(s, Sequence)


def _check_container(X, name):
    """Return `X` as a list of its items, refusing a bare string or a float array."""
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
    return items


def _check_sequences(X, name):
    """Return `X` as a list of sequences, or raise naming `name`."""
    items = _check_container(X, name)
    for i, s in enumerate(items):
        if not _is_symbol_sequence(s):
            raise TypeError(
                f"{name!r} must hold strings or sequences of symbols, got "
                f"{type(s).__name__} {s!r} at index {i}"
            )
    return items


def _check_pairs(X, name):
    """Return `X` as a list of ``(x, y)`` pairs of equal-length sequences."""
    items = _check_container(X, name)
    for i, pair in enumerate(items):
        ok = (
            _is_symbol_sequence(pair)
            and not isinstance(pair, str)
            and len(pair) == 2
            and all(_is_symbol_sequence(s) for s in pair)
        )
        if not ok:
            raise TypeError(
                f"{name!r} must hold (x, y) pairs of sequences, got "
                f"{type(pair).__name__} {pair!r} at index {i}"
            )
        if len(pair[0]) != len(pair[1]):
            raise ValueError(
                f"{name!r} must hold pairs (x, y) with len(x) == len(y), got lengths "
                f"{len(pair[0])} and {len(pair[1])} at index {i}"
            )
    return items


# ---------------------------------------------------------------------------
# sparse counting
# ---------------------------------------------------------------------------


def _count_matrix(grams_per_row, vocabulary, grow, name):
    """CSR count matrix of the hashable features yielded per row.

    `vocabulary` maps feature → column; with ``grow=True`` unseen features get
    new columns, otherwise they are dropped (like CountVectorizer.transform).
    The number of columns is set by the caller from the final vocabulary.
    """
    indices = []
    indptr = [0]
    for i, grams in enumerate(grams_per_row):
        try:
            if grow:
                indices.extend(vocabulary.setdefault(g, len(vocabulary)) for g in grams)
            else:
                indices.extend(j for j in map(vocabulary.get, grams) if j is not None)
        except TypeError as exc:  # an unhashable symbol
            raise TypeError(
                f"{name!r} must hold sequences of hashable symbols; sequence {i} "
                f"has an unhashable one: {exc}"
            ) from None
        indptr.append(len(indices))
    indices = np.asarray(indices, dtype=np.int64)
    indptr = np.asarray(indptr, dtype=np.int64)
    return indices, indptr


def _to_csr(parts, n_features):
    indices, indptr = parts
    data = np.ones(indices.size, dtype=np.float64)
    F = sp.csr_matrix((data, indices, indptr), shape=(indptr.size - 1, n_features))
    F.sum_duplicates()  # repeated p-grams of a row become counts
    return F


def _gram(Fx, Fy):
    """Dense ``F_x F_yᵀ`` from sparse factors."""
    G = Fx @ Fy.T
    return np.asarray(G.toarray() if sp.issparse(G) else G, dtype=np.float64)


def _row_norms2(F):
    return np.asarray(F.multiply(F).sum(axis=1), dtype=np.float64).ravel()


# ---------------------------------------------------------------------------
# the base class
# ---------------------------------------------------------------------------


class SequenceKernel:
    """Base class of kernels on sequences (strings, lists of symbols).

    Subclasses are frozen dataclasses whose fields are the kernel parameters.
    Kernels with an explicit finite feature map implement :meth:`_grams`
    (the features of one validated sequence) and :meth:`_check`; the base
    turns them into a sparse count matrix and Gram blocks.

    Two class attributes say what a kernel takes, for the estimators that
    pair inputs with outputs (:class:`~preimage.KernelDependencyEstimator`):
    wrappers (normalisation, RBF) pass on those of the kernel they wrap.

    Examples
    --------
    The 2-spectrum kernel, whose features count the pairs of consecutive
    symbols:

    >>> from preimage.kernels import SpectrumKernel
    >>> k = SpectrumKernel(p=2)
    >>> F, vocabulary = k.features(["abab", "ba"])
    >>> sorted(vocabulary.items())
    [(('a', 'b'), 0), (('b', 'a'), 1)]
    >>> F.toarray()  # "abab": ab twice, ba once
    array([[2., 1.],
           [0., 1.]])
    >>> k(["abab", "ba"])  # F F^T
    array([[5., 1.],
           [1., 1.]])
    >>> k.diag(["abab", "ba"])
    array([5., 1.])
    """

    #: The kernel takes ``(x, y)`` pairs of equal-length sequences.
    #:
    #: A joint kernel, on inputs and outputs.
    joint = False
    #: The kernel takes 2-D numeric arrays.
    #:
    #: It wraps a preimage :class:`~preimage.kernels.Kernel`.
    vector_input = False

    # -- subclasses with explicit count features ------------------------------
    def _check(self, X, name):  # pragma: no cover - abstract
        raise NotImplementedError

    def _grams(self, s):  # pragma: no cover - abstract
        raise NotImplementedError

    # -- public API -------------------------------------------------------------
    def features(
        self, X: Sequences, vocabulary: Vocabulary | None = None
    ) -> tuple[sp.csr_matrix, Vocabulary]:
        """Sparse count features of the sequences `X`.

        Parameters
        ----------
        X : list of sequences
            The sequences (for :class:`JointSpectrumKernel`, ``(x, y)`` pairs).
        vocabulary : dict, optional
            Feature to column index. If given it is kept fixed and features
            not in it are dropped (so matrices of two sets built with one
            vocabulary share columns); otherwise it is fitted on `X`.

        Returns
        -------
        F : scipy.sparse.csr_matrix of shape (n, n_features), float64
            ``F[i, j]`` is the count of feature j in sequence i.
        vocabulary : dict
            Feature to column index; the features are p-gram tuples
            (spectrum) or ``(p-gram, output symbol)`` pairs (joint spectrum).
        """
        items = self._check(X, "X")
        if vocabulary is None:
            vocabulary = {}
            parts = _count_matrix(map(self._grams, items), vocabulary, True, "X")
        else:
            if not isinstance(vocabulary, dict):
                raise TypeError(
                    f"'vocabulary' must be a dict feature -> column, got "
                    f"{type(vocabulary).__name__}"
                )
            parts = _count_matrix(map(self._grams, items), vocabulary, False, "X")
        n_features = max(len(vocabulary), max(vocabulary.values(), default=-1) + 1)
        return _to_csr(parts, n_features), vocabulary

    def __call__(self, X: Sequences, Y: Sequences | None = None) -> np.ndarray:
        """Gram block ``K_ij = k(x_i, y_j)`` of shape (n_x, n_y), float64.

        The vocabulary is fitted on ``X ∪ Y`` so both count matrices share
        columns; the block is the sparse product ``F_x F_yᵀ``.
        """
        X = self._check(X, "X")
        vocabulary: Vocabulary = {}
        px = _count_matrix(map(self._grams, X), vocabulary, True, "X")
        if Y is None:
            Fx = _to_csr(px, len(vocabulary))
            return _gram(Fx, Fx)
        Y = self._check(Y, "Y")
        py = _count_matrix(map(self._grams, Y), vocabulary, True, "Y")
        n_features = len(vocabulary)
        return _gram(_to_csr(px, n_features), _to_csr(py, n_features))

    def diag(self, X: Sequences) -> np.ndarray:
        r"""Return the diagonal :math:`k(x_i, x_i) = \|\phi(x_i)\|^2` without the Gram matrix.

        Parameters
        ----------
        X : list of sequences
            The sequences (for :class:`JointSpectrumKernel`, ``(x, y)`` pairs).

        Returns
        -------
        ndarray of shape (n,)
            The squared norms of the count features.
        """
        F, _ = self.features(X)
        return _row_norms2(F)

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        """Return the kernel parameters as a dict.

        Parameters
        ----------
        deep : bool, default=True
            Ignored: the parameters are returned as they are (a wrapped base
            kernel as one object). Accepted for the signature of
            scikit-learn's ``get_params``.

        Returns
        -------
        dict
            The dataclass fields, name to value.
        """
        fields = dataclasses.fields(self)  # type: ignore[arg-type]  # subclasses are dataclasses
        return {f.name: getattr(self, f.name) for f in fields}


@dataclass(frozen=True)
class CallableSequenceKernel(SequenceKernel):
    """A user's kernel function ``f(a, b)`` on two single sequences.

    .. math:: K_{ij} = f(x_i, y_j),

    evaluated pair by pair (:math:`n_x n_y` calls): the sequence counterpart of
    :class:`~preimage.kernels.CallableKernel`, which takes numeric rows. The
    function is trusted to be a kernel (symmetric, positive semi-definite);
    it has no explicit features (:meth:`features` raises
    NotImplementedError).

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

    def __post_init__(self):
        if not callable(self.function):
            raise ValueError(f"'function' must be callable, got {self.function!r}")

    def _check(self, X, name):
        return _check_sequences(X, name)

    def features(
        self, X: Sequences, vocabulary: Vocabulary | None = None
    ) -> tuple[sp.csr_matrix, Vocabulary]:
        """Refuse: a user's function has no explicit features.

        Parameters
        ----------
        X : list of sequences
            The sequences.
        vocabulary : dict, optional
            Feature to column index.

        Raises
        ------
        NotImplementedError
            Always; use the kernel's Gram blocks.
        """
        raise NotImplementedError(
            "CallableSequenceKernel has no explicit features (a user's function); use "
            "its Gram blocks"
        )

    def __call__(self, X: Sequences, Y: Sequences | None = None) -> np.ndarray:
        """Gram block ``K_ij = f(x_i, y_j)`` of shape (n_x, n_y), float64."""
        X = self._check(X, "X")
        Y = X if Y is None else self._check(Y, "Y")
        return np.array([[float(self.function(a, b)) for b in Y] for a in X])

    def diag(self, X: Sequences) -> np.ndarray:
        """Return the diagonal :math:`f(x_i, x_i)`.

        Parameters
        ----------
        X : list of sequences
            The sequences.

        Returns
        -------
        ndarray of shape (n,)
            The values of the function on each sequence with itself.
        """
        return np.array([float(self.function(a, a)) for a in self._check(X, "X")])
