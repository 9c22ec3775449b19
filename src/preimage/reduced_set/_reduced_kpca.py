"""Reduced-set kernel PCA feature extractors (Schölkopf et al. 1999, Sec. V)."""

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

from preimage._utils.typing import MatrixLike, TransformOutput
from preimage._utils.validation import validate_estimator_input
from preimage.kpca._estimator import KernelPCA
from preimage.reduced_set._docs import fill_doc
from preimage.reduced_set._estimator_base import BaseReducedExpansion, dense_input
from preimage.reduced_set._kernel_pca import kernel_pca_expansion

__all__ = ["reduce_kernel_pca", "ReducedKernelPCA"]


@fill_doc
def reduce_kernel_pca(
    kpca: BaseEstimator,
    n_vectors: int,
    method: str = "construction",
    shared: bool = True,
    **options: Any,
) -> ReducedKernelPCA:
    r"""Reduce a fitted kernel PCA to a feature extractor on a reduced set.

    The principal axes :math:`\Psi_k` (:func:`~preimage.reduced_set.kernel_pca_expansion`)
    are replaced by :math:`\Psi'_k = \sum_j \beta_{kj} \phi(z_j)` minimising
    :math:`\rho_k = \|\Psi_k - \Psi'_k\|^2`, and a coordinate becomes
    :math:`\langle \Psi'_k, \phi(x) \rangle + c_k`, in error by at most

    .. math::
        |\langle \Psi_k - \Psi'_k, \phi(x) \rangle| \le \sqrt{\rho_k \, k(x, x)}.

    Parameters
    ----------
    kpca : preimage.KernelPCA or sklearn.decomposition.KernelPCA, fitted
        The kernel PCA to reduce, with kernel ``'rbf'``, ``'poly'``,
        ``'sigmoid'`` or ``'linear'``.
    n_vectors : int
        Reduced-set size p: in total with ``shared=True`` (default: one kernel
        block :math:`k(X, Z)` gives every coordinate), per component
        otherwise.
    %(method)s
    shared : bool, default=True
        One reduced set for all components, or one per component, pooled.
    **options
        Passed to the method (``random_state``, ``n_starts``, ``phase2``,
        ``penalty``, ...).

    Returns
    -------
    ReducedKernelPCA
        Fitted; ``estimator`` is None and the `options` but ``random_state``
        are its ``method_params``.

    References
    ----------
    %(kpca_references)s

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
    est = ReducedKernelPCA._made(n_vectors, method, shared, options)
    return est._reduce_axes(expansion, intercept, kpca)


@fill_doc
class ReducedKernelPCA(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseReducedExpansion):
    r"""Kernel PCA coordinates from a reduced set.

    .. math::
        \mathrm{transform}(x)_k = \sum_{j=1}^p \beta_{kj} k(z_j, x) + c_k
        \approx \mathrm{kpca.transform}(x)_k,

    one kernel block :math:`k(X, Z)` with the p reduced vectors instead of
    the N training points (see :func:`reduce_kernel_pca`, which makes one
    from a kernel PCA fitted already; then `estimator` is None).

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
    %(method)s
    shared : bool, default=True
        One reduced set for all components (one kernel block gives every
        coordinate), or one per component, pooled.
    %(options)s

    Attributes
    ----------
    dual_coef_ : ndarray of shape (n_components, p)
        The coefficients :math:`\beta_{kj}`.
    intercept_ : ndarray of shape (n_components,)
        :math:`c_k = -\langle \Psi_k, \mu \rangle`, the centring constant of
        each coordinate (:math:`\mu` the feature-space mean).
    %(attributes)s
    n_vectors_ : int
        The number p of reduced-set vectors in all: the kernel values a
        transformed point costs.
    n_components_ : int
        The number of coordinates.
    original_n_support_ : int
        The number of points the kernel PCA's axes are expanded over (its
        training points or landmarks).

    References
    ----------
    %(kpca_references)s

    Examples
    --------
    >>> import numpy as np
    >>> from preimage import KernelPCA, ReducedKernelPCA
    >>> X = np.random.default_rng(0).normal(size=(40, 2))
    >>> small = ReducedKernelPCA(KernelPCA(2, kernel="rbf", gamma=0.5), 15,
    ...                          method="selection_kpca").fit(X)
    >>> small.n_vectors_, small.original_n_support_, small.transform(X[:3]).shape
    (15, 40, (3, 2))
    >>> bool(small.relative_error_.max() < 0.01)    # both axes within 1 percent
    True
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
        X : array-like of shape (n_samples, n_features)
            Training points (sparse input is made dense).
        y : None
            Ignored.

        Returns
        -------
        ReducedKernelPCA
            The fitted estimator (self).
        """
        X = validate_estimator_input(self, dense_input(X), reset=True)
        default = KernelPCA(kernel="rbf", gamma="total_variance")
        kpca = clone(default if self.estimator is None else self.estimator).fit(X)
        expansion, intercept = kernel_pca_expansion(kpca, "estimator")
        return self._reduce_axes(expansion, intercept, kpca)

    def _reduce_axes(self, expansion, intercept, kpca):
        """Reduce the axes `expansion` of `kpca` (coordinates ``⟨Ψ_k, φ(x)⟩ + c_k``)."""
        self._set_reduced(self._reduce(expansion), intercept, expansion, kpca)
        self.n_components_ = expansion.n_expansions
        return self

    def transform(self, X: MatrixLike) -> TransformOutput:
        r"""Return approximate kernel PCA coordinates.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The points (sparse input is made dense).

        Returns
        -------
        ndarray of shape (n_samples, n_components)
            The coordinates :math:`\sum_j \beta_{kj} k(z_j, x) + c_k`, from
            one kernel block :math:`k(X, Z)`.
        """
        return self._decision_values(X)

    @property
    def _n_features_out(self):
        return self.n_components_
