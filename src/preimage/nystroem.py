"""Nyström kernel PCA: principal axes as expansions over m landmarks.

Exact kernel PCA needs the n × n Gram matrix. With landmarks
``z_1 … z_m`` the images ``φ(x)`` are replaced by their projections ``Pφ(x)``
onto ``span{φ(z_j)}`` (Williams & Seeger 2001). With ``K_mm = UΛUᵀ`` and
``W = UΛ^{-1/2}`` (m × r, r = rank K_mm), the vectors
``e_l = Σ_j W_jl φ(z_j)`` are an orthonormal basis of that span, and the
coordinates of ``Pφ(x)`` in it are

    f(x) = Wᵀ k_m(x),     k_m(x) = [k(z_j, x)]_j.

Kernel PCA of the ``Pφ(x_i)`` is then PCA of the ``f(x_i)``: the r × r
scatter ``C = Wᵀ S W`` with ``S = Σ_i (k_m(x_i) − k̄)(k_m(x_i) − k̄)ᵀ``,
``k̄ = Σ_i k_m(x_i)/n``. Its unit eigenvectors ``w_k`` give the principal axes
as expansions over the landmarks,

    V_k = Σ_j α_jk φ(z_j),     α_k = W w_k,     ‖V_k‖² = α_kᵀK_mmα_k = 1,

with the mean ``μ = Σ_j (W Wᵀ k̄)_j φ(z_j)``. A point's centred coordinates
are ``⟨V_k, φ(x) − μ⟩ = α_kᵀk_m(x) − α_kᵀk̄`` (V_k lies in the span, so
``⟨V_k, φ(x)⟩ = ⟨V_k, Pφ(x)⟩``): the same formulas as exact kernel PCA with
the landmarks as support (:class:`preimage.kpca.KernelPCAFit`), so every
pre-image method works unchanged. With every training point a landmark,
``C = K^{1/2} H K^{1/2}`` has the eigenvalues of ``HKH`` and the axes are
those of exact kernel PCA.

The fit touches ``K_nm`` only through ``S`` and ``k̄``, accumulated over row
blocks: O(n m d + n m² + m³) time and O(n d + m²) memory, and a Dask array is
reduced block-wise (:func:`preimage._blocks.sum_row_blocks`).

References
----------
C. K. I. Williams, M. Seeger. Using the Nyström method to speed up kernel
machines. NIPS 13, 2001.
A. El Alaoui, M. W. Mahoney. Fast randomized kernel ridge regression with
statistical guarantees. NIPS 28, 2015 (ridge leverage scores).
"""

import warnings

import numpy as np
from scipy import linalg

from ._blocks import is_dask_array, map_row_blocks, sum_row_blocks
from ._eigen import _flip_signs, top_eigh
from ._validation import check_array_2d, check_positive_int, check_random_state
from .exceptions import NumericalWarning
from .kpca import KernelPCAFit, drop_rounding_level

__all__ = [
    "LANDMARK_METHODS",
    "select_landmarks",
    "landmark_basis",
    "kernel_moments",
    "fit_nystroem_kpca",
]

#: How landmarks can be chosen.
LANDMARK_METHODS = ("uniform", "kmeans", "leverage")

# Points per landmark that k-means is run on (a uniform sample of the data).
_KMEANS_SAMPLE_PER_LANDMARK = 20


def landmark_basis(K_mm, *, warn=True):
    """``W`` (m × r) with ``WᵀK_mmW = I_r`` and ``WWᵀ = K_mm⁺``.

    Eigenvalues of K_mm below ``m · eps · λ_max`` (eps of K_mm's dtype;
    duplicated or nearly dependent landmarks) are dropped, with a
    NumericalWarning if `warn`: their directions carry no feature-space
    information that the kernel values resolve.
    """
    eps = np.finfo(K_mm.dtype).eps if K_mm.dtype.kind == "f" else np.finfo(float).eps
    values, vectors = linalg.eigh(np.asarray(K_mm, dtype=np.float64))
    m = values.shape[0]
    top = max(float(values[-1]), 0.0)
    keep = values > m * eps * top
    if not keep.any():
        raise ValueError("the landmarks' Gram matrix is zero; the kernel maps every "
                         "landmark to the origin of feature space")
    if warn and not keep.all():
        warnings.warn(
            f"the {m} landmarks span only {int(keep.sum())} feature-space directions "
            "(duplicated or nearly dependent landmarks); the other directions were "
            "dropped", NumericalWarning, stacklevel=3)
    return vectors[:, keep] / np.sqrt(values[keep])


def _moments_block(kernel, landmarks, shift, X):
    K = kernel._block(check_array_2d(X, "X", n_features=landmarks.shape[1]), landmarks)
    K -= shift
    return ((K.T @ K).astype(np.float64, copy=False), K.sum(axis=0, dtype=np.float64),
            np.array(K.shape[0]))


def kernel_moments(kernel, X, landmarks, shift=None, *, working_memory=None):
    """Second moments of the kernel rows ``k_m(x_i) = [k(z_j, x_i)]_j``.

    Returns ``G = Σ_i (k_m(x_i) − s)(k_m(x_i) − s)ᵀ`` (m × m),
    ``t = Σ_i (k_m(x_i) − s)`` and n, summed over row blocks of X (a NumPy
    array in chunks of `working_memory` MiB, or a Dask array block by block,
    tree-reduced). Shifting by s, a guess of the mean (the landmarks' own
    mean kernel row is a good one), keeps the later centring
    ``S = G − t tᵀ/n`` free of cancellation, even when each block product is
    computed in float32; the sums are kept in float64.
    """
    m = landmarks.shape[0]
    shift = np.zeros(m, landmarks.dtype) if shift is None else shift.astype(landmarks.dtype)
    itemsize = np.dtype(landmarks.dtype).itemsize

    def block(X_block):
        return _moments_block(kernel, landmarks, shift, X_block)

    # A row of the block costs its kernel row and its augmented input row.
    G, t, n = sum_row_blocks(block, X, row_bytes=(m + landmarks.shape[1] + 2) * itemsize,
                             working_memory=working_memory)
    return G, t, int(n)


def fit_nystroem_kpca(kernel, X, landmarks, n_components=None, *, working_memory=None):
    """Kernel PCA of the projections of ``φ(x_i)`` on the landmarks' span.

    Parameters
    ----------
    kernel : Kernel
    X : array or Dask array of shape (n, d)
        Training points, streamed over row blocks.
    landmarks : array of shape (m, d)
    n_components : int or None
        Number of components q ≤ r; None keeps all with non-zero eigenvalue.
    working_memory : float, optional
        MiB per row block of a NumPy X (scikit-learn's setting by default).

    Returns
    -------
    KernelPCAFit
        Over the landmarks as support (``eigenvectors`` and ``K_col_mean``
        are None: no n-sized state is kept). ``eigenvalues`` are those of the
        scatter C, comparable with exact kernel PCA's eigenvalues of HKH.
    """
    n_components = check_positive_int(n_components, "n_components", allow_none=True)
    landmarks = check_array_2d(landmarks, "landmarks")
    dtype = landmarks.dtype
    K_mm = kernel._block(landmarks, landmarks)
    W = landmark_basis(K_mm)
    r = W.shape[1]
    q = r if n_components is None else n_components
    if q > r:
        raise ValueError(
            f"'n_components' must be <= {r}, the number of feature-space directions the "
            f"landmarks span, got {n_components}; use more landmarks")
    shift = K_mm.mean(axis=0)
    G, t, n = kernel_moments(kernel, X, landmarks, shift, working_memory=working_memory)
    delta = t / n
    k_mean = shift.astype(np.float64) + delta
    S = G - n * np.outer(delta, delta)
    C = W.T @ S @ W
    C = (C + C.T) / 2
    values, vectors = top_eigh(C, q, solver="dense")
    values, vectors, nonzero = drop_rounding_level(values, vectors, n_components,
                                                   stacklevel=4)
    values = np.where(nonzero, values, 0.0)
    # Signs are fixed on the coefficients over the landmarks (largest entry
    # positive), not on w_k, whose basis W inherits LAPACK's arbitrary signs.
    alphas = _flip_signs(W @ vectors) * nonzero
    f_mean = W.T @ k_mean
    return KernelPCAFit(
        eigenvalues=values.astype(dtype), eigenvectors=None, alphas=alphas.astype(dtype),
        K_col_mean=None, K_mean=float(f_mean @ f_mean),
        mean_coords=(alphas.T @ k_mean).astype(dtype), mean_coef=(W @ f_mean).astype(dtype))


def _take_rows(X, index):
    rows = X[index]
    return np.asarray(rows.compute() if is_dask_array(rows) else rows)


def _distinct_rows(X, order, m):
    """The first m distinct rows of X taken in `order` (a duplicate of a row
    already taken is skipped: it would add no direction to the span).

    Returns the rows and their sorted indices; fewer than m, with a
    NumericalWarning, when X has fewer distinct rows.
    """
    index = np.sort(order[:m])
    rows, position = _take_rows(X, index), m
    while True:
        _, first = np.unique(rows, axis=0, return_index=True)
        if first.size == index.size or position >= order.size:
            break
        keep = np.sort(first)
        extra = order[position:position + m - keep.size]
        position += extra.size
        index = np.concatenate([index[keep], extra])
        rows = np.concatenate([rows[keep], _take_rows(X, extra)])
        order_rows = np.argsort(index)
        index, rows = index[order_rows], rows[order_rows]
    if first.size < index.size:
        keep = np.sort(first)
        index, rows = index[keep], rows[keep]
    if index.size < m:
        warnings.warn(f"'X' has only {index.size} distinct rows; using them as the "
                      f"{index.size} landmarks instead of n_landmarks={m}",
                      NumericalWarning, stacklevel=4)
    return rows, index


def _leverage_scores(kernel, X, pilot, ridge_rank, working_memory):
    """Approximate ridge leverage scores ``τ_i = [K(K + λI)⁻¹]_ii`` of every
    training point from a pilot set of landmarks.

    With the pilot's Nyström features F (n × r), ``K ≈ FFᵀ + E`` and
    ``τ_i ≈ f_iᵀ(FᵀF + λI)⁻¹f_i + min(1, e_ii/λ)``, where
    ``e_ii = k(x_i, x_i) − ‖f_i‖² ≥ 0`` is what the pilot misses of x_i (El
    Alaoui & Mahoney 2015; Musco & Musco 2017). λ is the `ridge_rank`-th
    eigenvalue of FᵀF, so directions beyond that rank count as noise.
    """
    W = landmark_basis(kernel._block(pilot, pilot))
    G, _, _ = kernel_moments(kernel, X, pilot, working_memory=working_memory)
    FtF = W.T @ G @ W
    values = np.linalg.eigvalsh(FtF)[::-1]
    lam = max(float(values[min(ridge_rank, values.shape[0]) - 1]),
              np.finfo(float).eps * max(float(values[0]), 1.0))
    B = linalg.inv(FtF + lam * np.eye(FtF.shape[0]))

    def scores(X_block):
        X_block = check_array_2d(X_block, "X", n_features=pilot.shape[1])
        F = kernel._block(X_block, pilot).astype(np.float64) @ W
        captured = np.einsum("ij,ij->i", F @ B, F)
        missed = np.maximum(kernel._diag(X_block) - np.einsum("ij,ij->i", F, F), 0.0)
        return (captured + np.minimum(missed / lam, 1.0))[:, None]

    tau = map_row_blocks(scores, X, n_columns=1, dtype=np.float64)
    tau = np.asarray(tau.compute() if is_dask_array(tau) else tau)[:, 0]
    # Every point keeps a chance, so that m distinct points can always be drawn.
    return np.maximum(tau, 1e-12 * max(float(tau.max()), 1.0))


def select_landmarks(X, n_landmarks, kernel=None, *, method="uniform", random_state=None,
                     working_memory=None):
    """Choose m landmarks for Nyström kernel PCA.

    Parameters
    ----------
    X : array or Dask array of shape (n, d)
    n_landmarks : int
        m ≤ n.
    kernel : Kernel
        Needed by ``method="leverage"``.
    method : {"uniform", "kmeans", "leverage"}
        * ``uniform`` — m training points drawn uniformly without
          replacement, in their order in X (with m = n, X itself);
        * ``kmeans`` — the centres of scikit-learn's k-means (one k-means++
          start, at most 25 Lloyd iterations) on a uniform sample of at most
          20 m points;
        * ``leverage`` — m training points drawn without replacement with
          probability proportional to approximate ridge leverage scores (see
          :func:`_leverage_scores`), computed in two passes over X from a
          uniform pilot of m points.

        Drawn points that duplicate a point already drawn are replaced by
        further draws (a duplicate adds nothing to the landmarks' span).
    random_state : None, int or Generator

    Returns
    -------
    landmarks : ndarray of shape (m, d)
    index : ndarray of shape (m,) or None
        Their rows in X (None for k-means centres).
    """
    n = X.shape[0]
    if method not in LANDMARK_METHODS:
        raise ValueError(f"'landmarks' must be one of {LANDMARK_METHODS}, got {method!r}")
    n_landmarks = check_positive_int(n_landmarks, "n_landmarks")
    if n_landmarks > n:
        raise ValueError(f"'n_landmarks' must be between 1 and n_samples={n}, "
                         f"got {n_landmarks!r}")
    rng = check_random_state(random_state)
    if method == "uniform":
        return _distinct_rows(X, rng.permutation(n), n_landmarks)
    if method == "kmeans":
        from sklearn.cluster import KMeans

        size = min(n, _KMEANS_SAMPLE_PER_LANDMARK * n_landmarks)
        sample = _take_rows(X, np.sort(rng.choice(n, size, replace=False)))
        km = KMeans(n_clusters=n_landmarks, n_init=1, max_iter=25,
                    random_state=int(rng.integers(2**31 - 1))).fit(sample)
        return km.cluster_centers_.astype(sample.dtype), None
    if kernel is None:
        raise ValueError("landmarks='leverage' needs the kernel")
    pilot, _ = _distinct_rows(X, rng.permutation(n), n_landmarks)
    tau = _leverage_scores(kernel, X, pilot, max(n_landmarks // 2, 1), working_memory)
    # Weighted sampling without replacement (Efraimidis & Spirakis 2006): the
    # order of the keys log(u)/τ_i, largest first.
    keys = np.log(rng.random(n)) / tau
    return _distinct_rows(X, np.argsort(-keys, kind="stable"), n_landmarks)
