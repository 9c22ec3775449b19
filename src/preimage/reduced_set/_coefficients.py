"""Optimal coefficients for a given reduced set, and the error it commits
(Schölkopf et al. 1999, Sec. V-B, Prop. 3).

For fixed vectors z_j, the coefficients minimising

    ρ = ‖Ψ − Σ_j β_j φ(z_j)‖² = αᵀK^x α + βᵀK^z β − 2 βᵀK^{zx} α

are ``β = (K^z)⁻¹ K^{zx} α``; when ``K^z`` is singular (duplicated or
linearly dependent vectors) the pseudo-inverse gives the minimiser of least
norm, and a ridge ``(K^z + r I)⁻¹`` trades a little error for stability.
"""

import numpy as np
from scipy.linalg import pinvh

from .._expansion import FeatureExpansion
from .._validation import check_array_2d, check_positive

__all__ = ["optimal_coefficients", "approximation_error"]


def _check_expansion(expansion, norm=False):
    """The expansion, with a kernel and support points; with `norm`, also a
    finite ``‖Ψ_k‖²`` (every method's scale of the error)."""
    if not isinstance(expansion, FeatureExpansion):
        raise TypeError(f"'expansion' must be a FeatureExpansion, got "
                        f"{type(expansion).__name__}")
    if expansion.support is None:
        raise ValueError("'expansion' has no support points or kernel (it came from a "
                         "precomputed kernel), so no reduced set can be built for it")
    if norm:
        try:
            with np.errstate(over="ignore", invalid="ignore"):   # refused just below
                norm2 = expansion.norm2()
        except ValueError as exc:        # the kernel overflowed on the support
            raise ValueError(f"'expansion' cannot be reduced: {exc}") from None
        if not np.isfinite(norm2).all():
            raise ValueError("'expansion' has a squared norm ‖Ψ‖² = αᵀKα beyond the "
                             "range of float64; rescale its coefficients")
    return expansion


def finite_block(kernel, A, B, names):
    """``k(A, B)``, refused with an error naming `names` if it overflowed (a
    polynomial kernel of large points)."""
    K = kernel.block(A, B, check_input=False, overflow="ignore")
    if not np.isfinite(K).all():
        raise ValueError(f"the kernel values of {kernel!r} for {names} are beyond the range "
                         f"of {K.dtype}; rescale the data or choose milder kernel "
                         "parameters")
    return K


def check_finite(values, names):
    """Refuse coefficients or errors that overflowed float64 (the computations
    run under ``np.errstate(over="ignore", invalid="ignore")``)."""
    if not np.isfinite(values).all():
        raise ValueError(f"the reduced set of {names} overflows float64 (coefficients or "
                         "kernel values too large for it); rescale the coefficients or "
                         "the data, or use a 'ridge'")
    return values


def _solve(K_z, C, ridge):
    """``(K^z + r I)⁺ C`` for a symmetric positive semi-definite ``K^z``."""
    if ridge:
        K_z = K_z + ridge * np.eye(K_z.shape[0])
    with np.errstate(over="ignore", invalid="ignore"):
        return pinvh(K_z, check_finite=False) @ C


def _error(norm2, B, K_z, C):
    """``ρ_k = ‖Ψ_k‖² + β_kᵀK^zβ_k − 2 β_kᵀC_k``, clamped at 0 against rounding;
    C (p, m) holds ``⟨φ(z_j), Ψ_k⟩``. Non-finite where it overflowed."""
    with np.errstate(over="ignore", invalid="ignore"):
        quad = np.einsum("kj,jl,kl->k", B, K_z, B)
        return np.maximum(norm2 + quad - 2 * np.einsum("kj,jk->k", B, C), 0.0)


def optimal_coefficients(expansion, vectors, *, ridge=0.0):
    """The coefficients β of the best approximation of each expansion over
    the given vectors (Prop. 3 of Schölkopf et al. 1999).

    .. math:: β_k = (K^z + rI)^{+} K^{zx} α_k

    Parameters
    ----------
    expansion : FeatureExpansion
        The m expansions ``Ψ_k = Σ_i α_ki φ(x_i)``.
    vectors : array of shape (p, d)
        The reduced-set vectors z_j.
    ridge : float, default=0
        r ≥ 0 added to the diagonal of ``K^z``; with r = 0 a singular
        ``K^z`` is handled by the pseudo-inverse.

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
    expansion = _check_expansion(expansion)
    vectors = check_array_2d(vectors, "vectors", n_features=expansion.n_features)
    ridge = check_positive(ridge, "ridge", strict=False)
    kernel = expansion.kernel
    with np.errstate(over="ignore", invalid="ignore"):
        C = finite_block(kernel, vectors, expansion.support, "'vectors' and 'expansion'") \
            @ expansion.coef.T
    C = check_finite(C, "'expansion' over 'vectors'")
    B = _solve(finite_block(kernel, vectors, vectors, "'vectors'"), C, ridge).T
    return check_finite(B, "'expansion' over 'vectors'")


def approximation_error(expansion, vectors, coef):
    """``ρ_k = ‖Ψ_k − Σ_j β_kj φ(z_j)‖²`` for each expansion, shape (m,).

    .. math:: ρ_k = α_kᵀK^xα_k + β_kᵀK^zβ_k − 2 β_kᵀK^{zx}α_k
    """
    expansion = _check_expansion(expansion, norm=True)
    vectors = check_array_2d(vectors, "vectors", n_features=expansion.n_features)
    try:
        coef = np.atleast_2d(np.asarray(coef, dtype=float))
    except (TypeError, ValueError):
        raise TypeError(f"'coef' must be an array of real numbers, got "
                        f"{type(coef).__name__}") from None
    if coef.shape != (expansion.n_expansions, vectors.shape[0]):
        raise ValueError(f"'coef' must have shape {(expansion.n_expansions, vectors.shape[0])} "
                         f"(n_expansions, n_vectors), got {coef.shape}")
    if not np.isfinite(coef).all():
        raise ValueError("'coef' contains NaN or inf; all values must be finite")
    kernel = expansion.kernel
    with np.errstate(over="ignore", invalid="ignore"):
        C = finite_block(kernel, vectors, expansion.support, "'vectors' and 'expansion'") \
            @ expansion.coef.T
    rho = _error(expansion.norm2(), coef, finite_block(kernel, vectors, vectors, "'vectors'"),
                 C)
    return check_finite(rho, "'expansion' with 'vectors' and 'coef'")
