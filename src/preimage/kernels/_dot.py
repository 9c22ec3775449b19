"""Dot-product kernels: their base class DotProductKernel, linear, polynomial and sigmoid."""

from dataclasses import dataclass

import numpy as np

from preimage._utils.typing import ArrayLike
from preimage._utils.validation import check_positive, check_positive_int, check_real
from preimage.kernels._base import ProfileKernel, _in_dtype, _inverse, _warn_clipped
from preimage.kernels._docs import fill
from preimage.kernels._pairwise import map_rows_inplace, squared_norms


@fill
class DotProductKernel(ProfileKernel):
    r"""Base class of the dot-product kernels, :math:`k(x, y) = f(\langle x, y \rangle)`.

    The gradient is :math:`\nabla_z k(z, x) = f'(\langle z, x \rangle)\, x`.
    :meth:`inner_product_from_value` inverts f, the basis of the exact
    pre-image: if :math:`\Psi = \sum_i \gamma_i \phi(x_i)` has one, then
    for an orthonormal basis :math:`(e_j)` of the input space

    .. math:: z = \sum_j f^{-1}\Big(\sum_i \gamma_i k(x_i, e_j)\Big)\, e_j.

    References
    ----------
    Schölkopf et al. (1999), Sec. IV-A.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.kernels import PolynomialKernel
    >>> k = PolynomialKernel(degree=3, gamma=1.0, coef0=0.0)
    >>> K = k(np.array([[1.0, 1.0]]), np.array([[2.0, 0.0]]))
    >>> K  # <x, y> = 2
    array([[8.]])
    >>> k.inner_product_from_value(K)
    array([[2.]])
    """

    #: The profile f is invertible on the whole real line (odd polynomial, sigmoid, linear).
    invertible = True

    def _block(self, X, Y):
        return map_rows_inplace(self._profile_inplace, self._argument(X, Y))

    def _profile_inplace(self, block, rows):
        block[...] = self.profile(block)

    def _diag(self, X):
        return self.profile(squared_norms(X))

    def _argument(self, X, Y):
        return X @ Y.T

    def _xp_block(self, X, Y, xp):
        return self._xp_profile(X @ Y.T, xp)

    def _xp_diag(self, X, xp):
        return self._xp_profile(xp.sum(X * X, axis=1), xp)

    def _gradient(self, Z, X, weights):
        D = self.profile_derivative(Z @ X.T)
        return D[:, :, None] * X[None, :, :] if weights is None else (D * weights) @ X

    def _diag_gradient(self, Z):
        return 2 * self.profile_derivative(squared_norms(Z))[:, None] * Z

    def inner_product_from_value(self, values: ArrayLike) -> np.ndarray:
        r"""Return the input inner product :math:`\langle x, y \rangle = f^{-1}(k(x, y))`.

        Values outside the range of f are clipped with a warning; where f is
        not invertible (:attr:`invertible`), one branch is returned.
        %(values)s
        """
        return _inverse(self, values, "values", self.inverse_profile)


def _scaled(t, gamma, coef0):
    """``γt + c₀`` in float64 (γ may lie beyond float32's range); it may overflow."""
    return np.multiply(t, gamma, dtype=np.float64) + coef0


@fill
@dataclass(frozen=True)
class LinearKernel(DotProductKernel):
    r"""Linear kernel, :math:`k(x, y) = \langle x, y \rangle`.

    The feature map is the identity: the exact pre-image of
    :math:`\sum_i \gamma_i \phi(x_i)` is :math:`\sum_i \gamma_i x_i`.

    References
    ----------
    Schölkopf et al. (1999), Sec. IV-A.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.kernels import LinearKernel
    >>> k = LinearKernel()
    >>> k(np.array([[1.0, 2.0]]), np.array([[3.0, 4.0], [1.0, 0.0]]))
    array([[11.,  1.]])
    """

    def profile(self, t: np.ndarray) -> np.ndarray:
        """Return the profile :math:`f(t) = t`.
        %(t)s
        """
        return t

    def profile_derivative(self, t: np.ndarray) -> np.ndarray:
        """Return the derivative :math:`f'(t) = 1` elementwise.
        %(t)s
        """
        return np.ones_like(t)

    def _block(self, X, Y):
        return X @ Y.T

    def _xp_profile(self, t, xp):
        return t

    def _xp_derivative(self, t, xp):
        return xp.ones_like(t)

    def inverse_profile(self, k: np.ndarray) -> np.ndarray:
        """Return the inverse profile :math:`f^{-1}(k) = k`.
        %(k)s
        """
        return k


@fill
@dataclass(frozen=True)
class PolynomialKernel(DotProductKernel):
    r"""Polynomial kernel, :math:`k(x, y) = (\gamma \langle x, y \rangle + c_0)^p`.

    Parameters
    ----------
    %(degree)s
    %(gamma_dot)s
    %(coef0)s

    Notes
    -----
    For even p, :meth:`inner_product_from_value` returns the branch with
    :math:`\gamma \langle x, y \rangle + c_0 \ge 0` (right for non-negative data).

    References
    ----------
    Mika et al. (1999), Sec. 1.
    Schölkopf et al. (1999), Sec. IV-A.
    Honeine and Richard (2011), Table 1.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.kernels import PolynomialKernel
    >>> k = PolynomialKernel(degree=2, gamma=1.0, coef0=1.0)
    >>> k(np.array([[1.0, 2.0]]), np.array([[1.0, 1.0]]))  # (3 + 1)^2
    array([[16.]])
    >>> k.inner_product_from_value(np.array([16.0]))  # the branch 3 + 1 = +4
    array([3.])
    """

    degree: int = 3
    gamma: float = 1.0
    coef0: float = 1.0

    # (γ⟨x, y⟩ + c₀)^p of large data overflows: public blocks refuse it by name.
    may_overflow = True

    _checks = {"degree": check_positive_int, "gamma": check_positive, "coef0": check_real}

    @property
    def invertible(self) -> bool:  # type: ignore[override]  # a class attribute in the base
        """Whether the profile is invertible on the whole real line (odd degree)."""
        return self.degree % 2 == 1

    def profile(self, t: np.ndarray) -> np.ndarray:
        r"""Return the profile :math:`f(t) = (\gamma t + c_0)^p` elementwise (inf where it overflows).
        %(t)s
        """
        with np.errstate(over="ignore", invalid="ignore"):
            return _in_dtype(_scaled(t, self.gamma, self.coef0) ** self.degree, t)

    def profile_derivative(self, t: np.ndarray) -> np.ndarray:
        r"""Return the derivative :math:`f'(t) = p \gamma (\gamma t + c_0)^{p-1}` elementwise.
        %(t)s
        """
        with np.errstate(over="ignore", invalid="ignore"):
            base = _scaled(t, self.gamma, self.coef0) ** (self.degree - 1)
            return _in_dtype(self.degree * (self.gamma * base), t)

    def _xp_profile(self, t, xp):
        return (self.gamma * t + self.coef0) ** self.degree

    def _xp_derivative(self, t, xp):
        return self.degree * self.gamma * (self.gamma * t + self.coef0) ** (self.degree - 1)

    def _profile_inplace(self, block, rows):
        with np.errstate(over="ignore", invalid="ignore"):
            np.multiply(block, self.gamma, out=block, dtype=np.float64, casting="same_kind")
            np.add(block, self.coef0, out=block, dtype=np.float64, casting="same_kind")
            if self.degree != 1:
                np.power(block, self.degree, out=block)

    def inverse_profile(self, k: np.ndarray) -> np.ndarray:
        r"""Return :math:`f^{-1}(k) = (k^{1/p} - c_0)/\gamma`, the real root.

        For even p, the non-negative root; negative k are clipped to 0 with a warning.
        %(k)s
        """
        p = self.degree
        if p % 2 == 1:
            root = np.sign(k) * np.abs(k) ** (1.0 / p)
        else:
            _warn_clipped(int((k < 0).sum()), "kernel values", "[0, inf)", self)
            root = np.clip(k, 0, None) ** (1.0 / p)
        return (root - self.coef0) / self.gamma


@fill
@dataclass(frozen=True)
class SigmoidKernel(DotProductKernel):
    r"""Sigmoid kernel, :math:`k(x, y) = \tanh(\gamma \langle x, y \rangle + c_0)`.

    Not positive definite for all parameters, but invertible.

    Parameters
    ----------
    %(gamma_dot)s
    %(coef0)s

    References
    ----------
    Schölkopf et al. (1999), Sec. IV-A.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.kernels import SigmoidKernel
    >>> k = SigmoidKernel(gamma=1.0, coef0=0.0)
    >>> K = k(np.array([[0.5, 0.0]]), np.array([[1.0, 3.0]]))  # tanh(0.5)
    >>> np.round(K, 4)
    array([[0.4621]])
    >>> np.round(k.inner_product_from_value(K), 12)
    array([[0.5]])
    """

    gamma: float = 1.0
    coef0: float = 1.0

    _checks = {"gamma": check_positive, "coef0": check_real}

    def profile(self, t: np.ndarray) -> np.ndarray:
        r"""Return the profile :math:`f(t) = \tanh(\gamma t + c_0)` elementwise.
        %(t)s
        """
        # γt overflowing to ±inf is the intended answer here: tanh(±inf) = ±1.
        with np.errstate(over="ignore"):
            return _in_dtype(np.tanh(_scaled(t, self.gamma, self.coef0)), t)

    def profile_derivative(self, t: np.ndarray) -> np.ndarray:
        r"""Return the derivative :math:`f'(t) = \gamma (1 - \tanh^2(\gamma t + c_0))` elementwise.
        %(t)s
        """
        with np.errstate(over="ignore"):
            s = np.tanh(_scaled(t, self.gamma, self.coef0))
            return _in_dtype(self.gamma * (1 - s * s), t)

    def _xp_profile(self, t, xp):
        return xp.tanh(self.gamma * t + self.coef0)

    def _xp_derivative(self, t, xp):
        return self.gamma * (1 - xp.tanh(self.gamma * t + self.coef0) ** 2)

    def inverse_profile(self, k: np.ndarray) -> np.ndarray:
        r"""Return :math:`f^{-1}(k) = (\operatorname{artanh}(k) - c_0)/\gamma`.

        Values at or beyond :math:`\pm 1` are clipped inside (-1, 1) with a warning.
        %(k)s
        """
        _warn_clipped(int((np.abs(k) >= 1).sum()), "kernel values", "(-1, 1)", self)
        limit = np.nextafter(1.0, 0.0)
        return (np.arctanh(np.clip(k, -limit, limit)) - self.coef0) / self.gamma
