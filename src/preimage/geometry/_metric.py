"""The Riemannian metric a kernel induces on input space.

The feature map φ of a kernel embeds input space as a surface S in feature
space. Its line element is (Schölkopf et al. 1999, Sec. II-E, after Burges
1999)

    ds² = ‖φ(x + dx) − φ(x)‖² = k(x + dx, x + dx) − 2 k(x, x + dx) + k(x, x)
        = g_ij(x) dx^i dx^j,

with the metric tensor written in the kernel alone,

    g_ij(x) = ∂² k(x, x') / ∂x_i ∂x'_j  at  x' = x.

Closed forms:

* a radial kernel ``k = f(‖x − x'‖²)``: ``g = −2 f'(0) I``, constant; the
  Gaussian ``exp(−γ‖x − x'‖²)`` gives ``g = 2γ I`` (``I/σ²`` in the papers'
  ``exp(−‖x − x'‖²/(2σ²))``), so its surface is flat;
* a dot-product kernel ``k = K(⟨x, x'⟩)`` (the paper's case):
  ``g_ij = K'(‖x‖²) δ_ij + K''(‖x‖²) x_i x_j``; for the polynomial kernel
  ``(γ⟨x, x'⟩ + c₀)^p`` that is ``K' = pγ(γs + c₀)^{p−1}``,
  ``K'' = p(p − 1)γ²(γs + c₀)^{p−2}``;
* the Laplacian ``exp(−γ‖x − x'‖)`` has no metric: the kernel is not
  differentiable at x' = x (``f'(0)`` is infinite), and is refused.

Any other kernel with a gradient gets the metric by central differences of
that gradient in its second argument (:func:`metric_by_finite_differences`).
"""

from __future__ import annotations

import numpy as np

from .._typing import ArrayLike
from .._validation import check_array_2d, check_positive
from .._warnings import warn
from ..exceptions import NumericalWarning
from ..kernels import (
    DotProductKernel,
    Kernel,
    LaplacianKernel,
    LinearKernel,
    PolynomialKernel,
    RadialKernel,
    SigmoidKernel,
)

__all__ = [
    "METRIC_METHODS",
    "induced_metric",
    "metric_by_finite_differences",
    "profile_derivatives",
    "volume_element",
]

#: How :func:`induced_metric` computes the metric.
METRIC_METHODS = ("auto", "closed_form", "finite_differences")

#: Relative step of the central differences of the gradient: ε^{1/3}
#: balances the truncation error O(h²) against rounding O(ε/h).
_GRADIENT_STEP = float(np.finfo(float).eps ** (1 / 3))


def check_kernel(kernel: object) -> Kernel:
    """`kernel` as a differentiable kernel on vectors, or an error naming it."""
    if not isinstance(kernel, Kernel):
        raise TypeError(
            "'kernel' must be a preimage kernel object (e.g. GaussianKernel(gamma=...) "
            f"or preimage.kernels.make_kernel(...)), got {kernel!r}"
        )
    if isinstance(kernel, LaplacianKernel):
        raise ValueError(
            f"'kernel' must be differentiable at x' = x to induce a metric, got {kernel!r}: "
            "exp(−γ‖x − x'‖) has a kink there (its metric would be infinite)"
        )
    if not kernel.differentiable:
        raise ValueError(
            f"'kernel' must have a gradient in its input to induce a metric, got {kernel!r}"
        )
    return kernel


def check_points(X: ArrayLike, name: str = "X") -> np.ndarray:
    """`X` as a finite float64 (n, d) array."""
    return np.asarray(check_array_2d(X, name), dtype=np.float64)


def check_method(method: str, allowed: tuple[str, ...] = METRIC_METHODS) -> str:
    if not isinstance(method, str) or method not in allowed:
        raise ValueError(f"'method' must be one of {list(allowed)}, got {method!r}")
    return method


def profile_derivatives(
    kernel: Kernel, s: ArrayLike
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """``K'(s), K''(s), K'''(s)`` of a dot-product kernel ``k = K(⟨x, x'⟩)``
    in closed form, or None for a kernel whose profile is not known here.

    Linear ``K = s``; polynomial ``K = (γs + c₀)^p``; sigmoid
    ``K = tanh(γs + c₀)``, with ``t = tanh``: ``K' = γ(1 − t²)``,
    ``K'' = −2γ² t(1 − t²)``, ``K''' = −2γ³(1 − t²)(1 − 3t²)``.
    """
    s = np.asarray(s, dtype=np.float64)
    if isinstance(kernel, LinearKernel):
        return np.ones_like(s), np.zeros_like(s), np.zeros_like(s)
    if isinstance(kernel, PolynomialKernel):
        p, g, c = kernel.degree, kernel.gamma, kernel.coef0
        u = g * s + c
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            d1 = p * g * u ** (p - 1)
            d2 = p * (p - 1) * g**2 * u ** (p - 2) if p >= 2 else np.zeros_like(s)
            d3 = p * (p - 1) * (p - 2) * g**3 * u ** (p - 3) if p >= 3 else np.zeros_like(s)
        return d1, d2, d3
    if isinstance(kernel, SigmoidKernel):
        g = kernel.gamma
        t = np.tanh(g * s + kernel.coef0)
        sech2 = 1.0 - t * t
        return g * sech2, -2 * g**2 * t * sech2, -2 * g**3 * sech2 * (1 - 3 * t * t)
    return None


def _has_closed_form(kernel: Kernel) -> bool:
    return isinstance(kernel, RadialKernel) or (
        isinstance(kernel, DotProductKernel) and profile_derivatives(kernel, 0.0) is not None
    )


def _closed_form_metric(kernel, X):
    n, d = X.shape
    if isinstance(kernel, RadialKernel):
        # k = f(‖x − x'‖²): ∂²k/∂x_i∂x'_j = −2 f'(r²) δ_ij − 4 f''(r²)(x − x')_i(x − x')_j,
        # which at x' = x is −2 f'(0) δ_ij.
        scale = -2.0 * float(kernel.profile_derivative(np.zeros(1))[0])
        return np.broadcast_to(scale * np.eye(d), (n, d, d)).copy()
    s = np.einsum("ij,ij->i", X, X)
    d1, d2, _ = profile_derivatives(kernel, s)
    return d1[:, None, None] * np.eye(d) + d2[:, None, None] * X[:, :, None] * X[:, None, :]


def metric_by_finite_differences(
    kernel: Kernel, X: ArrayLike, *, step: float | None = None
) -> np.ndarray:
    """The induced metric by central differences of the kernel's gradient.

    ``g_ij(x) ≈ [∂_i k(x, x + h e_j) − ∂_i k(x, x − h e_j)] / (2h)``, where
    ``∂_i k(z, x')`` is the kernel's own gradient in its first argument
    (:meth:`~preimage.kernels.Kernel.gradient`), then symmetrised. Truncation error O(h²),
    rounding O(ε/h).

    Parameters
    ----------
    kernel : Kernel
        Any kernel object with a gradient (not the Laplacian, see
        :func:`induced_metric`).
    X : array-like of shape (n, d)
        The points.
    step : float, optional
        The step h; by default ``ε^{1/3} · max(1, ‖x‖_∞)`` at each point.

    Returns
    -------
    ndarray of shape (n, d, d)

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.kernels import GaussianKernel
    >>> g = metric_by_finite_differences(GaussianKernel(gamma=0.5), np.zeros((1, 2)))
    >>> np.round(g[0], 8)       # 2γ I
    array([[1., 0.],
           [0., 1.]])
    """
    kernel = check_kernel(kernel)
    X = check_points(X)
    step = None if step is None else check_positive(step, "step")
    n, d = X.shape
    out = np.empty((n, d, d))
    E = np.eye(d)
    for a, x in enumerate(X):
        h = step if step is not None else _GRADIENT_STEP * max(1.0, float(np.abs(x).max()))
        shifted = np.concatenate([x + h * E, x - h * E])  # (2d, d): x ± h e_j
        G = kernel.gradient(x[None], shifted)[0]  # G[m, i] = ∂_i k(x, shifted_m)
        D = (G[:d] - G[d:]) / (2 * h)  # D[j, i] ≈ ∂²k/∂x_i∂x'_j
        out[a] = (D + D.T) / 2
    return out


def induced_metric(
    kernel: Kernel, X: ArrayLike, *, method: str = "auto", step: float | None = None
) -> np.ndarray:
    """The Riemannian metric ``g_ij(x) = ∂²k(x, x')/∂x_i∂x'_j |_{x'=x}`` a
    kernel induces on input space (Schölkopf et al. 1999, Sec. II-E).

    Parameters
    ----------
    kernel : Kernel
        A kernel object differentiable at x' = x: radial (Gaussian), dot
        product (linear, polynomial, sigmoid) or any other with a gradient.
        The Laplacian is refused: it has no metric.
    X : array-like of shape (n, d)
        The points x at which the metric is taken.
    method : {"auto", "closed_form", "finite_differences"}, default="auto"
        ``"closed_form"``: ``−2f'(0) I`` for radial kernels,
        ``K'(‖x‖²) δ_ij + K''(‖x‖²) x_i x_j`` for dot-product kernels of known
        profile; ``"finite_differences"``: :func:`metric_by_finite_differences`;
        ``"auto"``: the closed form where there is one.
    step : float, optional
        Step of the finite differences (see
        :func:`metric_by_finite_differences`).

    Returns
    -------
    ndarray of shape (n, d, d)
        The metric at each point, symmetric. Positive definite for positive
        definite kernels (not always for the sigmoid).

    Notes
    -----
    The line element is ``‖φ(x + dx) − φ(x)‖² = g_ij dx^i dx^j`` (to second
    order), which the tests check against kernel values alone.

    References
    ----------
    B. Schölkopf et al., "Input space versus feature space in kernel-based
    methods", IEEE Trans. Neural Networks 10(5), 1999, Sec. II-E.
    C. J. C. Burges, "Geometry and invariance in kernel based methods", in
    Advances in Kernel Methods, MIT Press, 1999.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.kernels import PolynomialKernel
    >>> k = PolynomialKernel(degree=2, gamma=1.0, coef0=1.0)
    >>> induced_metric(k, np.array([[1.0, 0.0]]))[0]   # 2(1+1) I + 2 x xᵀ
    array([[6., 0.],
           [0., 4.]])
    """
    kernel = check_kernel(kernel)
    X = check_points(X)
    check_method(method)
    if method == "finite_differences" or (method == "auto" and not _has_closed_form(kernel)):
        return metric_by_finite_differences(kernel, X, step=step)
    if not _has_closed_form(kernel):
        raise ValueError(
            f"'method' 'closed_form' is not known for {kernel!r}; use 'finite_differences'"
        )
    return _closed_form_metric(kernel, X)


def volume_element(
    kernel: Kernel, X: ArrayLike, *, method: str = "auto", step: float | None = None
) -> np.ndarray:
    """The intrinsic volume element ``√det g(x)`` of the surface φ(input space).

    The density of the mapped data on the surface is the input density divided
    by it (Schölkopf et al. 1999, Sec. II-E). Gaussian: ``(2γ)^{d/2}``;
    dot-product kernels: ``K'^{(d−1)/2} √(K' + ‖x‖² K'')``.

    Parameters
    ----------
    kernel, X, method, step
        As in :func:`induced_metric`.

    Returns
    -------
    ndarray of shape (n,)
        Where the metric is not positive definite (a sigmoid kernel), det g ≤ 0
        has no real root: those entries are NaN, with a NumericalWarning.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.kernels import GaussianKernel
    >>> volume_element(GaussianKernel(gamma=2.0), np.zeros((1, 3)))   # 4^{3/2}
    array([8.])
    """
    g = induced_metric(kernel, X, method=method, step=step)
    det = np.linalg.det(g)
    bad = ~(det > 0)
    if bad.any():
        warn(
            f"the metric of {kernel!r} is not positive definite at {int(bad.sum())} of "
            f"{det.size} points of 'X'; their volume element was set to NaN",
            NumericalWarning,
        )
    return np.sqrt(np.where(bad, np.nan, det))
