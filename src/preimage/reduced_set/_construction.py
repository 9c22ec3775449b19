"""Reduced-set construction: new vectors as pre-images of the residual."""

from __future__ import annotations

import functools
import math
import warnings

import numpy as np
from scipy.optimize import minimize

from preimage._utils.typing import RandomStateLike
from preimage._utils.validation import check_positive, check_positive_int, check_random_state
from preimage._utils.warnings import warn
from preimage.exceptions import ConvergenceWarning
from preimage.kernels import DotProductKernel, RadialKernel
from preimage.kernels._expansion import FeatureExpansion
from preimage.reduced_set._coefficients import check_reduction, combine, groups, rho, solve
from preimage.reduced_set._result import ReducedSetResult
from preimage.solvers import PREIMAGE_METHODS, make_solver


def _preimage_solver(preimage_method, kernel, X, max_iter, rng):
    """The solver that builds each vector, fitted (its kernel checked) once."""
    if preimage_method == "auto":  # the paper's fixed-point iteration where it exists
        fixed_point = isinstance(kernel, (RadialKernel, DotProductKernel))
        preimage_method = "fixed_point" if fixed_point else "gradient"
    solver = make_solver(preimage_method, {"max_iter": max_iter}, random_state=rng)
    try:
        solver.fit(X, kernel)
    except ValueError as exc:
        raise ValueError(
            f"construction needs pre-images by preimage_method={preimage_method!r}, which "
            f"cannot use {type(kernel).__name__} ({exc}); use method='selection_kpca' or "
            "'selection_l1' instead"
        ) from None
    return preimage_method, solver


def _candidates(residual, starts, signs, solver):
    """Pre-images of ±residual from each start (the sign making ⟨±R, φ(z)⟩ positive
    there); non-convergence is counted, not warned."""
    many = FeatureExpansion(signs[:, None] * residual.coef, residual.support, residual.kernel)
    with warnings.catch_warnings(), np.errstate(over="ignore", invalid="ignore"):
        warnings.simplefilter("ignore")
        result = solver.solve(many, starts)
    # A run that left the float range falls back to its start (a support point).
    x = np.where(np.isfinite(result.x).all(axis=1)[:, None], result.x, starts)
    return x, int((~result.converged).sum())


def _gain(inner, diag):
    """The error removed by adding φ(z) with its best coefficient,
    ``⟨R, φ(z)⟩² / k(z, z)``."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return np.where(diag > 0, inner**2 / diag, 0.0)


def _grow(kernel, X, A, norm2, n_vectors, solver, n_starts, tol, alpha, rng):
    """Phase one for the expansions A (m, n) sharing one reduced set."""
    m, n = A.shape
    if n == 0:  # zero expansions need no vectors
        return X, np.zeros((m, 0)), norm2, [0], [norm2], 0, 0
    P = np.empty((m, n))  # ⟨Ψ_k, φ(x_i)⟩
    for rows, K_rows in kernel.blocks(X):
        with np.errstate(over="ignore", invalid="ignore"):  # refused by combine
            P[:, rows] = A @ K_rows.T
    diag_X = kernel.diag(X, check_input=False, overflow="ignore")
    Z, Q = np.empty((0, X.shape[1])), np.empty((0, n))  # Q: k(z_j, x_i)
    K_z, B = np.empty((0, 0)), np.empty((m, 0))
    err = norm2.copy()
    errors, unconverged, stuck = [err], 0, 0  # errors[p]: with p vectors
    # ρ is a difference of terms of size ‖Ψ‖²: below ~1e-11 of it, it is rounding.
    scale = max(float(norm2.max(initial=0.0)), np.finfo(float).tiny)
    n_top = max(1, math.ceil(n_starts / 2))
    for _ in range(n_vectors):
        if err.max() <= 1e-11 * scale or (tol is not None and (err <= tol * norm2).all()):
            break
        k = int(np.argmax(err))  # the worst-approximated expansion
        with np.errstate(over="ignore", invalid="ignore"):
            r = P[k] - B[k] @ Q  # ⟨R, φ(x_i)⟩ for the residual R of expansion k
        if not np.isfinite(r).all():  # overflow: stop (combine refuses what overflowed)
            break
        gain_X = _gain(r, diag_X)
        top = np.argsort(-gain_X, kind="stable")[:n_top]
        rest = np.setdiff1d(np.arange(n), top)
        extra = rng.choice(rest, size=min(n_starts - top.size, rest.size), replace=False)
        idx = np.concatenate([top, extra])
        residual = FeatureExpansion(np.concatenate([A[k], -B[k]]), np.vstack([X, Z]), kernel)
        signs = np.where(r[idx] < 0, -1.0, 1.0)
        cand, n_bad = _candidates(residual, X[idx], signs, solver)
        unconverged += n_bad
        stuck += n_bad == idx.size
        with np.errstate(over="ignore", invalid="ignore"):
            K_c = kernel.block(residual.support, cand, check_input=False, overflow="ignore")
            diag_c = kernel.diag(cand, check_input=False, overflow="ignore")
            # A candidate whose kernel values left the float range is no candidate.
            ok = np.isfinite(K_c).all(axis=0) & np.isfinite(diag_c)
            gain = _gain(residual.coef @ np.where(ok, K_c, 0.0), diag_c)[0]
        gain = np.where(ok & np.isfinite(gain), gain, -np.inf)
        best = int(np.argmax(gain))
        z = cand[best] if gain[best] >= gain_X[top[0]] else X[top[0]]
        Z = np.vstack([Z, z])
        Q = np.vstack([Q, kernel.block(z[None], X, check_input=False, names="'expansion'")])
        k_z = kernel.block(Z, z[None], check_input=False, names="'expansion'")[:, 0]
        K_z = np.block([[K_z, k_z[:-1, None]], [k_z[None, :]]])
        with np.errstate(over="ignore", invalid="ignore"):
            C = Q @ A.T
        B = solve(K_z, C, alpha).T
        err = rho(norm2, B, K_z, C)
        errors.append(err)
        if not np.isfinite(err).all():  # overflow: combine refuses it
            break
    return Z, B, err, list(range(len(errors))), errors, unconverged, stuck


def _phase2_objective(kernel, X, A, norm2, shape, alpha):
    """``F(Z) = Σ_k ρ_k(Z, β*(Z)) + a‖β*‖²`` (β* optimal for Z) and, by the envelope
    theorem, ``∂F/∂z_j = −2 Σ_i (βᵀα)_ji ∇_1 k(z_j, x_i) + 2 Σ_{l≠j} (βᵀβ)_jl
    ∇_1 k(z_j, z_l) + (βᵀβ)_jj ∇ k(z_j, z_j)``."""

    def fun(flat):
        Z = flat.reshape(shape)
        Q = kernel.block(Z, X, check_input=False, overflow="ignore")
        K_z = kernel.block(Z, Z, check_input=False, overflow="ignore")
        C = Q @ A.T
        if not (np.isfinite(K_z).all() and np.isfinite(C).all()):
            # A step left the float range (huge coefficients): no descent there.
            return np.inf, np.zeros_like(flat)
        B = solve(K_z, C, alpha).T
        value = rho(norm2, B, K_z, C).sum() + alpha * (B**2).sum()
        W_zz = B.T @ B
        own = W_zz.diagonal().copy()
        np.fill_diagonal(W_zz, 0.0)
        gradient = functools.partial(kernel.gradient, check_input=False, overflow="ignore")
        grad = -2 * gradient(Z, X, B.T @ A) + 2 * gradient(Z, Z, W_zz)
        grad += own[:, None] * kernel.diag_gradient(Z, check_input=False, overflow="ignore")
        return value, grad.ravel()

    return fun


def _phase2(kernel, X, A, norm2, Z, alpha, max_iter):
    """Joint gradient descent on all vectors; kept only if it lowers the error."""
    fun = _phase2_objective(kernel, X, A, norm2, Z.shape, alpha)
    with np.errstate(all="ignore"):
        start = fun(Z.ravel())[0]
        res = minimize(fun, Z.ravel(), jac=True, method="L-BFGS-B", options={"maxiter": max_iter})
    if res.status == 1:  # stopped at max_iter, not at a minimum
        warn(
            f"phase two of the reduced-set construction stopped at phase2_max_iter="
            f"{max_iter} L-BFGS-B iterations before meeting its tolerance; the vectors "
            "with the lower error (before or after it) are returned; raise "
            "'phase2_max_iter'",
            ConvergenceWarning,
        )
    if not (np.isfinite(res.fun) and np.isfinite(res.x).all() and res.fun < start):
        return Z, 0
    return res.x.reshape(Z.shape), int(res.nit)


def construct(
    expansion: FeatureExpansion,
    n_vectors: int,
    *,
    shared: bool = False,
    preimage_method: str = "auto",
    n_starts: int = 6,
    max_iter: int = 100,
    phase2: bool = False,
    phase2_max_iter: int = 200,
    tol: float | None = None,
    alpha: float = 0.0,
    random_state: RandomStateLike = None,
) -> ReducedSetResult:
    r"""Construct a reduced set of new vectors, one at a time, as pre-images.

    With the current approximation :math:`\Psi' = \sum_j \beta_j \phi(z_j)`, the
    next vector is a pre-image of the residual :math:`R = \Psi - \Psi'`
    maximising the error it removes,

    .. math:: \max_z \; \frac{\langle R, \phi(z) \rangle^2}{k(z, z)},

    found from several starts; then all coefficients are refitted
    (:func:`optimal_coefficients`). The optional second phase minimises the
    error jointly over all vectors, the coefficients kept optimal.

    Parameters
    ----------
    expansion : FeatureExpansion
        The m expansions to approximate.
    n_vectors : int
        Vectors to construct: per expansion (up to ``m * n_vectors`` in all),
        or in all when `shared`.
    shared : bool, default=False
        One set for all m expansions, each step for the expansion with the
        largest error; otherwise each gets its own vectors, concatenated.
    preimage_method : str, default="auto"
        A method of :data:`~preimage.PREIMAGE_METHODS` that starts from given
        points and learns nothing (``"fixed_point"``, ``"gradient"``); ``"auto"``:
        the fixed point for radial and dot-product kernels, else gradient.
    n_starts : int, default=6
        Starts per vector: half at the support points best aligned with the
        residual, half at random ones (the best support point is also a
        candidate).
    max_iter : int, default=100
        Iterations of the pre-image method per start.
    phase2 : bool, default=False
        Run the joint gradient descent after the vectors are built.
    phase2_max_iter : int, default=200
        L-BFGS-B iterations of the second phase.
    tol : float, optional
        Stop early once every relative error :math:`\rho_k / \|\Psi_k\|^2` is
        at most `tol`.
    alpha : float, default=0
        Ridge on the reduced Gram matrix in every refit (see
        :func:`optimal_coefficients`).
    random_state : None, int or Generator, default=None
        Seed of the random starts.

    Returns
    -------
    ReducedSetResult
        ``history``: the error after each added vector; ``info``: the
        pre-image method, unconverged runs and phase-two iterations.

    Warns
    -----
    ConvergenceWarning
        When no start of some vector converged in `max_iter` iterations, or
        phase two stops at `phase2_max_iter`.

    References
    ----------
    Schölkopf et al. (1999), Sec. V-D, Sec. IV-B. Burges (1996), the second phase.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage import FeatureExpansion
    >>> from preimage.kernels import GaussianKernel
    >>> from preimage.reduced_set import construct
    >>> X = np.array([[-0.1], [0.1]])
    >>> psi = FeatureExpansion([0.5, 0.5], X, GaussianKernel(gamma=1.0))
    >>> rs = construct(psi, 1, random_state=0)
    >>> rs.vectors.round(4) + 0.0, rs.coef.round(4)
    (array([[0.]]), array([[0.99]]))
    """
    expansion, n_vectors = check_reduction(expansion, n_vectors, shared)
    kernel = expansion.kernel
    # Pre-image methods that start from given points and learn nothing from the support.
    methods = ["auto"] + [n for n, c in PREIMAGE_METHODS.items() if c.uses_starts and not c.learns]
    if preimage_method not in methods:
        raise ValueError(f"'preimage_method' must be one of {methods}, got {preimage_method!r}")
    if phase2 and not kernel.differentiable:
        raise ValueError(
            f"phase two of the construction needs gradients, and {type(kernel).__name__} "
            "has none; use method='selection_kpca' or 'selection_l1' instead"
        )
    n_starts = check_positive_int(n_starts, "n_starts")
    max_iter = check_positive_int(max_iter, "max_iter")
    phase2_max_iter = check_positive_int(phase2_max_iter, "phase2_max_iter")
    tol = None if tol is None else check_positive(tol, "tol", strict=False)
    alpha = check_positive(alpha, "alpha", strict=False)
    rng = check_random_state(random_state)

    X = np.asarray(expansion.support, dtype=float)
    preimage_method, solver = _preimage_solver(preimage_method, kernel, X, max_iter, rng)
    norm2 = expansion.norm2()
    parts, unconverged, stuck, phase2_iter = [], 0, 0, 0
    for rows, A, used in groups(expansion, shared):
        # Only the points these expansions use (one-vs-rest: their own support vectors).
        A, X_used = A[:, used], X[used]
        Z, B, err, counts, errors, bad, none = _grow(
            kernel, X_used, A, norm2[rows], n_vectors, solver, n_starts, tol, alpha, rng
        )
        unconverged += bad
        stuck += none
        if phase2 and Z.shape[0]:
            Z, nit = _phase2(kernel, X_used, A, norm2[rows], Z, alpha, phase2_max_iter)
            phase2_iter += nit
            K_z = kernel.block(Z, check_input=False, names="'expansion'")
            with np.errstate(over="ignore", invalid="ignore"):  # refused by combine
                C = kernel.block(Z, X_used, check_input=False, names="'expansion'") @ A.T
            B = solve(K_z, C, alpha).T
            err = rho(norm2[rows], B, K_z, C)
        parts.append((rows, Z, B, err, counts, errors, None))
    if stuck:
        warn(
            f"for {stuck} reduced-set vector(s) no pre-image run converged within "
            f"max_iter={max_iter} iterations (from any of the n_starts={n_starts} "
            "starts); the candidate removing the most error, or the best support point, "
            "was kept; raise 'max_iter'",
            ConvergenceWarning,
        )
    info = {"preimage_method": preimage_method, "unconverged_starts": unconverged}
    info.update(phase2_iterations=phase2_iter, shared=shared)
    return combine(expansion, parts, "construction", info)
