"""The principal axes of a fitted kernel PCA as feature-space expansions.

A kernel PCA coordinate is a feature-space inner product plus a constant, so
its principal axes are expansions over all N training points and every
coordinate of a new point costs N kernel values; a reduced set of p ≪ N
vectors makes it p (Schölkopf et al. 1999, Sec. V). This module reads the
axes out of preimage's or scikit-learn's ``KernelPCA``.
"""

from typing import Any

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.exceptions import NotFittedError
from sklearn.utils.validation import check_is_fitted

from .._expansion import FeatureExpansion
from ..kpca import KernelPCAResult
from ._sklearn_svm import check_fitted, dense, kernel_from_sklearn

__all__ = ["kernel_pca_expansion"]


def _refuse(kpca, name):
    """Neither kernel PCA: a NotFittedError for an unfitted estimator (it may
    be a kernel PCA to be fitted), a TypeError otherwise."""
    what = f"{name!r} must be a fitted preimage.KernelPCA or sklearn.decomposition.KernelPCA"
    if isinstance(kpca, BaseEstimator):
        try:
            check_is_fitted(kpca)
        except NotFittedError:
            raise NotFittedError(
                f"{what}, got an unfitted {type(kpca).__name__}; call fit(X) before reducing it"
            ) from None
    raise TypeError(f"{what}, got {type(kpca).__name__}")


def kernel_pca_expansion(kpca: Any, name: str = "kpca") -> tuple[FeatureExpansion, np.ndarray]:
    """The principal axes of a fitted kernel PCA as expansions, and the intercepts.

    A kernel PCA coordinate is ``β_k(x) = α_kᵀ k̃_x`` with the centred kernel
    row ``k̃_x = H(k_x − K1/N)``, ``H = I − 11ᵀ/N``. Since H is symmetric,
    ``β_k(x) = (Hα_k)ᵀ(k_x − K1/N)``, that is

    .. math:: β_k(x) = ⟨Ψ_k, φ(x)⟩ + c_k,\\quad
              Ψ_k = Σ_i ᾱ_ki φ(x_i),\\quad c_k = −ᾱ_kᵀ K1/N = −⟨Ψ_k, μ⟩,

    with the centred coefficients ``ᾱ_ki = α_ki − mean_i α_ki`` and the
    feature-space mean ``μ = Σ_i φ(x_i)/N``. (For exact eigenvectors of the
    centred Gram matrix α already sums to zero; centring it again removes the
    solver's rounding.) A :class:`~preimage.KernelPCA` keeps its axes and
    ``⟨V_k, μ⟩`` when it is fitted (its ``fit_result_``), which are used as
    they are: its axes are expansions over its support, the training points
    or (with ``n_landmarks``) the landmarks.

    Parameters
    ----------
    kpca : fitted preimage.KernelPCA or sklearn.decomposition.KernelPCA
        With kernel ``'rbf'``, ``'poly'``, ``'sigmoid'`` or ``'linear'`` (a
        preimage kernel object of those kinds is also accepted). preimage's
        is recognised by what it holds: a
        :class:`~preimage.kpca.KernelPCAResult` as ``fit_result_``, its
        ``kernel_`` and support ``X_fit_``.
    name : str, default="kpca"
        The argument an error names.

    Returns
    -------
    expansion : FeatureExpansion
        The q axes Ψ_k over the N training points.
    intercept : ndarray of shape (q,)
        The constants c_k.
    """
    from sklearn.decomposition import KernelPCA as SklearnKernelPCA

    if isinstance(kpca, SklearnKernelPCA):
        check_fitted(kpca, name, call="fit(X)")
        kernel = kernel_from_sklearn(kpca.kernel, kpca.gamma_, kpca.degree, kpca.coef0, name)
        nonzero = np.flatnonzero(kpca.eigenvalues_)
        alphas = np.zeros_like(kpca.eigenvectors_, dtype=float)
        alphas[:, nonzero] = kpca.eigenvectors_[:, nonzero] / np.sqrt(kpca.eigenvalues_[nonzero])
        # scikit-learn's centring keeps the column means K1/N of the Gram matrix.
        col_mean = np.asarray(kpca._centerer.K_fit_rows_, dtype=float)
        centred = alphas - alphas.mean(axis=0, keepdims=True)
        intercept = -(centred.T @ col_mean)
        return FeatureExpansion(centred.T.copy(), dense(kpca.X_fit_), kernel), intercept
    fit = getattr(kpca, "fit_result_", None)
    if not isinstance(fit, KernelPCAResult):
        _refuse(kpca, name)
    if kpca.kernel_ is None:
        raise ValueError(
            f"{name!r} uses kernel='precomputed'; a reduced set needs the "
            "kernel as a function of input points"
        )
    # Exact or Nyström: the axes are expansions over the support X_fit_
    # (training points or landmarks), and c_k = ⟨V_k, μ⟩ is kept.
    axes = np.asarray(fit.alphas, dtype=float).T.copy()
    return (
        FeatureExpansion(axes, np.asarray(kpca.X_fit_, dtype=float), kpca.kernel_),
        -np.asarray(fit.mean_coords, dtype=float),
    )
