"""Exact pre-images for invertible dot-product kernels: :func:`exact_preimage`."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from preimage._utils.typing import ArrayLike, BoundsLike
from preimage._utils.validation import check_bounds, check_expansion, check_positive
from preimage._utils.warnings import warn
from preimage.exceptions import NumericalWarning
from preimage.kernels import DotProductKernel
from preimage.kernels._expansion import FeatureExpansion
from preimage.solvers._base import FunctionSolver
from preimage.solvers._docs import fill_doc
from preimage.solvers._result import PreimageResult
from preimage.solvers._starts import replace_non_finite


def _check_kernel(kernel):
    if not isinstance(kernel, DotProductKernel) or not kernel.invertible:
        raise ValueError(
            "method='exact' needs a dot-product kernel with an invertible profile "
            f"(linear, odd-degree polynomial, sigmoid), got {kernel!r}"
        )
    return kernel


def _check_params(rtol, **_):
    return check_positive(rtol, "rtol", strict=False)


@fill_doc
def exact_preimage(
    expansion: FeatureExpansion,
    x0: ArrayLike | None = None,
    *,
    rtol: float = 1e-6,
    bounds: BoundsLike = None,
) -> PreimageResult:
    r"""Find pre-images through the inverse of a dot-product kernel's profile.

    %(exact_math)s

    This is exact only when a pre-image exists (``distance2`` says how far the
    answer is; a warning when above `rtol` times :math:`\|\Psi\|^2`).

    Parameters
    ----------
    expansion : FeatureExpansion
        The m expansions, under an invertible dot-product kernel (linear,
        odd-degree polynomial, sigmoid).
    %(x0_unused)s
    %(rtol)s
    %(bounds)s

    Returns
    -------
    PreimageResult
        The pre-images; ``converged`` is False where none is exact.

    Warns
    -----
    NumericalWarning
        When some expansion has no exact pre-image, or one is not finite (the
        nearest support point is returned).

    References
    ----------
    %(exact_refs)s

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.solvers import exact_preimage
    >>> from preimage import FeatureExpansion
    >>> from preimage.kernels import PolynomialKernel
    >>> psi = FeatureExpansion.of_points([[1.0, -2.0]], PolynomialKernel(degree=3))
    >>> result = exact_preimage(psi)
    >>> np.round(result.x, 6) + 0.0, result.message
    (array([[ 1., -2.]]), 'exact')
    """
    check_expansion(expansion)
    rtol, kernel = _check_params(rtol), _check_kernel(expansion.kernel)
    basis = np.eye(expansion.n_features, dtype=expansion.support.dtype)
    # Where the kernel values or their inverse overflow, x is not finite and
    # replace_non_finite falls back to the nearest support point, with a warning.
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        values = kernel.block(expansion.support, basis, check_input=False, overflow="ignore")
        x = kernel.inverse_profile(expansion.coef @ values)
    x, d2 = replace_non_finite(expansion, x)
    box = check_bounds(bounds, expansion.support)
    if box is not None:
        # Beyond rounding, a pre-image outside the box: no point of the box maps there.
        slack = 1e-9 * np.maximum(np.abs(box[0]), np.abs(box[1])) + 1e-12
        outside = ((x < box[0] - slack) | (x > box[1] + slack)).any(axis=1)
        if outside.any():
            raise ValueError(
                f"method='exact': {int(outside.sum())} of {len(x)} expansions (the first: "
                f"{int(np.argmax(outside))}) have their pre-image outside 'bounds', so "
                "the box holds none; pass bounds=None or use another method"
            )
        x = np.clip(x, *box)
    inexact = d2 > rtol * np.maximum(expansion.norm2(), np.finfo(float).tiny)
    message = "exact"
    if inexact.any():
        message = (
            f"{int(inexact.sum())} of {len(x)} expansions have no exact pre-image "
            "(relative residual above rtol)"
        )
        warn(f"method='exact': {message}; the answer is only approximate", NumericalWarning)
    return PreimageResult(x, d2, np.zeros(len(x), dtype=int), ~inexact, message, "exact")


@fill_doc
@dataclass(eq=False, repr=False)
class ExactPreimage(FunctionSolver):
    r"""Exact pre-images for invertible dot-product kernels: :func:`exact_preimage` as a solver.

    %(exact_math)s

    Parameters
    ----------
    %(rtol)s
    %(bounds)s

    References
    ----------
    %(exact_refs)s

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.solvers import ExactPreimage
    >>> from preimage import FeatureExpansion
    >>> from preimage.kernels import LinearKernel
    >>> X = np.array([[0.0, 1.0], [2.0, 3.0]])
    >>> psi = FeatureExpansion([0.5, 0.5], X, LinearKernel())
    >>> ExactPreimage().fit(X, psi.kernel).solve(psi).x
    array([[1., 2.]])
    """

    name = "exact"
    _function = staticmethod(exact_preimage)
    _check = staticmethod(_check_params)
    _refuse = staticmethod(_check_kernel)

    rtol: float = 1e-6
    bounds: BoundsLike = None
