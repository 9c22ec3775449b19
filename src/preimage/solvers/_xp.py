"""Pre-images in the array namespace of the expansions and on their device (array API
dispatch): the fixed point batched over all expansions, Honeine and Richard's closed
form and Bakır's learned map, from array API functions only."""

import dataclasses

import numpy as np

from preimage._utils.validation import Box, check_bounds
from preimage._utils.warnings import warn
from preimage._utils.xp import namespace, refuse
from preimage.exceptions import ConvergenceWarning, NumericalWarning
from preimage.kernels import GaussianKernel, Kernel, RadialKernel
from preimage.kernels._pairwise import xp_squared_distances
from preimage.kpca._xp import (
    expansion_coef_xp,
    fit_kernel_pca_xp,
    transform_xp,
)
from preimage.solvers._result import PreimageResult


def make_box(bounds, X, method=None, name="bounds"):
    """:func:`check_bounds` around the points X, in their namespace and on their device."""
    xp = namespace(X)
    return (
        check_bounds(bounds, X, name, method)
        if xp is None
        else box_xp(bounds, X, xp, method, name)
    )


def box_xp(bounds, support, xp, method=None, name="bounds"):
    """:func:`check_bounds` on the device: None or ``(low, high)`` of shape (d,)."""
    if isinstance(bounds, str) and bounds == "auto":
        bounds = None if method == "exact" else "data"
    if bounds is None:
        return None
    if isinstance(bounds, str) and bounds == "data":
        return Box(xp.min(support, axis=0), xp.max(support, axis=0))
    if all(namespace(b) is xp for b in bounds):  # a box made on the device already
        return Box(*bounds)
    low, high = check_bounds(bounds, np.zeros((1, support.shape[1])), name)
    return Box(*(xp.asarray(b, dtype=support.dtype, device=support.device) for b in (low, high)))


def _clip(Z, box, xp):
    return Z if box is None else xp.clip(Z, min=box[0], max=box[1])


def distance2_xp(coef, support, kernel, Z, norm2, xp):
    r"""``‖Ψ_j − φ(z_j)‖² = ‖Ψ_j‖² − 2 Σ_i γ_ji k(x_i, z_j) + k(z_j, z_j)``, clamped at 0."""
    inner = xp.sum(coef * kernel.block(Z, support, check_input=False), axis=1)
    return xp.clip(norm2 - 2 * inner + kernel.diag(Z, check_input=False), min=0.0)


def fixed_point_xp(coef, support, kernel, norm2, x0, *, max_iter, tol, alpha, anchor, box, xp):
    r""":func:`~preimage.solvers.fixed_point` of all expansions together, on their device.

    Each step forms :math:`k(z_j, x_i)` for every pair (one matrix product) and
    :math:`z \leftarrow \sum_i c_i x_i / \sum_i c_i` (Mika et al. 1999, eq. 10;
    the dot-product form of Kwok and Tsang 2004), projected onto the box; the best
    point seen is kept. A row whose denominator vanishes stops there (the NumPy
    path restarts it), with a NumericalWarning. With ``alpha`` = λ > 0 the
    regularised step adds :math:`\lambda a` and λ (the anchor a: `x0` by default).
    """
    m, dtype = coef.shape[0], support.dtype
    if alpha and anchor is None and x0 is None:
        raise ValueError("'alpha' > 0 needs an 'anchor' (or 'x0', which is the default anchor)")
    if x0 is None:  # the support point nearest in feature space
        d2 = kernel.diag(support, check_input=False)[None, :] - 2 * coef @ kernel.block(support)
        x0 = xp.take(support, xp.argmin(d2, axis=1), axis=0)
    Z = xp.asarray(x0, dtype=dtype, device=support.device)
    anchor = Z if anchor is None else xp.asarray(anchor, dtype=dtype, device=support.device)
    Z = _clip(Z, box, xp)
    tol = max(tol, 8 * xp.finfo(dtype).eps)
    unit = float(xp.max(xp.linalg.vector_norm(support, axis=1))) or 1.0
    best_Z, best_obj = Z, xp.full(m, xp.inf, dtype=dtype, device=Z.device)
    active = xp.ones(m, dtype=xp.bool, device=Z.device)
    converged, stopped = xp.zeros_like(active), xp.zeros_like(active)
    n_iter = xp.zeros(m, dtype=xp.int64, device=Z.device)
    for step_number in range(max_iter + 1):
        K = kernel.block(Z, support, check_input=False)
        obj = kernel.diag(Z, check_input=False) - 2 * xp.sum(coef * K, axis=1)
        obj = obj + alpha * xp.sum((Z - anchor) ** 2, axis=1)
        better = obj < best_obj
        best_obj, best_Z = xp.where(better, obj, best_obj), xp.where(better[:, None], Z, best_Z)
        if step_number == max_iter or not bool(xp.any(active)):
            break
        if isinstance(kernel, RadialKernel):  # f' = −γ f for the Gaussian
            gaussian = isinstance(kernel, GaussianKernel)
            r2 = None if gaussian else xp_squared_distances(Z, support, xp)
            C = -2 * coef * (-kernel.gamma * K if gaussian else kernel._xp_derivative(r2, xp))
            den, scale = xp.sum(C, axis=1), xp.sum(xp.abs(C), axis=1)
        else:
            C = coef * kernel._xp_derivative(Z @ support.T, xp)
            den = kernel._xp_derivative(xp.sum(Z * Z, axis=1), xp)
            scale = xp.abs(den)
        num, den, scale = C @ support + alpha * anchor, den + alpha, scale + alpha
        Z_new = _clip(num / den[:, None], box, xp)
        vanishing = ~(den > 1e-10 * scale) | ~xp.all(xp.isfinite(Z_new), axis=1)
        step = xp.linalg.vector_norm(Z_new - Z, axis=1)
        size = xp.clip(xp.linalg.vector_norm(Z, axis=1), min=unit)
        done = active & ~vanishing & (step <= tol * size)
        Z = xp.where((active & ~vanishing)[:, None], Z_new, Z)
        n_iter = n_iter + xp.astype(active, xp.int64)
        converged, stopped = converged | done, stopped | (active & vanishing)
        active = active & ~done & ~vanishing
    n_stopped, n_open = (
        int(xp.sum(xp.astype(stopped, xp.int64))),
        int(xp.sum(xp.astype(active, xp.int64))),
    )
    if n_stopped:
        warn(
            f"the fixed-point denominator vanished for {n_stopped} of {m} expansions; "
            "returning the best point seen (the NumPy path restarts them)",
            NumericalWarning,
        )
    if n_open:
        warn(
            f"the fixed point did not converge for {n_open} of {m} expansions within "
            f"max_iter={max_iter} iterations; returning the best point seen",
            ConvergenceWarning,
        )
    distance2 = distance2_xp(coef, support, kernel, best_Z, norm2, xp)
    message = f"{m - n_open - n_stopped} of {m} converged; {n_stopped} stopped"
    return PreimageResult(best_Z, distance2, n_iter, converged, message, "fixed_point")


def closed_form_map_xp(support, kernel, alpha, xp):
    r"""Honeine and Richard's map :math:`M = X - \lambda (X^\top)^+ K^+` (see
    :class:`~preimage.solvers.ClosedFormPreimage`), on the device."""
    M = support.T
    if alpha:
        w, V = xp.linalg.eigh(kernel.block(support, check_input=False))
        top = max(float(xp.max(xp.abs(w))), float(xp.finfo(w.dtype).smallest_normal))
        keep = xp.abs(w) > support.shape[0] * float(xp.finfo(w.dtype).eps) * top
        inverse = xp.where(keep, 1 / xp.where(keep, w, 1.0), 0.0)
        M = M - alpha * ((xp.linalg.pinv(support) @ V) * inverse[None, :]) @ V.T
    return M


def fit_learned_xp(solver, coordinates, targets, center_targets, xp):
    r"""Bakır's map :math:`\beta = (L + \alpha I)^{-1} X` with L the map kernel's Gram
    matrix of the training coordinates, solved on the device (:class:`LearnedPreimage`)."""
    kpca, X, kernel = solver.kpca_, solver.X_fit_, solver.kernel_
    if solver.n_landmarks is not None or not (
        solver.kernel is None or isinstance(solver.kernel, Kernel)
    ):
        raise refuse("the learned map with 'n_landmarks' or a kernel given by name", xp)
    if coordinates is None and kpca is None:  # solve(): coordinates of Σ γ_i φ(x_i) are γᵀKA − c
        K = kernel.block(X, check_input=False)
        kpca = solver.kpca_ = fit_kernel_pca_xp(K, solver.n_components, xp, names="'support'")
        solver.KA_ = K @ kpca.coef
        coordinates = solver.KA_ - kpca.mean_coords[None, :]
    elif coordinates is None:
        if kpca.eigenvectors is not None:
            coordinates = kpca.eigenvectors * xp.sqrt(kpca.eigenvalues)[None, :]
        else:
            coordinates = transform_xp(kernel.block(X, check_input=False), kpca, xp)
    targets = X if targets is None else targets
    mean = xp.mean(targets, axis=0) if center_targets else None
    targets = targets if mean is None else targets - mean
    if solver.kernel is not None:
        kernel = solver.kernel
    elif solver.gamma is not None:
        kernel = dataclasses.replace(kernel, gamma=solver.gamma)
    L = kernel.block(coordinates, check_input=False)
    n = L.shape[0]
    L = L + float(solver.alpha) * xp.eye(n, dtype=L.dtype, device=L.device)
    solver.map_kernel_, solver.coordinates_, solver.target_mean_ = kernel, coordinates, mean
    solver.dual_coef_ = xp.linalg.solve(L, targets)
    solver.output_dtype_ = np.dtype(np.float32 if L.dtype == xp.float32 else np.float64)


def _result(solver, coef, support, kernel, norm2, x, x0, xp):
    """The fixed point from `x0` (where `x` is None), else the direct answer `x` clipped."""
    box = getattr(solver, "bounds_", None)
    if x is None:
        params = {"max_iter": solver.max_iter, "tol": solver.tol, "box": box, "xp": xp}
        params |= {"alpha": solver.alpha, "anchor": solver.anchor}
        return fixed_point_xp(coef, support, kernel, norm2, x0, **params)
    x = _clip(x, box, xp)
    n_iter = xp.zeros(x.shape[0], dtype=xp.int64, device=x.device)
    d2 = distance2_xp(coef, support, kernel, x, norm2, xp)
    return PreimageResult(x, d2, n_iter, n_iter == 0, solver.name, solver.name)


def solve_coordinates_xp(solver, Y, add_mean, x0, return_result, xp):
    """``solver.solve_coordinates`` for coordinates Y of namespace `xp`."""
    kpca, x = solver._fitted_kpca(), None
    Y = Y * xp.astype(kpca.eigenvalues > 0, Y.dtype)[None, :]
    if solver.name == "closed_form":
        MA = solver.M_ @ kpca.coef
        mean = (solver.M_ @ kpca.mean_coef)[None, :] if add_mean else kpca.mean_coords @ MA.T
        x = Y @ MA.T + mean
    elif solver.name == "learned":
        x = solver.predict(Y)
    if x is not None and not return_result:
        return _clip(x, getattr(solver, "bounds_", None), xp)
    coef, norm2 = expansion_coef_xp(Y, kpca, xp, add_mean=add_mean)
    result = _result(solver, coef, solver.X_fit_, solver.kernel_, norm2, x, x0, xp)
    return result if return_result else result.x


def solve_xp(solver, expansion, x0, xp):
    """``solver.solve(expansion, x0)`` for an expansion of namespace `xp`."""
    coef, x = expansion.coef, None
    if solver.name == "closed_form":
        x = coef @ solver.M_.T
    elif solver.name == "learned":
        x = solver.predict(coef @ solver.KA_ - solver.kpca_.mean_coords[None, :])
    support, kernel, norm2 = expansion.support, expansion.kernel, expansion.norm2()
    return _result(solver, coef, support, kernel, norm2, x, x0, xp)


def predict_learned_xp(solver, C, xp):
    """The learned map at coordinates C: ``l(C, C_train) β`` (+ the targets' mean)."""
    out = solver.map_kernel_.block(C, solver.coordinates_, check_input=False) @ solver.dual_coef_
    return out if solver.target_mean_ is None else out + solver.target_mean_
