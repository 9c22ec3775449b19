"""Fixed-point iterations for pre-images: :func:`fixed_point`."""

from dataclasses import dataclass
import functools

import numpy as np

from preimage._utils.typing import ArrayLike, BoundsLike, RandomStateLike
from preimage._utils.validation import (
    check_bounds,
    check_expansion,
    check_positive,
    check_positive_int,
    check_random_state,
)
from preimage._utils.warnings import warn
from preimage.exceptions import ConvergenceWarning, NumericalWarning
from preimage.kernels import DotProductKernel, GaussianKernel, RadialKernel
from preimage.kernels._expansion import FeatureExpansion
from preimage.solvers._base import FunctionSolver
from preimage.solvers._docs import fill_doc
from preimage.solvers._result import PreimageResult
from preimage.solvers._starts import check_starts, nearest_support_points, replace_non_finite

_VANISHING = 1e-10  # a denominator below this fraction of its scale vanishes
_ROWS_IN_CACHE = 16  # rows of Gaussian weights formed together, in a core's L2 cache


def _objective(kernel, coef, Z, K, lam, anchor):
    """``k(z, z) − 2 Σ_i γ_i k(z, x_i) (+ λ‖z − a‖²)`` from the block K (inf where
    it overflows), with the inner products and diagonal it is made of."""
    inner = np.einsum("ji,ji->j", coef, K)
    diag = kernel.diag(Z, check_input=False, overflow="ignore")
    objective = diag - 2 * inner
    if lam:
        objective = objective + lam * np.einsum("ij,ij->i", Z - anchor, Z - anchor)
    return np.where(np.isfinite(objective), objective, np.inf), inner, diag


def _step(kernel, coef, support, Z, lam, anchor, coef_l1):
    """One fixed-point step at Z: the objective at Z (without ‖Ψ‖²; inf where
    it overflows), the new points (non-finite where the step fails: the caller
    treats that as a vanishing denominator), the denominators and their scales.

    For the Gaussian kernel in float64, ``f' = −γ f`` gives
    ``c_i = 2γ γ_i k(z, x_i)``, formed in place over the kernel block (the
    same roundings as ``−2 γ_i · (−γ k)``), a few rows at a time so that they
    stay in cache. Since ``0 ≤ k ≤ 1``, the scale ``Σ_i |c_i|`` is at most
    ``2γ‖γ‖₁`` (`coef_l1`); it is summed only for the rows whose denominator
    is small beside that bound, the only rows where it can decide.
    """
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        if isinstance(kernel, GaussianKernel) and Z.dtype == support.dtype == np.float64:
            K = kernel.block(Z, support, check_input=False, overflow="ignore")
            objective, _, _ = _objective(kernel, coef, Z, K, lam, anchor)
            two_gamma, den = 2 * kernel.gamma, np.empty(K.shape[0])
            for first in range(0, K.shape[0], _ROWS_IN_CACHE):
                rows = slice(first, first + _ROWS_IN_CACHE)
                C_rows = np.multiply(K[rows], two_gamma, out=K[rows])
                C_rows *= coef[rows]
                den[rows] = C_rows.sum(axis=1)
            C = K
            # The bound, widened by rounding's few ulps.
            scale = two_gamma * coef_l1 * (1 + 1e-6)
            small = ~(den + lam > _VANISHING * (scale + lam))
            if small.any():
                scale[small] = np.abs(C[small]).sum(axis=1)
        else:
            K, D = kernel.block_and_derivative(Z, support)
            objective, _, _ = _objective(kernel, coef, Z, K, lam, anchor)
            if isinstance(kernel, RadialKernel):
                C = -2 * coef * D
                den, scale = C.sum(axis=1), np.abs(C).sum(axis=1)
            else:
                C, den = coef * D, kernel.profile_derivative(np.einsum("ij,ij->i", Z, Z))
                scale = np.abs(den)
        num = C @ support
        if lam:
            num, den, scale = num + lam * anchor, den + lam, scale + lam
        Z_new = num / den[:, None]
    return objective, Z_new, den, scale


def _check_kernel(kernel):
    if not isinstance(kernel, (RadialKernel, DotProductKernel)):
        raise ValueError(
            f"method='fixed_point' needs a radial or dot-product kernel, got "
            f"{type(kernel).__name__}; use method='gradient' instead"
        )
    return kernel


def _check_params(max_iter, tol, alpha, max_restarts, **_):
    max_iter, tol = check_positive_int(max_iter, "max_iter"), check_positive(tol, "tol")
    alpha = check_positive(alpha, "alpha", strict=False)
    return max_iter, tol, alpha, check_positive_int(max_restarts, "max_restarts", minimum=0)


@fill_doc
def fixed_point(
    expansion: FeatureExpansion,
    x0: ArrayLike | None = None,
    *,
    max_iter: int = 300,
    tol: float = 1e-7,
    alpha: float = 0.0,
    anchor: ArrayLike | None = None,
    max_restarts: int = 5,
    bounds: BoundsLike = None,
    random_state: RandomStateLike = None,
) -> PreimageResult:
    r"""Find pre-images by fixed-point iteration, for radial and dot-product kernels.

    Setting the gradient of :math:`\rho(z) = \|\Psi - \phi(z)\|^2 + \lambda \|z - a\|^2`
    (:math:`\lambda` is `alpha`, :math:`a` the `anchor`) to zero gives, for a
    radial kernel :math:`f(\|x - y\|^2)` with :math:`c_i = -2 \gamma_i f'(\|z - x_i\|^2)`
    (Mika et al.'s eq. 10 for the Gaussian), and for a dot-product kernel
    :math:`f(\langle x, y \rangle)` (Kwok and Tsang's for the polynomial):

    .. math::

        z \leftarrow \frac{\sum_i c_i x_i + \lambda a}{\sum_i c_i + \lambda},
        \qquad z \leftarrow \frac{\sum_i \gamma_i f'(\langle x_i, z \rangle)\, x_i
            + \lambda a}{f'(\|z\|^2) + \lambda}.

    All expansions iterate together, and the best point seen is kept: the
    answer is never worse than the start. With `bounds`, the start and every
    iterate are projected onto the box (clipped).

    Parameters
    ----------
    %(expansion)s
    %(x0)s
    %(fixed_point)s
    %(bounds)s
    %(random_state)s

    Returns
    -------
    PreimageResult
        The pre-images; ``info["restarts"]`` counts each expansion's restarts.

    Warns
    -----
    ConvergenceWarning
        When iterations end unconverged (the best point seen is returned).
    NumericalWarning
        When expansions were restarted or ran out of restarts.

    References
    ----------
    %(fixed_point_refs)s

    Examples
    --------
    %(two_points)s
    >>> import numpy as np
    >>> from preimage.solvers import fixed_point
    >>> psi = FeatureExpansion([0.5, 0.5], X, GaussianKernel(gamma=1.0))
    >>> result = fixed_point(psi, x0=[[0.2]])
    >>> np.round(result.x, 4), np.round(result.distance2, 4)
    (array([[0.5]]), array([0.1263]))
    """
    check_expansion(expansion)
    kernel, support, coef = _check_kernel(expansion.kernel), expansion.support, expansion.coef
    max_iter, tol, lam, max_restarts = _check_params(max_iter, tol, alpha, max_restarts)
    rng = check_random_state(random_state)
    m, box = expansion.n_expansions, check_bounds(bounds, support)

    def project(Z):  # onto the box: a projected fixed point
        return Z if box is None else np.clip(Z, *box).astype(Z.dtype, copy=False)

    nearest = functools.cache(lambda: project(support[nearest_support_points(expansion)[:, 0]]))
    if x0 is None:
        Z = np.array(nearest(), dtype=np.result_type(support, float))
    else:
        Z = check_starts(x0, expansion).copy()
    if not lam:
        anchor = np.zeros_like(Z)
    elif anchor is not None:
        anchor = check_starts(anchor, expansion, "anchor")
    elif x0 is None:
        raise ValueError("'alpha' > 0 needs an 'anchor' (or 'x0', which is the default anchor)")
    else:
        anchor = Z.copy()
    Z = project(Z)

    # A tolerance below the working precision can never be met.
    tol = max(tol, 8 * np.finfo(np.result_type(Z, support)).eps)
    # Steps are measured against the data's scale, so the result does not depend on units.
    unit = float(np.linalg.norm(support, axis=1).max()) or 1.0
    expansion.norm2()  # refuses an expansion beyond the float range, early
    best_Z, best_obj = Z.copy(), np.full(m, np.inf)
    n_iter, restarts, iters_this_start = (np.zeros(m, dtype=int) for _ in range(3))
    converged, failed = (np.zeros(m, dtype=bool) for _ in range(2))
    active, coef_l1 = np.arange(m), np.abs(coef).sum(axis=1)

    def iterate(Z_rows, rows):
        return _step(kernel, coef[rows], support, Z_rows, lam, anchor[rows], coef_l1[rows])

    while active.size:
        # While every row iterates, whole arrays stand in for their rows.
        rows = slice(None) if active.size == m else active
        Z_rows = Z[rows]
        obj, Z_new, den, scale = iterate(Z_rows, rows)
        better = obj < best_obj[rows]
        best_obj[active[better]], best_Z[active[better]] = obj[better], Z_rows[better]
        n_iter[rows] += 1
        iters_this_start[rows] += 1

        vanishing = ~(den > _VANISHING * scale) | ~np.isfinite(Z_new).all(axis=1)
        Z_new = project(Z_new)
        with np.errstate(over="ignore", invalid="ignore"):  # vanishing rows: no step
            step = np.linalg.norm(Z_new - Z_rows, axis=1)
            size = np.maximum(np.linalg.norm(Z_rows, axis=1), unit)
        done = ~vanishing & (step <= tol * size)
        Z[active[~vanishing]] = Z_new[~vanishing]
        converged[active[done]] = True

        # Restart rows whose denominator vanished, from a new start.
        for j in active[vanishing]:
            failed[j] = restarts[j] >= max_restarts
            if not failed[j]:
                first = restarts[j] == 0 and x0 is not None
                Z[j] = nearest()[j] if first else project(support[rng.integers(len(support))])
                restarts[j], iters_this_start[j] = restarts[j] + 1, 0

        out_of_iter = iters_this_start[active] >= max_iter
        active = active[~(done | failed[active] | out_of_iter)]

    # The objective and residual ‖Ψ‖² − 2 Σ_i γ_i k(z, x_i) + k(z, z) at the final points.
    with np.errstate(over="ignore", invalid="ignore"):
        K = kernel.block(Z, support, check_input=False, overflow="ignore")
        final_obj, inner, diag = _objective(kernel, coef, Z, K, lam, anchor)
        final_d2 = np.maximum(expansion.norm2() - 2 * inner + diag, 0.0)
    del K
    at_final = (final_obj < best_obj) & ~failed
    best_Z[at_final] = Z[at_final]

    if failed.any():
        # The nearest support point, wherever it beats the best point reached.
        rows = np.flatnonzero(failed)
        near_obj = iterate(nearest()[rows], rows)[0]
        use = near_obj < best_obj[rows]
        best_Z[rows[use]], at_final[rows[use]] = nearest()[rows[use]], False
        warn(
            f"the fixed-point denominator vanished for {int(failed.sum())} of {m} "
            f"expansions even after {max_restarts} restarts (the expansion is nearly "
            "orthogonal to every φ(z) tried); returning the best point seen, or the "
            "support point nearest in feature space",
            NumericalWarning,
        )
    restarted = (restarts > 0) & ~failed
    if restarted.any():
        warn(
            f"the fixed-point denominator vanished for {int(restarted.sum())} of {m} "
            "expansions (nearly orthogonal to φ(z) at the current point); they were "
            f"restarted ({int(restarts[restarted].sum())} restarts in all) from the "
            "support point nearest in feature space, then from random support points",
            NumericalWarning,
        )
    unconverged = ~converged & ~failed
    if unconverged.any():
        warn(
            f"the fixed point did not converge for {int(unconverged.sum())} of {m} "
            f"expansions within max_iter={max_iter} iterations; returning the best "
            "point seen",
            ConvergenceWarning,
        )
    # The residual at the other best points, from their own block.
    distance2 = np.where(at_final, final_d2, np.inf)
    others = np.flatnonzero(~at_final & np.isfinite(best_Z).all(axis=1))
    if others.size:
        distance2[others] = expansion[others].distance2(
            best_Z[others], check_input=False, overflow="ignore"
        )
    best_Z, distance2 = replace_non_finite(expansion, best_Z, distance2)
    message = (
        f"{int(converged.sum())} of {m} converged; {int(restarts.sum())} restarts; "
        f"{int(failed.sum())} ran out of restarts"
    )
    info = {"restarts": restarts}
    return PreimageResult(best_Z, distance2, n_iter, converged, message, "fixed_point", info)


@fill_doc
@dataclass(eq=False, repr=False)
class FixedPointPreimage(FunctionSolver):
    r"""Pre-images by fixed-point iteration: :func:`fixed_point` as a solver.

    For a radial kernel :math:`f(\|x - y\|^2)` the update is

    .. math:: z \leftarrow \frac{\sum_i c_i x_i + \lambda a}{\sum_i c_i + \lambda},
        \quad c_i = -2 \gamma_i f'(\|z - x_i\|^2);

    dot-product kernels have their own (:func:`fixed_point`).

    Parameters
    ----------
    %(fixed_point)s
    %(bounds)s
    %(random_state)s

    References
    ----------
    %(fixed_point_refs)s

    Examples
    --------
    %(two_points)s
    >>> import numpy as np
    >>> from preimage.solvers import FixedPointPreimage
    >>> psi = FeatureExpansion([[1.0, 0.0]], X, GaussianKernel(gamma=1.0))  # the image of 0
    >>> FixedPointPreimage().fit(X, psi.kernel).solve(psi, x0=[[0.4]]).x.round(6)
    array([[0.]])
    """

    name = "fixed_point"
    uses_starts = True
    uses_random_state = True
    _function = staticmethod(fixed_point)
    _check = staticmethod(_check_params)
    _refuse = staticmethod(_check_kernel)

    max_iter: int = 300
    tol: float = 1e-7
    alpha: float = 0.0
    anchor: ArrayLike | None = None
    max_restarts: int = 5
    bounds: BoundsLike = None
    random_state: RandomStateLike = None
