"""The result every pre-image method returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._expansion import FeatureExpansion
from .._typing import ArrayLike
from ._starts import replace_non_finite

__all__ = ["PreimageResult"]


@dataclass
class PreimageResult:
    """Pre-images of m expansions, with what it took to find them.

    Attributes
    ----------
    x : ndarray of shape (m, d)
        The pre-images.
    distance2 : ndarray of shape (m,)
        Their feature-space residuals ``‖Ψ_j − φ(x_j)‖²``.
    n_iter : ndarray of shape (m,)
        Iterations spent on each (0 for closed-form methods).
    converged : ndarray of shape (m,)
        Whether each met its stopping criterion (True for closed-form methods).
    message : str
        What happened, in words.
    method : str
        The method's name.
    info : dict
        Method-specific extras (e.g. restarts of the fixed point, the MDS
        neighbours).
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
        """The result of a non-iterative method: residuals of `x` against
        `expansion`, no iterations, every point counted as converged."""
        x, d2 = replace_non_finite(expansion, x)
        n = len(x)
        return cls(
            x,
            d2,
            np.zeros(n, dtype=int),
            np.ones(n, dtype=bool),
            message,
            method,
            {} if info is None else info,
        )

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
