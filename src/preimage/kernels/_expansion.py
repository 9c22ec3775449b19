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

from preimage._utils.typing import ArrayLike
from preimage._utils.validation import check_array_2d, refuse_overflow
from preimage.kernels import Kernel

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
    r"""Feature-space expansions over one shared support.

    The m expansions

    .. math:: \Psi_j = \sum_{i=1}^n \gamma_{ji}\, \phi(x_i), \qquad j = 1, \dots, m,

    are the answers of kernel machines: a kernel PCA projection, an SVM weight
    vector, a kernel dependency estimate. Every pre-image method takes one and
    looks for a point :math:`z` with :math:`\phi(z) \approx \Psi_j`, minimising
    the residual that the kernel alone evaluates (:meth:`distance2`):

    .. math::

        \|\Psi_j - \phi(z)\|^2 = \gamma_j^\top K \gamma_j
            - 2 \sum_{i=1}^n \gamma_{ji}\, k(x_i, z) + k(z, z),

    with :math:`K_{il} = k(x_i, x_l)` the Gram matrix of the support.

    Parameters
    ----------
    coef : array of shape (m, n) or (n,)
        Coefficients :math:`\gamma_{ji}`; a 1-D array is one expansion.
    support : array of shape (n, d) or None
        The support points :math:`x_i`. None when only a precomputed kernel is
        known; then only :meth:`norm2` is available.
    kernel : Kernel or None
        The kernel :math:`k(x, y) = \langle \phi(x), \phi(y) \rangle` that
        defines :math:`\phi`.
    norm2 : array of shape (m,), optional
        The squared norms :math:`\|\Psi_j\|^2` when the caller knows them in
        closed form (kernel PCA does); otherwise they are computed on first use
        as :math:`\gamma_j^\top K \gamma_j`, streaming over row blocks of
        :math:`K` so that memory stays bounded.

    Attributes
    ----------
    coef : ndarray of shape (m, n)
        The coefficients, one row per expansion.
    support : ndarray of shape (n, d) or None
        The support points.
    kernel : Kernel or None
        The kernel.

    References
    ----------
    S. Mika, B. Schölkopf, A. Smola, K.-R. Müller, M. Scholz and G. Rätsch,
    "Kernel PCA and de-noising in feature spaces", Advances in Neural
    Information Processing Systems 11, 1999 (eq. 7: the residual written with
    the kernel).

    B. Schölkopf, S. Mika, C. J. C. Burges, P. Knirsch, K.-R. Müller,
    G. Rätsch and A. J. Smola, "Input space versus feature space in
    kernel-based methods", IEEE Transactions on Neural Networks 10(5), 1999
    (Sec. IV: feature-space expansions and their pre-images).

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
        r"""Return the images :math:`\phi(z_j)` themselves, as expansions.

        Expansion j has the coefficients :math:`\gamma_{ji} = \delta_{ji}`
        over the support `Z`, so that :math:`\Psi_j = \phi(z_j)`.

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

    # -- shape -----------------------------------------------------------------
    def __len__(self) -> int:
        return self.coef.shape[0]

    @property
    def n_expansions(self) -> int:
        """Number of expansions, m (the rows of `coef`)."""
        return self.coef.shape[0]

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
        r"""Return the squared norms :math:`\|\Psi_j\|^2 = \gamma_j^\top K \gamma_j`.

        They are computed once, over row blocks of the Gram matrix :math:`K`
        so that memory stays bounded, and kept; those given as `norm2` at
        construction are returned as they are.

        Returns
        -------
        ndarray of shape (m,)
            The squared norm of every expansion.
        """
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
        return _refuse_overflow(out, "inner products", "'Z'")

    def inner(self, Z: ArrayLike) -> np.ndarray:
        r"""Return the inner product of each expansion with its own point's image.

        .. math:: \langle \Psi_j, \phi(z_j) \rangle = \sum_{i=1}^n \gamma_{ji}\, k(x_i, z_j).

        Parameters
        ----------
        Z : array of shape (m, d)
            One point :math:`z_j` per expansion.

        Returns
        -------
        ndarray of shape (m,)
            The inner products.
        """
        Z = self._check_paired(Z)
        with np.errstate(over="ignore", invalid="ignore"):  # refused just below
            out = self._inner(Z, self._block(Z, self.support))
        return _refuse_overflow(out, "inner products", "'Z'")

    def _inner(self, Z, K_zx):
        return np.einsum("ji,ji->j", self.coef, K_zx)

    def distance2(
        self, Z: ArrayLike, *, check_input: bool = True, overflow: str = "raise"
    ) -> np.ndarray:
        r"""Return the residuals :math:`\|\Psi_j - \phi(z_j)\|^2`.

        The residual is what every pre-image method minimises:

        .. math::

            \|\Psi_j - \phi(z_j)\|^2 = \|\Psi_j\|^2
                - 2 \sum_{i=1}^n \gamma_{ji}\, k(x_i, z_j) + k(z_j, z_j).

        Rounding can make it slightly negative when :math:`\Psi_j = \phi(z_j)`;
        it is clamped at 0.

        Parameters
        ----------
        Z : array of shape (m, d)
            One point :math:`z_j` per expansion.
        check_input : bool, default=True
            Validate `Z`, as in :meth:`preimage.kernels.Kernel.block`; False
            trusts the caller.
        overflow : {"raise", "ignore"}, default="raise"
            Where the residual is not finite (the kernel overflows at
            :math:`z_j`), ``"raise"`` refuses it with a ValueError naming 'Z'
            and ``"ignore"`` reports it as inf, a point to avoid (the solvers'
            use).

        Returns
        -------
        ndarray of shape (m,)
            The squared feature-space distances.
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
        r"""Return the gradient of each residual in its point.

        .. math::

            \nabla_z \|\Psi_j - \phi(z)\|^2
                = -2 \sum_{i=1}^n \gamma_{ji}\, \nabla_z k(z, x_i) + \nabla_z k(z, z),

        evaluated at :math:`z = z_j`.

        Parameters
        ----------
        Z : array of shape (m, d)
            One point :math:`z_j` per expansion.

        Returns
        -------
        ndarray of shape (m, d)
            The gradients, one row per expansion.
        """
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
