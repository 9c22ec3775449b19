"""Reduced-set kernel PCA feature extractors (Schölkopf et al. 1999, Sec. V).

A kernel PCA coordinate is a feature-space inner product plus a constant, so
its principal axes are expansions over all N training points and every
coordinate of a new point costs N kernel values. Approximating the axes by a
reduced set of p ≪ N vectors makes it p: :class:`ReducedKernelPCA` fits a
kernel PCA and reduces its axes (or is made from a fitted one by
:func:`reduce_kernel_pca`).
"""

from __future__ import annotations

from typing import Any, Self

from sklearn.base import (
    BaseEstimator,
    ClassNamePrefixFeaturesOutMixin,
    TransformerMixin,
    _fit_context,
    clone,
)
from sklearn.utils._param_validation import HasMethods

from .._typing import MatrixLike, TransformOutput
from .._validation import validate_estimator_input
from ..reduced_set import kernel_pca_expansion
from ._kernel_pca import KernelPCA
from ._reduced_base import BaseReducedExpansion, dense_input

__all__ = ["reduce_kernel_pca", "ReducedKernelPCA"]


def reduce_kernel_pca(
    kpca: BaseEstimator,
    n_vectors: int,
    method: str = "construction",
    shared: bool = True,
    **options: Any,
) -> ReducedKernelPCA:
    """Kernel PCA feature extraction on a reduced set.

    The principal axes ``Ψ_k`` (see
    :func:`preimage.reduced_set.kernel_pca_expansion`) are replaced by
    ``Ψ'_k = Σ_j β_kj φ(z_j)`` minimising ``ρ_k = ‖Ψ_k − Ψ'_k‖²``
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
        Fitted, with parameters that say how it was made: ``estimator`` None
        (it was made from `kpca`, fitted already, which it does not keep),
        `n_vectors`, `method`, `shared`, the `options` as ``method_params``
        but for ``random_state``.

    References
    ----------
    B. Schölkopf et al. Input space versus feature space in kernel-based
    methods. IEEE Trans. Neural Networks 10(5), 1999.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage import KernelPCA, reduce_kernel_pca
    >>> X = np.random.default_rng(0).normal(size=(40, 2))
    >>> kpca = KernelPCA(kernel="rbf", n_components=2, gamma=0.5).fit(X)
    >>> small = reduce_kernel_pca(kpca, 40, method="selection_kpca")
    >>> bool(np.allclose(small.transform(X[:3]), kpca.transform(X[:3]), atol=1e-6))
    True
    """
    expansion, intercept = kernel_pca_expansion(kpca)
    random_state = options.pop("random_state", None)
    est = ReducedKernelPCA(
        n_vectors=n_vectors,
        method=method,
        shared=shared,
        method_params=options or None,
        random_state=random_state,
    )
    est._validate_params()
    return est._reduce_axes(expansion, intercept, kpca)


class ReducedKernelPCA(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseReducedExpansion):
    """Kernel PCA coordinates from a reduced set.

    ``transform(x)_k = Σ_j β_kj k(z_j, x) + c_k ≈ kpca.transform(x)_k``, one
    kernel block ``k(X, Z)`` with the p reduced vectors instead of the N
    training points. :meth:`fit` fits a clone of `estimator` and reduces its
    principal axes; :func:`reduce_kernel_pca` makes one from a kernel PCA
    fitted already (then `estimator` is None).

    Parameters
    ----------
    estimator : preimage.KernelPCA or sklearn.decomposition.KernelPCA, default=None
        The kernel PCA to fit and reduce, with kernel ``'rbf'``, ``'poly'``,
        ``'sigmoid'`` or ``'linear'``; None is the papers' Gaussian kernel PCA,
        ``preimage.KernelPCA(kernel="rbf", gamma="total_variance")``. It is
        cloned and not kept after the reduction.
    n_vectors : int, default=10
        Reduced-set size p: in total with ``shared=True``, per component
        otherwise.
    method : {"construction", "selection_kpca", "selection_l1"}, default="construction"
        The reduced-set method (:data:`preimage.reduced_set.REDUCED_SET_METHODS`).
    shared : bool, default=True
        One reduced set for all components (one kernel block gives every
        coordinate), or one per component, pooled.
    method_params : dict, default=None
        Options of the method (``n_starts``, ``phase2``, ``penalty``, …).
    random_state : None, int or Generator, default=None
        Random starts of the construction (the selections are deterministic).

    Attributes
    ----------
    vectors_ : ndarray of shape (p, n_features)
    dual_coef_ : ndarray of shape (n_components, p)
        β.
    intercept_ : ndarray of shape (n_components,)
        ``c_k = −⟨Ψ_k, μ⟩``, the centring constant of each coordinate.
    reduced_set_ : ReducedSetResult
    approximation_error_ : ndarray of shape (n_components,)
        ``ρ_k = ‖Ψ_k − Ψ'_k‖²`` (the axes of preimage's and scikit-learn's
        kernel PCA have unit norm, so this is also the relative error).
    relative_error_ : ndarray of shape (n_components,)
    n_vectors_, n_components_, original_n_support_ : int
    kernel_ : Kernel
    n_features_in_ : int

    Examples
    --------
    >>> import numpy as np
    >>> from preimage import KernelPCA, ReducedKernelPCA
    >>> X = np.random.default_rng(0).normal(size=(40, 2))
    >>> small = ReducedKernelPCA(KernelPCA(2, kernel="rbf", gamma=0.5), 40,
    ...                          method="selection_kpca").fit(X)
    >>> small.transform(X[:3]).shape
    (3, 2)
    """

    _parameter_constraints: dict = {
        **BaseReducedExpansion._parameter_constraints,
        "estimator": [HasMethods(["fit", "transform"]), None],
    }

    _maker = "reduce_kernel_pca"

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X: MatrixLike, y: object = None) -> Self:
        """Fit a clone of `estimator` on X and reduce its principal axes.

        Parameters
        ----------
        X : array of shape (n_samples, n_features)
            Training points (sparse input is made dense).
        y : ignored

        Returns
        -------
        self
        """
        X = validate_estimator_input(self, dense_input(X), reset=True)
        default = KernelPCA(kernel="rbf", gamma="total_variance")
        kpca = clone(default if self.estimator is None else self.estimator).fit(X)
        expansion, intercept = kernel_pca_expansion(kpca, "estimator")
        return self._reduce_axes(expansion, intercept, kpca)

    def _reduce_axes(self, expansion, intercept, kpca):
        """Reduce the axes `expansion` of `kpca`, whose coordinates are
        ``⟨Ψ_k, φ(x)⟩ + c_k``."""
        self._set_reduced(self._reduce(expansion), intercept, expansion, kpca)
        self.n_components_ = expansion.n_expansions
        return self

    def transform(self, X: MatrixLike) -> TransformOutput:
        """Approximate kernel PCA coordinates, shape (n_samples, n_components),
        from one kernel block k(X, Z)."""
        return self._decision_values(X)

    @property
    def _n_features_out(self):
        return self.n_components_
