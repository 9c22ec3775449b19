"""The sequential sparse SV algorithm of Vijayakumar & Wu (1999, Fig. 2).

Gauss–Seidel ascent on the ε-insensitive dual (their eq. 19) with the
augmented kernel ``R = K + λ²``, which gives a sparse
``f = Σ_i (α*_i − α_i)(K(x_i, ·) + λ²)`` (eq. 22): λ² takes the place of the
bias of SV regression, so there is no equality constraint and each
multiplier moves on its own, clipped to the box ``[0, C]``, at a rate
``γ_i < 1/R_ii`` under which the dual objective never increases (their
Sec. 5.1).
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Real

import numpy as np

from .._memory import check_dense
from .._typing import ArrayLike
from .._validation import check_positive, check_positive_int, check_real, check_real_array
from .._warnings import warn as warn_user
from ..exceptions import ConvergenceWarning
from ._checks import check_system, check_vector, refuse_overflow_rescale

__all__ = [
    "DEFAULT_RATE_FRACTION",
    "SequentialSVRResult",
    "dual_objective",
    "learning_rates",
    "sequential_svr",
]

#: Default per-sample learning rate ``γ_i = DEFAULT_RATE_FRACTION / R_ii``,
#: inside the paper's bound ``γ_i < 1/R_ii``.
DEFAULT_RATE_FRACTION = 0.95


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
    def support(self) -> np.ndarray:
        """Indices of the basis vectors (non-zero a_i)."""
        return np.flatnonzero(self.coef)


def dual_objective(
    R: ArrayLike, y: ArrayLike, alpha: ArrayLike, alpha_star: ArrayLike, epsilon: float
) -> float:
    """``J_D = ½ aᵀRa + ε Σ(α_i + α*_i) − yᵀa`` with ``a = α* − α`` (eq. 19)."""
    R, y = check_system(R, y)
    n = y.shape[0]
    alpha = check_vector(alpha, "alpha", n, "one multiplier per sample")
    alpha_star = check_vector(alpha_star, "alpha_star", n, "one multiplier per sample")
    epsilon = check_real(epsilon, "epsilon", low=0.0)
    with np.errstate(over="ignore", invalid="ignore"):
        a = alpha_star - alpha
        value = 0.5 * a @ (R @ a) + epsilon * np.sum(alpha + alpha_star) - y @ a
    return float(
        refuse_overflow_rescale(value, "the dual objective", "'R', 'y', 'alpha' and 'alpha_star'")
    )


def learning_rates(
    R_diag: ArrayLike, learning_rate: float | ArrayLike | None = None, *, bound: str = "raise"
) -> np.ndarray:
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
    R_diag = check_real_array(R_diag, "R_diag")
    if R_diag.ndim != 1:
        raise ValueError(f"'R_diag' must be a 1-D array, got shape {R_diag.shape}")
    if not (R_diag > 0).all():
        i = int(np.argmin(R_diag))
        raise ValueError(
            f"the augmented Gram matrix must have a positive diagonal (the learning "
            f"rate bound is 1/R_ii), got R_{i}{i} = {R_diag[i]!r}; use a positive "
            "'augmentation' or a kernel with k(x, x) > 0"
        )
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
            raise TypeError(
                f"'learning_rate' must be None, a float or an array of floats, "
                f"got {learning_rate!r}"
            ) from None
        if rate.shape != R_diag.shape:
            raise ValueError(
                f"'learning_rate' must be a float or have shape {R_diag.shape} "
                f"(one rate per sample), got shape {rate.shape}"
            )
    if not (np.isfinite(rate).all() and (rate > 0).all()):
        raise ValueError(f"'learning_rate' must be positive and finite, got {learning_rate!r}")
    with np.errstate(over="ignore"):  # an overflow is too large, as it should
        too_large = rate * R_diag >= 1.0
    if too_large.any():
        if bound == "clip":
            return np.where(too_large, safe, rate)
        i = int(np.flatnonzero(too_large)[0])
        raise ValueError(
            f"'learning_rate' must be below 1/R_ii for every sample (Vijayakumar & Wu, "
            f"Sec. 5.1), got γ_{i} = {rate[i]!r} >= 1/R_{i}{i} = {1 / R_diag[i]!r} "
            f"({int(too_large.sum())} sample(s) too large); pass a smaller rate, None "
            "(0.95/R_ii), or learning_rate_bound='clip'"
        )
    return rate


def sequential_svr(
    K: ArrayLike,
    y: ArrayLike,
    *,
    epsilon: float,
    augmentation: float = 1.0,
    C: float = np.inf,
    learning_rate: float | ArrayLike | None = None,
    learning_rate_bound: str = "raise",
    tol: float = 1e-6,
    max_iter: int = 10_000,
    warn: bool = True,
) -> SequentialSVRResult:
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
    K, y = check_system(K, y)
    eps = check_real(epsilon, "epsilon", low=0.0)
    # C = ∞ (noiseless data, the paper's choice) leaves the box open above.
    C = np.inf if _is_inf(C) else check_positive(C, "C")
    tol = check_real(tol, "tol", low=0.0)
    augmentation = check_real(augmentation, "augmentation")
    max_iter = check_positive_int(max_iter, "max_iter")
    M = y.shape[0]
    check_dense(
        (M, M), np.float64, f"the {M} x {M} matrix R = K + λ²", hint="fit on fewer samples"
    )
    with np.errstate(over="ignore"):
        R = K + np.float64(augmentation) ** 2
    refuse_overflow_rescale(R, "R = K + λ²", "'K' and 'augmentation'")
    gamma = learning_rates(np.diag(R), learning_rate, bound=learning_rate_bound)
    alpha, alpha_star = np.zeros(M), np.zeros(M)
    rows = list(R)  # row views: R is symmetric, R[i] = R[:, i]
    rates = gamma.tolist()
    objective = []
    max_step = np.inf
    overflow = False
    for sweep in range(max_iter):  # noqa: B007 (named in the overflow warning below)
        # Targets far beyond the scale of R (or rates far above the bound with
        # learning_rate_bound="clip" off) can overflow a step; the sweep is
        # then undone below.
        with np.errstate(over="ignore", invalid="ignore"):
            a = alpha_star - alpha
            E = y - R @ a  # exact errors at the start of each sweep
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
            value = float(
                -0.5 * a @ (2 * y - R @ a) + eps * (new_alpha.sum() + new_alpha_star.sum())
            )
        if not (
            np.isfinite(value)
            and np.isfinite(step_max)
            and np.isfinite(new_alpha).all()
            and np.isfinite(new_alpha_star).all()
        ):
            overflow = True
            break
        alpha, alpha_star, max_step = new_alpha, new_alpha_star, step_max
        objective.append(value)
        if max_step <= tol:
            break
    converged = max_step <= tol
    if overflow:
        warn_user(
            f"the sequential SV algorithm overflowed float64 in sweep {sweep + 1} (targets "
            "'y' far beyond the scale of R = K + λ²); returning the iterate of the "
            f"{len(objective)} sweep(s) before it; rescale 'y' or 'K'",
            ConvergenceWarning,
        )
    elif not converged and warn:
        warn_user(
            f"the sequential SV algorithm did not converge in max_iter={max_iter} sweeps "
            f"(largest step of the last sweep {max_step:.3g} > tol={tol:g}); returning the "
            "last iterate, raise 'max_iter' or 'tol'",
            ConvergenceWarning,
        )
    return SequentialSVRResult(
        alpha,
        alpha_star,
        alpha_star - alpha,
        np.array(objective),
        len(objective),
        converged,
        float(max_step),
        gamma,
    )


def _is_inf(value):
    """Whether `value` is the real number +∞ (not a bool, not a string)."""
    return isinstance(value, Real) and not isinstance(value, bool) and value == np.inf
