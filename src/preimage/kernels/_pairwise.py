"""Pairwise building blocks at the speed of matrix multiplication.

Every kernel block reduces to one GEMM plus an elementwise map. The squared
Euclidean distance uses

    ‖x − y‖² = ‖x‖² + ‖y‖² − 2 xᵀy,

and to keep it to a single pass over the output the norms are folded into the
product: with ``X̂ = [X, ‖x‖², 1]`` and ``Ŷ = [−2aY, a, a‖y‖²]`` one GEMM of
width d + 2 returns ``a‖x − y‖²`` for any scale ``a`` (see
:func:`scaled_squared_distances`). Elementwise maps then run on row chunks in a
small thread pool: NumPy ufuncs release the GIL, and on a two-core machine the
``exp`` of a Gaussian block otherwise costs a third of the product itself.
"""

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

__all__ = [
    "squared_norms",
    "scaled_squared_distances",
    "squared_distances",
    "row_chunks",
    "map_rows_inplace",
]

# Below this many entries a thread pool costs more than it saves.
_PARALLEL_MIN_SIZE = 1 << 18
_POOL = None
_BLAS = None


def _single_threaded_blas():
    """Limit BLAS to one thread for a small product: threads there only add
    synchronisation, which on a busy machine costs several times the product."""
    global _BLAS
    if _BLAS is None:
        from threadpoolctl import ThreadpoolController
        _BLAS = ThreadpoolController()
    return _BLAS.limit(limits=1, user_api="blas")


def _pool():
    global _POOL
    if _POOL is None:
        _POOL = ThreadPoolExecutor(max_workers=min(os.cpu_count() or 1, 8),
                                   thread_name_prefix="preimage")
    return _POOL


def map_rows_inplace(func, A):
    """Apply ``func(block)`` (which must work in place) to row chunks of `A`.

    Large arrays are split across a thread pool (one chunk per core); small ones
    are handled in the calling thread.
    """
    n_workers = min(os.cpu_count() or 1, 8)
    if A.size < _PARALLEL_MIN_SIZE or n_workers == 1 or A.shape[0] < 2 * n_workers:
        func(A)
        return A
    bounds = np.linspace(0, A.shape[0], n_workers + 1).astype(int)
    futures = [_pool().submit(func, A[lo:hi]) for lo, hi in zip(bounds[:-1], bounds[1:])]
    for f in futures:
        f.result()
    return A


def squared_norms(X):
    """Row-wise squared Euclidean norms ``‖x_i‖²`` in the dtype of `X`."""
    return np.einsum("ij,ij->i", X, X)


def scaled_squared_distances(X, Y, scale=1.0, *, X_norm2=None, Y_norm2=None):
    """Return ``scale · ‖x_i − y_j‖²`` for all pairs, by one GEMM.

    The operands are augmented as ``X̂ = [X, ‖x‖², 1]`` and
    ``Ŷ = [−2·scale·Y, scale, scale·‖y‖²]`` so that ``X̂ Ŷᵀ`` is the scaled
    squared distance, with no further pass over the (large) output. Tiny
    negative values left by cancellation are clamped to zero (to zero from the
    other side when ``scale`` is negative). The dtype is that of the inputs
    (float32 stays float32).
    """
    dtype = np.result_type(X, Y)
    if X_norm2 is None:
        X_norm2 = squared_norms(X)
    if Y_norm2 is None:
        Y_norm2 = squared_norms(Y)
    d = X.shape[1]
    Xa = np.empty((X.shape[0], d + 2), dtype=dtype)
    Xa[:, :d] = X
    Xa[:, d] = X_norm2
    Xa[:, d + 1] = 1
    Ya = np.empty((Y.shape[0], d + 2), dtype=dtype)
    np.multiply(Y, -2 * scale, out=Ya[:, :d])
    Ya[:, d] = scale
    Ya[:, d + 1] = Y_norm2
    Ya[:, d + 1] *= scale
    if X.shape[0] * Y.shape[0] < _PARALLEL_MIN_SIZE:
        with _single_threaded_blas():
            out = Xa @ Ya.T
    else:
        out = Xa @ Ya.T
    if scale >= 0:
        map_rows_inplace(lambda b: np.maximum(b, 0, out=b), out)
    else:
        map_rows_inplace(lambda b: np.minimum(b, 0, out=b), out)
    return out


def squared_distances(X, Y, *, X_norm2=None, Y_norm2=None):
    """Squared Euclidean distances ``‖x_i − y_j‖²`` (GEMM route, clamped at 0)."""
    return scaled_squared_distances(X, Y, 1.0, X_norm2=X_norm2, Y_norm2=Y_norm2)


def row_chunks(n_rows, row_bytes, working_memory=None):
    """Yield slices of at most as many rows as fit in `working_memory` MiB.

    `working_memory` defaults to scikit-learn's global setting
    (``sklearn.get_config()["working_memory"]``, 1024 MiB unless changed).
    At least one row is always yielded per chunk.
    """
    if working_memory is None:
        from sklearn import get_config

        working_memory = get_config()["working_memory"]
    rows = max(int(working_memory * 2**20 // max(row_bytes, 1)), 1)
    for start in range(0, n_rows, rows):
        yield slice(start, min(start + rows, n_rows))
