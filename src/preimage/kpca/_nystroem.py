r"""Nyström kernel PCA: principal axes as expansions over m landmarks.

The fit touches :math:`K_{nm}` only through the moments of the kernel rows,
accumulated over row blocks (a Dask array is reduced block-wise): time
:math:`O(nmd + nm^2 + m^3)`, memory :math:`O(nd + m^2)`.
"""

from __future__ import annotations

import functools

import numpy as np
from scipy import linalg

from preimage._utils.blocks import is_dask_array, map_row_blocks, sum_row_blocks
from preimage._utils.config import get_config
from preimage._utils.eigen import flip_signs, landmark_basis, top_eigh
from preimage._utils.memory import check_dense
from preimage._utils.typing import ArrayLike, MatrixLike, RandomStateLike
from preimage._utils.validation import (
    check_array_2d,
    check_overflow,
    check_positive_int,
    check_random_state,
    measure_chunks,
)
from preimage._utils.warnings import warn
from preimage._utils.xp import check_xp_2d, device_of, namespace, refuse, take_rows, to_numpy
from preimage.exceptions import NumericalWarning
from preimage.kernels import Kernel
from preimage.kpca._guards import check_finite_fit, drop_rounding_level, rounding_floor
from preimage.kpca._result import KernelPCAResult

#: How landmarks can be chosen.
LANDMARK_METHODS = ("uniform", "kmeans", "leverage")

#: What to do when the kernel rows' moments overflow.
_RESCALE = (
    "rescale 'X' (e.g. with sklearn.preprocessing.StandardScaler) "
    "or choose milder kernel parameters"
)

# Points per landmark that k-means is run on (a uniform sample of the data).
_KMEANS_SAMPLE_PER_LANDMARK = 20


def _moments_block(kernel, landmarks, shift, X):
    xp = namespace(X)
    if xp is not None:  # array API dispatch: the rows' products on their device
        K = kernel.block(X, xp.asarray(landmarks, device=device_of(X)), check_input=False)
        K = xp.astype(K - xp.asarray(shift, device=device_of(X)), xp.float64)
        return to_numpy(K.T @ K), to_numpy(xp.sum(K, axis=0)), np.array(K.shape[0])
    X = check_array_2d(X, "X", n_features=landmarks.shape[1])
    K = kernel.block(X, landmarks, check_input=False, names="'X'")
    with np.errstate(over="ignore", invalid="ignore"):
        K -= shift
        G = K.T @ K
        if K.dtype != np.float64 and not np.isfinite(G).all():
            K = K.astype(np.float64)  # float32 products overflow beyond 3e38
            G = K.T @ K
    return G.astype(np.float64, copy=False), K.sum(axis=0, dtype=np.float64), np.array(K.shape[0])


def _check_overflow(values):
    """The moments of the kernel rows, refused where they overflowed float64."""
    return check_overflow(values, "the second moments of the kernel rows", "'X'", _RESCALE)


def _kernel_moments(kernel, X, landmarks, shift, working_memory):
    m = landmarks.shape[0]
    shift = np.zeros(m, landmarks.dtype) if shift is None else shift.astype(landmarks.dtype)
    if working_memory is None:
        # Row blocks are dense matrices too: keep them within the memory budget.
        from sklearn import get_config as sklearn_config

        budget = get_config()["memory_budget"] / 2**20
        working_memory = min(sklearn_config()["working_memory"], budget)
    block = functools.partial(_moments_block, kernel, landmarks, shift)
    # A row of the block costs its kernel row and its augmented input row.
    row_bytes = (m + landmarks.shape[1] + 2) * landmarks.dtype.itemsize
    G, t, n = sum_row_blocks(block, X, row_bytes=row_bytes, working_memory=working_memory)
    return G, t, int(n)


def fit_nystroem_kpca(
    kernel: Kernel,
    X: MatrixLike,
    landmarks: ArrayLike,
    n_components: int | None = None,
    *,
    working_memory: float | None = None,
) -> KernelPCAResult:
    r"""Fit kernel PCA of the projections of the images on the landmarks' span.

    With :math:`K_{mm} = U \Lambda U^\top` and :math:`W = U \Lambda^{-1/2}`
    (or :math:`R^{-1}` from :math:`K_{mm} = R^\top R`), the projections
    :math:`P\phi(x)` have coordinates :math:`f(x) = W^\top k_m(x)` in an
    orthonormal basis of :math:`\operatorname{span}\{\phi(z_j)\}`; their PCA
    is that of the scatter :math:`C = W^\top S W`,
    :math:`S = \sum_i (k_m(x_i) - \bar k)(k_m(x_i) - \bar k)^\top`:

    .. math::

        C w_k = \lambda_k w_k, \qquad
        V_k = \sum_j \alpha_{jk} \phi(z_j), \qquad \alpha_k = W w_k.

    With every training point a landmark it is exact kernel PCA.

    Parameters
    ----------
    kernel : Kernel
        The kernel.
    X : array-like or Dask array of shape (n, d)
        Training points, streamed over row blocks.
    landmarks : array-like of shape (m, d)
        The landmarks :math:`z_j`.
    n_components : int or None, default=None
        Number of components :math:`q \le m`; None keeps all with non-zero
        eigenvalue. Components beyond the rank of the scatter are 0, with a
        NumericalWarning, as in :func:`fit_kernel_pca`.
    working_memory : float or None, default=None
        MiB per row block of a NumPy X (scikit-learn's setting, capped by the
        memory budget, by default).

    Returns
    -------
    KernelPCAResult
        Over the landmarks as support (``eigenvectors`` and ``K_col_mean``
        are None: no n-sized state is kept).

    References
    ----------
    Williams and Seeger (2001). Schölkopf et al. (1998).

    Examples
    --------
    With every training point a landmark, Nyström kernel PCA is exact kernel
    PCA.

    >>> import numpy as np
    >>> from preimage.kernels import GaussianKernel
    >>> from preimage.kpca import fit_kernel_pca, fit_nystroem_kpca
    >>> X = np.random.default_rng(0).normal(size=(20, 2))
    >>> kernel = GaussianKernel(gamma=0.5)
    >>> nystroem = fit_nystroem_kpca(kernel, X, X, 3)
    >>> exact = fit_kernel_pca(kernel(X), 3)
    >>> np.allclose(nystroem.eigenvalues, exact.eigenvalues)
    True
    """
    kernel = _check_kernel(kernel)
    n_components = check_positive_int(n_components, "n_components", allow_none=True)
    landmarks = check_array_2d(landmarks, "landmarks")
    X = _check_data(X, landmarks.shape[1])
    m = landmarks.shape[0]
    if n_components is not None and n_components > m:
        raise ValueError(
            f"'n_components' must be <= n_landmarks={m}, the number of "
            "landmarks (fewer than asked for when the data have fewer distinct "
            f"rows), got {n_components}"
        )
    _check_landmark_memory(m)
    K_mm = kernel.block(landmarks, check_input=False, names="'landmarks'")
    W = landmark_basis(K_mm, check_input=False)
    # Kernel values beyond about 1e154 overflow in the products below; the
    # result is checked instead of every step.
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        fit, n = _nystroem_fit(kernel, X, landmarks, K_mm, W, n_components, working_memory)
    return check_finite_fit(fit, "'X'", n)


def _nystroem_fit(kernel, X, landmarks, K_mm, W, n_components, working_memory):
    dtype, r = landmarks.dtype, W.shape[1]
    q = r if n_components is None else n_components
    shift = K_mm.mean(axis=0)
    G, t, n = _kernel_moments(kernel, X, landmarks, shift, working_memory)
    delta = t / n
    k_mean = shift.astype(np.float64) + delta
    S = G - n * np.outer(delta, delta)
    C = W.T @ S @ W
    C = (C + C.T) / 2
    if not np.isfinite(C).all():
        return None, n
    # Components beyond the r directions the landmarks span are 0, as those
    # of exact kernel PCA beyond the rank of the centred Gram matrix.
    k = min(q, r)
    values, vectors = top_eigh(C, k, solver="dense") if k else (np.zeros(0), np.zeros((r, 0)))
    values = np.concatenate([values, np.zeros(q - values.shape[0])])
    vectors = np.hstack([vectors, np.zeros((r, q - vectors.shape[1]))])
    row_scale = np.sqrt(np.diag(G) / n) + np.abs(shift)
    k_scale = max(float(np.abs(K_mm).max()), float(np.max(row_scale)))
    floor = rounding_floor(k_scale, n, dtype)
    values, vectors, nonzero = drop_rounding_level(values, vectors, n_components, floor=floor)
    values = np.where(nonzero, values, 0.0)
    # Signs are fixed on the coefficients over the landmarks (largest entry
    # positive), not on w_k, whose basis W inherits LAPACK's arbitrary signs.
    alphas = flip_signs(W @ vectors) * nonzero
    f_mean = W.T @ k_mean
    values, mean_coords, mean_coef, alphas = (
        a.astype(dtype) for a in (values, alphas.T @ k_mean, W @ f_mean, alphas)
    )
    K_mean = float(f_mean @ f_mean)
    return KernelPCAResult(values, None, alphas, None, K_mean, mean_coords, mean_coef), n


def _check_landmark_memory(m):
    """The m × m matrices of a Nyström fit (four copies) within the memory budget."""
    what, hint = f"the {m} x {m} matrices of the landmarks", "use fewer landmarks ('n_landmarks')"
    check_dense((m, m), np.float64, what, hint=hint, copies=4)


def _check_kernel(kernel):
    if not isinstance(kernel, Kernel):
        raise TypeError(
            f"'kernel' must be a kernel object of preimage.kernels, got {type(kernel).__name__}"
        )
    return kernel


def _check_data(X, n_features=None):
    """X checked; a Dask array for what needs no data (blocks are checked when computed)."""
    if namespace(X) is not None:
        return check_xp_2d(X, "X", namespace(X), n_features=n_features)
    if not is_dask_array(X):
        return check_array_2d(X, "X", n_features=n_features)
    if X.ndim != 2 or X.dtype.kind not in "biuf":
        raise ValueError(
            f"'X' must be a 2-D Dask array of real numbers, got shape "
            f"{X.shape} and dtype {X.dtype}"
        )
    if X.shape[0] < 1 or (n_features is not None and X.shape[1] != n_features):
        raise ValueError(
            f"'X' must have at least 1 row and {n_features} columns, got shape {X.shape}"
        )
    return X


def _take_rows(X, index):
    if namespace(X) is not None:  # rows of device arrays come to the host
        return to_numpy(take_rows(X, index))
    rows = X[index]  # of a Dask array, checked here: its blocks are not yet
    return check_array_2d(rows.compute() if is_dask_array(rows) else rows, "X")


def _distinct_rows(X, order, m):
    """The first m distinct rows of X taken in `order`, and their sorted indices."""
    index = np.sort(order[:m])
    rows, position = _take_rows(X, index), m
    while True:
        _, first = np.unique(rows, axis=0, return_index=True)
        if first.size == index.size or position >= order.size:
            break
        keep = np.sort(first)
        extra = order[position : position + m - keep.size]
        position += extra.size
        index = np.concatenate([index[keep], extra])
        rows = np.concatenate([rows[keep], _take_rows(X, extra)])
        order_rows = np.argsort(index)
        index, rows = index[order_rows], rows[order_rows]
    if first.size < index.size:
        keep = np.sort(first)
        index, rows = index[keep], rows[keep]
    _warn_fewer(index.size, m)
    return rows, index


def _warn_fewer(count, m):
    if count < m:
        warn(
            f"'X' has only {count} distinct rows; using them as the "
            f"{count} landmarks instead of n_landmarks={m}",
            NumericalWarning,
        )


def _leverage_scores(kernel, X, pilot, ridge_rank, working_memory):
    """Ridge leverage scores ``τ_i = [K(K + λI)⁻¹]_ii`` from a pilot's Nyström
    features F: ``τ_i ≈ f_iᵀ(FᵀF + λI)⁻¹f_i + min(1, e_ii/λ)``, with
    ``e_ii = k(x_i, x_i) − ‖f_i‖²`` what the pilot misses and λ the
    `ridge_rank`-th eigenvalue of FᵀF."""
    W = landmark_basis(kernel.block(pilot, check_input=False), check_input=False)
    if W.shape[1] == 0:  # the kernel maps the pilot to 0: nothing to weigh by
        return np.ones(X.shape[0])
    with np.errstate(over="ignore", invalid="ignore"):
        G = _check_overflow(_kernel_moments(kernel, X, pilot, None, working_memory)[0])
        FtF = _check_overflow(W.T @ G @ W)
    values = np.linalg.eigvalsh(FtF)[::-1]
    at_rank = float(values[min(ridge_rank, values.shape[0]) - 1])
    lam = max(at_rank, np.finfo(float).eps * max(float(values[0]), 1.0))
    B = linalg.inv(FtF + lam * np.eye(FtF.shape[0]))

    def scores(X_block):
        X_block = check_array_2d(X_block, "X", n_features=pilot.shape[1])
        F = kernel.block(X_block, pilot, check_input=False, names="'X'").astype(np.float64)
        diag = kernel.diag(X_block, check_input=False)
        with np.errstate(over="ignore", invalid="ignore"):  # checked below
            F = F @ W
            captured = np.einsum("ij,ij->i", F @ B, F)
            missed = np.maximum(diag - np.einsum("ij,ij->i", F, F), 0.0)
            return (captured + np.minimum(missed / lam, 1.0))[:, None]

    tau = map_row_blocks(scores, X, n_columns=1, dtype=np.float64)
    tau = _check_overflow(np.asarray(tau.compute() if is_dask_array(tau) else tau)[:, 0])
    # Every point keeps a chance, so that m distinct points can always be drawn.
    return np.maximum(tau, 1e-12 * max(float(tau.max()), 1.0))


def select_landmarks(
    X: MatrixLike,
    n_landmarks: int,
    kernel: Kernel | None = None,
    *,
    method: str = "uniform",
    random_state: RandomStateLike = None,
    working_memory: float | None = None,
) -> tuple[np.ndarray, np.ndarray | None]:
    """``(landmarks, index)``: m distinct landmarks and their rows in X (None for
    k-means centres), fewer with a NumericalWarning if X has fewer distinct rows.
    ``uniform``: m rows drawn; ``kmeans``: k-means centres (one start, 25
    iterations) of at most 20 m rows; ``leverage``: m rows drawn by ridge
    leverage scores (El Alaoui and Mahoney (2015); Efraimidis and Spirakis (2006))."""
    if not isinstance(method, str) or method not in LANDMARK_METHODS:
        raise ValueError(f"'landmarks' must be one of {LANDMARK_METHODS}, got {method!r}")
    if method == "leverage":
        if namespace(X) is not None:
            raise refuse("landmarks='leverage'", namespace(X))
        if kernel is None:
            raise ValueError("'kernel' is needed by landmarks='leverage', got None")
        kernel = _check_kernel(kernel)
    X = _check_data(X)
    X = measure_chunks(X) if is_dask_array(X) else X
    n = X.shape[0]
    n_landmarks = check_positive_int(n_landmarks, "n_landmarks")
    if n_landmarks > n:
        raise ValueError(f"'n_landmarks' must be <= n_samples={n}, got {n_landmarks!r}")
    rng = check_random_state(random_state)
    if method == "uniform":
        return _distinct_rows(X, rng.permutation(n), n_landmarks)
    if method == "kmeans":
        from sklearn.cluster import KMeans

        size = min(n, _KMEANS_SAMPLE_PER_LANDMARK * n_landmarks)
        sample = _take_rows(X, np.sort(rng.choice(n, size, replace=False)))
        seed = int(rng.integers(2**31 - 1))
        km = KMeans(n_landmarks, n_init=1, max_iter=25, random_state=seed).fit(sample)
        centres = km.cluster_centers_.astype(sample.dtype)
        # With fewer distinct points than clusters k-means repeats centres.
        _, first = np.unique(centres, axis=0, return_index=True)
        _warn_fewer(first.size, n_landmarks)
        return centres[np.sort(first)], None
    _check_landmark_memory(n_landmarks)
    pilot, _ = _distinct_rows(X, rng.permutation(n), n_landmarks)
    tau = _leverage_scores(kernel, X, pilot, max(n_landmarks // 2, 1), working_memory)
    # Weighted sampling without replacement (Efraimidis & Spirakis 2006): the
    # order of the keys log(u)/τ_i, largest first.
    keys = np.log(rng.random(n)) / tau
    return _distinct_rows(X, np.argsort(-keys, kind="stable"), n_landmarks)
