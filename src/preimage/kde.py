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
from numbers import Integral
import warnings

import numpy as np
from scipy import linalg

from ._validation import check_array_2d, check_positive, check_real_array, refuse_overflow
from .exceptions import NumericalWarning
from .kpca import KernelPCAResult, fit_kernel_pca, transform_block

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
    output_pca : KernelPCAResult
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

    output_pca: KernelPCAResult
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
    K = _check_square(K, "K")
    P = check_array_2d(P, "P", dtype=np.float64, min_samples=0)
    if P.shape[0] != K.shape[0]:
        raise ValueError(f"'P' must have shape ({K.shape[0]}, r), one row per row of 'K', "
                         f"got shape {P.shape}")
    ridge = check_positive(ridge, "ridge")
    # check_array_2d bounds |K_ij| by √(max/4m), so KᵀK cannot overflow.
    if regression == "paper":
        A = K.T @ K
        B = K.T @ P
    else:
        A = K.copy()
        B = P
    A.flat[:: A.shape[0] + 1] += ridge
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
    warnings.warn(
        f"the regression matrix ({'KᵀK' if regression == 'paper' else 'K'} + γI) is "
        f"not positive definite to working precision (γ = {ridge:.3g}; is the input "
        "kernel positive semi-definite, and γ not negligible against it?); solved with "
        "its pseudo-inverse instead of Cholesky", NumericalWarning, stacklevel=2)
    return linalg.pinvh(A) @ B


def _check_square(K, name):
    """A finite, square, non-empty Gram matrix (float64), or an error naming `name`."""
    K = check_array_2d(K, name, dtype=np.float64)
    if K.shape[0] != K.shape[1]:
        raise ValueError(f"{name!r} must be a square Gram matrix, got shape {K.shape}")
    return K


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
    K = _check_square(K, "K")
    L = _check_square(L, "L")
    if K.shape != L.shape:
        raise ValueError(f"'K' and 'L' must have the same shape (one row per training "
                         f"pair), got {K.shape} and {L.shape}")
    ridge = check_positive(ridge, "ridge")
    pca = fit_kernel_pca(L, n_components, copy=True)
    if not (pca.eigenvalues > 0).any():
        raise ValueError(
            "'L' (the output Gram matrix) has no principal component above rounding "
            "level: every output is the same point of the output feature space, so "
            "there are no output coordinates to learn; KDE needs at least two distinct "
            "outputs 'Y'")
    P = pca.eigenvectors * np.sqrt(pca.eigenvalues)
    beta = kde_regression(K, P, ridge, regression)
    return KDEFit(pca, P, beta, float(ridge), regression)


def predict_coordinates(K_x, fit):
    """Estimated output coordinates ``k(x, X) β`` of inputs with kernel rows
    ``K_x`` (m', m) -> (m', r)."""
    K_x = check_array_2d(K_x, "K_x", dtype=np.float64, min_samples=0,
                         n_features=fit.weights.shape[0])
    with np.errstate(over="ignore", invalid="ignore"):
        out = K_x @ fit.weights
    return _check_finite_result(out, "'K_x'")


def output_coordinates(L_y, fit):
    """Centred coordinates ``⟨φ_l(y) − μ, v_j⟩`` of outputs with output kernel
    rows ``L_y = [l(y, y_i)]_i`` (m', m) -> (m', r)."""
    L_y = check_array_2d(L_y, "L_y", dtype=np.float64, min_samples=0,
                         n_features=fit.coordinates.shape[0])
    with np.errstate(over="ignore", invalid="ignore"):
        out = transform_block(L_y, fit.output_pca)
    return _check_finite_result(out, "'L_y'")


def _check_finite_result(out, names):
    """Refuse coordinates that overflowed: kernel rows too large for the fit."""
    return refuse_overflow(out, "the coordinates", names,
                           "their kernel values are too large for the fitted weights; "
                           "rescale the data")


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
    if (isinstance(window, bool) or not isinstance(window, Integral) or window < 1
            or window % 2 == 0):
        raise ValueError(f"'window' must be an odd positive integer, got {window!r}")
    X = _check_strings(X, "X")
    if isinstance(symbols, (str, bytes)):
        symbols = list(symbols)
    try:
        index = {s: j for j, s in enumerate(symbols)}
    except TypeError:
        raise TypeError(f"'symbols' must be a sequence of hashable symbols, got "
                        f"{symbols!r}") from None
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
    X = _check_strings(X, "X")
    C = check_real_array(coordinates, "coordinates")
    lengths = [len(x) for x in X]
    if C.ndim != 2 or C.shape[0] != len(lengths):
        raise ValueError(f"'coordinates' must have one row per sequence of 'X' "
                         f"({len(lengths)}), got shape {C.shape}")
    weight = check_positive(coordinate_weight, "coordinate_weight", strict=False)
    with np.errstate(over="ignore"):
        scaled = weight * np.repeat(C, lengths, axis=0)
    if not np.isfinite(scaled).all():
        raise ValueError(f"'coordinate_weight' = {weight!r} times the 'coordinates' "
                         "overflows float64; use a smaller weight")
    return np.hstack([scaled, window_features(X, window, symbols)])


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
    Q = check_array_2d(query, "query", dtype=np.float64, min_samples=0)
    C = check_array_2d(candidates, "candidates", dtype=np.float64,
                       n_features=Q.shape[1])
    if mask is not None:
        mask = np.asarray(mask)
        if mask.dtype != bool or mask.shape != (Q.shape[0], C.shape[0]):
            raise ValueError(f"'mask' must be a boolean array of shape "
                             f"{(Q.shape[0], C.shape[0])} (queries, candidates), got "
                             f"{mask.dtype} of shape {mask.shape}")
        if not mask.any(axis=1).all():
            raise ValueError(f"'mask' must allow at least one candidate for every query; "
                             f"row {int(np.argmin(mask.any(axis=1)))} allows none")
    # check_array_2d bounds the magnitudes, so no term below overflows.
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
    Y_true = _check_strings(Y_true, "Y_true")
    Y_pred = _check_strings(Y_pred, "Y_pred")
    if len(Y_true) != len(Y_pred):
        raise ValueError(f"'Y_pred' must hold one sequence per sequence of 'Y_true' "
                         f"({len(Y_true)}), got {len(Y_pred)}")
    total = sum(len(y) for y in Y_true)
    if total == 0:
        raise ValueError("'Y_true' holds no symbols")
    correct = sum(sum(a == b for a, b in zip(y, z)) for y, z in zip(Y_true, Y_pred))
    return correct / total


def _check_strings(X, name):
    """A list of sequences (strings, lists or tuples of hashable symbols)."""
    if isinstance(X, (str, bytes)) or not hasattr(X, "__iter__"):
        raise TypeError(f"{name!r} must be a list of sequences (strings or lists of "
                        f"symbols), got {type(X).__name__} {X!r}")
    items = list(X)
    for i, x in enumerate(items):
        if isinstance(x, np.ndarray) and x.ndim == 1:
            items[i] = x = tuple(x.tolist())
        if not isinstance(x, (str, list, tuple)):
            raise TypeError(f"{name!r} must hold strings or lists/tuples of symbols, got "
                            f"{type(x).__name__} {x!r} at index {i}")
        try:
            {*x}
        except TypeError:
            raise TypeError(f"{name!r} must hold hashable symbols, got {x!r} at index "
                            f"{i}") from None
    return items
