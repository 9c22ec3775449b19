"""The result every pre-image method returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from preimage._utils.typing import ArrayLike
from preimage.kernels._expansion import FeatureExpansion
from preimage.solvers._starts import replace_non_finite


@dataclass
class PreimageResult:
    r"""Pre-images of m expansions, with what it took to find them.

    Parameters
    ----------
    x : ndarray of shape (m, d)
        The pre-images.
    distance2 : ndarray of shape (m,)
        Their feature-space residuals :math:`\|\Psi_j - \phi(x_j)\|^2`.
    n_iter : ndarray of shape (m,)
        Iterations spent on each (0 for closed-form methods).
    converged : ndarray of shape (m,)
        Whether each met its stopping criterion (True for closed-form methods).
    message, method : str
        What happened, in words; the method's name.
    info : dict, optional
        Method-specific extras (the fixed point's restarts, MDS neighbours).

    Examples
    --------
    Under the linear kernel the pre-image of :math:`(\phi(0) + \phi(2)) / 2` is 1:

    >>> import numpy as np
    >>> from preimage import PreimageResult
    >>> from preimage import FeatureExpansion
    >>> from preimage.kernels import LinearKernel
    >>> psi = FeatureExpansion([0.5, 0.5], np.array([[0.0], [2.0]]), LinearKernel())
    >>> result = PreimageResult.direct(psi, np.array([[1.0]]), "midpoint", "the mean")
    >>> result.distance2, result.n_iter, result.success
    (array([0.]), array([0]), True)
    """

    x: np.ndarray
    distance2: np.ndarray
    n_iter: np.ndarray
    converged: np.ndarray
    message: str
    method: str
    info: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def direct(
        cls,
        expansion: FeatureExpansion,
        x: ArrayLike,
        method: str,
        message: str,
        info: dict[str, Any] | None = None,
    ) -> PreimageResult:
        """Return the result of a non-iterative method.

        Residuals against `expansion`, 0 iterations, all converged; a
        pre-image that is not finite, or whose residual is not, is replaced by
        the nearest support point, with a NumericalWarning.

        Parameters
        ----------
        expansion : FeatureExpansion
            The m expansions that `x` are pre-images of.
        x : ndarray of shape (m, d)
            The pre-images.
        method : str
            The method's name.
        message : str
            What happened, in words.
        info : dict, optional
            Method-specific extras.

        Returns
        -------
        PreimageResult
            The pre-images with their residuals.
        """
        x, d2 = replace_non_finite(expansion, x)
        n_iter, converged = np.zeros(len(x), dtype=int), np.ones(len(x), dtype=bool)
        return cls(x, d2, n_iter, converged, message, method, {} if info is None else info)

    @property
    def success(self) -> bool:
        """True when every pre-image converged."""
        return bool(np.all(self.converged))

    def __repr__(self):
        return (
            f"PreimageResult(method={self.method!r}, n={len(self.x)}, "
            f"mean distance2={float(np.mean(self.distance2)):.4g}, "
            f"converged={int(np.sum(self.converged))}/{len(self.converged)}, "
            f"message={self.message!r})"
        )
