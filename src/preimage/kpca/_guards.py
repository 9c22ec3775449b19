"""The guards of kernel PCA, exported by :mod:`preimage.kpca`.

The eigenvalues of a centred Gram matrix checked: significant negative ones
refused (the matrix is not positive semi-definite), negative rounding set to
0, and those at rounding level found, relative to the largest and to the
rounding error of centring K; and fits refused when they have no component
or their arithmetic overflowed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from preimage._utils.typing import ArrayLike
from preimage._utils.validation import refuse_overflow
from preimage._utils.warnings import warn
from preimage.exceptions import NumericalWarning

if TYPE_CHECKING:
    from preimage.kpca._fit import KernelPCAResult

__all__ = [
    "check_psd_eigenvalues",
    "rounding_floor",
    "drop_rounding_level",
    "refuse_no_component",
    "refuse_non_finite",
]

# Eigenvalues below this fraction of the largest are rounding noise (the
# thresholds scikit-learn uses for the same purpose).
_RELATIVE_ZERO = {np.dtype(np.float32): 2e-7, np.dtype(np.float64): 1e-12}


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
    >>> from preimage.kpca._fit import check_psd_eigenvalues
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
    >>> from preimage.kpca._fit import rounding_floor
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
    >>> from preimage.kpca._fit import drop_rounding_level
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
    >>> from preimage.kpca._fit import fit_kernel_pca, refuse_no_component
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
    >>> from preimage.kpca._fit import fit_kernel_pca, refuse_non_finite
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
