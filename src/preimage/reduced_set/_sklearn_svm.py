"""Trained scikit-learn SVMs (``SVC``, ``SVR``, ``OneVsRestClassifier`` of binary
SVCs) as feature-space expansions (Schölkopf et al. 1999, Sec. V), and their
thresholds recomputed on the training set (Sec. VI-B)."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np
import scipy.sparse as sp
from sklearn.multiclass import OneVsRestClassifier
from sklearn.svm import SVC, SVR
from sklearn.utils.validation import check_is_fitted

from preimage._utils.typing import ArrayLike
from preimage._utils.validation import check_array_2d, check_positive, check_real, check_real_array
from preimage.kernels import make_kernel
from preimage.kernels._expansion import FeatureExpansion


def classification_threshold(values: ArrayLike, y_sign: ArrayLike, b0: float = 0.0) -> float:
    r"""Return the threshold with the fewest training errors.

    The number of training errors of :math:`\operatorname{sign}(g(x_i) + b)`,

    .. math:: E(b) = \#\{i : y_i (g(x_i) + b) \le 0\},

    is piecewise constant in b, smallest on open intervals between the
    points :math:`-g(x_i)`; b is the midpoint of the one nearest `b0`.

    Parameters
    ----------
    values : array-like of shape (n,)
        The decision values :math:`g(x_i)`, without threshold.
    y_sign : array-like of shape (n,)
        The labels as -1 or +1 (+1: the class of positive values).
    b0 : float, default=0
        The original threshold, which decides between equally good intervals.

    Returns
    -------
    float
        The threshold b; for an unbounded interval `b0` if inside, else its
        finite end moved outward by 1; with no samples, `b0`.

    References
    ----------
    Schölkopf et al. (1999), Sec. VI-B.

    Examples
    --------
    >>> from preimage.reduced_set import classification_threshold
    >>> classification_threshold([-2.0, -1.0, 1.0, 3.0], [-1, 1, 1, 1], b0=0.0)
    1.5
    """
    values = check_real_array(values, "values").ravel()
    y_sign = np.asarray(y_sign).ravel()
    b0 = check_real(b0, "b0")
    if values.shape != y_sign.shape:
        raise ValueError(
            f"'y_sign' must have the shape of 'values' {values.shape}, got {y_sign.shape}"
        )
    if not np.isin(y_sign, (-1, 1)).all():
        raise ValueError(
            f"'y_sign' must hold only -1 and +1, got values {np.unique(y_sign)[:5]!r}"
        )
    if values.size == 0:
        return b0
    u, inverse = np.unique(-values, return_inverse=True)  # sample i changes side at b = u_i
    pos = np.bincount(inverse, weights=(y_sign > 0))
    neg = np.bincount(inverse, weights=(y_sign < 0))
    # Interval j (j = 0 … k) is (u_{j−1}, u_j) with u_{−1} = −∞, u_k = +∞. On it
    # a positive is wrong when g + b < 0, i.e. -g ≥ u_j (index ≥ j); a negative
    # when -g ≤ u_{j−1} (index < j).
    errors = np.append(np.cumsum(pos[::-1])[::-1], 0.0) + np.append(0.0, np.cumsum(neg))
    best = np.flatnonzero(errors == errors.min())
    edges = np.concatenate([[-np.inf], u, [np.inf]])
    lo, hi = edges[best], edges[best + 1]
    j = int(np.argmin(np.maximum(np.maximum(lo - b0, b0 - hi), 0.0)))  # the nearest to b0
    lo, hi = lo[j], hi[j]
    if np.isfinite(lo) and np.isfinite(hi):
        return float((lo + hi) / 2)
    if lo < b0 < hi:
        return b0
    return float(hi - 1.0) if np.isfinite(hi) else float(lo + 1.0)


def epsilon_insensitive_threshold(residuals: ArrayLike, epsilon: float) -> float:
    r"""Return the threshold minimising the :math:`\varepsilon`-insensitive loss.

    .. math:: L(b) = \sum_i \max(0, |r_i - b| - \varepsilon), \qquad r_i = y_i - g(x_i),

    is piecewise linear: its minimisers form an interval, between the n-th and
    (n + 1)-th of the 2n breakpoints :math:`r_i \pm \varepsilon`, whose midpoint
    (their median) is returned.

    Parameters
    ----------
    residuals : array-like of shape (n,)
        The residuals :math:`r_i = y_i - g(x_i)`.
    epsilon : float
        The half-width :math:`\varepsilon \ge 0` of the insensitive tube.

    Returns
    -------
    float
        The threshold b, the midpoint of the minimisers of L.

    References
    ----------
    Vapnik (1995). Schölkopf et al. (1999), Sec. VI-B.

    Examples
    --------
    >>> from preimage.reduced_set import epsilon_insensitive_threshold
    >>> epsilon_insensitive_threshold([0.0, 1.0, 10.0], epsilon=0.5)
    1.0
    """
    r = check_real_array(residuals, "residuals").ravel()
    epsilon = check_positive(epsilon, "epsilon", strict=False)
    if r.size == 0:
        raise ValueError("'residuals' must hold at least one value, got an empty array")
    # L's slope at b is #{breakpoints r_i ± ε below b} - n: zero between the n-th and
    # (n + 1)-th of the 2n breakpoints, whose midpoint is their median.
    return float(np.median(np.concatenate([r - epsilon, r + epsilon])))


#: scikit-learn's kernel names that are functions of input points.
_SKLEARN_KERNELS = ("rbf", "poly", "sigmoid", "linear")


def check_input_kernel(kernel, name):
    """Refuse a scikit-learn kernel that is not a named function of input points."""
    if not isinstance(kernel, str) or kernel not in _SKLEARN_KERNELS:
        label = str(getattr(kernel, "__name__", type(kernel).__name__))[:40]
        shown = f"a callable kernel ({label})" if callable(kernel) else f"kernel={kernel!r:.40}"
        raise ValueError(
            f"{name!r} has {shown}, which cannot be reduced: a reduced "
            "set constructs new points in input space, where a precomputed kernel has no "
            f"values and a callable one no gradient; fit {name!r} with kernel= one of "
            f"{list(_SKLEARN_KERNELS)}"
        )


def kernel_from_sklearn(kernel, gamma, degree, coef0, name):
    """The preimage kernel for scikit-learn's spelling; errors name `name`."""
    check_input_kernel(kernel, name)
    try:
        gamma = None if gamma is None else float(gamma)
        return make_kernel(kernel, gamma=gamma, degree=int(degree), coef0=float(coef0))
    except ValueError as exc:
        raise ValueError(
            f"{name!r} has kernel parameters that preimage's {kernel!r} kernel does "
            f"not accept: {exc}"
        ) from None


def svm_kernel(model, name="model"):
    """The kernel of a fitted SVC or SVR, with the width it resolved at fit."""
    gamma = getattr(model, "_gamma", model.gamma)
    return kernel_from_sklearn(model.kernel, gamma, model.degree, model.coef0, name)


def dense(a):
    """A scikit-learn array attribute (sparse when fitted on sparse data) as
    a dense float64 array."""
    return (a.toarray() if sp.issparse(a) else np.asarray(a)).astype(float)


def check_fitted(model, name, call="fit(X, y)"):
    """Refuse an unfitted model with a NotFittedError naming `name`."""
    name = repr(name).replace("%", "%%")  # scikit-learn's message is a %-format
    check_is_fitted(model, msg=f"{name} is not fitted (%(name)s); call {call} before reducing it")


@dataclass
class SVMExpansion:
    r"""A trained SVM as m feature-space expansions plus thresholds.

    Machine k decides with

    .. math::
        f_k(x) = \langle \Psi_k, \phi(x) \rangle + b_k = \sum_{i=1}^N \alpha_{ki} k(x_i, x) + b_k,

    ``expansion.coef[k]`` holding its :math:`\alpha_{ki}` over the support
    vectors the machines share; the parameters are kept as attributes.

    Parameters
    ----------
    expansion : FeatureExpansion
        The m machines' expansions over one shared support.
    intercept : ndarray of shape (m,)
        The thresholds :math:`b_k`.
    kind : {"binary", "ovo", "ovr", "regression"}
        A binary SVC, the pairs of a one-vs-one multiclass SVC, the machines
        of a one-vs-rest classifier, or an SVR.
    classes : ndarray or None, default=None
        The class labels (None for regression).
    pairs : ndarray of shape (m, 2) or None, default=None
        For classifiers, the class indices ``(positive, negative)`` of each
        machine (as ``ReducedSVC.pairs_``).
    epsilon : float or None, default=None
        The width :math:`\varepsilon` of the insensitive tube (regression).
    decision_function_shape, break_ties : str and bool, default="ovr" and False
        Copied from an ``SVC``.

    References
    ----------
    Schölkopf et al. (1999), Sec. V-A.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.svm import SVC
    >>> from preimage.reduced_set import svm_expansion
    >>> X, y = np.array([[-1.0], [1.0]]), np.array([0, 1])
    >>> machines = svm_expansion(SVC(kernel="linear", C=10).fit(X, y))
    >>> machines.decision_values([[2.0]]).round(6) + 0.0       # w = 1, b = 0
    array([[2.]])

    >>> machines.thresholds(np.array([[0.0], [2.0]]), y)
    array([-1.])
    """

    expansion: FeatureExpansion
    intercept: np.ndarray
    kind: str
    classes: np.ndarray | None = None
    pairs: np.ndarray | None = None
    epsilon: float | None = None
    decision_function_shape: str = "ovr"
    break_ties: bool = False

    def decision_values(self, X: ArrayLike) -> np.ndarray:
        r"""Return the decision values :math:`f_k(x)` of every machine at points.

        Parameters
        ----------
        X : array-like of shape (n, d)
            The points.

        Returns
        -------
        ndarray of shape (n, m)
            The model's ``decision_function`` with
            ``decision_function_shape='ovo'``.
        """
        e = self.expansion
        X = check_array_2d(X, "X", n_features=e.n_features)
        K = e.kernel.block(X, e.support, check_input=False, overflow="ignore")
        return K @ e.coef.T + self.intercept

    def thresholds(self, values: np.ndarray, y: np.ndarray) -> np.ndarray:
        r"""Return the thresholds recomputed on the training set.

        By :func:`~preimage.reduced_set.classification_threshold` on each
        machine's own samples (a one-vs-one pair's two classes), or
        :func:`~preimage.reduced_set.epsilon_insensitive_threshold` (an SVR).

        Parameters
        ----------
        values : ndarray of shape (n, m)
            The (reduced) machines' values at the training points, unshifted.
        y : ndarray of shape (n,)
            The class indices (classifiers) or targets (regression).

        Returns
        -------
        ndarray of shape (m,)
            The thresholds :math:`b_k`.
        """
        if self.kind == "regression":
            return np.array([epsilon_insensitive_threshold(y - values[:, 0], self.epsilon)])
        b = self.intercept.copy()
        for k, (positive, negative) in enumerate(self.pairs):
            rows = (y == positive) | (y == negative) if self.kind == "ovo" else slice(None)
            y_sign = np.where(y[rows] == positive, 1, -1)
            b[k] = classification_threshold(values[rows, k], y_sign, b[k])
        return b


def _ovo_coef(model):
    """An ``SVC``'s machines as ``(coef, kind, pairs)``, in libsvm's order: pair
    (i, j), i < j, has class i's coefficients in row j - 1 of ``dual_coef_`` and
    class j's in row i (two classes keep scikit-learn's sign)."""
    dual, n_classes = dense(model.dual_coef_), len(model.classes_)
    if n_classes == 2:
        return dual.copy(), "binary", [[1, 0]]
    starts = np.concatenate([[0], np.cumsum(model.n_support_)])
    pairs = list(combinations(range(n_classes), 2))
    coef = np.zeros((len(pairs), dual.shape[1]))
    for k, (i, j) in enumerate(pairs):
        si, sj = slice(starts[i], starts[i + 1]), slice(starts[j], starts[j + 1])
        coef[k, si] = dual[j - 1, si]
        coef[k, sj] = dual[i, sj]
    return coef, "ovo", pairs


def _ovr_expansion(model, name):
    """One-vs-rest machines over the union of their support vectors."""
    y_type = getattr(model.label_binarizer_, "y_type_", None)
    if y_type not in ("binary", "multiclass"):
        raise ValueError(
            f"{name!r} is a OneVsRestClassifier fitted on {y_type} targets; "
            "only binary and multiclass problems are supported"
        )
    kernels, supports, duals, intercepts = [], [], [], []
    for k, est in enumerate(model.estimators_):
        if not isinstance(est, SVC) or len(getattr(est, "classes_", ())) != 2:
            raise ValueError(
                f"{name!r} must be a OneVsRestClassifier of binary SVCs, but its estimator "
                f"{k} is {type(est).__name__} (a class present in every training sample "
                "or in none, as when y holds one class, gives a constant predictor)"
            )
        kernels.append(svm_kernel(est, name))
        supports.append(dense(est.support_vectors_))
        duals.append(dense(est.dual_coef_)[0])
        intercepts.append(float(est.intercept_[0]))
    if any(kern != kernels[0] for kern in kernels):
        raise ValueError(
            f"{name!r} has binary SVCs with different kernels {kernels}; one "
            "reduced set needs one kernel"
        )
    # A support vector of several machines appears once; coefficients add up.
    support, inverse = np.unique(np.vstack(supports), axis=0, return_inverse=True)
    machine = np.repeat(np.arange(len(duals)), [dual.size for dual in duals])
    coef = np.zeros((len(duals), support.shape[0]))
    np.add.at(coef, (machine, inverse.ravel()), np.concatenate(duals))
    c = len(model.classes_)
    pairs = np.array([[1, 0]] if c == 2 else [[i, -1] for i in range(c)])
    expansion = FeatureExpansion(coef, support, kernels[0])
    return SVMExpansion(expansion, np.array(intercepts), "ovr", model.classes_, pairs)


def svm_expansion(model: SVC | SVR | OneVsRestClassifier, name: str = "model") -> SVMExpansion:
    r"""Return a fitted scikit-learn SVM as feature-space expansions.

    Reads, for each machine deciding with :math:`g(x) + b`,

    .. math:: g(x) = \langle \Psi, \phi(x) \rangle, \qquad \Psi = \sum_{i=1}^N \alpha_i \phi(x_i),

    its :math:`\Psi` over the N support vectors, b and the kernel.

    Parameters
    ----------
    model : SVC, SVR or OneVsRestClassifier of binary SVCs, fitted
        With kernel ``'rbf'``, ``'poly'``, ``'sigmoid'`` or ``'linear'``.
    name : str, default="model"
        The argument an error names.

    Returns
    -------
    SVMExpansion
        One expansion per machine (binary SVC, SVR: 1; SVC with c classes:
        :math:`c(c - 1)/2` pairwise machines; one-vs-rest: c).

    Raises
    ------
    TypeError, sklearn.exceptions.NotFittedError, ValueError
        If `model` is none of these, is not fitted, or has no support vectors
        or another kernel.

    References
    ----------
    Schölkopf et al. (1999), Sec. V-A.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.svm import SVC
    >>> from preimage.reduced_set import svm_expansion
    >>> X, y = np.array([[-1.0], [1.0]]), np.array([0, 1])
    >>> machines = svm_expansion(SVC(kernel="linear", C=10).fit(X, y))
    >>> machines.kind, machines.expansion.coef.round(6), machines.intercept.round(6) + 0.0
    ('binary', array([[-0.5,  0.5]]), array([0.]))
    """
    if not isinstance(model, (SVC, SVR, OneVsRestClassifier)):
        raise TypeError(
            f"{name!r} must be a fitted sklearn.svm.SVC, sklearn.svm.SVR or "
            "OneVsRestClassifier of binary SVCs, got "
            f"{type(model).__name__}"
        )
    check_fitted(model, name)
    if isinstance(model, OneVsRestClassifier):
        return _ovr_expansion(model, name)
    kernel = svm_kernel(model, name)  # before the support vectors, which it may hide
    if model.support_vectors_.shape[0] == 0:
        raise ValueError(
            f"{name!r} has no support vectors: it decides by its threshold "
            "alone (fitted on one sample, say), so there is nothing to reduce"
        )
    support = dense(model.support_vectors_)
    intercept = np.asarray(model.intercept_, float).copy()
    if isinstance(model, SVR):
        expansion = FeatureExpansion(dense(model.dual_coef_), support, kernel)
        return SVMExpansion(expansion, intercept, "regression", epsilon=float(model.epsilon))
    coef, kind, pairs = _ovo_coef(model)
    expansion = FeatureExpansion(coef, support, kernel)
    shape = (model.decision_function_shape, model.break_ties)  # after epsilon, None
    return SVMExpansion(expansion, intercept, kind, model.classes_, np.array(pairs), None, *shape)
