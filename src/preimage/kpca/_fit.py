r"""Kernel PCA on arrays, with projections as feature-space expansions.

Notation (Schölkopf, Smola & Müller 1998; Mika et al. 1999): the Gram matrix
:math:`K` of the N training points, of shape (N, N), the centring matrix
:math:`H = I - \mathbf{1}\mathbf{1}^\top / N` and the centred Gram matrix
:math:`\tilde K = HKH`. With :math:`\tilde K u_k = \lambda_k u_k` and
:math:`\alpha_k = u_k / \sqrt{\lambda_k}` the principal axes
:math:`V_k = \sum_i \alpha_{ki} \tilde\phi(x_i)` have unit norm, and since
:math:`\alpha_k \perp \mathbf{1}` they are also :math:`\sum_i \alpha_{ki} \phi(x_i)`
over the *uncentred* images. A point x has centred coordinates
:math:`\beta_k = \alpha_k^\top \tilde k_x` with
:math:`\tilde k_x = H(k_x - K\mathbf{1}/N)`.

Two projections are expansions over the uncentred :math:`\phi(x_i)` (see
:func:`preimage.kpca.expansion_coef`):

* the exact reconstruction :math:`P\tilde\phi(x) + \mu`, coefficients
  :math:`A\beta + \mathbf{1}/N` with :math:`A = [\alpha_1 \cdots \alpha_q]`
  (the feature-space mean :math:`\mu` added back) — what Mika et al.'s
  fixed point is applied to for uncentred data: they derive it for data
  "assumed centred" and add (footnote 1) that otherwise "we have to go
  through the same algebra using
  :math:`\tilde\phi(x) := \phi(x) - \langle \phi(x_i) \rangle`";
* the principal part :math:`\sum_k \langle V_k, \phi(x) \rangle V_k`,
  coefficients :math:`A(\beta + c)` with :math:`c_k = \langle V_k, \mu \rangle`
  — STPRtool's ``kpcarec``.

References
----------
B. Schölkopf, A. Smola, K.-R. Müller. Nonlinear component analysis as a
kernel eigenvalue problem. Neural Computation 10(5), 1998.

S. Mika, B. Schölkopf, A. Smola, K.-R. Müller, M. Scholz, G. Rätsch. Kernel
PCA and de-noising in feature spaces. NIPS 11, 1999 (Sec. 2, eqs. (1)-(4),
and footnote 1 on uncentred data).
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral

import numpy as np

from preimage._utils.eigen import top_eigh
from preimage._utils.typing import ArrayLike, RandomStateLike
from preimage._utils.validation import check_gram, check_positive_int
from preimage.kpca._guards import (
    check_psd_eigenvalues,
    drop_rounding_level,
    refuse_no_component,
    refuse_non_finite,
    rounding_floor,
)
from preimage.kpca._projections import (
    center_block,
    check_coordinates,
    coordinates_expansion,
    expansion_coef,
    training_coordinates,
    transform_block,
)

__all__ = [
    "KernelPCAResult",
    "check_coordinates",
    "center_gram",
    "center_block",
    "check_psd_eigenvalues",
    "fit_kernel_pca",
    "transform_block",
    "training_coordinates",
    "expansion_coef",
    "coordinates_expansion",
    "leading_components",
    "drop_rounding_level",
    "refuse_no_component",
    "refuse_non_finite",
    "rounding_floor",
]


@dataclass
class KernelPCAResult:
    r"""What kernel PCA keeps from the training Gram matrix.

    The axes and the mean are expansions over a support of N points: the
    training points themselves (exact kernel PCA), or m landmarks (Nyström,
    :mod:`preimage.nystroem`, where ``eigenvectors`` and ``K_col_mean`` are
    None). Each parameter is kept as the attribute of the same name.

    Parameters
    ----------
    eigenvalues : ndarray of shape (q,)
        Eigenvalues :math:`\lambda_k` of the centred Gram matrix, decreasing
        (the scatter :math:`\sum_i \beta_{ik}^2` of the training coordinates).
    eigenvectors : ndarray of shape (N, q) or None
        Unit eigenvectors :math:`u_k`, or None.
    alphas : ndarray of shape (N, q)
        Coefficients of the unit principal axes
        :math:`V_k = \sum_i \alpha_{ik} \phi(x_i)`:
        :math:`u_k / \sqrt{\lambda_k}` for exact kernel PCA (0 for components
        whose eigenvalue is at rounding level).
    K_col_mean : ndarray of shape (N,) or None
        The column means :math:`K\mathbf{1}/N`, or None.
    K_mean : float
        :math:`\|\mu\|^2` (:math:`\mathbf{1}^\top K \mathbf{1} / N^2` for exact
        kernel PCA).
    mean_coords : ndarray of shape (q,)
        :math:`c_k = \langle V_k, \mu \rangle`
        (:math:`\alpha_k^\top K\mathbf{1}/N`).
    mean_coef : ndarray of shape (N,)
        Coefficients of the feature-space mean :math:`\mu` over the support
        (:math:`1/N` for exact kernel PCA).

    See Also
    --------
    fit_kernel_pca : Exact kernel PCA, which returns this.
    preimage.kpca.fit_nystroem_kpca : Nyström kernel PCA, which returns this.

    Examples
    --------
    The points 2 and 0 with the linear kernel: one component, whose
    eigenvalue is the scatter :math:`1^2 + (-1)^2 = 2` around the mean
    :math:`\mu = 1`, with :math:`\|\mu\|^2 = 1` and the mean's coordinate 1
    on the axis.

    >>> import numpy as np
    >>> from preimage.kpca._fit import fit_kernel_pca
    >>> X = np.array([[2.0], [0.0]])
    >>> fit = fit_kernel_pca(X @ X.T)
    >>> fit.eigenvalues, fit.K_mean, fit.mean_coords
    (array([2.]), 1.0, array([1.]))
    """

    eigenvalues: np.ndarray
    eigenvectors: np.ndarray | None
    alphas: np.ndarray
    K_col_mean: np.ndarray | None
    K_mean: float
    mean_coords: np.ndarray
    mean_coef: np.ndarray


def center_gram(K: ArrayLike, *, copy: bool = True) -> tuple[np.ndarray, np.ndarray, float]:
    r"""Centre a Gram matrix in feature space.

    With :math:`H = I - \mathbf{1}\mathbf{1}^\top / N`, the Gram matrix of the
    centred images :math:`\tilde\phi(x_i) = \phi(x_i) - \mu` is

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
        The grand mean :math:`\mathbf{1}^\top K \mathbf{1} / N^2`, which is
        :math:`\|\mu\|^2`.

    References
    ----------
    B. Schölkopf, A. Smola, K.-R. Müller. Nonlinear component analysis as a
    kernel eigenvalue problem. Neural Computation 10(5), 1998.

    G. H. Bakır, J. Weston, B. Schölkopf. Learning to find pre-images. NIPS 16,
    2004 (Sec. 2.1, footnote 1: the centred kernel matrix, and test points
    centred with the training centre).

    Examples
    --------
    The linear kernel on the points 2 and 0, whose mean is 1: the centred
    points are 1 and -1.

    >>> import numpy as np
    >>> from preimage.kpca._fit import center_gram
    >>> X = np.array([[2.0], [0.0]])
    >>> K_centred, K_col_mean, K_mean = center_gram(X @ X.T)
    >>> K_centred
    array([[ 1., -1.],
           [-1.,  1.]])
    >>> K_col_mean, K_mean
    (array([2., 0.]), 1.0)
    """
    return _center_gram(check_gram(K, "K", symmetric=True, in_place=not copy)[0], copy)


def _center_gram(K, copy):
    """``HKH`` with the column means subtracted from every row and the row
    means from every column (scikit-learn's ``KernelCenterer``): for a
    symmetric K the same as using the column means twice; for a square K
    that is not symmetric, the centred matrix the eigensolver then checks."""
    Kc = np.array(K, copy=True) if copy else K
    col_mean = Kc.mean(axis=0)
    row_mean = Kc.mean(axis=1)
    grand = float(col_mean.mean())
    Kc -= col_mean[None, :]
    Kc -= row_mean[:, None]
    Kc += grand
    return Kc, col_mean, grand


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

    Solves the eigenproblem of the centred Gram matrix and scales its
    eigenvectors so that the principal axes have unit norm in feature space:

    .. math::

        HKH\, u_k = \lambda_k u_k, \qquad
        \alpha_k = \frac{u_k}{\sqrt{\lambda_k}}, \qquad
        V_k = \sum_i \alpha_{ki} \phi(x_i), \quad \|V_k\| = 1,

    with :math:`H = I - \mathbf{1}\mathbf{1}^\top / N`. Mika et al. write the
    same problem for centred data as :math:`N\lambda\alpha = K\alpha` (their
    eq. (3)), with :math:`\lambda` the eigenvalues of the covariance in
    feature space; the :math:`\lambda_k` here are those of :math:`HKH`, N
    times larger (the scatter of the training coordinates).

    Parameters
    ----------
    K : array-like of shape (N, N)
        Uncentred Gram matrix of the training points. It must be square; a K
        that is not symmetric is accepted when its centred matrix :math:`HKH`
        is (scikit-learn's rule).
    n_components : int or None, default=None
        Number of components :math:`q \le N`; None keeps every component
        with a non-zero eigenvalue.
    eigen_solver : {"auto", "dense", "arpack", "randomized"}, default="auto"
        Solver of the leading eigenpairs (see
        :func:`preimage._utils.eigen.top_eigh`); none computes more than q of them.
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
        is given (the output may then have fewer components).
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
    The eigenvalues are checked as scikit-learn checks them: significant
    negative ones (below :math:`-10^{-5} \lambda_{\max}` and
    :math:`-10^{-10}`; :math:`5 \cdot 10^{-3}` and :math:`10^{-6}` in float32)
    mean K is not positive semi-definite and are refused with a ValueError;
    smaller negative ones are rounding and become 0. Eigenvalues below
    :math:`10^{-12} \lambda_{\max}` (:math:`2 \cdot 10^{-7} \lambda_{\max}`
    in float32), or below the rounding error of centring K,
    :math:`10 N \epsilon \max_{ij} |K_{ij}|`, are rounding noise and cannot be
    divided by: with ``n_components=None`` (or `remove_zero_eig`) they are
    dropped; components requested explicitly with such eigenvalues keep their
    place but get zero coefficients (their coordinates are identically 0),
    with a NumericalWarning if `warn_rank`. A centred Gram matrix that is
    zero at rounding level (identical points, or a kernel constant on them)
    leaves no component, with a NumericalWarning.

    References
    ----------
    B. Schölkopf, A. Smola, K.-R. Müller. Nonlinear component analysis as a
    kernel eigenvalue problem. Neural Computation 10(5), 1998.

    S. Mika, B. Schölkopf, A. Smola, K.-R. Müller, M. Scholz, G. Rätsch. Kernel
    PCA and de-noising in feature spaces. NIPS 11, 1999 (Sec. 2, eqs. (1)-(3),
    and footnote 1 on centring).

    Examples
    --------
    The linear kernel on the points 2 and 0: kernel PCA is PCA, with one
    component whose eigenvalue is the scatter :math:`1^2 + (-1)^2 = 2`, and
    the axis :math:`V = (\phi(2) - \phi(0)) / 2`, the unit vector along the
    line.

    >>> import numpy as np
    >>> from preimage.kpca._fit import fit_kernel_pca
    >>> X = np.array([[2.0], [0.0]])
    >>> fit = fit_kernel_pca(X @ X.T)
    >>> fit.eigenvalues
    array([2.])
    >>> fit.alphas
    array([[ 0.5],
           [-0.5]])
    """
    K, k_max = check_gram(K, "K", in_place=not copy)
    n = K.shape[0]
    n_components = check_positive_int(n_components, "n_components", allow_none=True)
    if n_components is not None and n_components > n:
        raise ValueError(
            f"'n_components' must be <= {n} (the size of the Gram matrix 'K'), got {n_components}"
        )
    floor = rounding_floor(k_max, n, K.dtype)
    Kc, col_mean, grand = _center_gram(K, copy)
    # Centring rounds at the scale of K, not of HKH: with a very wide kernel
    # (every value near 1) HKH is tiny and its rounding asymmetry relative
    # to itself large.
    Kc = check_gram(Kc, "K", symmetric=True, in_place=True, scale=k_max)[0]
    q = n if n_components is None else n_components
    values, vectors = top_eigh(
        Kc,
        q,
        solver="dense" if n_components is None else eigen_solver,
        tol=tol,
        max_iter=max_iter,
        iterated_power=iterated_power,
        random_state=random_state,
    )
    values = check_psd_eigenvalues(values, floor=floor, names=names)
    values, vectors, nonzero = drop_rounding_level(
        values,
        vectors,
        None if remove_zero_eig else n_components,
        floor=floor,
        warn_rank=warn_rank,
    )
    values = np.where(nonzero, values, 0.0)
    alphas = np.zeros_like(vectors)
    alphas[:, nonzero] = vectors[:, nonzero] / np.sqrt(values[nonzero])
    # Eigenvectors of HKH with λ ≠ 0 are orthogonal to 1; enforce it against
    # rounding so that the axes are exactly expansions over uncentred images.
    alphas -= alphas.mean(axis=0, keepdims=True)
    mean_coords = alphas.T @ col_mean
    return KernelPCAResult(
        values,
        vectors,
        alphas,
        col_mean,
        grand,
        mean_coords,
        np.full(n, 1.0 / n, dtype=alphas.dtype),
    )


def leading_components(fit: KernelPCAResult, n_components: int) -> KernelPCAResult:
    """Restrict a fit to its first `n_components` principal axes.

    Kernel PCA with q components contains every smaller one: the leading n
    eigenpairs are the same, so a sweep over component counts needs one fit.

    Parameters
    ----------
    fit : KernelPCAResult
        A kernel PCA fit with q components.
    n_components : int
        The number of leading components kept, between 1 and q.

    Returns
    -------
    KernelPCAResult
        The fit with its first `n_components` eigenpairs, axes and mean
        coordinates.

    Examples
    --------
    Four points on the axes of the plane, linear kernel: the scatter is 8
    along the second axis and 2 along the first.

    >>> import numpy as np
    >>> from preimage.kpca._fit import fit_kernel_pca, leading_components
    >>> X = np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 2.0], [0.0, -2.0]])
    >>> fit = fit_kernel_pca(X @ X.T)
    >>> fit.eigenvalues, leading_components(fit, 1).eigenvalues
    (array([8., 2.]), array([8.]))
    """
    q = fit.eigenvalues.shape[0]
    if (
        isinstance(n_components, bool)
        or not isinstance(n_components, Integral)
        or not 1 <= n_components <= q
    ):
        raise ValueError(
            f"'n_components' must be between 1 and {q} (the components "
            f"fitted), got {n_components!r}"
        )
    n = n_components
    vectors = None if fit.eigenvectors is None else fit.eigenvectors[:, :n]
    return KernelPCAResult(
        fit.eigenvalues[:n],
        vectors,
        fit.alphas[:, :n],
        fit.K_col_mean,
        fit.K_mean,
        fit.mean_coords[:n],
        fit.mean_coef,
    )
