"""Sparse function approximation in an RKHS (Vijayakumar & Wu 1999), on arrays.

Notation: training inputs x_1..x_M with targets y, Gram matrix
``K_ij = K(x_i, x_j)`` of the reproducing kernel of the search space H,
``ψ_i = K(·, x_i)``.

* :func:`wiener_coefficients` — the batch Wiener solution in ``H = R(R)``
  (their Theorem 1 with eq. 17): ``f₀ = Σ_i a_i K(·, x_i)``, ``a = K⁺y``, the
  orthogonal projection of f onto ``span{ψ_i}`` (for inconsistent data: the
  minimum-norm least-squares fit).
* :func:`wiener_update` — one exact incremental step (their Theorem 2), so
  that adding samples one at a time reproduces the batch coefficients.
* :func:`sequential_svr` — their Fig. 2: Gauss–Seidel ascent on the
  ε-insensitive dual (eq. 19) with the augmented kernel ``R = K + λ²``, which
  gives a sparse ``f = Σ_i (α*_i − α_i)(K(x_i, ·) + λ²)``.
"""

from dataclasses import dataclass, field
from numbers import Integral, Real
import warnings

import numpy as np
from scipy.linalg import pinvh, solve_triangular

from ._memory import check_dense
from ._validation import check_array_2d, refuse_overflow
from .exceptions import ConvergenceWarning

__all__ = [
    "DEFAULT_RATE_FRACTION",
    "SequentialSVRResult",
    "WienerState",
    "dual_objective",
    "learning_rates",
    "sequential_svr",
    "wiener_coefficients",
    "wiener_update",
]

#: Relative rank cutoff: eigenvalues of K (batch) or squared residual norms
#: ``‖φ_mc‖²`` (incremental) below ``rtol`` times the largest kernel value
#: count as zero.
DEFAULT_RTOL = 1e-9
#: Default per-sample learning rate ``γ_i = DEFAULT_RATE_FRACTION / R_ii``,
#: inside the paper's bound ``γ_i < 1/R_ii``.
DEFAULT_RATE_FRACTION = 0.95


def _check_gram(K, y):
    """K as a finite square float64 Gram matrix (possibly empty) and y as its
    finite targets, or an error naming the argument."""
    if np.shape(K) == (0, 0):
        K = np.zeros((0, 0))
    else:
        K = check_array_2d(K, "K", dtype=np.float64)
    if K.shape[0] != K.shape[1]:
        raise ValueError(f"'K' must be a square Gram matrix, got shape {K.shape}")
    y = _real_vector(y, "y", K.shape[0], "one target per row of 'K'")
    return K, y


def _real_vector(values, name, n, what):
    """`values` as a finite float64 array of shape (n,), or an error naming `name`."""
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name!r} must be an array of real numbers, got "
                        f"{type(values).__name__}") from None
    if arr.shape != (n,):
        raise ValueError(f"{name!r} must have shape ({n},) ({what}), got shape {arr.shape}")
    if not np.isfinite(arr).all():
        raise ValueError(f"{name!r} contains NaN or inf; all values must be finite")
    return arr


def _real_scalar(value, name, *, minimum=None, below=None):
    """A finite real number (not a bool) in [minimum, below), or an error naming `name`."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, Real) \
            or not np.isfinite(value):
        raise ValueError(f"{name!r} must be a finite real number, got {value!r}")
    if (minimum is not None and value < minimum) or (below is not None and value >= below):
        raise ValueError(f"{name!r} must be in [{minimum}, {below}), got {value!r}")
    return float(value)


def _check_rtol(rtol):
    return _real_scalar(rtol, "rtol", minimum=0.0, below=1.0)


def _refuse_overflow(values, what, names):
    """Refuse a result that overflowed float64 for finite input."""
    return refuse_overflow(values, what, names, "rescale them")


def wiener_coefficients(K, y, *, rtol=DEFAULT_RTOL):
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
    K, y = _check_gram(K, y)
    rtol = _check_rtol(rtol)
    if K.shape[0] == 0:
        return np.zeros(0)
    # K⁺ has norm 1/(rtol λ_max) at most; with a tiny rtol and large targets
    # the product can still exceed the float range.
    with np.errstate(over="ignore", invalid="ignore"):
        a = pinvh(K, atol=0.0, rtol=rtol) @ y
    return _refuse_overflow(a, "the coefficients K⁺y", "'K' and 'y' (or raise 'rtol')")


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

    def coef(self):
        """Coefficients a over all m samples, ``f = Σ_i a_i K(·, x_i)``: zero off
        the basis, ``a_B = L⁻ᵀθ`` on it."""
        a = np.zeros(self.n_samples)
        if self.basis.size:
            with np.errstate(over="ignore", invalid="ignore"):
                theta = solve_triangular(self.r_factor, self.qty, lower=False,
                                         check_finite=False)
                a[self.basis] = solve_triangular(self.cholesky, theta, lower=True, trans="T",
                                                 check_finite=False)
        # Basis samples nearly dependent at the 'rtol' cutoff give triangular
        # factors with tiny diagonals, which large targets can push past the
        # float range.
        return _refuse_overflow(a, "the coefficients", "targets 'y' (raise 'rtol' or "
                                "rescale 'y')")


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


def wiener_update(state, k, kappa, y_new, *, rtol=DEFAULT_RTOL):
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
    k = _real_vector(k, "k", r, "one kernel value per basis sample")
    kappa = _real_scalar(kappa, "kappa", minimum=0.0)
    y_new = _real_scalar(y_new, "y_new")
    rtol = _check_rtol(rtol)
    with np.errstate(over="ignore", invalid="ignore"):
        c = solve_triangular(L, k, lower=True) if r else np.zeros(0)
        s = float(kappa - c @ c)
    # k must be a column of a positive semi-definite Gram matrix: then
    # ‖c‖² ≤ κ, and c cannot overflow.
    _refuse_overflow(np.append(c, s), "the new sample's coordinates L⁻¹k", "'k' and 'kappa'")
    basis = state.basis
    if s > rtol * kappa:
        L = np.block([[L, np.zeros((r, 1))], [c[None, :], np.array([[np.sqrt(s)]])]])
        R = np.pad(R, ((0, 1), (0, 1)))
        z = np.append(z, 0.0)
        c = np.append(c, np.sqrt(s))
        basis = np.append(basis, state.n_samples)
    with np.errstate(over="ignore", invalid="ignore"):
        R, z = _givens_append(R, z, c, y_new)
    _refuse_overflow(np.append(R.ravel(), z), "the updated QR factor", "'k' and 'y_new'")
    return WienerState(state.n_samples + 1, basis, L, R, z)


# -- the sequential sparse algorithm (Fig. 2) --------------------------------

@dataclass
class SequentialSVRResult:
    """The outcome of :func:`sequential_svr`.

    Attributes
    ----------
    alpha, alpha_star : ndarray of shape (M,)
        The Lagrange multipliers α_i, α*_i of eq. 19.
    coef : ndarray of shape (M,)
        ``a_i = α*_i − α_i``; ``f(x) = Σ_i a_i (K(x_i, x) + λ²)`` (eq. 22).
    objective : ndarray of shape (n_iter,)
        Dual objective J_D (eq. 19 with R in place of K) after each sweep;
        it is 0 before the first.
    n_iter : int
        Sweeps over the training set.
    converged : bool
        Whether the largest step of the last sweep met the tolerance.
    max_step : float
        That largest step, ``max_i (|δα_i| + |δα*_i|)/γ_i``, in units of y.
    learning_rate : ndarray of shape (M,)
        The per-sample rates γ_i used.
    """

    alpha: np.ndarray
    alpha_star: np.ndarray
    coef: np.ndarray
    objective: np.ndarray
    n_iter: int
    converged: bool
    max_step: float
    learning_rate: np.ndarray

    @property
    def support(self):
        """Indices of the basis vectors (non-zero a_i)."""
        return np.flatnonzero(self.coef)


def dual_objective(R, y, alpha, alpha_star, epsilon):
    """``J_D = ½ aᵀRa + ε Σ(α_i + α*_i) − yᵀa`` with ``a = α* − α`` (eq. 19)."""
    R, y = _check_gram(R, y)
    n = y.shape[0]
    alpha = _real_vector(alpha, "alpha", n, "one multiplier per sample")
    alpha_star = _real_vector(alpha_star, "alpha_star", n, "one multiplier per sample")
    epsilon = _real_scalar(epsilon, "epsilon", minimum=0.0)
    with np.errstate(over="ignore", invalid="ignore"):
        a = alpha_star - alpha
        value = 0.5 * a @ (R @ a) + epsilon * np.sum(alpha + alpha_star) - y @ a
    return float(_refuse_overflow(value, "the dual objective",
                                  "'R', 'y', 'alpha' and 'alpha_star'"))


def learning_rates(R_diag, learning_rate=None, *, bound="raise"):
    """Per-sample learning rates γ_i inside the bound ``γ_i < 1/R_ii``.

    Vijayakumar & Wu (Sec. 5.1) show the dual objective decreases
    monotonically when ``γ < 1/max_i R_ii``, and per sample when
    ``γ_i < 1/R_ii``.

    Parameters
    ----------
    R_diag : array of shape (M,)
        Diagonal of the augmented Gram matrix (must be positive).
    learning_rate : None, float or array of shape (M,)
        None: ``γ_i = 0.95/R_ii``. A float: the same γ for every sample.
    bound : {"raise", "clip"}, default="raise"
        What to do with a rate at or above ``1/R_ii``: raise a ValueError,
        or clip it to ``0.95/R_ii``.
    """
    if np.ndim(R_diag) != 1:
        raise ValueError(f"'R_diag' must be a 1-D array, got shape {np.shape(R_diag)}")
    R_diag = _real_vector(R_diag, "R_diag", len(R_diag), "the diagonal of R")
    if not (R_diag > 0).all():
        i = int(np.argmin(R_diag))
        raise ValueError(
            f"the augmented Gram matrix must have a positive diagonal (the learning "
            f"rate bound is 1/R_ii), got R_{i}{i} = {R_diag[i]!r}; use a positive "
            "'augmentation' or a kernel with k(x, x) > 0")
    if bound not in ("raise", "clip"):
        raise ValueError(f"'learning_rate_bound' must be 'raise' or 'clip', got {bound!r}")
    safe = DEFAULT_RATE_FRACTION / R_diag
    if learning_rate is None:
        return safe
    if isinstance(learning_rate, Real) and not isinstance(learning_rate, bool):
        rate = np.full(R_diag.shape, float(learning_rate))
    else:
        try:
            rate = np.asarray(learning_rate, dtype=float)
        except (TypeError, ValueError):
            raise TypeError(f"'learning_rate' must be None, a float or an array of floats, "
                            f"got {learning_rate!r}") from None
        if rate.shape != R_diag.shape:
            raise ValueError(f"'learning_rate' must be a float or have shape {R_diag.shape} "
                             f"(one rate per sample), got shape {rate.shape}")
    if not (np.isfinite(rate).all() and (rate > 0).all()):
        raise ValueError(f"'learning_rate' must be positive and finite, got {learning_rate!r}")
    with np.errstate(over="ignore"):          # an overflow is too large, as it should
        too_large = rate * R_diag >= 1.0
    if too_large.any():
        if bound == "clip":
            return np.where(too_large, safe, rate)
        i = int(np.flatnonzero(too_large)[0])
        raise ValueError(
            f"'learning_rate' must be below 1/R_ii for every sample (Vijayakumar & Wu, "
            f"Sec. 5.1), got γ_{i} = {rate[i]!r} >= 1/R_{i}{i} = {1 / R_diag[i]!r} "
            f"({int(too_large.sum())} sample(s) too large); pass a smaller rate, None "
            "(0.95/R_ii), or learning_rate_bound='clip'")
    return rate


def sequential_svr(K, y, *, epsilon, augmentation=1.0, C=np.inf, learning_rate=None,
                   learning_rate_bound="raise", tol=1e-6, max_iter=10_000, warn=True):
    """Sparse representation by the sequential algorithm of Vijayakumar & Wu (Fig. 2).

    Minimises the ε-insensitive dual (eq. 19) on the augmented kernel
    ``R = K + λ²`` (eq. 22), where λ² replaces the bias and so the equality
    constraint ``Σ(α*_i − α_i) = 0`` (eq. 21) of SV regression:

        J_D = ½ Σ_ij (α*_i − α_i)(α*_j − α_j) R_ij + ε Σ_i (α_i + α*_i)
              − Σ_i y_i (α*_i − α_i),     0 ≤ α_i, α*_i ≤ C.

    Each sweep visits i = 1..M in order and, with the current error
    ``E_i = y_i − Σ_j (α*_j − α_j) R_ij``, moves

        δα*_i = min(max(γ_i (E_i − ε), −α*_i), C − α*_i),
        δα_i  = min(max(γ_i (−E_i − ε), −α_i), C − α_i).

    The sweep is sequential (each step sees the errors the previous ones left);
    the errors are recomputed exactly, and the objective evaluated, once per
    sweep with matrix products.

    Parameters
    ----------
    K : array of shape (M, M)
        Gram matrix of the training inputs.
    y : array of shape (M,)
        Targets.
    epsilon : float
        Half-width of the insensitive tube (ε ≥ 0).
    augmentation : float, default=1.0
        λ: ``R = K + λ²``; the paper asks for it "in the scale of the input
        vectors".
    C : float, default=inf
        Box constraint; infinite for noiseless data as in the paper.
    learning_rate, learning_rate_bound
        See :func:`learning_rates`.
    tol : float, default=1e-6
        Stop when every step of a sweep has ``(|δα_i| + |δα*_i|)/γ_i ≤ tol``:
        the projected gradient of J_D, in units of y, is below `tol`.
    max_iter : int, default=10000
        Maximum number of sweeps.
    warn : bool, default=True
        Issue a ConvergenceWarning when `max_iter` sweeps do not meet `tol`.
        A sweep that overflows float64 (targets far beyond the scale of R) is
        undone and the iterate before it returned, always with a
        ConvergenceWarning.

    Returns
    -------
    SequentialSVRResult

    References
    ----------
    S. Vijayakumar, S. Wu. A gradient based technique for generating sparse
    representation in function approximation. ICONIP 1999.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.linspace(0, 1, 5)
    >>> K = np.exp(-(x[:, None] - x[None]) ** 2)
    >>> res = sequential_svr(K, np.sin(x), epsilon=0.05)
    >>> bool(res.converged), int(res.support.size) <= 5
    (True, True)
    """
    K, y = _check_gram(K, y)
    for name, value, strict in (("epsilon", epsilon, False), ("C", C, True),
                                ("tol", tol, False)):
        if isinstance(value, bool) or not isinstance(value, Real) or np.isnan(value) \
                or (value <= 0 if strict else value < 0) or (name != "C" and np.isinf(value)):
            kind = "positive" if strict else "non-negative finite"
            raise ValueError(f"{name!r} must be a {kind} number, got {value!r}")
    if isinstance(augmentation, bool) or not isinstance(augmentation, Real) \
            or not np.isfinite(augmentation):
        raise ValueError(f"'augmentation' must be a finite real number, got {augmentation!r}")
    if isinstance(max_iter, bool) or not isinstance(max_iter, (int, np.integer)) or max_iter < 1:
        raise ValueError(f"'max_iter' must be an integer >= 1, got {max_iter!r}")
    M = y.shape[0]
    check_dense((M, M), np.float64, f"the {M} x {M} matrix R = K + λ²",
                hint="fit on fewer samples")
    with np.errstate(over="ignore"):
        R = K + np.float64(augmentation) ** 2
    _refuse_overflow(R, "R = K + λ²", "'K' and 'augmentation'")
    gamma = learning_rates(np.diag(R), learning_rate, bound=learning_rate_bound)
    eps, C = float(epsilon), float(C)
    alpha, alpha_star = np.zeros(M), np.zeros(M)
    rows = list(R)                    # row views: R is symmetric, R[i] = R[:, i]
    rates = gamma.tolist()
    objective = []
    max_step = np.inf
    overflow = False
    for sweep in range(max_iter):
        # Targets far beyond the scale of R (or rates far above the bound with
        # learning_rate_bound="clip" off) can overflow a step; the sweep is
        # then undone below.
        with np.errstate(over="ignore", invalid="ignore"):
            a = alpha_star - alpha
            E = y - R @ a             # exact errors at the start of each sweep
            al, als = alpha.tolist(), alpha_star.tolist()
            step_max = 0.0
            for i in range(M):
                e, g = float(E[i]), rates[i]
                d_star = min(max(g * (e - eps), -als[i]), C - als[i])
                d = min(max(g * (-e - eps), -al[i]), C - al[i])
                if d_star != 0.0 or d != 0.0:
                    als[i] += d_star
                    al[i] += d
                    E -= (d_star - d) * rows[i]
                    step = (abs(d_star) + abs(d)) / g
                    if step > step_max:
                        step_max = step
            new_alpha, new_alpha_star = np.array(al), np.array(als)
            # J_D = ½aᵀRa + εΣ(α + α*) − yᵀa = −½aᵀ(2y − Ra) + εΣ(α + α*).
            a = new_alpha_star - new_alpha
            value = float(-0.5 * a @ (2 * y - R @ a)
                          + eps * (new_alpha.sum() + new_alpha_star.sum()))
        if not (np.isfinite(value) and np.isfinite(step_max)
                and np.isfinite(new_alpha).all() and np.isfinite(new_alpha_star).all()):
            overflow = True
            break
        alpha, alpha_star, max_step = new_alpha, new_alpha_star, step_max
        objective.append(value)
        if max_step <= tol:
            break
    converged = max_step <= tol
    if overflow:
        warnings.warn(
            f"the sequential SV algorithm overflowed float64 in sweep {sweep + 1} (targets "
            "'y' far beyond the scale of R = K + λ²); returning the iterate of the "
            f"{len(objective)} sweep(s) before it; rescale 'y' or 'K'",
            ConvergenceWarning, stacklevel=2)
    elif not converged and warn:
        warnings.warn(
            f"the sequential SV algorithm did not converge in max_iter={max_iter} sweeps "
            f"(largest step of the last sweep {max_step:.3g} > tol={tol:g}); returning the "
            "last iterate, raise 'max_iter' or 'tol'", ConvergenceWarning, stacklevel=2)
    return SequentialSVRResult(alpha, alpha_star, alpha_star - alpha, np.array(objective),
                               len(objective), converged, float(max_step), gamma)
