"""The RKHS Wiener solution of Vijayakumar and Wu (1999), batch and exact incremental."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.linalg import pinvh, solve_triangular

from preimage._utils.typing import ArrayLike
from preimage._utils.validation import check_gram, check_overflow, check_real, check_real_array

#: Relative rank cutoff (of the eigenvalues of K, or of :math:`\|\phi_{mc}\|^2 / \kappa`).
DEFAULT_RTOL = 1e-9


def check_vector(values: ArrayLike, name: str, n: int, what: str) -> np.ndarray:
    """`values` as a finite float64 array of shape (n,) of `what`."""
    arr = check_real_array(values, name)
    if arr.shape != (n,):
        raise ValueError(f"{name!r} must have shape ({n},) ({what}), got shape {arr.shape}")
    return arr


def check_system(K: ArrayLike, y: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """K as a finite square (possibly empty) Gram matrix and y as its targets."""
    K = np.zeros((0, 0)) if np.shape(K) == (0, 0) else check_gram(K, "K", dtype=np.float64)[0]
    return K, check_vector(y, "y", K.shape[0], "one target per row of 'K'")


def check_overflow_rescale(values, what, names):
    """Refuse a result that overflowed for finite input: rescale `names`."""
    return check_overflow(values, what, names, "rescale them")


def wiener_coefficients(K: ArrayLike, y: ArrayLike, *, rtol: float = DEFAULT_RTOL) -> np.ndarray:
    r"""Return the batch Wiener solution :math:`a = K^+ y` (Theorem 1).

    The Wiener-optimal :math:`f_0` (eq. 13), the projection of :math:`f` onto
    :math:`\operatorname{span}\{K(\cdot, x_i)\}`, with :math:`K^+` the pseudo-inverse:

    .. math:: f_0 = \sum_{i=1}^M a_i K(\cdot, x_i), \qquad a = K^+ y.

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
        The coefficients :math:`a` (minimum-norm least squares for a singular :math:`K`).

    References
    ----------
    Vijayakumar and Wu (1999), Sec. 4.2, Theorem 1, eqs. 11-13; Sec. 5, eq. 17.

    Examples
    --------
    >>> from preimage.sparse_regression import wiener_coefficients
    >>> import numpy as np
    >>> K = np.array([[2.0, 1.0], [1.0, 2.0]])
    >>> wiener_coefficients(K, np.array([3.0, 3.0]))  # 2 + 1 = 3 at each sample
    array([1., 1.])
    """
    K, y = check_system(K, y)
    rtol = check_real(rtol, "rtol", low=0.0, high=1.0, high_open=True)
    if K.shape[0] == 0:
        return np.zeros(0)
    # K⁺ has norm 1/(rtol λ_max) at most; with a tiny rtol and large targets
    # the product can still exceed the float range.
    with np.errstate(over="ignore", invalid="ignore"):
        a = pinvh(K, atol=0.0, rtol=rtol) @ y
    return check_overflow_rescale(a, "the coefficients K⁺y", "'K' and 'y' (or raise 'rtol')")


@dataclass
class WienerState:
    r"""What the incremental Wiener solution keeps (see :func:`wiener_update`).

    The solution for the first :math:`m` samples, :math:`f_m = \sum_j \theta_j e_j`,
    in an orthonormal basis :math:`e_j` of
    :math:`S_m = \operatorname{span}\{\psi_1, \dots, \psi_m\}`; ``WienerState()`` is empty.

    Parameters
    ----------
    n_samples : int, default=0
        Samples added so far (:math:`m`).
    basis : ndarray of shape (r,), default=empty
        Indices of the samples whose :math:`\psi_i` added a new direction.
    cholesky : ndarray of shape (r, r), default=empty
        :math:`L` with :math:`K_{BB} = L L^T`; coordinates :math:`c(x) = L^{-1} k_B(x)`.
    r_factor : ndarray of shape (r, r), default=empty
        :math:`R` of the QR decomposition of the samples' coordinates :math:`V`.
    qty : ndarray of shape (r,), default=empty
        The first :math:`r` entries of :math:`Q^T y`; :math:`R \theta = Q^T y`.

    Examples
    --------
    >>> from preimage.sparse_regression import WienerState, wiener_update
    >>> state = wiener_update(WienerState(), [], 2.0, 4.0)  # K(x, x) = 2, y = 4
    >>> state.n_samples, state.coef()                       # 2 a = 4
    (1, array([2.]))
    """

    n_samples: int = 0
    basis: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=int))
    cholesky: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))
    r_factor: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))
    qty: np.ndarray = field(default_factory=lambda: np.zeros(0))

    def coef(self) -> np.ndarray:
        r"""Return the coefficients :math:`a` of :math:`f_m = \sum_i a_i K(\cdot, x_i)`.

        Returns
        -------
        ndarray of shape (m,)
            The coefficients in the order the samples were added, zero off the basis.
        """
        a = np.zeros(self.n_samples)
        if self.basis.size:
            with np.errstate(over="ignore", invalid="ignore"):
                theta = solve_triangular(self.r_factor, self.qty, lower=False, check_finite=False)
                a[self.basis] = solve_triangular(
                    self.cholesky, theta, lower=True, trans="T", check_finite=False
                )
        # Nearly dependent basis samples give tiny diagonals: large targets overflow.
        names = "targets 'y' (raise 'rtol' or rescale 'y')"
        return check_overflow_rescale(a, "the coefficients", names)


def _givens_append(R, z, row, target):
    """Rotate one new row (and its target) into an upper-triangular R and Qᵀy."""
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
    r"""Add one sample to a Wiener solution exactly (Theorem 2).

    With :math:`c = L^{-1} k_B` the coordinates of :math:`\psi = K(\cdot, x_{new})`
    in the old basis, :math:`\phi_{mc} = \psi - \sum_j c_j e_j` has
    :math:`\phi_{mc}(x_{new}) = s = \kappa - \|c\|^2`. If :math:`s > \mathrm{rtol} \cdot \kappa`,

    .. math:: f_{m+1} = f_m + \frac{y_{new} - f_m(x_{new})}{\phi_{mc}(x_{new})}\, \phi_{mc};

    otherwise the sample's row is rotated into the QR factor (recursive least squares).

    Parameters
    ----------
    state : WienerState
        The solution for the first :math:`m` samples.
    k : array-like of shape (r,)
        :math:`K(x_i, x_{new})` for the basis samples ``state.basis``.
    kappa : float
        :math:`\kappa = K(x_{new}, x_{new})`.
    y_new : float
        The new target.
    rtol : float, default=1e-9
        Relative cutoff: no new direction when :math:`s \le \mathrm{rtol} \cdot \kappa`.

    Returns
    -------
    WienerState
        The solution for :math:`m + 1` samples.

    References
    ----------
    Vijayakumar and Wu (1999), Sec. 4.2, Theorem 2, eq. 14.

    Examples
    --------
    >>> from preimage.sparse_regression import wiener_update
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
    rtol = check_real(rtol, "rtol", low=0.0, high=1.0, high_open=True)
    with np.errstate(over="ignore", invalid="ignore"):
        c = solve_triangular(L, k, lower=True) if r else np.zeros(0)
        s = float(kappa - c @ c)
    # For a column k of a positive semi-definite Gram matrix ‖c‖² ≤ κ: no overflow.
    check_overflow_rescale(np.append(c, s), "the new sample's coordinates L⁻¹k", "'k' and 'kappa'")
    basis = state.basis
    if s > rtol * kappa:  # a new direction: L and R grow by a row and a column
        c = np.append(c, np.sqrt(s))  # the new last row of L
        L, R = np.pad(L, ((0, 1), (0, 1))), np.pad(R, ((0, 1), (0, 1)))
        L[-1], z, basis = c, np.append(z, 0.0), np.append(basis, state.n_samples)
    with np.errstate(over="ignore", invalid="ignore"):
        R, z = _givens_append(R, z, c, y_new)
    check_overflow_rescale(np.append(R.ravel(), z), "the updated QR factor", "'k' and 'y_new'")
    return WienerState(state.n_samples + 1, basis, L, R, z)
