"""The held-out choice of ``KernelPCADenoiser(n_components="auto")`` (rule in its Notes).

Without clean targets the rule is a cross-validated rank: components that fit
the training samples' noise explain far less variance on held-out samples
than on those they were fitted on, components of the data's structure about
as much. What it gives on noisy digits and photo patches is printed by
``benchmarks/bench_noisy_only.py`` (table in the guide's *Training on noisy
data alone*).
"""

import dataclasses
from typing import TypeGuard
import warnings

import numpy as np
from sklearn import config_context

from preimage._utils.blocks import is_dask_array
from preimage._utils.validation import check_random_state
from preimage._utils.warnings import warn
from preimage._utils.xp import namespace, take_rows, to_numpy
from preimage.exceptions import ConfigurationWarning, NumericalWarning
from preimage.kernels import KERNELS
from preimage.kpca._estimator import KernelPCA
from preimage.kpca._result import leading_components
from preimage.solvers import make_solver

#: Share of the training samples held out to score the candidates.
HELD_OUT_FRACTION = 0.2
#: At most this many samples are held out.
MAX_HELD_OUT = 1000
#: The largest candidate count.
MAX_COMPONENTS = 256
#: Without clean targets: the least ratio of the held-out variance to the
#: fitted one along a block of components, and along all those kept.
GENERALISATION = (0.3, 0.5)
#: With clean targets: the chosen count's held-out denoising error is within
#: this share of the smallest.
ERROR_TOLERANCE = 0.01


def has_width(kernel: object) -> TypeGuard[str]:
    """Whether `kernel` is a name of a kernel with a width ``gamma``."""
    fields = dataclasses.fields(KERNELS[kernel]) if isinstance(kernel, str) else ()
    return "gamma" in {f.name for f in fields}


def make_kpca(est, gamma, n_components, n_landmarks=None):
    """An unfitted KernelPCA with the kernel of the denoiser `est`; every
    parameter KernelPCA uses is passed (its defaults are not ours)."""
    shared = ("kernel", "degree", "coef0", "kernel_params", "eigen_solver", "random_state")
    params = {k: getattr(est, k) for k in shared}
    params |= {"tol": 0, "max_iter": None, "iterated_power": "auto", "copy_X": True}
    params["landmarks"] = getattr(est, "landmarks", "uniform")
    return KernelPCA(n_components, gamma=gamma, n_landmarks=n_landmarks, **params)


def candidate_counts(q_max):
    """1, 2, 3, 4, 6, 8, 12, 16, ... (each about √2 times the last) below
    q_max, then q_max."""
    counts = [1, 2, 3]
    while counts[-1] < q_max:
        counts.append(2 * counts[-2])
    return [q for q in counts if q < q_max] + [q_max]


def select_n_components(est, gamma, X, targets):
    """``(n_components, record)``: the count of the denoiser `est` (width
    `gamma`) chosen on a held-out split, and what was measured."""
    n = X.shape[0]
    if n < 3:
        rule = "fewer than 3 samples, none held out: one component"
        return 1, dict(
            rule=rule, candidates=[1], scores=[], n_train=int(n), n_held_out=0, n_components=1
        )
    n_held = min(MAX_HELD_OUT, max(1, round(HELD_OUT_FRACTION * n)))
    order = check_random_state(est.random_state).permutation(n)
    held, train = np.sort(order[:n_held]), np.sort(order[n_held:])
    clean = X if targets is None else targets
    m = None if est.n_landmarks is None else min(est.n_landmarks, train.size)
    q_max = min(MAX_COMPONENTS, train.size - 1, train.size if m is None else m)
    with warnings.catch_warnings():
        # Components beyond the rank of the training part are zero, which the
        # fit would warn of: here they are simply no candidates.
        warnings.simplefilter("ignore", NumericalWarning)
        kpca = make_kpca(est, gamma, q_max, m).fit(take_rows(clean, train))
    X_held = _in_memory(take_rows(X, held))
    candidates = candidate_counts(max(1, int(np.count_nonzero(to_numpy(kpca.eigenvalues_) > 0))))
    record = {"candidates": candidates, "n_train": int(train.size), "n_held_out": int(held.size)}
    if targets is None:
        X_train = _in_memory(take_rows(X, train))
        scores, overall = _generalisation(kpca, X_held, X_train, candidates)
        good = (scores >= GENERALISATION[0]) & (overall >= GENERALISATION[1])
        n_good = int(np.argmin(good)) if not good.all() else good.size
        chosen = candidates[n_good - 1] if n_good else None
        record.update(rule="held-out generalisation", thresholds=list(GENERALISATION))
        record.update(returns_input=chosen is None, overall=[float(g) for g in overall])
        if chosen is None:  # not even the first component generalises
            chosen = 1
            warn(
                "n_components='auto': not even the first component generalises (the "
                "held-out training samples' variance along it is "
                f"{overall[0]:.3g} times that of those it was fitted on, at least "
                f"{GENERALISATION[1]} wanted): "
                "it describes what is particular to those samples (their noise, or too "
                "few of them), so the denoiser returns its inputs unchanged; fit on more "
                "samples, or on (noisy, clean) pairs, fit(X_noisy, y=X_clean)",
                ConfigurationWarning,
            )
    else:
        scores = _denoising_error(
            est, kpca, X, clean, train, held, candidates, est.method_params, m, est.bounds_
        )
        noise = mean_squared_error(X_held, _in_memory(take_rows(clean, held)))
        best = float(np.min(scores))
        good = [q for q, s in zip(candidates, scores) if s <= best * (1 + ERROR_TOLERANCE)]
        chosen = next((q for q, s in zip(candidates, scores) if q in good and s < noise), None)
        record.update(rule="held-out denoising error", tolerance=ERROR_TOLERANCE)
        record.update(input_error=noise, returns_input=chosen is None)
        if chosen is None:  # no count beats the input: return it unchanged
            chosen = candidates[int(np.argmin(scores))]
            warn(
                "n_components='auto': no count of components denoised the held-out "
                f"training samples (best: {best:.4g} with {chosen} components, against "
                f"{noise:.4g} for the noisy inputs themselves), so the denoiser returns "
                "its inputs unchanged; try another width 'gamma' (wider or narrower), "
                "another kernel, or more training pairs",
                ConfigurationWarning,
            )
    record.update(scores=[float(s) for s in scores], n_components=int(chosen))
    return int(chosen), record


def mean_squared_error(Z, T):
    """``mean_i ‖z_i − t_i‖²`` (summed over features), in the namespace of Z."""
    xp = namespace(Z) or np
    return float(xp.mean(xp.sum((Z - T) ** 2, axis=1)))


def kpca_coordinates(kpca, X):
    """``kpca.transform(X)`` as an array, whatever ``transform_output`` asks."""
    with config_context(transform_output="default"):
        return kpca.transform(X)


def _in_memory(X):
    return X.compute() if is_dask_array(X) else X


def _generalisation(kpca, X_held, X_train, candidates):
    """G(q) and G(1..q) for each candidate: the variance of the held-out samples
    along the components after the previous candidate up to q, and along the
    first q, over that of the samples they were fitted on (0 where that is 0)."""
    q = np.asarray(candidates) - 1
    powers = [kpca_coordinates(kpca, X) ** 2 for X in (X_held, X_train)]
    xp = namespace(*powers) or np
    held, fitted = (np.cumsum(to_numpy(xp.mean(P, axis=0)))[q] for P in powers)
    blocks = np.diff(held, prepend=0), np.diff(fitted, prepend=0)
    return tuple(
        np.divide(h, f, out=np.zeros_like(h), where=f > 0) for h, f in (blocks, (held, fitted))
    )


def _denoising_error(
    est, kpca, X, clean, train, held, candidates, params, m=None, bounds=None, preimages=None
):
    """The held-out denoising error of `est`'s method with the first q
    components, per candidate q (the solver over `m` landmarks, in the box
    `bounds`); the held-out pre-images of each q are appended to the list
    `preimages`."""
    X_held, clean_held = (_in_memory(take_rows(A, held)) for A in (X, clean))
    Y_held = kpca_coordinates(kpca, X_held)
    Y_train = None
    scores = []
    # The held-out pre-images are scored by their error; that some did not
    # converge is part of the score, not news for the user.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumericalWarning)
        for q in candidates:
            options = {"random_state": est.random_state, "n_landmarks": m, "bounds": bounds}
            solver = make_solver(est.method, params, **options)
            pairs = {}
            if solver.learns_from_pairs:
                if Y_train is None:
                    Y_train = kpca_coordinates(kpca, take_rows(X, train))
                pairs = {"coordinates": Y_train[:, :q], "targets": take_rows(clean, train)}
            solver.fit(
                kpca.X_fit_, kpca.kernel_, kpca=leading_components(kpca.fit_result_, q), **pairs
            )
            Z = solver.solve_coordinates(Y_held[:, :q], add_mean=est.add_mean, x0=X_held)
            if preimages is not None:
                preimages.append(Z)
            with np.errstate(over="ignore", invalid="ignore"):  # an overflow scores inf
                error = mean_squared_error(Z, clean_held)
            scores.append(error if np.isfinite(error) else np.inf)
    return np.asarray(scores)
