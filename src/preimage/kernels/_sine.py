"""The sine (Dirichlet) kernel of a finite trigonometric space."""

from dataclasses import dataclass
import functools

import numpy as np

from preimage._utils.validation import check_positive_int
from preimage.kernels._base import Kernel


def _dirichlet(delta, order, derivative=False):
    """``s(δ) = Σ_{n=0}^{N} cos(nδ)`` as the sum itself (see SineKernel), or
    ``s'(δ) = −Σ_{n=1}^{N} n sin(nδ)``."""
    out = np.zeros_like(delta) if derivative else np.ones_like(delta)
    for n in range(1, order + 1):
        out += -n * np.sin(n * delta) if derivative else np.cos(n * delta)
    return out


@dataclass(frozen=True)
class SineKernel(Kernel):
    r"""Sine (Dirichlet) kernel, the reproducing kernel of trigonometric polynomials.

    For scalar inputs:

    .. math::

        k(x, x') &= \sum_{n=0}^{N} (\cos nx \cos nx' + \sin nx \sin nx') \\
                 &= \frac{1}{2} \left[\frac{\sin((2N+1)(x - x')/2)}{\sin((x - x')/2)}
                    + 1\right],

    with :math:`k(x, x) = N + 1`; for d-dimensional inputs, the product over
    coordinates, computed as sums of cosines (accurate near multiples of :math:`2\pi`).

    Parameters
    ----------
    order : int, default=5
        The highest frequency N, :math:`N \ge 0`.

    References
    ----------
    Vijayakumar and Wu (1999), eq. 24.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.kernels import SineKernel
    >>> k = SineKernel(order=5)
    >>> float(k(np.array([[0.3]]))[0, 0])
    6.0
    """

    order: int = 5

    stationary = True
    # (N + 1)^d overflows in high dimension: public blocks refuse it by name.
    may_overflow = True

    _checks = {"order": functools.partial(check_positive_int, minimum=0)}

    def _block(self, X, Y):
        with np.errstate(over="ignore", invalid="ignore"):  # see may_overflow
            sums = (_dirichlet(x[:, None] - y[None, :], self.order) for x, y in zip(X.T, Y.T))
            return functools.reduce(np.multiply, sums).astype(np.result_type(X, Y), copy=False)

    def _diag(self, X):
        with np.errstate(over="ignore"):  # see may_overflow
            value = np.power(np.float64(self.order + 1), X.shape[1])
            return np.full(X.shape[0], value, dtype=np.float64).astype(X.dtype)

    def _gradient(self, Z, X, weights):
        deltas = Z[:, None, :] - X[None, :, :]
        S, dS = (_dirichlet(deltas, self.order, derivative) for derivative in (False, True))
        G = np.empty_like(deltas)
        for j in range(Z.shape[1]):  # the product over the other coordinates (1 if none)
            G[:, :, j] = dS[:, :, j] * np.prod(np.delete(S, j, axis=2), axis=2)
        return G if weights is None else np.einsum("ij,ijk->ik", weights, G)
