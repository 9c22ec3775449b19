"""Argument checks and bookkeeping shared by the reduced-set methods."""

import numpy as np

from preimage._utils.validation import (
    check_expansion,
    check_positive_int,
    checked_gram,
    refuse_overflow,
)
from preimage.reduced_set._result import ReducedSetResult

__all__ = ["check_reduction", "combine", "finite", "groups", "reducible", "support_gram"]


def reducible(expansion, *, norm=False):
    """The expansion, with a kernel and support points (the toolkit's
    :func:`~preimage._utils.validation.check_expansion`); with `norm`, also a finite
    ``‖Ψ_k‖²``, every method's scale of the error."""
    expansion = check_expansion(expansion, purpose="no reduced set can be built for it")
    if norm:
        try:
            expansion.norm2()
        except ValueError as exc:  # the kernel or the coefficients overflowed
            raise ValueError(f"'expansion' cannot be reduced: {exc}") from None
    return expansion


def finite(values, names):
    """Refuse coefficients or errors that overflowed float64 (the computations
    run under ``np.errstate(over="ignore", invalid="ignore")``)."""
    return refuse_overflow(
        values,
        "the reduced-set coefficients or errors",
        names,
        "rescale the coefficients or the data, or use an 'alpha'",
    )


def check_reduction(expansion, n_vectors, shared):
    """Validate the arguments every reduced-set method takes."""
    expansion = reducible(expansion, norm=True)
    n_vectors = check_positive_int(n_vectors, "n_vectors")
    if not isinstance(shared, (bool, np.bool_)):
        raise TypeError(f"'shared' must be True or False, got {shared!r}")
    return expansion, n_vectors


def support_gram(expansion, copies=3):
    """The Gram matrix of the support points, (n, n), refused beforehand if
    `copies` such matrices (selection keeps sub-blocks and eigenvectors of it)
    exceed the memory budget."""
    return checked_gram(
        expansion.kernel,
        expansion.support,
        "support Gram matrix",
        copies=copies,
        names="'expansion'",
        hint="reduce an expansion with fewer support points, or use "
        "method='construction', which streams the kernel in row blocks",
    )


def groups(expansion, shared):
    """The rows of coef reduced together: all of them, or one at a time."""
    m = expansion.n_expansions
    return [np.arange(m)] if shared else [np.array([k]) for k in range(m)]


def combine(expansion, parts, method, info):
    """Assemble per-group results into one ReducedSetResult.

    Each part is ``(rows, vectors, coef, error, history_counts, history_error,
    support_indices or None)``. Selected support points used by several groups
    appear once; constructed vectors are concatenated.
    """
    m = expansion.n_expansions
    norm2 = expansion.norm2()
    error = np.zeros(m)
    if all(part[6] is not None for part in parts):  # selection
        indices = np.unique(np.concatenate([part[6] for part in parts]))
        vectors = expansion.support[indices]
        columns = [np.searchsorted(indices, part[6]) for part in parts]
    else:
        indices = None
        vectors = np.vstack([part[1] for part in parts])
        ends = np.cumsum([part[1].shape[0] for part in parts])
        columns = [np.arange(end - part[1].shape[0], end) for part, end in zip(parts, ends)]
    coef = np.zeros((m, vectors.shape[0]))
    for (rows, _, B, err, *_), cols in zip(parts, columns):
        coef[np.ix_(rows, cols)] = B
        error[rows] = err
    # The history on a common axis of counts: each group at the count nearest
    # from its own run (a group that stopped early keeps its last error).
    counts = np.unique(np.concatenate([part[4] for part in parts]))
    hist = np.zeros((counts.size, m))
    for rows, _, _, _, c, e, _ in parts:
        order = np.argsort(c)
        c, e = np.asarray(c)[order], np.asarray(e)[order]
        pos = np.clip(np.searchsorted(c, counts, side="right") - 1, 0, len(c) - 1)
        hist[:, rows] = e[pos]
    for values in (coef, error, hist):
        finite(values, "'expansion'")
    # ρ ≥ 0 (a kernel that is not positive definite can make ‖Ψ‖² < 0).
    error, hist = np.maximum(error, 0.0), np.maximum(hist, 0.0)
    history = {"n_vectors": counts, "error": hist}
    return ReducedSetResult(
        vectors, coef, expansion.kernel, error, norm2, method, indices, history, info
    )
