"""Exact kernel PCA of a Gram matrix: :func:`center_gram` and :func:`fit_kernel_pca`."""

from __future__ import annotations

import numpy as np

from preimage._utils.eigen import top_eigh
from preimage._utils.typing import ArrayLike, RandomStateLike
from preimage._utils.validation import check_gram, check_positive_int
from preimage.kernels._pairwise import map_rows_inplace
from preimage.kpca._guards import check_psd_eigenvalues, drop_rounding_level, rounding_floor
from preimage.kpca._result import KernelPCAResult


def center_gram(K: ArrayLike, *, copy: bool = True) -> tuple[np.ndarray, np.ndarray, float]:
    r"""Centre a Gram matrix in feature space.

    With :math:`H = I - \mathbf{1}\mathbf{1}^\top / N`, the Gram matrix of the
    centred images :math:`\phi(x_i) - \mu` is

    .. math::

        \tilde K = HKH, \qquad
        \tilde K_{ij} = K_{ij} - m_i - m_j + \bar m,

    with the column means :math:`m = K\mathbf{1}/N` and the grand mean
    :math:`\bar m = \mathbf{1}^\top K \mathbf{1} / N^2` (scikit-learn's
    ``KernelCenterer``).

    Parameters
    ----------
    K : array-like of shape (N, N)
        Symmetric Gram matrix of the training points.
    copy : bool, default=True
        If False, K is centred in place.

    Returns
    -------
    K_centred : ndarray of shape (N, N)
        The centred Gram matrix :math:`HKH`.
    K_col_mean : ndarray of shape (N,)
        The column means :math:`K\mathbf{1}/N`.
    K_mean : float
        The grand mean, which is :math:`\|\mu\|^2`.

    References
    ----------
    Schölkopf et al. (1998). Bakır et al. (2004), Sec. 2.1, footnote 1.

    Examples
    --------
    The linear kernel on the points 2 and 0, whose mean is 1: the centred
    points are 1 and -1.

    >>> import numpy as np
    >>> from preimage.kpca import center_gram
    >>> X = np.array([[2.0], [0.0]])
    >>> K_centred, K_col_mean, K_mean = center_gram(X @ X.T)
    >>> K_centred
    array([[ 1., -1.],
           [-1.,  1.]])
    >>> K_col_mean, K_mean
    (array([2., 0.]), 1.0)
    """
    return _center_gram(check_gram(K, "K", symmetric=True, in_place=not copy)[0], copy)[:3]


def _center_gram(K, copy, symmetric=False):
    """``HKH`` with the column means subtracted from every row and the row
    means from every column (scikit-learn's ``KernelCenterer``); with
    `symmetric` (K exactly symmetric) also ``max|K_ij|``."""
    Kc = np.array(K, copy=True) if copy else K
    if symmetric:
        # Row means are column means m: K_ij - (h_i + h_j) with h = m - m̄/2,
        # as symmetric as K, in one pass over cache-sized blocks that also
        # finds max|K_ij| before they are centred.
        mean = Kc.mean(axis=1)
        grand, tops = float(mean.mean()), [0.0]
        half = mean - grand / 2

        def centre(block, rows):
            tops.append(max(float(block.max()), -float(block.min())))
            block -= np.add(half[rows, None], half)

        return map_rows_inplace(centre, Kc), mean, grand, max(tops)
    col_mean, row_mean = Kc.mean(axis=0), Kc.mean(axis=1)
    grand = float(col_mean.mean())
    Kc -= col_mean[None, :]
    Kc -= row_mean[:, None]
    Kc += grand
    return Kc, col_mean, grand, None


def fit_kernel_pca(
    K: ArrayLike,
    n_components: int | None = None,
    *,
    eigen_solver: str = "auto",
    tol: float = 0.0,
    max_iter: int | None = None,
    iterated_power: int | str = "auto",
    random_state: RandomStateLike = None,
    copy: bool = True,
    remove_zero_eig: bool = False,
    warn_rank: bool = True,
    names: str = "'K'",
) -> KernelPCAResult:
    r"""Kernel PCA of the Gram matrix `K`.

    The eigenvectors of the centred Gram matrix, scaled so that the principal
    axes have unit norm in feature space:

    .. math::

        HKH\, u_k = \lambda_k u_k, \qquad
        \alpha_k = \frac{u_k}{\sqrt{\lambda_k}}, \qquad
        V_k = \sum_i \alpha_{ki} \phi(x_i), \quad \|V_k\| = 1.

    Since :math:`\alpha_k \perp \mathbf{1}`, the axes are expansions over the
    uncentred images too. The :math:`\lambda_k` are N times Mika et al.'s
    (their eq. 3 uses the covariance in feature space).

    Parameters
    ----------
    K : array-like of shape (N, N)
        Uncentred Gram matrix of the training points. It must be square; a K
        that is not symmetric is accepted when :math:`HKH` is (scikit-learn's
        rule).
    n_components : int or None, default=None
        Number of components :math:`q \le N`; None keeps every component
        with a non-zero eigenvalue.
    eigen_solver : {"auto", "dense", "arpack", "randomized"}, default="auto"
        Solver of the leading eigenpairs; none computes more than q of them.
    tol : float, default=0.0
        ARPACK's tolerance (0: machine precision).
    max_iter : int or None, default=None
        ARPACK's iteration limit.
    iterated_power : int or "auto", default="auto"
        Power iterations of the randomized solver.
    random_state : int, RandomState instance, Generator or None, default=None
        Start vector of ARPACK, test matrix of the randomized solver.
    copy : bool, default=True
        If False, K is centred in place.
    remove_zero_eig : bool, default=False
        Drop the components with a zero eigenvalue even when `n_components`
        is given.
    warn_rank : bool, default=True
        Warn when components requested explicitly have a zero eigenvalue.
    names : str, default="'K'"
        The argument(s) K was computed from, for the messages.

    Returns
    -------
    KernelPCAResult
        The eigenpairs, the coefficients :math:`\alpha_k` of the axes and the
        feature-space mean, over the training points as support.

    Notes
    -----
    Significant negative eigenvalues (scikit-learn's thresholds) are refused
    with a ValueError; smaller ones become 0. Eigenvalues below
    :math:`10^{-12} \lambda_{\max}` (:math:`2 \cdot 10^{-7} \lambda_{\max}`
    in float32) or :math:`10 N \epsilon \max_{ij} |K_{ij}|` are noise:
    dropped with ``n_components=None`` (or `remove_zero_eig`), else kept with
    zero coefficients (and a NumericalWarning if `warn_rank`).

    References
    ----------
    Schölkopf et al. (1998). Mika et al. (1999), Sec. 2, eqs. 1-3 and
    footnote 1.

    Examples
    --------
    The linear kernel on the points 2 and 0: one component of eigenvalue
    :math:`1^2 + (-1)^2 = 2`, the axis :math:`(\phi(2) - \phi(0)) / 2`.

    >>> import numpy as np
    >>> from preimage.kpca import fit_kernel_pca
    >>> X = np.array([[2.0], [0.0]])
    >>> fit = fit_kernel_pca(X @ X.T)
    >>> fit.eigenvalues
    array([2.])
    >>> fit.coef
    array([[ 0.5],
           [-0.5]])
    """
    return _fit_kernel_pca(**locals())  # every argument as it came


def _fit_kernel_pca(
    K, n_components, *, own=False, copy, eigen_solver, remove_zero_eig, warn_rank, names, **solver
):
    """:func:`fit_kernel_pca`; `own`: K is the library's own ``k(X, X)``, finite
    and symmetric by construction (to rounding where scikit-learn splits it over
    jobs), so that neither check reads it."""
    if not own:
        K, k_max = check_gram(K, "K", in_place=not copy)
    n = K.shape[0]
    n_components = check_positive_int(n_components, "n_components", allow_none=True)
    if n_components is not None and n_components > n:
        raise ValueError(
            f"'n_components' must be <= {n} (the size of the Gram matrix 'K'), got {n_components}"
        )
    Kc, col_mean, grand, top = _center_gram(K, copy, symmetric=own)
    if own:
        k_max = top
    else:
        # Centring rounds at the scale of K, not of HKH: with a very wide kernel
        # (every value near 1) HKH is tiny and its rounding asymmetry relative
        # to itself large.
        Kc = check_gram(Kc, "K", symmetric=True, in_place=True, scale=k_max)[0]
    floor = rounding_floor(k_max, n, K.dtype)
    q = n if n_components is None else n_components
    values, vectors = top_eigh(
        Kc, q, solver="dense" if n_components is None else eigen_solver, **solver
    )
    values = check_psd_eigenvalues(values, floor=floor, names=names)
    n_kept = None if remove_zero_eig else n_components
    values, vectors, nonzero = drop_rounding_level(
        values, vectors, n_kept, floor=floor, warn_rank=warn_rank
    )
    values = np.where(nonzero, values, 0.0)
    alphas = np.zeros_like(vectors)
    alphas[:, nonzero] = vectors[:, nonzero] / np.sqrt(values[nonzero])
    # Eigenvectors of HKH with λ ≠ 0 are orthogonal to 1; enforce it against
    # rounding so that the axes are exactly expansions over uncentred images.
    alphas -= alphas.mean(axis=0, keepdims=True)
    mean_coef = np.full(n, 1.0 / n, dtype=alphas.dtype)
    mean_coords = alphas.T @ col_mean
    return KernelPCAResult(values, vectors, alphas, col_mean, grand, mean_coords, mean_coef)
