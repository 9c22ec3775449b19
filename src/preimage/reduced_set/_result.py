"""The result every reduced-set method returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from preimage._utils.typing import ArrayLike
from preimage._utils.validation import check_array_2d, check_overflow
from preimage.kernels import Kernel
from preimage.kernels._expansion import FeatureExpansion


@dataclass
class ReducedSetResult:
    r"""The approximation of m expansions over one reduced set of p vectors.

    Each expansion :math:`\Psi_k = \sum_{i=1}^n \alpha_{ki} \phi(x_i)` is replaced by

    .. math:: \Psi'_k = \sum_{j=1}^p \beta_{kj} \phi(z_j), \qquad p \ll n,

    so that :math:`\langle \Psi'_k, \phi(x) \rangle` costs p kernel values
    instead of n. The parameters are kept as attributes.

    Parameters
    ----------
    vectors : ndarray of shape (p, d)
        The reduced-set vectors :math:`z_j`, shared by all expansions.
    coef : ndarray of shape (m, p)
        The coefficients :math:`\beta_{kj}`.
    kernel : Kernel
        The kernel of the expansions.
    error : ndarray of shape (m,)
        The feature-space error :math:`\rho_k = \|\Psi_k - \Psi'_k\|^2`.
    norm2 : ndarray of shape (m,)
        The squared norms :math:`\|\Psi_k\|^2`, the scale of the error.
    method : str
        The method that made it (a key of :data:`REDUCED_SET_METHODS`).
    support_indices : ndarray of shape (p,) or None, default=None
        For selection, the rows of the original support that were kept.
    history : dict, default={}
        ``{"n_vectors": (s,), "error": (s, m)}``: the error along the run.
    info : dict, default={}
        Method-specific extras.

    References
    ----------
    Schölkopf et al. (1999), Sec. V.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage import FeatureExpansion
    >>> from preimage.kernels import GaussianKernel
    >>> from preimage.reduced_set import select_kpca
    >>> X = np.array([[0.0], [0.0], [3.0]])            # a duplicated point
    >>> psi = FeatureExpansion([1.0, 1.0, -0.5], X, GaussianKernel(gamma=1.0))
    >>> rs = select_kpca(psi, 2)
    >>> rs.n_vectors, rs.method, rs.coef.round(6)
    (2, 'selection_kpca', array([[ 2. , -0.5]]))
    >>> rs.evaluate([[0.0], [3.0]]).round(4)           # 2 - 0.5 exp(-9), 2 exp(-9) - 0.5
    array([[ 1.9999],
           [-0.4998]])
    """

    vectors: np.ndarray
    coef: np.ndarray
    kernel: Kernel
    error: np.ndarray
    norm2: np.ndarray
    method: str
    support_indices: np.ndarray | None = None
    history: dict[str, Any] = field(default_factory=dict)
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def n_vectors(self) -> int:
        """The number p of reduced-set vectors."""
        return self.vectors.shape[0]

    @property
    def relative_error(self) -> np.ndarray:
        r"""The relative errors :math:`\rho_k / \|\Psi_k\|^2` (0 for a zero expansion)."""
        zero = np.zeros_like(self.error, dtype=float)
        return np.divide(self.error, self.norm2, out=zero, where=self.norm2 > 0)

    def expansion(self) -> FeatureExpansion:
        r"""Return the reduced expansions :math:`\Psi'_k`.

        Returns
        -------
        FeatureExpansion
            The m expansions over the p reduced-set vectors.
        """
        return FeatureExpansion(self.coef, self.vectors, self.kernel)

    def evaluate(self, X: ArrayLike) -> np.ndarray:
        r"""Evaluate the reduced expansions at points.

        .. math:: \langle \Psi'_k, \phi(x) \rangle = \sum_{j=1}^p \beta_{kj} k(z_j, x)

        Parameters
        ----------
        X : array-like of shape (n, d)
            The points.

        Returns
        -------
        ndarray of shape (n, m)
            The value of every expansion at every point.
        """
        X = check_array_2d(X, "X", n_features=self.vectors.shape[1])
        K = self.kernel.block(X, self.vectors, check_input=False, names="'X'")
        with np.errstate(over="ignore", invalid="ignore"):  # refused just below
            values = K @ self.coef.T
        hint = "the kernel values are too large for the coefficients; rescale 'X'"
        return check_overflow(values, "the reduced expansions' values", "'X'", hint)

    def __repr__(self):
        return (
            f"ReducedSetResult(method={self.method!r}, n_vectors={self.n_vectors}, "
            f"n_expansions={self.coef.shape[0]}, "
            f"max relative error={float(np.max(self.relative_error, initial=0)):.3g})"
        )
