"""Pairwise building blocks at the speed of matrix multiplication.

Every kernel block reduces to one GEMM plus an elementwise map. The squared
Euclidean distance uses

    ‖x − y‖² = ‖x‖² + ‖y‖² − 2 xᵀy,

and the product does the bulk of the work: ``a‖x − y‖²`` for a scale ``a``
takes one GEMM ``−2a XYᵀ``, with the norms either folded into it (operands
``X̂ = [X, ‖x‖², 1]`` and ``Ŷ = [−2aY, a, a‖y‖²]`` of width d + 2, for large
blocks) or added afterwards (for a few points against many, where copying the
large operand would cost as much as the product); see
:func:`scaled_squared_distances`.

Everything after the product — the norm terms when they were not folded in, the
clamp that removes the product's rounding, the kernel's own map (the ``exp`` of
a Gaussian) — is one fused pass: :func:`map_rows_inplace` walks the output in
row blocks of half a typical L2 cache (``_BLOCK_BYTES``) and applies every
step to a block while it is resident, so an output too large for any cache crosses main memory
once after the product instead of once per step. Large outputs are split among
a small thread pool (NumPy ufuncs release the GIL). Right after a GEMM,
OpenBLAS's worker threads keep polling for new work for a while and hold on to
the cores, so on a small machine this pass runs at about single-core speed
whatever the pool size.

The pass uses as many threads as the process may (:func:`n_threads`): the CPUs
it may run on, not the host's (affinity, a container's CPU quota), and no more
than the thread limits a caller set for numerical code (``OMP_NUM_THREADS``,
as in a joblib or Dask worker; ``threadpoolctl.threadpool_limits``), read at
every large block so that a ``with threadpool_limits(1):`` takes effect at
once. The result is bit-identical whatever the count: every entry is mapped
by the same elementwise operations, only the split of the rows differs.
"""

from concurrent.futures import ThreadPoolExecutor, wait
import threading

import numpy as np

from preimage._utils.resources import available_cpus, thread_limit
from preimage._utils.typing import ArrayLike
from preimage._utils.validation import check_array_2d

__all__ = [
    "squared_norms",
    "scaled_squared_distances",
    "squared_distances",
    "map_rows_inplace",
    "n_threads",
]

# Below this many entries a thread pool costs more than it saves.
_PARALLEL_MIN_SIZE = 1 << 18
# At most this many threads for elementwise maps: memory bandwidth, not
# cores, bounds a pass over a large output well before this.
_MAX_WORKERS = 8
# Bytes of output one step of the output pass works on: half of a 1 MiB L2
# cache (this machine's, and most current server cores'), so that a block stays
# resident between the steps of a map. The blocking never changes the result.
_BLOCK_BYTES = 1 << 19
_POOL = None
_POOL_LOCK = threading.Lock()


def n_threads():
    """The number of threads the output pass of a large block uses.

    The smallest of the CPUs this process may run on
    (:func:`preimage._utils.resources.available_cpus`: affinity, cgroup CPU quota,
    ``LOKY_MAX_CPU_COUNT``), the thread limit in effect
    (:func:`preimage._utils.resources.thread_limit`: ``OMP_NUM_THREADS`` and the
    BLAS variables, threadpoolctl's limits) and ``_MAX_WORKERS``. Read anew
    for every block above ``_PARALLEL_MIN_SIZE`` entries (some 30 µs, against
    the millisecond such a block's pass takes).
    """
    limit = thread_limit()
    count = available_cpus() if limit is None else min(available_cpus(), limit)
    return max(min(count, _MAX_WORKERS), 1)


def _pool():
    """The shared pool of helper threads; the calling thread is the n-th
    worker of a pass, so a pass with n threads takes n − 1 from here. Threads
    are started only as they are first needed (``ThreadPoolExecutor``)."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(max_workers=_MAX_WORKERS - 1, thread_name_prefix="preimage")
    return _POOL


def _map_blocks(func, A, lo, hi, rows):
    """Call ``func(A[sl], sl)`` on consecutive slices of at most `rows` rows in ``lo:hi``."""
    for start in range(lo, hi, rows):
        sl = slice(start, min(start + rows, hi))
        func(A[sl], sl)


def _map_row_blocks(func, A):
    """:func:`map_rows_inplace` for a ``func(block, rows)`` that is also told
    which rows of `A` (a slice) its block holds."""
    rows = max(_BLOCK_BYTES // max(A[:1].nbytes, 1), 1)
    n_rows = A.shape[0]
    # The thread count is read only for blocks large enough to be split.
    n_workers = 1 if A.size < _PARALLEL_MIN_SIZE else min(n_threads(), n_rows // 2)
    if n_workers <= 1:
        _map_blocks(func, A, 0, n_rows, rows)
        return A
    bounds = np.linspace(0, n_rows, n_workers + 1).astype(int)
    futures = [
        _pool().submit(_map_blocks, func, A, lo, hi, rows)
        for lo, hi in zip(bounds[1:-1], bounds[2:])
    ]
    try:
        _map_blocks(func, A, 0, bounds[1], rows)  # the first chunk in this thread
    finally:
        # Wait for every helper even when this thread's chunk failed: they
        # write into A, which must not be handed back while they do.
        wait(futures)
    for f in futures:
        f.result()  # a helper's error is raised here
    return A


def map_rows_inplace(func, A):
    """Apply the in-place map ``func(block)`` to all of `A`, cache block by block.

    Parameters
    ----------
    func : callable
        Called as ``func(block)`` on row blocks (views) of `A`; it must
        overwrite ``block`` in place and act on each entry independently,
        so that ``func`` on the blocks equals ``func`` on the whole array.
    A : ndarray of shape (n_rows, n_cols)
        The array to transform; it is modified and returned.

    Returns
    -------
    A : ndarray
        The same array, transformed.

    Notes
    -----
    The rows are split into one contiguous chunk per thread of
    :func:`n_threads` (large arrays only: below ``_PARALLEL_MIN_SIZE``
    entries, or with one thread allowed, everything runs in the calling
    thread, which otherwise takes the first chunk), and each chunk is walked
    in blocks of about half a core's L2 cache (at least one row). A ``func``
    made of several ufunc calls — a clamp followed by an ``exp``, say — then
    touches each entry of `A` in main memory once: every step after the first
    finds the block in cache. The result does not depend on the blocking, since ``func`` is
    elementwise.
    """
    return _map_row_blocks(lambda block, rows: func(block), A)


def squared_norms(X):
    """Row-wise squared Euclidean norms ``‖x_i‖²`` in the dtype of `X`."""
    return np.einsum("ij,ij->i", X, X)


def _augmented_product(X, Y, scale, X_norm2, Y_norm2, dtype):
    """``a‖x_i − y_j‖²`` as one GEMM of the augmented operands (see
    :func:`scaled_squared_distances`); nothing is left for the output pass."""
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
    return Xa @ Ya.T, None


def _plain_product(X, Y, scale, X_norm2, Y_norm2, dtype):
    """``−2a xᵢᵀyⱼ`` as one GEMM of the inputs, with the scaled norms
    ``a‖xᵢ‖²`` and ``a‖yⱼ‖²`` that the output pass adds to it.

    The factor ``−2a`` is applied to the smaller operand (a copy of
    ``min(n_x, n_y) · d`` entries), the other is used as it is.
    """
    if X.shape[0] <= Y.shape[0]:
        out = np.multiply(X, -2 * scale, dtype=dtype) @ Y.T
    else:
        out = X @ np.multiply(Y, -2 * scale, dtype=dtype).T
    X_term = np.multiply(X_norm2, scale, dtype=dtype)
    Y_term = np.multiply(Y_norm2, scale, dtype=dtype)
    return out, (X_term, Y_term)


def _symmetric_product(X, scale, X_norm2, dtype):
    """``xᵢᵀxⱼ`` for ``Y is X``, as NumPy's ``X @ X.T``, which calls SYRK for
    the product of an array with its own transpose (half the multiplications
    of a GEMM) and mirrors the computed triangle: exactly symmetric. The
    output pass scales it by ``−2a`` and adds ``a‖xᵢ‖² + a‖xⱼ‖²``."""
    X = np.ascontiguousarray(X, dtype=dtype)
    X_term = np.multiply(X_norm2, scale, dtype=dtype)
    return X @ X.T, X_term


def scaled_squared_distances(X, Y, scale=1.0, *, X_norm2=None, Y_norm2=None, out_map=None):
    """Return ``scale · ‖x_i − y_j‖²`` for all pairs (or a map of it), by one GEMM.

    Parameters
    ----------
    X : ndarray of shape (n_x, d)
    Y : ndarray of shape (n_y, d)
    scale : float, default=1.0
        The factor ``a``; negative for kernels ``f(−γ‖x − y‖²)``.
    X_norm2, Y_norm2 : ndarray of shape (n_x,) and (n_y,), optional
        Precomputed squared norms ``‖x_i‖²`` and ``‖y_j‖²``.
    out_map : callable, optional
        An elementwise in-place map ``out_map(block)`` applied to the scaled
        squared distances, e.g. ``np.exp(block, out=block)`` for the Gaussian
        kernel ``exp(−γ‖x − y‖²)`` with ``scale = −γ``. It runs in the same
        pass over the output as the clamp (see Notes).

    Returns
    -------
    D : ndarray of shape (n_x, n_y)
        ``a‖x_i − y_j‖²``, or ``out_map`` of it, in the dtype of the inputs
        (float32 stays float32).

    Notes
    -----
    The expansion ``a‖x − y‖² = a‖x‖² + a‖y‖² − 2a xᵀy`` is evaluated by one
    GEMM, in one of two ways chosen by which costs less memory traffic:

    * the norms folded into the product: with the augmented operands
      ``X̂ = [X, ‖x‖², 1]`` and ``Ŷ = [−2aY, a, a‖y‖²]`` (width d + 2),
      ``(X̂ Ŷᵀ)_ij = −2a xᵢᵀyⱼ + a‖xᵢ‖² + a‖yⱼ‖² = a‖xᵢ − yⱼ‖²``. Building
      them writes ``(n_x + n_y)(d + 2)`` entries, which is cheap beside an
      output of ``n_x n_y`` entries: this is the route for large blocks,
      ``n_x n_y > (n_x + n_y)(d + 2)``;
    * otherwise (a few points against many, as in iterative pre-image
      solvers) the product ``−2a XYᵀ`` of the inputs, with ``a‖xᵢ‖²`` and
      ``a‖yⱼ‖²`` added in the output pass, where the small output is already
      in cache: copying the large operand would cost about as much as the
      product itself;
    * for ``Y is X`` (a training Gram matrix) the symmetric product ``XXᵀ``
      by SYRK, which computes one triangle (half the multiplications) and
      mirrors it, with ``−2a`` and the norm terms applied in the output pass;
      ``a‖xᵢ‖² + a‖xⱼ‖²`` is summed before it is added, so the block is
      exactly symmetric.

    In floating point the cancellation in ``‖x‖² + ‖y‖² − 2xᵀy`` can leave
    values of the wrong sign (of the order of ``eps·|a|·(‖x‖² + ‖y‖²)``) where
    ``x ≈ y``; they are clamped to zero, from above when ``a ≥ 0`` and from
    below when ``a < 0``, so the distance is never negative (and
    ``exp(−γ‖x − y‖²) ≤ 1``). The norm terms, the clamp and `out_map` are
    applied together on cache-sized row blocks (see :func:`map_rows_inplace`):
    the output crosses main memory once after the product. The clamp
    propagates NaN (``np.maximum``/``np.minimum``), so non-finite input stays
    visible in the result rather than being turned into a distance.
    """
    dtype = np.result_type(X, Y)
    symmetric = Y is X and (Y_norm2 is None or Y_norm2 is X_norm2)
    if X_norm2 is None:
        X_norm2 = squared_norms(X)
    if Y_norm2 is None:
        Y_norm2 = X_norm2 if symmetric else squared_norms(Y)
    n_x, n_y = X.shape[0], Y.shape[0]
    if symmetric:
        product = None
    elif n_x * n_y > (n_x + n_y) * (X.shape[1] + 2):
        product = _augmented_product
    else:
        product = _plain_product
    # Every partial sum of the product, and every operand entry, is at most
    # |a|·max(4 max‖x‖², 1) in magnitude. Where that overflows the dtype (a
    # Gaussian with γ = 1e300, or γ beyond float32's range) the product is
    # taken unscaled and `a` applied in the output pass instead.
    top = max(float(X_norm2.max(initial=0.0)), float(Y_norm2.max(initial=0.0)))
    late = not abs(float(scale)) * max(4.0 * top, 1.0) < float(np.finfo(dtype).max)
    if symmetric:
        out, self_term = _symmetric_product(X, 1.0 if late else scale, X_norm2, dtype)
        factor, norm_terms = (-2.0 if late else -2.0 * scale), None
    else:
        out, norm_terms = product(X, Y, 1.0 if late else scale, X_norm2, Y_norm2, dtype)
    clamp = np.maximum if late or scale >= 0 else np.minimum

    def finish(block, rows):
        if symmetric:
            # −2a xᵢᵀxⱼ + (a‖xᵢ‖² + a‖xⱼ‖²): the norm terms summed first, a
            # commutative sum, so that entries (i, j) and (j, i) stay equal.
            np.multiply(block, factor, out=block)
            block += np.add(self_term[rows, None], self_term)
        elif norm_terms is not None:
            X_term, Y_term = norm_terms
            np.add(block, X_term[rows, None], out=block)
            np.add(block, Y_term, out=block)
        clamp(block, 0, out=block)
        if late:
            # a‖x − y‖² overflowing to ±inf is the intended answer here
            # (exp(−inf) = 0: points apart are orthogonal in feature space);
            # the product is formed in float64 so that 0·a stays 0 in float32.
            with np.errstate(over="ignore"):
                np.multiply(block, scale, out=block, dtype=np.float64, casting="same_kind")
        if out_map is not None:
            out_map(block)

    return _map_row_blocks(finish, out)


def squared_distances(
    X: ArrayLike,
    Y: ArrayLike | None = None,
    *,
    X_norm2: np.ndarray | None = None,
    Y_norm2: np.ndarray | None = None,
) -> np.ndarray:
    r"""Return the squared Euclidean distances :math:`\|x_i - y_j\|^2` for all pairs.

    The block is one matrix product (GEMM), by the expansion

    .. math:: \|x - y\|^2 = \|x\|^2 + \|y\|^2 - 2 \langle x, y \rangle,

    with the rounding of the cancellation where :math:`x \approx y` clamped
    at 0, so no distance is negative.

    Parameters
    ----------
    X : array-like of shape (n_x, d)
        The first points, validated as a finite 2-D array.
    Y : array-like of shape (n_y, d), default=None
        The second points, of the width of `X`; None means `X`.
    X_norm2 : ndarray of shape (n_x,), optional
        Precomputed squared norms :math:`\|x_i\|^2`.
    Y_norm2 : ndarray of shape (n_y,), optional
        Precomputed squared norms :math:`\|y_j\|^2`.

    Returns
    -------
    ndarray of shape (n_x, n_y)
        The squared distances, in the floating dtype of the input.

    References
    ----------
    B. Schölkopf, S. Mika, C. J. C. Burges, P. Knirsch, K.-R. Müller,
    G. Rätsch and A. J. Smola, "Input space versus feature space in
    kernel-based methods", IEEE Trans. Neural Networks 10(5), 1999, Sec. IV-A (the
    expansion, the polarization identity, carries the exact pre-image of
    dot-product kernels over to radial ones).

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.kernels import squared_distances
    >>> squared_distances(np.array([[0.0, 0.0], [3.0, 4.0]]))
    array([[ 0., 25.],
           [25.,  0.]])
    """
    X = check_array_2d(X, "X")
    Y = X if Y is None else check_array_2d(Y, "Y", n_features=X.shape[1])
    return scaled_squared_distances(X, Y, 1.0, X_norm2=X_norm2, Y_norm2=Y_norm2)
