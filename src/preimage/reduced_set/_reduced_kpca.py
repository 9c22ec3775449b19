"""Kernel PCA axes as feature-space expansions, and the reduced-set kernel PCA
feature extractors (Schölkopf et al. 1999, Sec. V)."""

from __future__ import annotations

from typing import Any, Self

import numpy as np
from sklearn.base import (
    BaseEstimator,
    ClassNamePrefixFeaturesOutMixin,
    TransformerMixin,
    _fit_context,
    clone,
)
from sklearn.utils._param_validation import HasMethods
from sklearn.utils.validation import check_is_fitted

from preimage._utils.typing import MatrixLike, TransformOutput
from preimage._utils.validation import validate_estimator_input
from preimage.kernels._expansion import FeatureExpansion
from preimage.kpca._estimator import KernelPCA
from preimage.kpca._fit import KernelPCAResult
from preimage.reduced_set._estimator_base import BaseReducedExpansion, dense_input, fill_doc
from preimage.reduced_set._sklearn_svm import check_fitted, dense, kernel_from_sklearn


def kernel_pca_expansion(kpca: Any, name: str = "kpca") -> tuple[FeatureExpansion, np.ndarray]:
    r"""Return the principal axes of a fitted kernel PCA as expansions, with intercepts.

    A kernel PCA coordinate :math:`\alpha_k^\top H (k_x - K \mathbf{1} / N)`,
    :math:`H = I - \mathbf{1} \mathbf{1}^\top / N`, is

    .. math::
        \beta_k(x) = \langle \Psi_k, \phi(x) \rangle + c_k, \qquad
        \Psi_k = \sum_{i=1}^N \bar\alpha_{ki} \phi(x_i), \qquad
        c_k = -\bar\alpha_k^\top K \mathbf{1} / N = -\langle \Psi_k, \mu \rangle,

    :math:`\bar\alpha_k = H \alpha_k`, :math:`\mu` the feature-space mean (a
    :class:`~preimage.KernelPCA` holds its axes and means in ``fit_result_``).

    Parameters
    ----------
    kpca : preimage.KernelPCA or sklearn.decomposition.KernelPCA, fitted
        With kernel ``'rbf'``, ``'poly'``, ``'sigmoid'`` or ``'linear'`` (or a
        preimage kernel object).
    name : str, default="kpca"
        The argument an error names.

    Returns
    -------
    expansion : FeatureExpansion
        The q axes :math:`\Psi_k` over the N training points (or landmarks).
    intercept : ndarray of shape (q,)
        The constants :math:`c_k`.

    Raises
    ------
    TypeError, sklearn.exceptions.NotFittedError, ValueError
        If `kpca` is neither kernel PCA, is not fitted, or has another kernel.

    References
    ----------
    Schölkopf et al. (1998). Schölkopf et al. (1999), Sec. V.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage import KernelPCA
    >>> from preimage.reduced_set import kernel_pca_expansion
    >>> X = np.random.default_rng(0).normal(size=(20, 2))
    >>> kpca = KernelPCA(kernel="rbf", n_components=2, gamma=0.5).fit(X)
    >>> axes, c = kernel_pca_expansion(kpca)
    >>> bool(np.allclose(axes.cross(X[:3]).T + c, kpca.transform(X[:3])))
    True
    """
    from sklearn.decomposition import KernelPCA as SklearnKernelPCA

    if isinstance(kpca, SklearnKernelPCA):
        check_fitted(kpca, name, call="fit(X)")
        kernel = kernel_from_sklearn(kpca.kernel, kpca.gamma_, kpca.degree, kpca.coef0, name)
        nonzero = np.flatnonzero(kpca.eigenvalues_)
        alphas = np.zeros_like(kpca.eigenvectors_, dtype=float)
        alphas[:, nonzero] = kpca.eigenvectors_[:, nonzero] / np.sqrt(kpca.eigenvalues_[nonzero])
        centred = alphas - alphas.mean(axis=0, keepdims=True)
        # scikit-learn's centring keeps the column means K1/N of the Gram matrix.
        intercept = -(centred.T @ np.asarray(kpca._centerer.K_fit_rows_, dtype=float))
        return FeatureExpansion(centred.T.copy(), dense(kpca.X_fit_), kernel), intercept
    fit = getattr(kpca, "fit_result_", None)
    if not isinstance(fit, KernelPCAResult):  # neither kernel PCA: NotFittedError or TypeError
        what = f"{name!r} must be a fitted preimage.KernelPCA or sklearn.decomposition.KernelPCA"
        if isinstance(kpca, BaseEstimator):  # scikit-learn's message is a %-format
            unfitted = ", got an unfitted %(name)s; call fit(X) before reducing it"
            check_is_fitted(kpca, msg=what.replace("%", "%%") + unfitted)
        raise TypeError(f"{what}, got {type(kpca).__name__}")
    if kpca.kernel_ is None:
        raise ValueError(
            f"{name!r} uses kernel='precomputed'; a reduced set needs the "
            "kernel as a function of input points"
        )
    # Exact or Nyström: axes over X_fit_ (training points or landmarks), c_k = -⟨V_k, μ⟩.
    axes = np.asarray(fit.coef, dtype=float).T.copy()
    support = np.asarray(kpca.X_fit_, dtype=float)
    return FeatureExpansion(axes, support, kpca.kernel_), -np.asarray(fit.mean_coords, dtype=float)


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
        With kernel ``'rbf'``, ``'poly'``, ``'sigmoid'`` or ``'linear'``.
    n_vectors : int
        Reduced-set size p: in total with `shared`, per component otherwise.
    %(method)s
    shared : bool, default=True
        One reduced set for all components, or one per component, pooled.
    **options
        Passed to the method (``random_state``, ``n_starts``, ``penalty``, ...).

    Returns
    -------
    ReducedKernelPCA
        Fitted; ``estimator`` is None and the `options` but ``random_state``
        are its ``method_params``.

    References
    ----------
    Schölkopf et al. (1999), Sec. V. Schölkopf et al. (1998).

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
    est = ReducedKernelPCA._made(options, n_vectors=n_vectors, method=method, shared=shared)
    return est._reduce_axes(expansion, intercept, kpca)


@fill_doc
class ReducedKernelPCA(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseReducedExpansion):
    r"""Kernel PCA coordinates from a reduced set.

    .. math::
        \mathrm{transform}(x)_k = \sum_{j=1}^p \beta_{kj} k(z_j, x) + c_k
        \approx \mathrm{kpca.transform}(x)_k,

    p kernel values instead of N (:func:`reduce_kernel_pca` makes one from a
    kernel PCA fitted already).

    Parameters
    ----------
    estimator : preimage.KernelPCA or sklearn.decomposition.KernelPCA, default=None
        The kernel PCA to fit (a clone) and reduce; None is
        ``preimage.KernelPCA(kernel="rbf", gamma="total_variance")``.
    %(params)s

    Attributes
    ----------
    intercept_ : ndarray of shape (m,)
        :math:`c_k = -\langle \Psi_k, \mu \rangle` (:math:`\mu` the feature-space mean).
    %(attributes)s
    n_components_ : int
        The number m of coordinates.

    References
    ----------
    Schölkopf et al. (1999), Sec. V. Schölkopf et al. (1998).

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

    def _check_restored(self):
        self.n_components_ = self.dual_coef_.shape[0]

    def transform(self, X: MatrixLike) -> TransformOutput:
        r"""Return approximate kernel PCA coordinates.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The points (sparse input is made dense).

        Returns
        -------
        ndarray of shape (n_samples, n_components)
            The coordinates :math:`\sum_j \beta_{kj} k(z_j, x) + c_k`.
        """
        return self._decision_values(X)

    @property
    def _n_features_out(self):
        return self.n_components_
