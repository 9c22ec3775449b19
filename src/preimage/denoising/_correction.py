r"""A learned correction of denoised pre-images: ridge regression from the
pre-image z and the noisy input x to the clean target t.

Bakır et al. (2004) learn the pre-image map by regression on training pairs;
here a linear map learned the same way corrects the pre-image, with the noisy
input as a second feature:

.. math::

    \hat x = z + W_z z + W_x x + b, \qquad
    (W, b) = \arg\min \sum_i \|t_i - z_i - W_z z_i - W_x x_i - b\|^2
    + \alpha \|W\|_F^2,

a ridge regression of the pre-image's error :math:`t - z`: a strong ridge
leaves the pre-image as it is (plus a constant), not zero (the intercept b
is not penalised). Without an image shape W is a :math:`d \times 2d` map. For images of shape (h, w) one small filter is
shared by every pixel p, a learned correlation with :math:`2k^2 + 1`
parameters (zeros outside the image):

.. math::

    \hat x_p = z_p + \sum_{o \in k \times k} (w_z[o]\, z_{p+o} + w_x[o]\, x_{p+o}) + b.

The triples (z, x, t) are *out of fold*: z is the pre-image of x by a
denoiser fitted on the other folds, so the correction learns the errors the
denoiser makes on inputs it never saw. α (a factor of the mean variance of
the features, :data:`ALPHAS`) and k (:data:`SIZES`) are chosen by
cross-validation on the same folds, from each fold's sufficient statistics
:math:`A_f^\top A_f`, :math:`A_f^\top T_f` and :math:`\|T_f\|^2`
(:math:`A = [\text{features}, 1]`): a ridge fitted on the other folds is
scored on fold f without forming its rows again.

Measured on the reference split (``benchmarks/bench_denoiser_correction.py``:
2,000 training pairs, 500 test digits, ``KernelPCADenoiserCV(correction=[None,
"ridge"], image_shape=(28, 28))``): the search chose the ridge with a 7 × 7
filter for both noises, test MSE 12.57 → 12.14 (Gaussian σ = 0.5) and
16.86 → 15.61 (speckle p = 0.4), in 210 s and 253 s on a loaded machine
(one BLAS thread).
"""

from dataclasses import dataclass
import reprlib

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view
from scipy import linalg
from sklearn.base import clone
from sklearn.model_selection import KFold
from sklearn.utils import gen_batches

#: Candidate ridge strengths, as factors of the mean variance of the features
#: times the number of rows (the trace of the centred Gram over its size).
ALPHAS = 10.0 ** np.arange(-6, 3)
#: Candidate neighbourhood sizes k (k × k pixels) on images.
SIZES = (1, 3, 5, 7)
#: Folds of the out-of-fold pre-images of ``KernelPCADenoiser(correction="ridge")``.
N_FOLDS = 3
#: Samples per block when forming the rows of image features.
BLOCK = 64


@dataclass
class RidgeCorrection:
    """A fitted correction: ``x̂ = z + features(z, x) @ coef + intercept``.

    ``coef`` has shape (2, d, d) (``x̂ = z + z @ coef[0] + x @ coef[1] + b``) or,
    on images, (2, k, k) (the filters on z and on x); ``intercept`` has shape
    (d,) or (1,). ``alpha`` is the ridge strength, ``errors`` the held-out
    error :math:`\\operatorname{mean}_i \\|\\hat x_i - t_i\\|^2` of each fold.
    """

    coef: np.ndarray
    intercept: np.ndarray
    alpha: float
    errors: np.ndarray


def check_correction(corrections, image_shape, n_features, has_targets):
    """Refuse an `image_shape` that is not (h, w) with h·w = `n_features`,
    and a correction among `corrections` without clean targets."""
    shape = np.asarray(image_shape if image_shape is not None else [1, n_features])
    if not (shape.shape == (2,) and shape.dtype.kind in "iu" and shape.min() > 0):
        shape = None
    if shape is None or shape.prod() != n_features:
        raise ValueError(
            "'image_shape' must be two positive integers whose product is the number of "
            f"features ({n_features}), got {reprlib.repr(image_shape)}"
        )
    if set(corrections) - {None} and not has_targets:
        raise ValueError(
            f"correction={next(c for c in corrections if c)!r} needs clean targets: "
            "fit(X_noisy, y=X_clean)"
        )


def correction_features(Z, X, image_shape=None, size=1):
    """The rows ``[features, 1]`` of the regression: ``[z, x, 1]`` per sample,
    or, on images, the k × k neighbourhoods of z and x around each pixel (one
    row per pixel, samples first), then 1.

    >>> Z, X = np.arange(4.0).reshape(1, 4), np.ones((1, 4))
    >>> correction_features(Z, X, (2, 2), 1)[:, :2].ravel().tolist()
    [0.0, 1.0, 1.0, 1.0, 2.0, 1.0, 3.0, 1.0]
    """
    if image_shape is None:
        return np.hstack([Z, X, np.ones((Z.shape[0], 1))])
    r = size // 2
    blocks = []
    for V in (Z, X):
        padded = np.pad(V.reshape(-1, *image_shape), ((0, 0), (r, r), (r, r)))
        blocks.append(sliding_window_view(padded, (size, size), axis=(1, 2)).reshape(-1, size**2))
    return np.hstack([*blocks, np.ones((blocks[0].shape[0], 1))])


def apply_correction(Z, X, coef, intercept, image_shape=None):
    """The corrected pre-images ``Z + features(Z, X) @ coef + intercept``."""
    W = np.vstack([coef.reshape(-1, intercept.size), intercept])
    out = np.empty(Z.shape, dtype=np.result_type(Z, X, W))
    for rows in gen_batches(Z.shape[0], BLOCK):
        A = correction_features(Z[rows], X[rows], image_shape, coef.shape[-1])
        out[rows] = Z[rows] + (A @ W).reshape(-1, Z.shape[1])
    return out


def _statistics(Z, X, T, image_shape, size):
    """``(AᵀA, AᵀR, ‖R‖²)`` for the rows A of (Z, X) and their targets R."""
    G = C = 0.0
    for rows in gen_batches(Z.shape[0], BLOCK):
        A = correction_features(Z[rows], X[rows], image_shape, size)
        G, C = G + A.T @ A, C + A.T @ T[rows].reshape(A.shape[0], -1)
    return G, C, float(np.sum(T**2))


def ridge_solutions(G, C, alphas):
    """The ridge maps ``W`` (last row the intercept) of the statistics
    ``G = AᵀA``, ``C = AᵀT`` for each ``alpha · tr(G̃)/p``, with G̃ the
    centred Gram of the p features (the intercept is not penalised), and the
    strengths used. One eigendecomposition serves every alpha."""
    n, s, c = G[-1, -1], G[:-1, -1], C[-1]
    G_c, C_c = G[:-1, :-1] - np.outer(s, s) / n, C[:-1] - np.outer(s, c) / n
    lam, V = linalg.eigh(G_c)
    scale, VC = np.trace(G_c) / len(s), V.T @ C_c
    maps = [V @ (VC / (lam + a * scale)[:, None]) for a in alphas]
    return [np.vstack([W, (c - s @ W) / n]) for W in maps], [a * scale for a in alphas]


def fit_correction(parts, image_shape=None, alphas=ALPHAS, sizes=SIZES):
    """The :class:`RidgeCorrection` of the out-of-fold triples ``parts``
    (one ``(Z, X, T)`` per fold), its alpha and size chosen by the least
    held-out error over the folds (module docstring), refitted on all."""
    sizes = sizes if image_shape is not None else [1]
    K = max(sizes)
    stats = [_statistics(Z, X, T - Z, image_shape, K) for Z, X, T in parts]
    counts = np.array([Z.shape[0] for Z, _, _ in parts])
    total = [sum(s[j] for s in stats) for j in range(3)]
    best = (np.inf,)
    for k in sizes:
        if image_shape is None:
            idx = np.arange(total[0].shape[0])
        else:  # the central k × k of each K × K neighbourhood, and the constant
            window, inner = np.zeros((K, K), bool), slice(K // 2 - k // 2, K // 2 + k // 2 + 1)
            window[inner, inner] = 1
            idx = np.flatnonzero(np.r_[window.ravel(), window.ravel(), True])
        sub = np.ix_(idx, idx)
        errors = np.empty((len(parts), len(alphas)))
        for f, (G_f, C_f, tt_f) in enumerate(stats):
            maps, _ = ridge_solutions((total[0] - G_f)[sub], (total[1] - C_f)[idx], alphas)
            for a, W in enumerate(maps):
                # ‖R − AW‖² = ‖R‖² − 2⟨W, AᵀR⟩ + ⟨W, AᵀA W⟩
                residual = tt_f - 2 * np.sum(W * C_f[idx]) + np.sum(W * (G_f[sub] @ W))
                errors[f, a] = residual / counts[f]
        a = int(np.argmin(errors.mean(axis=0)))
        if errors[:, a].mean() < best[0]:
            best = (errors[:, a].mean(), k, a, idx, errors[:, a])
    _, k, a, idx, fold_errors = best
    maps, strengths = ridge_solutions(total[0][np.ix_(idx, idx)], total[1][idx], [alphas[a]])
    W = maps[0]
    shape = (2, k, k) if image_shape is not None else (2, -1, W.shape[1])
    return RidgeCorrection(W[:-1].reshape(shape), W[-1], float(strengths[0]), fold_errors)


def out_of_fold_preimages(est, X, T):
    """One ``(Z, X, T)`` per fold of :data:`N_FOLDS` shuffled folds: Z the
    pre-images of the fold's X by `est` (without correction) fitted on the
    other folds' pairs."""
    parts = []
    for train, test in shuffled_folds(N_FOLDS, est.random_state).split(X):
        den = clone(est).set_params(correction=None).fit(X[train], T[train])
        parts.append(tuple(np.asarray(V) for V in (den.transform(X[test]), X[test], T[test])))
    return parts


def shuffled_folds(n_splits, random_state):
    """``KFold(n_splits, shuffle=True)`` seeded by `random_state` (a Generator draws the seed)."""
    if isinstance(random_state, np.random.Generator):
        random_state = int(random_state.integers(2**32))
    return KFold(n_splits, shuffle=True, random_state=random_state)
