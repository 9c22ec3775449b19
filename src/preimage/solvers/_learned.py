"""Learned pre-images (Bakır, Weston & Schölkopf 2004)."""

import dataclasses

import numpy as np
from scipy import linalg

from .._validation import check_array_2d, check_positive
from ..kernels import Kernel, make_kernel
from ..kpca import fit_kernel_pca
from ._result import PreimageResult
from ._starts import check_same_support

__all__ = ["LearnedPreimage"]


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

    References
    ----------
    G. H. Bakır, J. Weston, B. Schölkopf. Learning to find pre-images. NIPS 16,
    2004.
    """

    name = "learned"

    def __init__(self, kernel=None, *, gamma=None, degree=3, coef0=1.0,
                 kernel_params=None, alpha=1.0, n_components=None):
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.kernel_params = kernel_params
        self.alpha = alpha
        self.n_components = n_components

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
        C = check_array_2d(coordinates, "coordinates")
        T = check_array_2d(targets, "targets")
        if T.shape[0] != C.shape[0]:
            raise ValueError(f"'targets' must have one row per row of 'coordinates' "
                             f"({C.shape[0]}), got {T.shape[0]}")
        if self.kernel is None:
            if forward_kernel is None:
                raise ValueError("'kernel' is None and no forward kernel was given")
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
        L = self.map_kernel_._block(C, C)
        L.flat[:: L.shape[0] + 1] += alpha
        self.dual_coef_ = linalg.solve(L, T, assume_a="pos", overwrite_a=True)
        self.coordinates_ = C
        return self

    def predict(self, coordinates):
        """``Γ(c) = l(c, C) β`` for coordinates of shape (m, q)."""
        if not hasattr(self, "dual_coef_"):
            raise ValueError("LearnedPreimage is not fitted; call fit or fit_coordinates")
        C = check_array_2d(coordinates, "coordinates",
                           n_features=self.coordinates_.shape[1])
        return self.map_kernel_._block(C, self.coordinates_) @ self.dual_coef_

    # -- on expansions over a support (find_preimage's one-call path) ----------
    def fit(self, support, kernel, K=None):
        """Fit on the support points: kernel PCA of the support gives their
        coordinates, and the map learns coordinates → points."""
        X = check_array_2d(support, "support")
        if not isinstance(kernel, Kernel):
            raise ValueError(f"'kernel' must be a preimage Kernel, got {kernel!r}")
        K = kernel._block(X, X) if K is None else np.asarray(K)
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
            raise ValueError("LearnedPreimage.solve needs fit(support, kernel); after "
                             "fit_coordinates use predict(coordinates)")
        check_same_support(self, expansion)
        x = self.predict(self.expansion_coordinates(expansion))
        return PreimageResult.direct(expansion, x, self.name, "learned map")
