"""Radial kernels: their base class RadialKernel, Gaussian and Laplacian."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from preimage._utils.typing import ArrayLike
from preimage._utils.validation import check_positive, check_real_array
from preimage.kernels._base import Kernel, _check_inverse, _in_dtype_of, _set_params, _warn_clipped
from preimage.kernels._pairwise import map_rows_inplace, scaled_squared_distances

__all__ = ["RadialKernel", "GaussianKernel", "LaplacianKernel"]


class RadialKernel(Kernel):
    r"""Base class of the radial kernels, :math:`k(x, y) = f(\|x - y\|^2)`.

    Subclasses define the profile :math:`f` (:meth:`profile`), its derivative
    :math:`f'` and its inverse. The gradient in z is

    .. math:: \nabla_z k(z, x) = 2 f'(\|z - x\|^2)\, (z - x),

    so a weighted sum of gradients is two matrix products. Since
    :math:`k(x, x) = f(0)`,

    .. math:: \|\phi(x) - \phi(y)\|^2 = 2 f(0) - 2 f(\|x - y\|^2),

    which :meth:`distance2_from_feature_distance2` inverts (Kwok & Tsang 2003).

    References
    ----------
    S. Mika, B. Schölkopf, A. Smola, K.-R. Müller, M. Scholz and G. Rätsch,
    "Kernel PCA and de-noising in feature spaces", Advances in Neural
    Information Processing Systems 11, 1999, Sec. 3 (kernels of
    :math:`\|x - y\|^2` and their gradient).

    J. T. Kwok and I. W. Tsang, "The pre-image problem in kernel methods",
    IEEE Trans. Neural Networks 15(6), 2004 (ICML 2003).

    Examples
    --------
    The Gaussian kernel :math:`f(r^2) = \exp(-r^2/2)`, at two points a squared
    distance 2 apart, and back from the feature-space distance to the input
    distance:

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

    def profile(self, r2: np.ndarray) -> np.ndarray:  # pragma: no cover - abstract
        r"""Return the profile :math:`f(r^2)` elementwise.

        Parameters
        ----------
        r2 : ndarray
            Squared distances :math:`r^2 = \|x - y\|^2`.

        Returns
        -------
        ndarray
            The kernel values, of the shape of `r2`.
        """
        raise NotImplementedError

    def profile_derivative(self, r2: np.ndarray) -> np.ndarray:  # pragma: no cover - abstract
        r"""Return the derivative :math:`f'(r^2)` of the profile elementwise.

        Parameters
        ----------
        r2 : ndarray
            Squared distances :math:`r^2 = \|x - y\|^2`.

        Returns
        -------
        ndarray
            The derivatives in :math:`r^2`, of the shape of `r2`.
        """
        raise NotImplementedError

    def inverse_profile(self, k: np.ndarray) -> np.ndarray:  # pragma: no cover - abstract
        """Return the inverse profile :math:`f^{-1}(k)` elementwise, unchecked.

        For values inside the range of f: no clipping, no check (see
        :meth:`distance2_from_value` for the checked map).

        Parameters
        ----------
        k : ndarray
            Kernel values inside the range of f.

        Returns
        -------
        ndarray
            The squared distances, of the shape of `k`.
        """
        raise NotImplementedError

    #: The open interval of kernel values f maps onto (for clipping).
    value_range = (0.0, 1.0)

    def _block(self, X, Y):
        return self.profile(scaled_squared_distances(X, Y))

    def _diag(self, X):
        return np.full(X.shape[0], self.profile(np.zeros(1, dtype=X.dtype))[0])

    def block_and_derivative(self, Z: np.ndarray, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        r"""Return the kernel block and the profile's derivative for all pairs.

        Both :math:`f(\|z - x\|^2)` and :math:`f'(\|z - x\|^2)` come from
        one distance block: the two things a fixed-point step needs.

        Parameters
        ----------
        Z : ndarray of shape (m, d)
            Points, validated by the caller (no checks: values beyond the
            float range come back as they are, which the fixed point treats as
            a failed step).
        X : ndarray of shape (n, d)
            Second arguments, validated by the caller.

        Returns
        -------
        K : ndarray of shape (m, n)
            The kernel values :math:`f(\|z_j - x_i\|^2)`.
        D : ndarray of shape (m, n)
            The derivatives :math:`f'(\|z_j - x_i\|^2)`.
        """
        r2 = scaled_squared_distances(Z, X)
        return self.profile(r2), self.profile_derivative(r2)

    def _gradient(self, Z, X, weights):
        D = self.profile_derivative(scaled_squared_distances(Z, X))
        if weights is None:
            return 2 * D[:, :, None] * (Z[:, None, :] - X[None, :, :])
        W = D * weights
        return 2 * (W.sum(axis=1)[:, None] * Z - W @ X)

    def distance2_from_value(self, values: ArrayLike) -> np.ndarray:
        r"""Return the squared input distance :math:`\|x - y\|^2 = f^{-1}(k(x, y))`.

        Values outside the range of f (rounding, or an expansion that is no
        kernel value at all) are clipped into it with a
        :class:`~preimage.exceptions.NumericalWarning`.

        Parameters
        ----------
        values : array-like
            Kernel values :math:`k(x, y)`.

        Returns
        -------
        ndarray
            The squared distances, of the shape of `values`.
        """
        return self._clipped_inverse(check_real_array(values, "values"), "values")

    def _clipped_inverse(self, values, name):
        lo, hi = self.value_range
        tiny = np.finfo(float).tiny
        bad = (values <= lo) | (values > hi)
        _warn_clipped(int(bad.sum()), "kernel values", f"({lo}, {hi}]", self)
        with np.errstate(over="ignore"):  # an overflow is refused just below
            out = self.inverse_profile(np.clip(values, lo + tiny, hi))
        return _check_inverse(out, self, name)

    def distance2_from_feature_distance2(self, d2: ArrayLike) -> np.ndarray:
        r"""Return the squared input distance from a squared feature-space distance.

        Inverts :math:`\|\phi(x) - \phi(y)\|^2 = 2 f(0) - 2 f(\|x - y\|^2)`;
        for the Gaussian :math:`\exp(-\gamma r^2)` this is
        :math:`r^2 = -\ln(1 - \tilde d^2/2)/\gamma` (Kwok & Tsang 2003, valid
        for :math:`\tilde d^2 < 2`, larger values are clipped with a warning).

        Parameters
        ----------
        d2 : array-like
            Squared feature-space distances :math:`\tilde d^2`.

        Returns
        -------
        ndarray
            The squared input distances :math:`r^2`, of the shape of `d2`.
        """
        d2 = check_real_array(d2, "d2")
        f0 = float(self.profile(np.zeros(1))[0])
        return self._clipped_inverse(f0 - d2 / 2, "d2")


def _exp_inplace(block):
    np.exp(block, out=block)


@dataclass(frozen=True)
class GaussianKernel(RadialKernel):
    r"""Gaussian (RBF) kernel, :math:`k(x, y) = \exp(-\gamma \|x - y\|^2)`.

    The papers write :math:`\exp(-\|x - y\|^2/c)` (Mika et al. 1999) or
    :math:`\exp(-\|x - y\|^2/(2\sigma^2))` (Honeine & Richard 2011):
    :math:`\gamma = 1/c = 1/(2\sigma^2)`.

    Parameters
    ----------
    gamma : float, default=1.0
        Inverse width, > 0.

    Notes
    -----
    The Gram block is one GEMM of width d + 2 that yields
    :math:`-\gamma\|x - y\|^2` directly (operands :math:`[X, \|x\|^2, 1]` and
    :math:`[2\gamma Y, -\gamma, -\gamma\|y\|^2]`), followed by a single pass
    over the output that clamps the product's rounding to
    :math:`-\gamma\|x - y\|^2 \le 0` and takes ``exp`` in place, on
    cache-sized row blocks shared among the cores; float32 input stays
    float32. The inverse profile is :math:`r^2 = -\ln(k)/\gamma`.

    References
    ----------
    S. Mika, B. Schölkopf, A. Smola, K.-R. Müller, M. Scholz and G. Rätsch,
    "Kernel PCA and de-noising in feature spaces", Advances in Neural
    Information Processing Systems 11, 1999, Sec. 1 and 4.

    P. Honeine and C. Richard, "A closed-form solution for the pre-image
    problem in kernel-based machines", J. Signal Processing Systems 65(3),
    2011, Table 1.

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

        Parameters
        ----------
        r2 : ndarray
            Squared distances :math:`r^2 = \|x - y\|^2`.

        Returns
        -------
        ndarray
            The kernel values, of the shape and floating dtype of `r2`.
        """
        # γr² overflowing to inf is the intended answer: exp(−inf) = 0. The
        # product is formed in float64, so that a γ beyond float32's range
        # still gives exp(−γ·0) = 1.
        with np.errstate(over="ignore"):
            return _in_dtype_of(np.exp(np.multiply(r2, -self.gamma, dtype=np.float64)), r2)

    def profile_derivative(self, r2: np.ndarray) -> np.ndarray:
        r"""Return the derivative :math:`f'(r^2) = -\gamma \exp(-\gamma r^2)` elementwise.

        Parameters
        ----------
        r2 : ndarray
            Squared distances :math:`r^2 = \|x - y\|^2`.

        Returns
        -------
        ndarray
            The derivatives in :math:`r^2`, of the shape and floating dtype of
            `r2`.
        """
        return self._derivative_from_values(self.profile(r2))

    def _derivative_from_values(self, K):
        """``f' = −γ f``, in float64 and cast back (float32 overflows to inf
        when γ lies beyond its range; the solvers treat that as a failed step)."""
        with np.errstate(over="ignore"):
            return _in_dtype_of(np.multiply(K, -self.gamma, dtype=np.float64), K)

    def inverse_profile(self, k: np.ndarray) -> np.ndarray:
        r"""Return the inverse profile :math:`f^{-1}(k) = -\ln(k)/\gamma` elementwise, unchecked.

        See :meth:`~preimage.kernels.RadialKernel.distance2_from_value` for the
        checked map, which clips values outside (0, 1].

        Parameters
        ----------
        k : ndarray
            Kernel values in (0, 1].

        Returns
        -------
        ndarray
            The squared distances :math:`r^2`, of the shape of `k`.
        """
        return -np.log(k) / self.gamma

    def _block(self, X, Y):
        return scaled_squared_distances(X, Y, -self.gamma, out_map=_exp_inplace)

    def block_and_derivative(self, Z: np.ndarray, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        r"""Return the kernel block and the profile's derivative for all pairs.

        The derivative is taken from the block itself, :math:`f' = -\gamma f`:
        one GEMM and one ``exp`` for both.

        Parameters
        ----------
        Z : ndarray of shape (m, d)
            Points, validated by the caller (unchecked, as in
            :meth:`~preimage.kernels.RadialKernel.block_and_derivative`).
        X : ndarray of shape (n, d)
            Second arguments, validated by the caller.

        Returns
        -------
        K : ndarray of shape (m, n)
            The kernel values :math:`\exp(-\gamma \|z_j - x_i\|^2)`.
        D : ndarray of shape (m, n)
            The derivatives :math:`-\gamma K`.
        """
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
    r"""Laplacian kernel, :math:`k(x, y) = \exp(-\gamma \|x - y\|)`.

    Parameters
    ----------
    gamma : float, default=1.0
        Inverse width, > 0.
    norm : {"l1", "l2"}, default="l1"
        ``"l1"`` is scikit-learn's ``laplacian_kernel`` (Manhattan distance);
        ``"l2"`` the Euclidean (exponential) kernel, which is radial.

    Notes
    -----
    The gradient in z is
    :math:`-\gamma\, k(z, x)\, \partial \|z - x\| / \partial z`:
    :math:`\operatorname{sign}(z - x)` for the l1 norm,
    :math:`(z - x)/\|z - x\|_2` for the l2 norm (0 where z = x, a
    subgradient). The inverse map gives the distance
    :math:`\|x - y\| = -\ln(k)/\gamma` in the kernel's own norm.

    References
    ----------
    P. Honeine and C. Richard, "A closed-form solution for the pre-image
    problem in kernel-based machines", J. Signal Processing Systems 65(3),
    2011, Table 1 (the l2 form,
    :math:`\exp(-\|x - y\|/\sigma)`, so :math:`\gamma = 1/\sigma`).

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
        r"""Return the input distance :math:`\|x - y\| = -\ln(k)/\gamma` in the kernel's norm.

        Values outside (0, 1] are clipped with a
        :class:`~preimage.exceptions.NumericalWarning`.

        Parameters
        ----------
        values : array-like
            Kernel values :math:`k(x, y)`.

        Returns
        -------
        ndarray
            The distances, of the shape of `values`.
        """
        values = check_real_array(values, "values")
        bad = (values <= 0) | (values > 1)
        _warn_clipped(int(bad.sum()), "kernel values", "(0, 1]", self)
        with np.errstate(over="ignore"):  # an overflow is refused just below
            out = -np.log(np.clip(values, np.finfo(float).tiny, 1.0)) / self.gamma
        return _check_inverse(out, self, "values")
