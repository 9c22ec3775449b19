"""What the reduced-set estimators share: parameters, state, the kernel block they decide with."""

from __future__ import annotations

from numbers import Integral
from typing import Any, ClassVar

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from preimage._utils.typing import RandomStateLike
from preimage._utils.validation import check_overflow, validate_estimator_input
from preimage._utils.warnings import warn
from preimage.exceptions import NumericalWarning
from preimage.kernels import SigmoidKernel
from preimage.reduced_set import REDUCED_SET_METHODS, reduce_expansion
from preimage.reduced_set._result import ReducedSetResult

DOCS = {
    "method": r"""method : {"construction", "selection_kpca", "selection_l1"}, default="construction"
        The reduced-set method (:data:`preimage.reduced_set.REDUCED_SET_METHODS`).""",
    "params": r"""n_vectors : int, default=10
        Reduced-set size p: in all with `shared`, per machine or component otherwise.
    method : {"construction", "selection_kpca", "selection_l1"}, default="construction"
        The reduced-set method (:data:`preimage.reduced_set.REDUCED_SET_METHODS`).
    shared : bool, default=True
        One reduced set for all machines or components, or one each, pooled.
    method_params : dict, default=None
        Options of the method (``n_starts``, ``phase2``, ``penalty``, ...).
    random_state : None, int or Generator, default=None
        Random starts of the construction (the selections are deterministic).""",
    "attributes": r"""dual_coef_ : ndarray of shape (m, p)
        The coefficients :math:`\beta_{kj}` of the m machines or components.
    vectors_ : ndarray of shape (p, n_features)
        The reduced-set vectors :math:`z_j`.
    reduced_set_ : ReducedSetResult
        The reduction, with its history.
    approximation_error_ : ndarray of shape (m,)
        :math:`\rho_k = \|\Psi_k - \Psi'_k\|^2`, one per machine or component.
    relative_error_ : ndarray of shape (m,)
        :math:`\rho_k / \|\Psi_k\|^2`.
    n_vectors_ : int
        p, the kernel values each decision or coordinate costs.
    original_n_support_ : int
        The points the original is over (support vectors, or a kernel PCA's).
    kernel_ : Kernel
        The kernel.
    n_features_in_ : int
        The number of features seen during fit.""",
    "svm_attributes": r"""original_intercept_ : ndarray of shape (m,)
        The original machines' thresholds.
    threshold_recomputed_ : bool
        Whether the thresholds were recomputed on a training set.""",
}


def fill_doc(obj):
    """Fill the ``%(name)s`` pieces of `obj`'s docstring from :data:`DOCS`."""
    obj.__doc__ = obj.__doc__ % DOCS
    return obj


def dense_input(X):
    """Sparse input as a dense array (the kernels work on dense points)."""
    return X.toarray() if sp.issparse(X) else X


class BaseReducedExpansion(BaseEstimator):
    """Base class of the reduced-set estimators; :attr:`_maker` names the
    function that makes one from a fitted model."""

    _parameter_constraints: dict = {
        "n_vectors": [Interval(Integral, 1, None, closed="left")],
        "method": [StrOptions(set(REDUCED_SET_METHODS))],
        "shared": ["boolean"],
        "method_params": [dict, None],
        "random_state": ["random_state", np.random.Generator],
    }

    _fit_call = "fit(X)"

    def __init__(
        self,
        estimator: BaseEstimator | None = None,
        n_vectors: int = 10,
        *,
        method: str = "construction",
        shared: bool = True,
        method_params: dict[str, Any] | None = None,
        random_state: RandomStateLike = None,
    ) -> None:
        self.estimator, self.n_vectors = estimator, n_vectors
        self.method, self.shared = method, shared
        self.method_params, self.random_state = method_params, random_state

    @classmethod
    def _made(cls, options, **params):
        """An estimator with these parameters, validated, for a fitted model."""
        est = cls(random_state=options.pop("random_state", None), **params)
        est.method_params = options or None
        est._validate_params()
        return est

    def _reduce(self, expansion):
        """The reduced set of `expansion` with this estimator's parameters."""
        options = dict(self.method_params or {})
        for key in filter(options.__contains__, ("random_state", "shared")):
            raise ValueError(
                f"'method_params' must not hold {key!r}; it is a "
                f"parameter of {type(self).__name__}"
            )
        options.update(shared=self.shared, random_state=self.random_state)
        if isinstance(expansion.kernel, SigmoidKernel):  # not positive definite
            warn(
                "the sigmoid kernel is not positive definite, so the reduced-set error "
                "ρ = ‖Ψ − Ψ'‖² is not a squared distance and its minimisation need not "
                "approximate the machine; check the reduced model's accuracy",
                NumericalWarning,
            )
        return reduce_expansion(expansion, self.n_vectors, self.method, **options)

    def _set_reduced(self, reduced, intercept, expansion, model):
        """Keep the reduction of `expansion` with the constants `intercept`."""
        self._keep(reduced, intercept)
        self.original_n_support_, self.n_features_in_ = expansion.n_support, expansion.n_features
        if hasattr(model, "feature_names_in_"):
            self.feature_names_in_ = model.feature_names_in_

    def _keep(self, reduced, intercept):
        self.reduced_set_, self.kernel_, self.vectors_ = reduced, reduced.kernel, reduced.vectors
        self.dual_coef_, self.intercept_ = reduced.coef, np.asarray(intercept, dtype=float)
        self.approximation_error_, self.relative_error_ = reduced.error, reduced.relative_error
        self.n_vectors_ = reduced.n_vectors

    #: What a model file keeps of a fitted reduced estimator (see :mod:`preimage.io`).
    _model_state: ClassVar[dict[str, Any]] = {
        "n_features_in_": "int",
        "feature_names_in_": "U[d]?",
        "reduced_set_": {
            "vectors": "f[p,d]",
            "coef": "f[m,p]",
            "kernel": "kernel",
            "error": "f[m]",
            "norm2": "f[m]",
            "method": "str",
            "support_indices": "i[p]?",
            "history": "dict",
            "info": "dict",
        },
        "intercept_": "f[m]",
        "original_n_support_": "int",
    }

    def _restore(self, state):
        """Complete the fitted `state` a model file holds, as :meth:`fit` would."""
        self._keep(ReducedSetResult(**state["reduced_set_"]), state["intercept_"])
        for name in self._model_state.keys() - {"reduced_set_", "intercept_"}:
            setattr(self, name, state.get(name))
        if self.feature_names_in_ is None:
            del self.feature_names_in_
        if self.vectors_.shape[1] != self.n_features_in_:
            raise ValueError("'reduced_set_.vectors' must have n_features_in_ columns")
        self._check_restored()

    def _check_restored(self):
        """Refuse a restored state that :meth:`fit` could not have made."""

    def _decision_values(self, X):
        """``f_k(x) = Σ_j β_kj k(z_j, x) + b_k``, shape (n, m)."""
        fix = f"call {self._fit_call}, or make one from a fitted model with {self._maker}()"
        check_is_fitted(self, "vectors_", msg="this %(name)s is not fitted; " + fix)
        X = validate_estimator_input(self, dense_input(X), reset=False)
        K = self.kernel_.block(X, self.vectors_, check_input=False, names="'X'")
        with np.errstate(over="ignore", invalid="ignore"):  # refused just below
            values = np.asarray(K @ self.dual_coef_.T + self.intercept_, dtype=np.float64)
        hint = "rescale 'X' (the kernel values are too large for the coefficients)"
        return check_overflow(values, "the decision values", "'X'", hint)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True  # made dense (the kernels' points are)
        return tags
