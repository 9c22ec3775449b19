"""Pre-images by gradient descent on the residual: :func:`gradient_descent`."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import Bounds, minimize
from threadpoolctl import threadpool_limits

from preimage._utils.typing import ArrayLike, BoundsLike, RandomStateLike
from preimage._utils.validation import (
    check_bounds,
    check_expansion,
    check_positive,
    check_positive_int,
    check_random_state,
)
from preimage._utils.warnings import warn
from preimage.exceptions import ConvergenceWarning
from preimage.kernels._expansion import FeatureExpansion
from preimage.solvers._base import FunctionSolver
from preimage.solvers._docs import fill_doc
from preimage.solvers._result import PreimageResult
from preimage.solvers._starts import check_starts, nearest_support_points, replace_non_finite


def _check_kernel(kernel):
    if not kernel.differentiable:
        raise ValueError(
            f"method='gradient' needs a kernel with a gradient in its input, and "
            f"{type(kernel).__name__} has none; choose another 'method' ('mds', "
            "'learned' or 'closed_form')"
        )
    return kernel


def _check_params(n_starts, max_iter, tol, **_):
    n_starts = check_positive_int(n_starts, "n_starts")
    return n_starts, check_positive_int(max_iter, "max_iter"), check_positive(tol, "tol")


@fill_doc
def gradient_descent(
    expansion: FeatureExpansion,
    x0: ArrayLike | None = None,
    *,
    n_starts: int = 1,
    max_iter: int = 200,
    tol: float = 1e-9,
    bounds: BoundsLike = None,
    random_state: RandomStateLike = None,
) -> PreimageResult:
    r"""Find pre-images by L-BFGS-B on the residual, for any differentiable kernel.

    %(residual)s

    by its gradient :math:`-2 \sum_i \gamma_i \nabla_z k(z, x_i) + \nabla_z k(z, z)`.

    Parameters
    ----------
    %(expansion)s
    %(x0)s
    %(gradient)s
    %(bounds)s
    %(random_state)s

    Returns
    -------
    %(result)s

    Warns
    -----
    ConvergenceWarning
        When L-BFGS-B stops unconverged (the best point found is returned).
    NumericalWarning
        When the residual overflows at every start (the nearest support point
        is returned).

    References
    ----------
    %(gradient_refs)s

    Examples
    --------
    %(two_points)s
    >>> import numpy as np
    >>> from preimage.solvers import gradient_descent
    >>> psi = FeatureExpansion([0.5, 0.5], X, GaussianKernel(gamma=1.0))
    >>> result = gradient_descent(psi, x0=[[0.2]])
    >>> np.round(result.x, 4), np.round(result.distance2, 4)
    (array([[0.5]]), array([0.1263]))
    """
    check_expansion(expansion)
    kernel, support = _check_kernel(expansion.kernel), expansion.support
    n_starts, max_iter, tol = _check_params(n_starts, max_iter, tol)
    box, rng = check_bounds(bounds, support), check_random_state(random_state)
    m, d = expansion.n_expansions, expansion.n_features
    n_near = n_starts if x0 is None else n_starts - 1
    near = nearest_support_points(expansion, n_near) if n_near > 0 else np.zeros((m, 0), int)
    x, dist = np.empty((m, d)), np.full(m, np.inf)
    n_iter, converged = np.zeros(m, dtype=int), np.zeros(m, dtype=bool)
    starts0, norm2 = None if x0 is None else check_starts(x0, expansion), expansion.norm2()
    quiet = {"check_input": False, "overflow": "ignore"}
    opts = {"maxiter": max_iter, "ftol": tol}
    box = None if box is None else Bounds(*box)
    # One small kernel row per evaluation: BLAS threads only spin against each
    # other here (17x slower on two cores), so run single-threaded.
    with threadpool_limits(1, user_api="blas"):
        for j in range(m):
            one = expansion[j]
            starts = ([] if starts0 is None else [starts0[j]]) + list(support[near[j]])
            starts += [support[rng.integers(len(support))] for _ in range(n_starts - len(starts))]

            def fun(z, j=j, one=one):  # this iteration's j and one, bound here
                Z = z[None, :]
                K, k_zz = kernel.block(Z, support, **quiet), kernel.diag(Z, **quiet)
                value = norm2[j] - 2 * float(one.coef[0] @ K[0]) + float(k_zz[0])
                grad = -2 * kernel.gradient(Z, support, one.coef, **quiet)
                return value, (grad + kernel.diag_gradient(Z, **quiet))[0]

            for k, z0 in enumerate(starts):
                z0 = np.asarray(z0, dtype=float) if box is None else np.clip(z0, box.lb, box.ub)
                with np.errstate(all="ignore"):
                    if k == 0:  # the answer is at worst the first start
                        value = fun(z0)[0]
                        x[j], dist[j] = z0, value if np.isfinite(value) else np.inf
                    res = minimize(fun, z0, jac=True, method="L-BFGS-B", bounds=box, options=opts)
                n_iter[j] += res.get("nit", 0)  # none when the box fixes every coordinate
                if np.isfinite(res.fun) and np.isfinite(res.x).all() and res.fun <= dist[j]:
                    dist[j], x[j], converged[j] = res.fun, res.x, res.success

    # Where the residual overflowed at every start (a polynomial kernel far
    # out), the support point nearest in feature space is returned instead.
    x, dist = replace_non_finite(expansion, x, dist)
    if not converged.all():
        warn(
            f"L-BFGS-B did not converge for {int((~converged).sum())} of {m} "
            f"expansions within max_iter={max_iter}; returning the best point found",
            ConvergenceWarning,
        )
    message = f"{int(converged.sum())} of {m} converged ({n_starts} start(s) each)"
    return PreimageResult(x, dist, n_iter, converged, message, "gradient")


@fill_doc
@dataclass(eq=False, repr=False)
class GradientPreimage(FunctionSolver):
    r"""Pre-images by L-BFGS-B on the residual: :func:`gradient_descent` as a solver.

    %(residual)s

    Parameters
    ----------
    %(gradient)s
    %(bounds)s
    %(random_state)s

    References
    ----------
    %(gradient_refs)s

    Examples
    --------
    %(two_points)s
    >>> import numpy as np
    >>> from preimage.solvers import GradientPreimage
    >>> psi = FeatureExpansion([[1.0, 0.0]], X, GaussianKernel(gamma=1.0))  # the image of 0
    >>> GradientPreimage().fit(X, psi.kernel).solve(psi, x0=[[0.4]]).x.round(4) + 0.0
    array([[0.]])
    """

    name = "gradient"
    uses_starts = True
    uses_random_state = True
    _function = staticmethod(gradient_descent)
    _check = staticmethod(_check_params)
    _refuse = staticmethod(_check_kernel)

    n_starts: int = 1
    max_iter: int = 200
    tol: float = 1e-9
    bounds: BoundsLike = None
    random_state: RandomStateLike = None
