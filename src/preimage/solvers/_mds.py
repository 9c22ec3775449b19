"""Pre-images from distance constraints (Kwok & Tsang 2003, 2004)."""

from __future__ import annotations

from typing import Any, Self
import warnings

import numpy as np

from .._expansion import FeatureExpansion
from .._typing import ArrayLike
from .._validation import check_positive, check_positive_int, refuse_overflow
from .._warnings import warn
from ..exceptions import NumericalWarning
from ..kernels import DotProductKernel, Kernel, RadialKernel
from ._base import PreimageSolver
from ._result import PreimageResult
from ._starts import support_distance2

__all__ = ["MDSPreimage"]


class MDSPreimage(PreimageSolver):
    """Kwok & Tsang's pre-image: input distances to the nearest training points,
    then multidimensional scaling.

    For an expansion Ψ:

    1. feature distances to the support points,
       ``d̃_i² = ‖Ψ‖² + k(x_i, x_i) − 2⟨Ψ, φ(x_i)⟩``;
    2. input distances by inverting the kernel: radial kernels
       ``d̃² = 2f(0) − 2f(d²)`` (Gaussian ``exp(−‖·‖²/c)``:
       ``d² = −c ln(1 − d̃²/2)``, clipped where ``d̃² ≥ 2``); dot-product kernels
       ``d_i² = f⁻¹(‖Ψ‖²) + f⁻¹(k(x_i, x_i)) − 2 f⁻¹(⟨Ψ, φ(x_i)⟩)`` (the
       polynomial case of Kwok & Tsang);
    3. the n nearest training points, centred at x̄ with SVD
       ``[x_1 − x̄ … x_n − x̄] = U Λ Vᵀ`` (rank by `rank_tol`), coordinates
       ``Z = Λ Vᵀ`` with squared norms d₀², and the pre-image

           z = U (−½ Λ⁻¹ Vᵀ (d² − d₀²)) + x̄.

    Parameters
    ----------
    n_neighbors : int, default=10
        Training points used (public codes use 10).
    rank_tol : float, default=1e-10
        Singular values below ``rank_tol · Λ_max`` are dropped.

    References
    ----------
    J. T. Kwok, I. W. Tsang. The pre-image problem in kernel methods. ICML 2003;
    IEEE Trans. Neural Networks 15, 2004.
    """

    name = "mds"
    learns = True

    def __init__(self, n_neighbors: int = 10, rank_tol: float = 1e-10) -> None:
        self.n_neighbors = n_neighbors
        self.rank_tol = rank_tol

    def _check_params(self):
        check_positive_int(self.n_neighbors, "n_neighbors")
        check_positive(self.rank_tol, "rank_tol")

    def _check_kernel(self, kernel):
        kernel = super()._check_kernel(kernel)
        if not isinstance(kernel, (RadialKernel, DotProductKernel)):
            raise ValueError(
                "method='mds' needs a radial or dot-product kernel (to turn feature "
                f"distances into input distances), got {kernel!r}"
            )
        if isinstance(kernel, DotProductKernel) and not kernel.invertible:
            warn(
                f"{kernel!r} is not invertible on the whole line; MDS uses the branch "
                "with non-negative kernel argument",
                NumericalWarning,
            )
        return kernel

    def fit(self, support: ArrayLike, kernel: Kernel, **fit_params: Any) -> Self:
        """Remember the training points and their kernel diagonal (the other
        arguments of :meth:`PreimageSolver.fit` are accepted)."""
        super().fit(support, kernel, **fit_params)
        self.diag_ = self.kernel_.diag(self.support_, check_input=False, names="'support'")
        return self

    def input_distance2(
        self,
        expansion: FeatureExpansion,
        feature_d2: ArrayLike | None = None,
        diag: ArrayLike | None = None,
    ) -> np.ndarray:
        """Squared input distances implied by feature distances.

        By default from every expansion to every support point, (m, n); or for
        given feature distances `feature_d2` to points whose ``k(x, x)`` is
        `diag` (same shape).
        """
        if feature_d2 is None:
            feature_d2 = support_distance2(expansion)
            diag = self.diag_[None, :]
        return refuse_overflow(
            self._input_distance2(expansion, feature_d2, diag),
            "the input distances implied by it",
            "'expansion'",
            f"the inverse of {self.kernel_!r} is beyond the float range there",
        )

    def _input_distance2(self, expansion, feature_d2, diag):
        """:meth:`input_distance2`, inf where the kernel's inverse overflows."""
        kernel = self.kernel_
        with (
            np.errstate(over="ignore", invalid="ignore", divide="ignore"),
            warnings.catch_warnings(),
        ):
            # The clipping of the inverses is reported once, below, by MDS.
            warnings.simplefilter("ignore", NumericalWarning)
            if isinstance(kernel, RadialKernel):
                f0 = float(kernel.profile(np.zeros(1))[0])
                too_far = feature_d2 >= 2 * f0
                lo, hi = kernel.value_range
                values = np.clip(
                    f0 - np.asarray(feature_d2, dtype=float) / 2, lo + np.finfo(float).tiny, hi
                )
                d2 = kernel.inverse_profile(values)
            else:
                too_far = np.zeros(np.shape(feature_d2), dtype=bool)
                norm2 = expansion.norm2()
                cross = (norm2[:, None] + diag - feature_d2) / 2
                f_inv = kernel.inverse_profile
                d2 = np.maximum(f_inv(norm2)[:, None] + f_inv(diag) - 2 * f_inv(cross), 0.0)
        if too_far.any():
            warn(
                f"MDS: {int(too_far.sum())} feature distances d̃² ≥ 2k(x, x) are too "
                "large for the kernel's inverse (the logarithm is undefined); they were "
                "clipped to the largest finite input distance",
                NumericalWarning,
            )
        return np.where(np.isfinite(d2), d2, np.inf)

    def _frame(self, Xn):
        """Centre and SVD of the neighbours, ``[x_i − x̄]ᵀ = U Λ Vᵀ``, rank by
        `rank_tol`; the neighbours' coordinates ``Z = Λ Vᵀ`` have squared norms d₀²."""
        mean = Xn.mean(axis=0)
        U, s, Vt = np.linalg.svd((Xn - mean).T, full_matrices=False)
        keep = s > self.rank_tol * max(s[0], np.finfo(float).tiny) if s.size else s > 0
        U, s, Vt = U[:, keep], s[keep], Vt[keep]
        d0 = np.sum((s[:, None] * Vt) ** 2, axis=0)
        return U, s, Vt, mean, d0

    def _undefined(self, feature_d2):
        """Where the kernel's inverse is undefined: ``d̃² ≥ 2k(x, x)`` for a
        radial kernel (φ(x_i) at least as far as orthogonal); nowhere else."""
        if not isinstance(self.kernel_, RadialKernel):
            return np.zeros(np.shape(feature_d2), dtype=bool)
        f0 = float(self.kernel_.profile(np.zeros(1))[0])
        return np.asarray(feature_d2) >= 2 * f0

    def solve(self, expansion: FeatureExpansion, x0: ArrayLike | None = None) -> PreimageResult:
        """Pre-images of all expansions (x0 is not used).

        Neighbours whose feature distance no input distance can explain
        (``d̃² ≥ 2k(x, x)``) carry no information about where x lies; they are
        left out, with a warning, and MDS runs on the remaining neighbours (on
        the nearest point alone when none remains).
        """
        self._check_support(expansion)
        X = self.support_
        n = min(self.n_neighbors, X.shape[0])
        feature_d2 = support_distance2(expansion)
        neighbors = np.argsort(feature_d2, axis=1)[:, :n]
        near_d2 = np.take_along_axis(feature_d2, neighbors, axis=1)
        undefined = self._undefined(near_d2)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", NumericalWarning)  # reported below instead
            # Input distances of the neighbours only: the others play no part.
            d2_near = self._input_distance2(expansion, near_d2, self.diag_[neighbors])
        if undefined.any():
            rows = undefined.any(axis=1)
            alone = undefined.all(axis=1)
            warn(
                f"MDS: {int(undefined.sum())} of the {undefined.size} distances to the "
                f"{n} nearest points ({int(rows.sum())} of {expansion.n_expansions} "
                "expansions) are so large in feature space (d̃² ≥ 2k(x, x)) that no input "
                "distance explains them; those points were left out and MDS used the "
                "remaining neighbours"
                + (
                    f" ({int(alone.sum())} expansions had none left and were given their "
                    "nearest point)"
                    if alone.any()
                    else ""
                ),
                NumericalWarning,
            )
        # Where the inverse overflowed, or the neighbours span directions at the
        # rounding level, x is not finite: PreimageResult.direct then falls back
        # to the support point nearest in feature space, with a warning.
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            if n == X.shape[0] and not undefined.any():
                # Every expansion uses all training points: one SVD serves them all.
                d2 = np.empty_like(d2_near)
                np.put_along_axis(d2, neighbors, d2_near, axis=1)
                U, s, Vt, mean, d0 = self._frame(X)
                x = (-0.5 * ((d2 - d0) @ Vt.T) / s) @ U.T + mean
            else:
                x = np.empty((expansion.n_expansions, X.shape[1]))
                for j, idx in enumerate(neighbors):
                    keep = ~undefined[j]
                    if not keep.any():
                        x[j] = X[idx[0]]
                        continue
                    U, s, Vt, mean, d0 = self._frame(X[idx[keep]])
                    x[j] = U @ (-0.5 * (Vt @ (d2_near[j, keep] - d0)) / s) + mean
        return PreimageResult.direct(
            expansion,
            x,
            self.name,
            f"MDS on the {n} nearest training points",
            {"neighbors": neighbors},
        )
