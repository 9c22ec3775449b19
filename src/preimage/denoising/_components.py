"""The number of kernel PCA components of a denoiser, chosen from its data.

``KernelPCADenoiser(n_components="auto")`` holds part of its training data
out, fits kernel PCA once on the rest with the largest candidate count q_max
(kernel PCA with q components contains every smaller one), and scores each
candidate q on the held-out part:

* with clean targets (``fit(X_noisy, y=X_clean)``), by what matters: the
  denoising error ``mean_i ‖x̂_i − t_i‖²`` of the held-out noisy inputs,
  each brought back by the pre-image method from its first q coordinates,
  against their clean targets t_i. q is the smallest candidate whose error
  is within 1 % of the smallest (closer errors are below what a small
  held-out part can tell apart).
* without them, no denoising error can be measured, and the error of the
  held-out points' own reconstruction falls, by and large, as q grows, noise
  included: each component added keeps more of every point, its noise too
  (and with a few held-out points it moves more with the pre-images' own
  variation than with q). What the
  held-out part can say is how much of its feature-space variance
  ``‖φ(x) − μ‖²`` the first q components, learned on the other points,
  explain: the fraction

      E(q) = Σ_{k ≤ q} mean_i β_ik²  /  mean_i ‖φ(x_i) − μ‖²

  over the held-out x_i (β_ik their centred coordinates). It rises fast
  while the components carry structure shared by unseen data and slowly once
  they fit what is particular to the training points (their noise); q is the
  smallest candidate with E(q) ≥ 0.8 · E(q_max), 80 % of what the largest
  candidate explains.

The candidates are 1, 2, 3, 4, 6, 8, 12, ... (about √2 apart) up to q_max,
the smaller of 256 and what the training part has (its size minus one, or
its landmarks, and the rank of its centred Gram matrix). One fifth of the samples (at most 1,000) are held out,
drawn with the denoiser's `random_state`.

The rule is measured, not derived (bundled MNIST, Gaussian noise σ = 0.4
clipped to [0, 1], MSE summed over pixels): a denoiser fitted on 50 noisy
digits and applied to them keeps 6 components and reaches MSE 52 against the
noise's 63, where all 49 components give 92; on 500 noisy digits it keeps
128, MSE 48 (all components: 83; new noisy digits: 40 against 62); fitted on
500 clean digits it keeps 48 (new digits with noise σ = 0.5: MSE 26 against
196). The 80 % is a rule of thumb, and it fails where the noise carries more
than a fifth of the held-out variance in a few feature-space directions:
three point sources in the plane with noise σ = 0.1 (Gaussian width 10)
keep 6 components, which leave a squared error of 0.012 (the noise's: 0.018)
where the 2 the sources span leave 0.0002. The count that denoises best
depends on the noise, which the training data alone cannot show: with clean
targets the rule measures it (on the point sources it keeps 2), and a grid
search over `n_components` (``GridSearchCV(denoiser).fit(X_noisy,
X_clean)``) tunes it together with the width.
"""

import warnings

import numpy as np
from sklearn import config_context

from preimage._utils.blocks import is_dask_array
from preimage._utils.validation import check_random_state
from preimage.exceptions import NumericalWarning
from preimage.kpca._result import leading_components
from preimage.solvers import make_solver

__all__ = [
    "ERROR_TOLERANCE",
    "EXPLAINED_FRACTION",
    "HELD_OUT_FRACTION",
    "MAX_COMPONENTS",
    "MAX_HELD_OUT",
    "candidate_counts",
    "kpca_coordinates",
    "select_n_components",
]

#: Share of the training samples held out to score the candidates.
HELD_OUT_FRACTION = 0.2
#: At most this many samples are held out.
MAX_HELD_OUT = 1000
#: The largest candidate count.
MAX_COMPONENTS = 256
#: Without clean targets: the share of the held-out variance explained by the
#: largest candidate that the chosen count must explain.
EXPLAINED_FRACTION = 0.8
#: With clean targets: the chosen count's held-out denoising error is within
#: this share of the smallest.
ERROR_TOLERANCE = 0.01


def candidate_counts(q_max):
    """1, 2, 3, 4, 6, 8, 12, 16, ... (each about √2 times the last) below
    q_max, then q_max."""
    counts = [1, 2, 3]
    while counts[-1] < q_max:
        counts.append(2 * counts[-2])
    return [q for q in counts if q < q_max] + [q_max]


def select_n_components(
    make_kpca, X, targets, *, method, method_params, add_mean, random_state, n_landmarks
):
    """Choose the number of components from a held-out split (module docstring).

    Parameters
    ----------
    make_kpca : callable
        ``make_kpca(n_components, n_landmarks)``: an unfitted KernelPCA with
        the denoiser's kernel (its width already resolved on all the data).
    X : array of shape (n, d)
        The training inputs.
    targets : array of shape (n, d) or None
        Their clean versions, or None.
    method, method_params, add_mean, random_state, n_landmarks
        The denoiser's.

    Returns
    -------
    n_components : int
    record : dict
        ``rule``, ``candidates``, ``scores`` (one per candidate), ``threshold``
        (without targets) or ``tolerance`` (with them), ``n_train``,
        ``n_held_out`` and the chosen ``n_components``: what was measured, for
        the denoiser's ``component_selection_``.
    """
    n = X.shape[0]
    if n < 3:
        return 1, {
            "rule": "fewer than 3 samples, none held out: one component",
            "candidates": [1],
            "scores": [],
            "n_train": int(n),
            "n_held_out": 0,
            "n_components": 1,
        }
    n_held = min(MAX_HELD_OUT, max(1, round(HELD_OUT_FRACTION * n)))
    order = check_random_state(random_state).permutation(n)
    held, train = np.sort(order[:n_held]), np.sort(order[n_held:])
    clean = X if targets is None else targets
    m = None if n_landmarks is None else min(n_landmarks, train.size)
    q_max = min(MAX_COMPONENTS, train.size - 1, train.size if m is None else m)
    with warnings.catch_warnings():
        # Components beyond the rank of the training part are zero, which the
        # fit would warn of: here they are simply no candidates.
        warnings.simplefilter("ignore", NumericalWarning)
        kpca = make_kpca(q_max, m).fit(clean[train])
    X_held = _in_memory(X[held])
    candidates = candidate_counts(max(1, int(np.count_nonzero(kpca.eigenvalues_ > 0))))
    record = {"candidates": candidates, "n_train": int(train.size), "n_held_out": int(held.size)}
    if targets is None:
        scores = _explained_variance(kpca, X_held, candidates)
        threshold = EXPLAINED_FRACTION * scores[-1]
        chosen = next(q for q, s in zip(candidates, scores) if s >= threshold)
        record.update(rule="held-out explained variance", threshold=EXPLAINED_FRACTION)
    else:
        scores = _denoising_error(
            kpca,
            X[train],
            X_held,
            clean[train],
            _in_memory(clean[held]),
            candidates,
            method=method,
            method_params=method_params,
            add_mean=add_mean,
            random_state=random_state,
            n_landmarks=m,
        )
        best = float(np.min(scores))
        chosen = next(
            q for q, s in zip(candidates, scores) if s <= best + ERROR_TOLERANCE * abs(best)
        )
        record.update(rule="held-out denoising error", tolerance=ERROR_TOLERANCE)
    record.update(scores=[float(s) for s in scores], n_components=int(chosen))
    return int(chosen), record


def kpca_coordinates(kpca, X):
    """``kpca.transform(X)`` as an array, whatever container `set_output` or
    scikit-learn's ``transform_output`` asks of transformers: the coordinates
    a denoiser takes inside are its own business."""
    with config_context(transform_output="default"):
        return kpca.transform(X)


def _in_memory(X):
    return X.compute() if is_dask_array(X) else X


def _explained_variance(kpca, X_held, candidates):
    """E(q) for each candidate: the held-out variance the first q explain."""
    fit, kernel = kpca.fit_result_, kpca.kernel_
    Y = kpca_coordinates(kpca, X_held)
    # ‖φ(x) − μ‖² = k(x, x) − 2 Σ_j m_j k(x, s_j) + ‖μ‖², μ = Σ_j m_j φ(s_j)
    cross = np.empty(X_held.shape[0])
    for rows, K_rows in kernel.blocks(X_held, kpca.X_fit_, check_input=False, names="'X'"):
        cross[rows] = K_rows @ fit.mean_coef
    total = np.mean(kernel.diag(X_held, check_input=False) - 2 * cross + fit.K_mean)
    captured = np.cumsum(np.mean(Y**2, axis=0))
    if not total > 0:
        return np.zeros(len(candidates))
    return captured[np.asarray(candidates) - 1] / total


def _denoising_error(
    kpca,
    X_train,
    X_held,
    clean_train,
    clean_held,
    candidates,
    *,
    method,
    method_params,
    add_mean,
    random_state,
    n_landmarks,
):
    """The held-out denoising error with the first q components, per candidate."""
    Y_held = kpca_coordinates(kpca, X_held)
    Y_train = None
    scores = []
    # The held-out pre-images are scored by their error; that some did not
    # converge is part of the score, not news for the user.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumericalWarning)
        for q in candidates:
            solver = make_solver(
                method, method_params, random_state=random_state, n_landmarks=n_landmarks
            )
            pairs = {}
            if solver.learns_from_pairs:
                if Y_train is None:
                    Y_train = kpca_coordinates(kpca, X_train)
                pairs = {"coordinates": Y_train[:, :q], "targets": clean_train}
            solver.fit(
                kpca.X_fit_, kpca.kernel_, kpca=leading_components(kpca.fit_result_, q), **pairs
            )
            Z = solver.solve_coordinates(Y_held[:, :q], add_mean=add_mean, x0=X_held)
            error = float(np.mean(np.sum((Z - clean_held) ** 2, axis=1)))
            scores.append(error if np.isfinite(error) else np.inf)
    return np.asarray(scores)
