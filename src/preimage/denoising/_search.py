"""The search of :class:`~preimage.KernelPCADenoiserCV`: one kernel PCA per
width and fold, each count scored from its leading eigenpairs; widths γ₀ times
1, 2, 4, a factor 2 beyond an edge while the best is there (at most
:data:`MAX_EXTENSIONS`), then the geometric mean of the best and its better
neighbour; at each width, the counts likewise halved or doubled beyond an edge
that wins. On 2,000 MNIST digits (γ₀ = 0.0095), in the data's range, it chose
0.0095 for Gaussian noise σ = 0.5, 0.0135 for speckle p = 0.4 (without bounds:
0.019 and 0.027; ``benchmarks/bench_denoiser_cv.py``).
"""

import math
import warnings

import numpy as np

from preimage._utils.xp import take_rows, to_numpy
from preimage.denoising._components import _denoising_error, make_kpca
from preimage.denoising._correction import fit_correction
from preimage.exceptions import NumericalWarning
from preimage.solvers._xp import make_box

#: The first widths tried, as factors of the papers' width γ₀.
COARSE_FACTORS = (1.0, 2.0, 4.0)
#: At most this many factors of 2 are added beyond an edge of the widths tried.
MAX_EXTENSIONS = 3


def fold_errors(est, X, T, folds, gamma, n_components, options, corrections=(None,)):
    """Held-out errors ``mean ‖x̂ − t‖²`` of shape (folds, counts, options,
    corrections) at one width (inf where not finite) of the search `est`, for
    the options (method parameters, bounds: ``"data"`` is the range of a
    fold's training targets), and the fitted corrections, of shape (counts,
    options, corrections) (None where none). A count above a fold's rank is
    scored with the components it has, as a denoiser keeps. A ridge
    correction is fitted and scored on the held-out pre-images of the folds
    (:func:`fit_correction`)."""
    shape = (len(n_components), len(options), len(corrections))
    errors, fitted = np.empty((len(folds), *shape)), np.full(shape, None, object)
    preimages = [[[] for _ in options] for _ in folds] if "ridge" in corrections else None
    q_max = max(n_components)
    for f, (train, test) in enumerate(folds):
        with warnings.catch_warnings():
            # Components beyond the rank of a fold are zero, which the fit
            # would warn of.
            warnings.simplefilter("ignore", NumericalWarning)
            kpca = make_kpca(est, gamma, min(q_max, train.size)).fit(take_rows(T, train))
        available = max(1, int(np.count_nonzero(to_numpy(kpca.eigenvalues_) > 0)))
        counts = [min(q, available) for q in n_components]
        for p, (params, bounds) in enumerate(options):
            box = make_box(bounds, take_rows(T, train), est.method)
            kept = preimages and preimages[f][p]
            errors[f, :, p] = _denoising_error(
                est, kpca, X, T, train, test, counts, params, bounds=box, preimages=kept
            )[:, None]
    for c in (c for c, name in enumerate(corrections) if name == "ridge"):
        for q, p in np.ndindex(shape[:2]):
            parts = [(preimages[f][p][q], X[test], T[test]) for f, (_, test) in enumerate(folds)]
            if all(np.isfinite(Z).all() for Z, _, _ in parts):
                fitted[q, p, c] = fit_correction(parts, est._image_shape())
            errors[:, q, p, c] = np.inf if fitted[q, p, c] is None else fitted[q, p, c].errors
    return errors, fitted


def search_counts(errors_at, counts, n_max=None):
    """``(counts, errors, fitted)``: what ``errors_at(counts)`` gives (errors of
    shape (folds, counts, ...) and fitted corrections of shape (counts, ...));
    with `n_max`, while the best count is the smallest (largest) one, half
    (twice, at most `n_max`) of it is added."""
    errors, fitted = errors_at(counts)
    for _ in range(MAX_EXTENSIONS if n_max else 0):
        best = counts[int(np.argmin(errors.mean(axis=0).reshape(len(counts), -1).min(axis=1)))]
        new = counts[0] // 2 if best == counts[0] else min(2 * best, n_max)
        if best not in (counts[0], counts[-1]) or new in counts or new < 1:
            break
        more, more_fitted = errors_at([new])
        low = new < counts[0]
        counts = [new, *counts] if low else [*counts, new]
        errors = np.concatenate((more, errors) if low else (errors, more), axis=1)
        fitted = np.concatenate((more_fitted, fitted) if low else (fitted, more_fitted))
    return counts, errors, fitted


def refine_count(errors_at, counts, errors, fitted):
    """`search_counts`' result with the count between the best and its better
    neighbour (their geometric mean) scored too, as for the widths."""
    mean = errors.mean(axis=0).reshape(len(counts), -1).min(axis=1)
    i = int(np.argmin(mean))
    j = min((k for k in (i - 1, i + 1) if 0 <= k < len(counts)), key=lambda k: mean[k], default=i)
    new = round(math.sqrt(counts[i] * counts[j]))
    if new in counts:
        return counts, errors, fitted
    more, more_fitted = errors_at([new])
    at = int(np.searchsorted(counts, new))
    errors = np.concatenate((errors[:, :at], more, errors[:, at:]), axis=1)
    fitted = np.concatenate((fitted[:at], more_fitted, fitted[at:]))
    return [*counts[:at], new, *counts[at:]], errors, fitted


def search_widths(score, gamma0, gammas=None):
    """The widths scored by ``score(gamma)``, in order: `gammas` if given,
    else coarse to fine around `gamma0` (module docstring)."""
    scores = {}

    def at(g):
        if g not in scores:
            scores[g] = score(g)

    if gammas is not None:
        for g in gammas:
            at(float(g))
        return list(scores)
    for factor in COARSE_FACTORS:
        at(gamma0 * factor)
    for _ in range(MAX_EXTENSIONS):
        widths = sorted(scores)
        best = min(widths, key=lambda g: (scores[g], g))
        if best not in (widths[0], widths[-1]):
            break
        at(best / 2 if best == widths[0] else best * 2)
    # The smallest error lies between the best width and its better
    # neighbour (where the errors are unimodal in log γ): score their
    # geometric mean.
    widths = sorted(scores)
    i = min(range(len(widths)), key=lambda j: (scores[widths[j]], widths[j]))
    neighbours = [widths[j] for j in (i - 1, i + 1) if 0 <= j < len(widths)]
    other = min(neighbours, key=lambda g: (scores[g], g))
    at(math.sqrt(widths[i] * other))
    return list(scores)
