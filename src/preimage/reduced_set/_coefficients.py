"""Optimal coefficients for a given reduced set, the error it commits, and the
checks and bookkeeping every reduced-set method shares."""

from __future__ import annotations

import numpy as np
from scipy.linalg import pinvh

from preimage._utils.typing import ArrayLike
from preimage._utils.validation import (
    check_array_2d,
    check_expansion,
    check_overflow,
    check_positive,
    check_positive_int,
    check_real_array,
    checked_gram,
)
from preimage.kernels._expansion import FeatureExpansion
from preimage.reduced_set._result import ReducedSetResult


def reducible(expansion, *, norm=False):
    """The expansion, checked (with `norm`, also a finite ``‖Ψ_k‖²``)."""
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
    hint = "rescale the coefficients or the data, or use an 'alpha'"
    return check_overflow(values, "the reduced-set coefficients or errors", names, hint)


def check_reduction(expansion, n_vectors, shared):
    """Validate the arguments every reduced-set method takes."""
    expansion = reducible(expansion, norm=True)
    n_vectors = check_positive_int(n_vectors, "n_vectors")
    if not isinstance(shared, (bool, np.bool_)):
        raise TypeError(f"'shared' must be True or False, got {shared!r}")
    return expansion, n_vectors


def support_gram(expansion):
    """The support points' Gram matrix, refused if 3 copies exceed the memory budget."""
    hint = (
        "reduce an expansion with fewer support points, or use "
        "method='construction', which streams the kernel in row blocks"
    )
    kernel, X = expansion.kernel, expansion.support
    return checked_gram(kernel, X, "support Gram matrix", copies=3, names="'expansion'", hint=hint)


def groups(expansion, shared):
    """``(rows, A, S)`` of the rows of coef reduced together (all of them, or one
    at a time): the rows, their coefficients and the support points they use."""
    m = expansion.n_expansions
    for rows in [np.arange(m)] if shared else [np.array([k]) for k in range(m)]:
        A = expansion.coef[rows]
        yield rows, A, np.flatnonzero(np.any(A != 0, axis=0))


def combine(expansion, parts, method, info):
    """One ReducedSetResult from the parts ``(rows, vectors, coef, error, history
    counts (increasing), history errors, support indices or None)`` of the groups."""
    m, norm2 = expansion.n_expansions, expansion.norm2()
    error = np.zeros(m)
    if all(part[6] is not None for part in parts):  # selection
        indices = np.unique(np.concatenate([part[6] for part in parts]))
        vectors = expansion.support[indices]
        columns = [np.searchsorted(indices, part[6]) for part in parts]
    else:
        indices, vectors = None, np.vstack([part[1] for part in parts])
        ends = np.cumsum([part[1].shape[0] for part in parts])
        columns = [np.arange(end - part[1].shape[0], end) for part, end in zip(parts, ends)]
    coef = np.zeros((m, vectors.shape[0]))
    for (rows, _, B, err, *_), cols in zip(parts, columns):
        coef[np.ix_(rows, cols)] = B
        error[rows] = err
    # The history on a common axis of counts (a group that stopped early keeps its last error).
    counts = np.unique(np.concatenate([part[4] for part in parts]))
    hist = np.zeros((counts.size, m))
    for rows, _, _, _, c, e, _ in parts:
        pos = np.clip(np.searchsorted(c, counts, side="right") - 1, 0, len(c) - 1)
        hist[:, rows] = np.asarray(e)[pos]
    for values in (coef, error, hist):
        finite(values, "'expansion'")
    # ρ ≥ 0 (a kernel that is not positive definite can make ‖Ψ‖² < 0).
    error, hist = np.maximum(error, 0.0), np.maximum(hist, 0.0)
    history = {"n_vectors": counts, "error": hist}
    return ReducedSetResult(
        vectors, coef, expansion.kernel, error, norm2, method, indices, history, info
    )


def solve(K_z, C, alpha):
    """``(K^z + a I)⁺ C`` for a symmetric positive semi-definite ``K^z``."""
    if alpha:
        K_z = K_z + alpha * np.eye(K_z.shape[0])
    with np.errstate(over="ignore", invalid="ignore"):
        return pinvh(K_z, check_finite=False) @ C


def rho(norm2, B, K_z, C):
    """``ρ_k = ‖Ψ_k‖² + β_kᵀK^zβ_k − 2 β_kᵀC_k``, clamped at 0 against rounding;
    C (p, m) holds ``⟨φ(z_j), Ψ_k⟩``. Non-finite where it overflowed."""
    with np.errstate(over="ignore", invalid="ignore"):
        quad = np.einsum("kj,jl,kl->k", B, K_z, B)
        return np.maximum(norm2 + quad - 2 * np.einsum("kj,jk->k", B, C), 0.0)


def _blocks(expansion, vectors):
    """``C_jk = ⟨φ(z_j), Ψ_k⟩ = Σ_i k(z_j, x_i) α_ki``, shape (p, m), and ``K^z``."""
    K = expansion.kernel.block(
        vectors, expansion.support, check_input=False, names="'vectors' and 'expansion'"
    )
    with np.errstate(over="ignore", invalid="ignore"):  # refused just below
        C = finite(K @ expansion.coef.T, "'expansion' and 'vectors'")
    return C, expansion.kernel.block(vectors, check_input=False, names="'vectors'")


def optimal_coefficients(
    expansion: FeatureExpansion, vectors: ArrayLike, *, alpha: float = 0.0
) -> np.ndarray:
    r"""Return the optimal coefficients of each expansion over given vectors.

    For fixed vectors :math:`z_1, \dots, z_p`, the coefficients minimising the
    error :math:`\rho_k = \|\Psi_k - \sum_j \beta_{kj} \phi(z_j)\|^2` are

    .. math:: \beta_k = (K^z + a I)^{+} K^{zx} \alpha_k,

    with :math:`K^z_{jl} = k(z_j, z_l)` and :math:`K^{zx}_{ji} = k(z_j, x_i)`;
    for a singular :math:`K^z` the pseudo-inverse gives the minimiser of least
    norm.

    Parameters
    ----------
    expansion : FeatureExpansion
        The m expansions :math:`\Psi_k = \sum_i \alpha_{ki} \phi(x_i)`.
    vectors : array-like of shape (p, d)
        The reduced-set vectors :math:`z_j`.
    alpha : float, default=0
        The ridge :math:`a \ge 0` added to the diagonal of :math:`K^z`.

    Returns
    -------
    ndarray of shape (m, p)
        The coefficients :math:`\beta_{kj}`.

    References
    ----------
    Schölkopf et al. (1999), Sec. V-B, Prop. 4.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage import FeatureExpansion
    >>> from preimage.kernels import LinearKernel
    >>> from preimage.reduced_set import optimal_coefficients
    >>> X = np.array([[1.0, 0.0], [2.0, 0.0]])      # the second point is twice the first
    >>> psi = FeatureExpansion([1.0, 1.0], X, LinearKernel())
    >>> optimal_coefficients(psi, X[:1])            # psi is 3 times the first point
    array([[3.]])
    """
    expansion = reducible(expansion)
    vectors = check_array_2d(vectors, "vectors", n_features=expansion.n_features)
    alpha = check_positive(alpha, "alpha", strict=False)
    C, K_z = _blocks(expansion, vectors)
    return finite(solve(K_z, C, alpha).T, "'expansion' and 'vectors'")


def approximation_error(
    expansion: FeatureExpansion, vectors: ArrayLike, coef: ArrayLike
) -> np.ndarray:
    r"""Return the feature-space error of approximations over given vectors.

    .. math::
        \rho_k = \Big\|\Psi_k - \sum_{j=1}^p \beta_{kj} \phi(z_j)\Big\|^2
               = \alpha_k^\top K^x \alpha_k + \beta_k^\top K^z \beta_k
                 - 2 \beta_k^\top K^{zx} \alpha_k,

    computed through the kernel alone (:math:`K^x_{il} = k(x_i, x_l)`, ...).

    Parameters
    ----------
    expansion : FeatureExpansion
        The m expansions :math:`\Psi_k = \sum_i \alpha_{ki} \phi(x_i)`.
    vectors : array-like of shape (p, d)
        The reduced-set vectors :math:`z_j`.
    coef : array-like of shape (m, p)
        The coefficients :math:`\beta_{kj}` of the approximations.

    Returns
    -------
    ndarray of shape (m,)
        The errors :math:`\rho_k`.

    References
    ----------
    Schölkopf et al. (1999), Sec. V-A.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage import FeatureExpansion
    >>> from preimage.kernels import LinearKernel
    >>> from preimage.reduced_set import approximation_error
    >>> X = np.array([[1.0, 0.0], [2.0, 0.0]])
    >>> psi = FeatureExpansion([1.0, 1.0], X, LinearKernel())   # the point (3, 0)
    >>> approximation_error(psi, X[:1], [[2.0]])                 # |(3, 0) - (2, 0)|^2
    array([1.])
    """
    expansion = reducible(expansion, norm=True)
    vectors = check_array_2d(vectors, "vectors", n_features=expansion.n_features)
    coef = np.atleast_2d(check_real_array(coef, "coef"))
    if coef.shape != (expansion.n_expansions, vectors.shape[0]):
        raise ValueError(
            f"'coef' must have shape {(expansion.n_expansions, vectors.shape[0])} "
            f"(n_expansions, n_vectors), got {coef.shape}"
        )
    C, K_z = _blocks(expansion, vectors)
    return finite(rho(expansion.norm2(), coef, K_z, C), "'expansion', 'vectors' and 'coef'")
