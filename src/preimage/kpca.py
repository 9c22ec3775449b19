"""Kernel PCA on arrays, with projections as feature-space expansions.

Notation (Schölkopf, Smola & Müller 1998; Mika et al. 1999): Gram matrix K
(N × N) of the training points, centring ``H = I − 11ᵀ/N``, centred Gram
``K̃ = HKH``. With ``K̃ u_k = λ_k u_k`` and ``α_k = u_k/√λ_k`` the principal
axes ``V_k = Σ_i α_ki φ̃(x_i)`` have unit norm, and since ``α_k ⊥ 1`` they are
also ``Σ_i α_ki φ(x_i)`` over the *uncentred* images. A point x has centred
coordinates ``β_k = α_kᵀ k̃_x`` with ``k̃_x = H(k_x − K1/N)``.

Two projections are expansions over the uncentred φ(x_i) (see
:func:`expansion_coef`):

* the exact reconstruction ``Pφ̃(x) + μ``, coefficients ``Aβ + 1/N`` (the
  feature-space mean μ added back) — what Mika et al.'s fixed point is applied
  to for uncentred data: they derive it for data "assumed centred" and add
  (footnote 1) that otherwise "we have to go through the same algebra using
  φ̃(x) := φ(x) − ⟨φ(x_i)⟩";
* the principal part ``Σ_k ⟨V_k, φ(x)⟩ V_k``, coefficients ``A(β + c)`` with
  ``c_k = ⟨V_k, μ⟩`` — STPRtool's ``kpcarec``.
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
    """What kernel PCA keeps from the training Gram matrix.

    The axes and the mean are expansions over a support of N points: the
    training points themselves (exact kernel PCA), or m landmarks (Nyström,
    :mod:`preimage.nystroem`, where ``eigenvectors`` and ``K_col_mean`` are
    None).

    Attributes
    ----------
    eigenvalues : (q,) eigenvalues λ_k of the centred Gram matrix, decreasing
        (the scatter ``Σ_i β_ik²`` of the training coordinates).
    eigenvectors : (N, q) unit eigenvectors u_k, or None.
    alphas : (N, q) coefficients of the unit principal axes
        ``V_k = Σ_i α_ik φ(x_i)``: ``u_k/√λ_k`` for exact kernel PCA (0 for
        components whose eigenvalue is at rounding level).
    K_col_mean : (N,) ``K1/N``, or None.
    K_mean : scalar ``‖μ‖²`` (``1ᵀK1/N²`` for exact kernel PCA).
    mean_coords : (q,) ``c_k = ⟨V_k, μ⟩`` (``α_kᵀK1/N``).
    mean_coef : (N,) coefficients of the feature-space mean μ over the
        support (``1/N`` for exact kernel PCA).
    """

    eigenvalues: np.ndarray
    eigenvectors: np.ndarray | None
    alphas: np.ndarray
    K_col_mean: np.ndarray | None
    K_mean: float
    mean_coords: np.ndarray
    mean_coef: np.ndarray


def center_gram(K: ArrayLike, *, copy: bool = True) -> tuple[np.ndarray, np.ndarray, float]:
    """The centred Gram matrix ``HKH`` (in place when ``copy=False``).

    Returns the centred matrix, the column means ``K1/N`` and the grand mean.
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
    """Centre test rows ``k_x = [k(x, x_i)]_i``: ``k̃_x = H(k_x − K1/N)``,
    i.e. ``k_x − K1/N − mean(k_x) + 1ᵀK1/N²`` (K_x of shape (m, N))."""
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
    """Kernel PCA of the Gram matrix `K`.

    Parameters
    ----------
    K : array of shape (N, N)
        Uncentred Gram matrix of the training points. It must be square; a K
        that is not symmetric is accepted when its centred matrix ``HKH`` is
        (scikit-learn's rule).
    n_components : int or None
        Number of components q ≤ N; None keeps every component with a
        non-zero eigenvalue.
    eigen_solver, tol, max_iter, iterated_power, random_state
        See :func:`preimage._eigen.top_eigh`.
    copy : bool
        If False, K is centred in place.
    remove_zero_eig : bool
        Drop the components with a zero eigenvalue even when `n_components`
        is given (the output may then have fewer components).
    warn_rank : bool
        Warn when components requested explicitly have a zero eigenvalue.
    names : str
        The argument(s) K was computed from, for the messages.

    Returns
    -------
    KernelPCAResult

    Notes
    -----
    The eigenvalues are checked as scikit-learn checks them: significant
    negative ones (below ``-1e-5 λ_max`` and ``-1e-10``; ``5e-3`` and
    ``1e-6`` in float32) mean K is not positive semi-definite and are refused
    with a ValueError; smaller negative ones are rounding and become 0.
    Eigenvalues below ``1e-12 λ_max`` (``2e-7 λ_max`` in float32), or below
    the rounding error of centring K, ``10 N eps max|K_ij|``, are rounding
    noise and cannot be divided by: with ``n_components=None`` (or
    `remove_zero_eig`) they are dropped; components requested explicitly
    with such eigenvalues keep their place but get zero coefficients (their
    coordinates are identically 0), with a NumericalWarning if `warn_rank`. A
    centred Gram matrix that is zero at rounding level (identical points, or
    a kernel constant on them) leaves no component, with a NumericalWarning.
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
    """The eigenvalues of a centred Gram matrix with rounding-level negative
    ones set to 0, or a ValueError when they show that it is not positive
    semi-definite (scikit-learn's thresholds and message). Eigenvalues all
    within the absolute rounding `floor` (see :func:`rounding_floor`) are
    noise of a zero matrix, not evidence of indefiniteness.

    Negative eigenvalues below ``-1e-5 λ_max`` and ``-1e-10`` (``5e-3`` and
    ``1e-6`` in float32) are significant: an indefinite kernel (a sigmoid,
    a precomputed similarity) or a matrix that is no Gram matrix.
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
    """The rounding error of the eigenvalues of a centred Gram matrix of n
    points whose kernel values are at most `k_max` in magnitude:
    ``10 n eps k_max``.

    Each entry of HKH carries an error of a few ``eps k_max`` (the kernel
    value, then three subtractions), so the error matrix has norm below
    ``5 n eps k_max``; an eigenvalue below twice that is indistinguishable
    from 0. It matters when every kernel value is nearly the same (a tiny
    Gaussian width): λ_max is then itself noise, and a threshold relative to
    it would keep noise.
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
    """Find the eigenvalues at rounding level (below ``1e-12 λ_max``, or
    ``2e-7 λ_max`` in float32, or below the absolute `floor`, see
    :func:`rounding_floor`), which cannot be divided by.

    With ``n_components=None`` they are dropped; components requested
    explicitly keep their place, with a NumericalWarning if `warn_rank`.
    Returns the values, the vectors and a mask of the non-zero ones.
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
    """`fit`, or a ValueError naming 'X' (and 'gamma' when given) when it has
    no component: all training points have one image in feature space, so
    there is nothing to denoise or reduce onto."""
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
    """`fit`, or a ValueError naming `names` when the arithmetic of the fit
    overflowed (None, or a non-finite array: kernel values beyond about
    1e154, whose products exceed float64)."""
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
    """The fit restricted to its first `n_components` principal axes.

    Kernel PCA with q components contains every smaller one: the leading n
    eigenpairs are the same, so a sweep over component counts needs one fit.
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
    """Centred coordinates ``β_k = ⟨V_k, φ(x) − μ⟩ = k_xᵀα_k − c_k`` of test
    rows K_x (m, N) -> (m, q).

    For exact kernel PCA it is computed as ``k̃_x A`` with the centred rows
    of :func:`center_block` (the same in exact arithmetic, since the columns
    of A sum to zero, and better conditioned: the common part of the kernel
    row cancels before the product).
    """
    K_x = check_array_2d(K_x, "K_x", min_samples=0, n_features=fit.alphas.shape[0])
    if fit.K_col_mean is not None:
        return _center_block(K_x, fit.K_col_mean, fit.K_mean) @ fit.alphas
    return K_x @ fit.alphas - fit.mean_coords


def training_coordinates(
    fit: KernelPCAResult, kernel: Kernel | None = None, support: np.ndarray | None = None
) -> np.ndarray:
    """Centred coordinates of the support points themselves, (N, q).

    ``u_k √λ_k`` for exact kernel PCA, with no kernel evaluation; for a
    Nyström fit (no eigenvectors) the landmarks' own coordinates, from their
    Gram block ``k(support, support)``.
    """
    if fit.eigenvectors is not None:
        return fit.eigenvectors * np.sqrt(fit.eigenvalues)
    return transform_block(
        kernel.block(support, support, check_input=False, names="'support'"), fit
    )


def check_coordinates(Y: ArrayLike, n_components: int) -> np.ndarray:
    """Y as finite centred coordinates of shape (m, q), q = `n_components`, or
    an error naming 'Y'."""
    if np.ndim(Y) != 2 or np.shape(Y)[1] != n_components:
        raise ValueError(
            f"'Y' must have shape (n_samples, {n_components}) (one column per "
            f"component), got shape {np.shape(Y)}"
        )
    return check_array_2d(Y, "Y", min_samples=0)


def expansion_coef(
    Y: ArrayLike, fit: KernelPCAResult, *, add_mean: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """Expansion coefficients over the uncentred φ(x_i) for coordinates Y.

    Parameters
    ----------
    Y : array of shape (m, q)
        Centred coordinates (as returned by :func:`transform_block`).
    fit : KernelPCAResult
    add_mean : bool
        True: ``Σ_k y_k V_k + μ`` (exact reconstruction), coefficients
        ``A y + m_μ`` (the mean's coefficients, ``1/N`` for exact kernel
        PCA), squared norm ``‖y‖² + 2yᵀc + ‖μ‖²``.
        False: the principal part ``Σ_k (y_k + c_k) V_k``, coefficients
        ``A(y + c)``, squared norm ``‖y + c‖²`` (for a projected point,
        ``y_k + c_k = ⟨V_k, φ(x)⟩``).

    Returns
    -------
    coef : array of shape (m, N)
    norm2 : array of shape (m,)
        The squared feature-space norm of each expansion, in closed form.
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
    """The feature-space points with centred coordinates Y, as expansions
    over the uncentred images of the support (see :func:`expansion_coef`),
    with their squared norms in closed form.

    `support` and `kernel` may be None (a precomputed kernel): the expansion
    then knows only its coefficients and norms.
    """
    coef, norm2 = expansion_coef(Y, fit, add_mean=add_mean)
    return FeatureExpansion(coef, support, kernel, norm2=norm2)
