"""Radial kernels: Gaussian and Laplacian."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._typing import ArrayLike
from .._validation import check_positive, check_real_array
from ._base import Kernel, RadialKernel, _check_inverse, _in_dtype_of, _set_params, _warn_clipped
from ._pairwise import map_rows_inplace, scaled_squared_distances

__all__ = ["GaussianKernel", "LaplacianKernel"]


def _exp_inplace(block):
    np.exp(block, out=block)


@dataclass(frozen=True)
class GaussianKernel(RadialKernel):
    """Gaussian (RBF) kernel ``k(x, y) = exp(−γ ‖x − y‖²)``.

    The papers write ``exp(−‖x − y‖²/c)`` (Mika et al. 1999) or
    ``exp(−‖x − y‖²/(2σ²))``: ``γ = 1/c = 1/(2σ²)``.

    Parameters
    ----------
    gamma : float
        Inverse width, > 0.

    Notes
    -----
    The Gram block is one GEMM of width d + 2 that yields ``−γ‖x − y‖²``
    directly (operands ``[X, ‖x‖², 1]`` and ``[2γY, −γ, −γ‖y‖²]``), followed
    by a single pass over the output that clamps the product's rounding to
    ``−γ‖x − y‖² ≤ 0`` and takes ``exp`` in place, on cache-sized row blocks
    shared among the cores; float32 input stays float32. The inverse profile
    is ``r² = −ln(k)/γ``.

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

    def __post_init__(self):
        _set_params(self, gamma=check_positive(self.gamma, "gamma"))

    @classmethod
    def from_sigma(cls, sigma: float) -> GaussianKernel:
        """The kernel ``exp(−‖x − y‖²/(2σ²))``."""
        return cls(gamma=1.0 / (2.0 * check_positive(sigma, "sigma") ** 2))

    def profile(self, r2: np.ndarray) -> np.ndarray:
        # γr² overflowing to inf is the intended answer: exp(−inf) = 0. The
        # product is formed in float64, so that a γ beyond float32's range
        # still gives exp(−γ·0) = 1.
        with np.errstate(over="ignore"):
            return _in_dtype_of(np.exp(np.multiply(r2, -self.gamma, dtype=np.float64)), r2)

    def profile_derivative(self, r2: np.ndarray) -> np.ndarray:
        return self._derivative_from_values(self.profile(r2))

    def _derivative_from_values(self, K):
        """``f' = −γ f``, in float64 and cast back (float32 overflows to inf
        when γ lies beyond its range; the solvers treat that as a failed step)."""
        with np.errstate(over="ignore"):
            return _in_dtype_of(np.multiply(K, -self.gamma, dtype=np.float64), K)

    def inverse_profile(self, k: np.ndarray) -> np.ndarray:
        return -np.log(k) / self.gamma

    def _block(self, X, Y):
        return scaled_squared_distances(X, Y, -self.gamma, out_map=_exp_inplace)

    def block_and_derivative(self, Z: np.ndarray, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        K = self._block(Z, X)
        return K, self._derivative_from_values(K)

    def _gradient(self, Z, X, weights):
        K = self._block(Z, X)
        if weights is None:
            return -2 * self.gamma * K[:, :, None] * (Z[:, None, :] - X[None, :, :])
        W = K * weights
        return -2 * self.gamma * (W.sum(axis=1)[:, None] * Z - W @ X)


@dataclass(frozen=True)
class LaplacianKernel(Kernel):
    """Laplacian kernel ``k(x, y) = exp(−γ ‖x − y‖)``.

    Parameters
    ----------
    gamma : float
        Inverse width, > 0.
    norm : {"l1", "l2"}, default="l1"
        ``"l1"`` is scikit-learn's ``laplacian_kernel`` (Manhattan distance);
        ``"l2"`` the Euclidean (exponential) kernel, which is radial.

    Notes
    -----
    The gradient in z is ``−γ k(z, x) ∂‖z − x‖/∂z``: ``sign(z − x)`` for the
    l1 norm, ``(z − x)/‖z − x‖`` for the l2 norm (0 where z = x, a
    subgradient). The inverse map gives the distance ``‖x − y‖ = −ln(k)/γ``
    in the kernel's own norm.
    """

    gamma: float = 1.0
    norm: str = "l1"

    stationary = True

    def __post_init__(self):
        _set_params(self, gamma=check_positive(self.gamma, "gamma"))
        if not isinstance(self.norm, str) or self.norm not in ("l1", "l2"):
            raise ValueError(f"'norm' must be 'l1' or 'l2', got {self.norm!r}")

    def _distances(self, X, Y):
        # Direct differences, not the GEMM route: the square root would turn the
        # route's rounding in ‖x − y‖² into √eps-sized errors in ‖x − y‖.
        from scipy.spatial.distance import cdist

        metric = "cityblock" if self.norm == "l1" else "euclidean"
        return cdist(X, Y, metric).astype(np.result_type(X, Y), copy=False)

    def _block(self, X, Y):
        D = self._distances(X, Y)
        # −γ‖x − y‖ overflowing to −inf is the intended answer (exp(−inf) = 0);
        # the product is formed in float64 so that 0·γ stays 0 in float32.
        with np.errstate(over="ignore"):
            np.multiply(D, -self.gamma, out=D, dtype=np.float64, casting="same_kind")
        return map_rows_inplace(_exp_inplace, D)

    def _diag(self, X):
        return np.ones(X.shape[0], dtype=X.dtype)

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
        if weights is None:
            return G
        return np.einsum("ij,ijk->ik", weights, G)

    def distance_from_value(self, values: ArrayLike) -> np.ndarray:
        """Input distance ``‖x − y‖ = −ln(k)/γ`` in the kernel's norm.

        Values outside (0, 1] are clipped with a NumericalWarning.
        """
        values = check_real_array(values, "values")
        bad = (values <= 0) | (values > 1)
        _warn_clipped(int(bad.sum()), "kernel values", "(0, 1]", self)
        with np.errstate(over="ignore"):  # an overflow is refused just below
            out = -np.log(np.clip(values, np.finfo(float).tiny, 1.0)) / self.gamma
        return _check_inverse(out, self, "values")
