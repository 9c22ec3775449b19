"""Kernel dependency estimation on Gram matrices: the output coordinates and
the regression that predicts them (the notation of :mod:`preimage.dependency`;
γ is ``alpha``)."""

from __future__ import annotations

from dataclasses import dataclass
import warnings

import numpy as np
from scipy import linalg

from preimage._utils.typing import ArrayLike
from preimage._utils.validation import (
    check_array_2d,
    check_gram,
    check_magnitude,
    check_overflow,
    check_positive,
)
from preimage._utils.warnings import warn
from preimage.exceptions import NumericalWarning
from preimage.kpca._fit import fit_kernel_pca
from preimage.kpca._projections import transform_block
from preimage.kpca._result import KernelPCAResult

#: Forms of the regression from inputs to output coordinates.
REGRESSIONS = ("paper", "ridge")


@dataclass
class KDEResult:
    r"""What kernel dependency estimation keeps from the training Gram matrices.

    The estimated coordinates of an input :math:`x` are :math:`k(x, X)\,\beta`.
    Made by :func:`fit_kde`; the fields are attributes of the same names.

    Parameters
    ----------
    output_pca : KernelPCAResult
        Kernel PCA of the output Gram matrix :math:`L`.
    coordinates : ndarray of shape (m, r)
        The centred coordinates :math:`P_{ij} = u_{ij} \sqrt{\lambda_j}` of the
        training outputs.
    weights : ndarray of shape (m, r)
        The weights :math:`\beta`.
    alpha : float
        The strength :math:`\gamma` of the regression's penalty.
    regression : {"paper", "ridge"}
        The form of the regression (see :func:`kde_regression`).

    References
    ----------
    Weston et al. (2003). Bakır et al. (2004), Sec. 2.2.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.dependency import fit_kde
    >>> Y = np.array([[-1.0], [1.0]])           # two outputs with mean 0
    >>> result = fit_kde(np.eye(2), Y @ Y.T)    # linear output kernel
    >>> np.round(np.abs(result.coordinates), 4)  # the outputs, up to sign
    array([[1.],
           [1.]])
    """

    output_pca: KernelPCAResult
    coordinates: np.ndarray
    weights: np.ndarray
    alpha: float
    regression: str


def kde_regression(
    K: ArrayLike, P: ArrayLike, alpha: float = 1.0, regression: str = "paper"
) -> np.ndarray:
    r"""Return the weights :math:`\beta` of the map from inputs to output coordinates.

    The map :math:`g_j(x) = \sum_s \beta_{sj} k(x_s, x)` is fitted to the
    coordinates :math:`P_{ij}` of the training outputs (eq. 3). The paper's
    form (``"paper"``, eq. 4) penalises the norm of the weights, kernel ridge
    regression (``"ridge"``) the RKHS norm of :math:`g_j`:

    .. math::

        \beta = (K^\top K + \gamma I)^{-1} K^\top P, \qquad
        \beta = (K + \gamma I)^{-1} P.

    On an eigenvalue :math:`\lambda` of :math:`K` their spectral filters are
    :math:`\lambda^2 / (\lambda^2 + \gamma)` and :math:`\lambda / (\lambda + \gamma)`.

    Parameters
    ----------
    K : array-like of shape (m, m)
        Input Gram matrix, not centred (the map has no bias, the targets mean zero).
    P : array-like of shape (m, r)
        Targets, the output coordinates of the training outputs.
    alpha : float, default=1.0
        The strength :math:`\gamma > 0` of the penalty.
    regression : {"paper", "ridge"}, default="paper"
        The form of the regression.

    Returns
    -------
    ndarray of shape (m, r)
        The weights :math:`\beta`.

    Warns
    -----
    NumericalWarning
        If the system is not positive definite: the least-norm solution then.

    References
    ----------
    Weston et al. (2003). Bakır et al. (2004), Sec. 2.2, eqs. 3 and 4.

    Examples
    --------
    With :math:`K = 2I` and :math:`\gamma = 2` the weights are :math:`2 / (4 + 2)`
    (paper) and :math:`1 / (2 + 2)` (ridge) of the targets:

    >>> import numpy as np
    >>> from preimage.dependency import kde_regression
    >>> K, P = 2 * np.eye(2), np.array([[1.0], [-1.0]])
    >>> np.round(kde_regression(K, P, alpha=2.0), 4)
    array([[ 0.3333],
           [-0.3333]])
    >>> np.round(kde_regression(K, P, alpha=2.0, regression="ridge"), 4)
    array([[ 0.25],
           [-0.25]])
    """
    if regression not in REGRESSIONS:
        raise ValueError(f"'regression' must be one of {list(REGRESSIONS)}, got {regression!r}")
    K = _check_gram(K, "K")
    P = check_array_2d(P, "P", dtype=np.float64, min_samples=0)
    if P.shape[0] != K.shape[0]:
        raise ValueError(
            f"'P' must have shape ({K.shape[0]}, r), one row per row of 'K', got shape {P.shape}"
        )
    alpha = check_positive(alpha, "alpha")
    # _check_gram bounds |K_ij| by √(max/4m), so KᵀK cannot overflow.
    A, B = (K.T @ K, K.T @ P) if regression == "paper" else (K.copy(), P)
    A.flat[:: A.shape[0] + 1] += alpha
    # Positive definite for γ > 0 and K ⪰ 0; a kernel not PSD, or a γ negligible against
    # a singular K, gets the least-norm solution (the pseudo-inverse), with a warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error", linalg.LinAlgWarning)
        try:
            return linalg.solve(A, B, assume_a="pos")
        except (linalg.LinAlgError, linalg.LinAlgWarning):
            pass
    warn(
        f"the regression matrix ({'KᵀK' if regression == 'paper' else 'K'} + γI) is "
        f"not positive definite to working precision (γ = 'alpha' = {alpha:.3g}; is the "
        "input kernel positive semi-definite, and γ not negligible against it?); solved "
        "with its pseudo-inverse instead of Cholesky",
        NumericalWarning,
    )
    return linalg.pinvh(A) @ B


def _check_gram(K: ArrayLike, name: str) -> np.ndarray:
    """A finite, square, non-empty float64 Gram matrix whose entries are small
    enough that ``KᵀK`` cannot overflow (:func:`check_magnitude`)."""
    return check_magnitude(check_gram(K, name, dtype=np.float64)[0], name)


def fit_kde(
    K: ArrayLike,
    L: ArrayLike,
    n_components: int | None = None,
    *,
    alpha: float = 1.0,
    regression: str = "paper",
) -> KDEResult:
    r"""Fit kernel dependency estimation on Gram matrices.

    Kernel PCA of :math:`HLH`, :math:`H = I - \frac{1}{m} \mathbf{1}\mathbf{1}^\top`,
    gives the axes :math:`v_j` and the centred coordinates of the training outputs,

    .. math::

        P_{ij} = \langle \phi_l(y_i) - \mu, v_j \rangle = u_{ij} \sqrt{\lambda_j},

    then :func:`kde_regression` learns the weights :math:`\beta` of the map
    :math:`x \mapsto k(x, X)\,\beta` to them.

    Parameters
    ----------
    K : array-like of shape (m, m)
        Input Gram matrix :math:`K_{st} = k(x_s, x_t)`.
    L : array-like of shape (m, m)
        Output Gram matrix, uncentred; for a joint kernel, of the pairs.
    n_components : int, default=None
        The number :math:`r` of output axes kept; None keeps all with a
        non-zero eigenvalue.
    alpha : float, default=1.0
        The strength :math:`\gamma > 0` of the regression's penalty.
    regression : {"paper", "ridge"}, default="paper"
        The form of the regression (see :func:`kde_regression`).

    Returns
    -------
    KDEResult
        The output kernel PCA, the coordinates :math:`P` and the weights.

    Raises
    ------
    ValueError
        If :math:`L` has no principal component above rounding level.

    References
    ----------
    Weston et al. (2003). Bakır et al. (2004), Sec. 2.2.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.dependency import fit_kde, predict_coordinates
    >>> X = np.random.default_rng(0).normal(size=(20, 3))
    >>> X -= X.mean(axis=0)            # no bias in the map: centred linear data
    >>> Y = X @ np.ones((3, 2))
    >>> result = fit_kde(X @ X.T, Y @ Y.T, alpha=1e-6)
    >>> result.coordinates.shape       # rank of the centred outputs: 1
    (20, 1)
    >>> bool(np.allclose(predict_coordinates(X @ X.T, result), result.coordinates,
    ...                  atol=1e-4))
    True
    """
    K = _check_gram(K, "K")
    L = _check_gram(L, "L")
    if K.shape != L.shape:
        raise ValueError(
            f"'K' and 'L' must have the same shape (one row per training "
            f"pair), got {K.shape} and {L.shape}"
        )
    alpha = check_positive(alpha, "alpha")
    pca = fit_kernel_pca(L, n_components, copy=True, names="'L' (the outputs' Gram matrix)")
    if not (pca.eigenvalues > 0).any():
        raise ValueError(
            "'L' (the output Gram matrix) has no principal component above rounding level: every "
            "output is the same point of the output feature space, so there are no output "
            "coordinates to learn; KDE needs at least two distinct outputs 'Y'"
        )
    P = pca.eigenvectors * np.sqrt(pca.eigenvalues)
    return KDEResult(pca, P, kde_regression(K, P, alpha, regression), float(alpha), regression)


def predict_coordinates(K_x: ArrayLike, result: KDEResult) -> np.ndarray:
    r"""Return the estimated output coordinates of inputs from their kernel rows.

    .. math::

        \hat{c}(x) = k(x, X)\,\beta.

    Parameters
    ----------
    K_x : array-like of shape (n, m)
        Kernel rows of :math:`n` inputs against the :math:`m` training inputs.
    result : KDEResult
        The fit of :func:`fit_kde`.

    Returns
    -------
    ndarray of shape (n, r)
        The estimated coordinates, one row per input.

    References
    ----------
    Weston et al. (2003). Bakır et al. (2004), Sec. 2.2, eq. 5.

    Examples
    --------
    With :math:`K = I` and :math:`\gamma = 1`, :math:`\beta = P / 2`:

    >>> import numpy as np
    >>> from preimage.dependency import fit_kde, predict_coordinates
    >>> Y = np.array([[-1.0], [1.0]])
    >>> result = fit_kde(np.eye(2), Y @ Y.T, alpha=1.0)
    >>> c = predict_coordinates([[1.0, 0.0]], result)
    >>> print(f"{c[0, 0] / result.coordinates[0, 0]:.4f}")
    0.5000
    """
    return _coordinates(K_x, "K_x", result.weights.shape[0], lambda K: K @ result.weights)


def output_coordinates(L_y: ArrayLike, result: KDEResult) -> np.ndarray:
    r"""Return the centred coordinates of outputs from their output kernel rows.

    .. math::

        c_j(y) = \langle \phi_l(y) - \mu, v_j \rangle, \qquad j = 1, \ldots, r.

    Parameters
    ----------
    L_y : array-like of shape (n, m)
        Output kernel rows of :math:`n` outputs against the :math:`m` training outputs.
    result : KDEResult
        The fit of :func:`fit_kde`.

    Returns
    -------
    ndarray of shape (n, r)
        The centred coordinates, one row per output.

    References
    ----------
    Weston et al. (2003). Bakır et al. (2004), Sec. 2.2.

    Examples
    --------
    With a linear output kernel the coordinate is the output less the mean (0
    here), up to sign:

    >>> import numpy as np
    >>> from preimage.dependency import fit_kde, output_coordinates
    >>> Y = np.array([[-1.0], [1.0]])
    >>> result = fit_kde(np.eye(2), Y @ Y.T)
    >>> np.round(np.abs(output_coordinates(np.array([[3.0]]) @ Y.T, result)), 4)
    array([[3.]])
    """
    width = result.coordinates.shape[0]
    return _coordinates(L_y, "L_y", width, lambda L: transform_block(L, result.output_pca))


def _coordinates(rows, name, width, product):
    """``product(rows)`` for kernel rows checked against `width` training points,
    refused where it overflowed."""
    rows = check_array_2d(rows, name, dtype=np.float64, min_samples=0, n_features=width)
    with np.errstate(over="ignore", invalid="ignore"):
        out = product(rows)
    hint = "their kernel values are too large for the fitted weights; rescale the data"
    return check_overflow(out, "the coordinates", f"{name!r}", hint)
