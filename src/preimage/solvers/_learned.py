"""Learned pre-images (Bakır et al. 2004): :class:`LearnedPreimage`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, replace
from typing import Any, Self

import numpy as np
from scipy import linalg
from threadpoolctl import threadpool_limits

from preimage._utils.blocks import is_dask_array, sum_row_blocks
from preimage._utils.eigen import landmark_basis
from preimage._utils.typing import ArrayLike, BoundsLike, MatrixLike, RandomStateLike
from preimage._utils.validation import (
    check_array_2d,
    check_overflow,
    check_positive,
    check_positive_int,
    check_random_state,
    checked_gram,
)
from preimage._utils.warnings import warn
from preimage._utils.xp import namespace
from preimage.exceptions import NumericalWarning
from preimage.kernels import Kernel, make_kernel
from preimage.kpca._fit import fit_kernel_pca
from preimage.kpca._projections import training_coordinates
from preimage.solvers._base import PreimageSolver
from preimage.solvers._docs import fill_doc
from preimage.solvers._result import PreimageResult
from preimage.solvers._xp import fit_learned_xp, predict_learned_xp

#: What to do when the exact map's n × n system is over the memory budget.
_HINT = (
    "use LearnedPreimage(n_landmarks=m), the Nyström (subset-of-regressors) "
    "map, which needs O(m² + m d) memory"
)


# OpenBLAS's multithreaded Cholesky factorisation (dpotrf) crashes with a
# segmentation fault for n ≥ 16,300 on two threads (OpenBLAS 0.3.30 and 0.3.31;
# upstream issues #352, #2562, #2821): above this size it runs on one thread.
_SERIAL_CHOLESKY_FROM = 12_000


def _cholesky_solve(A, B):
    """``A⁻¹ B`` by LAPACK's Cholesky factorisation (?potrf, in A's memory) and
    solves (?potrs), skipping the zero columns of B (blank pixels); None when A
    is not numerically positive definite (a pivot not positive, or a
    reciprocal condition number below the unit roundoff)."""
    dtype = np.result_type(A.dtype, B.dtype, np.float32)
    A = np.asarray(A, dtype=dtype)
    # A is symmetric: its transpose is the Fortran-ordered array LAPACK needs.
    At = A.T if A.flags.c_contiguous else np.asfortranarray(A)
    names = ("lange", "potrf", "potrs", "pocon", "lamch")
    lange, potrf, potrs, pocon, lamch = linalg.get_lapack_funcs(names, (At,))
    norm = lange("1", At)
    with threadpool_limits(1 if len(At) >= _SERIAL_CHOLESKY_FROM else None, user_api="blas"):
        factor, info = potrf(At, lower=True, overwrite_a=True, clean=False)
    if info != 0:
        return None
    rcond, info = pocon(factor, norm, uplo="L")
    if info != 0 or not rcond >= lamch("E"):
        return None
    used = np.flatnonzero(np.any(B, axis=0))
    X = np.zeros(B.shape, dtype=dtype)
    if used.size:
        B_used = np.asfortranarray(B[:, used], dtype=dtype)
        X[:, used], info = potrs(factor, B_used, lower=True, overwrite_b=True)
    return X if info == 0 else None


def _solve_psd(make_A, B, what):
    """``A⁻¹ B`` for a symmetric ``A = make_A()`` that should be positive
    definite: by Cholesky, else (a ridge below the rounding level of A, an
    indefinite kernel) by the pseudo-inverse from an eigendecomposition of A
    built again, whose eigenvalues below ``n·eps·max|λ|`` are dropped with a
    NumericalWarning."""
    n = B.shape[0]
    X = _cholesky_solve(make_A(), B)
    if X is not None:
        return X
    w, V = linalg.eigh(make_A(), overwrite_a=True)
    top = max(float(np.abs(w).max()), np.finfo(w.dtype).tiny)
    keep = np.abs(w) > n * np.finfo(w.dtype).eps * top
    warn(
        f"{what} is numerically singular or indefinite; it was solved by "
        f"pseudo-inverse, dropping {int((~keep).sum())} of {n} eigenvalues at rounding "
        "level (a larger 'alpha', or a map kernel whose width suits the coordinates, "
        "avoids this)",
        NumericalWarning,
    )
    with np.errstate(over="ignore", invalid="ignore"):  # refused by the caller
        return V[:, keep] @ ((V[:, keep].T @ B) / w[keep, None])


def _product_skipping_zero_columns(L, beta):
    """``L β``, leaving the zero columns of β (blank pixels) out of the product."""
    used = np.any(beta, axis=0)
    if used.all() or not np.isfinite(L).all():
        return L @ beta
    out = np.zeros((L.shape[0], beta.shape[1]), dtype=np.result_type(L, beta))
    out[:, used] = L @ beta[:, used]
    return out


def _trmm(W, B, **options):
    """``op(W) B`` or ``B op(W)`` for an upper triangular W, by BLAS's ?trmm."""
    return linalg.get_blas_funcs("trmm", (W, B))(1.0, W, B, lower=0, **options)


def _is_upper_triangular(W):
    """Whether W is square and upper triangular (the Cholesky basis ``R⁻¹``)."""
    return W.shape[0] == W.shape[1] and not np.tril(W, -1).any()


def _in_basis(W, LtL, LtT):
    """``(WᵀL_nmᵀL_nmW, WᵀL_nmᵀX)``: the normal equations in the landmark basis, by
    triangular products (half the flops) when W is upper triangular."""
    if not _is_upper_triangular(W):
        return W.T @ LtL @ W, W.T @ LtT
    return _trmm(W, _trmm(W, LtL, side=1), side=0, trans_a=1), _trmm(W, LtT, side=0, trans_a=1)


def _times_basis(W, theta):
    """``Wθ``, by a triangular product when W is upper triangular."""
    return _trmm(W, theta, side=0) if _is_upper_triangular(W) else W @ theta


_OVERFLOW_HINT = (
    "rescale 'coordinates' or choose a milder map kernel (its 'gamma', 'degree') or a larger "
    "'alpha'"
)


def _check_overflow(values, what):
    return check_overflow(values, what, "'coordinates'", _OVERFLOW_HINT)


@fill_doc
@dataclass(eq=False, repr=False)
class LearnedPreimage(PreimageSolver):
    r"""Pre-images by a map from kernel PCA coordinates back to input space.

    Bakır et al. learn a map :math:`\Gamma` from the kernel PCA coordinates
    :math:`c_i` of training points to the points :math:`x_i` (the rows of
    :math:`X`) by kernel ridge regression with a kernel :math:`l` of its own:

    .. math:: \Gamma(c) = \sum_i \beta_i\, l(c, c_i), \qquad
        \beta = (L + \alpha I)^{-1} X, \quad L_{ij} = l(c_i, c_j).

    Parameters
    ----------
    kernel : str, Kernel, callable or None, default=None
        The kernel :math:`l`; None takes the forward kernel (of the expansions).
    gamma : float or None, default=None
        Width of :math:`l` (with ``kernel=None``, None keeps the forward
        kernel's; with a name, None resolves from the coordinates).
    degree, coef0, kernel_params : int, float and dict or None
        Of an :math:`l` given by name (:func:`preimage.kernels.make_kernel`).
    alpha : float, default=1.0
        The ridge :math:`\alpha > 0`.
    n_components : int or None, default=None
        Components of the kernel PCA that :meth:`fit` fits without `kpca`.
    n_landmarks : int or None, default=None
        None: exact kernel ridge regression (an (n, n) system); m < n: the
        Nyström map over m random pairs, in :math:`O(m^2 + md)` memory (Notes).
    random_state : None, int or Generator
        Draws the landmarks.
    %(bounds)s

    Attributes
    ----------
    map_kernel_, dual_coef_, coordinates_ : Kernel, ndarray, ndarray
        :math:`l`, :math:`\beta` and the training (or landmark) :math:`c_i`.
    output_dtype_, target_mean_ : numpy.dtype, ndarray or None
        The output's dtype; the targets' mean, added back (``center_targets``).
    KA_ : ndarray of shape (n, q) or None
        The support's Gram matrix times the kernel PCA's coefficients.

    Notes
    -----
    With landmarks :math:`c_j` (:math:`j \le m`) the map minimises
    :math:`\sum_i \|x_i - \Gamma(c_i)\|^2 + \alpha\, \beta^\top L_{mm} \beta`:
    :math:`\beta = (L_{nm}^\top L_{nm} + \alpha L_{mm})^{-1} L_{nm}^\top X`,
    summed over row blocks and solved as :math:`\beta = W \theta`,
    :math:`W^\top L_{mm} W = I`.

    References
    ----------
    Bakır et al. (2004), Sec. 3.1, eq. 6.

    Examples
    --------
    With a small ridge the map interpolates its training pairs:

    >>> import numpy as np
    >>> from preimage.solvers import LearnedPreimage
    >>> from preimage import FeatureExpansion
    >>> from preimage.kernels import GaussianKernel
    >>> X, kernel = np.array([[0.0, 1.0, 2.0]]).T, GaussianKernel(gamma=1.0)
    >>> solver = LearnedPreimage(alpha=1e-8).fit(X, kernel)
    >>> np.round(solver.solve(FeatureExpansion.of_points(X, kernel)).x, 4).ravel()
    array([0., 1., 2.])
    """

    name = "learned"
    learns = True
    learns_from_pairs = True
    uses_random_state = True
    uses_landmarks = True

    kernel: str | Kernel | Callable[..., float] | None = None
    _: KW_ONLY
    gamma: float | None = None
    degree: int = 3
    coef0: float = 1.0
    kernel_params: dict[str, Any] | None = None
    alpha: float = 1.0
    n_components: int | None = None
    n_landmarks: int | None = None
    random_state: RandomStateLike = None
    bounds: BoundsLike = None

    _model_state = {
        "coordinates_": "f[m,q]",
        "dual_coef_": "f[m,d]",
        "target_mean_": "f[d]?",
        "map_kernel_": "kernel",
        "output_dtype_": "dtype",
    }

    def fit_coordinates(
        self, coordinates: MatrixLike, targets: MatrixLike, *, forward_kernel: Kernel | None = None
    ) -> Self:
        r"""Fit the map on pairs of coordinates and targets.

        Parameters
        ----------
        coordinates : array of shape (n, q)
            The inputs :math:`c_i` (a Dask array needs `n_landmarks`).
        targets : array of shape (n, d)
            The targets :math:`x_i`.
        forward_kernel : Kernel, optional
            Used for :math:`l` when ``kernel=None``.

        Returns
        -------
        LearnedPreimage
            The solver itself, fitted.
        """
        alpha, m = self._check_params()
        if is_dask_array(coordinates) or is_dask_array(targets):
            if m is None:
                raise ValueError(
                    "Dask arrays need 'n_landmarks': the exact map solves an "
                    "n × n system in memory"
                )
            C, T = coordinates, targets
        else:
            C, T = check_array_2d(coordinates, "coordinates"), check_array_2d(targets, "targets")
        if T.shape[0] != C.shape[0]:
            raise ValueError(
                f"'targets' must have one row per row of 'coordinates' "
                f"({C.shape[0]}), got {T.shape[0]}"
            )
        if self.kernel is None:
            if not isinstance(forward_kernel, Kernel):
                raise ValueError(
                    f"'kernel' is None, so 'forward_kernel' must be a preimage "
                    f"Kernel, got {forward_kernel!r}"
                )
            self.map_kernel_ = forward_kernel
            if self.gamma is not None:
                if "gamma" not in forward_kernel.get_params():
                    raise ValueError(
                        f"'gamma' was given but the forward kernel "
                        f"{forward_kernel!r} has no width; pass 'kernel' too"
                    )
                # The forward kernel's family, with the map's own width.
                self.map_kernel_ = replace(  # type: ignore[type-var]  # a dataclass
                    forward_kernel, gamma=self.gamma
                )
        elif isinstance(self.kernel, Kernel):
            self.map_kernel_ = self.kernel
        else:
            params = {k: getattr(self, k) for k in ("gamma", "degree", "coef0", "kernel_params")}
            self.map_kernel_ = make_kernel(self.kernel, X=C, **params)
        if m is not None:
            if m > C.shape[0]:
                raise ValueError(
                    f"'n_landmarks' must be <= the number of pairs ({C.shape[0]}), got {m}"
                )
            return self._fit_landmarks(C, T, m, alpha)
        n, kernel, names = C.shape[0], self.map_kernel_, "'coordinates'"
        gram = [checked_gram(kernel, C, f"Gram matrix of {names}", hint=_HINT, names=names)]

        def system():
            # L once, built again only after a failed Cholesky overwrote it.
            L = gram.pop() if gram else kernel.block(C, check_input=False, names=names)
            if not alpha < float(np.finfo(L.dtype).max) / 2:  # beyond float32's range
                L = L.astype(np.float64)
            L.flat[:: n + 1] += alpha
            return L

        beta = _solve_psd(system, T, f"the learned map's system L + αI (alpha={alpha:.3g})")
        self.dual_coef_ = _check_overflow(beta, "the learned map")
        self.coordinates_, self.output_dtype_, self.target_mean_ = C, self.dual_coef_.dtype, None
        return self

    def _fit_landmarks(self, C, T, m, alpha):
        """The subset-of-regressors map (see Notes), streamed over row blocks."""
        rng = check_random_state(self.random_state)
        C_m = C[np.sort(rng.choice(C.shape[0], m, replace=False))]
        C_m = C_m.compute() if is_dask_array(C_m) else C_m
        # In float64 whatever the input: W amplifies rounding by 1/√λ_min(L_mm).
        C_m = check_array_2d(C_m, "coordinates", dtype=np.float64)
        kernel, q = self.map_kernel_, C_m.shape[1]

        def moments(C_block, T_block):
            C_block = check_array_2d(C_block, "coordinates", n_features=q, dtype=np.float64)
            T_block = check_array_2d(T_block, "targets", dtype=np.float64)
            with np.errstate(over="ignore", invalid="ignore"):  # refused below
                L = kernel.block(C_block, C_m, check_input=False, overflow="ignore")
                return L.T @ L, L.T @ T_block

        LtL, LtT = sum_row_blocks(moments, C, T, row_bytes=8 * (m + T.shape[1]))
        L_mm = kernel.block(C_m, check_input=False, overflow="ignore")
        for values in (LtL, LtT, L_mm):
            _check_overflow(values, "the landmark map's kernel moments")
        if not np.any(L_mm):
            raise ValueError(
                f"the map kernel {kernel!r} maps every landmark of 'coordinates' to the "
                "origin of feature space (a zero Gram matrix); choose another map kernel"
            )
        # β = Wθ, WᵀL_mmW = I: the well-conditioned (WᵀL_nmᵀL_nmW + αI)θ = WᵀL_nmᵀX.
        W = landmark_basis(L_mm, warn_dropped=False)
        if W.shape[1] < m:
            warn(
                f"the {m} landmarks of the learned map span only {W.shape[1]} "
                "feature-space directions (duplicated or nearly dependent coordinates); "
                "the eigenvalues of L_mm at rounding level were dropped instead of "
                "divided by",
                NumericalWarning,
            )
        with np.errstate(over="ignore", invalid="ignore"):  # refused below
            A, WtT = _in_basis(W, LtL, LtT)
            _check_overflow(A, "the landmark map's normal equations")
            what = f"the landmark map's normal equations (alpha={alpha:.3g})"
            beta = _times_basis(W, _solve_psd(lambda: A + alpha * np.eye(len(A)), WtT, what))
        self.dual_coef_ = _check_overflow(beta, "the landmark map")
        self.coordinates_, self.output_dtype_ = C_m, np.result_type(C.dtype, T.dtype)
        self.target_mean_ = None
        return self

    def predict(self, coordinates: ArrayLike) -> np.ndarray:
        r"""Apply the map, :math:`\Gamma(c) = \sum_i \beta_i\, l(c, c_i)`.

        Parameters
        ----------
        coordinates : array of shape (m, q)
            The coordinates :math:`c`.

        Returns
        -------
        ndarray of shape (m, d)
            The map's values (plus the targets' mean, with `center_targets`).
        """
        xp = namespace(coordinates)
        if xp is not None and hasattr(self, "dual_coef_"):
            return predict_learned_xp(self, coordinates, xp)
        if not hasattr(self, "dual_coef_"):
            raise ValueError(
                "LearnedPreimage is not fitted, so 'coordinates' cannot be "
                "mapped; call fit or fit_coordinates first"
            )
        C = check_array_2d(coordinates, "coordinates", n_features=self.coordinates_.shape[1])
        with np.errstate(over="ignore", invalid="ignore"):  # refused just below
            L = self.map_kernel_.block(C, self.coordinates_, check_input=False, overflow="ignore")
            out = _product_skipping_zero_columns(L, self.dual_coef_)
            out = out.astype(self.output_dtype_, copy=False)
        out = _check_overflow(out, "the learned map's output")
        return out if self.target_mean_ is None else out + self.target_mean_

    def _check_params(self):
        """The ridge α and the landmark count, checked."""
        check_positive_int(self.n_components, "n_components", allow_none=True)
        alpha = check_positive(self.alpha, "alpha")
        return alpha, check_positive_int(self.n_landmarks, "n_landmarks", allow_none=True)

    def _fit(self, coordinates, targets, center_targets):
        """The map, from the support's coordinates by default."""
        X, self.KA_ = self.X_fit_, None
        xp = namespace(X)
        if xp is not None:
            return fit_learned_xp(self, coordinates, targets, center_targets, xp)
        if coordinates is None:
            if self.kpca_ is None:
                # K and its centred copy: two n × n matrices.
                K = self._support_gram(copies=2)
                self.kpca_ = fit_kernel_pca(K, self.n_components, copy=True, names="'support'")
                # Coordinates of Σ γ_i φ(x_i): γᵀKA − c (see solve).
                self.KA_ = K @ self.kpca_.coef
                coordinates = self.KA_ - self.kpca_.mean_coords
            else:
                coordinates = training_coordinates(self.kpca_, self.kernel_, X)
        targets, mean = X if targets is None else targets, None
        if center_targets:
            targets = check_array_2d(targets, "targets")
            mean = targets.mean(axis=0)
            targets = targets - mean
        self.fit_coordinates(coordinates, targets, forward_kernel=self.kernel_)
        self.target_mean_ = mean

    def _preimages(self, expansion):
        """The map at the expansions' coordinates ``γᵀKA − c``."""
        if getattr(self, "KA_", None) is None:
            self.KA_ = self._support_gram() @ self.kpca_.coef
        return self.predict(expansion.coef @ self.KA_ - self.kpca_.mean_coords), "learned map"

    def _solve_coordinates(self, Y, *, add_mean, x0, return_result):
        """The map applied to kernel PCA coordinates Y, with `return_result` with
        the residuals of the expansions Y stands for."""
        x = self._clip(self.predict(Y))
        if not return_result:
            return x
        expansion = self.expansion_of(Y, add_mean=add_mean)
        return PreimageResult.direct(expansion, x, self.name, "learned map")
