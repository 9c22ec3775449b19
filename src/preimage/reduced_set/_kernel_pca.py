"""The principal axes of a fitted kernel PCA as feature-space expansions."""

from typing import Any

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.exceptions import NotFittedError
from sklearn.utils.validation import check_is_fitted

from preimage.kernels._expansion import FeatureExpansion
from preimage.kpca._fit import KernelPCAResult
from preimage.reduced_set._sklearn_svm import check_fitted, dense, kernel_from_sklearn

__all__ = ["kernel_pca_expansion"]


def _refuse(kpca, name):
    """Neither kernel PCA: NotFittedError for an unfitted estimator, else TypeError."""
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
    r"""Return the principal axes of a fitted kernel PCA as expansions, with intercepts.

    A kernel PCA coordinate is :math:`\beta_k(x) = \alpha_k^\top \tilde k_x`
    with the centred kernel row :math:`\tilde k_x = H (k_x - K \mathbf{1} / N)`,
    :math:`H = I - \mathbf{1} \mathbf{1}^\top / N`. Since H is symmetric,
    :math:`\beta_k(x) = (H \alpha_k)^\top (k_x - K \mathbf{1} / N)`, that is

    .. math::
        \beta_k(x) = \langle \Psi_k, \phi(x) \rangle + c_k, \qquad
        \Psi_k = \sum_{i=1}^N \bar\alpha_{ki} \phi(x_i), \qquad
        c_k = -\bar\alpha_k^\top K \mathbf{1} / N = -\langle \Psi_k, \mu \rangle,

    with the centred coefficients
    :math:`\bar\alpha_{ki} = \alpha_{ki} - \frac{1}{N} \sum_l \alpha_{kl}`
    and the feature-space mean :math:`\mu = \frac{1}{N} \sum_i \phi(x_i)`.
    A :class:`~preimage.KernelPCA`'s axes and :math:`\langle V_k, \mu \rangle`
    (its ``fit_result_``) are used as they are, over its training points or
    landmarks.

    Parameters
    ----------
    kpca : preimage.KernelPCA or sklearn.decomposition.KernelPCA, fitted
        With kernel ``'rbf'``, ``'poly'``, ``'sigmoid'`` or ``'linear'`` (or
        a preimage kernel object); preimage's is recognised by its
        ``fit_result_``, ``kernel_`` and ``X_fit_``.
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
    TypeError
        If `kpca` is neither kernel PCA.
    sklearn.exceptions.NotFittedError
        If `kpca` is not fitted.
    ValueError
        If its kernel is precomputed or not a function of input points.

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
    >>> axes.coef.shape, axes.norm2().round(6)          # two unit-norm axes
    ((2, 20), array([1., 1.]))
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
