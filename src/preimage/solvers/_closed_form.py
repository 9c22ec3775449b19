"""The closed-form pre-image of Honeine & Richard (2011)."""

from __future__ import annotations

from typing import Any, Self

import numpy as np
from scipy import linalg

from .._eigen import full_eigh
from .._expansion import FeatureExpansion
from .._typing import ArrayLike
from .._validation import check_positive, checked_gram, refuse_overflow
from .._warnings import warn
from ..exceptions import NumericalWarning
from ..kernels import Kernel
from ..kpca import check_coordinates
from ._base import PreimageSolver
from ._result import PreimageResult

__all__ = ["ClosedFormPreimage"]


class ClosedFormPreimage(PreimageSolver):
    """Honeine & Richard's pre-image, learned once from the support points.

    A coordinate system in feature space is fitted so that its inner products
    match those of input space on the training points, which gives the
    pre-image of any expansion ``Ψ = Σ γ_i φ(x_i)`` as the least-squares
    solution of (their eq. 7, 8)

        Xᵀ x* = (P − λ K⁻¹) γ,

    with ``X = [x_1 … x_n]`` (d × n), ``P = XᵀX`` and K the Gram matrix. Hence
    ``x* = M γ`` with ``M = (Xᵀ)⁺ (P − λ K⁻¹)`` computed once (their eq. 9,
    ``M = X P⁻¹ (P − λK⁻¹)`` for independent training points), and all
    pre-images at once are ``X* = M Γ``.

    Parameters
    ----------
    alpha : float, default=1e-9
        λ ≥ 0 (the paper uses 1e-9 on MNIST). As λ → 0, ``x* → Σ γ_i x_i``.

    Notes
    -----
    ``K⁻¹`` and ``(Xᵀ)⁺`` are pseudo-inverses (eigen- and SVD-based), so
    singular Gram matrices and dependent training points are handled. Since
    ``(Xᵀ)⁺ P = Xᵀ`` projected on the span of the x_i, ``M = X − λ (Xᵀ)⁺ K⁺``.

    From kernel PCA coordinates (:meth:`solve_coordinates`) the expansion's
    coefficients are ``A(y + c)`` (principal part) or ``Ay + m_μ`` (with the
    mean), so ``x* = MΓ`` is ``(MA)(y + c)`` or ``(MA)y + Mm_μ``: with ``MA``
    (d × q) computed once, a pre-image costs O(dq) instead of O(nd).

    References
    ----------
    P. Honeine, C. Richard. A closed-form solution for the pre-image problem in
    kernel-based machines. J. Signal Processing Systems 65, 2011.
    """

    name = "closed_form"
    _coordinate_maps: tuple[np.ndarray, np.ndarray] | None  # set by fit
    learns = True

    def __init__(self, alpha: float = 1e-9) -> None:
        self.alpha = alpha

    def _check_params(self):
        check_positive(self.alpha, "alpha", strict=False)

    def fit(self, support: ArrayLike, kernel: Kernel, **fit_params: Any) -> Self:
        """Compute M from the support points (the other arguments of
        :meth:`PreimageSolver.fit` are accepted; `kpca` enables the fast
        path from coordinates)."""
        super().fit(support, kernel, **fit_params)
        lam, X = float(self.alpha), self.support_
        # In the paper's notation (points as columns) (Xᵀ)⁺P = X exactly: the
        # points projected on their own span are themselves.
        self.M_ = np.array(X.T, dtype=float)
        self._coordinate_maps = None
        if lam:
            # K and its eigenvectors: two n × n matrices.
            K = checked_gram(
                self.kernel_, X, "Gram matrix of 'support'", copies=2, names="'support'"
            )
            # K⁺ from one symmetric eigendecomposition (divide and conquer),
            # dropping eigenvalues below n·eps·max|w| as scipy.linalg.pinvh does.
            w, V = full_eigh(K)
            top = max(float(np.abs(w).max()), np.finfo(float).tiny)
            keep = np.abs(w) > K.shape[0] * np.finfo(float).eps * top
            if not keep.all():
                warn(
                    f"the Gram matrix of the {K.shape[0]} support points has "
                    f"{int((~keep).sum())} eigenvalues at rounding level (dependent "
                    "images φ(x_i): duplicated points, or more points than the feature "
                    "space has dimensions); they were dropped from K⁻¹ (a "
                    "pseudo-inverse) instead of divided by",
                    NumericalWarning,
                )
            with np.errstate(over="ignore", invalid="ignore"):  # refused just below
                XV = linalg.pinv(X.astype(np.float64)) @ V[:, keep]
                self.M_ -= lam * (XV / w[keep]) @ V[:, keep].T
            refuse_overflow(
                self.M_,
                "the entries of the closed form's map M = X − λ(Xᵀ)⁺K⁺",
                "'alpha' and 'support'",
                "use a smaller 'alpha' or rescale 'support'",
            )
        return self

    def solve(self, expansion: FeatureExpansion, x0: ArrayLike | None = None) -> PreimageResult:
        """``X* = M Γ`` for all expansions at once (x0 is not used)."""
        self._check_support(expansion)
        with np.errstate(over="ignore", invalid="ignore"):  # handled by direct()
            x = expansion.coef @ self.M_.T
        return PreimageResult.direct(expansion, x, self.name, "closed form")

    def _solve_coordinates(self, Y, *, add_mean, x0, return_result):
        """Pre-images straight from kernel PCA coordinates (see Notes); with
        `return_result` the expansions are solved, for their residuals."""
        if return_result:
            return super()._solve_coordinates(Y, add_mean=add_mean, x0=x0, return_result=True)
        kpca = self._fitted_kpca()
        Y = check_coordinates(Y, kpca.alphas.shape[1])
        if self._coordinate_maps is None:
            self._coordinate_maps = (self.M_ @ kpca.alphas, self.M_ @ kpca.mean_coef)
        MA, M_mean = self._coordinate_maps
        Y = np.asarray(Y, dtype=float) * (kpca.eigenvalues > 0)
        if add_mean:
            return Y @ MA.T + M_mean
        return (Y + kpca.mean_coords) @ MA.T
