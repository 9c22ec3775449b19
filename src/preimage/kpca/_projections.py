"""The projections of kernel PCA: test rows centred with the training centre,
centred coordinates, and coordinates turned back into expansions over the
uncentred images of the support."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from preimage._utils.typing import ArrayLike
from preimage._utils.validation import check_array_2d, check_real
from preimage.kernels._expansion import FeatureExpansion
from preimage.kpca._result import KernelPCAResult

if TYPE_CHECKING:
    from preimage.kernels import Kernel


def center_block(K_x: ArrayLike, K_col_mean: ArrayLike, K_mean: float) -> np.ndarray:
    r"""Centre kernel rows of test points with the training centre.

    The products of :math:`\phi(x) - \mu` with the centred training images:

    .. math::

        \tilde k_x = H(k_x - K\mathbf{1}/N)
        = k_x - K\mathbf{1}/N - \operatorname{mean}(k_x) \mathbf{1}
        + \frac{\mathbf{1}^\top K \mathbf{1}}{N^2} \mathbf{1}.

    Parameters
    ----------
    K_x : array-like of shape (m, N)
        Kernel rows :math:`k(x, x_i)` of m test points against the N training
        points.
    K_col_mean : array-like of shape (N,)
        The column means :math:`K\mathbf{1}/N` of the training Gram matrix.
    K_mean : float
        Its grand mean :math:`\mathbf{1}^\top K \mathbf{1} / N^2`.

    Returns
    -------
    ndarray of shape (m, N)
        The centred rows :math:`\tilde k_x`.

    References
    ----------
    Schölkopf et al. (1998). Bakır et al. (2004), Sec. 2.1, footnote 1.

    Examples
    --------
    Training points 2 and 0 (mean 1), test point 4: its centred products with
    the centred points 1 and -1 are 3 and -3.

    >>> import numpy as np
    >>> from preimage.kpca import center_block, center_gram
    >>> X = np.array([[2.0], [0.0]])
    >>> _, K_col_mean, K_mean = center_gram(X @ X.T)
    >>> center_block(np.array([[4.0]]) @ X.T, K_col_mean, K_mean)
    array([[ 3., -3.]])
    """
    K_col_mean = np.asarray(K_col_mean)
    if K_col_mean.ndim != 1 or not np.isfinite(K_col_mean).all():
        raise ValueError(f"'K_col_mean' must be a finite 1-D array, got shape {K_col_mean.shape}")
    K_mean = check_real(K_mean, "K_mean")
    K_x = check_array_2d(K_x, "K_x", min_samples=0, n_features=K_col_mean.shape[0])
    return _center_block(K_x, K_col_mean, K_mean)


def _center_block(K_x, K_col_mean, K_mean):
    return K_x - K_col_mean[None, :] - K_x.mean(axis=1, keepdims=True) + K_mean


def transform_block(K_x: ArrayLike, fit: KernelPCAResult) -> np.ndarray:
    r"""Return the centred coordinates of test points from their kernel rows.

    .. math::

        \beta_k = \langle V_k, \phi(x) - \mu \rangle
        = k_x^\top \alpha_k - c_k, \qquad c_k = \langle V_k, \mu \rangle,

    with :math:`k_x` the kernel row against the support; for exact kernel PCA
    computed as :math:`\tilde k_x^\top A` (:func:`center_block`), the same in
    exact arithmetic and better conditioned.

    Parameters
    ----------
    K_x : array-like of shape (m, N)
        Kernel rows of m test points against the N support points.
    fit : KernelPCAResult
        The kernel PCA fit, with q components.

    Returns
    -------
    ndarray of shape (m, q)
        The centred coordinates :math:`\beta_k` of each test point.

    References
    ----------
    Mika et al. (1999), Sec. 2 and footnote 1.

    Examples
    --------
    The points 2 and 0, whose axis is the line itself: 4 lies 3 from their
    mean 1.

    >>> import numpy as np
    >>> from preimage.kpca import fit_kernel_pca, transform_block
    >>> X = np.array([[2.0], [0.0]])
    >>> fit = fit_kernel_pca(X @ X.T)
    >>> transform_block(np.array([[4.0]]) @ X.T, fit)
    array([[3.]])
    """
    K_x = check_array_2d(K_x, "K_x", min_samples=0, n_features=fit.coef.shape[0], magnitude=False)
    if fit.K_col_mean is not None:
        return _center_block(K_x, fit.K_col_mean, fit.K_mean) @ fit.coef
    return K_x @ fit.coef - fit.mean_coords


def training_coordinates(
    fit: KernelPCAResult, kernel: Kernel | None = None, support: np.ndarray | None = None
) -> np.ndarray:
    """The centred coordinates of the support points: ``u_k sqrt(lambda_k)``
    for exact kernel PCA, from ``k(support, support)`` for a Nyström fit."""
    if fit.eigenvectors is not None:
        return fit.eigenvectors * np.sqrt(fit.eigenvalues)
    K = kernel.block(support, support, check_input=False, names="'support'")
    return transform_block(K, fit)


def check_coordinates(Y: ArrayLike, n_components: int) -> np.ndarray:
    """Y as finite coordinates of shape (m, `n_components`), or a ValueError
    naming 'Y'."""
    if np.ndim(Y) != 2 or np.shape(Y)[1] != n_components:
        raise ValueError(
            f"'Y' must have shape (n_samples, {n_components}) (one column per "
            f"component), got shape {np.shape(Y)}"
        )
    return check_array_2d(Y, "Y", min_samples=0)


def expansion_coef(
    Y: ArrayLike, fit: KernelPCAResult, *, add_mean: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    r"""Return the expansion coefficients over the uncentred images for coordinates Y.

    With :math:`A = [\alpha_1 \cdots \alpha_q]`, the mean's coefficients
    :math:`m_\mu` and :math:`c_k = \langle V_k, \mu \rangle`:

    .. math::

        \Psi = \sum_k y_k V_k + \mu:& \quad
        \gamma = A y + m_\mu, \quad
        \|\Psi\|^2 = \|y\|^2 + 2 y^\top c + \|\mu\|^2, \\
        \Psi = \sum_k (y_k + c_k) V_k:& \quad
        \gamma = A (y + c), \quad
        \|\Psi\|^2 = \|y + c\|^2.

    Parameters
    ----------
    Y : array-like of shape (m, q)
        Centred coordinates (as returned by :func:`transform_block`).
    fit : KernelPCAResult
        The kernel PCA fit, over N support points with q components.
    add_mean : bool, default=False
        True: the exact reconstruction :math:`\sum_k y_k V_k + \mu`. False:
        the principal part :math:`\sum_k (y_k + c_k) V_k`.

    Returns
    -------
    coef : ndarray of shape (m, N)
        The coefficients :math:`\gamma` of each expansion.
    norm2 : ndarray of shape (m,)
        The squared feature-space norm of each expansion, in closed form.

    References
    ----------
    Mika et al. (1999), Sec. 2, eq. 4 and footnote 1.

    Examples
    --------
    The coordinate 3 of the fit on the points 2 and 0 is the point 4:
    :math:`2 \phi(2) - \phi(0)` with the mean, :math:`2 \phi(2) - 2 \phi(0)`
    as the principal part.

    >>> import numpy as np
    >>> from preimage.kpca import expansion_coef, fit_kernel_pca
    >>> X = np.array([[2.0], [0.0]])
    >>> fit = fit_kernel_pca(X @ X.T)
    >>> expansion_coef([[3.0]], fit, add_mean=True)
    (array([[ 2., -1.]]), array([16.]))
    >>> expansion_coef([[3.0]], fit)
    (array([[ 2., -2.]]), array([16.]))
    """
    Y = check_coordinates(Y, fit.coef.shape[1])
    if Y.dtype != fit.coef.dtype:  # float64 coordinates of a float32 fit
        with np.errstate(over="ignore"):
            Y = Y.astype(fit.coef.dtype)
        Y = check_array_2d(Y, "Y", min_samples=0)
    # Components with a zero eigenvalue have V_k = 0: their coordinates count for nothing.
    Y = Y * (fit.eigenvalues > 0)
    if add_mean:
        coef = Y @ fit.coef.T + fit.mean_coef
        norm2 = np.einsum("ij,ij->i", Y, Y) + 2 * Y @ fit.mean_coords + fit.K_mean
    else:
        Yc = Y + fit.mean_coords
        coef = Yc @ fit.coef.T
        norm2 = np.einsum("ij,ij->i", Yc, Yc)
    return coef, norm2


def coordinates_expansion(
    Y: ArrayLike,
    fit: KernelPCAResult,
    support: np.ndarray | None,
    kernel: Kernel | None,
    *,
    add_mean: bool = False,
) -> FeatureExpansion:
    r"""Return the feature-space points with centred coordinates Y, as expansions.

    The expansions :math:`\Psi = \sum_i \gamma_i \phi(s_i)` over the
    uncentred images of the support, with :math:`\gamma = A y + m_\mu` for
    the exact reconstruction and :math:`\gamma = A(y + c)` for the principal
    part (see :func:`expansion_coef`).

    Parameters
    ----------
    Y : array-like of shape (m, q)
        Centred coordinates (as returned by :func:`transform_block`).
    fit : KernelPCAResult
        The kernel PCA fit, over N support points with q components.
    support : ndarray of shape (N, d) or None
        The support points, or None for a precomputed kernel (the expansion
        then knows only its coefficients and norms).
    kernel : Kernel or None
        The kernel, or None for a precomputed kernel.
    add_mean : bool, default=False
        True: the exact reconstruction, with the feature-space mean. False:
        the principal part.

    Returns
    -------
    FeatureExpansion
        The m expansions.

    References
    ----------
    Mika et al. (1999), Sec. 2, eq. 4 and footnote 1.

    Examples
    --------
    With the linear kernel the coordinate 3 of the fit on the points 2 and 0
    is the point 4, at distance 0.

    >>> import numpy as np
    >>> from preimage.kernels import LinearKernel
    >>> from preimage.kpca import coordinates_expansion, fit_kernel_pca
    >>> X = np.array([[2.0], [0.0]])
    >>> fit = fit_kernel_pca(X @ X.T)
    >>> psi = coordinates_expansion([[3.0]], fit, X, LinearKernel())
    >>> psi.coef, psi.norm2()
    (array([[ 2., -2.]]), array([16.]))
    >>> np.round(psi.distance2(np.array([[4.0]])), 8) + 0.0
    array([0.])
    """
    coef, norm2 = expansion_coef(Y, fit, add_mean=add_mean)
    return FeatureExpansion(coef, support, kernel, norm2=norm2)
