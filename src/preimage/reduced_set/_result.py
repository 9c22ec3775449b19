"""The result every reduced-set method returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._expansion import FeatureExpansion
from .._typing import ArrayLike
from .._validation import check_array_2d, refuse_overflow
from ..kernels import Kernel

__all__ = ["ReducedSetResult"]


@dataclass
class ReducedSetResult:
    """m expansions approximated over one reduced set of p vectors.

    ``Ψ_k = Σ_i α_ki φ(x_i)`` is replaced by ``Ψ'_k = Σ_j β_kj φ(z_j)`` with
    p ≪ n, so that evaluating ``⟨Ψ'_k, φ(x)⟩`` costs p kernel values instead
    of n (Schölkopf et al. 1999, Sec. V).

    Attributes
    ----------
    vectors : ndarray of shape (p, d)
        The reduced-set vectors z_j, shared by all expansions.
    coef : ndarray of shape (m, p)
        The coefficients β (zero where an expansion does not use z_j).
    kernel : Kernel
    error : ndarray of shape (m,)
        The feature-space error ``ρ_k = ‖Ψ_k − Ψ'_k‖²``.
    norm2 : ndarray of shape (m,)
        ``‖Ψ_k‖²``, the scale of the error.
    method : str
        ``"construction"``, ``"selection_kpca"`` or ``"selection_l1"``.
    support_indices : ndarray of shape (p,) or None
        For selection, the rows of the original support that were kept.
    history : dict
        ``{"n_vectors": (s,), "error": (s, m)}``: the error along the run
        (vectors added by construction, removed by kernel PCA selection).
    info : dict
        Method-specific extras (removal order, penalty; the pre-image method
        and its counts of a construction).
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
        """``ρ_k / ‖Ψ_k‖²`` (0 for an expansion that is zero)."""
        return np.divide(
            self.error,
            self.norm2,
            out=np.zeros_like(self.error, dtype=float),
            where=self.norm2 > 0,
        )

    def expansion(self) -> FeatureExpansion:
        """The reduced expansions ``Ψ'_k`` as a :class:`~preimage.FeatureExpansion`."""
        return FeatureExpansion(self.coef, self.vectors, self.kernel)

    def evaluate(self, X: ArrayLike) -> np.ndarray:
        """``⟨Ψ'_k, φ(x)⟩ = Σ_j β_kj k(z_j, x)`` for every point, shape (n, m).

        One kernel block ``k(X, Z)`` of n × p values: this is where the
        speed-up over the original expansion comes from.
        """
        X = check_array_2d(X, "X", n_features=self.vectors.shape[1])
        K = self.kernel.block(X, self.vectors, check_input=False, names="'X'")
        with np.errstate(over="ignore", invalid="ignore"):  # refused just below
            values = K @ self.coef.T
        return refuse_overflow(
            values,
            "the reduced expansions' values",
            "'X'",
            "the kernel values are too large for the coefficients; rescale 'X'",
        )

    def __repr__(self):
        return (
            f"ReducedSetResult(method={self.method!r}, n_vectors={self.n_vectors}, "
            f"n_expansions={self.coef.shape[0]}, "
            f"max relative error={float(np.max(self.relative_error, initial=0)):.3g})"
        )
