r"""What a kernel PCA fit keeps: :class:`KernelPCAResult`."""

from __future__ import annotations

from dataclasses import dataclass, replace
from numbers import Integral

import numpy as np


@dataclass
class KernelPCAResult:
    r"""What kernel PCA keeps from the training Gram matrix.

    The axes :math:`V_k = \sum_i \alpha_{ik} \phi(s_i)` and the mean
    :math:`\mu` are expansions over the training points or, for Nyström
    (``eigenvectors`` and ``K_col_mean`` None), the landmarks.

    Parameters
    ----------
    eigenvalues : ndarray of shape (q,)
        Eigenvalues :math:`\lambda_k` of the centred Gram matrix, decreasing.
    eigenvectors : ndarray of shape (N, q) or None
        Unit eigenvectors :math:`u_k`, or None.
    coef : ndarray of shape (N, q)
        Coefficients of the unit axes, :math:`u_k / \sqrt{\lambda_k}` for
        exact kernel PCA (0 where the eigenvalue is at rounding level).
    K_col_mean : ndarray of shape (N,) or None
        The column means :math:`K\mathbf{1}/N`, or None.
    K_mean : float
        :math:`\|\mu\|^2`.
    mean_coords : ndarray of shape (q,)
        :math:`c_k = \langle V_k, \mu \rangle`.
    mean_coef : ndarray of shape (N,)
        Coefficients of :math:`\mu` over the support (:math:`1/N` for exact
        kernel PCA).

    See Also
    --------
    fit_kernel_pca : Exact kernel PCA, which returns this.
    fit_nystroem_kpca : Nyström kernel PCA, which returns this.

    Examples
    --------
    The points 2 and 0 with the linear kernel: one component of eigenvalue
    :math:`1^2 + (-1)^2 = 2` around the mean :math:`\mu = 1`.

    >>> import numpy as np
    >>> from preimage.kpca import fit_kernel_pca
    >>> X = np.array([[2.0], [0.0]])
    >>> fit = fit_kernel_pca(X @ X.T)
    >>> fit.eigenvalues, fit.K_mean, fit.mean_coords
    (array([2.]), 1.0, array([1.]))
    """

    eigenvalues: np.ndarray
    eigenvectors: np.ndarray | None
    coef: np.ndarray
    K_col_mean: np.ndarray | None
    K_mean: float
    mean_coords: np.ndarray
    mean_coef: np.ndarray


def leading_components(fit: KernelPCAResult, n_components: int) -> KernelPCAResult:
    """`fit` restricted to its first `n_components` axes (kernel PCA with q
    components contains every smaller one)."""
    q = fit.eigenvalues.shape[0]
    integer = isinstance(n_components, Integral) and not isinstance(n_components, bool)
    if not integer or not 1 <= n_components <= q:
        raise ValueError(
            f"'n_components' must be between 1 and {q} (the components "
            f"fitted), got {n_components!r}"
        )
    n = n_components
    return replace(
        fit,
        eigenvalues=fit.eigenvalues[:n],
        eigenvectors=None if fit.eigenvectors is None else fit.eigenvectors[:, :n],
        coef=fit.coef[:, :n],
        mean_coords=fit.mean_coords[:n],
    )
