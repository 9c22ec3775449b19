"""Feature-space expansions ``Ψ_j = Σ_i γ_ji φ(x_i)``.

Kernel machines give their answers as such expansions: a kernel PCA projection,
an SVM weight vector, a kernel dependency estimate. Every pre-image method
takes one and looks for z with ``φ(z) ≈ Ψ``, minimising

    ‖Ψ − φ(z)‖² = γᵀKγ − 2 Σ_i γ_i k(x_i, z) + k(z, z),

which :meth:`FeatureExpansion.distance2` evaluates through the kernel alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ._typing import ArrayLike
from ._validation import check_array_2d, refuse_overflow
from .kernels import Kernel

__all__ = ["FeatureExpansion"]


def _refuse_overflow(values, what, name):
    """Refuse feature-space quantities beyond the float range, naming the
    argument that put them there."""
    return refuse_overflow(
        values,
        f"the feature-space {what}",
        name,
        f"the kernel or the coefficients are too large there; rescale {name}",
    )


class FeatureExpansion:
    """m expansions ``Ψ_j = Σ_i γ_ji φ(x_i)`` over one shared support.

    Parameters
    ----------
    coef : array of shape (m, n) or (n,)
        Coefficients γ; a 1-D array is one expansion.
    support : array of shape (n, d), or None
        The support points x_i. None when only a precomputed kernel is known;
        then only :meth:`norm2` is available.
    kernel : Kernel or None
        The kernel defining φ.
    norm2 : array of shape (m,), optional
        ``‖Ψ_j‖²`` when the caller knows it in closed form (kernel PCA does);
        otherwise it is computed on first use as ``γᵀKγ``, streaming over row
        blocks of K so that memory stays bounded.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage import FeatureExpansion
    >>> from preimage.kernels import GaussianKernel
    >>> X = np.array([[0.0], [1.0]])
    >>> psi = FeatureExpansion([0.5, 0.5], X, GaussianKernel(gamma=1.0))
    >>> z = np.array([[0.5]])           # the midpoint
    >>> float(np.round(psi.distance2(z)[0], 4))   # 0.25(2 + 2e⁻¹) − 2e^(−1/4) + 1
    0.1263
    """

    coef: np.ndarray
    # The support points and kernel, or None for an expansion of a precomputed
    # kernel (the methods that need them call _require_kernel first).
    support: Any
    kernel: Any

    def __init__(
        self,
        coef: ArrayLike,
        support: ArrayLike | None,
        kernel: Kernel | None,
        *,
        norm2: ArrayLike | None = None,
    ) -> None:
        try:
            coef = np.asarray(coef)
        except ValueError as exc:  # ragged nested lists
            raise ValueError(f"'coef' must be an array of numbers: {exc}") from None
        if coef.ndim == 1:
            coef = coef[None, :]
        self.coef = check_array_2d(coef, "coef")
        if support is not None:
            support = check_array_2d(support, "support")
            if support.shape[0] != self.coef.shape[1]:
                raise ValueError(
                    f"'coef' has {self.coef.shape[1]} columns but 'support' has "
                    f"{support.shape[0]} points; they must match"
                )
            if not isinstance(kernel, Kernel):
                raise ValueError(f"'kernel' must be a preimage Kernel, got {kernel!r}")
            kernel.diag(support, check_input=False, names="'support'")  # refuses k(x, x) = inf
        self.support = support
        self.kernel = kernel
        if norm2 is not None:
            try:
                norm2 = np.asarray(norm2, dtype=float)
            except (TypeError, ValueError):
                raise TypeError(f"'norm2' must hold real numbers, got {norm2!r}") from None
            if norm2.shape != (self.coef.shape[0],) or not np.isfinite(norm2).all():
                raise ValueError(
                    f"'norm2' must be a finite array of shape ({self.coef.shape[0]},), got "
                    f"shape {norm2.shape}"
                )
        self._norm2 = norm2

    @classmethod
    def of_points(cls, Z: ArrayLike, kernel: Kernel) -> FeatureExpansion:
        """The images ``φ(z_j)`` themselves: identity coefficients over Z."""
        Z = check_array_2d(Z, "Z")
        return cls(np.eye(Z.shape[0], dtype=Z.dtype), Z, kernel)

    # -- shape -----------------------------------------------------------------
    def __len__(self) -> int:
        return self.coef.shape[0]

    @property
    def n_expansions(self) -> int:
        return self.coef.shape[0]

    @property
    def n_support(self) -> int:
        return self.coef.shape[1]

    @property
    def n_features(self) -> int | None:
        return None if self.support is None else self.support.shape[1]

    def __getitem__(self, index: int | slice | Sequence[int] | np.ndarray) -> FeatureExpansion:
        """The sub-collection of expansions selected by `index`."""
        index = np.arange(len(self))[index]
        index = np.atleast_1d(index)
        # Parts of a validated expansion: nothing to check again (the solvers
        # take one expansion at a time, over a support of any size).
        sub = object.__new__(FeatureExpansion)
        sub.coef, sub.support, sub.kernel = self.coef[index], self.support, self.kernel
        sub._norm2 = None if self._norm2 is None else self._norm2[index]
        return sub

    def __repr__(self):
        return (
            f"FeatureExpansion(n_expansions={self.n_expansions}, "
            f"n_support={self.n_support}, kernel={self.kernel!r})"
        )

    # -- feature-space quantities ----------------------------------------------
    def _require_kernel(self):
        if self.support is None:
            raise ValueError(
                "this expansion has no support points or kernel (it came from a "
                "precomputed kernel), so it cannot be evaluated at new points"
            )

    def norm2(self) -> np.ndarray:
        """``‖Ψ_j‖² = γ_jᵀ K γ_j`` for every expansion, shape (m,)."""
        if self._norm2 is None:
            self._require_kernel()
            total = np.zeros(self.n_expansions)
            blocks = self.kernel.blocks(self.support, check_input=False, overflow="ignore")
            with np.errstate(over="ignore", invalid="ignore"):  # refused just below
                for rows, K_rows in blocks:
                    total += np.einsum("ji,ji->j", self.coef[:, rows], self.coef @ K_rows.T)
            _refuse_overflow(total, "squared norms ‖Ψ‖² = γᵀKγ", "'coef'")
            self._norm2 = total
        return self._norm2

    def cross(self, Z: ArrayLike) -> np.ndarray:
        """``⟨Ψ_j, φ(z_k)⟩ = Σ_i γ_ji k(x_i, z_k)`` for all pairs, shape (m, p)."""
        self._require_kernel()
        Z = check_array_2d(Z, "Z", n_features=self.n_features)
        with np.errstate(over="ignore", invalid="ignore"):  # refused just below
            out = self.coef @ self._block(self.support, Z)
        return _refuse_overflow(out, "inner products", "'Z'")

    def inner(self, Z: ArrayLike) -> np.ndarray:
        """``⟨Ψ_j, φ(z_j)⟩``: each expansion with its own point, shape (m,)."""
        Z = self._check_paired(Z)
        with np.errstate(over="ignore", invalid="ignore"):  # refused just below
            out = self._inner(Z, self._block(Z, self.support))
        return _refuse_overflow(out, "inner products", "'Z'")

    def _inner(self, Z, K_zx):
        return np.einsum("ji,ji->j", self.coef, K_zx)

    def distance2(
        self, Z: ArrayLike, *, check_input: bool = True, overflow: str = "raise"
    ) -> np.ndarray:
        """``‖Ψ_j − φ(z_j)‖²``, the residual every pre-image method minimises.

        Rounding can make it slightly negative when Ψ_j = φ(z_j); it is clamped
        at 0. `check_input` as in :meth:`~preimage.kernels.Kernel.block`; where the residual is
        not finite (the kernel overflows at z), ``overflow="raise"`` refuses it
        naming 'Z' and ``"ignore"`` reports it as inf, a point to avoid (the
        solvers' use).
        """
        Z = self._check_paired(Z) if check_input else Z
        norm2 = self.norm2()
        with np.errstate(over="ignore", invalid="ignore"):
            K_zx = self._block(Z, self.support)
            d2 = (
                norm2
                - 2 * self._inner(Z, K_zx)
                + self.kernel.diag(Z, check_input=False, overflow="ignore")
            )
        if overflow != "ignore":
            return _refuse_overflow(np.maximum(d2, 0.0), "squared distances", "'Z'")
        return np.where(np.isfinite(d2), np.maximum(d2, 0.0), np.inf)

    def distance2_gradient(self, Z: ArrayLike) -> np.ndarray:
        """Gradient of ``‖Ψ_j − φ(z_j)‖²`` in z_j, shape (m, d):
        ``−2 Σ_i γ_ji ∇k(z_j, x_i) + ∇k(z_j, z_j)``."""
        Z = self._check_paired(Z)
        kernel = self.kernel
        with np.errstate(over="ignore", invalid="ignore"):  # refused just below
            G = -2 * kernel.gradient(
                Z, self.support, self.coef, check_input=False, overflow="ignore"
            ) + kernel.diag_gradient(Z, check_input=False, overflow="ignore")
        return _refuse_overflow(G, "gradients", "'Z'")

    def _block(self, A, B):
        """The unchecked kernel block: the quantities built on it are checked."""
        return self.kernel.block(A, B, check_input=False, overflow="ignore")

    def _check_paired(self, Z):
        self._require_kernel()
        Z = check_array_2d(Z, "Z", n_features=self.n_features)
        if Z.shape[0] != self.n_expansions:
            raise ValueError(
                f"'Z' must hold one point per expansion ({self.n_expansions}), got "
                f"{Z.shape[0]}; use cross() for all pairs"
            )
        return Z
