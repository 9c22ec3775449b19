"""Kernel dependency estimation on Gram matrices: the output coordinates and
the regression that predicts them (Weston et al. 2003; Bakır, Weston &
Schölkopf 2004, Sec. 2.2).

With m training pairs, input Gram ``K_st = k(x_s, x_t)`` and output Gram
``L_st = l(y_s, y_t)``:

1. kernel PCA of the centred output Gram ``HLH`` gives r principal axes
   ``v_j = Σ_i α_ji φ_l(y_i)`` and the centred coordinates
   ``P_ij = ⟨φ_l(y_i) − μ, v_j⟩ = u_ij √λ_j`` of the training outputs;
2. for every axis, a regression of ``P_·j`` on the inputs with
   ``g(x) = Σ_s β_sj k(x_s, x)``,

       min_β ‖P − Kβ‖² + γ‖β‖²   ⇒   β = (KᵀK + γI)⁻¹ KᵀP          (paper, eq. 4)

   (K is symmetric, so ``KᵀP = KP`` as printed), or kernel ridge regression,
   which penalises the RKHS norm ``γ βᵀKβ`` of g:  ``β = (K + γI)⁻¹ P``;
3. the estimated coordinates of a new x are the row ``k(x, X) β``; those of
   a known output y are ``⟨φ_l(y) − μ, v_j⟩`` from its kernel row
   ``l(y, Y)``. γ is ``alpha`` here, as everywhere in the library.
"""

from __future__ import annotations

from dataclasses import dataclass
import warnings

import numpy as np
from scipy import linalg

from .._typing import ArrayLike
from .._validation import (
    check_array_2d,
    check_gram,
    check_magnitude,
    check_positive,
    refuse_overflow,
)
from .._warnings import warn
from ..exceptions import NumericalWarning
from ..kpca import KernelPCAResult, fit_kernel_pca, transform_block

__all__ = [
    "KDEResult",
    "REGRESSIONS",
    "fit_kde",
    "kde_regression",
    "output_coordinates",
    "predict_coordinates",
]

#: Forms of the regression from inputs to output coordinates.
REGRESSIONS = ("paper", "ridge")


@dataclass
class KDEResult:
    """What kernel dependency estimation keeps from the training Gram matrices.

    Attributes
    ----------
    output_pca : KernelPCAResult
        Kernel PCA of the output Gram matrix L (axes ``v_j``, centring terms).
    coordinates : ndarray of shape (m, r)
        ``P``: centred coordinates of the training outputs, ``u_j √λ_j``.
    weights : ndarray of shape (m, r)
        ``β``: estimated coordinates of x are ``k(x, X) β``.
    alpha : float
        γ, the strength of the regression's penalty.
    regression : str
        ``"paper"`` or ``"ridge"``.
    """

    output_pca: KernelPCAResult
    coordinates: np.ndarray
    weights: np.ndarray
    alpha: float
    regression: str


def kde_regression(
    K: ArrayLike, P: ArrayLike, alpha: float = 1.0, regression: str = "paper"
) -> np.ndarray:
    """Coefficients β of the map from inputs to output coordinates.

    Parameters
    ----------
    K : array of shape (m, m)
        Input Gram matrix ``k(x_s, x_t)`` (not centred: the map has no bias,
        and the targets P have mean zero).
    P : array of shape (m, r)
        Targets (output coordinates).
    alpha : float, default=1.0
        γ > 0.
    regression : {"paper", "ridge"}, default="paper"
        ``"paper"``: ``β = (KᵀK + γI)⁻¹ KᵀP``, the minimiser of
        ``‖P − Kβ‖² + γ‖β‖²`` (Bakır et al. 2004, eq. 4; Weston et al. 2003).
        ``"ridge"``: ``β = (K + γI)⁻¹ P``, the minimiser of
        ``‖P − Kβ‖² + γ βᵀKβ`` (kernel ridge regression; the penalty is the
        RKHS norm of ``g = Σ_s β_s k(x_s, ·)``). Both give predictions
        ``k(x, X) β``; for the same γ the paper's form shrinks more (its
        spectral filter is ``λ²/(λ² + γ)`` against ``λ/(λ + γ)`` on an
        eigenvalue λ of K).

    Returns
    -------
    beta : ndarray of shape (m, r)
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
    if regression == "paper":
        A = K.T @ K
        B = K.T @ P
    else:
        A = K.copy()
        B = P
    A.flat[:: A.shape[0] + 1] += alpha
    # Both systems are symmetric positive definite for γ > 0 and K ⪰ 0. A
    # kernel that is not positive semi-definite (a user's callable), or a γ
    # negligible against a singular K, leaves them indefinite or singular to
    # working precision: then β is the least-norm solution from the
    # eigendecomposition (the pseudo-inverse), with a warning.
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
    """Kernel dependency estimation on Gram matrices.

    Parameters
    ----------
    K : array of shape (m, m)
        Input Gram matrix.
    L : array of shape (m, m)
        Output Gram matrix (uncentred; for a joint kernel, of the pairs
        ``(x_i, y_i)``).
    n_components : int or None
        Output principal axes r kept; None keeps all with a non-zero
        eigenvalue.
    alpha : float, default=1.0
        γ of the regression.
    regression : {"paper", "ridge"}, default="paper"
        See :func:`kde_regression`.

    Returns
    -------
    KDEResult

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.kde import fit_kde, predict_coordinates
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
            "'L' (the output Gram matrix) has no principal component above rounding "
            "level: every output is the same point of the output feature space, so "
            "there are no output coordinates to learn; KDE needs at least two distinct "
            "outputs 'Y'"
        )
    P = pca.eigenvectors * np.sqrt(pca.eigenvalues)
    beta = kde_regression(K, P, alpha, regression)
    return KDEResult(pca, P, beta, float(alpha), regression)


def predict_coordinates(K_x: ArrayLike, result: KDEResult) -> np.ndarray:
    """Estimated output coordinates ``k(x, X) β`` of inputs with kernel rows
    ``K_x`` (m', m) -> (m', r), for a :class:`KDEResult`."""
    K_x = check_array_2d(
        K_x, "K_x", dtype=np.float64, min_samples=0, n_features=result.weights.shape[0]
    )
    with np.errstate(over="ignore", invalid="ignore"):
        out = K_x @ result.weights
    return _refuse_overflow(out, "'K_x'")


def output_coordinates(L_y: ArrayLike, result: KDEResult) -> np.ndarray:
    """Centred coordinates ``⟨φ_l(y) − μ, v_j⟩`` of outputs with output kernel
    rows ``L_y = [l(y, y_i)]_i`` (m', m) -> (m', r), for a :class:`KDEResult`."""
    L_y = check_array_2d(
        L_y, "L_y", dtype=np.float64, min_samples=0, n_features=result.coordinates.shape[0]
    )
    with np.errstate(over="ignore", invalid="ignore"):
        out = transform_block(L_y, result.output_pca)
    return _refuse_overflow(out, "'L_y'")


def _refuse_overflow(out, names):
    """Refuse coordinates that overflowed: kernel rows too large for the fit."""
    return refuse_overflow(
        out,
        "the coordinates",
        names,
        "their kernel values are too large for the fitted weights; rescale the data",
    )
