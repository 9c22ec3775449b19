"""Kernel dependency estimation (KDE) on Gram matrices, and the pieces of its
learned string pre-images.

Notation (Weston et al. 2003; Bakır, Weston & Schölkopf 2004, Sec. 2.2): m
training pairs (x_i, y_i), input Gram ``K_st = k(x_s, x_t)``, output Gram
``L_st = l(y_s, y_t)``.

1. *Decomposition of the outputs*: kernel PCA of the centred output Gram
   ``HLH`` gives r principal axes ``v_j = Σ_i α_ji φ_l(y_i)`` of H_l and the
   (centred) coordinates ``P_ij = ⟨φ_l(y_i) − μ, v_j⟩``, P of shape (m, r).
2. *Learning the map*: for every axis, regression of ``P_·j`` on the inputs
   with ``g(x) = Σ_s β_sj k(x_s, x)``,

       min_β ‖P − Kβ‖² + γ‖β‖²   ⇒   β = (KᵀK + γI)⁻¹ KᵀP          (paper, eq. 4)

   (K is symmetric, so ``KᵀP = KP`` as printed). ``regression="ridge"`` gives
   the usual kernel ridge regression instead, which penalises the RKHS norm
   ``γ βᵀKβ`` of g:  ``β = (K + γI)⁻¹ P``.
3. *Testing*: the estimated coordinates of a new x are ``k(x, X) β`` (row
   vector), and the output is a pre-image of the point they stand for in H_l
   (eq. 5): a string decoded symbol by symbol (Sec. 3.2), the candidate whose
   coordinates are nearest, or any pre-image method on the expansion
   ``Σ_j p̂_j v_j + μ`` over the training outputs.

The functions here work on arrays (Gram matrices, coordinates, one-hot
windows); :class:`preimage.KernelDependencyEstimator` validates, keeps state
and calls them.
"""

from dataclasses import dataclass
import warnings

import numpy as np
from scipy import linalg

from .exceptions import NumericalWarning
from .kpca import KernelPCAFit, fit_kernel_pca, transform_block

__all__ = [
    "KDEFit",
    "REGRESSIONS",
    "fit_kde",
    "kde_regression",
    "predict_coordinates",
    "output_coordinates",
    "window_features",
    "string_preimage_features",
    "nearest_coordinates",
    "symbol_accuracy",
]

#: Forms of the regression from inputs to output coordinates.
REGRESSIONS = ("paper", "ridge")

@dataclass
class KDEFit:
    """What kernel dependency estimation keeps from the training Gram matrices.

    Attributes
    ----------
    output_pca : KernelPCAFit
        Kernel PCA of the output Gram matrix L (axes ``v_j``, centring terms).
    coordinates : ndarray of shape (m, r)
        ``P``: centred coordinates of the training outputs, ``u_j √λ_j``.
    weights : ndarray of shape (m, r)
        ``β``: estimated coordinates of x are ``k(x, X) β``.
    ridge : float
        γ.
    regression : str
        ``"paper"`` or ``"ridge"``.
    """

    output_pca: KernelPCAFit
    coordinates: np.ndarray
    weights: np.ndarray
    ridge: float
    regression: str


def kde_regression(K, P, ridge=1.0, regression="paper"):
    """Coefficients β of the map from inputs to output coordinates.

    Parameters
    ----------
    K : array of shape (m, m)
        Input Gram matrix ``k(x_s, x_t)`` (not centred: the map has no bias,
        and the targets P have mean zero).
    P : array of shape (m, r)
        Targets (output coordinates).
    ridge : float, default=1.0
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
        raise ValueError(f"'regression' must be one of {list(REGRESSIONS)}, got "
                         f"{regression!r}")
    K = np.asarray(K, dtype=float)
    P = np.asarray(P, dtype=float)
    if K.ndim != 2 or K.shape[0] != K.shape[1]:
        raise ValueError(f"'K' must be a square Gram matrix, got shape {K.shape}")
    if P.ndim != 2 or P.shape[0] != K.shape[0]:
        raise ValueError(f"'P' must have shape ({K.shape[0]}, r), one row per row of 'K', "
                         f"got shape {P.shape}")
    if regression == "paper":
        A = K.T @ K
        B = K.T @ P
    else:
        A = K.copy()
        B = P
    A.flat[:: A.shape[0] + 1] += ridge
    # Both systems are symmetric positive definite for γ > 0 and K ⪰ 0; a
    # kernel that is not positive semi-definite (a user's callable) may break
    # the Cholesky factorisation: then the system is solved by LU, with a warning.
    try:
        return linalg.solve(A, B, assume_a="pos")
    except linalg.LinAlgError:
        warnings.warn(
            f"the regression matrix ({'KᵀK' if regression == 'paper' else 'K'} + γI) is "
            "not positive definite (is the input kernel positive semi-definite?); solved "
            "by LU factorisation instead of Cholesky", NumericalWarning, stacklevel=2)
        return linalg.solve(A, B)


def fit_kde(K, L, n_components=None, *, ridge=1.0, regression="paper"):
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
    ridge : float, default=1.0
        γ of the regression.
    regression : {"paper", "ridge"}, default="paper"
        See :func:`kde_regression`.

    Returns
    -------
    KDEFit

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.kde import fit_kde, predict_coordinates
    >>> X = np.random.default_rng(0).normal(size=(20, 3))
    >>> X -= X.mean(axis=0)            # no bias in the map: centred linear data
    >>> Y = X @ np.ones((3, 2))
    >>> fit = fit_kde(X @ X.T, Y @ Y.T, ridge=1e-6)
    >>> fit.coordinates.shape          # rank of the centred outputs: 1
    (20, 1)
    >>> bool(np.allclose(predict_coordinates(X @ X.T, fit), fit.coordinates, atol=1e-4))
    True
    """
    L = np.asarray(L, dtype=float)
    if L.ndim != 2 or L.shape[0] != L.shape[1]:
        raise ValueError(f"'L' must be a square Gram matrix, got shape {L.shape}")
    if np.shape(K) != L.shape:
        raise ValueError(f"'K' and 'L' must have the same shape (one row per training "
                         f"pair), got {np.shape(K)} and {L.shape}")
    pca = fit_kernel_pca(L, n_components, copy=True)
    P = pca.eigenvectors * np.sqrt(pca.eigenvalues)
    beta = kde_regression(K, P, ridge, regression)
    return KDEFit(pca, P, beta, float(ridge), regression)


def predict_coordinates(K_x, fit):
    """Estimated output coordinates ``k(x, X) β`` of inputs with kernel rows
    ``K_x`` (m', m) -> (m', r)."""
    return np.asarray(K_x, dtype=float) @ fit.weights


def output_coordinates(L_y, fit):
    """Centred coordinates ``⟨φ_l(y) − μ, v_j⟩`` of outputs with output kernel
    rows ``L_y = [l(y, y_i)]_i`` (m', m) -> (m', r)."""
    return transform_block(np.asarray(L_y, dtype=float), fit.output_pca)


# ---------------------------------------------------------------------------
# string pre-images (Sec. 3.2)
# ---------------------------------------------------------------------------

def window_features(X, window, symbols):
    """One-hot windows of length `window` centred at every position.

    Parameters
    ----------
    X : list of sequences
        Input strings (or lists of symbols).
    window : int
        Odd window length n + 1; the window at position q covers
        ``q − n/2, …, q + n/2``.
    symbols : sequence
        The input alphabet. Positions beyond either end hold the terminal
        symbol, which has a column of its own; a symbol not in `symbols`
        (unseen in training) has all-zero columns.

    Returns
    -------
    F : ndarray of shape (Σ_i |x_i|, window · (|symbols| + 1))
        Rows in order: string 0 position 0, string 0 position 1, …; column
        block w holds the one-hot code of window position w (the terminal
        last).

    Examples
    --------
    >>> from preimage.kde import window_features
    >>> window_features(["ab"], 3, "ab").astype(int)
    array([[0, 0, 1, 1, 0, 0, 0, 1, 0],
           [1, 0, 0, 0, 1, 0, 0, 0, 1]])
    """
    if window < 1 or window % 2 == 0:
        raise ValueError(f"'window' must be an odd positive integer, got {window!r}")
    index = {s: j for j, s in enumerate(symbols)}
    V = len(index) + 1                      # the terminal symbol is column V - 1
    h = (window - 1) // 2
    # All strings in one array, each followed by h terminals (and h before
    # the first): the window of position q of a string is a slice around q.
    lengths = np.array([len(x) for x in X], dtype=np.int64)
    codes = np.full(h + int(lengths.sum()) + h * len(lengths), V - 1, dtype=np.int64)
    starts = h + np.concatenate([[0], np.cumsum(lengths + h)[:-1]]).astype(np.int64)
    for x, start in zip(X, starts):
        codes[start:start + len(x)] = [index.get(s, -1) for s in x]
    centres = np.concatenate([np.arange(a, a + n) for a, n in zip(starts, lengths)]) \
        if len(lengths) else np.empty(0, dtype=np.int64)
    codes = codes[centres[:, None] + np.arange(-h, h + 1)[None, :]]
    F = np.zeros((codes.shape[0], window * V))
    rows, cols = np.nonzero(codes >= 0)
    F[rows, cols * V + codes[rows, cols]] = 1.0
    return F


def string_preimage_features(coordinates, X, window, symbols, *, coordinate_weight=1.0):
    """Features ``[w · c(y), one-hot window of x at q]`` of every position q.

    Parameters
    ----------
    coordinates : array of shape (m, r)
        Output coordinates of each string (the true ones of training outputs,
        estimated ones ``k(x, X) β`` at prediction).
    X : list of m sequences
        The inputs; string i contributes ``|x_i|`` rows.
    window, symbols
        See :func:`window_features`.
    coordinate_weight : float, default=1.0
        w, the factor on the coordinates. The one-hot entries are 0/1, so two
        windows that differ in j positions are at squared distance 2j; two
        coordinate vectors are at squared distance ``w²‖c − c'‖²``, which for
        a cosine-normalised output kernel is at most ``4w²`` (unit feature
        vectors). With w = 1 a k-NN on these features mostly matches the
        window first and then the string's estimated output.

    Returns
    -------
    F : ndarray of shape (Σ_i |x_i|, r + window · (|symbols| + 1))
    """
    C = np.asarray(coordinates, dtype=float)
    lengths = [len(x) for x in X]
    if C.ndim != 2 or C.shape[0] != len(lengths):
        raise ValueError(f"'coordinates' must have one row per sequence of 'X' "
                         f"({len(lengths)}), got shape {C.shape}")
    return np.hstack([coordinate_weight * np.repeat(C, lengths, axis=0),
                      window_features(X, window, symbols)])


def nearest_coordinates(query, candidates, mask=None):
    """Index of the candidate nearest each query, ``argmin_c ‖q − c‖²``.

    Parameters
    ----------
    query : array of shape (m, r)
    candidates : array of shape (n_c, r)
    mask : bool array of shape (m, n_c), optional
        Allowed pairs; each row needs at least one.

    Returns
    -------
    index : ndarray of shape (m,)
    distance2 : ndarray of shape (m,)
    """
    Q = np.asarray(query, dtype=float)
    C = np.asarray(candidates, dtype=float)
    d2 = (np.einsum("ij,ij->i", Q, Q)[:, None] - 2 * Q @ C.T
          + np.einsum("ij,ij->i", C, C)[None, :])
    np.maximum(d2, 0.0, out=d2)
    if mask is not None:
        d2 = np.where(mask, d2, np.inf)
    index = d2.argmin(axis=1)
    return index, d2[np.arange(len(index)), index]


def symbol_accuracy(Y_true, Y_pred):
    """Fraction of output symbols predicted correctly, pooled over strings.

    Position q of ``Y_pred[i]`` is compared with position q of
    ``Y_true[i]``; positions of ``Y_true[i]`` that ``Y_pred[i]`` lacks (a
    shorter prediction) count as wrong, extra predicted symbols are ignored.
    The misclassification rate of Bakır et al. (2004, Sec. 4) is
    ``1 − symbol_accuracy``.

    Examples
    --------
    >>> from preimage.kde import symbol_accuracy
    >>> symbol_accuracy(["1122", "12"], ["1121", "1"])
    0.6666666666666666
    """
    if len(Y_true) != len(Y_pred):
        raise ValueError(f"'Y_pred' must hold one sequence per sequence of 'Y_true' "
                         f"({len(Y_true)}), got {len(Y_pred)}")
    total = sum(len(y) for y in Y_true)
    if total == 0:
        raise ValueError("'Y_true' holds no symbols")
    correct = sum(sum(a == b for a, b in zip(y, z)) for y, z in zip(Y_true, Y_pred))
    return correct / total
