"""Starting points and argument checks shared by the pre-image methods."""

import numpy as np

from .._validation import check_array_2d

__all__ = ["support_distance2", "nearest_support_points", "check_starts",
           "check_same_support"]


def support_distance2(expansion):
    """``‖Ψ_j − φ(x_i)‖²`` from every expansion to every support point, (m, n).

    Computed over row blocks of the support Gram matrix, so memory stays
    bounded: ``‖Ψ_j‖² − 2 (ΓK)_ji + k(x_i, x_i)``.
    """
    support, kernel = expansion.support, expansion.kernel
    cross = np.empty((expansion.n_expansions, expansion.n_support))
    for rows, K_rows in kernel.blocks(support):
        cross[:, rows] = expansion.coef @ K_rows.T
    d2 = expansion.norm2()[:, None] - 2 * cross + kernel._diag(support)[None, :]
    return np.maximum(d2, 0.0)


def nearest_support_points(expansion, n=1):
    """Indices (m, n) of the support points whose images are nearest each
    expansion in feature space, nearest first."""
    d2 = support_distance2(expansion)
    n = min(n, d2.shape[1])
    idx = np.argpartition(d2, n - 1, axis=1)[:, :n] if n < d2.shape[1] else \
        np.tile(np.arange(d2.shape[1]), (d2.shape[0], 1))
    order = np.take_along_axis(d2, idx, axis=1).argsort(axis=1)
    return np.take_along_axis(idx, order, axis=1)


def check_starts(x0, expansion, name="x0"):
    """Validate points given per expansion (starts, anchors): one per
    expansion, or one shared by all."""
    x0 = np.asarray(x0)
    if x0.ndim == 1:
        x0 = np.broadcast_to(x0, (expansion.n_expansions, x0.shape[0]))
    x0 = check_array_2d(x0, name, n_features=expansion.n_features)
    if x0.shape[0] != expansion.n_expansions:
        raise ValueError(
            f"{name!r} must hold one point per expansion ({expansion.n_expansions}) "
            f"or a single point, got {x0.shape[0]}")
    return np.array(x0, dtype=np.result_type(x0, expansion.support))


def check_same_support(solver, expansion):
    """A fitted solver applies only to expansions over the support it was fitted on."""
    if not hasattr(solver, "support_"):
        raise ValueError(f"{type(solver).__name__} is not fitted; call fit(support, kernel)")
    expansion._require_kernel()
    if expansion.support is not solver.support_ and (
            expansion.support.shape != solver.support_.shape
            or not np.array_equal(expansion.support, solver.support_)):
        raise ValueError(
            f"the expansion's support differs from the one {type(solver).__name__} "
            "was fitted on; fit it on expansion.support")
