"""The Riemannian metric a kernel induces on input space (see :func:`induced_metric`)."""

from __future__ import annotations

import numpy as np

from preimage._utils.typing import ArrayLike
from preimage._utils.validation import check_array_2d, check_positive
from preimage._utils.warnings import warn
from preimage.exceptions import NumericalWarning
from preimage.kernels import (
    DotProductKernel,
    Kernel,
    LaplacianKernel,
    LinearKernel,
    PolynomialKernel,
    RadialKernel,
    SigmoidKernel,
)

#: How :func:`induced_metric` computes the metric.
METRIC_METHODS = ("auto", "closed_form", "finite_differences")

#: Relative step of the central differences of the gradient (ε^{1/3}: O(h²) = O(ε/h)).
_GRADIENT_STEP = float(np.finfo(float).eps ** (1 / 3))


def nan_where(bad: np.ndarray, values: np.ndarray, before: str, after: str) -> np.ndarray:
    """`values` with NaN where `bad`, warned of: "`before` at k of n points of 'X'`after`"."""
    if bad.any():
        warn(f"{before} at {int(bad.sum())} of {bad.size} points of 'X'{after}", NumericalWarning)
    return np.where(bad, np.nan, values)


def steps(X: np.ndarray, step: float | None, rel: float, scale: float) -> np.ndarray:
    """The step h of each point: `step`, or `rel` times max(‖x‖∞, `scale`)."""
    if step is None:
        return rel * np.maximum(np.abs(X).max(axis=1), scale)
    return np.full(X.shape[0], check_positive(step, "step"))


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
    """`method` if it is one of `allowed`."""
    if not isinstance(method, str) or method not in allowed:
        raise ValueError(f"'method' must be one of {list(allowed)}, got {method!r}")
    return method


def by_differences(kernel: Kernel, method: str) -> bool:
    """Whether `method` means finite differences; a missing closed form is refused."""
    closed = isinstance(kernel, RadialKernel) or (
        isinstance(kernel, DotProductKernel) and profile_derivatives(kernel, 0.0) is not None
    )
    if method == "closed_form" and not closed:
        raise ValueError(
            f"'method' 'closed_form' is not known for {kernel!r}; use 'finite_differences'"
        )
    return method == "finite_differences" or not closed


def profile_derivatives(
    kernel: Kernel, s: ArrayLike
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    r"""Return the first three derivatives of a dot-product kernel's profile.

    For :math:`k(x, x') = K(\langle x, x' \rangle)`: :math:`K'(s), K''(s),
    K'''(s)` of linear, polynomial and sigmoid kernels; for the sigmoid, with
    :math:`t = \tanh(\gamma s + c_0)`,

    .. math::

        K' = \gamma (1 - t^2), \quad
        K'' = -2 \gamma^2 t (1 - t^2), \quad
        K''' = -2 \gamma^3 (1 - t^2)(1 - 3 t^2).

    Parameters
    ----------
    kernel : Kernel
        The kernel.
    s : float or array-like
        The dot products :math:`s`.

    Returns
    -------
    tuple of three ndarrays, or None
        :math:`(K'(s), K''(s), K'''(s))`; None for a profile not known here.

    References
    ----------
    Schölkopf et al. (1999), Sec. II-E.

    Examples
    --------
    >>> from preimage.geometry import profile_derivatives
    >>> from preimage.kernels import PolynomialKernel
    >>> k = PolynomialKernel(degree=2, gamma=1.0, coef0=1.0)   # K = (s + 1)^2
    >>> [float(v) for v in profile_derivatives(k, 1.0)]      # 2(s + 1), 2, 0
    [4.0, 2.0, 0.0]
    """
    s = np.asarray(s, dtype=np.float64)
    if isinstance(kernel, LinearKernel):
        return np.ones_like(s), np.zeros_like(s), np.zeros_like(s)
    if isinstance(kernel, PolynomialKernel):
        p, g, u = kernel.degree, kernel.gamma, kernel.gamma * s + kernel.coef0
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            d1 = p * g * u ** (p - 1)
            d2 = p * (p - 1) * g**2 * u ** (p - 2) if p >= 2 else np.zeros_like(s)
            d3 = p * (p - 1) * (p - 2) * g**3 * u ** (p - 3) if p >= 3 else np.zeros_like(s)
        return d1, d2, d3
    if isinstance(kernel, SigmoidKernel):
        g, t = kernel.gamma, np.tanh(kernel.gamma * s + kernel.coef0)
        sech2 = 1.0 - t * t
        return g * sech2, -2 * g**2 * t * sech2, -2 * g**3 * sech2 * (1 - 3 * t * t)
    return None


def metric_by_finite_differences(
    kernel: Kernel, X: ArrayLike, *, step: float | None = None
) -> np.ndarray:
    r"""Return the induced metric by central differences of the kernel's gradient.

    .. math::

        g_{ij}(x) \approx \frac{\partial_i k(x, x + h e_j)
        - \partial_i k(x, x - h e_j)}{2 h},

    symmetrised. Error :math:`O(h^2) + O(\epsilon / h)`.

    Parameters
    ----------
    kernel : Kernel
        A kernel with a gradient (not the Laplacian).
    X : array-like of shape (n, d)
        The points.
    step : float, optional
        The step :math:`h`; by default :math:`\epsilon^{1/3} \max(1, \|x\|_\infty)`.

    Returns
    -------
    ndarray of shape (n, d, d)
        The metric at each point, symmetric.

    References
    ----------
    Schölkopf et al. (1999), Sec. II-E.

    Examples
    --------
    >>> from preimage.geometry import metric_by_finite_differences
    >>> import numpy as np
    >>> from preimage.kernels import GaussianKernel
    >>> g = metric_by_finite_differences(GaussianKernel(gamma=0.5), np.zeros((1, 2)))
    >>> np.round(g[0], 8)       # 2 gamma I
    array([[1., 0.],
           [0., 1.]])
    """
    kernel = check_kernel(kernel)
    X = check_points(X)
    n, d = X.shape
    out, E = np.empty((n, d, d)), np.eye(d)
    for a, (x, h) in enumerate(zip(X, steps(X, step, _GRADIENT_STEP, 1.0))):
        shifted = np.concatenate([x + h * E, x - h * E])  # (2d, d): x ± h e_j
        G = kernel.gradient(x[None], shifted)[0]  # G[m, i] = ∂_i k(x, shifted_m)
        D = (G[:d] - G[d:]) / (2 * h)  # D[j, i] ≈ ∂²k/∂x_i∂x'_j
        out[a] = (D + D.T) / 2
    return out


def induced_metric(
    kernel: Kernel, X: ArrayLike, *, method: str = "auto", step: float | None = None
) -> np.ndarray:
    r"""Return the Riemannian metric a kernel induces on input space.

    .. math::

        g_{ij}(x) = \left. \frac{\partial^2 k(x, x')}{\partial x_i \, \partial x'_j}
        \right|_{x' = x},

    so that :math:`\|\phi(x + dx) - \phi(x)\|^2 = g_{ij}(x)\, dx^i dx^j`. A
    radial kernel :math:`f(\|x - x'\|^2)` has :math:`g = -2 f'(0) I`, a dot-product
    kernel :math:`g_{ij} = K'(\|x\|^2)\, \delta_{ij} + K''(\|x\|^2)\, x_i x_j`.

    Parameters
    ----------
    kernel : Kernel
        A kernel object differentiable at :math:`x' = x`; the Laplacian is refused.
    X : array-like of shape (n, d)
        The points :math:`x`.
    method : {"auto", "closed_form", "finite_differences"}, default="auto"
        The closed forms above, :func:`metric_by_finite_differences`, or
        the closed form where there is one.
    step : float, optional
        Step of the finite differences.

    Returns
    -------
    ndarray of shape (n, d, d)
        The metric at each point, symmetric.

    References
    ----------
    Schölkopf et al. (1999), Sec. II-E. Burges (1999).

    Examples
    --------
    >>> from preimage.geometry import induced_metric
    >>> import numpy as np
    >>> from preimage.kernels import PolynomialKernel
    >>> k = PolynomialKernel(degree=2, gamma=1.0, coef0=1.0)
    >>> induced_metric(k, np.array([[1.0, 0.0]]))[0]   # 2(1 + 1) I + 2 x x^T
    array([[6., 0.],
           [0., 4.]])
    """
    kernel = check_kernel(kernel)
    X = check_points(X)
    if by_differences(kernel, check_method(method)):
        return metric_by_finite_differences(kernel, X, step=step)
    n, d = X.shape
    if isinstance(kernel, RadialKernel):
        # k = f(‖x − x'‖²): ∂²k/∂x_i∂x'_j = −2 f'(r²) δ_ij − 4 f''(r²)(x − x')_i(x − x')_j,
        # which at x' = x is −2 f'(0) δ_ij.
        scale = -2.0 * float(kernel.profile_derivative(np.zeros(1))[0])
        return np.broadcast_to(scale * np.eye(d), (n, d, d)).copy()
    d1, d2, _ = profile_derivatives(kernel, np.einsum("ij,ij->i", X, X))
    return d1[:, None, None] * np.eye(d) + d2[:, None, None] * X[:, :, None] * X[:, None, :]


def volume_element(
    kernel: Kernel, X: ArrayLike, *, method: str = "auto", step: float | None = None
) -> np.ndarray:
    r"""Return the volume element of the surface a kernel maps input space onto.

    .. math:: \sqrt{\det g(x)},

    with :math:`g` the metric of :func:`induced_metric`.

    Parameters
    ----------
    kernel : Kernel
        A kernel differentiable at :math:`x' = x`.
    X : array-like of shape (n, d)
        The points.
    method : {"auto", "closed_form", "finite_differences"}, default="auto"
        See :func:`induced_metric`.
    step : float, optional
        Step of the finite differences.

    Returns
    -------
    ndarray of shape (n,)
        The volume element; NaN (warned of) where the metric is not positive definite.

    References
    ----------
    Schölkopf et al. (1999), Sec. II-E. Burges (1999).

    Examples
    --------
    >>> from preimage.geometry import volume_element
    >>> import numpy as np
    >>> from preimage.kernels import GaussianKernel
    >>> volume_element(GaussianKernel(gamma=2.0), np.zeros((1, 3)))   # 4^{3/2}
    array([8.])
    """
    det = np.linalg.det(induced_metric(kernel, X, method=method, step=step))
    not_definite = f"the metric of {kernel!r} is not positive definite"
    return np.sqrt(
        nan_where(~(det > 0), det, not_definite, "; their volume element was set to NaN")
    )
