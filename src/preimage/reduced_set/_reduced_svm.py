"""Reduced-set support vector machines (Schölkopf et al. 1999, Sections V–VI).

A trained kernel SVM decides with ``g(x) + b``, ``g(x) = ⟨Ψ, φ(x)⟩`` and
``Ψ = Σ_i α_i φ(x_i)`` summed over its N support vectors. The reduced set
replaces Ψ by ``Ψ' = Σ_j β_j φ(z_j)`` with p ≪ N vectors, so that a decision
costs p kernel values instead of N. :class:`ReducedSVC` and
:class:`ReducedSVR` fit a scikit-learn ``SVC``/``SVR`` (or are made from a
fitted one by :func:`reduce_svm`), read its expansions
(:func:`preimage.reduced_set.svm_expansion`), reduce them
(:func:`preimage.reduced_set.reduce_expansion`), recompute the thresholds on
the training set as the paper does, and predict with the original's
conventions. The machines of a multiclass model share one reduced set, as
they share the original's support vectors, unless each is asked for its own
(``shared=False``), which is refused when their vectors would add up to no
fewer than the original's.
"""

from typing import Any, Self
import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, _fit_context, clone
from sklearn.svm import SVC, SVR
from sklearn.utils._param_validation import HasMethods, StrOptions

from preimage._utils.typing import ArrayLike, MatrixLike, RandomStateLike
from preimage._utils.validation import check_array_2d, validate_estimator_input
from preimage.reduced_set import ovo_to_ovr_decision, ovo_votes, svm_expansion
from preimage.reduced_set._estimator_base import BaseReducedExpansion, dense_input

__all__ = ["reduce_svm", "ReducedSVC", "ReducedSVR"]


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
        y = check_array_2d(y.reshape(-1, 1), "y").ravel().astype(float)
    else:
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
        y = np.searchsorted(machines.classes, y)
    return X, y


def _check_machine_count(n_vectors, shared, machines):
    """Refuse a per-machine reduction that would carry no fewer vectors than
    the original has support vectors.

    With ``shared=False`` each of the m machines is reduced on its own and
    their vectors are pooled: up to m × `n_vectors` kernel values per
    decision (selected points kept by several machines count once), against
    the N of the original, whose machines share their support vectors. At
    m × `n_vectors` ≥ N the "reduced" model is no smaller and no faster.
    """
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
    :math:`\langle \Psi'_k, \phi(x) \rangle + b_k` (Schölkopf et al. 1999,
    Sec. V; :math:`|\langle \Psi_k - \Psi'_k, \phi(x) \rangle| \le
    \sqrt{\rho_k \, k(x, x)}` bounds the change of every decision value).

    Parameters
    ----------
    model : SVC, SVR or OneVsRestClassifier of binary SVCs, fitted
        With kernel ``'rbf'``, ``'poly'``, ``'sigmoid'`` or ``'linear'``. A
        multiclass SVC is one-vs-one: its :math:`c(c - 1)/2` pairwise machines
        share one set of support vectors; one-vs-rest machines are put over
        the union of theirs.
    n_vectors : int
        Reduced-set size p: in total with ``shared=True`` (the default), the
        kernel values every decision costs; per machine with
        ``shared=False``, which then carries up to ``m * n_vectors`` vectors.
    method : {"construction", "selection_kpca", "selection_l1"}, default="construction"
        See :func:`preimage.reduced_set.reduce_expansion`.
    X, y : array-like of shape (n_samples, n_features) and (n_samples,), optional
        The training set. When given, every threshold is recomputed on it
        (Sec. VI-B: "in all RS systems, the optimal SV threshold was
        recomputed on the training set"): a classifier machine takes the b
        with the fewest training errors among its own samples (a one-vs-one
        pair those of its two classes, a one-vs-rest machine all of them; see
        :func:`preimage.reduced_set.classification_threshold`), an SVR the b
        with the least :math:`\varepsilon`-insensitive loss
        (:func:`preimage.reduced_set.epsilon_insensitive_threshold`). Without
        them the original thresholds are kept unchanged.
    shared : bool, default=True
        True: one set of `n_vectors` vectors serves all m machines of a
        multiclass model (the :math:`c(c - 1)/2` pairs of a one-vs-one SVC,
        the c machines of a one-vs-rest one), as the original's machines share
        its support vectors (the paper's shared :math:`\ell_1` penalty for
        one-vs-rest digit recognisers); a decision costs `n_vectors` kernel
        values. False: each machine is reduced to `n_vectors` vectors on its
        own and the vectors are pooled, ``m * n_vectors`` kernel values per
        decision; refused when that is at least the original's number of
        support vectors. A binary machine or an SVR is one machine, for which
        both are the same.
    **options
        Passed to the method (``random_state``, ``n_starts``, ``phase2``, ...).

    Returns
    -------
    ReducedSVC or ReducedSVR
        Fitted, with the original's ``decision_function``/``predict``
        conventions, and parameters that say how it was made: ``estimator``
        None (it was made from `model`, fitted already, which it does not
        keep), `n_vectors`, `method`, `shared`, the `options` as
        ``method_params`` but for ``random_state``, and, for a classifier,
        the model's ``decision_function_shape`` and ``break_ties``. Its
        ``n_vectors_`` is the number of reduced-set vectors in all machines
        (the kernel values per decision), ``original_n_support_`` the
        original's.

    Raises
    ------
    ValueError
        With ``shared=False``, when m machines times `n_vectors` is at least
        the number of support vectors of `model`: the message gives the
        numbers and the largest `n_vectors` that is smaller.

    References
    ----------
    B. Schölkopf, S. Mika, C. J. C. Burges, P. Knirsch, K.-R. Müller, G.
    Rätsch, A. J. Smola. Input space versus feature space in kernel-based
    methods. IEEE Trans. Neural Networks 10(5), 1999 (Sec. V: reduced set
    methods; Sec. VI-B: speeding up SV decision rules, thresholds recomputed
    on the training set).

    C. J. C. Burges. Simplified support vector decision rules. Proc. 13th
    International Conference on Machine Learning (ICML), 1996.

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

    Three classes: three one-vs-one machines share 6 vectors.

    >>> from sklearn.datasets import make_blobs
    >>> X, y = make_blobs(90, centers=3, random_state=0)
    >>> svc = SVC(C=10, gamma=0.5).fit(X, y)
    >>> small = reduce_svm(svc, 6, X=X, y=y, random_state=0)
    >>> small.dual_coef_.shape, small.n_vectors_ < small.original_n_support_
    ((3, 6), True)
    """
    machines = svm_expansion(model)
    random_state = options.pop("random_state", None)
    params = dict(
        n_vectors=n_vectors,
        method=method,
        shared=shared,
        method_params=options or None,
        random_state=random_state,
    )
    if machines.kind == "regression":
        est = ReducedSVR(**params)
    else:
        est = ReducedSVC(
            **params,
            decision_function_shape=machines.decision_function_shape,
            break_ties=machines.break_ties,
        )
    est._validate_params()
    return est._reduce_machines(machines, model, X, y)


class _ReducedMachine(BaseReducedExpansion):
    """What reduced classifiers and regressors share: fit a clone of the
    machine and reduce it, or reduce a fitted one."""

    _maker = "reduce_svm"
    _fit_call = "fit(X, y)"

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X: MatrixLike, y: ArrayLike) -> Self:
        """Fit a clone of `estimator` on (X, y) and reduce it.

        The thresholds of the reduced machines are recomputed on (X, y).

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
        regression = isinstance(self, RegressorMixin)
        X, y = validate_estimator_input(
            self, dense_input(X), reset=True, y=y, y_numeric=regression
        )
        model = clone(self._default() if self.estimator is None else self.estimator)
        machines = svm_expansion(model.fit(X, y), "estimator")
        if (machines.kind == "regression") != regression:
            raise ValueError(
                f"'estimator' must be {'an SVR' if regression else 'a classifier'} "
                f"for {type(self).__name__}, got {type(model).__name__}"
            )
        return self._reduce_machines(machines, model, X, y)

    def _reduce_machines(self, machines, model, X, y):
        """Reduce the machines of `model` and recompute their thresholds on
        (X, y) when given."""
        X, y = _check_training_data(X, y, machines)
        _check_machine_count(self.n_vectors, self.shared, machines)
        reduced = self._reduce(machines.expansion)
        intercept = machines.intercept.copy()
        if X is not None:
            intercept = machines.thresholds(reduced.evaluate(X), y)
        self._set_reduced(reduced, intercept, machines.expansion, model)
        self.original_intercept_ = machines.intercept.copy()
        self.threshold_recomputed_ = X is not None
        self._set_machines(machines)
        return self


class ReducedSVC(ClassifierMixin, _ReducedMachine):
    r"""A kernel SVM classifier on a reduced set.

    Decides like the SVM it came from, with

    .. math:: f_k(x) = \sum_{j=1}^p \beta_{kj} k(z_j, x) + b_k
              = \langle \Psi'_k, \phi(x) \rangle + b_k

    for each machine k, evaluated from one kernel block :math:`k(X, Z)` with
    the p reduced vectors instead of the N support vectors: the weight vector
    :math:`\Psi_k` of each machine is replaced by :math:`\Psi'_k` minimising
    :math:`\rho_k = \|\Psi_k - \Psi'_k\|^2` (Schölkopf et al. 1999, Sec. V).
    :meth:`fit` fits a clone of `estimator` and reduces it;
    :func:`reduce_svm` makes one from an SVM fitted already (then
    `estimator` is None).

    Parameters
    ----------
    estimator : SVC or OneVsRestClassifier of binary SVCs, default=None
        The machine to fit and reduce, with kernel ``'rbf'``, ``'poly'``,
        ``'sigmoid'`` or ``'linear'``; None is ``sklearn.svm.SVC()``. It is
        cloned and not kept after the reduction.
    n_vectors : int, default=10
        Reduced-set size p: in total with ``shared=True`` (the default), the
        kernel values every decision costs; per machine with
        ``shared=False``, which then carries up to ``m * n_vectors`` vectors.
    method : {"construction", "selection_kpca", "selection_l1"}, default="construction"
        The reduced-set method (:data:`preimage.reduced_set.REDUCED_SET_METHODS`).
    shared : bool, default=True
        One reduced set for all m machines of a multiclass model, as the
        original's machines share its support vectors; or one per machine,
        pooled, refused at :meth:`fit` when ``m * n_vectors`` is at least the
        original's number of support vectors (see :func:`reduce_svm`). A
        binary machine is one machine, for which both are the same.
    method_params : dict, default=None
        Options of the method (``n_starts``, ``phase2``, ``penalty``, ...).
    random_state : None, int or Generator, default=None
        Random starts of the construction (the selections are deterministic).
    decision_function_shape : {"ovr", "ovo"}, default="ovr"
        For a one-vs-one multiclass SVC, as in ``SVC``: ``"ovo"`` returns the
        pairwise values, of shape (n, c(c - 1)/2), ``"ovr"`` votes plus
        confidence, of shape (n, c).
    break_ties : bool, default=False
        As in ``SVC``: with ``"ovr"`` and more than two classes, predict the
        argmax of :meth:`decision_function` instead of the vote winner.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    vectors_ : ndarray of shape (p, n_features)
        The reduced-set vectors :math:`z_j`.
    dual_coef_ : ndarray of shape (n_machines, p)
        The coefficients :math:`\beta_{kj}` of machine k (binary: 1 machine,
        positive values mean ``classes_[1]``; one-vs-one: pairs (0, 1), (0, 2),
        ..., (1, 2), ..., positive values vote for the first; one-vs-rest: one
        per class).
    intercept_ : ndarray of shape (n_machines,)
        The thresholds :math:`b_k` (recomputed on the training set when
        given).
    original_intercept_ : ndarray of shape (n_machines,)
        The original machines' thresholds.
    threshold_recomputed_ : bool
        Whether the thresholds were recomputed on a training set.
    reduced_set_ : ReducedSetResult
        The reduction, with its history.
    approximation_error_ : ndarray of shape (n_machines,)
        :math:`\rho_k = \|\Psi_k - \Psi'_k\|^2`.
    relative_error_ : ndarray of shape (n_machines,)
        :math:`\rho_k / \|\Psi_k\|^2`.
    n_vectors_ : int
        p, the reduced-set vectors in all machines: the kernel values each
        decision costs (the original's cost is `original_n_support_`).
    original_n_support_ : int
        The number of support vectors of the original (their union for
        one-vs-rest).
    kind_ : {"binary", "ovo", "ovr"}
        The kind of the original: binary, one-vs-one or one-vs-rest.
    pairs_ : ndarray of shape (n_machines, 2)
        The class indices (positive, negative) of each machine; -1 stands
        for "the rest" (one-vs-rest).
    kernel_ : Kernel
        The kernel.
    n_features_in_ : int
        The number of features seen during fit.

    References
    ----------
    B. Schölkopf, S. Mika, C. J. C. Burges, P. Knirsch, K.-R. Müller, G.
    Rätsch, A. J. Smola. Input space versus feature space in kernel-based
    methods. IEEE Trans. Neural Networks 10(5), 1999 (Sec. V: reduced set
    methods; Sec. VI-B: speeding up SV decision rules, thresholds recomputed
    on the training set).

    C. J. C. Burges. Simplified support vector decision rules. Proc. 13th
    International Conference on Machine Learning (ICML), 1996.

    Examples
    --------
    Three classes, one-vs-one: three pair machines share 6 vectors, or have
    2 each with ``shared=False``.

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
        super().__init__(
            estimator,
            n_vectors,
            method=method,
            shared=shared,
            method_params=method_params,
            random_state=random_state,
        )
        self.decision_function_shape = decision_function_shape
        self.break_ties = break_ties

    _default = SVC

    def _set_machines(self, machines):
        self.classes_ = machines.classes
        self.kind_ = machines.kind
        self.pairs_ = machines.pairs

    def _check_shape(self):
        if self.decision_function_shape not in ("ovr", "ovo"):
            raise ValueError(
                f"'decision_function_shape' must be 'ovr' or 'ovo', got "
                f"{self.decision_function_shape!r}"
            )

    def decision_function(self, X: MatrixLike) -> np.ndarray:
        """Return the decision values, with the original's shape conventions.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The points (sparse input is made dense).

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes) or (n_samples, n_pairs)
            Binary (SVC or one-vs-rest of two classes): (n_samples,), positive
            for ``classes_[1]``. One-vs-one SVC: (n_samples, n_classes) with
            ``decision_function_shape='ovr'``, (n_samples, n_pairs) with
            ``'ovo'``. One-vs-rest: (n_samples, n_classes).
        """
        dec = self._decision_values(X)
        if dec.shape[1] == 1:
            return dec[:, 0]
        if self.kind_ == "ovo":
            self._check_shape()
            if self.decision_function_shape == "ovr":
                return ovo_to_ovr_decision(dec, len(self.classes_))
        return dec

    def predict(self, X: MatrixLike) -> np.ndarray:
        """Predict class labels.

        The sign of the decision value (binary), libsvm's votes with ties to
        the lowest class index (one-vs-one), or the largest value
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
        if self.kind_ == "binary":
            # libsvm's vote goes to classes_[0] only for a strictly positive
            # internal value, which scikit-learn reports negated.
            return self.classes_[(dec[:, 0] >= 0).astype(int)]
        if dec.shape[1] == 1:  # one-vs-rest over two classes
            return self.classes_[(dec[:, 0] > 0).astype(int)]
        if self.kind_ == "ovr":
            return self.classes_[np.argmax(dec, axis=1)]
        self._check_shape()
        if self.break_ties and self.decision_function_shape == "ovr":
            return self.classes_[np.argmax(ovo_to_ovr_decision(dec, len(self.classes_)), axis=1)]
        if self.break_ties:
            raise ValueError("'break_ties' must be False when decision_function_shape is 'ovo'")
        return self.classes_[np.argmax(ovo_votes(dec, len(self.classes_)), axis=1)]


class ReducedSVR(RegressorMixin, _ReducedMachine):
    r"""A kernel support vector regressor on a reduced set.

    Predicts

    .. math:: f(x) = \sum_{j=1}^p \beta_j k(z_j, x) + b,

    the SVR's weight vector :math:`\Psi` replaced by
    :math:`\Psi' = \sum_j \beta_j \phi(z_j)` minimising
    :math:`\rho = \|\Psi - \Psi'\|^2` (Schölkopf et al. 1999, Sec. V).
    :meth:`fit` fits a clone of `estimator` and reduces it;
    :func:`reduce_svm` makes one from an SVR fitted already (then
    `estimator` is None). The threshold b is recomputed on the training set
    to minimise the :math:`\varepsilon`-insensitive loss
    (:func:`preimage.reduced_set.epsilon_insensitive_threshold`).

    Parameters
    ----------
    estimator : SVR, default=None
        The machine to fit and reduce, with kernel ``'rbf'``, ``'poly'``,
        ``'sigmoid'`` or ``'linear'``; None is ``sklearn.svm.SVR()``. It is
        cloned and not kept after the reduction.
    n_vectors : int, default=10
        Reduced-set size p (an SVR is one machine, so `n_vectors` is p
        whatever `shared`).
    method : {"construction", "selection_kpca", "selection_l1"}, default="construction"
        The reduced-set method (:data:`preimage.reduced_set.REDUCED_SET_METHODS`).
    shared : bool, default=True
        As in :class:`ReducedSVC`; the same for the one machine of an SVR.
    method_params : dict, default=None
        Options of the method (``n_starts``, ``phase2``, ``penalty``, ...).
    random_state : None, int or Generator, default=None
        Random starts of the construction (the selections are deterministic).

    Attributes
    ----------
    vectors_ : ndarray of shape (p, n_features)
        The reduced-set vectors :math:`z_j`.
    dual_coef_ : ndarray of shape (1, p)
        The coefficients :math:`\beta_j`.
    intercept_ : ndarray of shape (1,)
        The threshold b (recomputed on the training set when given).
    original_intercept_ : ndarray of shape (1,)
        The original SVR's threshold.
    threshold_recomputed_ : bool
        Whether the threshold was recomputed on a training set.
    reduced_set_ : ReducedSetResult
        The reduction, with its history.
    approximation_error_ : ndarray of shape (1,)
        :math:`\rho = \|\Psi - \Psi'\|^2`.
    relative_error_ : ndarray of shape (1,)
        :math:`\rho / \|\Psi\|^2`.
    n_vectors_ : int
        p, the kernel values each prediction costs.
    original_n_support_ : int
        The number of support vectors of the original.
    kernel_ : Kernel
        The kernel.
    n_features_in_ : int
        The number of features seen during fit.
    epsilon_ : float
        The original's :math:`\varepsilon`.

    References
    ----------
    B. Schölkopf, S. Mika, C. J. C. Burges, P. Knirsch, K.-R. Müller, G.
    Rätsch, A. J. Smola. Input space versus feature space in kernel-based
    methods. IEEE Trans. Neural Networks 10(5), 1999 (Sec. V: reduced set
    methods; Sec. VI-B: speeding up SV decision rules, thresholds recomputed
    on the training set).

    C. J. C. Burges. Simplified support vector decision rules. Proc. 13th
    International Conference on Machine Learning (ICML), 1996.

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

    def _set_machines(self, machines):
        self.epsilon_ = machines.epsilon

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
