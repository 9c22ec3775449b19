"""Pairwise blocks: one GEMM, then one pass over cache-sized row blocks of the
output (2-9x faster than whole-array calls; benchmarks/bench_pairwise_threads.py)."""

import numpy as np

from preimage._utils.typing import ArrayLike
from preimage._utils.validation import check_array_2d

# Bytes of output one step of the pass works on: half a 1 MiB L2 cache.
_BLOCK_BYTES = 1 << 19


def map_rows_inplace(func, A):
    """Call the in-place ``func(A[rows], rows)`` on cache-sized row blocks; return `A`."""
    step = max(_BLOCK_BYTES // max(A[:1].nbytes, 1), 1)
    for start in range(0, A.shape[0], step):
        rows = slice(start, min(start + step, A.shape[0]))
        func(A[rows], rows)
    return A


def squared_norms(X):
    """Row-wise squared Euclidean norms ``‖x_i‖²`` in the dtype of `X`."""
    return np.einsum("ij,ij->i", X, X)


def _augmented_product(X, Y, scale, X_norm2, Y_norm2, dtype):
    """``a‖xᵢ − yⱼ‖²`` as one GEMM of ``[X, ‖x‖², 1]`` and ``[−2aY, a, a‖y‖²]``."""
    Xa = np.column_stack([X, X_norm2, np.ones(X.shape[0], dtype)]).astype(dtype, copy=False)
    Y_norm2 = np.multiply(Y_norm2, scale, dtype=dtype)
    Ya = np.column_stack([np.multiply(Y, -2 * scale), np.full_like(Y_norm2, scale), Y_norm2])
    return Xa @ Ya.astype(dtype, copy=False).T, None


def _plain_product(X, Y, scale, X_norm2, Y_norm2, dtype):
    """``−2a xᵢᵀyⱼ`` (scaling the smaller operand) and the norm terms the pass adds."""
    if X.shape[0] <= Y.shape[0]:
        out = np.multiply(X, -2 * scale, dtype=dtype) @ Y.T
    else:
        out = X @ np.multiply(Y, -2 * scale, dtype=dtype).T
    X_term = np.multiply(X_norm2, scale, dtype=dtype)
    Y_term = np.multiply(Y_norm2, scale, dtype=dtype)
    return out, (X_term, Y_term)


def scaled_squared_distances(X, Y, scale=1.0, *, X_norm2=None, Y_norm2=None, out_map=None):
    """Return ``a‖xᵢ − yⱼ‖²`` for all pairs (``a = scale``), or ``out_map`` of it, by one GEMM.

    ``out_map(block)`` runs in place in the output pass (``np.exp`` for a
    Gaussian, ``scale = −γ``). Large blocks fold the norms into the GEMM;
    ``Y is X`` is exactly symmetric (SYRK). Rounding below 0 is clamped.
    """
    dtype = np.result_type(X, Y)
    symmetric = Y is X and (Y_norm2 is None or Y_norm2 is X_norm2)
    X_norm2 = squared_norms(X) if X_norm2 is None else X_norm2
    Y_norm2 = (X_norm2 if symmetric else squared_norms(Y)) if Y_norm2 is None else Y_norm2
    n_x, n_y = X.shape[0], Y.shape[0]
    product = _augmented_product if n_x * n_y > (n_x + n_y) * (X.shape[1] + 2) else _plain_product
    # Partial sums and operands are at most |a|·max(4 max‖x‖², 1); where that
    # overflows the dtype (γ = 1e300) `a` is applied in the output pass instead.
    top = max(float(X_norm2.max(initial=0.0)), float(Y_norm2.max(initial=0.0)))
    late = not abs(float(scale)) * max(4.0 * top, 1.0) < float(np.finfo(dtype).max)
    early = 1.0 if late else scale
    if symmetric:  # XXᵀ by SYRK; −2a and the norm terms in the output pass
        X = np.ascontiguousarray(X, dtype=dtype)
        out, self_term = X @ X.T, np.multiply(X_norm2, early, dtype=dtype)
        factor, norm_terms = -2.0 * early, None
    else:
        out, norm_terms = product(X, Y, early, X_norm2, Y_norm2, dtype)
    clamp = np.maximum if late or scale >= 0 else np.minimum

    def finish(block, rows):
        if symmetric:
            # −2a xᵢᵀxⱼ + (a‖xᵢ‖² + a‖xⱼ‖²), the norm terms summed first: symmetric.
            np.multiply(block, factor, out=block)
            block += np.add(self_term[rows, None], self_term)
        elif norm_terms is not None:
            block += norm_terms[0][rows, None]
            block += norm_terms[1]
        clamp(block, 0, out=block)
        if late:
            # ±inf is intended (exp(−inf) = 0); float64 so that 0·a stays 0 in float32.
            with np.errstate(over="ignore"):
                np.multiply(block, scale, out=block, dtype=np.float64, casting="same_kind")
        if out_map is not None:
            out_map(block)

    return map_rows_inplace(finish, out)


def xp_squared_distances(X, Y, xp):
    """``‖xᵢ − yⱼ‖²`` by one matrix product in the namespace `xp`, clamped at 0."""
    X_norm2 = xp.sum(X * X, axis=1)
    Y_norm2 = X_norm2 if Y is X else xp.sum(Y * Y, axis=1)
    D = (X_norm2[:, None] + Y_norm2[None, :]) - 2 * (X @ Y.T)
    return xp.clip(D, min=0.0)


def squared_distances(
    X: ArrayLike,
    Y: ArrayLike | None = None,
    *,
    X_norm2: np.ndarray | None = None,
    Y_norm2: np.ndarray | None = None,
) -> np.ndarray:
    r"""Return the squared Euclidean distances :math:`\|x_i - y_j\|^2` for all pairs.

    .. math:: \|x - y\|^2 = \|x\|^2 + \|y\|^2 - 2 \langle x, y \rangle,

    one matrix product, with the rounding where :math:`x \approx y` clamped at 0.

    Parameters
    ----------
    X : array-like of shape (n_x, d)
        The first points, validated as a finite 2-D array.
    Y : array-like of shape (n_y, d), default=None
        The second points, of the width of `X`; None means `X`.
    X_norm2, Y_norm2 : ndarray of shape (n_x,) and (n_y,), optional
        Precomputed squared norms :math:`\|x_i\|^2` and :math:`\|y_j\|^2`.

    Returns
    -------
    ndarray of shape (n_x, n_y)
        The squared distances, in the floating dtype of the input.

    References
    ----------
    Schölkopf et al. (1999), Sec. IV-A.

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
