"""The scalar curvature of the surface a kernel maps input space onto (the
polynomial formula is derived here and checked against finite differences)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from preimage._utils.typing import ArrayLike
from preimage._utils.validation import check_positive, check_positive_int, check_real
from preimage.geometry._metric import (
    by_differences,
    check_kernel,
    check_method,
    check_points,
    induced_metric,
    nan_where,
    profile_derivatives,
    steps,
)
from preimage.kernels import Kernel, PolynomialKernel, RadialKernel

#: How :func:`scalar_curvature` computes the curvature.
CURVATURE_METHODS = ("auto", "closed_form", "finite_differences")

#: Relative steps of the second differences of a differenced and of an exact metric.
_METRIC_STEP = 1e-3
_EXACT_METRIC_STEP = 1e-4


def _stencil(d):
    """Offsets (in steps) of the metric's points: 0, ±e_m, and ±e_m ± e_l for m < l."""
    E = np.eye(d)
    pairs = [(m, b) for m in range(d) for b in range(m + 1, d)]
    signs = ((1, 1), (1, -1), (-1, 1), (-1, -1))
    mixed = [s * E[m] + t * E[b] for m, b in pairs for s, t in signs]
    return np.array([np.zeros(d), *E, *-E, *mixed]).reshape(-1, d), pairs


def _metric_derivatives(G, h, d, pairs):
    """g, ∂_m g_ij and ∂_a∂_b g_ij from the metric G (n, n_stencil, d, d) on the stencil."""
    h, g0 = h[:, None, None, None], G[:, 0]
    plus, minus = G[:, 1 : 1 + d], G[:, 1 + d : 1 + 2 * d]
    dg = (plus - minus) / (2 * h)
    ddg = np.empty((G.shape[0], d, d, d, d))
    ddg[:, range(d), range(d)] = (plus - 2 * g0[:, None] + minus) / h**2
    for q, (m, b) in enumerate(pairs):
        pp, pm, mp, mm = (G[:, 1 + 2 * d + 4 * q + r] for r in range(4))
        ddg[:, m, b] = ddg[:, b, m] = (pp - pm - mp + mm) / (4 * h[:, 0] ** 2)
    return g0, dg, ddg


def _scalar_from_derivatives(g, dg, ddg):
    """Scalar curvature from g, dg = ∂_m g_ij and ddg = ∂_a∂_b g_ij."""
    ginv = np.linalg.inv(g)
    # Christoffel symbols of the first kind Γ_l,ij and of the second kind Γ^k_ij
    first = 0.5 * (np.einsum("nijl->nlij", dg) + np.einsum("njil->nlij", dg) - dg)
    gamma = np.einsum("nkl,nlij->nkij", ginv, first)
    # R_iklm = ½(∂_k∂_l g_im + ∂_i∂_m g_kl − ∂_k∂_m g_il − ∂_i∂_l g_km) + ...
    terms = ((1, "klim"), (1, "imkl"), (-1, "kmil"), (-1, "ilkm"))
    second = 0.5 * sum(sign * np.einsum(f"n{ij}->niklm", ddg) for sign, ij in terms)
    quad = np.einsum("nrp,nrkl,npim->niklm", g, gamma, gamma)
    quad -= np.einsum("nrp,nrkm,npil->niklm", g, gamma, gamma)
    return np.einsum("nkm,nil,niklm->n", ginv, ginv, second + quad)


def _finite_or_warn(R, what):
    after = f" ({what}); their scalar curvature was set to NaN"
    return nan_where(~np.isfinite(R), R, "the metric is singular", after)


def metric_scalar_curvature(
    metric: Callable[[np.ndarray], np.ndarray], X: ArrayLike, *, step: float | None = None
) -> np.ndarray:
    r"""Return the scalar curvature of any Riemannian metric, by central differences.

    :math:`\partial_m g_{ij}` and :math:`\partial_a \partial_b g_{ij}` are
    central differences of ``metric``. With the Christoffel symbols
    :math:`\Gamma^k_{ij} = \tfrac{1}{2} g^{kl} (\partial_i g_{jl} + \partial_j g_{il} - \partial_l g_{ij})`,
    the Riemann tensor (the convention of Landau and Lifshitz, Sec. 92)

    .. math::

        R_{iklm} = \tfrac{1}{2} (\partial_k \partial_l g_{im}
        + \partial_i \partial_m g_{kl} - \partial_k \partial_m g_{il}
        - \partial_i \partial_l g_{km})
        + g_{np} (\Gamma^n_{kl} \Gamma^p_{im} - \Gamma^n_{km} \Gamma^p_{il})

    gives :math:`R = g^{km} g^{il} R_{iklm}`, signed so that the unit sphere
    :math:`S^n` has :math:`R = n(n - 1) > 0`. Truncation error :math:`O(h^2)`.

    Parameters
    ----------
    metric : callable
        Points (m, d) to metrics (m, d, d), e.g. ``lambda Z: induced_metric(kernel, Z)``.
    X : array-like of shape (n, d)
        The points at which the curvature is taken.
    step : float, optional
        The step :math:`h`; by default :math:`10^{-3} \max(1, \|x\|_\infty)`.

    Returns
    -------
    ndarray of shape (n,)
        :math:`R`; NaN (warned of) where the metric is singular.

    References
    ----------
    Schölkopf et al. (1999), Sec. II-E. Landau and Lifshitz, Sec. 92.

    Examples
    --------
    >>> import numpy as np  # the unit sphere, stereographic: R = 2
    >>> from preimage.geometry import metric_scalar_curvature
    >>> sphere = lambda Z: 4 / (1 + (Z**2).sum(1))[:, None, None] ** 2 * np.eye(2)
    >>> np.round(metric_scalar_curvature(sphere, [[0.3, -0.2]]), 5)
    array([2.])
    """
    if not callable(metric):
        raise TypeError(f"'metric' must be a callable returning (m, d, d) metrics, got {metric!r}")
    X = check_points(X)
    return _curvature_by_differences(metric, X, steps(X, step, _METRIC_STEP, 1.0))


def _curvature_by_differences(metric, X, h):
    """:func:`metric_scalar_curvature` with the step h (n,) of each point."""
    n, d = X.shape
    offsets, pairs = _stencil(d)
    points = X[:, None, :] + h[:, None, None] * offsets[None]
    G = np.asarray(metric(points.reshape(-1, d)), dtype=np.float64)
    if G.shape != (points.shape[0] * points.shape[1], d, d):
        raise ValueError(
            f"'metric' must return an array of shape (m, {d}, {d}) for m points, "
            f"got shape {G.shape}"
        )
    G = G.reshape(n, offsets.shape[0], d, d)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        R = _scalar(G, h, d, pairs)
    return _finite_or_warn(R, "finite differences")


def _scalar(G, h, d, pairs):
    """The curvature, point by point (NaN where singular) if some metric is singular."""
    try:
        return _scalar_from_derivatives(*_metric_derivatives(G, h, d, pairs))
    except np.linalg.LinAlgError:
        if len(G) == 1:
            return np.full(1, np.nan)
        return np.concatenate(
            [_scalar(G[a : a + 1], h[a : a + 1], d, pairs) for a in range(len(G))]
        )


def _length_scale(kernel):
    """The length over which the metric changes near 0: 1/√γ, or √(c₀/γ) for polynomials."""
    gamma = getattr(kernel, "gamma", None)
    if not isinstance(gamma, (int, float)) or gamma <= 0:
        return 1.0
    if isinstance(kernel, PolynomialKernel):
        return float(np.sqrt(max(kernel.coef0, 0.0) / gamma))
    return float(1 / np.sqrt(gamma))


def polynomial_scalar_curvature(
    X: ArrayLike, *, degree: int, gamma: float = 1.0, coef0: float = 1.0
) -> np.ndarray:
    r"""Return the scalar curvature of the polynomial kernel's surface in closed form.

    For :math:`(\gamma \langle x, x' \rangle + c)^p` on :math:`\mathbb{R}^d`,
    with :math:`u = \gamma \|x\|^2`,

    .. math:: R = -\frac{(d - 1)(p - 1) \left[(d - 2) p u + d c\right]} {p (u + c)^p (p u + c)}.

    It vanishes for :math:`p = 1`, and for :math:`d = 2`, :math:`c = 0` (a cone).

    Parameters
    ----------
    X : array-like of shape (n, d)
        The points at which the curvature is taken.
    degree : int
        The degree :math:`p \ge 1`.
    gamma : float, default=1.0
        The scale :math:`\gamma > 0`.
    coef0 : float, default=1.0
        The constant :math:`c \ge 0`; :math:`c = 0` is singular at :math:`x = 0`
        for :math:`d > 2` (NaN there, with a warning).

    Returns
    -------
    ndarray of shape (n,)
        :math:`R` at each point.

    References
    ----------
    Schölkopf et al. (1999), Sec. II-E.

    Examples
    --------
    >>> from preimage.geometry import polynomial_scalar_curvature
    >>> polynomial_scalar_curvature([[0.0, 0.0]], degree=2, coef0=1.0)  # -(d-1)(p-1)d/(p c^p)
    array([-1.])
    """
    X = check_points(X)
    p = check_positive_int(degree, "degree")
    gamma = check_positive(gamma, "gamma")
    c = check_real(coef0, "coef0", low=0.0)
    d, u = X.shape[1], gamma * np.einsum("ij,ij->i", X, X)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        R = -(d - 1) * (p - 1) * ((d - 2) * p * u + d * c) / (p * (u + c) ** p * (p * u + c))
    if p == 1 or d == 1:
        R = np.zeros_like(u)
    return _finite_or_warn(R + 0.0, "the homogeneous kernel at x = 0")


def scalar_curvature(
    kernel: Kernel,
    X: ArrayLike,
    *,
    method: str = "auto",
    metric: str = "auto",
    step: float | None = None,
) -> np.ndarray:
    r"""Return the scalar curvature of the surface a kernel maps input space onto.

    A radial kernel has :math:`R = 0`. A dot-product kernel
    :math:`K(\langle x, x' \rangle)` has the warped-product metric
    :math:`ds^2 = (K' + s K'')\, dr^2 + s K'\, d\Omega^2`,
    :math:`s = \|x\|^2`, whose scalar curvature is

    .. math::

        R = -\frac{2 (d - 1) \left[K' (K'' + s K''') - s K''^2\right]}
        {K'^2 (K' + s K'')} - \frac{(d - 1)(d - 2) K''}{K'^2}

    (:func:`profile_derivatives`). Other kernels get :func:`metric_scalar_curvature`.

    Parameters
    ----------
    kernel : Kernel
        A kernel differentiable at :math:`x' = x` (see :func:`induced_metric`).
    X : array-like of shape (n, d)
        The points at which the curvature is taken.
    method : {"auto", "closed_form", "finite_differences"}, default="auto"
        The closed forms, :func:`metric_scalar_curvature`, or the closed form where known.
    metric : {"auto", "closed_form", "finite_differences"}, default="auto"
        The ``method`` of :func:`induced_metric` that finite differences differentiate.
    step : float, optional
        Step :math:`h`; by default :math:`10^{-4} \max(\|x\|_\infty, \ell)` (:math:`10^{-3}`
        for a differenced metric), :math:`\ell = 1/\sqrt{\gamma}` or :math:`\sqrt{c_0/\gamma}`.

    Returns
    -------
    ndarray of shape (n,)
        :math:`R`; NaN (warned of) where the metric is singular.

    References
    ----------
    Schölkopf et al. (1999), Sec. II-E.

    Examples
    --------
    >>> from preimage.geometry import scalar_curvature
    >>> import numpy as np
    >>> from preimage.kernels import GaussianKernel, PolynomialKernel
    >>> scalar_curvature(GaussianKernel(gamma=3.0), np.ones((1, 3)))
    array([0.])
    >>> k = PolynomialKernel(degree=2, gamma=1.0, coef0=0.0)   # a cone in 2-D: flat
    >>> np.round(scalar_curvature(k, [[0.5, 1.0]], method="finite_differences"), 6) + 0.0
    array([0.])
    """
    kernel = check_kernel(kernel)
    X = check_points(X)
    check_method(method, CURVATURE_METHODS)
    check_method(metric)
    if by_differences(kernel, method):
        # an exact metric takes the smaller step ε^{1/4} (error O(h²) + O(ε/h²))
        exact = not by_differences(kernel, metric)
        h = steps(X, step, _EXACT_METRIC_STEP if exact else _METRIC_STEP, _length_scale(kernel))
        return _curvature_by_differences(lambda Z: induced_metric(kernel, Z, method=metric), X, h)
    n, d = X.shape
    if isinstance(kernel, RadialKernel) or d == 1:
        return np.zeros(n)
    s = np.einsum("ij,ij->i", X, X)
    d1, d2, d3 = profile_derivatives(kernel, s)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):  # the formula above
        first = (d1 * (d2 + s * d3) - s * d2**2) / (d1**2 * (d1 + s * d2))
        R = -2.0 * (d - 1) * first - (d - 1) * (d - 2) * d2 / d1**2 + 0.0  # no −0
    return _finite_or_warn(R, "closed form")
