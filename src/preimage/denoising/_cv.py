"""A kernel PCA denoiser that chooses its width, component count and method
options by cross-validation on training pairs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass
from numbers import Integral, Real
import reprlib
from typing import Any, Self

import numpy as np
from scipy.stats import rankdata
from sklearn import config_context
from sklearn.base import BaseEstimator, _fit_context
from sklearn.model_selection import check_cv
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from preimage._utils.eigen import EIGEN_SOLVERS
from preimage._utils.typing import (
    ArrayLike,
    BoundsLike,
    MatrixLike,
    RandomStateLike,
    TransformOutput,
)
from preimage._utils.validation import validate_estimator_input
from preimage._utils.warnings import warn
from preimage._utils.xp import device_of, namespace, same_namespace
from preimage.denoising._components import has_width
from preimage.denoising._correction import check_correction, shuffled_folds
from preimage.denoising._denoiser import KernelPCADenoiser, _clean_targets, _DenoiserMixin
from preimage.denoising._search import fold_errors, refine_count, search_counts, search_widths
from preimage.exceptions import ConfigurationWarning
from preimage.kernels import KERNELS, default_gamma
from preimage.kpca._constraints import KERNEL_CONSTRAINTS
from preimage.kpca._docs import fill_doc
from preimage.solvers import PREIMAGE_METHODS, PreimageResult
from preimage.solvers._xp import make_box

#: The component counts tried when none are given, as shares of the smallest
#: training part of the folds.
DEFAULT_COMPONENT_SHARES = (0.15, 0.3, 0.5, 0.75)

#: The boxes tried by default: on digits the data's range wins at every width
#: (``benchmarks/bench_denoiser_cv.py``); None doubles the search's cost.
BOUNDS = ("auto",)

#: The kernels given by name that have a width to tune.
_WIDTH_KERNELS = sorted(filter(has_width, KERNELS))


def _as_list(value, kinds, valid, message):
    """`value` as a non-empty 1-D array of a dtype kind in `kinds`, all entries
    `valid`, else a ValueError with `message`."""
    values = np.atleast_1d(value)
    well_formed = values.ndim == 1 and values.size and values.dtype.kind in kinds
    if not (well_formed and all(map(valid, values))):
        raise ValueError(message)
    return values


def _one_or_list(value, ok, message):
    """``[value]``, or a list `value` if non-empty and `ok`, else a ValueError with `message`."""
    if not isinstance(value, list):
        return [value]
    if not value or not ok:
        raise ValueError(message)
    return list(value)


@fill_doc
@dataclass(eq=False, repr=False)  # the constructor is the dataclass's
class KernelPCADenoiserCV(_DenoiserMixin, BaseEstimator):
    r"""Kernel PCA denoiser with its width and component count chosen by cross-validation.

    In the manner of scikit-learn's ``RidgeCV``: ``fit(X_noisy, y=X_clean)``
    scores candidate denoisers (width, count and pre-image options p) by
    their held-out denoising error

    .. math::

        E(\gamma, q, p) = \operatorname{mean}_i \|\hat x_i - t_i\|^2

    (:math:`\hat x_i` the denoised noisy input, :math:`t_i` its clean
    target, averaged over the held-out pairs of every fold), refits the best
    :class:`~preimage.KernelPCADenoiser` on all the pairs and denoises with
    it. The scores are those of ``GridSearchCV(KernelPCADenoiser(...))`` on
    the same candidates and folds, at a fraction of the cost: one kernel PCA
    per (width, fold), whose leading eigenpairs serve every smaller count;
    and the widths searched coarse to fine around the papers'
    :math:`\gamma_0 = 1 / (2 \sum_j \operatorname{Var}(t_j))` (Mika et al.
    1999): :math:`\gamma_0` times 1, 2, 4, extended by factors of 2 while the
    best is at an edge, then one bisection step in :math:`\log \gamma`.

    Parameters
    ----------
    gammas : float or array-like of float, default=None
        The kernel widths to try. None searches them coarse to fine, as above.
    n_components : int or array-like of int, default=None
        The component counts to try. None tries 15 %, 30 %, 50 % and 75 % of
        the smallest training part of the folds at each width, then halves
        (doubles) the smallest (largest) while it is the best; at the best
        width it also scores the geometric mean of the best count and its
        better neighbour.
    kernel : str, default="rbf"
        A kernel by name that has a width (``"rbf"``, ``"laplacian"``, ...).
    %(kernel_parameters)s
    %(method)s
    method_params : dict or list of dict, default=None
        Options of the pre-image method: one dict, or a list of candidate
        dicts, e.g. ``list(ParameterGrid({"gamma": [10, 100], "alpha":
        [1e-3, 1e-2]}))`` for the learned map.
    bounds : list or tuple, default=("auto",)
        The boxes to try, each as :class:`~preimage.KernelPCADenoiser` takes
        it: None, ``"auto"``, ``"data"`` (the range of a fold's clean
        training targets) or ``(low, high)``; e.g. ``[None, "data"]`` scores
        both.
    cv : int or cross-validation splitter, default=3
        The folds: an int k is ``KFold(k, shuffle=True,
        random_state=random_state)`` (shuffled, unlike GridSearchCV's int:
        training sets often come ordered by class); a splitter or an
        iterable of (train, test) indices is used as
        :class:`~sklearn.model_selection.GridSearchCV` uses it.
    %(eigen_solver)s
    random_state : int, RandomState instance, Generator or None, default=None
        As in :class:`~preimage.KernelPCADenoiser`, in every fold and in the
        refit; it also shuffles the folds of an int `cv`.
    %(correction)s
        Here `correction` may also be a list of candidates, e.g. ``[None,
        "ridge"]``: the ridge is fitted on the held-out pre-images of the
        search's own folds and scored on each fold by a ridge fitted on
        the others (those pre-images came from denoisers that saw the fold's
        pairs, a slight optimism); the refit keeps the ridge of the best
        candidate, fitted on all of them, with no more denoiser fits.
    %(image_shape)s

    Attributes
    ----------
    best_estimator_ : KernelPCADenoiser
        The best candidate refitted on all the pairs; ``transform``,
        ``denoise`` and ``score`` are its own.
    best_params_ : dict
        Its ``gamma``, ``n_components`` and ``bounds`` (and ``method_params``
        and ``correction`` when a list of candidates was given).
    best_score_ : float
        Its mean held-out score, minus the denoising error.
    best_index_ : int
        Its row in `cv_results_`.
    cv_results_ : dict of arrays
        One row per candidate scored, in the order the widths were searched,
        as in :class:`~sklearn.model_selection.GridSearchCV`: ``params``,
        ``param_gamma``, ``param_n_components``, ``param_bounds`` (and
        ``param_method_params``), ``split<k>_test_score``,
        ``mean_test_score``, ``std_test_score`` and ``rank_test_score``.
    gammas_ : ndarray
        The widths scored, in the order they were.
    n_components_ : int
        The chosen component count.
    n_splits_ : int
        The number of folds.
    n_features_in_ : int
        Number of features seen during ``fit``.
    feature_names_in_ : ndarray of shape (``n_features_in_``,)
        Names of features seen during ``fit``. Defined only when X has
        feature names that are all strings.

    See Also
    --------
    KernelPCADenoiser : The denoiser it tunes and refits.

    Notes
    -----
    Without clean targets no denoising error can be measured: the
    candidates are scored by how well held-out inputs reconstruct
    themselves, which favours keeping their noise, and ``fit`` warns with a
    :class:`~preimage.ConfigurationWarning`.

    Measured on bundled MNIST (2,000 training digits with a noisy copy each,
    500 test digits, ``benchmarks/bench_denoiser_cv.py``): with its defaults
    it chose :math:`\gamma = 0.0095`, 283 components and the data's range for
    Gaussian noise :math:`\sigma = 0.5` (test MSE 11.14; 12.57 without bounds,
    where a grid search over 3 widths and 3 counts gave 13.00) and
    :math:`\gamma = 0.0135`, 141 components for speckle p = 0.4 (16.16;
    16.86 without bounds, 16.99 for the grid). The box moves the best
    settings to wider kernels and fewer components.

    Fixed points start at the noisy input. ``save_model`` saves `best_estimator_`.

    References
    ----------
    Mika et al. (1999), Sec. 3, eq. 10; Sec. 4. Bakır et al. (2004), Sec.
    3.1, eq. 6.

    Examples
    --------
    Three point sources in the plane, training copies with noise
    :math:`\sigma = 0.1`. The widths tried are :math:`\gamma_0` times 1, 2
    and 4, then 8 (the best was at the edge), then
    :math:`\sqrt{4 \cdot 8} \approx 5.66`; the search keeps
    :math:`4 \gamma_0` and two components.

    >>> import numpy as np
    >>> from preimage import KernelPCADenoiserCV
    >>> from preimage.datasets import make_three_clusters
    >>> X, _ = make_three_clusters(30, noise=0.03, random_state=0)
    >>> rng = np.random.default_rng(0)
    >>> X_noisy = X + rng.normal(scale=0.1, size=X.shape)
    >>> den = KernelPCADenoiserCV(n_components=[1, 2, 4, 8], random_state=0)
    >>> den = den.fit(X_noisy, X)
    >>> np.round(den.gammas_ / den.gammas_[0], 2)
    array([1.  , 2.  , 4.  , 8.  , 5.66])
    >>> den.best_params_["n_components"], float(den.best_params_["gamma"] / den.gammas_[0])
    (2, 4.0)
    >>> T, _ = make_three_clusters(30, noise=0.03, random_state=1)
    >>> T_noisy = T + rng.normal(scale=0.1, size=T.shape)
    >>> def err(Z):
    ...     return np.mean(np.sum((Z - T) ** 2, axis=1))
    >>> print(f"{err(T_noisy):.4f} -> {err(den.transform(T_noisy)):.4f}")
    0.0220 -> 0.0015
    """

    _parameter_constraints = {
        "gammas": ["array-like", Interval(Real, 0, None, closed="neither"), None],
        "n_components": ["array-like", Interval(Integral, 1, None, closed="left"), None],
        **{k: v for k, v in KERNEL_CONSTRAINTS.items() if k != "gamma"},  # `gammas` instead
        "kernel": [StrOptions(set(_WIDTH_KERNELS))],
        "method": [StrOptions(set(PREIMAGE_METHODS))],
        "add_mean": ["boolean"],
        "method_params": [dict, list, None],
        "bounds": [list, tuple],
        "cv": ["cv_object", HasMethods(["split"])],
        "eigen_solver": [StrOptions(set(EIGEN_SOLVERS))],
        "random_state": ["random_state", np.random.Generator],
        "correction": [StrOptions({"ridge"}), list, None],
        "image_shape": ["array-like", None],
    }

    gammas: float | ArrayLike | None = None
    n_components: int | ArrayLike | None = None
    _: KW_ONLY
    kernel: str = "rbf"
    degree: int = 3
    coef0: float = 1
    kernel_params: dict[str, Any] | None = None
    method: str = "fixed_point"
    add_mean: bool = False
    method_params: dict[str, Any] | list[dict[str, Any]] | None = None
    bounds: Sequence[BoundsLike] = BOUNDS
    cv: Any = 3
    eigen_solver: str = "auto"
    random_state: RandomStateLike = None
    correction: str | list[str | None] | None = None
    image_shape: tuple[int, int] | None = None

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X: MatrixLike, y: MatrixLike | None = None) -> Self:
        """Score the candidates on the folds of (X, y), then refit the best on all of them.

        Parameters
        ----------
        X : array of shape (n_samples, n_features)
            Noisy training inputs.
        y : array of shape (n_samples, n_features)
            Their clean versions. Without them (None, or 1-D labels) the
            candidates are scored by reconstruction, with a warning (Notes).

        Returns
        -------
        KernelPCADenoiserCV
            The fitted search, ``self``.
        """
        X = validate_estimator_input(self, X, reset=True)
        targets = _clean_targets(X, y)
        corrections = self._corrections()
        check_correction(corrections, self.image_shape, X.shape[1], targets is not None)
        if targets is None:
            warn(
                "KernelPCADenoiserCV without clean targets scores each candidate by how "
                "well held-out inputs reconstruct themselves, which favours keeping "
                "their noise; to tune a denoiser, fit it on noisy inputs and their "
                "clean versions: fit(X_noisy, y=X_clean)",
                ConfigurationWarning,
            )
        T = X if targets is None else targets
        # An int is shuffled folds: data come in order (by class, by source), and a
        # fold holding one class out scores how a denoiser fitted on the others
        # denoises a class it never saw.
        integral = isinstance(self.cv, Integral)
        splitter = shuffled_folds(self.cv, self.random_state) if integral else check_cv(self.cv)
        n_splits = splitter.get_n_splits(X, T)
        if X.shape[0] < max(2, n_splits):
            raise ValueError(
                f"cv={self.cv!r} needs at least {max(2, n_splits)} samples, got "
                f"n_samples = {X.shape[0]}"
            )
        folds = list(splitter.split(X, T))
        n_min = min(train.size for train, _ in folds)
        counts = self._counts(n_min)
        if not self.bounds:
            raise ValueError(f"'bounds' must be a non-empty list, got {self.bounds!r}")
        for i, box in enumerate(self.bounds):
            make_box(box, T, self.method, f"bounds[{i}]")
        options = [(p, b) for p in self._params_list() for b in self.bounds]
        gammas = self._gammas()

        errors = {}  # gamma -> (counts, errors, fitted corrections)

        def errors_at(gamma):
            return lambda qs: fold_errors(self, X, T, folds, gamma, qs, options, corrections)

        def score(gamma):
            n_max = n_min if self.n_components is None else None
            errors[gamma] = search_counts(errors_at(gamma), counts, n_max)
            return float(np.min(errors[gamma][1].mean(axis=0)))

        self.gammas_ = np.asarray(search_widths(score, default_gamma(T, self.kernel), gammas))
        if namespace(T) is not None:  # fitted attributes in the namespace of the data
            self.gammas_ = namespace(T).asarray(self.gammas_, device=device_of(T))
        if self.n_components is None:  # a finer count at the best width
            best = min(errors, key=lambda g: np.min(errors[g][1].mean(axis=0)))
            errors[best] = refine_count(errors_at(best), *errors[best])
        self.n_splits_ = len(folds)
        self.cv_results_ = self._results(errors, options, corrections)
        self.best_index_ = int(np.argmax(self.cv_results_["mean_test_score"]))
        self.best_score_ = float(self.cv_results_["mean_test_score"][self.best_index_])
        best = self.best_params_ = dict(self.cv_results_["params"][self.best_index_])
        # The shared parameters, with the best gamma, n_components (and method_params).
        params = KernelPCADenoiser().get_params().keys() & self.get_params().keys()
        params = {name: getattr(self, name) for name in params} | best
        # The correction (if chosen) was fitted on the folds' pre-images.
        den = KernelPCADenoiser(**params | {"correction": None}).fit(X, targets)
        ridge = np.concatenate([f.ravel() for *_, f in errors.values()])[self.best_index_]
        self.best_estimator_ = den.set_params(correction=params["correction"])
        self.best_estimator_._set_correction(ridge)
        self.n_components_ = int(best["n_components"])
        return self

    def _counts(self, n_min):
        """The candidate counts, increasing; the default ones clipped to `n_min`."""
        if self.n_components is None:
            return sorted({max(1, round(s * n_min)) for s in DEFAULT_COMPONENT_SHARES})
        message = (
            "'n_components' must be a non-empty list of integers between 1 and "
            f"{n_min} (the smallest training part of the folds), got {self.n_components!r}"
        )
        counts = _as_list(self.n_components, "iu", lambda q: 1 <= q <= n_min, message)
        return sorted({int(q) for q in counts})

    def _gammas(self):
        if self.gammas is None:
            return None
        message = (
            f"'gammas' must be a non-empty list of positive finite numbers, got {self.gammas!r}"
        )
        return [float(g) for g in _as_list(self.gammas, "iuf", lambda g: 0 < g < np.inf, message)]

    def _corrections(self):
        message = "'correction' must be None, 'ridge' or a non-empty list of them, got "
        ok = set(self.correction or ()) <= {None, "ridge"}
        return _one_or_list(self.correction, ok, message + reprlib.repr(self.correction))

    def _params_list(self):
        message = "'method_params' must be a dict or a non-empty list of dicts, got "
        ok = all(isinstance(p, dict) for p in self.method_params or ())
        return _one_or_list(self.method_params, ok, f"{message}{self.method_params!r}")

    def _results(self, errors, options, corrections):
        """`cv_results_` in GridSearchCV's layout, one row per candidate."""
        with_params = isinstance(self.method_params, list)
        with_corrections = isinstance(self.correction, list)
        rows = [
            {"gamma": g, "n_components": q, "bounds": b}
            | ({"method_params": p} if with_params else {})
            | ({"correction": c} if with_corrections else {})
            for g, (counts, _, _) in errors.items()
            for q in counts
            for p, b in options
            for c in corrections
        ]
        # (n_candidates, n_splits), greater is better
        scores = -np.concatenate([e.reshape(e.shape[0], -1).T for _, e, _ in errors.values()])
        scores[~np.isfinite(scores)] = -np.inf
        mean = scores.mean(axis=1)
        results = {"params": rows}
        for name in rows[0]:  # the numbers as arrays, the other values as objects
            column = [r[name] for r in rows]
            if name in ("gamma", "n_components"):
                results[f"param_{name}"] = np.array(column)
            else:
                results[f"param_{name}"] = np.empty(len(rows), object)
                results[f"param_{name}"][:] = column
        for k in range(scores.shape[1]):
            results[f"split{k}_test_score"] = scores[:, k]
        results["mean_test_score"] = mean
        with np.errstate(invalid="ignore"):
            results["std_test_score"] = scores.std(axis=1)
        # GridSearchCV's ranks: 1 for the best, ties share the smallest rank.
        results["rank_test_score"] = rankdata(-mean, method="min").astype(np.int32)
        return results

    def transform(self, X: MatrixLike) -> TransformOutput:
        """Denoise X with `best_estimator_`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The noisy points (a Dask array is denoised block by block).

        Returns
        -------
        ndarray of shape (n_samples, n_features)
            The denoised points.
        """
        check_is_fitted(self)
        same_namespace(
            self.best_estimator_.kpca_.X_fit_, X, method=f"{type(self).__name__}.transform"
        )
        X = self._validated(X, reset=False)
        # The container `set_output` asks for is made by this transform's own
        # wrapper, with X's index: the refitted denoiser gives an array.
        with config_context(transform_output="default"):
            return self.best_estimator_.transform(X)

    def denoise(self, X: MatrixLike) -> PreimageResult:
        """Denoise X with `best_estimator_` and say how.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The noisy points.

        Returns
        -------
        PreimageResult
            As :meth:`preimage.KernelPCADenoiser.denoise` gives it.
        """
        check_is_fitted(self)
        return self.best_estimator_.denoise(validate_estimator_input(self, X, reset=False))

    def score(self, X: MatrixLike, y: MatrixLike | None = None) -> float:
        r"""Return minus the mean squared error of the denoised X against targets.

        As :meth:`preimage.KernelPCADenoiser.score` computes it.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The noisy points.
        y : array-like of shape (n_samples, n_features), optional
            Their clean versions; anything else (None, 1-D labels) scores
            against X itself.

        Returns
        -------
        float
            Minus the mean squared error.
        """
        check_is_fitted(self)
        X = validate_estimator_input(self, X, reset=False)
        with config_context(transform_output="default"):
            return self.best_estimator_.score(X, y)
