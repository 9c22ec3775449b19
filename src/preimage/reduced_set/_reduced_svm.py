"""Reduced-set support vector machines (Schölkopf et al. 1999, Sec. V-VI): an SVM's
expansions reduced, thresholds recomputed on the training set, the original's conventions."""

from typing import Any, Self
import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, _fit_context, clone
from sklearn.svm import SVC, SVR
from sklearn.utils._param_validation import HasMethods, StrOptions
from sklearn.utils.multiclass import _ovr_decision_function

from preimage._utils.typing import ArrayLike, MatrixLike, RandomStateLike
from preimage._utils.validation import check_array_2d, validate_estimator_input
from preimage.reduced_set._estimator_base import BaseReducedExpansion, dense_input, fill_doc
from preimage.reduced_set._sklearn_svm import check_input_kernel, svm_expansion


def _check_training_data(X, y, machines):
    """The training pairs the thresholds are recomputed on: X of the model's
    width, y as class indices (classifiers) or float targets; or (None, None)."""
    if (X is None) != (y is None):
        missing = "y" if y is None else "X"
        raise ValueError(
            f"{missing!r} is required when "
            f"{'X' if missing == 'y' else 'y'!r} is given: the threshold "
            "is recomputed on the training pairs (X, y)"
        )
    if X is None:
        return None, None
    X = check_array_2d(dense_input(X), "X", n_features=machines.expansion.n_features)
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise ValueError(
            f"'y' must be a 1-D array with one value per row of 'X' "
            f"({X.shape[0]}), got shape {y.shape}"
        )
    if machines.kind == "regression":
        return X, check_array_2d(y.reshape(-1, 1), "y").ravel().astype(float)
    with warnings.catch_warnings():
        # Labels of another kind than the classes (numbers against strings)
        # are all unknown; NumPy before 1.25 adds a FutureWarning about it.
        warnings.simplefilter("ignore", FutureWarning)
        known = np.isin(y, machines.classes)
    if not known.all():
        raise ValueError(
            f"'y' holds labels the model was not trained on: "
            f"{np.unique(y[~known])[:5]!r} (classes {machines.classes!r})"
        )
    return X, np.searchsorted(machines.classes, y)


def _check_machine_count(n_vectors, shared, machines):
    """Refuse ``shared=False`` when m machines × `n_vectors` pooled vectors are
    no fewer than the original's N support vectors (no faster a decision)."""
    m, n_support = machines.expansion.n_expansions, machines.expansion.n_support
    total = m * n_vectors
    if shared or m == 1 or total < n_support:
        return
    relation = "more than" if total > n_support else "as many as"
    largest = (n_support - 1) // m
    fits = (
        f" or n_vectors ≤ {largest:,} per machine"
        if largest
        else f" (no per-machine size is smaller than the original: {m} machines, "
        f"{n_support:,} support vectors)"
    )
    raise ValueError(
        f"'n_vectors'={n_vectors} with 'shared'=False reduces each of the {m} machines on "
        f"its own and pools their vectors: {m} machines × {n_vectors} vectors = up to "
        f"{total:,} vectors, {relation} the {n_support:,} support vectors of the original, "
        f"so the reduced model would decide no faster; pass shared=True ({n_vectors} "
        f"vectors in all, shared by every machine){fits}"
    )


@fill_doc
def reduce_svm(
    model: BaseEstimator,
    n_vectors: int,
    method: str = "construction",
    *,
    X: MatrixLike | None = None,
    y: ArrayLike | None = None,
    shared: bool = True,
    **options: Any,
) -> "ReducedSVC | ReducedSVR":
    r"""Reduce a trained kernel SVM to a reduced-set machine.

    Each machine's weight vector :math:`\Psi_k = \sum_i \alpha_{ki} \phi(x_i)`
    over the support vectors is replaced by
    :math:`\Psi'_k = \sum_j \beta_{kj} \phi(z_j)` minimising

    .. math:: \rho_k = \|\Psi_k - \Psi'_k\|^2,

    and the reduced machine decides with
    :math:`\langle \Psi'_k, \phi(x) \rangle + b_k`; every decision value
    changes by at most :math:`\sqrt{\rho_k \, k(x, x)}`.

    Parameters
    ----------
    model : SVC, SVR or OneVsRestClassifier of binary SVCs, fitted
        With kernel ``'rbf'``, ``'poly'``, ``'sigmoid'`` or ``'linear'``; the
        :math:`c(c - 1)/2` one-vs-one machines of a multiclass SVC share its
        support vectors, one-vs-rest machines are put over the union of theirs.
    n_vectors : int
        Reduced-set size p: in total with ``shared=True``, the kernel values
        every decision costs; per machine otherwise.
    %(method)s
    X, y : array-like of shape (n_samples, n_features) and (n_samples,), optional
        The training set, on which every threshold is recomputed (Sec. VI-B;
        :meth:`~preimage.reduced_set.SVMExpansion.thresholds`); without it the
        original thresholds are kept.
    shared : bool, default=True
        One set of `n_vectors` vectors for all m machines, as the original's
        share its support vectors; or one per machine, pooled.
    **options
        Passed to the method (``random_state``, ``n_starts``, ``phase2``, ...).

    Returns
    -------
    ReducedSVC or ReducedSVR
        Fitted, with the original's conventions (``decision_function_shape``,
        ``break_ties``); ``estimator`` is None, and the `options` but
        ``random_state`` are its ``method_params``.

    Raises
    ------
    ValueError
        With ``shared=False`` and ``m * n_vectors`` at least the number of
        support vectors of `model` (no faster a decision).

    References
    ----------
    Schölkopf et al. (1999), Sec. V, Sec. VI-B. Burges (1996).

    Examples
    --------
    >>> from sklearn.datasets import make_blobs
    >>> from sklearn.svm import SVC
    >>> from preimage import reduce_svm
    >>> X, y = make_blobs(80, centers=2, cluster_std=2.0, random_state=0)
    >>> small = reduce_svm(SVC(gamma=0.5).fit(X, y), 4, X=X, y=y, random_state=0)
    >>> small.n_vectors_, small.decision_function(X[:3]).shape
    (4, (3,))
    """
    machines = svm_expansion(model)
    params = dict(n_vectors=n_vectors, method=method, shared=shared)
    if machines.kind == "regression":
        est = ReducedSVR._made(options, **params)
    else:
        shape, ties = machines.decision_function_shape, machines.break_ties
        est = ReducedSVC._made(options, decision_function_shape=shape, break_ties=ties, **params)
    return est._reduce_machines(machines, model, X, y)


class _ReducedMachine(BaseReducedExpansion):
    """Fit a clone of the machine and reduce it, or reduce a fitted one."""

    _maker = "reduce_svm"
    _fit_call = "fit(X, y)"

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X: MatrixLike, y: ArrayLike) -> Self:
        """Fit a clone of `estimator` on (X, y), reduce it, recompute the thresholds.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training points (sparse input is made dense).
        y : array-like of shape (n_samples,)
            Class labels (:class:`ReducedSVC`) or targets (:class:`ReducedSVR`).

        Returns
        -------
        ReducedSVC or ReducedSVR
            The fitted estimator (self).
        """
        X, regression = dense_input(X), isinstance(self, RegressorMixin)
        X, y = validate_estimator_input(self, X, reset=True, y=y, y_numeric=regression)
        model = clone(self._default() if self.estimator is None else self.estimator)
        if isinstance(model, (SVC, SVR)):
            check_input_kernel(model.kernel, "estimator")  # before fitting
        machines = svm_expansion(model.fit(X, y), "estimator")
        if (machines.kind == "regression") != regression:
            raise ValueError(
                f"'estimator' must be {'an SVR' if regression else 'a classifier'} "
                f"for {type(self).__name__}, got {type(model).__name__}"
            )
        return self._reduce_machines(machines, model, X, y)

    _model_state = BaseReducedExpansion._model_state | {
        "original_intercept_": "f[m]",
        "threshold_recomputed_": "bool",
    }

    def _reduce_machines(self, machines, model, X, y):
        """Reduce `model`'s machines; recompute thresholds on (X, y) if given."""
        X, y = _check_training_data(X, y, machines)
        _check_machine_count(self.n_vectors, self.shared, machines)
        reduced = self._reduce(machines.expansion)
        b = machines.intercept if X is None else machines.thresholds(reduced.evaluate(X), y)
        self._set_reduced(reduced, b, machines.expansion, model)
        self.original_intercept_ = machines.intercept.copy()
        self.threshold_recomputed_ = X is not None
        self._set_machines(machines)
        return self


@fill_doc
class ReducedSVC(ClassifierMixin, _ReducedMachine):
    r"""A kernel SVM classifier on a reduced set.

    Decides like the SVM it came from, with

    .. math:: f_k(x) = \sum_{j=1}^p \beta_{kj} k(z_j, x) + b_k

    for each machine k: p kernel values instead of the N support vectors'
    (:func:`reduce_svm` makes one from an SVM fitted already).

    Parameters
    ----------
    estimator : SVC or OneVsRestClassifier of binary SVCs, default=None
        The machine to fit (a clone) and reduce (see :func:`reduce_svm`);
        None is ``sklearn.svm.SVC()``.
    %(params)s
    decision_function_shape, break_ties : {"ovr", "ovo"} and bool, default="ovr" and False
        As in ``SVC``.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    intercept_ : ndarray of shape (m,)
        The thresholds :math:`b_k`.
    %(svm_attributes)s
    %(attributes)s
    kind_ : {"binary", "ovo", "ovr"}
        The kind of the original: binary, one-vs-one or one-vs-rest.
    pairs_ : ndarray of shape (m, 2)
        The class indices (positive, negative) of each machine, whose positive
        values vote for the first: binary (1, 0); one-vs-one (0, 1), (0, 2),
        ..., (1, 2), ...; one-vs-rest (k, -1), -1 for "the rest".

    References
    ----------
    Schölkopf et al. (1999), Sec. V, Sec. VI-B. Burges (1996).

    Examples
    --------
    Three pair machines share 6 vectors, or have 2 each with ``shared=False``:

    >>> from sklearn.datasets import make_blobs
    >>> from sklearn.svm import SVC
    >>> from preimage import ReducedSVC
    >>> X, y = make_blobs(90, centers=3, random_state=0)
    >>> small = ReducedSVC(SVC(C=10, gamma=0.5), 6, random_state=0).fit(X, y)
    >>> small.dual_coef_.shape, small.original_n_support_ > 6, small.score(X, y) > 0.9
    ((3, 6), True, True)
    >>> ReducedSVC(SVC(C=10, gamma=0.5), 2, shared=False, random_state=0).fit(X, y).dual_coef_.shape
    (3, 6)
    """

    _parameter_constraints: dict = {
        **BaseReducedExpansion._parameter_constraints,
        "estimator": [HasMethods(["fit", "decision_function"]), None],
        "decision_function_shape": [StrOptions({"ovr", "ovo"})],
        "break_ties": ["boolean"],
    }

    def __init__(
        self,
        estimator: BaseEstimator | None = None,
        n_vectors: int = 10,
        *,
        method: str = "construction",
        shared: bool = True,
        method_params: dict[str, Any] | None = None,
        random_state: RandomStateLike = None,
        decision_function_shape: str = "ovr",
        break_ties: bool = False,
    ) -> None:
        super().__init__(estimator, n_vectors, method=method, shared=shared)
        self.method_params, self.random_state = method_params, random_state
        self.decision_function_shape, self.break_ties = decision_function_shape, break_ties

    _default = SVC
    _model_state = _ReducedMachine._model_state | {
        "classes_": "*[k]",
        "kind_": "str",
        "pairs_": "i[m,2]?",
    }

    def _set_machines(self, machines):
        self.classes_, self.kind_, self.pairs_ = machines.classes, machines.kind, machines.pairs

    def _check_restored(self):
        k, pairs = self.classes_.shape[0], self.pairs_
        if k < 2 or self.kind_ not in ("binary", "ovo", "ovr"):
            raise ValueError(
                "'classes_' and 'kind_' must be 2 or more classes, binary, ovo or ovr"
            )
        if pairs is not None and pairs.size and not (0 <= pairs.min() <= pairs.max() < k):
            raise ValueError(f"'pairs_' must hold classes in [0, {k})")

    def _ovr_shape(self, dec):
        """scikit-learn's one-vs-rest shape of one-vs-one values in libsvm's order:
        votes (a value of 0 votes for the first class of its pair) plus the
        confidence squashed into (-1/3, 1/3), which breaks ties between vote counts only."""
        return _ovr_decision_function(dec < 0, -dec, len(self.classes_))

    def _shape(self):
        """`decision_function_shape`, checked (it may be set after fit)."""
        if self.decision_function_shape not in ("ovr", "ovo"):
            raise ValueError(
                f"'decision_function_shape' must be 'ovr' or 'ovo', got "
                f"{self.decision_function_shape!r}"
            )
        return self.decision_function_shape

    def decision_function(self, X: MatrixLike) -> np.ndarray:
        """Return the decision values, with the original's shape conventions.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The points (sparse input is made dense).

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes) or (n_samples, n_pairs)
            (n_samples,) for two classes, positive for ``classes_[1]``; n_pairs
            for a one-vs-one SVC with ``decision_function_shape='ovo'``.
        """
        dec = self._decision_values(X)
        if dec.shape[1] == 1:
            return dec[:, 0]
        if self.kind_ == "ovo" and self._shape() == "ovr":
            return self._ovr_shape(dec)
        return dec

    def predict(self, X: MatrixLike) -> np.ndarray:
        """Predict class labels.

        By sign (binary), libsvm's votes (one-vs-one) or the largest value
        (one-vs-rest).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The points (sparse input is made dense).

        Returns
        -------
        ndarray of shape (n_samples,)
            The predicted class labels.
        """
        dec = self._decision_values(X)
        if dec.shape[1] == 1:  # binary SVC (libsvm votes classes_[0] only for a strictly
            # positive internal value, reported negated) or one-vs-rest over two classes
            return self.classes_[(dec[:, 0] >= 0 if self.kind_ == "binary" else dec[:, 0] > 0) * 1]
        if self.kind_ == "ovr":
            return self.classes_[np.argmax(dec, axis=1)]
        if self._shape() == "ovo" and self.break_ties:
            raise ValueError("'break_ties' must be False when decision_function_shape is 'ovo'")
        if self.break_ties:
            return self.classes_[np.argmax(self._ovr_shape(dec), axis=1)]
        # libsvm's votes alone: a value of 0 votes for the second class of its pair.
        votes = _ovr_decision_function(dec <= 0, np.zeros_like(dec), len(self.classes_))
        return self.classes_[np.argmax(votes, axis=1)]


@fill_doc
class ReducedSVR(RegressorMixin, _ReducedMachine):
    r"""A kernel support vector regressor on a reduced set.

    Predicts

    .. math:: f(x) = \sum_{j=1}^p \beta_j k(z_j, x) + b,

    the SVR's weight vector :math:`\Psi` replaced by
    :math:`\Psi' = \sum_j \beta_j \phi(z_j)` minimising
    :math:`\rho = \|\Psi - \Psi'\|^2` (see :func:`reduce_svm`).

    Parameters
    ----------
    estimator : SVR, default=None
        The machine to fit (a clone) and reduce; None is ``sklearn.svm.SVR()``.
    %(params)s

    Attributes
    ----------
    intercept_ : ndarray of shape (1,)
        The threshold b (m = 1).
    %(svm_attributes)s
    %(attributes)s
    epsilon_ : float
        The original's :math:`\varepsilon`.

    References
    ----------
    Schölkopf et al. (1999), Sec. V, Sec. VI-B. Burges (1996).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.svm import SVR
    >>> from preimage import ReducedSVR
    >>> X = np.linspace(0, 3, 40)[:, None]
    >>> y = np.sin(X).ravel()
    >>> small = ReducedSVR(SVR(gamma=1.0, epsilon=0.01), 3, random_state=0).fit(X, y)
    >>> small.n_vectors_, small.original_n_support_, bool(small.score(X, y) > 0.95)
    (3, 10, True)
    """

    _parameter_constraints: dict = {
        **BaseReducedExpansion._parameter_constraints,
        "estimator": [HasMethods(["fit", "predict"]), None],
    }

    _default = SVR
    _model_state = _ReducedMachine._model_state | {"epsilon_": "float"}

    def _set_machines(self, machines):
        self.epsilon_ = machines.epsilon

    def _check_restored(self):
        if self.dual_coef_.shape[0] != 1:
            raise ValueError("'reduced_set_.coef' must have one row")

    def predict(self, X: MatrixLike) -> np.ndarray:
        r"""Predict the targets.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The points (sparse input is made dense).

        Returns
        -------
        ndarray of shape (n_samples,)
            The predictions :math:`f(x) = \sum_j \beta_j k(z_j, x) + b`.
        """
        return self._decision_values(X)[:, 0]
