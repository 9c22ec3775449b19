"""Pairwise building blocks: one GEMM plus one elementwise pass.

``a‖x − y‖² = a‖x‖² + a‖y‖² − 2a xᵀy`` takes one GEMM (see
:func:`scaled_squared_distances`). Everything after the product (the norm
terms, the clamp of the rounding, the kernel's own map such as the ``exp`` of
a Gaussian) is one pass over the output, walked in row blocks of half a
typical L2 cache, so the output crosses main memory once after the product
instead of once per step; the blocking never changes the result. A thread
pool for this pass gave at most 1.2x on two cores, whole-array NumPy calls
were 2-9x slower (benchmarks/bench_pairwise_threads.py).
"""

import numpy as np

from preimage._utils.typing import ArrayLike
from preimage._utils.validation import check_array_2d

__all__ = ["squared_norms", "scaled_squared_distances", "squared_distances", "map_rows_inplace"]

# Bytes of output one step of the pass works on: half a 1 MiB L2 cache.
_BLOCK_BYTES = 1 << 19


def _map_row_blocks(func, A):
    """Call the in-place elementwise ``func(block, rows)`` on cache-sized row
    blocks ``A[rows]`` of `A`; return `A`."""
    step = max(_BLOCK_BYTES // max(A[:1].nbytes, 1), 1)
    for start in range(0, A.shape[0], step):
        rows = slice(start, min(start + step, A.shape[0]))
        func(A[rows], rows)
    return A


def map_rows_inplace(func, A):
    """Apply the in-place elementwise map ``func(block)`` to all of `A`, block by block."""
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
