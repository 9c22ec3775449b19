"""Reduced-set support vector machines (Schölkopf et al. 1999, Sections V–VI).

A trained kernel SVM decides with ``g(x) + b``, ``g(x) = ⟨Ψ, φ(x)⟩`` and
``Ψ = Σ_i α_i φ(x_i)`` summed over its N support vectors. The reduced set
replaces Ψ by ``Ψ' = Σ_j β_j φ(z_j)`` with p ≪ N vectors, so that a decision
costs p kernel values instead of N. This module reads the expansions out of
scikit-learn's ``SVC``, ``SVR`` and ``OneVsRestClassifier`` of binary SVCs,
hands them to :func:`preimage.reduced_set.reduce_expansion`, recomputes the
threshold b on the training set as the paper does, and returns an object with
the original's prediction interface.
"""

import warnings
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.exceptions import NotFittedError
from sklearn.utils.validation import check_is_fitted

from .._expansion import FeatureExpansion
from .._validation import check_array_2d, check_positive, check_positive_int
from ..exceptions import NumericalWarning
from ..kernels import GaussianKernel, LinearKernel, PolynomialKernel, SigmoidKernel
from ..reduced_set import reduce_expansion

__all__ = [
    "SVMExpansion",
    "svm_expansion",
    "svm_kernel",
    "classification_threshold",
    "epsilon_insensitive_threshold",
    "ovo_to_ovr_decision",
    "reduce_svm",
    "ReducedSVC",
    "ReducedSVR",
]

_SVM_KERNELS = ("rbf", "poly", "sigmoid", "linear")


# ---------------------------------------------------------------------------
# kernels and expansions of trained machines
# ---------------------------------------------------------------------------

def kernel_from_sklearn(kernel, gamma, degree, coef0, name):
    """The preimage kernel object for scikit-learn's kernel spelling.

    ``'rbf'`` → ``exp(−γ‖x − y‖²)``, ``'poly'`` → ``(γ⟨x, y⟩ + c₀)^p``,
    ``'sigmoid'`` → ``tanh(γ⟨x, y⟩ + c₀)``, ``'linear'`` → ``⟨x, y⟩``: the
    formulas of :mod:`sklearn.metrics.pairwise`. Errors name `name`.
    """
    if callable(kernel) or not isinstance(kernel, str) or kernel not in _SVM_KERNELS:
        raise ValueError(
            f"{name!r} uses kernel={kernel!r}; a reduced set needs the kernel as a "
            f"function of input points, one of {list(_SVM_KERNELS)} (a precomputed "
            "or callable kernel cannot be evaluated at constructed vectors)")
    try:
        if kernel == "rbf":
            return GaussianKernel(gamma=float(gamma))
        if kernel == "poly":
            return PolynomialKernel(degree=int(degree), gamma=float(gamma),
                                    coef0=float(coef0))
        if kernel == "sigmoid":
            return SigmoidKernel(gamma=float(gamma), coef0=float(coef0))
        return LinearKernel()
    except ValueError as exc:
        raise ValueError(
            f"{name!r} has kernel parameters that preimage's {kernel!r} kernel does "
            f"not accept: {exc}") from None


def svm_kernel(model, name="model"):
    """The kernel of a fitted ``SVC``/``SVR`` as a preimage kernel object.

    Uses the width the model resolved at fit time (``model._gamma``, the value
    of ``gamma='scale'`` or ``'auto'``).
    """
    return kernel_from_sklearn(model.kernel, getattr(model, "_gamma", model.gamma),
                               model.degree, model.coef0, name)


def warn_if_indefinite(kernel, stacklevel=3):
    """Warn that a reduced set of a sigmoid-kernel expansion is ill-posed.

    ``tanh(γ⟨x, y⟩ + c₀)`` is not positive definite: its Gram matrices have
    negative eigenvalues, so ``ρ = ‖Ψ − Ψ'‖²`` is no squared distance (it can
    be negative, and is reported clamped at 0), and the reduced machine need
    not approximate the original even when no vector is removed.
    """
    if isinstance(kernel, SigmoidKernel):
        warnings.warn(
            "the sigmoid kernel is not positive definite, so the reduced-set error "
            "ρ = ‖Ψ − Ψ'‖² is not a squared distance and its minimisation need not "
            "approximate the machine; check the reduced model's accuracy",
            NumericalWarning, stacklevel=stacklevel)


def _dense(a):
    return a.toarray() if sp.issparse(a) else np.asarray(a)


@dataclass
class SVMExpansion:
    """A trained SVM as m feature-space expansions plus thresholds.

    Machine k decides with ``⟨Ψ_k, φ(x)⟩ + b_k`` (``expansion.coef[k]`` are
    its dual coefficients ``y_i α_i`` over the shared support).

    Attributes
    ----------
    expansion : FeatureExpansion
        The m machines' expansions over one shared support (n_SV, d).
    intercept : ndarray of shape (m,)
        The thresholds b_k.
    kind : {"binary", "ovo", "ovr", "regression"}
    classes : ndarray or None
        The class labels (None for regression).
    pairs : ndarray of shape (m, 2) or None
        For classifiers, the class indices ``(positive, negative)`` each
        machine separates: a positive value votes for the first; −1 stands for
        "all other classes" (one-vs-rest).
    epsilon : float or None
        The width of the ε-insensitive tube (regression).
    decision_function_shape, break_ties
        Copied from an ``SVC`` (``"ovr"``/False otherwise).
    """

    expansion: FeatureExpansion
    intercept: np.ndarray
    kind: str
    classes: np.ndarray = None
    pairs: np.ndarray = None
    epsilon: float = None
    decision_function_shape: str = "ovr"
    break_ties: bool = False

    def decision_values(self, X):
        """``⟨Ψ_k, φ(x)⟩ + b_k`` for every point and machine, shape (n, m)."""
        e = self.expansion
        X = check_array_2d(X, "X", n_features=e.n_features)
        K = e.kernel.block(X, e.support, check_input=False, overflow="ignore")
        return K @ e.coef.T + self.intercept


def _check_fitted(model, name):
    try:
        check_is_fitted(model)
    except NotFittedError:
        raise NotFittedError(
            f"{name!r} is not fitted ({type(model).__name__}); call fit(X, y) before "
            "reducing it") from None


def _svc_expansion(model, name):
    """One-vs-one expansions of an ``SVC``, in libsvm's order.

    libsvm stores the support vectors grouped by class (``n_support_`` per
    class) and, for the pair (i, j), i < j, the coefficients of class i's
    vectors in row j − 1 of ``dual_coef_`` and those of class j's vectors in
    row i. The pairs run (0, 1), (0, 2), …, (1, 2), … as ``intercept_`` does;
    a positive value votes for i. For two classes scikit-learn flips the sign
    of the public ``dual_coef_`` and ``intercept_`` so that a positive value
    means ``classes_[1]``.
    """
    kernel = svm_kernel(model, name)
    support = _dense(model.support_vectors_).astype(float)
    dual = _dense(model.dual_coef_).astype(float)
    classes = model.classes_
    n_classes = len(classes)
    if n_classes == 2:
        expansion = FeatureExpansion(dual.copy(), support, kernel)
        return SVMExpansion(expansion, np.asarray(model.intercept_, float).copy(), "binary",
                            classes, np.array([[1, 0]]),
                            decision_function_shape=model.decision_function_shape,
                            break_ties=model.break_ties)
    starts = np.concatenate([[0], np.cumsum(model.n_support_)])
    rows, pairs = [], []
    for i in range(n_classes):
        for j in range(i + 1, n_classes):
            si, sj = slice(starts[i], starts[i + 1]), slice(starts[j], starts[j + 1])
            row = np.zeros(support.shape[0])
            row[si] = dual[j - 1, si]
            row[sj] = dual[i, sj]
            rows.append(row)
            pairs.append((i, j))
    expansion = FeatureExpansion(np.array(rows), support, kernel)
    return SVMExpansion(expansion, np.asarray(model.intercept_, float).copy(), "ovo",
                        classes, np.array(pairs),
                        decision_function_shape=model.decision_function_shape,
                        break_ties=model.break_ties)


def _ovr_expansion(model, name):
    """One-vs-rest machines over the union of their support vectors."""
    from sklearn.svm import SVC

    y_type = getattr(model.label_binarizer_, "y_type_", None)
    if y_type not in ("binary", "multiclass"):
        raise ValueError(f"{name!r} is a OneVsRestClassifier fitted on {y_type} targets; "
                         "only binary and multiclass problems are supported")
    kernels, supports, duals, intercepts = [], [], [], []
    for k, est in enumerate(model.estimators_):
        if not isinstance(est, SVC) or len(getattr(est, "classes_", ())) != 2:
            raise ValueError(
                f"{name!r} must be a OneVsRestClassifier of binary SVCs, but its estimator "
                f"{k} is {type(est).__name__} (a class present in every or no training "
                "sample gives a constant predictor)")
        kernels.append(svm_kernel(est, name))
        supports.append(_dense(est.support_vectors_).astype(float))
        duals.append(_dense(est.dual_coef_).astype(float)[0])
        intercepts.append(float(est.intercept_[0]))
    if any(kern != kernels[0] for kern in kernels):
        raise ValueError(f"{name!r} has binary SVCs with different kernels {kernels}; one "
                         "reduced set needs one kernel")
    stacked = np.vstack(supports)
    # Support vectors shared by several machines (the same training point)
    # appear once; coefficients of identical points add up.
    support, inverse = np.unique(stacked, axis=0, return_inverse=True)
    inverse = inverse.ravel()
    coef = np.zeros((len(supports), support.shape[0]))
    start = 0
    for k, dual in enumerate(duals):
        np.add.at(coef[k], inverse[start:start + dual.size], dual)
        start += dual.size
    classes = model.classes_
    if len(classes) == 2:
        pairs = np.array([[1, 0]])
    else:
        pairs = np.column_stack([np.arange(len(classes)), np.full(len(classes), -1)])
    expansion = FeatureExpansion(coef, support, kernels[0])
    return SVMExpansion(expansion, np.array(intercepts), "ovr", classes, pairs)


def svm_expansion(model, name="model"):
    """A fitted scikit-learn SVM as feature-space expansions.

    Parameters
    ----------
    model : SVC, SVR or OneVsRestClassifier of binary SVCs, fitted
        Kernel ``'rbf'``, ``'poly'``, ``'sigmoid'`` or ``'linear'``.

    Returns
    -------
    SVMExpansion
        One expansion per machine (binary SVC, SVR: 1; SVC with c classes:
        c(c − 1)/2 pairwise machines; one-vs-rest: c), whose
        :meth:`~SVMExpansion.decision_values` are the model's
        ``decision_function`` with ``decision_function_shape='ovo'``.
    """
    from sklearn.multiclass import OneVsRestClassifier
    from sklearn.svm import SVC, SVR

    if not isinstance(model, (SVC, SVR, OneVsRestClassifier)):
        raise TypeError(f"{name!r} must be a fitted sklearn.svm.SVC, sklearn.svm.SVR or "
                        "OneVsRestClassifier of binary SVCs, got "
                        f"{type(model).__name__}")
    _check_fitted(model, name)
    if isinstance(model, OneVsRestClassifier):
        return _ovr_expansion(model, name)
    if isinstance(model, SVC):
        return _svc_expansion(model, name)
    expansion = FeatureExpansion(_dense(model.dual_coef_).astype(float),
                                 _dense(model.support_vectors_).astype(float),
                                 svm_kernel(model, name))
    return SVMExpansion(expansion, np.asarray(model.intercept_, float).copy(), "regression",
                        epsilon=float(model.epsilon))


# ---------------------------------------------------------------------------
# thresholds
# ---------------------------------------------------------------------------

def classification_threshold(values, y_sign, b0=0.0):
    """The threshold b with the fewest training errors of ``sign(g(x) + b)``.

    The number of errors ``#{i : y_i (g_i + b) ≤ 0}`` is piecewise constant in
    b, changing only at ``b = −g_i``; it is smallest on one or more open
    intervals between consecutive such points. Of those the one nearest `b0`
    (the SVM's own threshold) is taken, and b is its midpoint, the point
    farthest from both neighbouring training values — "in all RS systems,
    the optimal SV threshold was recomputed on the training set" (Schölkopf
    et al. 1999, Sec. VI-A).

    Parameters
    ----------
    values : array of shape (n,)
        ``g(x_i)``, the decision values without threshold.
    y_sign : array of shape (n,)
        The labels as −1 or +1 (+1: the class of positive values).
    b0 : float, default=0
        The original threshold, which decides between equally good intervals.

    Returns
    -------
    float
        b. An unbounded optimal interval has no midpoint: then b is `b0` when
        it lies inside, otherwise the interval's finite end moved outward by
        1, the margin of a canonical SVM. With no samples, `b0`.

    Notes
    -----
    O(n log n): one sort, then cumulative counts of positives and negatives.

    Examples
    --------
    >>> classification_threshold([-2.0, -1.0, 1.0, 3.0], [-1, 1, 1, 1], b0=0.0)
    1.5
    """
    values = np.asarray(values, dtype=float).ravel()
    y_sign = np.asarray(y_sign).ravel()
    b0 = check_real(b0, "b0")
    if values.shape != y_sign.shape:
        raise ValueError(f"'y_sign' must have the shape of 'values' {values.shape}, "
                         f"got {y_sign.shape}")
    if not np.isfinite(values).all():
        raise ValueError("'values' contains NaN or inf; all values must be finite")
    if not np.isin(y_sign, (-1, 1)).all():
        raise ValueError(f"'y_sign' must hold only -1 and +1, got values "
                         f"{np.unique(y_sign)[:5]!r}")
    if values.size == 0:
        return b0
    t = -values                          # sample i changes side at b = t_i
    u, inverse = np.unique(t, return_inverse=True)
    k = u.size
    pos = np.bincount(inverse, weights=(y_sign > 0), minlength=k)
    neg = np.bincount(inverse, weights=(y_sign < 0), minlength=k)
    # Interval j (j = 0 … k) is (u_{j−1}, u_j) with u_{−1} = −∞, u_k = +∞. On it
    # a positive is wrong when g + b < 0, i.e. t ≥ u_j (index ≥ j); a negative
    # when t ≤ u_{j−1} (index < j).
    pos_at_or_above = np.concatenate([np.cumsum(pos[::-1])[::-1], [0.0]])
    neg_below = np.concatenate([[0.0], np.cumsum(neg)])
    errors = pos_at_or_above + neg_below
    best = np.flatnonzero(errors == errors.min())
    lo = np.where(best > 0, u[np.maximum(best - 1, 0)], -np.inf)
    hi = np.where(best < k, u[np.minimum(best, k - 1)], np.inf)
    distance = np.maximum(np.maximum(lo - b0, b0 - hi), 0.0)
    j = int(np.argmin(distance))
    lo, hi = lo[j], hi[j]
    if np.isfinite(lo) and np.isfinite(hi):
        return float((lo + hi) / 2)
    if lo < b0 < hi:
        return b0
    return float(hi - 1.0) if np.isfinite(hi) else float(lo + 1.0)


def epsilon_insensitive_threshold(residuals, epsilon):
    """The threshold b minimising the ε-insensitive loss.

    .. math:: L(b) = Σ_i \\max(0, |r_i − b| − ε),  r_i = y_i − g(x_i)

    the loss an SVR's threshold minimises once its weight vector is fixed
    (Vapnik's ε-insensitive loss; recomputed on the training set as Schölkopf
    et al. 1999, Sec. VI, do for classifiers).

    L is convex and piecewise linear with breakpoints ``r_i ± ε``; its right
    slope at b is ``#{r_i + ε ≤ b} − #{r_i − ε > b}``, an integer count, so
    the minimisers ``{b : slope(b⁻) ≤ 0 ≤ slope(b⁺)}`` are found exactly by
    binary search in the sorted breakpoints, O(n log n). They form an
    interval [lo, hi] between two breakpoints; its midpoint is returned.

    Parameters
    ----------
    residuals : array of shape (n,)
        ``y_i − g(x_i)``.
    epsilon : float
        Half-width ε ≥ 0 of the insensitive tube.

    Returns
    -------
    float

    Examples
    --------
    >>> epsilon_insensitive_threshold([0.0, 1.0, 10.0], epsilon=0.5)
    1.0
    """
    r = np.asarray(residuals, dtype=float).ravel()
    epsilon = check_positive(epsilon, "epsilon", strict=False)
    if r.size == 0:
        raise ValueError("'residuals' must hold at least one value, got an empty array")
    if not np.isfinite(r).all():
        raise ValueError("'residuals' contains NaN or inf; all values must be finite")
    lower = np.sort(r - epsilon)         # where a term's slope stops being −1
    upper = np.sort(r + epsilon)         # where a term's slope becomes +1
    n = r.size
    breaks = np.concatenate([lower, upper])

    def right_slope(b):
        return np.searchsorted(upper, b, side="right") - (n - np.searchsorted(lower, b,
                                                                              side="right"))

    def left_slope(b):
        return np.searchsorted(upper, b, side="left") - (n - np.searchsorted(lower, b,
                                                                             side="left"))

    lo = breaks[right_slope(breaks) >= 0].min()
    hi = breaks[left_slope(breaks) <= 0].max()
    return float((lo + hi) / 2)


def check_real(value, name):
    """A finite real scalar, or a ValueError naming `name`."""
    try:
        out = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name!r} must be a finite real number, got {value!r}") from None
    if isinstance(value, bool) or not np.isfinite(out):
        raise ValueError(f"{name!r} must be a finite real number, got {value!r}")
    return out


def ovo_to_ovr_decision(dec, n_classes):
    """scikit-learn's one-vs-rest shaped decision of a one-vs-one SVC.

    Votes plus a confidence squashed into (−1/3, 1/3): pair (i, j) votes for
    i when its value is ≥ 0 and adds its value to i's confidence and its
    negative to j's; the confidence sum s becomes ``s / (3(|s| + 1))`` so
    that it breaks ties between vote counts but never overturns one (as
    ``SVC.decision_function`` with ``decision_function_shape='ovr'``
    documents).
    """
    n = dec.shape[0]
    votes = np.zeros((n, n_classes))
    confidence = np.zeros((n, n_classes))
    k = 0
    for i in range(n_classes):
        for j in range(i + 1, n_classes):
            confidence[:, i] += dec[:, k]
            confidence[:, j] -= dec[:, k]
            votes[:, i] += dec[:, k] >= 0
            votes[:, j] += dec[:, k] < 0
            k += 1
    return votes + confidence / (3 * (np.abs(confidence) + 1))


def _ovo_votes(dec, n_classes):
    """libsvm's votes: pair (i, j) votes for i when its value is > 0, else j."""
    votes = np.zeros((dec.shape[0], n_classes), dtype=int)
    k = 0
    for i in range(n_classes):
        for j in range(i + 1, n_classes):
            votes[:, i] += dec[:, k] > 0
            votes[:, j] += dec[:, k] <= 0
            k += 1
    return votes


# ---------------------------------------------------------------------------
# the entry point
# ---------------------------------------------------------------------------

def _check_training_data(X, y, machines):
    if (X is None) != (y is None):
        missing = "y" if y is None else "X"
        raise ValueError(f"{missing!r} is required when "
                         f"{'X' if missing == 'y' else 'y'!r} is given: the threshold "
                         "is recomputed on the training pairs (X, y)")
    if X is None:
        return None, None
    if sp.issparse(X):
        X = X.toarray()
    X = check_array_2d(X, "X", n_features=machines.expansion.n_features)
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise ValueError(f"'y' must be a 1-D array with one value per row of 'X' "
                         f"({X.shape[0]}), got shape {y.shape}")
    if machines.kind == "regression":
        y = check_array_2d(y.reshape(-1, 1), "y").ravel().astype(float)
    else:
        known = np.isin(y, machines.classes)
        if not known.all():
            raise ValueError(f"'y' holds labels the model was not trained on: "
                             f"{np.unique(y[~known])[:5]!r} (classes {machines.classes!r})")
        y = np.searchsorted(machines.classes, y)
    return X, y


def _recompute_thresholds(machines, values, y):
    """The thresholds recomputed on the training set (see the threshold
    functions); `values` (n, m) are the reduced machines without threshold,
    `y` class indices or targets."""
    b = machines.intercept.copy()
    if machines.kind == "regression":
        b[0] = epsilon_insensitive_threshold(y - values[:, 0], machines.epsilon)
        return b
    for k, (positive, negative) in enumerate(machines.pairs):
        if negative >= 0 and machines.kind == "ovo":
            rows = (y == positive) | (y == negative)
        else:
            rows = slice(None)
        y_sign = np.where(y[rows] == positive, 1, -1)
        b[k] = classification_threshold(values[rows, k], y_sign, b[k])
    return b


def reduce_svm(model, n_vectors, method="construction", *, X=None, y=None, shared=False,
               **options):
    """Reduced-set approximation of a trained kernel SVM.

    Each machine's weight vector ``Ψ_k = Σ_i α_ki φ(x_i)`` over the support
    vectors is replaced by ``Ψ'_k = Σ_j β_kj φ(z_j)`` minimising

    .. math:: ρ_k = ‖Ψ_k − Ψ'_k‖²,

    and the reduced machine decides with ``⟨Ψ'_k, φ(x)⟩ + b_k`` (Schölkopf et
    al. 1999, Sec. V; ``|⟨Ψ_k − Ψ'_k, φ(x)⟩| ≤ √(ρ_k k(x, x))`` bounds the
    change of every decision value).

    Parameters
    ----------
    model : fitted SVC, SVR or OneVsRestClassifier of binary SVCs
        With kernel ``'rbf'``, ``'poly'``, ``'sigmoid'`` or ``'linear'``. A
        multiclass SVC is one-vs-one: its c(c − 1)/2 pairwise machines share
        one set of support vectors; one-vs-rest machines are put over the
        union of theirs.
    n_vectors : int
        Reduced-set size p: per machine with ``shared=False``, in total with
        ``shared=True``.
    method : {"construction", "selection_kpca", "selection_l1"}
        See :func:`preimage.reduced_set.reduce_expansion`.
    X, y : arrays, optional
        The training set. When given, every threshold is recomputed on it
        (Sec. VI-A: "in all RS systems, the optimal SV threshold was
        recomputed on the training set"): a classifier machine takes the b
        with the fewest training errors among its own samples (a one-vs-one
        pair those of its two classes, a one-vs-rest machine all of them; see
        :func:`classification_threshold`), an SVR the b with the least
        ε-insensitive loss (:func:`epsilon_insensitive_threshold`). Without
        them the original thresholds are kept unchanged.
    shared : bool, default=False
        False: each machine is reduced on its own and the reduced vectors are
        pooled; True: one set of `n_vectors` vectors serves all machines (the
        paper's shared ℓ1 penalty for one-vs-rest digit recognisers).
    **options
        Passed to the method (``random_state``, ``n_starts``, ``phase2``, …).

    Returns
    -------
    ReducedSVC or ReducedSVR
        With the original's ``decision_function``/``predict`` conventions.

    References
    ----------
    B. Schölkopf, S. Mika, C. J. C. Burges, P. Knirsch, K.-R. Müller, G.
    Rätsch, A. J. Smola. Input space versus feature space in kernel-based
    methods. IEEE Trans. Neural Networks 10(5), 1999.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.svm import SVC
    >>> from preimage import reduce_svm
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(-1, 1, (40, 2)), rng.normal(1, 1, (40, 2))])
    >>> y = np.repeat([0, 1], 40)
    >>> svc = SVC(gamma=0.5).fit(X, y)
    >>> small = reduce_svm(svc, 4, X=X, y=y, random_state=0)
    >>> small.n_vectors_, small.decision_function(X[:3]).shape
    (4, (3,))
    """
    machines = svm_expansion(model)
    n_vectors = check_positive_int(n_vectors, "n_vectors")
    X, y = _check_training_data(X, y, machines)

    warn_if_indefinite(machines.expansion.kernel)
    reduced = reduce_expansion(machines.expansion, n_vectors, method=method, shared=shared,
                               **options)
    intercept = machines.intercept.copy()
    if X is not None:
        intercept = _recompute_thresholds(machines, reduced.evaluate(X), y)
    return _reduced_model(machines, reduced, intercept, X is not None)


def check_reduced_input(reduced, X, maker):
    """Validate X for a reduced model made by the function named `maker`:
    dense (sparse input is converted), finite, of the training width."""
    if not hasattr(reduced, "vectors_"):
        raise NotFittedError(f"this {type(reduced).__name__} holds no reduced set; make one "
                             f"with {maker}()")
    if sp.issparse(X):
        X = X.toarray()
    return check_array_2d(X, "X", n_features=reduced.n_features_in_)


def _reduced_model(machines, reduced, intercept, recomputed):
    """The ReducedSVC or ReducedSVR deciding with `reduced` and `intercept`."""
    if machines.kind == "regression":
        est = ReducedSVR()
        est.epsilon_ = machines.epsilon
    else:
        est = ReducedSVC(decision_function_shape=machines.decision_function_shape,
                         break_ties=machines.break_ties)
        est.classes_ = machines.classes
        est.kind_ = machines.kind
        est.pairs_ = machines.pairs
    est._set_reduced(reduced, intercept, machines, recomputed)
    return est


# ---------------------------------------------------------------------------
# the reduced machines
# ---------------------------------------------------------------------------

class _ReducedMachine(BaseEstimator):
    """What reduced classifiers and regressors share: state and one kernel block."""

    def _set_reduced(self, reduced, intercept, machines, recomputed):
        self.reduced_set_ = reduced
        self.kernel_ = reduced.kernel
        self.vectors_ = reduced.vectors
        self.dual_coef_ = reduced.coef
        self.intercept_ = np.asarray(intercept, dtype=float)
        self.original_intercept_ = machines.intercept.copy()
        self.threshold_recomputed_ = bool(recomputed)
        self.approximation_error_ = reduced.error
        self.relative_error_ = reduced.relative_error
        self.n_vectors_ = reduced.n_vectors
        self.original_n_support_ = machines.expansion.n_support
        self.n_features_in_ = machines.expansion.n_features

    def _decision_values(self, X):
        """``Σ_j β_kj k(z_j, x) + b_k``, shape (n, m): one kernel block k(X, Z)."""
        X = check_reduced_input(self, X, "reduce_svm")
        K = self.kernel_.block(X, self.vectors_, check_input=False, overflow="ignore")
        return np.asarray(K @ self.dual_coef_.T + self.intercept_, dtype=np.float64)


class ReducedSVC(ClassifierMixin, _ReducedMachine):
    """A kernel SVM classifier on a reduced set, made by :func:`reduce_svm`.

    Decides like the SVM it came from, with ``⟨Ψ'_k, φ(x)⟩ + b_k`` for each
    machine k, evaluated from one kernel block ``k(X, Z)`` with the p reduced
    vectors instead of the N support vectors.

    Parameters
    ----------
    decision_function_shape : {"ovr", "ovo"}, default="ovr"
        For a one-vs-one multiclass SVC, as in ``SVC``: ``"ovo"`` returns the
        pairwise values (n, c(c − 1)/2), ``"ovr"`` votes plus confidence
        (n, c). Copied from the original by :func:`reduce_svm`.
    break_ties : bool, default=False
        As in ``SVC``: with ``"ovr"`` and more than two classes, predict the
        argmax of :meth:`decision_function` instead of the vote winner.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    vectors_ : ndarray of shape (p, n_features)
        The reduced-set vectors z_j.
    dual_coef_ : ndarray of shape (n_machines, p)
        β: machine k's coefficients (binary: 1 machine, positive values mean
        ``classes_[1]``; one-vs-one: pairs (0, 1), (0, 2), …, (1, 2), …,
        positive values vote for the first; one-vs-rest: one per class).
    intercept_ : ndarray of shape (n_machines,)
        The thresholds b_k (recomputed on the training set when given).
    original_intercept_ : ndarray of shape (n_machines,)
    threshold_recomputed_ : bool
    reduced_set_ : ReducedSet
    approximation_error_ : ndarray of shape (n_machines,)
        ``ρ_k = ‖Ψ_k − Ψ'_k‖²``.
    relative_error_ : ndarray of shape (n_machines,)
        ``ρ_k / ‖Ψ_k‖²``.
    n_vectors_ : int
        p.
    original_n_support_ : int
        The number of support vectors of the original (their union for
        one-vs-rest).
    kind_ : {"binary", "ovo", "ovr"}
    pairs_ : ndarray of shape (n_machines, 2)
        The class indices (positive, negative) of each machine; −1 stands
        for "the rest" (one-vs-rest).
    kernel_ : Kernel
    n_features_in_ : int
    """

    def __init__(self, decision_function_shape="ovr", break_ties=False):
        self.decision_function_shape = decision_function_shape
        self.break_ties = break_ties

    def _check_shape(self):
        if self.decision_function_shape not in ("ovr", "ovo"):
            raise ValueError(f"'decision_function_shape' must be 'ovr' or 'ovo', got "
                             f"{self.decision_function_shape!r}")

    def decision_function(self, X):
        """Decision values with the original's shape conventions.

        Binary (SVC or one-vs-rest of two classes): (n,), positive for
        ``classes_[1]``. One-vs-one SVC: (n, n_classes) with
        ``decision_function_shape='ovr'``, (n, n_pairs) with ``'ovo'``.
        One-vs-rest: (n, n_classes).
        """
        dec = self._decision_values(X)
        if dec.shape[1] == 1:
            return dec[:, 0]
        if self.kind_ == "ovo":
            self._check_shape()
            if self.decision_function_shape == "ovr":
                return ovo_to_ovr_decision(dec, len(self.classes_))
        return dec

    def predict(self, X):
        """Class labels: sign (binary), libsvm's votes with ties to the lowest
        class index (one-vs-one), or the largest value (one-vs-rest)."""
        dec = self._decision_values(X)
        if self.kind_ == "binary":
            # libsvm's vote goes to classes_[0] only for a strictly positive
            # internal value, which scikit-learn reports negated.
            return self.classes_[(dec[:, 0] >= 0).astype(int)]
        if dec.shape[1] == 1:            # one-vs-rest over two classes
            return self.classes_[(dec[:, 0] > 0).astype(int)]
        if self.kind_ == "ovr":
            return self.classes_[np.argmax(dec, axis=1)]
        self._check_shape()
        if self.break_ties and self.decision_function_shape == "ovr":
            return self.classes_[np.argmax(ovo_to_ovr_decision(dec, len(self.classes_)),
                                           axis=1)]
        if self.break_ties:
            raise ValueError("'break_ties' must be False when decision_function_shape is "
                             "'ovo'")
        return self.classes_[np.argmax(_ovo_votes(dec, len(self.classes_)), axis=1)]


class ReducedSVR(RegressorMixin, _ReducedMachine):
    """A kernel support vector regressor on a reduced set, made by
    :func:`reduce_svm`: ``f(x) = Σ_j β_j k(z_j, x) + b``.

    Attributes
    ----------
    vectors_ : ndarray of shape (p, n_features)
    dual_coef_ : ndarray of shape (1, p)
    intercept_ : ndarray of shape (1,)
        b (recomputed on the training set when given).
    original_intercept_, threshold_recomputed_, reduced_set_,
    approximation_error_, relative_error_, n_vectors_, original_n_support_,
    kernel_, n_features_in_
        As in :class:`ReducedSVC`.
    epsilon_ : float
        The original's ε.
    """

    def predict(self, X):
        """``f(x)``, shape (n,)."""
        return self._decision_values(X)[:, 0]
