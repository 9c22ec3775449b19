"""The closed-form pre-image of Honeine & Richard (2011)."""

import numpy as np
from scipy import linalg

from .._validation import check_array_2d, check_positive
from .._warnings import warn
from ..exceptions import NumericalWarning
from ..kernels import Kernel
from ._result import PreimageResult
from ._starts import check_same_support, training_gram

__all__ = ["ClosedFormPreimage"]


class ClosedFormPreimage:
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
    regularization : float, default=1e-9
        λ ≥ 0 (the paper uses 1e-9 on MNIST). As λ → 0, ``x* → Σ γ_i x_i``.

    Notes
    -----
    ``K⁻¹`` and ``(Xᵀ)⁺`` are pseudo-inverses (eigen- and SVD-based), so
    singular Gram matrices and dependent training points are handled. Since
    ``(Xᵀ)⁺ P = Xᵀ`` projected on the span of the x_i, ``M = X − λ (Xᵀ)⁺ K⁺``.

    References
    ----------
    P. Honeine, C. Richard. A closed-form solution for the pre-image problem in
    kernel-based machines. J. Signal Processing Systems 65, 2011.
    """

    name = "closed_form"

    def __init__(self, regularization=1e-9):
        self.regularization = regularization

    def fit(self, support, kernel, K=None):
        """Compute M from the support points (and their Gram matrix, if known)."""
        lam = check_positive(self.regularization, "regularization", strict=False)
        X = check_array_2d(support, "support")
        if not isinstance(kernel, Kernel):
            raise ValueError(f"'kernel' must be a preimage Kernel, got {kernel!r}")
        if lam:
            # K and its eigenvectors: two n × n matrices.
            K = training_gram(kernel, X, "support", copies=2) if K is None else np.asarray(K)
        # In the paper's notation (points as columns) (Xᵀ)⁺P = X exactly: the
        # points projected on their own span are themselves.
        self.M_ = np.array(X.T, dtype=float)
        if lam:
            # K⁺ from one symmetric eigendecomposition (divide and conquer),
            # dropping eigenvalues below n·eps·max|w| as scipy.linalg.pinvh does.
            w, V = linalg.eigh(K, driver="evd")
            top = max(float(np.abs(w).max()), np.finfo(float).tiny)
            keep = np.abs(w) > K.shape[0] * np.finfo(float).eps * top
            if not keep.all():
                warn(f"the Gram matrix of the {K.shape[0]} support points has "
                     f"{int((~keep).sum())} eigenvalues at rounding level (dependent "
                     "images φ(x_i): duplicated points, or more points than the feature "
                     "space has dimensions); they were dropped from K⁻¹ (a "
                     "pseudo-inverse) instead of divided by", NumericalWarning)
            with np.errstate(over="ignore", invalid="ignore"):  # refused just below
                XV = linalg.pinv(X.astype(np.float64)) @ V[:, keep]
                self.M_ -= lam * (XV / w[keep]) @ V[:, keep].T
            if not np.isfinite(self.M_).all():
                raise ValueError(
                    f"'regularization'={lam!r} times the pseudo-inverses of the support "
                    "points and their Gram matrix overflows float64; use a smaller "
                    "'regularization' or rescale 'support'")
        self.support_, self.kernel_ = X, kernel
        return self

    def solve(self, expansion, x0=None):
        """``X* = M Γ`` for all expansions at once (x0 is not used)."""
        check_same_support(self, expansion)
        with np.errstate(over="ignore", invalid="ignore"):  # handled by direct()
            x = expansion.coef @ self.M_.T
        return PreimageResult.direct(expansion, x, self.name, "closed form")
