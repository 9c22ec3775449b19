"""Radial kernels: their base class RadialKernel, Gaussian and Laplacian."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from preimage._utils.typing import ArrayLike
from preimage._utils.validation import check_positive, check_real_array
from preimage.kernels._base import Kernel, ProfileKernel, _in_dtype, _inverse
from preimage.kernels._docs import fill
from preimage.kernels._pairwise import (
    map_rows_inplace,
    scaled_squared_distances,
    xp_squared_distances,
)


@fill
class RadialKernel(ProfileKernel):
    r"""Base class of the radial kernels, :math:`k(x, y) = f(\|x - y\|^2)`.

    The gradient is :math:`\nabla_z k(z, x) = 2 f'(\|z - x\|^2)\, (z - x)`.

    References
    ----------
    Mika et al. (1999), Sec. 3.
    Kwok and Tsang (2004).

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.kernels import GaussianKernel
    >>> k = GaussianKernel(gamma=0.5)
    >>> d2 = 2.0 - 2.0 * float(k(np.array([[0.0, 0.0]]), np.array([[1.0, 1.0]]))[0, 0])
    >>> round(d2, 4)  # 2 - 2 exp(-1)
    1.2642
    >>> round(float(k.distance2_from_feature_distance2(d2)), 12)
    2.0
    """

    stationary = True
    #: The open interval of kernel values f maps onto (for clipping).
    value_range = (0.0, 1.0)

    def _block(self, X, Y):
        return self.profile(self._argument(X, Y))

    def _diag(self, X):
        return np.full(X.shape[0], self.profile(np.zeros(1, dtype=X.dtype))[0])

    def _argument(self, X, Y):
        return scaled_squared_distances(X, Y)

    def _xp_block(self, X, Y, xp):
        return self._xp_profile(xp_squared_distances(X, Y, xp), xp)

    def _xp_diag(self, X, xp):
        return self._xp_profile(xp.zeros(X.shape[0], dtype=X.dtype, device=X.device), xp)

    def _gradient(self, Z, X, weights):
        D, c = self._gradient_factors(Z, X)  # ∇_z k(z, x) = c D (z − x)
        if weights is None:
            return c * D[:, :, None] * (Z[:, None, :] - X[None, :, :])
        W = D * weights
        return c * (W.sum(axis=1)[:, None] * Z - W @ X)

    def _gradient_factors(self, Z, X):
        return self.profile_derivative(self._argument(Z, X)), 2

    def distance2_from_value(self, values: ArrayLike) -> np.ndarray:
        r"""Return the squared input distance :math:`\|x - y\|^2 = f^{-1}(k(x, y))`.

        Values outside the range of f are clipped into it with a warning.
        %(values)s
        """
        return _inverse(self, values, "values", self.inverse_profile, *self.value_range)

    def distance2_from_feature_distance2(self, d2: ArrayLike) -> np.ndarray:
        r"""Return the squared input distance from a squared feature-space distance.

        Inverts :math:`\|\phi(x) - \phi(y)\|^2 = 2 f(0) - 2 f(\|x - y\|^2)` (clipped, warned of).

        Parameters
        ----------
        d2 : array-like
            Squared feature-space distances :math:`\tilde d^2`.

        Returns
        -------
        ndarray
            The squared input distances :math:`r^2`, of the shape of `d2`.
        """
        d2 = float(self.profile(np.zeros(1))[0]) - check_real_array(d2, "d2") / 2
        return _inverse(self, d2, "d2", self.inverse_profile, *self.value_range)


def _exp_inplace(block, rows=None):
    np.exp(block, out=block)


@fill
@dataclass(frozen=True)
class GaussianKernel(RadialKernel):
    r"""Gaussian (RBF) kernel, :math:`k(x, y) = \exp(-\gamma \|x - y\|^2)`.

    The papers write :math:`\exp(-\|x - y\|^2/c)` or
    :math:`\exp(-\|x - y\|^2/(2\sigma^2))`: :math:`\gamma = 1/c = 1/(2\sigma^2)`.

    Parameters
    ----------
    %(gamma)s

    References
    ----------
    Mika et al. (1999), Sec. 1 and 4.
    Honeine and Richard (2011), Table 1.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.kernels import GaussianKernel
    >>> k = GaussianKernel(gamma=0.5)
    >>> K = k(np.array([[0.0, 0.0], [1.0, 1.0]]))
    >>> np.round(K, 4)
    array([[1.    , 0.3679],
           [0.3679, 1.    ]])
    >>> round(float(k.distance2_from_value(K[0, 1])), 12)   # exp, then log: to rounding
    2.0
    """

    gamma: float = 1.0

    _checks = {"gamma": check_positive}

    @classmethod
    def from_sigma(cls, sigma: float) -> GaussianKernel:
        r"""Return the kernel :math:`\exp(-\|x - y\|^2/(2\sigma^2))`.

        Parameters
        ----------
        sigma : float
            The width :math:`\sigma`, > 0.

        Returns
        -------
        GaussianKernel
            The kernel with :math:`\gamma = 1/(2\sigma^2)`.
        """
        return cls(gamma=1.0 / (2.0 * check_positive(sigma, "sigma") ** 2))

    def profile(self, r2: np.ndarray) -> np.ndarray:
        r"""Return the profile :math:`f(r^2) = \exp(-\gamma r^2)` elementwise.
        %(r2)s
        """
        # γr² = inf is intended; float64 so that a huge γ still gives exp(−γ·0) = 1.
        with np.errstate(over="ignore"):
            return _in_dtype(np.exp(np.multiply(r2, -self.gamma, dtype=np.float64)), r2)

    def profile_derivative(self, r2: np.ndarray) -> np.ndarray:
        r"""Return the derivative :math:`f'(r^2) = -\gamma \exp(-\gamma r^2)` elementwise.
        %(r2)s
        """
        return self._derivative_from_values(self.profile(r2))

    def _derivative_from_values(self, K):
        """``f' = −γ f`` in float64, cast back (inf for float32 is a failed step)."""
        with np.errstate(over="ignore"):
            return _in_dtype(np.multiply(K, -self.gamma, dtype=np.float64), K)

    def inverse_profile(self, k: np.ndarray) -> np.ndarray:
        r"""Return :math:`f^{-1}(k) = -\ln(k)/\gamma` elementwise, unchecked, for k in (0, 1].
        %(k)s
        """
        return -np.log(k) / self.gamma

    def _block(self, X, Y):
        return scaled_squared_distances(X, Y, -self.gamma, out_map=_exp_inplace)

    def _xp_profile(self, r2, xp):
        return xp.exp(-self.gamma * r2)

    def _xp_derivative(self, r2, xp):
        return -self.gamma * xp.exp(-self.gamma * r2)

    def block_and_derivative(self, Z: np.ndarray, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        r"""Return the block K and the profile's derivative :math:`-\gamma K` (one ``exp``).
        %(ZX)s
        """
        K = self._block(Z, X)
        return K, self._derivative_from_values(K)

    def _gradient_factors(self, Z, X):
        return self._block(Z, X), -2 * self.gamma


@fill
@dataclass(frozen=True)
class LaplacianKernel(Kernel):
    r"""Laplacian kernel, :math:`k(x, y) = \exp(-\gamma \|x - y\|)`.

    The gradient is :math:`-\gamma\, k(z, x)\, \partial \|z - x\| / \partial z`
    (a subgradient, 0 at z = x).

    Parameters
    ----------
    %(gamma)s
    norm : {"l1", "l2"}, default="l1"
        ``"l1"``: scikit-learn's ``laplacian_kernel``; ``"l2"``: the exponential kernel.

    References
    ----------
    Honeine and Richard (2011), Table 1 (l2, :math:`\gamma = 1/\sigma`).

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.kernels import LaplacianKernel
    >>> X = np.array([[0.0, 0.0], [1.0, 1.0]])
    >>> k = LaplacianKernel(gamma=0.5)
    >>> np.round(k(X), 4)  # l1 distance 2: exp(-1)
    array([[1.    , 0.3679],
           [0.3679, 1.    ]])
    >>> np.round(LaplacianKernel(gamma=0.5, norm="l2")(X), 4)  # exp(-sqrt(2) / 2)
    array([[1.    , 0.4931],
           [0.4931, 1.    ]])
    >>> round(float(k.distance_from_value(np.exp(-1.0))), 12)
    2.0
    """

    gamma: float = 1.0
    norm: str = "l1"

    stationary = True

    _checks = {"gamma": check_positive}

    def __post_init__(self):
        super().__post_init__()
        if not isinstance(self.norm, str) or self.norm not in ("l1", "l2"):
            raise ValueError(f"'norm' must be 'l1' or 'l2', got {self.norm!r}")

    def _block(self, X, Y):
        # Direct differences: the GEMM route's rounding in ‖x − y‖² is √eps in ‖x − y‖.
        from scipy.spatial.distance import cdist

        metric = "cityblock" if self.norm == "l1" else "euclidean"
        D = cdist(X, Y, metric).astype(np.result_type(X, Y), copy=False)
        # −inf is intended (exp(−inf) = 0); float64 so that 0·γ stays 0 in float32.
        with np.errstate(over="ignore"):
            np.multiply(D, -self.gamma, out=D, dtype=np.float64, casting="same_kind")
        return map_rows_inplace(_exp_inplace, D)

    def _diag(self, X):
        return np.ones(X.shape[0], dtype=X.dtype)

    def _xp_block(self, X, Y, xp):
        # Direct differences, a few rows at a time (the d-wide temporary is m × d per row).
        step = max(1, (1 << 24) // max(Y.shape[0] * Y.shape[1], 1))
        rows = []
        for i in range(0, X.shape[0], step):
            diff = X[i : min(i + step, X.shape[0]), None, :] - Y[None, :, :]
            if self.norm == "l1":
                rows.append(xp.sum(xp.abs(diff), axis=2))
            else:
                rows.append(xp.sqrt(xp.sum(diff * diff, axis=2)))
        return xp.exp(-self.gamma * xp.concat(rows, axis=0))

    def _xp_diag(self, X, xp):
        return xp.ones(X.shape[0], dtype=X.dtype, device=X.device)

    def _gradient(self, Z, X, weights):
        diff = Z[:, None, :] - X[None, :, :]
        K = self._block(Z, X)
        if self.norm == "l1":
            direction = np.sign(diff)
        else:
            r = np.sqrt(np.einsum("ijk,ijk->ij", diff, diff))
            with np.errstate(invalid="ignore", divide="ignore"):
                direction = np.where(r[..., None] > 0, diff / r[..., None], 0.0)
        G = -self.gamma * K[:, :, None] * direction
        return G if weights is None else np.einsum("ij,ijk->ik", weights, G)

    def distance_from_value(self, values: ArrayLike) -> np.ndarray:
        r"""Return the distance :math:`\|x - y\| = -\ln(k)/\gamma` in the kernel's norm.

        Values outside (0, 1] are clipped with a warning.
        %(values)s
        """
        return _inverse(self, values, "values", lambda k: -np.log(k) / self.gamma, 0, 1)
