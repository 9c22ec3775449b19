"""Dot-product kernels: linear, polynomial and sigmoid."""

from dataclasses import dataclass

import numpy as np

from .._validation import check_positive, check_positive_int, check_real
from ._base import DotProductKernel, _in_dtype_of, _set_params, _warn_clipped

__all__ = ["LinearKernel", "PolynomialKernel", "SigmoidKernel"]


def _scaled(t, gamma, coef0):
    """``γt + c₀`` in float64, where γ may lie beyond float32's range (so that
    ``t = 0`` still gives c₀); callers allow it to overflow to ±inf."""
    return np.multiply(t, gamma, dtype=np.float64) + coef0


@dataclass(frozen=True)
class LinearKernel(DotProductKernel):
    """Linear kernel ``k(x, y) = ⟨x, y⟩``; ``φ`` is the identity.

    With it every pre-image problem has the answer of linear algebra, which
    makes it the reference case of the tests.
    """

    def profile(self, t: np.ndarray) -> np.ndarray:
        return t

    def profile_derivative(self, t: np.ndarray) -> np.ndarray:
        return np.ones_like(t)

    def _block(self, X, Y):
        return X @ Y.T

    def inverse_profile(self, k: np.ndarray) -> np.ndarray:
        return k


@dataclass(frozen=True)
class PolynomialKernel(DotProductKernel):
    """Polynomial kernel ``k(x, y) = (γ ⟨x, y⟩ + c₀)^p``.

    Homogeneous when ``coef0 = 0``: Mika et al. (1999) write ``(x·y)^d``.

    Parameters
    ----------
    degree : int, default=3
        The degree p ≥ 1.
    gamma : float, default=1.0
        Scale of the inner product, > 0.
    coef0 : float, default=1.0
        The constant c₀.

    Notes
    -----
    For odd p the profile is invertible on the real line,
    ``⟨x, y⟩ = (sign(k)|k|^{1/p} − c₀)/γ``, and Schölkopf et al.'s exact
    pre-image applies. For even p it is not (``k`` and ``−k`` have the same
    image under the profile's inverse): :meth:`inner_product_from_value` then
    returns the branch with ``γ⟨x, y⟩ + c₀ ≥ 0``, which is right whenever that
    holds (non-negative data and c₀ ≥ 0, e.g. pixels), and clips negative
    values with a warning.
    """

    degree: int = 3
    gamma: float = 1.0
    coef0: float = 1.0

    # (γ⟨x, y⟩ + c₀)^p of large data exceeds the float range: the profile
    # overflows to inf silently, public blocks refuse it with a named error and
    # the solvers treat it as a failed step.
    may_overflow = True

    def __post_init__(self):
        _set_params(
            self,
            degree=check_positive_int(self.degree, "degree"),
            gamma=check_positive(self.gamma, "gamma"),
            coef0=check_real(self.coef0, "coef0"),
        )

    @property
    def invertible(self) -> bool:  # type: ignore[override]  # a class attribute in the base
        return self.degree % 2 == 1

    def profile(self, t: np.ndarray) -> np.ndarray:
        with np.errstate(over="ignore", invalid="ignore"):
            return _in_dtype_of(_scaled(t, self.gamma, self.coef0) ** self.degree, t)

    def profile_derivative(self, t: np.ndarray) -> np.ndarray:
        with np.errstate(over="ignore", invalid="ignore"):
            base = _scaled(t, self.gamma, self.coef0) ** (self.degree - 1)
            return _in_dtype_of(self.degree * (self.gamma * base), t)

    def _profile_inplace(self, block):
        with np.errstate(over="ignore", invalid="ignore"):
            np.multiply(block, self.gamma, out=block, dtype=np.float64, casting="same_kind")
            np.add(block, self.coef0, out=block, dtype=np.float64, casting="same_kind")
            if self.degree != 1:
                np.power(block, self.degree, out=block)

    def inverse_profile(self, k: np.ndarray) -> np.ndarray:
        p = self.degree
        if p % 2 == 1:
            root = np.sign(k) * np.abs(k) ** (1.0 / p)
        else:
            _warn_clipped(int((k < 0).sum()), "kernel values", "[0, inf)", self)
            root = np.clip(k, 0, None) ** (1.0 / p)
        return (root - self.coef0) / self.gamma


@dataclass(frozen=True)
class SigmoidKernel(DotProductKernel):
    """Sigmoid kernel ``k(x, y) = tanh(γ ⟨x, y⟩ + c₀)``.

    Not positive definite for all parameters, but invertible:
    ``⟨x, y⟩ = (artanh(k) − c₀)/γ`` for ``|k| < 1`` (Schölkopf et al. 1999,
    Prop. 2). Values at or beyond ±1 are clipped with a warning.
    """

    gamma: float = 1.0
    coef0: float = 1.0

    def __post_init__(self):
        _set_params(
            self, gamma=check_positive(self.gamma, "gamma"), coef0=check_real(self.coef0, "coef0")
        )

    def profile(self, t: np.ndarray) -> np.ndarray:
        # γt overflowing to ±inf is the intended answer here: tanh(±inf) = ±1.
        with np.errstate(over="ignore"):
            return _in_dtype_of(np.tanh(_scaled(t, self.gamma, self.coef0)), t)

    def profile_derivative(self, t: np.ndarray) -> np.ndarray:
        with np.errstate(over="ignore"):
            s = np.tanh(_scaled(t, self.gamma, self.coef0))
            return _in_dtype_of(self.gamma * (1 - s * s), t)

    def inverse_profile(self, k: np.ndarray) -> np.ndarray:
        _warn_clipped(int((np.abs(k) >= 1).sum()), "kernel values", "(-1, 1)", self)
        limit = np.nextafter(1.0, 0.0)
        return (np.arctanh(np.clip(k, -limit, limit)) - self.coef0) / self.gamma
