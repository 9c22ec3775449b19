"""Kernel dependency estimation with pre-images: a scikit-learn shell over
:mod:`preimage.dependency`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass
from numbers import Integral, Real
from typing import Any, Self

import numpy as np
from sklearn.base import BaseEstimator, _fit_context
from sklearn.metrics import r2_score
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from preimage._utils.typing import ArrayLike, Sequences
from preimage._utils.validation import check_array_2d, validate_estimator_input
from preimage.dependency._data import OutputSpace, data_kind, resolve_kernel
from preimage.dependency._decoders import DECODERS, make_decoder
from preimage.dependency._fit import REGRESSIONS, predict_coordinates
from preimage.dependency._strings import check_sequences, symbol_accuracy
from preimage.kernels import KERNELS, Kernel, SequenceKernel
from preimage.kernels._expansion import FeatureExpansion
from preimage.solvers import PREIMAGE_METHODS

#: The settings of the decoders, and their fitted attributes the estimator has too.
_DECODER_SETTINGS = ("window", "n_neighbors", "coordinate_weight", "candidates")
_DECODER_ATTRIBUTES = ("classifier_", "symbols_", "output_symbols_", "candidates_", "solver_")


@dataclass(eq=False, repr=False)  # the constructor is the dataclass's
class KernelDependencyEstimator(BaseEstimator):
    r"""Kernel dependency estimation with learned or searched pre-images.

    Learns a map between inputs and structured outputs (vectors or strings)
    through the output feature space: kernel PCA of the output kernel
    :math:`l` gives the coordinates :math:`P` of the training outputs on
    :math:`r` axes :math:`v_j`, a regression on the input kernel :math:`k`
    predicts those of new inputs, and a decoder turns them back into an output,

    .. math::

        \hat{c}(x) = k(x, X)\,\beta, \quad
        \beta = (K^\top K + \gamma I)^{-1} K^\top P, \quad
        \hat{y} = \arg\min_y \|c(y) - \hat{c}(x)\|^2,

    with :math:`c_j(y) = \langle \phi_l(y) - \mu, v_j \rangle` (eqs. 4 and 5).

    Parameters
    ----------
    input_kernel : Kernel, SequenceKernel, str or callable, default="linear"
        The kernel :math:`k` on the inputs: a kernel of :mod:`preimage.kernels`
        for numeric arrays (or its name, with the default width), a
        :class:`~preimage.kernels.SequenceKernel` for strings, or a callable
        ``f(a, b)`` on two samples (numeric rows or sequences).
    output_kernel : Kernel, SequenceKernel, str or callable, default="linear"
        The kernel :math:`l` on the outputs, in the same forms. A joint
        kernel (:class:`~preimage.kernels.JointSpectrumKernel`) is applied to
        the pairs :math:`(x_i, y_i)`.
    n_components : int, default=None
        The number :math:`r` of output axes; None keeps all with a non-zero
        eigenvalue.
    alpha : float, default=1.0
        The strength :math:`\gamma > 0` of the regression's penalty.
    regression : {"paper", "ridge"}, default="paper"
        The paper's form or kernel ridge regression (see
        :func:`~preimage.dependency.kde_regression`).
    method : str, classifier, solver or callable, default="knn"
        The decoder (see :func:`~preimage.dependency.make_decoder`): ``"knn"``
        or a scikit-learn classifier decode strings of the input's length
        symbol by symbol from input windows (Sec. 3.2); ``"positions"`` takes
        at each position the symbol the estimated point weighs most (for
        outputs that depend on where a symbol stands, with a
        :class:`~preimage.kernels.WeightedDegreeKernel` output kernel);
        ``"candidates"`` picks the nearest candidate; for vector outputs a method of
        :data:`preimage.PREIMAGE_METHODS` (``"learned"`` is the paper's map),
        a solver or a callable finds a pre-image of
        :math:`\sum_j \hat{c}_j v_j + \mu`.
    window : int, default=3
        Odd length of the input window of ``"knn"`` and classifiers.
    n_neighbors : int, default=1
        The number k of neighbours of ``"knn"``.
    coordinate_weight : float, default=1.0
        The factor on the coordinates in the classifier's features (see
        :func:`~preimage.dependency.string_preimage_features`).
    candidates : list, default=None
        Candidate outputs of ``"candidates"``; None takes the training outputs.
    joint_output : bool, default=None
        Whether the output kernel takes ``(x, y)`` pairs; None asks the kernel.
    method_params : dict, default=None
        Options of the method, or parameters of the classifier.

    Attributes
    ----------
    input_kernel_, output_kernel_ : object
        The resolved kernels.
    fit_result_ : KDEResult
        The fit on the Gram matrices (:func:`~preimage.dependency.fit_kde`).
    coordinates_, dual_coef_ : ndarray of shape (n_samples, r)
        :math:`P` and :math:`\beta`.
    eigenvalues_ : ndarray of shape (r,)
        Eigenvalues of the centred output Gram matrix.
    n_components_ : int
        The number :math:`r` of output axes.
    X_fit_, Y_fit_ : list or ndarray
        Training inputs and outputs.
    output_space_ : OutputSpace
        The training pairs in the output feature space.
    decoder_ : Decoder
        The fitted decoder; its fitted attributes are the estimator's too:
        ``classifier_``, ``symbols_``, ``output_symbols_`` (``"knn"`` and
        classifiers), ``candidates_`` (``"candidates"``), ``solver_``
        (pre-image methods).
    n_features_in_ : int
        Number of input features (numeric inputs only).

    Notes
    -----
    With a linear output kernel, all components and ``"exact"``, the
    prediction is :math:`k(x, X)\,\beta V^\top + \bar{y}`: multi-output
    regression of the centred outputs. The input Gram matrix is not centred.

    References
    ----------
    Weston et al. (2003). Bakır et al. (2004), Sec. 2.2, eqs. 4 and 5; Sec. 3.2; Sec. 4.

    Examples
    --------
    >>> from preimage import KernelDependencyEstimator
    >>> from preimage.datasets import make_kde_strings
    >>> from preimage.kernels import (JointSpectrumKernel, KernelDistanceRBF,
    ...                               NormalizedKernel, SpectrumKernel)
    >>> X, Y, _ = make_kde_strings(40, random_state=0)
    >>> kde = KernelDependencyEstimator(
    ...     KernelDistanceRBF(NormalizedKernel(SpectrumKernel(3))),
    ...     NormalizedKernel(JointSpectrumKernel(3)), n_neighbors=5).fit(X[:30], Y[:30])
    >>> pred = kde.predict(X[30:])
    >>> [len(y) for y in pred] == [len(x) for x in X[30:]]
    True
    >>> 0.5 < kde.score(X[30:], Y[30:]) <= 1.0
    True
    """

    _parameter_constraints = {
        "input_kernel": [StrOptions(set(KERNELS)), Kernel, SequenceKernel, callable],
        "output_kernel": [StrOptions(set(KERNELS)), Kernel, SequenceKernel, callable],
        "n_components": [Interval(Integral, 1, None, closed="left"), None],
        "alpha": [Interval(Real, 0, None, closed="neither")],
        "regression": [StrOptions(set(REGRESSIONS))],
        "method": [
            StrOptions(set(DECODERS) | set(PREIMAGE_METHODS)),
            HasMethods(["solve"]),
            HasMethods(["fit", "predict"]),
            callable,
        ],
        "window": [Interval(Integral, 1, None, closed="left")],
        "n_neighbors": [Interval(Integral, 1, None, closed="left")],
        "coordinate_weight": [Interval(Real, 0, None, closed="left")],
        "candidates": ["array-like", None],
        "joint_output": ["boolean", None],
        "method_params": [dict, None],
    }

    input_kernel: str | Kernel | SequenceKernel | Callable[..., float] = "linear"
    output_kernel: str | Kernel | SequenceKernel | Callable[..., float] = "linear"
    _: KW_ONLY
    n_components: int | None = None
    alpha: float = 1.0
    regression: str = "paper"
    method: Any = "knn"
    window: int = 3
    n_neighbors: int = 1
    coordinate_weight: float = 1.0
    candidates: Sequences | ArrayLike | None = None
    joint_output: bool | None = None
    method_params: dict[str, Any] | None = None

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X: Sequences | ArrayLike, Y: Sequences | ArrayLike) -> Self:
        """Fit the map from inputs to output coordinates, and the decoder.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or list of sequences
            Training inputs, as `input_kernel` takes them.
        Y : array-like of shape (n_samples,) or (n_samples, n_outputs), or list of sequences
            Training outputs, one per input, as `output_kernel` takes them.

        Returns
        -------
        KernelDependencyEstimator
            The fitted estimator.
        """
        if self.window % 2 == 0:
            raise ValueError(
                f"'window' must be odd (a window centred at each position), got {self.window!r}"
            )
        input_kind = data_kind(self.input_kernel, X, "input_kernel", "X")
        X = self._check_inputs(X, input_kind, reset=True)
        space = OutputSpace.of_pairs(X, Y, self.output_kernel, input_kind, joint=self.joint_output)
        self.input_kernel_ = resolve_kernel(self.input_kernel, input_kind, X)
        self.output_space_, self.output_kernel_ = space, space.kernel
        self.X_fit_, self.Y_fit_ = X, space.Y
        result = self.fit_result_ = space.fit(
            self.input_kernel_, self.n_components, alpha=self.alpha, regression=self.regression
        )
        self.coordinates_, self.dual_coef_ = result.coordinates, result.weights
        self.eigenvalues_ = result.output_pca.eigenvalues
        self.n_components_ = self.eigenvalues_.shape[0]
        settings = {k: getattr(self, k) for k in _DECODER_SETTINGS}
        decoder = make_decoder(self.method, self.method_params, **settings)
        self.decoder_: Any = decoder.fit(X, space.Y, space)
        return self

    def _check_inputs(self, X: Any, kind: str, *, reset: bool = False) -> list[Any] | np.ndarray:
        if kind == "vector":
            return validate_estimator_input(self, X, reset=reset)
        return check_sequences(X, "X", min_samples=1)

    def _inputs_for(self, X: Any, n: int, what: str) -> list[Any] | np.ndarray:
        if X is None:
            raise ValueError(
                f"'X' is needed by {what} with this pre-image or output "
                "kernel (input windows, or (x, y) pairs of a joint kernel)"
            )
        X = self._check_inputs(X, self.output_space_.input_kind)
        if len(X) != n:
            raise ValueError(
                f"'X' must hold one input per row of the coordinates ({n}), got {len(X)}"
            )
        return X

    def __getattr__(self, name: str) -> Any:
        # the decoder's fitted attributes, under the estimator's names (documented)
        if name in _DECODER_ATTRIBUTES and "decoder_" in vars(self):
            return getattr(self.decoder_, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def predict_coordinates(self, X: Sequences | ArrayLike) -> np.ndarray:
        r"""Return the estimated output coordinates :math:`k(x, X_{\mathrm{fit}})\,\beta` of inputs.

        Parameters
        ----------
        X : array-like of shape (n, n_features) or list of sequences
            Inputs of the kind of the training inputs.

        Returns
        -------
        ndarray of shape (n, r)
            The estimated coordinates, one row per input.
        """
        check_is_fitted(self)
        X = self._check_inputs(X, self.output_space_.input_kind)
        return predict_coordinates(self.input_kernel_(X, self.X_fit_), self.fit_result_)

    def transform_outputs(
        self, Y: Sequences | ArrayLike, X: Sequences | ArrayLike | None = None
    ) -> np.ndarray:
        r"""Return the output coordinates :math:`\langle \phi_l(y) - \mu, v_j \rangle` of outputs.

        Parameters
        ----------
        Y : array-like or list of sequences
            Outputs of the kind (and width) of the training outputs.
        X : array-like or list of sequences, default=None
            The inputs they belong to; needed with a joint output kernel only.

        Returns
        -------
        ndarray of shape (n, r)
            The coordinates, one row per output.
        """
        check_is_fitted(self)
        outputs = self.output_space_.check_outputs(Y)
        if self.output_space_.joint:
            X = self._inputs_for(X, len(outputs), "transform_outputs")
        return self.output_space_.coordinates(outputs, X)

    def decode(
        self, coordinates: ArrayLike, X: Sequences | ArrayLike | None = None
    ) -> list[Any] | np.ndarray:
        """Decode output coordinates into outputs (pre-images).

        Parameters
        ----------
        coordinates : array-like of shape (n, r)
            Output coordinates.
        X : array-like or list of sequences, default=None
            The inputs the outputs belong to; needed by ``"knn"`` and
            classifiers, and by ``"candidates"`` with a joint kernel.

        Returns
        -------
        list or ndarray
            A list of strings (or tuples of symbols), or an array of vectors.
        """
        check_is_fitted(self)
        C = check_array_2d(coordinates, "coordinates", n_features=self.n_components_)
        if self.decoder_.needs_inputs:
            X = self._inputs_for(X, len(C), "decode")
        return self.output_space_.outputs(self.decoder_.decode(C, X))

    def expansion(self, coordinates: ArrayLike) -> FeatureExpansion:
        r"""Return the points :math:`\sum_j c_j v_j + \mu` as expansions over the training outputs.

        Parameters
        ----------
        coordinates : array-like of shape (n, r)
            Output coordinates.

        Returns
        -------
        FeatureExpansion
            The :math:`n` points (numeric outputs and a preimage Kernel only).
        """
        check_is_fitted(self)
        C = check_array_2d(coordinates, "coordinates", n_features=self.n_components_)
        return self.output_space_.expansion(C)

    def predict(self, X: Sequences | ArrayLike) -> list[Any] | np.ndarray:
        """Predict the outputs of inputs: the pre-images of their estimated coordinates.

        Parameters
        ----------
        X : array-like of shape (n, n_features) or list of sequences
            Inputs of the kind of the training inputs.

        Returns
        -------
        list or ndarray
            A list of strings (or tuples of symbols), or an array of vectors.
        """
        return self.decode(self.predict_coordinates(X), X)

    def score(self, X: Sequences | ArrayLike, y: Sequences | ArrayLike) -> float:
        r"""Return the symbol accuracy (strings) or the :math:`R^2` (vectors) of the predictions.

        Parameters
        ----------
        X : array-like of shape (n, n_features) or list of sequences
            Inputs of the kind of the training inputs.
        y : array-like or list of sequences
            Their true outputs.

        Returns
        -------
        float
            The fraction of symbols correct, or the :math:`R^2`.
        """
        pred = self.predict(X)
        if self.output_space_.kind == "sequence":
            return symbol_accuracy(check_sequences(y, "y", min_samples=1), pred)
        return float(r2_score(np.asarray(y), pred))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        tags.target_tags.multi_output = True  # vectors of any width, or strings
        # A kernel on numbers takes 2-D arrays, one on sequences lists of
        # sequences, a callable either.
        kernel = self.input_kernel
        sequences = isinstance(kernel, SequenceKernel) and not kernel.vector_input
        tags.input_tags.two_d_array = not sequences
        tags.input_tags.string = not isinstance(kernel, (str, Kernel, SequenceKernel)) or sequences
        return tags
