"""Cross-validated denoising errors of kernel PCA denoisers, and the search
over the kernel width that :class:`~preimage.KernelPCADenoiserCV` runs.

For a width γ and a fold (training part T, held-out part H of the pairs
(x_i noisy, t_i clean)), kernel PCA is fitted once on the clean targets of T
with the largest candidate count q_max, and every candidate q is scored from
that one eigendecomposition: kernel PCA with q components is the leading q of
the same eigenpairs (:func:`preimage.kpca.leading_components`). The score of
(γ, q, method options) is the denoising error

    E = mean_{i ∈ H} ‖x̂_i − t_i‖²,

x̂_i the pre-image of the projection of the noisy x_i on the first q
components, exactly what ``KernelPCADenoiser(n_components=q, gamma=γ,
method_params=...).fit(x_T, t_T).score(x_H, t_H)`` gives (with a minus
sign), without a kernel PCA fit per q.

The width is searched coarse to fine on a log scale: the papers' width
``γ₀ = 1/(2 · total variance)`` (Mika et al. 1999) times 1, 2 and 4; while the
best is at an edge, one more factor of 2 beyond it (at most
:data:`MAX_EXTENSIONS`); then, once, the geometric mean of the best width and
its better neighbour (a bisection step in log γ: where the error is unimodal
in log γ, its minimum lies between them). A width costs one
eigendecomposition per fold and one pre-image pass per count; four are
enough where the data's best width is within 4× of γ₀. On 2,000 bundled
MNIST digits γ₀ is 0.0095, and 3-fold cross-validation on (noisy copy →
clean digit) pairs chose 0.019 for Gaussian noise σ = 0.5 and 0.027 for
speckle p = 0.4 (``benchmarks/bench_denoiser_cv.py``).
"""

import math
import warnings

import numpy as np

from preimage.denoising._components import _denoising_error
from preimage.exceptions import NumericalWarning

__all__ = [
    "COARSE_FACTORS",
    "MAX_EXTENSIONS",
    "fold_errors",
    "search_widths",
]

#: The first widths tried, as factors of the papers' width γ₀.
COARSE_FACTORS = (1.0, 2.0, 4.0)
#: At most this many factors of 2 are added beyond an edge of the widths tried.
MAX_EXTENSIONS = 3


def fold_errors(
    make_kpca, X, T, folds, gamma, n_components, params_list, *, method, add_mean, random_state
):
    """Held-out denoising errors of every (q, method options) at one width.

    Parameters
    ----------
    make_kpca : callable
        ``make_kpca(gamma, n_components)``: an unfitted KernelPCA.
    X, T : arrays of shape (n, d)
        Noisy inputs and their clean targets.
    folds : list of (train, test) index arrays
    gamma : float or None
    n_components : sequence of int
        The candidate counts, increasing.
    params_list : list of dict or None
        The candidate options of the pre-image method.

    Returns
    -------
    errors : array of shape (n_folds, len(n_components), len(params_list))
        ``mean ‖x̂ − t‖²`` over each fold's held-out pairs; inf where the
        pre-images were not finite. A count above what a fold's training
        part has (its non-zero eigenvalues) is scored with all it has, as
        a denoiser fitted with that count keeps.
    """
    errors = np.empty((len(folds), len(n_components), len(params_list)))
    q_max = max(n_components)
    for f, (train, test) in enumerate(folds):
        with warnings.catch_warnings():
            # Components beyond the rank of a fold are zero, which the fit
            # would warn of: the counts above the rank are scored with the
            # components there are.
            warnings.simplefilter("ignore", NumericalWarning)
            kpca = make_kpca(gamma, min(q_max, train.size)).fit(T[train])
        available = max(1, int(np.count_nonzero(kpca.eigenvalues_ > 0)))
        counts = [min(q, available) for q in n_components]
        for p, params in enumerate(params_list):
            errors[f, :, p] = _denoising_error(
                kpca,
                X[train],
                X[test],
                T[train],
                T[test],
                counts,
                method=method,
                method_params=params,
                add_mean=add_mean,
                random_state=random_state,
                n_landmarks=None,
            )
    return errors


def search_widths(score, gamma0, gammas=None):
    """The widths to score and the scores, coarse to fine (module docstring).

    Parameters
    ----------
    score : callable
        ``score(gamma)``: the smallest mean held-out error at that width.
    gamma0 : float
        The papers' width of the data, the centre of the search.
    gammas : sequence of float, optional
        Widths given: each is scored once, nothing else.

    Returns
    -------
    list of float
        The widths scored, in the order they were.
    """
    scores = {}

    def at(g):
        if g not in scores:
            scores[g] = score(g)
        return scores[g]

    if gammas is not None:
        for g in gammas:
            at(float(g))
        return list(scores)
    for factor in COARSE_FACTORS:
        at(gamma0 * factor)
    for _ in range(MAX_EXTENSIONS):
        widths = sorted(scores)
        best = min(widths, key=lambda g: (scores[g], g))
        if best == widths[0]:
            at(widths[0] / 2)
        elif best == widths[-1]:
            at(widths[-1] * 2)
        else:
            break
    # The smallest error lies between the best width and its better
    # neighbour (where the errors are unimodal in log γ): score their
    # geometric mean.
    widths = sorted(scores)
    i = min(range(len(widths)), key=lambda j: (scores[widths[j]], widths[j]))
    neighbours = [widths[j] for j in (i - 1, i + 1) if 0 <= j < len(widths)]
    other = min(neighbours, key=lambda g: (scores[g], g))
    at(math.sqrt(widths[i] * other))
    return list(scores)
