"""Learned pre-images (Bakır, Weston & Schölkopf 2004)."""

import contextlib
import dataclasses
import warnings

import numpy as np
from scipy import linalg

from .._blocks import is_dask_array, sum_row_blocks
from .._validation import (check_array_2d, check_positive, check_positive_int, check_random_state,
                           refuse_overflow)
from .._warnings import warn
from ..exceptions import NumericalWarning
from ..kernels import Kernel, make_kernel
from ..kpca import fit_kernel_pca
from ..nystroem import landmark_basis
from ._result import PreimageResult
from ._starts import check_same_support, training_gram

__all__ = ["LearnedPreimage"]

#: What to do when the exact map's n × n system is over the memory budget.
_LANDMARK_HINT = ("use LearnedPreimage(n_landmarks=m), the Nyström (subset-of-regressors) "
                  "map, which needs O(m² + m d) memory")


# OpenBLAS's multithreaded Cholesky factorisation (dpotrf) crashes with a
# segmentation fault on large matrices: measured here for n ≥ 16,300 with two
# threads (OpenBLAS 0.3.30 and 0.3.31, through SciPy and NumPy alike), fine on
# one thread (upstream OpenBLAS issues #352, #2562, #2821). Above this size the
# exact map's factorisation runs on one BLAS thread.
_SERIAL_CHOLESKY_FROM = 12_000


def _cholesky_threads(n):
    """A context running BLAS on one thread when an n × n Cholesky
    factorisation is large enough to crash OpenBLAS's threaded one."""
    if n < _SERIAL_CHOLESKY_FROM:
        return contextlib.nullcontext()
    from threadpoolctl import threadpool_limits

    return threadpool_limits(limits=1, user_api="blas")


def _solve_psd(make_A, B, what):
    """``A⁻¹ B`` for a symmetric ``A = make_A()`` that should be positive definite.

    A Cholesky factorisation (in place) when A is numerically positive
    definite; otherwise (a ridge α below the rounding level of A, or an
    indefinite kernel such as the sigmoid) A is built again and the
    pseudo-inverse taken from one symmetric eigendecomposition, whose
    eigenvalues at rounding level (below ``n·eps·max|λ|``) are dropped with a
    NumericalWarning instead of divided by.
    """
    A = make_A()
    n = A.shape[0]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", linalg.LinAlgWarning)
            with _cholesky_threads(n):
                return linalg.solve(A, B, assume_a="pos", overwrite_a=True)
    except (linalg.LinAlgError, linalg.LinAlgWarning):
        pass
    w, V = linalg.eigh(make_A(), overwrite_a=True)
    top = max(float(np.abs(w).max()), np.finfo(w.dtype).tiny)
    keep = np.abs(w) > n * np.finfo(w.dtype).eps * top
    warn(f"{what} is numerically singular or indefinite; it was solved by "
         f"pseudo-inverse, dropping {int((~keep).sum())} of {n} eigenvalues at rounding "
         "level (a larger 'alpha', or a map kernel whose width suits the coordinates, "
         "avoids this)", NumericalWarning)
    with np.errstate(over="ignore", invalid="ignore"):  # refused by the caller
        return V[:, keep] @ ((V[:, keep].T @ B) / w[keep, None])


def _refuse_overflow(values, what):
    return refuse_overflow(values, what, "'coordinates'",
                           "rescale 'coordinates' or choose a milder map kernel (its "
                           "'gamma', 'degree') or a larger 'alpha'")


class LearnedPreimage:
    """A map from feature-space coordinates back to input space, learned by
    kernel ridge regression.

    Bakır et al. (2004, Sec. 2.1) learn ``Γ: coordinates → input`` from
    training pairs ``(c(x_i), x_i)``, where ``c(x)`` are the kernel PCA
    coordinates of φ(x), by kernel ridge regression with a kernel l of its own:

        Γ(c) = Σ_i β_i l(c, c_i),    β = (L + α I)⁻¹ X.

    The pairs need not be the training points themselves: fitting on
    coordinates of noisy or augmented inputs against clean targets
    (:meth:`fit_coordinates`) teaches the map where noisy coordinates lie.

    Parameters
    ----------
    kernel : str, Kernel, callable or None, default=None
        The kernel l on coordinates; None takes the forward kernel (the kernel
        of the expansions), as scikit-learn's ``KernelPCA`` does.
    gamma : float or None
        Width of l. With ``kernel=None`` it replaces the forward kernel's width
        (None keeps it); with a kernel name, None resolves from the training
        coordinates (see :func:`preimage.kernels.default_gamma`).
    degree, coef0, kernel_params
        Further parameters of l when `kernel` is a name.
    alpha : float, default=1.0
        Ridge α > 0 (scikit-learn's default).
    n_components : int or None
        Used by :meth:`fit` only: the number of kernel PCA components of the
        support from which coordinates are taken (None: all with non-zero
        eigenvalue).
    n_landmarks : int or None
        None: exact kernel ridge regression on all n pairs (an n × n solve).
        An int m < n: the Nyström (subset-of-regressors) map over m pairs
        drawn uniformly, fitted on all n pairs in O(n m q + n m d + m³) time
        and O(m² + m d) memory beyond the data (see Notes); a Dask array of
        coordinates is then reduced block by block.
    random_state : None, int or Generator
        Draws the m pairs of `n_landmarks`.

    Notes
    -----
    With landmarks ``c_j`` (j ≤ m) the map ``Γ(c) = Σ_j β_j l(c, c_j)``
    minimises ``Σ_i ‖x_i − Γ(c_i)‖² + α βᵀL_mmβ`` over all n pairs:

        β = (L_nmᵀL_nm + α L_mm)⁻¹ L_nmᵀ X,

    where ``L_nmᵀL_nm`` and ``L_nmᵀX`` are sums over row blocks (solved as
    ``β = Wθ`` with ``WᵀL_mmW = I``, which stays well conditioned when L_mm is
    numerically singular). With every pair a landmark (L invertible) it is the
    exact ``(L + αI)⁻¹X``.

    References
    ----------
    G. H. Bakır, J. Weston, B. Schölkopf. Learning to find pre-images. NIPS 16,
    2004.
    """

    name = "learned"

    def __init__(self, kernel=None, *, gamma=None, degree=3, coef0=1.0,
                 kernel_params=None, alpha=1.0, n_components=None, n_landmarks=None,
                 random_state=None):
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.kernel_params = kernel_params
        self.alpha = alpha
        self.n_components = n_components
        self.n_landmarks = n_landmarks
        self.random_state = random_state

    def fit_coordinates(self, coordinates, targets, *, forward_kernel=None):
        """Fit the map on pairs ``(coordinates_i, targets_i)``.

        Parameters
        ----------
        coordinates : array of shape (n, q)
        targets : array of shape (n, d)
        forward_kernel : Kernel, optional
            Used for l when ``kernel=None``.
        """
        alpha = check_positive(self.alpha, "alpha")
        m = check_positive_int(self.n_landmarks, "n_landmarks", allow_none=True)
        if is_dask_array(coordinates) or is_dask_array(targets):
            if m is None:
                raise ValueError("Dask arrays need 'n_landmarks': the exact map solves an "
                                 "n × n system in memory")
            C, T = coordinates, targets
        else:
            C = check_array_2d(coordinates, "coordinates")
            T = check_array_2d(targets, "targets")
        if T.shape[0] != C.shape[0]:
            raise ValueError(f"'targets' must have one row per row of 'coordinates' "
                             f"({C.shape[0]}), got {T.shape[0]}")
        if self.kernel is None:
            if not isinstance(forward_kernel, Kernel):
                raise ValueError(f"'kernel' is None, so 'forward_kernel' must be a preimage "
                                 f"Kernel, got {forward_kernel!r}")
            self.map_kernel_ = forward_kernel
            if self.gamma is not None:
                if "gamma" not in forward_kernel.get_params():
                    raise ValueError(f"'gamma' was given but the forward kernel "
                                     f"{forward_kernel!r} has no width; pass 'kernel' too")
                # The forward kernel's family, with the map's own width.
                self.map_kernel_ = dataclasses.replace(forward_kernel, gamma=self.gamma)
        elif isinstance(self.kernel, Kernel):
            self.map_kernel_ = self.kernel
        else:
            self.map_kernel_ = make_kernel(self.kernel, gamma=self.gamma, degree=self.degree,
                                           coef0=self.coef0, kernel_params=self.kernel_params,
                                           X=C)
        if m is not None:
            if m > C.shape[0]:
                raise ValueError(f"'n_landmarks' must be <= the number of pairs "
                                 f"({C.shape[0]}), got {m}")
            return self._fit_landmarks(C, T, m, alpha)
        n = C.shape[0]
        gram = [training_gram(self.map_kernel_, C, "coordinates", hint=_LANDMARK_HINT)]

        def system():
            # L once, built again only after a failed Cholesky overwrote it.
            L = gram.pop() if gram else self.map_kernel_._block(C, C)
            if not alpha < float(np.finfo(L.dtype).max) / 2:  # beyond float32's range
                L = L.astype(np.float64)
            L.flat[:: n + 1] += alpha
            return L

        self.dual_coef_ = _refuse_overflow(
            _solve_psd(system, T, f"the learned map's system L + αI (alpha={alpha:.3g})"),
            "the learned map")
        self.coordinates_ = C
        self.output_dtype_ = self.dual_coef_.dtype
        return self

    def _fit_landmarks(self, C, T, m, alpha):
        """The subset-of-regressors map (see Notes), streamed over row blocks."""
        rng = check_random_state(self.random_state)
        index = np.sort(rng.choice(C.shape[0], m, replace=False))
        C_m = C[index]
        # The map is formed and solved in float64 whatever the input: W
        # amplifies rounding by 1/√λ_min(L_mm), and in float32 the directions
        # the map needs would be lost below the rounding of L_mm.
        C_m = check_array_2d(C_m.compute() if is_dask_array(C_m) else C_m, "coordinates",
                             dtype=np.float64)
        kernel = self.map_kernel_

        def moments(C_block, T_block):
            C_block = check_array_2d(C_block, "coordinates", n_features=C_m.shape[1],
                                     dtype=np.float64)
            T_block = check_array_2d(T_block, "targets", dtype=np.float64)
            with np.errstate(over="ignore", invalid="ignore"):  # refused below
                L = kernel._block(C_block, C_m)
                return L.T @ L, L.T @ T_block

        LtL, LtT = sum_row_blocks(moments, C, T, row_bytes=8 * (m + T.shape[1]))
        with np.errstate(over="ignore", invalid="ignore"):
            L_mm = kernel._block(C_m, C_m)
        for values in (LtL, LtT, L_mm):
            _refuse_overflow(values, "the landmark map's kernel moments")
        if not np.any(L_mm):
            raise ValueError(
                f"the map kernel {kernel!r} maps every landmark of 'coordinates' to the "
                "origin of feature space (a zero Gram matrix); choose another map kernel")
        # β = Wθ with WᵀL_mmW = I turns the normal equations into the
        # well-conditioned (WᵀL_nmᵀL_nmW + αI)θ = WᵀL_nmᵀX (L_mm may be
        # numerically singular; its null directions cannot change Γ).
        W = landmark_basis(L_mm, warn=False)
        if W.shape[1] < m:
            warn(f"the {m} landmarks of the learned map span only {W.shape[1]} "
                 "feature-space directions (duplicated or nearly dependent coordinates); "
                 "the eigenvalues of L_mm at rounding level were dropped instead of "
                 "divided by", NumericalWarning)
        with np.errstate(over="ignore", invalid="ignore"):  # refused below
            A = W.T @ LtL @ W
            WtT = W.T @ LtT
        _refuse_overflow(A, "the landmark map's normal equations")

        def system():
            A_copy = A.copy()
            A_copy.flat[:: A.shape[0] + 1] += alpha
            return A_copy

        with np.errstate(over="ignore", invalid="ignore"):  # refused below
            beta = W @ _solve_psd(system, WtT, "the landmark map's normal equations "
                                  f"(alpha={alpha:.3g})")
        self.dual_coef_ = _refuse_overflow(beta, "the landmark map")
        self.coordinates_ = C_m
        self.output_dtype_ = np.result_type(C.dtype, T.dtype)
        return self

    def predict(self, coordinates):
        """``Γ(c) = l(c, C) β`` for coordinates of shape (m, q)."""
        if not hasattr(self, "dual_coef_"):
            raise ValueError("LearnedPreimage is not fitted, so 'coordinates' cannot be "
                             "mapped; call fit or fit_coordinates first")
        C = check_array_2d(coordinates, "coordinates",
                           n_features=self.coordinates_.shape[1])
        with np.errstate(over="ignore", invalid="ignore"):  # refused just below
            out = self.map_kernel_._block(C, self.coordinates_) @ self.dual_coef_
            out = out.astype(self.output_dtype_, copy=False)
        return _refuse_overflow(out, "the learned map's output")

    # -- on expansions over a support (find_preimage's one-call path) ----------
    def fit(self, support, kernel, K=None):
        """Fit on the support points: kernel PCA of the support gives their
        coordinates, and the map learns coordinates → points."""
        X = check_array_2d(support, "support")
        if not isinstance(kernel, Kernel):
            raise ValueError(f"'kernel' must be a preimage Kernel, got {kernel!r}")
        # K and its centred copy: two n × n matrices.
        K = training_gram(kernel, X, "support", copies=2) if K is None else np.asarray(K)
        self.kpca_ = fit_kernel_pca(K, self.n_components, copy=True)
        # The centred coordinates of φ(x_i) are K̃α = u√λ; for an expansion
        # Σ γ_i φ(x_i) they are γᵀKA − c (see expansion_coordinates).
        self.KA_ = K @ self.kpca_.alphas
        self.support_, self.kernel_ = X, kernel
        coords = self.KA_ - self.kpca_.mean_coords
        return self.fit_coordinates(coords, X, forward_kernel=kernel)

    def expansion_coordinates(self, expansion):
        """Centred kernel PCA coordinates ``⟨V_k, Ψ − μ⟩ = γᵀKα_k − ⟨V_k, μ⟩``
        of expansions over the fitted support."""
        return expansion.coef @ self.KA_ - self.kpca_.mean_coords

    def solve(self, expansion, x0=None):
        """Pre-images of expansions over the fitted support (x0 is not used)."""
        if not hasattr(self, "KA_"):
            raise ValueError("LearnedPreimage is not fitted on a support: solve needs "
                             "fit(support, kernel) to map an 'expansion'; after "
                             "fit_coordinates use predict(coordinates)")
        check_same_support(self, expansion)
        x = self.predict(self.expansion_coordinates(expansion))
        return PreimageResult.direct(expansion, x, self.name, "learned map")
