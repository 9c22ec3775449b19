"""Feature-space expansions ``Ψ_j = Σ_i γ_ji φ(x_i)``, the answers of kernel machines."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from preimage._utils.typing import ArrayLike
from preimage._utils.validation import check_array_2d, check_overflow
from preimage._utils.xp import check_xp_2d, namespace
from preimage.kernels import Kernel
from preimage.kernels._docs import fill


def _check_overflow(values, what, name):
    """Refuse feature-space quantities beyond the float range, naming the argument."""
    hint = f"the kernel or the coefficients are too large there; rescale {name}"
    return check_overflow(values, f"the feature-space {what}", name, hint)


@fill
class FeatureExpansion:
    r"""Feature-space expansions over one shared support.

    .. math:: \Psi_j = \sum_{i=1}^n \gamma_{ji}\, \phi(x_i), \qquad j = 1, \dots, m.

    A pre-image z of :math:`\Psi_j` minimises the residual (:meth:`distance2`):

    .. math::

        \|\Psi_j - \phi(z)\|^2 = \gamma_j^\top K \gamma_j
            - 2 \sum_{i=1}^n \gamma_{ji}\, k(x_i, z) + k(z, z).

    Parameters
    ----------
    coef : array of shape (m, n) or (n,)
        Coefficients :math:`\gamma_{ji}`; 1-D is one expansion.
    support : array of shape (n, d) or None
        The points :math:`x_i`; None for a precomputed kernel (only :meth:`norm2`).
    kernel : Kernel or None
        The kernel that defines :math:`\phi`.
    norm2 : array of shape (m,), optional
        The squared norms :math:`\|\Psi_j\|^2` if known; otherwise computed on first use.

    References
    ----------
    Mika et al. (1999), eq. 7.
    Schölkopf et al. (1999), Sec. IV.

    Examples
    --------
    The midpoint of two points is no pre-image of the mean of their images:

    >>> import numpy as np
    >>> from preimage import FeatureExpansion
    >>> from preimage.kernels import GaussianKernel
    >>> X = np.array([[0.0], [1.0]])
    >>> psi = FeatureExpansion([0.5, 0.5], X, GaussianKernel(gamma=1.0))
    >>> z = np.array([[0.5]])
    >>> float(np.round(psi.distance2(z)[0], 4))  # 0.5 + 0.5 exp(-1) - 2 exp(-1/4) + 1
    0.1263
    """

    coef: np.ndarray
    # None for an expansion of a precomputed kernel (see _require_kernel).
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
        xp = namespace(coef, support)
        if xp is not None:  # array API dispatch: checked in their namespace, on their device
            c = xp.asarray(coef)
            self.coef = check_xp_2d(c[None, :] if c.ndim == 1 else c, "coef", xp)
            self.support = check_xp_2d(support, "support", xp, n_features=None)
            if self.support.shape[0] != self.coef.shape[1] or not isinstance(kernel, Kernel):
                raise ValueError(
                    "'coef' must have one column per point of 'support', and "
                    "'kernel' be a preimage Kernel"
                )
            self.kernel, self._norm2 = kernel, None if norm2 is None else xp.asarray(norm2)
            return
        try:
            coef = np.asarray(coef)
        except ValueError as exc:  # ragged nested lists
            raise ValueError(f"'coef' must be an array of numbers: {exc}") from None
        self.coef = check_array_2d(coef[None, :] if coef.ndim == 1 else coef, "coef")
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
        self.support, self.kernel = support, kernel
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
        r"""Return the images :math:`\phi(z_j)` as expansions (coefficients :math:`\delta_{ji}`).

        Parameters
        ----------
        Z : array of shape (m, d)
            The points :math:`z_j`.
        kernel : Kernel
            The kernel that defines :math:`\phi`.

        Returns
        -------
        FeatureExpansion
            The m expansions, with the identity matrix as coefficients.
        """
        Z = check_array_2d(Z, "Z")
        return cls(np.eye(Z.shape[0], dtype=Z.dtype), Z, kernel)

    def __len__(self) -> int:
        """Number of expansions, m (the rows of `coef`)."""
        return self.coef.shape[0]

    n_expansions = property(__len__)

    @property
    def n_support(self) -> int:
        """Number of support points, n (the columns of `coef`)."""
        return self.coef.shape[1]

    @property
    def n_features(self) -> int | None:
        """Dimension d of the support points; None without support points."""
        return None if self.support is None else self.support.shape[1]

    def __getitem__(self, index: int | slice | Sequence[int] | np.ndarray) -> FeatureExpansion:
        """The sub-collection of expansions selected by `index`."""
        index = np.atleast_1d(np.arange(len(self))[index])
        # Parts of a validated expansion: nothing to check again.
        sub = object.__new__(FeatureExpansion)
        sub.coef, sub.support, sub.kernel = self.coef[index], self.support, self.kernel
        sub._norm2 = None if self._norm2 is None else self._norm2[index]
        return sub

    def __repr__(self):
        return (
            f"FeatureExpansion(n_expansions={self.n_expansions}, "
            f"n_support={self.n_support}, kernel={self.kernel!r})"
        )

    def _require_kernel(self):
        if self.support is None:
            raise ValueError(
                "this expansion has no support points or kernel (it came from a "
                "precomputed kernel), so it cannot be evaluated at new points"
            )

    def norm2(self) -> np.ndarray:
        r"""Return the squared norms :math:`\|\Psi_j\|^2 = \gamma_j^\top K \gamma_j`, computed once.

        Returns
        -------
        ndarray of shape (m,)
            The squared norm of every expansion.
        """
        xp = namespace(self.coef)
        if self._norm2 is None and xp is not None:
            K = self.kernel.block(self.support, check_input=False)
            self._norm2 = xp.sum((self.coef @ K) * self.coef, axis=1)
        if self._norm2 is None:
            self._require_kernel()
            total = np.zeros(self.n_expansions)
            blocks = self.kernel.blocks(self.support, check_input=False, overflow="ignore")
            with np.errstate(over="ignore", invalid="ignore"):  # refused just below
                for rows, K_rows in blocks:
                    total += np.einsum("ji,ji->j", self.coef[:, rows], self.coef @ K_rows.T)
            self._norm2 = _check_overflow(total, "squared norms ‖Ψ‖² = γᵀKγ", "'coef'")
        return self._norm2

    def cross(self, Z: ArrayLike) -> np.ndarray:
        r"""Return the inner products of every expansion with every point's image.

        .. math:: \langle \Psi_j, \phi(z_k) \rangle = \sum_{i=1}^n \gamma_{ji}\, k(x_i, z_k).

        Parameters
        ----------
        Z : array of shape (p, d)
            The points :math:`z_k`.

        Returns
        -------
        ndarray of shape (m, p)
            The inner products, one row per expansion.
        """
        self._require_kernel()
        Z = check_array_2d(Z, "Z", n_features=self.n_features)
        with np.errstate(over="ignore", invalid="ignore"):  # refused just below
            out = self.coef @ self._block(self.support, Z)
        return _check_overflow(out, "inner products", "'Z'")

    def inner(self, Z: ArrayLike) -> np.ndarray:
        r"""Return the inner product of each expansion with its own point's image.

        .. math:: \langle \Psi_j, \phi(z_j) \rangle = \sum_{i=1}^n \gamma_{ji}\, k(x_i, z_j).

        Parameters
        ----------
        %(Z_paired)s

        Returns
        -------
        ndarray of shape (m,)
            The inner products.
        """
        Z = self._check_paired(Z)
        with np.errstate(over="ignore", invalid="ignore"):  # refused just below
            out = np.einsum("ji,ji->j", self.coef, self._block(Z, self.support))
        return _check_overflow(out, "inner products", "'Z'")

    def distance2(
        self, Z: ArrayLike, *, check_input: bool = True, overflow: str = "raise"
    ) -> np.ndarray:
        r"""Return the residuals :math:`\|\Psi_j - \phi(z_j)\|^2`.

        .. math::

            \|\Psi_j - \phi(z_j)\|^2 = \|\Psi_j\|^2
                - 2 \sum_{i=1}^n \gamma_{ji}\, k(x_i, z_j) + k(z_j, z_j),

        clamped at 0 (rounding).

        Parameters
        ----------
        %(Z_paired)s
        %(check_input)s
        overflow : {"raise", "ignore"}, default="raise"
            A residual that is not finite raises a ValueError, or is inf (``"ignore"``).

        Returns
        -------
        ndarray of shape (m,)
            The squared feature-space distances.
        """
        Z = self._check_paired(Z) if check_input else Z
        norm2 = self.norm2()
        with np.errstate(over="ignore", invalid="ignore"):
            diag = self.kernel.diag(Z, check_input=False, overflow="ignore")
            d2 = norm2 - 2 * np.einsum("ji,ji->j", self.coef, self._block(Z, self.support)) + diag
        if overflow != "ignore":
            return _check_overflow(np.maximum(d2, 0.0), "squared distances", "'Z'")
        return np.where(np.isfinite(d2), np.maximum(d2, 0.0), np.inf)

    def distance2_gradient(self, Z: ArrayLike) -> np.ndarray:
        r"""Return the gradient of each residual in its point.

        .. math::

            \nabla_z \|\Psi_j - \phi(z)\|^2
                = -2 \sum_{i=1}^n \gamma_{ji}\, \nabla_z k(z, x_i) + \nabla_z k(z, z),

        evaluated at :math:`z = z_j`.

        Parameters
        ----------
        %(Z_paired)s

        Returns
        -------
        ndarray of shape (m, d)
            The gradients, one row per expansion.
        """
        Z, kernel = self._check_paired(Z), self.kernel
        with np.errstate(over="ignore", invalid="ignore"):  # refused just below
            G = kernel.gradient(Z, self.support, self.coef, check_input=False, overflow="ignore")
            G = -2 * G + kernel.diag_gradient(Z, check_input=False, overflow="ignore")
        return _check_overflow(G, "gradients", "'Z'")

    def _block(self, A, B):
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
