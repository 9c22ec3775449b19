"""The window, position and pre-image decoders of kernel dependency estimation,
:data:`DECODERS`, which registers the named ones, and :func:`make_decoder`."""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Self

import numpy as np
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.neighbors import KNeighborsClassifier

from preimage._utils.typing import Sequences
from preimage.dependency._base import Decoder
from preimage.dependency._candidates import CandidateDecoder
from preimage.dependency._strings import check_equal_lengths, string_preimage_features
from preimage.kernels import Kernel
from preimage.kpca._projections import expansion_coef
from preimage.solvers import PREIMAGE_METHODS, make_solver

if TYPE_CHECKING:
    from preimage.dependency._data import OutputSpace


def _check_string_pairs(X, Y, space, method):
    """The number of output symbols of string pairs of equal lengths, or an error."""
    if space.kind != "sequence" or space.input_kind != "sequence":
        raise ValueError(
            f"'method'={method!r} decodes strings position by position and needs "
            "sequence inputs and outputs; for vector outputs use 'candidates' or one "
            f"of {list(PREIMAGE_METHODS)}"
        )
    check_equal_lengths(X, Y, "Y")
    n_positions = sum(len(y) for y in Y)
    if n_positions == 0:
        raise ValueError(
            f"'method'={method!r} learns output symbols position by position, but "
            "every string of 'Y' is empty"
        )
    return n_positions


def _joined(outputs, strings):
    """Decoded symbol lists as strings (`strings`) or tuples of symbols."""
    return ["".join(y) if strings else tuple(y) for y in outputs]


@dataclass(eq=False, repr=False)  # the constructor is the dataclass's
class WindowDecoder(Decoder):
    r"""Decode string outputs symbol by symbol from coordinates and input windows.

    Every position :math:`q` of every training string is one example,

    .. math::

        f_q(x_i) = \bigl[\, w\, P_i,\ \operatorname{onehot}(x_{i,q-n/2}, \ldots,
        x_{i,q+n/2}) \,\bigr] \mapsto y_{i,q}

    (:func:`string_preimage_features`): the classifier is trained on the true
    coordinates :math:`P_i` of the training outputs and applied with the
    estimated :math:`\hat{c}(x)`. Outputs have the length of their input.

    Parameters
    ----------
    method : "knn" or classifier, default="knn"
        ``"knn"``: ``KNeighborsClassifier(n_neighbors)``; a scikit-learn
        classifier is cloned.
    params : dict, default=None
        Parameters set on the classifier.
    window : int, default=3
        Odd window length :math:`n + 1`.
    n_neighbors : int, default=1
        The number k of neighbours of the k-NN.
    coordinate_weight : float, default=1.0
        The factor :math:`w` on the coordinates; 0 gives the plain window classifier.

    Attributes
    ----------
    classifier_ : classifier
        The fitted position classifier.
    symbols_ : list
        The input alphabet of the windows (training symbols, sorted).
    output_symbols_ : list
        The output alphabet; the classifier's classes index it.

    References
    ----------
    Bakır et al. (2004), Sec. 3.2.

    Examples
    --------
    Decoding the true coordinates of the training outputs gives them back:

    >>> from preimage import KernelDependencyEstimator
    >>> from preimage.kernels import SpectrumKernel
    >>> X, Y = ["abab", "bbaa", "aabb"], ["xyxy", "yyxx", "xxyy"]
    >>> kde = KernelDependencyEstimator(SpectrumKernel(2), SpectrumKernel(2)).fit(X, Y)
    >>> kde.decoder_.decode(kde.coordinates_, X)
    ['xyxy', 'yyxx', 'xxyy']
    """

    settings = ("window", "n_neighbors", "coordinate_weight")
    needs_inputs = True

    method: Any = "knn"
    params: dict[str, Any] | None = None
    _: KW_ONLY
    window: int = 3
    n_neighbors: int = 1
    coordinate_weight: float = 1.0

    def fit(self, X: Sequences, Y: Sequences, space: OutputSpace) -> Self:
        n_positions = _check_string_pairs(X, Y, space, self.method)
        if isinstance(self.method, str):  # the k-NN of the paper
            if self.n_neighbors > n_positions:
                raise ValueError(
                    f"'n_neighbors' must be at most the {n_positions} symbol position(s) of the "
                    f"training strings, got {self.n_neighbors!r}"
                )
            self.classifier_ = KNeighborsClassifier(n_neighbors=self.n_neighbors)
        else:
            self.classifier_ = clone(self.method)
        if self.params:
            self.classifier_.set_params(**self.params)
        self.symbols_ = sorted({s for x in X for s in x}, key=repr)
        F = self._features(space.result.coordinates, X)
        # Symbols of any hashable type are encoded as integer classes.
        self.output_symbols_ = sorted({s for y in Y for s in y}, key=repr)
        code = {s: j for j, s in enumerate(self.output_symbols_)}
        self.classifier_.fit(F, np.array([code[s] for y in Y for s in y]))
        self._strings = all(isinstance(y, str) for y in Y)
        return self

    def _features(self, C, X):
        return string_preimage_features(
            C, X, self.window, self.symbols_, coordinate_weight=self.coordinate_weight
        )

    def decode(self, C: np.ndarray, X: Sequences | None = None) -> list[Any] | np.ndarray:
        F = self._features(C, X)
        labels = self.classifier_.predict(F) if F.shape[0] else np.zeros(0, dtype=int)
        ends = np.cumsum([len(x) for x in X])
        outputs = [[self.output_symbols_[j] for j in part] for part in np.split(labels, ends[:-1])]
        return _joined(outputs, self._strings)


class PositionDecoder(Decoder):
    r"""Decode string outputs position by position from the estimated point itself.

    The estimated coordinates stand for an expansion over the training outputs,
    :math:`\Psi = \sum_j \hat{c}_j v_j + \mu = \sum_i \gamma_i \phi_l(y_i)`;
    position :math:`q` of the output of :math:`x` takes the symbol the
    expansion weighs most there,

    .. math::

        \hat{y}_q = \arg\max_b \sum_i \gamma_i\, [y_{i,q} = b], \qquad q = 1, \ldots, |x|.

    With the one-hot position map of
    :class:`~preimage.kernels.WeightedDegreeKernel` (``degree=1``) as output
    kernel this is the exact pre-image :math:`\arg\min_y \|\phi_l(y) - \Psi\|^2`
    among strings of length :math:`|x|`; with a higher degree it keeps the
    degree-1 part. Unlike :class:`WindowDecoder` it knows which position it
    decodes, so an output symbol may depend on where it stands. Positions past
    every training output take the first output symbol.

    Parameters
    ----------
    method : "positions", default="positions"
        The name of the decoder.
    params : dict, default=None
        Unused.

    Attributes
    ----------
    output_symbols_ : list
        The output alphabet (training symbols, sorted).

    References
    ----------
    Bakır et al. (2004), Sec. 2.2, eq. 5; Mika et al. (1999), eq. 4.

    Examples
    --------
    Reversal, learned from 40 random words with position-aware kernels:

    >>> import numpy as np
    >>> from preimage import KernelDependencyEstimator
    >>> from preimage.kernels import WeightedDegreeKernel
    >>> rng = np.random.default_rng(0)
    >>> X = ["".join(rng.choice(list("abc"), 4)) for _ in range(40)]
    >>> kde = KernelDependencyEstimator(WeightedDegreeKernel(1), WeightedDegreeKernel(1),
    ...                                 method="positions", alpha=0.1)
    >>> kde.fit(X, [x[::-1] for x in X]).predict(["abca", "ccab"])
    ['acba', 'bacc']
    """

    needs_inputs = True

    def fit(self, X: Sequences, Y: Sequences, space: OutputSpace) -> Self:
        _check_string_pairs(X, Y, space, self.method)
        self.output_symbols_ = sorted({s for y in Y for s in y}, key=repr)
        code, V = {s: j for j, s in enumerate(self.output_symbols_)}, len(self.output_symbols_)
        # One-hot rows: column q V + b holds [y_iq = b].
        cols = [q * V + code[s] for y in Y for q, s in enumerate(y)]
        rows = np.repeat(np.arange(len(Y)), [len(y) for y in Y])
        shape = (len(Y), max(map(len, Y)) * V)
        self._one_hot = sp.csr_matrix((np.ones(len(cols)), (rows, cols)), shape=shape)
        self._space, self._strings = space, all(isinstance(y, str) for y in Y)
        return self

    def decode(self, C: np.ndarray, X: Sequences | None = None) -> list[Any] | np.ndarray:
        gamma, _ = expansion_coef(C, self._space.result.output_pca, add_mean=True)
        V, longest = len(self.output_symbols_), max(len(x) for x in X) if X else 0
        votes = np.asarray((self._one_hot.T @ gamma.T).T).reshape(len(C), -1, V)
        votes = np.pad(votes, ((0, 0), (0, max(longest - votes.shape[1], 0)), (0, 0)))
        best = votes.argmax(axis=2)
        outputs = [[self.output_symbols_[j] for j in best[i, : len(x)]] for i, x in enumerate(X)]
        return _joined(outputs, self._strings)


class PreimageDecoder(Decoder):
    r"""Decode vector outputs as pre-images of their estimated feature-space points.

    The estimated coordinates :math:`\hat{c}` stand for the point

    .. math::

        \Psi = \sum_j \hat{c}_j v_j + \mu, \qquad
        \hat{y} = \arg\min_y \|\phi_l(y) - \Psi\|^2,

    an expansion over the training outputs, which any pre-image method solves
    from the coordinates. A method that learns from pairs (``"learned"``,
    Sec. 3.1) is kernel ridge regression from the training coordinates to the
    centred training outputs, the mean added back.

    Parameters
    ----------
    method : str, solver or callable
        A name of :data:`~preimage.PREIMAGE_METHODS`, a solver (cloned) or a
        callable (see :func:`~preimage.solvers.make_solver`).
    params : dict, default=None
        Options of the method.

    Attributes
    ----------
    solver_ : PreimageSolver
        The fitted solver.

    References
    ----------
    Bakır et al. (2004), eq. 1; Sec. 2.2, eq. 5; Sec. 3.1.

    Examples
    --------
    With a linear output kernel the exact pre-image of the coordinates of 0.2 is 0.2:

    >>> import numpy as np
    >>> from preimage import KernelDependencyEstimator
    >>> kde = KernelDependencyEstimator(method="exact").fit([[0.0], [1.0]], [-1.0, 1.0])
    >>> np.round(kde.decoder_.decode(kde.transform_outputs([0.2])), 4)
    array([[0.2]])
    """

    def fit(self, X: Sequences, Y: Sequences, space: OutputSpace) -> Self:
        if space.kind != "vector" or not isinstance(space.kernel, Kernel):
            raise ValueError(
                f"'method'={self.method!r} searches the output space with a preimage "
                "Kernel on numeric outputs; for sequence outputs use a classifier or one "
                f"of {sorted(DECODERS)}"
            )
        solver = make_solver(self.method, self.params)
        if solver is self.method:  # a solver given as a parameter is cloned, as estimators are
            solver = clone(solver)
        pairs: dict[str, Any] = {}
        if solver.learns_from_pairs:
            pairs = {"coordinates": space.result.coordinates, "targets": Y, "center_targets": True}
        self.solver_ = solver.fit(Y, space.kernel, kpca=space.result.output_pca, **pairs)
        return self

    def decode(self, C: np.ndarray, X: Sequences | None = None) -> list[Any] | np.ndarray:
        return self.solver_.solve_coordinates(C, add_mean=True)


#: The decoders chosen by name; every other ``method`` is a classifier
#: (:class:`WindowDecoder`) or a pre-image method (:class:`PreimageDecoder`).
DECODERS: MappingProxyType[str, type[Decoder]] = MappingProxyType(
    {"candidates": CandidateDecoder, "knn": WindowDecoder, "positions": PositionDecoder}
)


def _is_classifier(method):
    """A scikit-learn classifier, told from a pre-image solver by what it has."""
    return hasattr(method, "fit") and hasattr(method, "predict") and not hasattr(method, "solve")


def make_decoder(method: Any, params: dict[str, Any] | None = None, **settings: Any) -> Decoder:
    r"""Make the decoder of `method`, ready to be fitted.

    A decoder solves the pre-image problem of kernel dependency estimation,

    .. math::

        \hat{y} \approx \arg\min_y \|c(y) - \hat{c}(x)\|^2,

    by search over candidates (:class:`CandidateDecoder`), symbol by symbol
    (:class:`WindowDecoder`) or with a pre-image method (:class:`PreimageDecoder`).

    Parameters
    ----------
    method : str, classifier, solver or callable
        A name of :data:`DECODERS`; a scikit-learn classifier (a
        :class:`WindowDecoder`); or a name of :data:`~preimage.PREIMAGE_METHODS`,
        a solver or a callable (a :class:`PreimageDecoder`).
    params : dict, default=None
        Options of the method.
    **settings
        ``window``, ``n_neighbors``, ``coordinate_weight``, ``candidates``: each takes its own.

    Returns
    -------
    Decoder
        The decoder, not fitted.

    References
    ----------
    Bakır et al. (2004), Sec. 2.2, eq. 5; Sec. 3.2.

    Examples
    --------
    >>> from preimage.dependency import make_decoder
    >>> make_decoder("knn", window=5, n_neighbors=3, candidates=None)
    WindowDecoder('knn', window=5, n_neighbors=3, coordinate_weight=1.0)
    >>> make_decoder("exact", window=5)           # a pre-image method takes no setting
    PreimageDecoder('exact')
    """
    cls: type[Decoder] = WindowDecoder if _is_classifier(method) else PreimageDecoder
    if isinstance(method, str):
        cls = DECODERS.get(method, cls)
    own = {name: settings[name] for name in cls.settings if name in settings}
    return cls(method, params, **own)
