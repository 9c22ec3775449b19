"""Exact pre-images for invertible dot-product kernels (Schölkopf et al. 1999,
Prop. 2)."""

import warnings

import numpy as np

from ..exceptions import NumericalWarning
from ..kernels import DotProductKernel
from ._result import PreimageResult

__all__ = ["exact_preimage"]


def exact_preimage(expansion, x0=None, *, rtol=1e-6):
    """Pre-image through the inverse of the kernel's profile.

    For ``k(x, y) = f(⟨x, y⟩)`` with invertible f, if Ψ = φ(z) then
    ``⟨Ψ, φ(e_j)⟩ = f(z_j)`` for the canonical basis e_j, so

        z = Σ_j f⁻¹(Σ_i γ_i k(x_i, e_j)) e_j.

    This is exact only when a pre-image exists; the returned ``distance2``
    says how far the answer is from Ψ, and a warning is issued when it exceeds
    `rtol` times ‖Ψ‖² (x0 is not used).
    """
    expansion._require_kernel()
    kernel = expansion.kernel
    if not isinstance(kernel, DotProductKernel) or not kernel.invertible:
        raise ValueError(
            "method='exact' needs a dot-product kernel with an invertible profile "
            f"(linear, odd-degree polynomial, sigmoid), got {kernel!r}")
    basis = np.eye(expansion.n_features, dtype=expansion.support.dtype)
    x = kernel.inner_product_from_value(expansion.cross(basis))
    d2 = expansion.distance2(x)
    inexact = d2 > rtol * np.maximum(expansion.norm2(), np.finfo(float).tiny)
    message = "exact" if not inexact.any() else (
        f"{int(inexact.sum())} of {len(x)} expansions have no exact pre-image "
        "(relative residual above rtol)")
    if inexact.any():
        warnings.warn(f"method='exact': {message}; the answer is only approximate",
                      NumericalWarning, stacklevel=2)
    return PreimageResult(x, d2, np.zeros(len(x), dtype=int), ~inexact, message, "exact")
