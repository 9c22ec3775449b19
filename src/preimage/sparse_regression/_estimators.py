"""Regressors of Vijayakumar and Wu (1999): the RKHS Wiener solution and sequential SVR."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass
from numbers import Integral, Real
from typing import Any, ClassVar, Self

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin, _fit_context
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from preimage._utils.memory import check_dense
from preimage._utils.typing import ArrayLike
from preimage._utils.validation import (
    check_overflow,
    check_real_array,
    checked_gram,
    validate_estimator_input,
)
from preimage.kernels import Kernel, make_kernel
from preimage.kpca._constraints import KERNEL_CONSTRAINTS
from preimage.sparse_regression._docs import fill_doc
from preimage.sparse_regression._sequential import sequential_svr
from preimage.sparse_regression._wiener import (
    DEFAULT_RTOL,
    WienerState,
    wiener_coefficients,
    wiener_update,
)

#: What to do when a training matrix would exceed the memory budget.
_HINT = "fit on fewer samples"


@dataclass(eq=False, repr=False)
class _KernelRegressor(RegressorMixin, BaseEstimator):
    """The kernel parameters, their resolution and ``f(x) = Σ_i a_i k(x_i, x) + b``."""

    kernel: str | Kernel | Callable[..., float] = "rbf"
    _: KW_ONLY
    gamma: float | None = None
    degree: int = 3
    coef0: float = 1
    kernel_params: dict[str, Any] | None = None

    def _resolve_kernel(self, X, gamma=None):
        params = {k: getattr(self, k) for k in ("gamma", "degree", "coef0", "kernel_params")}
        params["gamma"] = self.gamma if gamma is None else gamma
        self.kernel_ = make_kernel(self.kernel, X=X, **params)
        self.gamma_ = getattr(self.kernel_, "gamma", None)

    #: What a model file keeps of the fitted estimator (see :mod:`preimage.io`).
    _model_state: ClassVar[dict[str, Any]] = {
        "n_features_in_": "int",
        "feature_names_in_": "U[d]?",
        "gamma_": "float?",
        "support_": "i[s]",
        "dual_coef_": "f[1,s]",
    }

    def _restore(self, state):
        """Complete the fitted `state` a model file holds, as :meth:`fit` would."""
        for name in self._model_state:
            if state.get(name) is not None:
                setattr(self, name, state[name])
        X = state.get("X_fit_", state.get("support_vectors_"))
        if X.shape[1] != self.n_features_in_:
            raise ValueError("the training points must have n_features_in_ columns")
        if self.gamma is not None and state.get("gamma_") != self.gamma:
            raise ValueError("'gamma_' must be the 'gamma' given")
        self._resolve_kernel(X, state.get("gamma_") if isinstance(self.kernel, str) else None)
        self.n_vectors_ = int(self.support_.size)

    def _validate(self, X: Any, y: Any, reset: bool) -> tuple[np.ndarray, np.ndarray]:
        """X and y checked by scikit-learn's ``validate_data``; y finite float64."""
        X, y = validate_estimator_input(
            self, X, y=y, reset=reset, dtype=np.float64, y_numeric=True
        )
        return X, check_real_array(y, "y")  # integer and boolean targets as float64

    def predict(self, X: ArrayLike) -> np.ndarray:
        r"""Predict :math:`f(x)` for the rows of X.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples,)
            The values of the fitted expansion,
            :math:`f(x) = \sum_i a_i k(x_i, x) + b` over the support vectors.
        """
        check_is_fitted(self)
        X = validate_estimator_input(self, X, reset=False, dtype=np.float64)
        b = getattr(self, "intercept_", 0.0)  # none for the Wiener solution
        if self.support_vectors_.shape[0] == 0:
            return np.full(X.shape[0], b)  # type: ignore[union-attr]  # validated
        with np.errstate(over="ignore", invalid="ignore"):
            f = self.kernel_(X, self.support_vectors_) @ self.dual_coef_[0] + b
        # kernel values too large for the fitted coefficients
        return check_overflow(f, "the predictions", "'X'", "rescale 'X'")

    def _set_coef(self, X, coef):
        """The expansion over the samples of X with non-zero coefficients."""
        self.support_ = np.flatnonzero(coef)
        self.support_vectors_ = X[self.support_]
        self.dual_coef_ = coef[self.support_][None, :]
        self.n_vectors_ = int(self.support_.size)


@fill_doc
@dataclass(eq=False, repr=False)
class WienerRegressor(_KernelRegressor):
    r"""Regression by the RKHS Wiener solution of Vijayakumar and Wu.

    Theorem 1: the projection of :math:`f` onto :math:`\operatorname{span}\{K(\cdot, x_i)\}`,

    .. math:: f_0 = \sum_{i=1}^M a_i K(\cdot, x_i), \qquad a = K^+ y.

    Parameters
    ----------
    %(kernel)s
    rtol : float, default=1e-9
        Relative rank cutoff (eigenvalues of :math:`K` in :meth:`fit`,
        :math:`\|\phi_{mc}\|^2 / k(x, x)` in :meth:`partial_fit`).

    Attributes
    ----------
    dual_coef_ : ndarray of shape (1, ``n_vectors_``)
        The non-zero :math:`a_i` (``f(x) = dual_coef_ @ k(support_vectors_, x)``);
        :math:`a` is zero on every other sample.
    X_fit_ : ndarray of shape (n_samples, n_features)
        The training inputs.
    y_fit_ : ndarray of shape (n_samples,)
        The training targets.
    %(fitted)s

    References
    ----------
    Vijayakumar and Wu (1999), Sec. 4.2, Theorems 1 and 2; Sec. 5, eq. 17.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage import WienerRegressor
    >>> x = np.linspace(0, 2 * np.pi, 12, endpoint=False)[:, None]
    >>> y = 1 + np.sin(x[:, 0]) - np.cos(3 * x[:, 0])
    >>> reg = WienerRegressor(kernel="sine", kernel_params={"order": 5}).fit(x, y)
    >>> bool(np.allclose(reg.predict([[0.3]]), 1 + np.sin(0.3) - np.cos(0.9)))
    True
    """

    _parameter_constraints = {**KERNEL_CONSTRAINTS, "rtol": [Interval(Real, 0, 1, closed="left")]}
    _: KW_ONLY
    rtol: float = DEFAULT_RTOL

    _model_state = _KernelRegressor._model_state | {
        "X_fit_": "f[n,d]",
        "y_fit_": "f[n]",
        "_state": {"?": "", "n_samples": "int", "basis": "i[r]", "cholesky": "f[r,r]"}
        | {"r_factor": "f[r,r]", "qty": "f[r]"},
    }

    def _restore(self, state):
        super()._restore(state)
        self._state = None if state["_state"] is None else WienerState(**state["_state"])
        n, support = self.X_fit_.shape[0], self.support_
        if support.size and (
            support.min() < 0 or support.max() >= n or (np.diff(support) <= 0).any()
        ):
            raise ValueError(f"'support_' must hold increasing indices in [0, {n})")
        if self._state is not None and self._state.n_samples != n:
            raise ValueError("'_state' must hold the n_samples of 'X_fit_'")
        self.support_vectors_ = self.X_fit_[support]

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X: ArrayLike, y: ArrayLike) -> Self:
        r"""Fit the batch solution :math:`a = K^+ y` (Theorem 1).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training inputs.
        y : array-like of shape (n_samples,)
            Training targets.

        Returns
        -------
        WienerRegressor
            The fitted estimator.
        """
        X, y = self._validate(X, y, reset=True)
        self._resolve_kernel(X)
        self.X_fit_, self.y_fit_, self._state = X, y, None  # partial_fit replays X_fit_
        # K, and the eigenvectors and pseudo-inverse of pinvh.
        what = "Gram matrix K (with its eigenvectors and pseudo-inverse)"
        K = checked_gram(self.kernel_, X, what, copies=3, hint=_HINT)
        self._set_coef(X, wiener_coefficients(K, y, rtol=self.rtol))
        return self

    def partial_fit(self, X: ArrayLike, y: ArrayLike) -> Self:
        """Add the rows of X one at a time by the exact update of Theorem 2.

        After :meth:`fit` it continues from the samples fit saw.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The new inputs.
        y : array-like of shape (n_samples,)
            Their targets.

        Returns
        -------
        WienerRegressor
            The updated estimator.
        """
        first = not hasattr(self, "kernel_")
        if first:
            self._validate_params()
        X, y = self._validate(X, y, reset=first)
        # The Cholesky factor L and the QR factor R grow to n x n.
        n = X.shape[0] + (0 if first else self.X_fit_.shape[0])
        what = f"the {n} x {n} Cholesky and QR factors"
        check_dense((n, n), np.float64, what, hint=_HINT, copies=2)
        if first:
            self._resolve_kernel(X)
            self.X_fit_, self.y_fit_, self._state = X[:0], y[:0], None
        state = WienerState() if self._state is None else self._state  # None: replay X_fit_
        X, y = np.concatenate([self.X_fit_, X]), np.concatenate([self.y_fit_, y])
        self._state = self._add(state, X, y)
        self.X_fit_, self.y_fit_ = X, y
        self._set_coef(X, self._state.coef())
        return self

    def _add(self, state, X, y):
        """`state` with the samples of X after its first ``n_samples`` added one at a time."""
        start = state.n_samples
        for j, kappa in enumerate(self.kernel_.diag(X[start:]), start):
            k = self.kernel_.block(X[state.basis], X[j : j + 1], check_input=False)[:, 0]
            state = wiener_update(state, k, kappa, y[j], rtol=self.rtol)
        return state


@fill_doc
@dataclass(eq=False, repr=False)
class SequentialSVR(_KernelRegressor):
    r"""Sparse SV regression by Vijayakumar and Wu's sequential algorithm (Fig. 2).

    .. math:: f(x) = \sum_i (\alpha^*_i - \alpha_i) \left(K(x_i, x) + \lambda^2\right)

    (eq. 22), by :func:`~preimage.sparse_regression.sequential_svr`.

    Parameters
    ----------
    %(kernel)s
    epsilon : float, default=0.1
        Half-width of the :math:`\varepsilon`-insensitive tube: larger is sparser.
    %(svr)s

    Attributes
    ----------
    alpha_, alpha_star_, objective_, n_iter_, converged_, learning_rate_
        The fields of :class:`~preimage.sparse_regression.SequentialSVRResult`.
    dual_coef_ : ndarray of shape (1, ``n_vectors_``)
        :math:`\alpha^*_i - \alpha_i` on the support.
    intercept_ : float
        :math:`\lambda^2 \sum_i (\alpha^*_i - \alpha_i)`, the constant part of :math:`f`.
    %(fitted)s

    References
    ----------
    Vijayakumar and Wu (1999), Sec. 5, eq. 19; Sec. 5.1, eq. 22 and Fig. 2.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage import SequentialSVR
    >>> x = np.linspace(0, 2 * np.pi, 20, endpoint=False)[:, None]
    >>> svr = SequentialSVR(kernel="rbf", gamma=2.0, epsilon=0.2).fit(x, np.sin(x[:, 0]))
    >>> bool(svr.n_vectors_ < 20), bool(svr.converged_)
    (True, True)
    """

    _parameter_constraints = {
        **KERNEL_CONSTRAINTS,
        "epsilon": [Interval(Real, 0, None, closed="left")],
        "C": [Interval(Real, 0, None, closed="right")],
        "augmentation": [Interval(Real, None, None, closed="neither")],
        "learning_rate": [Interval(Real, 0, None, closed="neither"), "array-like", None],
        "learning_rate_bound": [StrOptions({"raise", "clip"})],
        "tol": [Interval(Real, 0, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
    }

    _: KW_ONLY
    epsilon: float = 0.1
    C: float = np.inf
    augmentation: float = 1.0
    learning_rate: float | ArrayLike | None = None
    learning_rate_bound: str = "raise"
    tol: float = 1e-6
    max_iter: int = 10_000

    _model_state = _KernelRegressor._model_state | {
        "alpha_": "f[n]",
        "alpha_star_": "f[n]",
        "objective_": "f[t]",
        "n_iter_": "int",
        "converged_": "bool",
        "learning_rate_": "f[n]",
        "support_vectors_": "f[s,d]",
        "intercept_": "float",
    }

    def _restore(self, state):
        super()._restore(state)
        n, support = self.alpha_.shape[0], self.support_
        if support.size and (support.min() < 0 or support.max() >= n):
            raise ValueError(f"'support_' must hold indices in [0, {n})")

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X: ArrayLike, y: ArrayLike) -> Self:
        """Run the sequential algorithm on (X, y).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training inputs.
        y : array-like of shape (n_samples,)
            Training targets.

        Returns
        -------
        SequentialSVR
            The fitted estimator.
        """
        X, y = self._validate(X, y, reset=True)
        self._resolve_kernel(X)
        K = checked_gram(self.kernel_, X, "Gram matrix K and R = K + λ²", copies=2, hint=_HINT)
        params = self.get_params(deep=False)
        res = sequential_svr(K, y, **{k: params[k] for k in params if k not in KERNEL_CONSTRAINTS})
        for name in ("alpha", "alpha_star", "objective", "n_iter", "converged", "learning_rate"):
            setattr(self, name + "_", getattr(res, name))
        self._set_coef(X, res.coef)
        self.intercept_ = float(self.augmentation) ** 2 * float(res.coef.sum())
        return self
