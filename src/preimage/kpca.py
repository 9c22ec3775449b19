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
from typing import TYPE_CHECKING, Any

import numpy as np

from ._eigen import top_eigh
from ._expansion import FeatureExpansion
from ._typing import ArrayLike, RandomStateLike
from ._validation import (
    check_array_2d,
    check_gram,
    check_positive_int,
    check_real,
    refuse_overflow,
)
from ._warnings import warn
from .exceptions import NumericalWarning

if TYPE_CHECKING:
    from .kernels import Kernel

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

# Eigenvalues below this fraction of the largest are rounding noise (the
# thresholds scikit-learn uses for the same purpose).
_RELATIVE_ZERO = {np.dtype(np.float32): 2e-7, np.dtype(np.float64): 1e-12}


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
    preimage.nystroem.fit_nystroem_kpca : Nyström kernel PCA, which returns this.

    Examples
    --------
    The points 2 and 0 with the linear kernel: one component, whose
    eigenvalue is the scatter :math:`1^2 + (-1)^2 = 2` around the mean
    :math:`\mu = 1`, with :math:`\|\mu\|^2 = 1` and the mean's coordinate 1
    on the axis.

    >>> import numpy as np
    >>> from preimage.kpca import fit_kernel_pca
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
    >>> from preimage.kpca import center_gram
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


def center_block(K_x: ArrayLike, K_col_mean: ArrayLike, K_mean: float) -> np.ndarray:
    r"""Centre kernel rows of test points with the training centre.

    A test row :math:`k_x = [k(x, x_i)]_i` holds the inner products of
    :math:`\phi(x)` with the training images; those of the centred image
    :math:`\phi(x) - \mu` with the centred training images are

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
    B. Schölkopf, A. Smola, K.-R. Müller. Nonlinear component analysis as a
    kernel eigenvalue problem. Neural Computation 10(5), 1998.

    G. H. Bakır, J. Weston, B. Schölkopf. Learning to find pre-images. NIPS 16,
    2004 (Sec. 2.1, footnote 1: "test patterns must be centered with the same
    center obtained from the training stage").

    Examples
    --------
    The linear kernel on the training points 2 and 0 (mean 1) and the test
    point 4: its centred products with the centred points 1 and -1 are 3 and
    -3.

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
        :func:`preimage._eigen.top_eigh`); none computes more than q of them.
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
    >>> from preimage.kpca import fit_kernel_pca
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


def check_psd_eigenvalues(
    values: ArrayLike, *, floor: float = 0.0, names: str = "'K'"
) -> np.ndarray:
    r"""Check that the eigenvalues of a centred Gram matrix are non-negative.

    Rounding-level negative eigenvalues are set to 0; significant ones raise
    a ValueError: the matrix is not positive semi-definite (scikit-learn's
    thresholds and message). Eigenvalues all within the absolute rounding
    `floor` (see :func:`rounding_floor`) are noise of a zero matrix, not
    evidence of indefiniteness.

    Negative eigenvalues below :math:`-10^{-5} \lambda_{\max}` and
    :math:`-10^{-10}` (:math:`5 \cdot 10^{-3}` and :math:`10^{-6}` in float32)
    are significant: an indefinite kernel (a sigmoid, a precomputed
    similarity) or a matrix that is no Gram matrix.

    Parameters
    ----------
    values : array-like of shape (q,)
        Eigenvalues of a centred Gram matrix.
    floor : float, default=0.0
        Absolute rounding level of the eigenvalues (see
        :func:`rounding_floor`).
    names : str, default="'K'"
        The argument(s) the matrix was computed from, for the messages.

    Returns
    -------
    ndarray of shape (q,)
        A copy of `values` with the negative ones set to 0.

    Raises
    ------
    ValueError
        If significant negative eigenvalues show that the matrix is not
        positive semi-definite.

    Examples
    --------
    >>> from preimage.kpca import check_psd_eigenvalues
    >>> check_psd_eigenvalues([2.0, 1.0, -1e-12])
    array([2., 1., 0.])
    >>> check_psd_eigenvalues([2.0, -1.0])
    Traceback (most recent call last):
    ...
    ValueError: the centred Gram matrix of 'K' is not positive semi-definite. ...
    """
    values = np.array(values, copy=True)
    if not values.size:
        return values
    single = values.dtype == np.float32
    ratio, floor = (5e-3, 1e-6) if single else (1e-5, 1e-10)
    top, bottom = float(values.max()), float(values.min())
    if max(top, -bottom) <= floor:
        return np.maximum(values, 0)
    if top < 0:
        raise ValueError(
            f"the centred Gram matrix of {names} is not positive semi-definite. "
            f"All eigenvalues are negative (maximum is {top:g}). Either the "
            "matrix is not PSD, or there was an issue while computing the "
            "eigendecomposition of the matrix."
        )
    if bottom < -ratio * top and bottom < -floor:
        share = f"{-bottom / top:g}" if top > 0 else "inf"
        raise ValueError(
            f"the centred Gram matrix of {names} is not positive semi-definite. "
            f"There are significant negative eigenvalues ({share} of the "
            "maximum positive). Either the matrix is not PSD, or there was an "
            "issue while computing the eigendecomposition of the matrix."
        )
    values[values < 0] = 0
    return values


def rounding_floor(k_max: float, n: int, dtype: np.dtype | type) -> float:
    r"""Return the rounding error of the eigenvalues of a centred Gram matrix.

    For n points whose kernel values are at most `k_max` in magnitude it is
    :math:`10\, n\, \epsilon\, k_{\max}`, with :math:`\epsilon` the machine
    epsilon of `dtype`.

    Each entry of :math:`HKH` carries an error of a few
    :math:`\epsilon k_{\max}` (the kernel value, then three subtractions), so
    the error matrix has norm below :math:`5 n \epsilon k_{\max}`; an
    eigenvalue below twice that is indistinguishable from 0. It matters when
    every kernel value is nearly the same (a tiny Gaussian width):
    :math:`\lambda_{\max}` is then itself noise, and a threshold relative to
    it would keep noise.

    Parameters
    ----------
    k_max : float
        The largest magnitude of the kernel values.
    n : int
        The number of points.
    dtype : dtype or type
        The floating type of the Gram matrix (float64 for other types).

    Returns
    -------
    float
        The absolute rounding level :math:`10\, n\, \epsilon\, k_{\max}`.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.kpca import rounding_floor
    >>> print(f"{rounding_floor(1.0, 100, np.float64):.3g}")  # 10 * 100 * 2.22e-16
    2.22e-13
    """
    eps = np.finfo(dtype).eps if np.dtype(dtype).kind == "f" else np.finfo(float).eps
    return 10.0 * n * eps * k_max


def drop_rounding_level(
    values: ArrayLike,
    vectors: ArrayLike,
    n_components: int | None,
    *,
    floor: float = 0.0,
    warn_rank: bool = True,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Find the eigenvalues at rounding level, which cannot be divided by.

    They are those below :math:`10^{-12} \lambda_{\max}` (:math:`2 \cdot
    10^{-7} \lambda_{\max}` in float32) or below the absolute `floor` (see
    :func:`rounding_floor`). With ``n_components=None`` they are dropped;
    components requested explicitly keep their place, with a
    NumericalWarning if `warn_rank`. When no eigenvalue is above rounding
    level, a NumericalWarning says so.

    Parameters
    ----------
    values : array-like of shape (q,)
        Finite eigenvalues, decreasing.
    vectors : array-like of shape (n, q)
        Their eigenvectors, one column per value.
    n_components : int or None
        The number of components requested, or None to drop those at
        rounding level.
    floor : float, default=0.0
        Absolute rounding level of the eigenvalues.
    warn_rank : bool, default=True
        Warn when components requested explicitly are at rounding level.

    Returns
    -------
    values : ndarray of shape (r,)
        The eigenvalues kept (r = q when `n_components` is given).
    vectors : ndarray of shape (n, r)
        Their eigenvectors.
    nonzero : ndarray of bool of shape (r,)
        Which of them are above rounding level.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.kpca import drop_rounding_level
    >>> values, vectors = np.array([2.0, 1e-15]), np.eye(2)
    >>> drop_rounding_level(values, vectors, None)[0]
    array([2.])
    >>> drop_rounding_level(values, vectors, 2, warn_rank=False)[2]
    array([ True, False])
    """
    values, vectors = np.asarray(values), np.asarray(vectors)
    if values.ndim != 1 or values.dtype.kind != "f" or not np.isfinite(values).all():
        raise ValueError(
            f"'values' must be a finite 1-D floating array, got shape "
            f"{values.shape} and dtype {values.dtype}"
        )
    if vectors.ndim != 2 or vectors.shape[1] != values.shape[0]:
        raise ValueError(
            f"'vectors' must have one column per value ({values.shape[0]}), "
            f"got shape {vectors.shape}"
        )
    q = values.shape[0]
    scale = max(float(values[0]), 0.0) if q else 0.0
    cutoff = max(_RELATIVE_ZERO.get(values.dtype, 1e-12) * scale, floor)
    nonzero = values > cutoff if scale > 0 else np.zeros(q, bool)
    if q and not nonzero.any():
        warn(
            "the centred Gram matrix is zero at rounding level (the points have one "
            "image in feature space, or the kernel is constant on them): kernel PCA "
            "has no component"
            + ("" if n_components is None else f"; the {q} components requested are set to 0"),
            NumericalWarning,
        )
    elif warn_rank and n_components is not None and not nonzero.all():
        warn(
            f"{int((~nonzero).sum())} of the {q} components requested have an eigenvalue "
            "at rounding level (the centred Gram matrix has lower rank); their "
            "coordinates are set to 0. Ask for fewer components.",
            NumericalWarning,
        )
    if n_components is None:
        values, vectors = values[nonzero], vectors[:, nonzero]
        nonzero = nonzero[nonzero]
    return values, vectors, nonzero


def refuse_no_component(fit: KernelPCAResult, gamma: float | None = None) -> KernelPCAResult:
    """Return `fit`, or raise a ValueError when it has no component.

    A fit without a positive eigenvalue means that all training points have
    one image in feature space, so there is nothing to denoise or reduce
    onto; the message names 'X' (and 'gamma' when given).

    Parameters
    ----------
    fit : KernelPCAResult
        A kernel PCA fit.
    gamma : float or None, default=None
        The kernel width, named in the message as a likely cause.

    Returns
    -------
    KernelPCAResult
        `fit` itself.

    Raises
    ------
    ValueError
        If no eigenvalue of `fit` is positive.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.kpca import fit_kernel_pca, refuse_no_component
    >>> X = np.array([[2.0], [0.0]])
    >>> fit = fit_kernel_pca(X @ X.T)
    >>> refuse_no_component(fit) is fit
    True
    """
    if not (fit.eigenvalues > 0).any():
        hint = "" if gamma is None else f", e.g. 'gamma'={gamma:.3g} too small"
        raise ValueError(
            "kernel PCA of 'X' has no component: its centred Gram matrix has no "
            "eigenvalue above rounding level, so all points have one image in "
            f"feature space (identical rows, or a kernel constant on them{hint}), "
            "or the kernel is indefinite without positive eigenvalue"
        )
    return fit


def refuse_non_finite(fit: KernelPCAResult | None, names: str, n: int) -> KernelPCAResult:
    """Return `fit`, or raise a ValueError when its arithmetic overflowed.

    An overflowed fit is None, or has a non-finite array: kernel values
    beyond about 1e154, whose products exceed float64.

    Parameters
    ----------
    fit : KernelPCAResult or None
        A kernel PCA fit, or None when it overflowed.
    names : str
        The argument(s) the fit was computed from, for the message.
    n : int
        The number of samples, for the message.

    Returns
    -------
    KernelPCAResult
        `fit` itself.

    Raises
    ------
    ValueError
        If `fit` is None or holds a value that is not finite.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.kpca import fit_kernel_pca, refuse_non_finite
    >>> X = np.array([[2.0], [0.0]])
    >>> fit = fit_kernel_pca(X @ X.T)
    >>> refuse_non_finite(fit, "'X'", 2) is fit
    True
    """
    parts: list[Any] = (
        [np.inf]
        if fit is None
        else [
            a
            for a in (
                fit.eigenvalues,
                fit.eigenvectors,
                fit.alphas,
                fit.K_col_mean,
                fit.K_mean,
                fit.mean_coords,
                fit.mean_coef,
            )
            if a is not None
        ]
    )
    for part in parts:
        refuse_overflow(
            part,
            f"the results of kernel PCA of {names} ({n} samples)",
            names,
            "the kernel values are too large for the products of the fit; "
            "rescale the data (e.g. with sklearn.preprocessing.StandardScaler) "
            "or choose milder kernel parameters",
        )
    return fit


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
    >>> from preimage.kpca import fit_kernel_pca, leading_components
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


def transform_block(K_x: ArrayLike, fit: KernelPCAResult) -> np.ndarray:
    r"""Return the centred coordinates of test points from their kernel rows.

    The coordinate of :math:`\phi(x)` on the k-th principal axis, measured
    from the feature-space mean, is

    .. math::

        \beta_k = \langle V_k, \phi(x) - \mu \rangle
        = k_x^\top \alpha_k - c_k, \qquad c_k = \langle V_k, \mu \rangle,

    with :math:`k_x = [k(x, s_i)]_i` the kernel row against the support.
    For exact kernel PCA it is computed as :math:`\tilde k_x^\top A` with the
    centred rows of :func:`center_block` (the same in exact arithmetic, since
    the columns of :math:`A = [\alpha_1 \cdots \alpha_q]` sum to zero, and
    better conditioned: the common part of the kernel row cancels before the
    product).

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
    S. Mika, B. Schölkopf, A. Smola, K.-R. Müller, M. Scholz, G. Rätsch. Kernel
    PCA and de-noising in feature spaces. NIPS 11, 1999 (Sec. 2: the
    projection :math:`\beta_k = (V^k \cdot \Phi(x)) = \sum_i \alpha_i^k
    k(x, x_i)`, and footnote 1 on centring).

    Examples
    --------
    The linear kernel on the points 2 and 0, whose axis is the line itself:
    the point 4 lies 3 from their mean 1.

    >>> import numpy as np
    >>> from preimage.kpca import fit_kernel_pca, transform_block
    >>> X = np.array([[2.0], [0.0]])
    >>> fit = fit_kernel_pca(X @ X.T)
    >>> transform_block(np.array([[4.0]]) @ X.T, fit)
    array([[3.]])
    """
    K_x = check_array_2d(K_x, "K_x", min_samples=0, n_features=fit.alphas.shape[0])
    if fit.K_col_mean is not None:
        return _center_block(K_x, fit.K_col_mean, fit.K_mean) @ fit.alphas
    return K_x @ fit.alphas - fit.mean_coords


def training_coordinates(
    fit: KernelPCAResult, kernel: Kernel | None = None, support: np.ndarray | None = None
) -> np.ndarray:
    r"""Return the centred coordinates of the support points themselves.

    For exact kernel PCA they are :math:`\beta_{ik} = u_{ik} \sqrt{\lambda_k}`,
    with no kernel evaluation: :math:`\beta_k = HKH \alpha_k = \lambda_k
    \alpha_k = \sqrt{\lambda_k} u_k`. For a Nyström fit (no eigenvectors) they
    are the landmarks' own coordinates, from their Gram block
    ``k(support, support)`` (see :func:`transform_block`).

    Parameters
    ----------
    fit : KernelPCAResult
        The kernel PCA fit, over N support points with q components.
    kernel : Kernel or None, default=None
        The kernel; needed by a Nyström fit only.
    support : ndarray of shape (N, d) or None, default=None
        The support points; needed by a Nyström fit only.

    Returns
    -------
    ndarray of shape (N, q)
        The centred coordinates of the support points.

    References
    ----------
    B. Schölkopf, A. Smola, K.-R. Müller. Nonlinear component analysis as a
    kernel eigenvalue problem. Neural Computation 10(5), 1998.

    Examples
    --------
    The points 2 and 0 lie at 1 and -1 from their mean, along the axis.

    >>> import numpy as np
    >>> from preimage.kpca import fit_kernel_pca, training_coordinates
    >>> X = np.array([[2.0], [0.0]])
    >>> training_coordinates(fit_kernel_pca(X @ X.T))
    array([[ 1.],
           [-1.]])
    """
    if fit.eigenvectors is not None:
        return fit.eigenvectors * np.sqrt(fit.eigenvalues)
    return transform_block(
        kernel.block(support, support, check_input=False, names="'support'"), fit
    )


def check_coordinates(Y: ArrayLike, n_components: int) -> np.ndarray:
    """Check that Y holds finite centred coordinates, one column per component.

    Parameters
    ----------
    Y : array-like of shape (m, q)
        Centred coordinates, with q = `n_components`.
    n_components : int
        The number of components q of the fit.

    Returns
    -------
    ndarray of shape (m, q)
        Y as a checked floating array.

    Raises
    ------
    ValueError
        If Y is not of shape (m, q), or holds a value that is not finite; the
        message names 'Y'.

    Examples
    --------
    >>> from preimage.kpca import check_coordinates
    >>> check_coordinates([[1.0, 2.0]], 2)
    array([[1., 2.]])
    >>> check_coordinates([[1.0, 2.0]], 3)
    Traceback (most recent call last):
    ...
    ValueError: 'Y' must have shape (n_samples, 3) (one column per component), got shape (1, 2)
    """
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

    The feature-space point with centred coordinates y is an expansion
    :math:`\Psi = \sum_i \gamma_i \phi(s_i)` over the support, with
    :math:`A = [\alpha_1 \cdots \alpha_q]`, the mean's coefficients
    :math:`m_\mu` (:math:`\mathbf{1}/N` for exact kernel PCA) and
    :math:`c_k = \langle V_k, \mu \rangle`:

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
        the principal part :math:`\sum_k (y_k + c_k) V_k` (for a projected
        point, :math:`y_k + c_k = \langle V_k, \phi(x) \rangle`).

    Returns
    -------
    coef : ndarray of shape (m, N)
        The coefficients :math:`\gamma` of each expansion.
    norm2 : ndarray of shape (m,)
        The squared feature-space norm of each expansion, in closed form.

    References
    ----------
    S. Mika, B. Schölkopf, A. Smola, K.-R. Müller, M. Scholz, G. Rätsch. Kernel
    PCA and de-noising in feature spaces. NIPS 11, 1999 (Sec. 2, eq. (4): the
    projection :math:`P_n \Phi(x) = \sum_k \beta_k V^k`; footnote 1 on
    uncentred data).

    Examples
    --------
    The linear kernel on the points 2 and 0: the coordinate 3 stands for the
    point 4 (3 from the mean 1), which is :math:`2 \phi(2) - \phi(0)` with the
    mean added back, or :math:`2 \phi(2) - 2 \phi(0)` as the principal part.

    >>> import numpy as np
    >>> from preimage.kpca import expansion_coef, fit_kernel_pca
    >>> X = np.array([[2.0], [0.0]])
    >>> fit = fit_kernel_pca(X @ X.T)
    >>> expansion_coef([[3.0]], fit, add_mean=True)
    (array([[ 2., -1.]]), array([16.]))
    >>> expansion_coef([[3.0]], fit)
    (array([[ 2., -2.]]), array([16.]))
    """
    Y = check_coordinates(Y, fit.alphas.shape[1])
    if Y.dtype != fit.alphas.dtype:  # float64 coordinates of a float32 fit
        with np.errstate(over="ignore"):
            Y = Y.astype(fit.alphas.dtype)
        Y = check_array_2d(Y, "Y", min_samples=0)
    # Components with a zero eigenvalue have V_k = 0: their coordinates count for nothing.
    Y = Y * (fit.eigenvalues > 0)
    if add_mean:
        coef = Y @ fit.alphas.T + fit.mean_coef
        norm2 = np.einsum("ij,ij->i", Y, Y) + 2 * Y @ fit.mean_coords + fit.K_mean
    else:
        Yc = Y + fit.mean_coords
        coef = Yc @ fit.alphas.T
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

    The expansions :math:`\Psi = \sum_i \gamma_i \phi(s_i)` are over the
    uncentred images of the support, with their squared norms in closed form
    (see :func:`expansion_coef`): :math:`\gamma = A y + m_\mu` for the exact
    reconstruction :math:`\sum_k y_k V_k + \mu`, :math:`\gamma = A(y + c)`
    for the principal part :math:`\sum_k (y_k + c_k) V_k`.

    Parameters
    ----------
    Y : array-like of shape (m, q)
        Centred coordinates (as returned by :func:`transform_block`).
    fit : KernelPCAResult
        The kernel PCA fit, over N support points with q components.
    support : ndarray of shape (N, d) or None
        The support points, or None for a precomputed kernel: the expansion
        then knows only its coefficients and norms.
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
    S. Mika, B. Schölkopf, A. Smola, K.-R. Müller, M. Scholz, G. Rätsch. Kernel
    PCA and de-noising in feature spaces. NIPS 11, 1999 (Sec. 2, eq. (4), and
    footnote 1 on uncentred data).

    Examples
    --------
    With the linear kernel the feature map is the identity: the coordinate 3
    of the fit on the points 2 and 0 is the point 4, at distance 0.

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
