"""Exact pre-images for invertible dot-product kernels (Schölkopf et al. 1999,
Prop. 2)."""

from __future__ import annotations

import numpy as np

from .._expansion import FeatureExpansion
from .._typing import ArrayLike
from .._validation import check_expansion, check_positive
from .._warnings import warn
from ..exceptions import NumericalWarning
from ..kernels import DotProductKernel
from ._base import PreimageSolver
from ._result import PreimageResult
from ._starts import replace_non_finite

__all__ = ["exact_preimage", "ExactPreimage"]


def _check_kernel(kernel):
    if not isinstance(kernel, DotProductKernel) or not kernel.invertible:
        raise ValueError(
            "method='exact' needs a dot-product kernel with an invertible profile "
            f"(linear, odd-degree polynomial, sigmoid), got {kernel!r}"
        )
    return kernel


def exact_preimage(
    expansion: FeatureExpansion, x0: ArrayLike | None = None, *, rtol: float = 1e-6
) -> PreimageResult:
    """Pre-image through the inverse of the kernel's profile.

    For ``k(x, y) = f(⟨x, y⟩)`` with invertible f, if Ψ = φ(z) then
    ``⟨Ψ, φ(e_j)⟩ = f(z_j)`` for the canonical basis e_j, so

        z = Σ_j f⁻¹(Σ_i γ_i k(x_i, e_j)) e_j.

    This is exact only when a pre-image exists; the returned ``distance2``
    says how far the answer is from Ψ, and a warning is issued when it exceeds
    `rtol` times ‖Ψ‖² (x0 is not used).
    """
    check_expansion(expansion)
    rtol = check_positive(rtol, "rtol", strict=False)
    kernel = _check_kernel(expansion.kernel)
    basis = np.eye(expansion.n_features, dtype=expansion.support.dtype)
    # Where the kernel values or their inverse overflow, x is not finite and
    # replace_non_finite falls back to the nearest support point, with a warning.
    with np.errstate(over="ignore", invalid="ignore"):
        values = kernel.block(expansion.support, basis, check_input=False, overflow="ignore")
        x = kernel.inverse_profile(expansion.coef @ values)
    x, d2 = replace_non_finite(expansion, x)
    inexact = d2 > rtol * np.maximum(expansion.norm2(), np.finfo(float).tiny)
    message = (
        "exact"
        if not inexact.any()
        else (
            f"{int(inexact.sum())} of {len(x)} expansions have no exact pre-image "
            "(relative residual above rtol)"
        )
    )
    if inexact.any():
        warn(f"method='exact': {message}; the answer is only approximate", NumericalWarning)
    return PreimageResult(x, d2, np.zeros(len(x), dtype=int), ~inexact, message, "exact")


class ExactPreimage(PreimageSolver):
    """Exact pre-images for invertible dot-product kernels: :func:`exact_preimage`
    as a solver (nothing is learned at fit; x0 is not used)."""

    name = "exact"

    def __init__(self, rtol: float = 1e-6) -> None:
        self.rtol = rtol

    def _check_params(self):
        check_positive(self.rtol, "rtol", strict=False)

    def _check_kernel(self, kernel):
        return _check_kernel(super()._check_kernel(kernel))

    def solve(self, expansion: FeatureExpansion, x0: ArrayLike | None = None) -> PreimageResult:
        """Pre-images of `expansion` (see :func:`exact_preimage`)."""
        return exact_preimage(expansion, x0, rtol=self.rtol)
