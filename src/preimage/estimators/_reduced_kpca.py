"""Reduced-set kernel PCA feature extractors (Schölkopf et al. 1999, Sec. V).

A kernel PCA coordinate is a feature-space inner product plus a constant, so
its principal axes are expansions over all N training points and every
coordinate of a new point costs N kernel values. Approximating the axes by a
reduced set of p ≪ N vectors makes it p.
"""

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator
from sklearn.exceptions import NotFittedError
from sklearn.utils.validation import check_is_fitted

from .._expansion import FeatureExpansion
from .._validation import check_positive_int
from ..reduced_set import reduce_expansion
from ._kernel_pca import KernelPCA
from ._reduced_svm import check_reduced_input, kernel_from_sklearn, warn_if_indefinite

__all__ = ["kernel_pca_expansion", "reduce_kernel_pca", "ReducedKernelPCA"]


def _sklearn_kernel(kpca, name):
    """The kernel of a fitted ``sklearn.decomposition.KernelPCA``.

    For a kernel given by name scikit-learn evaluates ``pairwise_kernels(X, Y,
    metric=kernel, filter_params=True, gamma=gamma_, degree=degree,
    coef0=coef0)``; its `kernel_params` serve callable kernels only.
    """
    return kernel_from_sklearn(kpca.kernel, kpca.gamma_, kpca.degree, kpca.coef0, name)


def kernel_pca_expansion(kpca, name="kpca"):
    """The principal axes of a fitted kernel PCA as expansions, and the offset.

    A kernel PCA coordinate is ``β_k(x) = α_kᵀ k̃_x`` with the centred kernel
    row ``k̃_x = H(k_x − K1/N)``, ``H = I − 11ᵀ/N``. Since H is symmetric,
    ``β_k(x) = (Hα_k)ᵀ(k_x − K1/N)``, that is

    .. math:: β_k(x) = ⟨Ψ_k, φ(x)⟩ + c_k,\\quad
              Ψ_k = Σ_i ᾱ_ki φ(x_i),\\quad c_k = −ᾱ_kᵀ K1/N = −⟨Ψ_k, μ⟩,

    with the centred coefficients ``ᾱ_ki = α_ki − mean_i α_ki`` and the
    feature-space mean ``μ = Σ_i φ(x_i)/N``. (For exact eigenvectors of the
    centred Gram matrix α already sums to zero; centring it again removes the
    solver's rounding.) A :class:`~preimage.KernelPCA` keeps its axes and
    ``⟨V_k, μ⟩`` when it is fitted, which are used as they are: its axes are
    expansions over its support, the training points or (with
    ``n_landmarks``) the landmarks.

    Parameters
    ----------
    kpca : fitted preimage.KernelPCA or sklearn.decomposition.KernelPCA
        With kernel ``'rbf'``, ``'poly'``, ``'sigmoid'`` or ``'linear'`` (a
        preimage kernel object of those kinds is also accepted).

    Returns
    -------
    expansion : FeatureExpansion
        The q axes Ψ_k over the N training points.
    offset : ndarray of shape (q,)
        The constants c_k.
    """
    from sklearn.decomposition import KernelPCA as SklearnKernelPCA

    if not isinstance(kpca, (KernelPCA, SklearnKernelPCA)):
        raise TypeError(f"{name!r} must be a fitted preimage.KernelPCA or "
                        "sklearn.decomposition.KernelPCA, got "
                        f"{type(kpca).__name__}")
    try:
        check_is_fitted(kpca)
    except NotFittedError:
        raise NotFittedError(f"{name!r} is not fitted ({type(kpca).__name__}); call "
                             "fit(X) before reducing it") from None
    if isinstance(kpca, KernelPCA):
        if kpca.kernel_ is None:
            raise ValueError(f"{name!r} uses kernel='precomputed'; a reduced set needs the "
                             "kernel as a function of input points")
        # Exact or Nyström: the axes are expansions over the support X_fit_
        # (training points or landmarks), and c_k = ⟨V_k, μ⟩ is kept.
        fit = kpca.fit_result_
        axes = np.asarray(fit.alphas, dtype=float).T.copy()
        return (FeatureExpansion(axes, np.asarray(kpca.X_fit_, dtype=float), kpca.kernel_),
                -np.asarray(fit.mean_coords, dtype=float))
    else:
        kernel = _sklearn_kernel(kpca, name)
        nonzero = np.flatnonzero(kpca.eigenvalues_)
        alphas = np.zeros_like(kpca.eigenvectors_, dtype=float)
        alphas[:, nonzero] = (kpca.eigenvectors_[:, nonzero]
                              / np.sqrt(kpca.eigenvalues_[nonzero]))
        col_mean = np.asarray(kpca._centerer.K_fit_rows_, dtype=float)
        X_fit = kpca.X_fit_
        support = (X_fit.toarray() if sp.issparse(X_fit) else np.asarray(X_fit)).astype(float)
    centred = alphas - alphas.mean(axis=0, keepdims=True)
    offset = -(centred.T @ col_mean)
    return FeatureExpansion(centred.T.copy(), support, kernel), offset


def reduce_kernel_pca(kpca, n_vectors, method="construction", shared=True, **options):
    """Kernel PCA feature extraction on a reduced set.

    The principal axes ``Ψ_k`` (see :func:`kernel_pca_expansion`) are
    replaced by ``Ψ'_k = Σ_j β_kj φ(z_j)`` minimising ``ρ_k = ‖Ψ_k − Ψ'_k‖²``
    (Schölkopf et al. 1999, Sec. V), and a coordinate becomes
    ``⟨Ψ'_k, φ(x)⟩ + c_k``; its error is at most ``√(ρ_k k(x, x))``
    (Cauchy–Schwarz).

    Parameters
    ----------
    kpca : fitted preimage.KernelPCA or sklearn.decomposition.KernelPCA
    n_vectors : int
        Reduced-set size p: in total with ``shared=True`` (default: one kernel
        block k(X, Z) gives every coordinate), per component otherwise.
    method : {"construction", "selection_kpca", "selection_l1"}
        See :func:`preimage.reduced_set.reduce_expansion`.
    shared : bool, default=True
    **options
        Passed to the method.

    Returns
    -------
    ReducedKernelPCA

    References
    ----------
    B. Schölkopf et al. Input space versus feature space in kernel-based
    methods. IEEE Trans. Neural Networks 10(5), 1999.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage import KernelPCA, reduce_kernel_pca
    >>> X = np.random.default_rng(0).normal(size=(40, 2))
    >>> kpca = KernelPCA(n_components=2, gamma=0.5).fit(X)
    >>> small = reduce_kernel_pca(kpca, 40, method="selection_kpca")
    >>> bool(np.allclose(small.transform(X[:3]), kpca.transform(X[:3]), atol=1e-6))
    True
    """
    expansion, offset = kernel_pca_expansion(kpca)
    n_vectors = check_positive_int(n_vectors, "n_vectors")

    warn_if_indefinite(expansion.kernel)
    reduced = reduce_expansion(expansion, n_vectors, method=method, shared=shared,
                               **options)
    est = ReducedKernelPCA()
    est.reduced_set_ = reduced
    est.kernel_ = reduced.kernel
    est.vectors_ = reduced.vectors
    est.coef_ = reduced.coef
    est.offset_ = offset
    est.approximation_error_ = reduced.error
    est.relative_error_ = reduced.relative_error
    est.n_vectors_ = reduced.n_vectors
    est.n_components_ = expansion.n_expansions
    est.original_n_support_ = expansion.n_support
    est.n_features_in_ = expansion.n_features
    return est


class ReducedKernelPCA(BaseEstimator):
    """Kernel PCA coordinates from a reduced set, made by :func:`reduce_kernel_pca`.

    ``transform(x)_k = Σ_j β_kj k(z_j, x) + c_k ≈ kpca.transform(x)_k``.

    Attributes
    ----------
    vectors_ : ndarray of shape (p, n_features)
    coef_ : ndarray of shape (n_components, p)
        β.
    offset_ : ndarray of shape (n_components,)
        ``c_k = −⟨Ψ_k, μ⟩``, the centring constant of each coordinate.
    reduced_set_ : ReducedSet
    approximation_error_ : ndarray of shape (n_components,)
        ``ρ_k = ‖Ψ_k − Ψ'_k‖²`` (the axes of preimage's and scikit-learn's
        kernel PCA have unit norm, so this is also the relative error).
    relative_error_ : ndarray of shape (n_components,)
    n_vectors_, n_components_, original_n_support_ : int
    kernel_ : Kernel
    n_features_in_ : int
    """

    def transform(self, X):
        """Approximate kernel PCA coordinates, shape (n_samples, n_components),
        from one kernel block k(X, Z)."""
        X = check_reduced_input(self, X, "reduce_kernel_pca")
        K = self.kernel_.block(X, self.vectors_, check_input=False, overflow="ignore")
        return K @ self.coef_.T + self.offset_
