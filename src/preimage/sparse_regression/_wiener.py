"""The RKHS Wiener solution of Vijayakumar & Wu (1999), batch and exact
incremental.

Training inputs x_1..x_M with targets y, Gram matrix ``K_ij = K(x_i, x_j)``
of the reproducing kernel of the search space H, ``ψ_i = K(·, x_i)``.

* :func:`wiener_coefficients` — the batch solution in ``H = R(R)`` (their
  Theorem 1 with eq. 17): ``f₀ = Σ_i a_i K(·, x_i)``, ``a = K⁺y``, the
  orthogonal projection of f onto ``span{ψ_i}`` (for inconsistent data: the
  minimum-norm least-squares fit).
* :func:`wiener_update` — one exact incremental step (their Theorem 2), so
  that adding samples one at a time reproduces the batch coefficients; the
  solution so far is a :class:`WienerState`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.linalg import pinvh, solve_triangular

from .._typing import ArrayLike
from .._validation import check_real
from ._checks import check_rtol, check_system, check_vector, refuse_overflow_rescale

__all__ = ["DEFAULT_RTOL", "WienerState", "wiener_coefficients", "wiener_update"]

#: Relative rank cutoff: eigenvalues of K (batch) or squared residual norms
#: ``‖φ_mc‖²`` (incremental) below ``rtol`` times the largest kernel value
#: count as zero.
DEFAULT_RTOL = 1e-9


def wiener_coefficients(K: ArrayLike, y: ArrayLike, *, rtol: float = DEFAULT_RTOL) -> np.ndarray:
    """Batch Wiener solution ``a = K⁺y`` (Vijayakumar & Wu, Theorem 1, eq. 17).

    With ``H = R(R)`` the Wiener-optimal ``f₀ = RA*U⁺y`` (eq. 13) becomes the
    orthogonal projection of f onto ``span{K(·, x_i)}``, i.e.
    ``f₀ = Σ_i a_i K(·, x_i)`` with ``U = AA* = K`` and ``a = K⁺y``.

    Parameters
    ----------
    K : array of shape (M, M)
        Gram matrix of the training inputs (symmetric positive semi-definite).
    y : array of shape (M,)
        Targets.
    rtol : float, default=1e-9
        Eigenvalues below ``rtol`` times the largest are treated as zero.

    Returns
    -------
    ndarray of shape (M,)
        The coefficients a (the minimum-norm ones when K is singular).

    Examples
    --------
    >>> import numpy as np
    >>> K = np.array([[2.0, 1.0], [1.0, 2.0]])
    >>> wiener_coefficients(K, np.array([3.0, 3.0]))
    array([1., 1.])
    """
    K, y = check_system(K, y)
    rtol = check_rtol(rtol)
    if K.shape[0] == 0:
        return np.zeros(0)
    # K⁺ has norm 1/(rtol λ_max) at most; with a tiny rtol and large targets
    # the product can still exceed the float range.
    with np.errstate(over="ignore", invalid="ignore"):
        a = pinvh(K, atol=0.0, rtol=rtol) @ y
    return refuse_overflow_rescale(a, "the coefficients K⁺y", "'K' and 'y' (or raise 'rtol')")


@dataclass
class WienerState:
    """What the incremental Wiener solution keeps (see :func:`wiener_update`).

    Attributes
    ----------
    n_samples : int
        Samples added so far (m).
    basis : ndarray of shape (r,)
        Indices of the samples whose ``ψ_i`` added a new direction; their
        orthonormalised residuals ``e_j`` span ``S_m = span{ψ_1..ψ_m}``.
    cholesky : ndarray of shape (r, r)
        Lower-triangular L with ``K_BB = LLᵀ`` on the basis samples, so that
        ``e = L⁻¹ψ_B`` and a point's coordinates are ``c(x) = L⁻¹k_B(x)``.
    r_factor : ndarray of shape (r, r)
        Upper-triangular factor of the QR decomposition of the samples'
        coordinates V (m × r): ``VᵀV = RᵀR``.
    qty : ndarray of shape (r,)
        The first r entries of ``Qᵀy``; ``f = Σ_j θ_j e_j`` with ``Rθ = Qᵀy``.
    """

    n_samples: int = 0
    basis: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=int))
    cholesky: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))
    r_factor: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))
    qty: np.ndarray = field(default_factory=lambda: np.zeros(0))

    def coef(self) -> np.ndarray:
        """Coefficients a over all m samples, ``f = Σ_i a_i K(·, x_i)``: zero off
        the basis, ``a_B = L⁻ᵀθ`` on it."""
        a = np.zeros(self.n_samples)
        if self.basis.size:
            with np.errstate(over="ignore", invalid="ignore"):
                theta = solve_triangular(self.r_factor, self.qty, lower=False, check_finite=False)
                a[self.basis] = solve_triangular(
                    self.cholesky, theta, lower=True, trans="T", check_finite=False
                )
        # Basis samples nearly dependent at the 'rtol' cutoff give triangular
        # factors with tiny diagonals, which large targets can push past the
        # float range.
        return refuse_overflow_rescale(
            a, "the coefficients", "targets 'y' (raise 'rtol' or rescale 'y')"
        )


def _givens_append(R, z, row, target):
    """Rotate one new row (and its target) into an upper-triangular R and Qᵀy.

    Zero diagonal entries (a freshly added column) are filled by the row.
    """
    R, z, row = R.copy(), z.copy(), row.astype(float).copy()
    for j in range(row.size):
        a, b = R[j, j], row[j]
        if b == 0.0:
            continue
        h = np.hypot(a, b)
        c, s = a / h, b / h
        Rj = R[j, j:].copy()
        R[j, j:] = c * Rj + s * row[j:]
        row[j:] = -s * Rj + c * row[j:]
        z[j], target = c * z[j] + s * target, -s * z[j] + c * target
    return R, z


def wiener_update(
    state: WienerState, k: ArrayLike, kappa: float, y_new: float, *, rtol: float = DEFAULT_RTOL
) -> WienerState:
    """Add one sample to a Wiener solution exactly (Vijayakumar & Wu, Theorem 2).

    With ``c = L⁻¹k_B`` the coordinates of the new ``ψ = K(·, x_new)`` in
    the orthonormal basis of the old span, the part of ψ orthogonal to that
    span is ``φ_mc = ψ − Σ_j c_j e_j`` with ``φ_mc(x_new) = ‖φ_mc‖² = s =
    κ − ‖c‖²``. When ``s > rtol·κ`` this is eq. 14,

        f_{m+1} = f_m + (y_new − f_m(x_new)) / φ_mc(x_new) · φ_mc:

    the new direction ``e_{r+1} = φ_mc/√s`` gets ``θ_{r+1} = r/√s``,
    ``r = y_new − f_m(x_new)``, and the old θ are untouched because φ_mc
    vanishes at every old sample. When ψ adds no new direction (a repeated
    input, or more samples than the dimension of H) the theorem's
    denominator vanishes; the batch answer ``K⁺y`` is then the least-squares
    fit in the old span, and the sample's row is rotated into the QR factor
    (recursive least squares), which changes f only if ``y_new`` disagrees
    with ``f_m(x_new)``.

    Working in an orthonormal basis (a Cholesky factor) and a QR factor keeps
    the rounding error at ``ε_mach·cond(K)^½`` where updating ``K⁺`` itself
    would square it.

    Parameters
    ----------
    state : WienerState
        The solution for the first m samples (``WienerState()`` when empty).
    k : array of shape (r,)
        ``K(x_i, x_new)`` for the basis samples ``state.basis``.
    kappa : float
        ``K(x_new, x_new)``.
    y_new : float
        The new target.
    rtol : float, default=1e-9
        ψ adds no new direction when ``s ≤ rtol · κ``.

    Returns
    -------
    WienerState
        The solution for m + 1 samples; ``.coef()`` gives the coefficients.

    Examples
    --------
    >>> import numpy as np
    >>> K = np.array([[2.0, 1.0], [1.0, 2.0]]); y = np.array([3.0, 3.0])
    >>> state = wiener_update(WienerState(), K[:0, 0], K[0, 0], y[0])
    >>> state = wiener_update(state, K[:1, 1], K[1, 1], y[1])
    >>> state.coef()
    array([1., 1.])
    """
    if not isinstance(state, WienerState):
        raise TypeError(f"'state' must be a WienerState, got {type(state).__name__}")
    L, R, z = state.cholesky, state.r_factor, state.qty
    r = L.shape[0]
    k = check_vector(k, "k", r, "one kernel value per basis sample")
    kappa = check_real(kappa, "kappa", low=0.0)
    y_new = check_real(y_new, "y_new")
    rtol = check_rtol(rtol)
    with np.errstate(over="ignore", invalid="ignore"):
        c = solve_triangular(L, k, lower=True) if r else np.zeros(0)
        s = float(kappa - c @ c)
    # k must be a column of a positive semi-definite Gram matrix: then
    # ‖c‖² ≤ κ, and c cannot overflow.
    refuse_overflow_rescale(
        np.append(c, s), "the new sample's coordinates L⁻¹k", "'k' and 'kappa'"
    )
    basis = state.basis
    if s > rtol * kappa:
        L = np.block([[L, np.zeros((r, 1))], [c[None, :], np.array([[np.sqrt(s)]])]])
        R = np.pad(R, ((0, 1), (0, 1)))
        z = np.append(z, 0.0)
        c = np.append(c, np.sqrt(s))
        basis = np.append(basis, state.n_samples)
    with np.errstate(over="ignore", invalid="ignore"):
        R, z = _givens_append(R, z, c, y_new)
    refuse_overflow_rescale(np.append(R.ravel(), z), "the updated QR factor", "'k' and 'y_new'")
    return WienerState(state.n_samples + 1, basis, L, R, z)
