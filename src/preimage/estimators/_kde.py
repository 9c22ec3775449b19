"""Kernel dependency estimation with pre-images: a scikit-learn shell over
:mod:`preimage.kde`."""

from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, _fit_context, clone
from sklearn.metrics import r2_score
from sklearn.neighbors import KNeighborsClassifier
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from .._expansion import FeatureExpansion
from .._memory import check_dense
from .._validation import check_array_2d
from ..kde import (
    _check_strings,
    REGRESSIONS,
    fit_kde,
    nearest_coordinates,
    output_coordinates,
    predict_coordinates,
    string_preimage_features,
    symbol_accuracy,
)
from ..kernels import KERNELS, JointSpectrumKernel, Kernel, SequenceKernel, make_kernel
from ..kpca import expansion_coef
from ..solvers import PREIMAGE_METHODS, make_solver

__all__ = ["KernelDependencyEstimator"]

#: Pre-image strategies besides the methods of :func:`preimage.find_preimage`.
_STRATEGIES = ("knn", "candidates")


class _PairwiseSequenceKernel:
    """A user's function ``f(a, b)`` on two single sequences, as Gram blocks."""

    def __init__(self, function):
        self.function = function

    def __call__(self, A, B=None):
        B = A if B is None else B
        return np.array([[float(self.function(a, b)) for b in B] for a in A])


def _innermost(kernel):
    """Follow ``.base`` of wrapped sequence kernels (normalised, RBF) down."""
    while isinstance(kernel, SequenceKernel) and hasattr(kernel, "base"):
        kernel = kernel.base
    return kernel


def _is_joint(kernel):
    return isinstance(_innermost(kernel), JointSpectrumKernel)


def _numeric(data):
    """True for numeric arrays (vectors), False for sequences of symbols."""
    if isinstance(data, (str, bytes)):
        return False
    if isinstance(data, np.ndarray):
        return data.dtype.kind in "biuf"
    try:
        arr = np.asarray(data)
    except ValueError:  # ragged: sequences of different lengths
        return False
    return arr.dtype.kind in "biuf" and arr.ndim in (1, 2)


def _check_sequences(data, name):
    """A list of sequences (strings, lists or tuples of symbols)."""
    if isinstance(data, (str, bytes)):
        raise TypeError(f"{name!r} must be a list of sequences, got a bare string "
                        f"{data!r}; wrap a single sequence as [{name}]")
    if isinstance(data, np.ndarray) and data.ndim == 2 and data.dtype.kind not in "biuf":
        data = [tuple(row) for row in data]
    items = _check_strings(data, name)
    if not items:
        raise ValueError(f"{name!r} must hold at least one sequence, got none")
    return items


def _resolve_kernel(kernel, data, name, data_name):
    """(kernel object with Gram blocks ``k(A, B)``, kind) where kind is
    ``"vector"`` (2-D numeric arrays) or ``"sequence"``."""
    if isinstance(kernel, str) or isinstance(kernel, Kernel):
        if not _numeric(data):
            raise ValueError(
                f"{name!r}={kernel!r} works on numeric arrays, but {data_name!r} holds "
                "sequences; for strings pass a SequenceKernel such as "
                "preimage.kernels.SpectrumKernel(p=3), or a callable on two sequences")
        if isinstance(kernel, str):
            X = check_array_2d(data, data_name) if np.ndim(data) == 2 else \
                check_array_2d(np.reshape(data, (-1, 1)), data_name)
            kernel = make_kernel(kernel, X=X)
        return kernel, "vector"
    if isinstance(kernel, SequenceKernel):
        return kernel, "vector" if isinstance(_innermost(kernel), Kernel) else "sequence"
    # A callable on two single samples (scikit-learn's convention).
    if _numeric(data):
        return make_kernel(kernel), "vector"
    return _PairwiseSequenceKernel(kernel), "sequence"


class KernelDependencyEstimator(BaseEstimator):
    """Kernel dependency estimation (KDE) with learned or searched pre-images.

    Learns a map between inputs and structured outputs (vectors or strings)
    through the output feature space (Weston et al. 2003; Bakır, Weston &
    Schölkopf 2004, Sec. 2.2): kernel PCA of the output kernel gives
    coordinates P of the training outputs, a regression on the input kernel
    predicts coordinates of new inputs, and a pre-image turns them back into
    an output.

    Parameters
    ----------
    input_kernel : Kernel, SequenceKernel, str or callable, default="linear"
        k on the inputs: a kernel of :mod:`preimage.kernels` for numeric
        arrays (or its name, e.g. ``"rbf"``, with the default width), a
        :class:`~preimage.kernels.SequenceKernel` for strings, or a callable
        ``f(a, b)`` on two single samples (numeric rows or sequences).
    output_kernel : Kernel, SequenceKernel, str or callable, default="linear"
        l on the outputs, in the same forms. A joint kernel on ``(x, y)``
        pairs (:class:`~preimage.kernels.JointSpectrumKernel`, possibly
        normalised) is applied to the pairs ``(x_i, y_i)``.
    n_components : int, default=None
        Output principal axes r; None keeps all with a non-zero eigenvalue.
    ridge : float, default=1.0
        γ > 0 of the regression.
    regression : {"paper", "ridge"}, default="paper"
        ``"paper"``: ``β = (KᵀK + γI)⁻¹ KP`` (Bakır et al., eq. 4);
        ``"ridge"``: kernel ridge regression ``β = (K + γI)⁻¹ P``. See
        :func:`preimage.kde.kde_regression`.
    preimage : str, classifier or solver, default="knn"
        How estimated coordinates become an output.

        * ``"knn"`` (string outputs of the input's length, Sec. 3.2): every
          position q of every training string is one example with features
          ``[w · P_i, one-hot window of x_i centred at q]`` and label
          ``y_i[q]`` (see `coordinate_weight`, `window`); a
          ``KNeighborsClassifier(n_neighbors)`` is trained on the *true*
          coordinates of the training outputs and applied with the
          *estimated* coordinates of the test input.
        * a scikit-learn classifier (anything with ``fit`` and ``predict``):
          the same, with a clone of that classifier.
        * ``"candidates"``: the candidate output (`candidates`, by default the
          training outputs) whose output coordinates are nearest the estimated
          ones; with a joint kernel each candidate is paired with the test
          input, so only candidates of the input's length qualify.
        * vector outputs: any method of :func:`preimage.find_preimage` (e.g.
          ``"fixed_point"``, ``"learned"``, ``"closed_form"``, ``"exact"``),
          a solver fitted on the training outputs, or a callable, applied to
          the expansion ``Σ_j p̂_j v_j + μ`` over the training outputs.
          ``"learned"`` is Bakır et al.'s map, kernel ridge regression from
          the training coordinates P to the training outputs (fitted on the
          centred outputs, the mean added back: the map has no bias).
    window : int, default=3
        Odd length n + 1 of the input window for ``"knn"`` / classifiers;
        positions beyond either end hold a terminal symbol.
    n_neighbors : int, default=1
        k of the default k-NN classifier.
    coordinate_weight : float, default=1.0
        w, the factor on the coordinates in the classifier's features (the
        window is one-hot, 0/1, unscaled). No other scaling is applied: two
        windows differing in j positions are at squared distance 2j, two
        coordinate vectors at ``w²‖c − c'‖²`` (at most 4w² for a cosine-
        normalised output kernel). 0 gives the plain window classifier.
    candidates : list, default=None
        Candidate outputs for ``"candidates"``; None takes the training
        outputs.
    joint_output : bool, default=None
        Whether the output kernel takes ``(x, y)`` pairs; None detects a
        :class:`~preimage.kernels.JointSpectrumKernel` (also inside
        normalising or RBF wrappers).
    preimage_params : dict, default=None
        Options of the pre-image method (e.g. ``{"max_iter": 100}`` for the
        fixed point, ``{"kernel": "rbf", "gamma": 0.5, "alpha": 1.0}`` for
        ``"learned"``).

    Attributes
    ----------
    input_kernel_, output_kernel_ : object
        The resolved kernels (Gram blocks ``k(A, B)``).
    coordinates_ : ndarray of shape (n_samples, r)
        P, the centred output coordinates of the training outputs.
    dual_coef_ : ndarray of shape (n_samples, r)
        β: estimated coordinates of x are ``k(x, X) β``.
    eigenvalues_ : ndarray of shape (r,)
        Eigenvalues of the centred output Gram matrix.
    n_components_ : int
        r.
    X_fit_, Y_fit_ : list or ndarray
        Training inputs and outputs.
    classifier_ : classifier
        The fitted position classifier (``"knn"`` or a classifier).
    symbols_ : list
        The input alphabet of the windows (training symbols, sorted).
    output_symbols_ : list
        The output alphabet; the classifier's classes are indices into it.
    candidates_ : list or ndarray
        Candidate outputs (``"candidates"``).
    n_features_in_ : int
        Number of input features (numeric inputs only).

    Notes
    -----
    With a linear output kernel, all output components and a pre-image
    method that is exact for the linear kernel (``"exact"``), the prediction
    is ``k(x, X) β Vᵀ + ȳ`` with ``V`` the principal directions of the
    centred outputs: multi-output regression of the centred outputs in the
    chosen form. Training outputs of a joint kernel are the pairs
    ``(x_i, y_i)``; the estimated coordinates of a test input x' are those of
    the unknown pair (x', y').

    The input Gram matrix is not centred (the map has no bias; the targets P
    have mean zero).

    References
    ----------
    J. Weston, O. Chapelle, A. Elisseeff, B. Schölkopf, V. Vapnik. Kernel
    dependency estimation. NIPS 15, 2003.
    G. H. Bakır, J. Weston, B. Schölkopf. Learning to find pre-images. NIPS 16,
    2004.

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

    _parameter_constraints: dict = {
        "input_kernel": [StrOptions(set(KERNELS)), Kernel, SequenceKernel, callable],
        "output_kernel": [StrOptions(set(KERNELS)), Kernel, SequenceKernel, callable],
        "n_components": [Interval(Integral, 1, None, closed="left"), None],
        "ridge": [Interval(Real, 0, None, closed="neither")],
        "regression": [StrOptions(set(REGRESSIONS))],
        "preimage": [StrOptions(set(_STRATEGIES) | set(PREIMAGE_METHODS)), HasMethods(["solve"]),
                     HasMethods(["fit", "predict"]), callable],
        "window": [Interval(Integral, 1, None, closed="left")],
        "n_neighbors": [Interval(Integral, 1, None, closed="left")],
        "coordinate_weight": [Interval(Real, 0, None, closed="left")],
        "candidates": ["array-like", None],
        "joint_output": ["boolean", None],
        "preimage_params": [dict, None],
    }

    def __init__(self, input_kernel="linear", output_kernel="linear", *, n_components=None,
                 ridge=1.0, regression="paper", preimage="knn", window=3, n_neighbors=1,
                 coordinate_weight=1.0, candidates=None, joint_output=None,
                 preimage_params=None):
        self.input_kernel = input_kernel
        self.output_kernel = output_kernel
        self.n_components = n_components
        self.ridge = ridge
        self.regression = regression
        self.preimage = preimage
        self.window = window
        self.n_neighbors = n_neighbors
        self.coordinate_weight = coordinate_weight
        self.candidates = candidates
        self.joint_output = joint_output
        self.preimage_params = preimage_params

    # -- fitting -----------------------------------------------------------------
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, Y):
        """Fit on inputs X and outputs Y (lists of sequences or numeric arrays).

        Returns
        -------
        self
        """
        if self.window % 2 == 0:
            raise ValueError(f"'window' must be odd (a window centred at each position), "
                             f"got {self.window!r}")
        self.input_kernel_, self._input_kind = _resolve_kernel(
            self.input_kernel, X, "input_kernel", "X")
        X = self._check_inputs(X, reset=True)
        n = len(X)
        if n < 2:
            raise ValueError(f"'X' has {n} sample(s); KDE needs at least 2 (the centred "
                             "output Gram matrix of one sample is 0)")
        self._joint = _is_joint(self.output_kernel) if self.joint_output is None \
            else bool(self.joint_output)
        if self._joint and self._input_kind != "sequence":
            raise ValueError("a joint 'output_kernel' takes (x, y) pairs of sequences, but "
                             "'X' holds numeric vectors")
        self.output_kernel_, self._output_kind = _resolve_kernel(
            self.output_kernel, Y, "output_kernel", "Y")
        Y = self._check_outputs(Y, n)
        if self._joint:
            self._check_lengths(X, Y, "Y")
        if self.n_components is not None and self.n_components > n:
            raise ValueError(f"'n_components' must be <= n_samples={n} (the size of the "
                             f"Gram matrix), got {self.n_components!r}")
        self.X_fit_, self.Y_fit_ = X, Y

        # K and L, the centred L and its eigenvectors, and KᵀK + γI.
        check_dense((n, n), np.float64, f"the {n} x {n} input and output Gram matrices",
                    hint="fit on fewer samples", copies=5)
        K = np.asarray(self.input_kernel_(X), dtype=float)
        L = np.asarray(self.output_kernel_(self._output_data(X, Y)), dtype=float)
        # Gram matrices are symmetric; a float32 or BLAS product is so only to
        # rounding, which the eigendecomposition of L must not see.
        K, L = (K + K.T) / 2, (L + L.T) / 2
        self.fit_ = fit_kde(K, L, self.n_components, ridge=self.ridge,
                            regression=self.regression)
        self.coordinates_ = self.fit_.coordinates
        self.dual_coef_ = self.fit_.weights
        self.eigenvalues_ = self.fit_.output_pca.eigenvalues
        self.n_components_ = self.eigenvalues_.shape[0]
        self._fit_preimage(X, Y)
        return self

    def _check_inputs(self, X, *, reset):
        if self._input_kind == "vector":
            n_features = None if reset else getattr(self, "n_features_in_", None)
            X = check_array_2d(X, "X", n_features=n_features)
            if reset:
                self.n_features_in_ = X.shape[1]
            return X
        return _check_sequences(X, "X")

    def _check_outputs(self, Y, n=None, name="Y"):
        if self._output_kind == "vector":
            Y_arr = np.asarray(Y)
            if n is not None:  # at fit: remember 1-D targets
                self._y_1d = Y_arr.ndim == 1
            if Y_arr.ndim == 1:
                Y_arr = Y_arr.reshape(-1, 1)
            n_features = None if n is not None else self.Y_fit_.shape[1]
            Y = check_array_2d(Y_arr, name, n_features=n_features)
        else:
            Y = _check_sequences(Y, name)
            if n is not None:
                self._str_outputs = all(isinstance(y, str) for y in Y)
        if n is not None and len(Y) != n:
            raise ValueError(f"{name!r} must hold one output per input of 'X' ({n}), "
                             f"got {len(Y)}")
        return Y

    @staticmethod
    def _check_lengths(X, Y, name):
        for i, (x, y) in enumerate(zip(X, Y)):
            if len(x) != len(y):
                raise ValueError(f"{name!r} must hold outputs of the length of their inputs "
                                 f"(|x_i| = |y_i|), got lengths {len(x)} and {len(y)} at "
                                 f"index {i}")

    def _output_data(self, X, Y):
        return list(zip(X, Y)) if self._joint else Y

    def _fit_preimage(self, X, Y):
        method = self.preimage
        params = dict(self.preimage_params or {})
        self._classifier_mode = False
        if isinstance(method, str) and method == "candidates":
            cands = Y if self.candidates is None else self.candidates
            cands = self._check_outputs(cands, None, "candidates")
            self.candidates_ = cands
            if not self._joint:
                self._candidate_coordinates = self.transform_outputs(cands)
            return
        is_classifier = (isinstance(method, str) and method == "knn") or (
            hasattr(method, "fit") and hasattr(method, "predict")
            and not hasattr(method, "solve"))
        if is_classifier:
            if self._output_kind != "sequence" or self._input_kind != "sequence":
                raise ValueError(
                    f"'preimage'={method!r} decodes strings position by position from "
                    "input windows and needs sequence inputs and outputs; for vector "
                    f"outputs use 'candidates' or one of {list(PREIMAGE_METHODS)}")
            self._check_lengths(X, Y, "Y")
            n_positions = sum(len(y) for y in Y)
            if n_positions == 0:
                raise ValueError(f"'preimage'={method!r} learns output symbols position by "
                                 "position, but every string of 'Y' is empty")
            if isinstance(method, str) and self.n_neighbors > n_positions:
                raise ValueError(f"'n_neighbors' must be at most the {n_positions} symbol "
                                 f"position(s) of the training strings, got "
                                 f"{self.n_neighbors!r}")
            self.symbols_ = sorted({s for x in X for s in x}, key=repr)
            self.classifier_ = (KNeighborsClassifier(n_neighbors=self.n_neighbors)
                                if isinstance(method, str) else clone(method))
            if params:
                self.classifier_.set_params(**params)
            F = string_preimage_features(self.coordinates_, X, self.window, self.symbols_,
                                         coordinate_weight=self.coordinate_weight)
            # Symbols of any hashable type are encoded as integer classes.
            self.output_symbols_ = sorted({s for y in Y for s in y}, key=repr)
            code = {s: j for j, s in enumerate(self.output_symbols_)}
            self.classifier_.fit(F, np.array([code[s] for y in Y for s in y]))
            self._classifier_mode = True
            return
        # A pre-image method on the expansion over the training outputs.
        if self._output_kind != "vector" or not isinstance(self.output_kernel_, Kernel):
            raise ValueError(
                f"'preimage'={method!r} searches the output space with a preimage Kernel "
                "on numeric outputs; for sequence outputs use 'knn', a classifier or "
                "'candidates'")
        solver = make_solver(method, params)
        if solver is method:  # a solver given as a parameter is cloned, as estimators are
            solver = clone(solver)
        # Centred targets for a map learned from pairs, the mean added back at
        # prediction: the coordinates are centred too, and far from every
        # training coordinate the map's value then stands for the mean output.
        pairs = ({"coordinates": self.coordinates_, "targets": Y, "center_targets": True}
                 if solver.learns_from_pairs else {})
        self.solver_ = solver.fit(Y, self.output_kernel_, kpca=self.fit_.output_pca, **pairs)

    # -- coordinates -------------------------------------------------------------
    def predict_coordinates(self, X):
        """Estimated output coordinates ``k(x, X_fit) β``, shape (n, r)."""
        check_is_fitted(self)
        X = self._check_inputs(X, reset=False)
        return predict_coordinates(self.input_kernel_(X, self.X_fit_), self.fit_)

    def transform_outputs(self, Y, X=None):
        """Output coordinates ``⟨φ_l(y) − μ, v_j⟩`` of outputs Y, shape (n, r).

        With a joint output kernel the coordinates are those of the pairs
        ``(x_i, y_i)``, so X is required.
        """
        check_is_fitted(self)
        Y = self._check_outputs(Y, None)
        if self._joint:
            X = self._inputs_for(X, len(Y), "transform_outputs")
            self._check_lengths(X, Y, "Y")
            L = self.output_kernel_(list(zip(X, Y)), list(zip(self.X_fit_, self.Y_fit_)))
        else:
            L = self.output_kernel_(Y, self.Y_fit_)
        return output_coordinates(L, self.fit_)

    def _inputs_for(self, X, n, what):
        if X is None:
            raise ValueError(f"'X' is needed by {what} with this pre-image or output "
                             "kernel (input windows, or (x, y) pairs of a joint kernel)")
        X = self._check_inputs(X, reset=False)
        if len(X) != n:
            raise ValueError(f"'X' must hold one input per row of the coordinates ({n}), "
                             f"got {len(X)}")
        return X

    # -- pre-images --------------------------------------------------------------
    def decode(self, coordinates, X=None):
        """Outputs (pre-images) of output coordinates.

        Parameters
        ----------
        coordinates : array of shape (n, r)
            Output coordinates, e.g. :meth:`predict_coordinates` of inputs or
            :meth:`transform_outputs` of known outputs.
        X : inputs, optional
            The inputs the outputs belong to; needed for ``"knn"`` and
            classifiers (their windows, and the output length) and for
            ``"candidates"`` with a joint kernel.

        Returns
        -------
        list of str (or tuples of symbols), or ndarray
        """
        check_is_fitted(self)
        C = check_array_2d(coordinates, "coordinates", n_features=self.n_components_)
        if self._classifier_mode:
            X = self._inputs_for(X, len(C), "decode")
            F = string_preimage_features(C, X, self.window, self.symbols_,
                                         coordinate_weight=self.coordinate_weight)
            labels = self.classifier_.predict(F) if F.shape[0] else np.zeros(0, dtype=int)
            ends = np.cumsum([len(x) for x in X])
            return [self._as_output(self.output_symbols_[j] for j in part)
                    for part in np.split(labels, ends[:-1])]
        if isinstance(self.preimage, str) and self.preimage == "candidates":
            return self._decode_candidates(C, X)
        return self._decode_vectors(C)

    def _as_output(self, symbols):
        symbols = list(symbols)
        return "".join(symbols) if self._str_outputs else tuple(symbols)

    def _decode_candidates(self, C, X):
        cands = self.candidates_
        if not self._joint:
            index, _ = nearest_coordinates(C, self._candidate_coordinates)
            if self._output_kind == "vector":
                return self._vector_result(cands[index])
            return [cands[i] for i in index]
        X = self._inputs_for(X, len(C), "decode")
        pairs, owner, which = [], [], []
        for j, x in enumerate(X):
            for c, y in enumerate(cands):
                if len(y) == len(x):
                    pairs.append((x, y))
                    owner.append(j)
                    which.append(c)
        missing = sorted(set(range(len(X))) - set(owner))
        if missing:
            raise ValueError(
                f"'candidates' holds no output of length {len(X[missing[0]])}, the length "
                f"of input {missing[0]} (a joint kernel pairs each candidate with the "
                "input, so their lengths must match)")
        coords = output_coordinates(
            self.output_kernel_(pairs, list(zip(self.X_fit_, self.Y_fit_))), self.fit_)
        d2 = np.sum((coords - C[owner]) ** 2, axis=1)
        best = np.full(len(X), np.inf)
        choice = np.zeros(len(X), dtype=int)
        for d, j, c in zip(d2, owner, which):
            if d < best[j]:
                best[j], choice[j] = d, c
        return [cands[c] for c in choice]

    def expansion(self, coordinates):
        """The output-space point ``Σ_j p̂_j v_j + μ`` of coordinates, as an
        expansion over the training outputs (numeric outputs and a preimage
        Kernel only)."""
        check_is_fitted(self)
        if not isinstance(self.output_kernel_, Kernel) or self._output_kind != "vector":
            raise ValueError("expansion needs numeric outputs and a preimage Kernel as "
                             "'output_kernel'")
        C = check_array_2d(coordinates, "coordinates", n_features=self.n_components_)
        coef, norm2 = expansion_coef(C, self.fit_.output_pca, add_mean=True)
        return FeatureExpansion(coef, self.Y_fit_, self.output_kernel_, norm2=norm2)

    def _decode_vectors(self, C):
        return self._vector_result(self.solver_.solve_coordinates(C, add_mean=True))

    def _vector_result(self, Z):
        Z = np.asarray(Z)
        return Z.ravel() if self._y_1d else Z

    # -- prediction --------------------------------------------------------------
    def predict(self, X):
        """Outputs for inputs X: the pre-images of their estimated coordinates."""
        return self.decode(self.predict_coordinates(X), X)

    def score(self, X, Y):
        """Fraction of output symbols correct (string outputs, pooled over
        strings; see :func:`preimage.kde.symbol_accuracy`) or R² averaged
        over output dimensions (vector outputs)."""
        pred = self.predict(X)
        if self._output_kind == "sequence":
            return symbol_accuracy(_check_sequences(Y, "Y"), pred)
        Y = np.asarray(Y)
        return float(r2_score(Y, pred))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags
