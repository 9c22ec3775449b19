"""Optimal coefficients for a given reduced set, and the error it commits
(Schölkopf et al. 1999, Sec. V-B, Prop. 3).

For fixed vectors z_j, the coefficients minimising

    ρ = ‖Ψ − Σ_j β_j φ(z_j)‖² = αᵀK^x α + βᵀK^z β − 2 βᵀK^{zx} α

are ``β = (K^z)⁻¹ K^{zx} α``; when ``K^z`` is singular (duplicated or
linearly dependent vectors) the pseudo-inverse gives the minimiser of least
norm, and a ridge ``(K^z + a I)⁻¹`` (``alpha=a``) trades a little error for
stability.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import pinvh

from .._expansion import FeatureExpansion
from .._typing import ArrayLike
from .._validation import check_array_2d, check_positive, check_real_array
from ._common import finite, reducible

__all__ = ["optimal_coefficients", "approximation_error"]


def _solve(K_z, C, alpha):
    """``(K^z + a I)⁺ C`` for a symmetric positive semi-definite ``K^z``."""
    if alpha:
        K_z = K_z + alpha * np.eye(K_z.shape[0])
    with np.errstate(over="ignore", invalid="ignore"):
        return pinvh(K_z, check_finite=False) @ C


def _error(norm2, B, K_z, C):
    """``ρ_k = ‖Ψ_k‖² + β_kᵀK^zβ_k − 2 β_kᵀC_k``, clamped at 0 against rounding;
    C (p, m) holds ``⟨φ(z_j), Ψ_k⟩``. Non-finite where it overflowed."""
    with np.errstate(over="ignore", invalid="ignore"):
        quad = np.einsum("kj,jl,kl->k", B, K_z, B)
        return np.maximum(norm2 + quad - 2 * np.einsum("kj,jk->k", B, C), 0.0)


def _inner_products(expansion, vectors):
    """``C_jk = ⟨φ(z_j), Ψ_k⟩ = Σ_i k(z_j, x_i) α_ki``, shape (p, m)."""
    K = expansion.kernel.block(
        vectors, expansion.support, check_input=False, names="'vectors' and 'expansion'"
    )
    with np.errstate(over="ignore", invalid="ignore"):  # refused just below
        return finite(K @ expansion.coef.T, "'expansion' and 'vectors'")


def optimal_coefficients(
    expansion: FeatureExpansion, vectors: ArrayLike, *, alpha: float = 0.0
) -> np.ndarray:
    """The coefficients β of the best approximation of each expansion over
    the given vectors (Prop. 3 of Schölkopf et al. 1999).

    .. math:: β_k = (K^z + aI)^{+} K^{zx} α_k

    Parameters
    ----------
    expansion : FeatureExpansion
        The m expansions ``Ψ_k = Σ_i α_ki φ(x_i)``.
    vectors : array of shape (p, d)
        The reduced-set vectors z_j.
    alpha : float, default=0
        The ridge a ≥ 0 added to the diagonal of ``K^z``; with a = 0 a
        singular ``K^z`` is handled by the pseudo-inverse.

    Returns
    -------
    ndarray of shape (m, p)

    Examples
    --------
    >>> import numpy as np
    >>> from preimage import FeatureExpansion
    >>> from preimage.kernels import LinearKernel
    >>> from preimage.reduced_set import optimal_coefficients
    >>> X = np.array([[1.0, 0.0], [2.0, 0.0]])      # φ(x_2) = 2 φ(x_1)
    >>> psi = FeatureExpansion([1.0, 1.0], X, LinearKernel())
    >>> optimal_coefficients(psi, X[:1])            # Ψ = 3 φ(x_1)
    array([[3.]])
    """
    expansion = reducible(expansion)
    vectors = check_array_2d(vectors, "vectors", n_features=expansion.n_features)
    alpha = check_positive(alpha, "alpha", strict=False)
    C = _inner_products(expansion, vectors)
    K_z = expansion.kernel.block(vectors, check_input=False, names="'vectors'")
    return finite(_solve(K_z, C, alpha).T, "'expansion' and 'vectors'")


def approximation_error(
    expansion: FeatureExpansion, vectors: ArrayLike, coef: ArrayLike
) -> np.ndarray:
    """``ρ_k = ‖Ψ_k − Σ_j β_kj φ(z_j)‖²`` for each expansion, shape (m,).

    .. math:: ρ_k = α_kᵀK^xα_k + β_kᵀK^zβ_k − 2 β_kᵀK^{zx}α_k
    """
    expansion = reducible(expansion, norm=True)
    vectors = check_array_2d(vectors, "vectors", n_features=expansion.n_features)
    coef = np.atleast_2d(check_real_array(coef, "coef"))
    if coef.shape != (expansion.n_expansions, vectors.shape[0]):
        raise ValueError(
            f"'coef' must have shape {(expansion.n_expansions, vectors.shape[0])} "
            f"(n_expansions, n_vectors), got {coef.shape}"
        )
    C = _inner_products(expansion, vectors)
    K_z = expansion.kernel.block(vectors, check_input=False, names="'vectors'")
    rho = _error(expansion.norm2(), coef, K_z, C)
    return finite(rho, "'expansion', 'vectors' and 'coef'")
