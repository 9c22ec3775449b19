"""Optimal coefficients for a given reduced set, and the error it commits."""

from __future__ import annotations

import numpy as np
from scipy.linalg import pinvh

from preimage._utils.typing import ArrayLike
from preimage._utils.validation import check_array_2d, check_positive, check_real_array
from preimage.kernels._expansion import FeatureExpansion
from preimage.reduced_set._common import finite, reducible

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
    C = _inner_products(expansion, vectors)
    K_z = expansion.kernel.block(vectors, check_input=False, names="'vectors'")
    return finite(_solve(K_z, C, alpha).T, "'expansion' and 'vectors'")


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

    Raises
    ------
    ValueError
        If `coef` is not of shape (m, p).

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
    C = _inner_products(expansion, vectors)
    K_z = expansion.kernel.block(vectors, check_input=False, names="'vectors'")
    rho = _error(expansion.norm2(), coef, K_z, C)
    return finite(rho, "'expansion', 'vectors' and 'coef'")
