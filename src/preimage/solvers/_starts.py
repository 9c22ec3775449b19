"""Starting points and argument checks shared by the pre-image methods."""

import numpy as np

from .._expansion import FeatureExpansion
from .._memory import check_dense
from .._validation import check_array_2d
from .._warnings import warn
from ..exceptions import NumericalWarning

__all__ = ["support_distance2", "nearest_support_points", "check_starts",
           "check_same_support", "training_gram", "replace_non_finite", "check_expansion"]


def check_expansion(expansion):
    """Refuse anything but a FeatureExpansion with support points and a kernel."""
    if not isinstance(expansion, FeatureExpansion):
        raise TypeError(f"'expansion' must be a preimage.FeatureExpansion, got "
                        f"{type(expansion).__name__}")
    expansion._require_kernel()
    return expansion


def training_gram(kernel, X, name, *, copies=1, hint=None):
    """The n × n Gram matrix of training points `X` for a fitted solver.

    Refused before allocation when `copies` n × n matrices would exceed the
    memory budget (:func:`preimage._memory.check_dense`), and after it when
    the kernel values overflow (a polynomial of large data).
    """
    n = X.shape[0]
    options = {} if hint is None else {"hint": hint}
    check_dense((n, n), X.dtype, f"the {n} x {n} Gram matrix of {name!r}", copies=copies,
                **options)
    K = kernel._block(X, X)
    if kernel.may_overflow and not np.isfinite(K).all():
        raise ValueError(
            f"the Gram matrix of {name!r} under {kernel!r} is not finite (the kernel "
            f"values overflow {K.dtype}); rescale {name!r} (e.g. with "
            "sklearn.preprocessing.StandardScaler) or choose milder kernel parameters")
    return K


def support_distance2(expansion):
    """``‖Ψ_j − φ(x_i)‖²`` from every expansion to every support point, (m, n).

    Computed over row blocks of the support Gram matrix, so memory stays
    bounded: ``‖Ψ_j‖² − 2 (ΓK)_ji + k(x_i, x_i)``.
    """
    support, kernel = expansion.support, expansion.kernel
    norm2 = expansion.norm2()
    cross = np.empty((expansion.n_expansions, expansion.n_support))
    with np.errstate(over="ignore", invalid="ignore"):  # refused just below
        for rows, K_rows in kernel.blocks(support):
            cross[:, rows] = expansion.coef @ K_rows.T
        d2 = norm2[:, None] - 2 * cross + kernel._diag(support)[None, :]
    if not np.isfinite(d2).all():
        raise ValueError(
            "the feature-space distances ‖Ψ_j − φ(x_i)‖² from the expansions to their "
            "support points overflow float64; rescale 'coef' (or the support)")
    return np.maximum(d2, 0.0)


def replace_non_finite(expansion, x, d2=None):
    """Pre-images `x` (m, d) with their residuals, where any that is not
    finite, or whose residual is not (the kernel overflows there), is
    replaced by the support point nearest in feature space, with a
    NumericalWarning. Returns ``x, d2``."""
    x = np.array(x, dtype=np.result_type(x, expansion.support))
    finite = np.isfinite(x).all(axis=1)
    if d2 is None:
        d2 = np.full(len(x), np.inf)
        if finite.all():
            d2 = expansion._distance2(x)
        elif finite.any():
            rows = np.flatnonzero(finite)
            d2[rows] = expansion[rows]._distance2(x[rows])
    bad = ~finite | ~np.isfinite(d2)
    if bad.any():
        rows = np.flatnonzero(bad)
        sub = expansion[rows]
        near = nearest_support_points(sub)[:, 0]
        x[rows] = expansion.support[near]
        d2 = np.array(d2, dtype=float)
        d2[rows] = support_distance2(sub)[np.arange(rows.size), near]
        warn(f"{rows.size} of {len(x)} pre-images were not finite or lay where the "
             "kernel overflows; they were replaced by the support point nearest in "
             "feature space", NumericalWarning)
    return x, np.maximum(d2, 0.0)


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
        raise ValueError(f"{type(solver).__name__} is not fitted; call fit(support, kernel) "
                         "first (a solver passed as 'method' is used as it is)")
    check_expansion(expansion)
    if expansion.support is not solver.support_ and (
            expansion.support.shape != solver.support_.shape
            or not np.array_equal(expansion.support, solver.support_)):
        raise ValueError(
            f"the expansion's support differs from the one {type(solver).__name__} "
            "was fitted on; fit it on expansion.support")
