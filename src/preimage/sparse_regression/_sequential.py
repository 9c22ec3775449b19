"""The sequential sparse SV algorithm of Vijayakumar and Wu (1999, Fig. 2)."""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Real

import numpy as np

from preimage._utils.memory import check_dense
from preimage._utils.typing import ArrayLike
from preimage._utils.validation import (
    check_positive,
    check_positive_int,
    check_real,
    check_real_array,
)
from preimage._utils.warnings import warn as warn_user
from preimage.exceptions import ConvergenceWarning
from preimage.sparse_regression._docs import fill_doc
from preimage.sparse_regression._wiener import check_overflow_rescale, check_system, check_vector

#: Default learning rates :math:`\gamma_i = \mathrm{DEFAULT\_RATE\_FRACTION} / R_{ii}`.
DEFAULT_RATE_FRACTION = 0.95


@dataclass
class SequentialSVRResult:
    r"""The outcome of :func:`sequential_svr`.

    The multipliers of the dual, the sparse function they define and the sweeps,

    .. math::

        f(x) = \sum_i a_i \left(K(x_i, x) + \lambda^2\right), \qquad
        a_i = \alpha^*_i - \alpha_i.

    Parameters
    ----------
    alpha, alpha_star : ndarray of shape (M,)
        The Lagrange multipliers :math:`\alpha_i` and :math:`\alpha^*_i` of eq. 19.
    coef : ndarray of shape (M,)
        The coefficients :math:`a_i` of eq. 22.
    objective : ndarray of shape (n_iter,)
        The dual objective after each sweep.
    n_iter : int
        Sweeps over the training set.
    converged : bool
        Whether the largest step of the last sweep met the tolerance.
    max_step : float
        That largest step, in units of :math:`y`.
    learning_rate : ndarray of shape (M,)
        The per-sample rates :math:`\gamma_i` used.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.sparse_regression import sequential_svr
    >>> res = sequential_svr(np.eye(3), [1.0, 0.0, -1.0], epsilon=0.5, augmentation=0.0)
    >>> np.round(res.coef, 4) + 0.0   # R = I: a_i = y_i - eps sign(y_i) outside the tube
    array([ 0.5,  0. , -0.5])
    >>> res.support
    array([0, 2])
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
        """Indices of the basis vectors (non-zero ``coef``)."""
        return np.flatnonzero(self.coef)


def dual_objective(
    R: ArrayLike, y: ArrayLike, alpha: ArrayLike, alpha_star: ArrayLike, epsilon: float
) -> float:
    r"""Return the dual objective of the sequential algorithm (eq. 19 with :math:`R`).

    .. math::

        J_D = \tfrac{1}{2} a^T R a + \varepsilon \sum_i (\alpha_i + \alpha^*_i)
        - y^T a, \qquad a = \alpha^* - \alpha.

    Parameters
    ----------
    R : array-like of shape (M, M)
        The augmented Gram matrix, :math:`R = K + \lambda^2`.
    y : array-like of shape (M,)
        The targets.
    alpha, alpha_star : array-like of shape (M,)
        The multipliers :math:`\alpha_i` and :math:`\alpha^*_i`.
    epsilon : float
        Half-width :math:`\varepsilon \ge 0` of the insensitive tube.

    Returns
    -------
    float
        The value of :math:`J_D`.

    References
    ----------
    Vijayakumar and Wu (1999), Sec. 5, eq. 19; Sec. 5.1, eq. 22.

    Examples
    --------
    >>> from preimage.sparse_regression import dual_objective
    >>> dual_objective([[1.0]], [1.0], [0.0], [0.5], epsilon=0.5)  # 1/8 + 1/4 - 1/2
    -0.125
    """
    R, y = check_system(R, y)
    alpha = check_vector(alpha, "alpha", y.shape[0], "one multiplier per sample")
    alpha_star = check_vector(alpha_star, "alpha_star", y.shape[0], "one multiplier per sample")
    epsilon = check_real(epsilon, "epsilon", low=0.0)
    with np.errstate(over="ignore", invalid="ignore"):
        a = alpha_star - alpha
        value = 0.5 * a @ (R @ a) + epsilon * np.sum(alpha + alpha_star) - y @ a
    names = "'R', 'y', 'alpha' and 'alpha_star'"
    return float(check_overflow_rescale(value, "the dual objective", names))


def learning_rates(
    R_diag: ArrayLike, learning_rate: float | ArrayLike | None = None, *, bound: str = "raise"
) -> np.ndarray:
    r"""Return per-sample learning rates inside the bound under which the dual decreases.

    .. math:: \gamma_i < \frac{1}{R_{ii}}.

    Parameters
    ----------
    R_diag : array-like of shape (M,)
        Diagonal of the augmented Gram matrix (positive).
    learning_rate : None, float or array-like of shape (M,), default=None
        None: :math:`\gamma_i = 0.95 / R_{ii}`; or one rate, or one per sample.
    bound : {"raise", "clip"}, default="raise"
        A rate at or above :math:`1 / R_{ii}` raises a ValueError, or is
        clipped to :math:`0.95 / R_{ii}`.

    Returns
    -------
    ndarray of shape (M,)
        The rates :math:`\gamma_i`.

    References
    ----------
    Vijayakumar and Wu (1999), Sec. 5.1, after eq. 23.

    Examples
    --------
    >>> from preimage.sparse_regression import learning_rates
    >>> learning_rates([2.0, 4.0])                          # 0.95 / R_ii
    array([0.475 , 0.2375])
    >>> learning_rates([2.0, 4.0], 0.4, bound="clip")      # 0.4 >= 1/4: clipped
    array([0.4   , 0.2375])
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
    try:
        rate = np.asarray(learning_rate, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(
            f"'learning_rate' must be None, a float or an array of floats, got {learning_rate!r}"
        ) from None
    if isinstance(learning_rate, Real) and not isinstance(learning_rate, bool):
        rate = np.full(R_diag.shape, rate)
    elif rate.shape != R_diag.shape:
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


@fill_doc
def sequential_svr(
    K: ArrayLike,
    y: ArrayLike,
    *,
    epsilon: float,
    C: float = np.inf,
    augmentation: float = 1.0,
    learning_rate: float | ArrayLike | None = None,
    learning_rate_bound: str = "raise",
    tol: float = 1e-6,
    max_iter: int = 10_000,
    warn: bool = True,
) -> SequentialSVRResult:
    r"""Find a sparse representation by the sequential algorithm (Fig. 2).

    Minimises the :math:`\varepsilon`-insensitive dual (eq. 19) on
    :math:`R = K + \lambda^2` (eq. 22; :math:`\lambda^2` replaces the bias):

    .. math::

        J_D = \frac{1}{2} \sum_{i,j} a_i a_j R_{ij}
        + \varepsilon \sum_i (\alpha_i + \alpha^*_i) - \sum_i y_i a_i,
        \qquad 0 \le \alpha_i, \alpha^*_i \le C,

    :math:`a = \alpha^* - \alpha`. Each sweep visits :math:`i = 1, \dots, M` in
    order and, with the current error :math:`E_i = y_i - \sum_j a_j R_{ij}`, moves

    .. math::

        \delta\alpha^*_i &= \min(\max(\gamma_i (E_i - \varepsilon), -\alpha^*_i),
                                 C - \alpha^*_i), \\
        \delta\alpha_i &= \min(\max(\gamma_i (-E_i - \varepsilon), -\alpha_i),
                               C - \alpha_i).

    Parameters
    ----------
    K : array-like of shape (M, M)
        Gram matrix of the training inputs.
    y : array-like of shape (M,)
        Targets.
    epsilon : float
        Half-width :math:`\varepsilon \ge 0` of the insensitive tube.
    %(svr)s
    warn : bool, default=True
        Warn when ``max_iter`` sweeps do not meet ``tol`` (an overflow always warns).

    Returns
    -------
    SequentialSVRResult
        The multipliers, the coefficients and the record of the sweeps.

    References
    ----------
    Vijayakumar and Wu (1999), Sec. 5, eqs. 19-21; Sec. 5.1, eq. 22 and Fig. 2.

    Examples
    --------
    >>> from preimage.sparse_regression import sequential_svr
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
    C = np.inf if isinstance(C, Real) and C == np.inf else check_positive(C, "C")
    tol = check_real(tol, "tol", low=0.0)
    augmentation = check_real(augmentation, "augmentation")
    max_iter = check_positive_int(max_iter, "max_iter")
    M = y.shape[0]
    what = f"the {M} x {M} matrix R = K + λ²"
    check_dense((M, M), np.float64, what, hint="fit on fewer samples")
    with np.errstate(over="ignore"):
        R = K + np.float64(augmentation) ** 2
    check_overflow_rescale(R, "R = K + λ²", "'K' and 'augmentation'")
    gamma = learning_rates(np.diag(R), learning_rate, bound=learning_rate_bound)
    alpha, alpha_star = np.zeros(M), np.zeros(M)
    rows, rates = list(R), gamma.tolist()  # row views: R is symmetric, R[i] = R[:, i]
    objective, max_step, overflow = [], np.inf, False
    for sweep in range(max_iter):  # noqa: B007 (named in the overflow warning below)
        # Targets far beyond the scale of R can overflow a step: the sweep is undone.
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
                    als[i], al[i] = als[i] + d_star, al[i] + d
                    E -= (d_star - d) * rows[i]
                    step_max = max(step_max, (abs(d_star) + abs(d)) / g)
            new_alpha, new_alpha_star = np.array(al), np.array(als)
            # J_D = ½aᵀRa + εΣ(α + α*) − yᵀa = −½aᵀ(2y − Ra) + εΣ(α + α*).
            a = new_alpha_star - new_alpha
            value = -0.5 * a @ (2 * y - R @ a) + eps * (new_alpha.sum() + new_alpha_star.sum())
        if not np.isfinite(np.r_[value, step_max, new_alpha, new_alpha_star]).all():
            overflow = True
            break
        alpha, alpha_star, max_step = new_alpha, new_alpha_star, float(step_max)
        objective.append(value)
        if max_step <= tol:
            break
    converged = max_step <= tol
    history = np.array(objective)
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
        alpha, alpha_star, alpha_star - alpha, history, history.size, converged, max_step, gamma
    )
