"""Decoders: from estimated output coordinates back to outputs, the
pre-image step of kernel dependency estimation (Bakır, Weston & Schölkopf
2004, Secs. 2.2 and 3.2).

The estimated coordinates ``ĉ = k(x, X) β`` of an input stand for the point
``Σ_j ĉ_j v_j + μ`` of the output feature space; a decoder turns them into an
output:

* :class:`WindowDecoder` (``"knn"``, or any scikit-learn classifier): string
  outputs of the input's length, symbol by symbol. Position q of the output
  of x is the class a classifier gives to ``[w · ĉ(x), one-hot window of x
  centred at q]``, trained on the same features of every training position
  with the *true* coordinates of the training outputs (Sec. 3.2);
* :class:`CandidateDecoder` (``"candidates"``): the candidate output y whose
  coordinates are nearest, ``argmin_y ‖ĉ(x) − c(y)‖²`` (Weston et al. 2003);
  with a joint kernel the candidates are paired with x, so only those of its
  length qualify (``_candidates.py``, with :func:`nearest_coordinates`);
* :class:`PreimageDecoder` (every method of
  :data:`~preimage.PREIMAGE_METHODS`, a solver or a callable): vector
  outputs, the pre-image of ``Σ_j ĉ_j v_j + μ`` as an expansion over the
  training outputs, through the solver's ``solve_coordinates``.

Every decoder has the same small interface, :class:`Decoder` (``_base.py``:
made from the user's ``method`` and ``method_params``, fitted once on the
training pairs in their :class:`~preimage.dependency.OutputSpace`, then
``decode(C, X=None)``); this module holds the window and pre-image decoders,
:data:`DECODERS`, which registers the named ones, and :func:`make_decoder`,
the one dispatch.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Self

import numpy as np
from sklearn.base import clone
from sklearn.neighbors import KNeighborsClassifier

from preimage._utils.typing import Sequences
from preimage.dependency._base import Decoder
from preimage.dependency._candidates import CandidateDecoder
from preimage.dependency._strings import check_equal_lengths, string_preimage_features
from preimage.kernels import Kernel
from preimage.solvers import PREIMAGE_METHODS, make_solver

if TYPE_CHECKING:
    from preimage.dependency._data import OutputSpace

__all__ = [
    "DECODERS",
    "PreimageDecoder",
    "WindowDecoder",
    "make_decoder",
]


class WindowDecoder(Decoder):
    r"""Decode string outputs symbol by symbol from coordinates and input windows.

    Every position :math:`q` of every training string is one example, with
    features and label

    .. math::

        f_q(x_i) = \bigl[\, w\, P_i,\ \operatorname{onehot}(x_{i,q-n/2}, \ldots,
        x_{i,q+n/2}) \,\bigr], \qquad y_{i,q}

    (see :func:`~preimage.dependency.string_preimage_features`): the classifier is
    trained on the *true* coordinates :math:`P_i` of the training outputs and
    applied with the *estimated* coordinates :math:`\hat{c}(x)` of a test
    input (Bakır, Weston & Schölkopf 2004, Sec. 3.2). Outputs have the length
    of their input.

    Parameters
    ----------
    method : "knn" or classifier, default="knn"
        ``"knn"``: ``KNeighborsClassifier(n_neighbors)``; a scikit-learn
        classifier (``fit`` and ``predict``) is cloned.
    params : dict, default=None
        Parameters set on the classifier.
    window : int, default=3
        Odd window length :math:`n + 1`; positions beyond either end hold a
        terminal symbol.
    n_neighbors : int, default=1
        The number k of neighbours of the k-NN.
    coordinate_weight : float, default=1.0
        The factor :math:`w` on the coordinates (the window is one-hot,
        unscaled: see :func:`~preimage.dependency.string_preimage_features` for the
        distances); 0 gives the plain window classifier.

    Attributes
    ----------
    classifier_ : classifier
        The fitted position classifier.
    symbols_ : list
        The input alphabet of the windows (training symbols, sorted).
    output_symbols_ : list
        The output alphabet; the classifier's classes are indices into it.

    References
    ----------
    G. H. Bakır, J. Weston, B. Schölkopf. Learning to find pre-images. NIPS 16,
    2004 (Sec. 3.2: pre-images of strings of known length, each symbol
    predicted by a k-NN from the estimate and an input window).

    Examples
    --------
    Decoding the true coordinates of the training outputs gives them back:

    >>> from preimage.dependency import OutputSpace, WindowDecoder
    >>> from preimage.kernels import SpectrumKernel
    >>> X, Y = ["abab", "bbaa", "aabb"], ["xyxy", "yyxx", "xxyy"]
    >>> space = OutputSpace.of_pairs(X, Y, SpectrumKernel(2), "sequence")
    >>> _ = space.fit(SpectrumKernel(2))
    >>> decoder = WindowDecoder(window=3).fit(X, Y, space)
    >>> decoder.decode(space.result.coordinates, X)
    ['xyxy', 'yyxx', 'xxyy']
    """

    settings = ("window", "n_neighbors", "coordinate_weight")
    needs_inputs = True

    def __init__(
        self,
        method: Any = "knn",
        params: dict[str, Any] | None = None,
        *,
        window: int = 3,
        n_neighbors: int = 1,
        coordinate_weight: float = 1.0,
    ) -> None:
        super().__init__(method, params)
        self.window = window
        self.n_neighbors = n_neighbors
        self.coordinate_weight = coordinate_weight

    def fit(self, X: Sequences, Y: Sequences, space: OutputSpace) -> Self:
        """Fit the position classifier on every position of the training strings.

        Parameters
        ----------
        X : list or ndarray
            The checked training inputs.
        Y : list or ndarray
            The checked training outputs.
        space : OutputSpace
            The training pairs in the output feature space (kernel, kinds,
            KDE result).

        Returns
        -------
        WindowDecoder
            The fitted decoder.
        """
        if space.kind != "sequence" or space.input_kind != "sequence":
            raise ValueError(
                f"'method'={self.method!r} decodes strings position by position from "
                "input windows and needs sequence inputs and outputs; for vector "
                f"outputs use 'candidates' or one of {list(PREIMAGE_METHODS)}"
            )
        check_equal_lengths(X, Y, "Y")
        n_positions = sum(len(y) for y in Y)
        if n_positions == 0:
            raise ValueError(
                f"'method'={self.method!r} learns output symbols position by "
                "position, but every string of 'Y' is empty"
            )
        if isinstance(self.method, str):  # the k-NN of the paper
            if self.n_neighbors > n_positions:
                raise ValueError(
                    f"'n_neighbors' must be at most the {n_positions} symbol "
                    f"position(s) of the training strings, got "
                    f"{self.n_neighbors!r}"
                )
            self.classifier_ = KNeighborsClassifier(n_neighbors=self.n_neighbors)
        else:
            self.classifier_ = clone(self.method)
        if self.params:
            self.classifier_.set_params(**self.params)
        self.symbols_ = sorted({s for x in X for s in x}, key=repr)
        F = string_preimage_features(
            space.result.coordinates,
            X,
            self.window,
            self.symbols_,
            coordinate_weight=self.coordinate_weight,
        )
        # Symbols of any hashable type are encoded as integer classes.
        self.output_symbols_ = sorted({s for y in Y for s in y}, key=repr)
        code = {s: j for j, s in enumerate(self.output_symbols_)}
        self.classifier_.fit(F, np.array([code[s] for y in Y for s in y]))
        self._strings = all(isinstance(y, str) for y in Y)
        return self

    def decode(self, C: np.ndarray, X: Sequences | None = None) -> list[Any] | np.ndarray:
        """Decode strings of the inputs' lengths, symbol by symbol.

        Parameters
        ----------
        C : ndarray of shape (n, r)
            The checked output coordinates, one row per input.
        X : list of sequences
            The checked inputs, whose windows and lengths are used.

        Returns
        -------
        list
            The outputs: strings if the training outputs were strings,
            tuples of symbols otherwise.
        """
        F = string_preimage_features(
            C, X, self.window, self.symbols_, coordinate_weight=self.coordinate_weight
        )
        labels = self.classifier_.predict(F) if F.shape[0] else np.zeros(0, dtype=int)
        ends = np.cumsum([len(x) for x in X])
        outputs = [[self.output_symbols_[j] for j in part] for part in np.split(labels, ends[:-1])]
        # Strings come back as strings, other sequences as tuples of symbols.
        return ["".join(y) if self._strings else tuple(y) for y in outputs]


class PreimageDecoder(Decoder):
    r"""Decode vector outputs as pre-images of their estimated feature-space points.

    The estimated coordinates :math:`\hat{c}` stand for the point

    .. math::

        \Psi = \sum_j \hat{c}_j v_j + \mu, \qquad
        \hat{y} = \arg\min_y \|\phi_l(y) - \Psi\|^2

    of the output feature space (Bakır, Weston & Schölkopf 2004, eqs. 1 and
    5), an expansion over the training outputs with the output kernel's
    kernel PCA; any pre-image method solves it from the coordinates
    (``solve_coordinates(C, add_mean=True)``). A method that learns from
    pairs (``"learned"``, the paper's map of Sec. 3.1) is kernel ridge
    regression from the training coordinates :math:`P` to the centred
    training outputs, the mean added back: the map has no bias, and far from
    every training coordinate its value then stands for the mean output.

    Parameters
    ----------
    method : str, solver or callable
        A name of :data:`~preimage.PREIMAGE_METHODS`, a solver (cloned, then
        fitted on the training outputs) or a callable (see
        :func:`~preimage.solvers.make_solver`).
    params : dict, default=None
        Options of the method.

    Attributes
    ----------
    solver_ : PreimageSolver
        The fitted solver.

    References
    ----------
    G. H. Bakır, J. Weston, B. Schölkopf. Learning to find pre-images. NIPS 16,
    2004 (eq. 1: the pre-image problem; Sec. 2.2, eq. 5: the pre-image of
    the estimate; Sec. 3.1: the learned pre-image map).

    Examples
    --------
    With a linear output kernel the exact pre-image of the coordinates of the
    output 0.2 is 0.2:

    >>> import numpy as np
    >>> from preimage.dependency import OutputSpace, PreimageDecoder
    >>> from preimage.kernels import LinearKernel
    >>> X = np.array([[0.0], [1.0]])
    >>> space = OutputSpace.of_pairs(X, [-1.0, 1.0], "linear", "vector")
    >>> _ = space.fit(LinearKernel())
    >>> decoder = PreimageDecoder("exact").fit(X, space.Y, space)
    >>> np.round(decoder.decode(space.coordinates(np.array([[0.2]]))), 4)
    array([[0.2]])
    """

    def fit(self, X: Sequences, Y: Sequences, space: OutputSpace) -> Self:
        """Fit the pre-image solver on the training outputs and their kernel PCA.

        Parameters
        ----------
        X : list or ndarray
            The checked training inputs.
        Y : list or ndarray
            The checked training outputs.
        space : OutputSpace
            The training pairs in the output feature space (kernel, kinds,
            KDE result).

        Returns
        -------
        PreimageDecoder
            The fitted decoder.
        """
        if space.kind != "vector" or not isinstance(space.kernel, Kernel):
            raise ValueError(
                f"'method'={self.method!r} searches the output space with a preimage "
                "Kernel on numeric outputs; for sequence outputs use a classifier or one "
                f"of {sorted(DECODERS)}"
            )
        solver = make_solver(self.method, self.params)
        if solver is self.method:  # a solver given as a parameter is cloned, as estimators are
            solver = clone(solver)
        pairs: dict[str, Any] = (
            {"coordinates": space.result.coordinates, "targets": Y, "center_targets": True}
            if solver.learns_from_pairs
            else {}
        )
        self.solver_ = solver.fit(Y, space.kernel, kpca=space.result.output_pca, **pairs)
        return self

    def decode(self, C: np.ndarray, X: Sequences | None = None) -> list[Any] | np.ndarray:
        r"""Return the pre-images of the points :math:`\sum_j c_j v_j + \mu`.

        Parameters
        ----------
        C : ndarray of shape (n, r)
            The checked output coordinates.
        X : list or ndarray, default=None
            Unused.

        Returns
        -------
        ndarray of shape (n, n_output_features)
            The pre-images, one row per row of `C`.
        """
        return self.solver_.solve_coordinates(C, add_mean=True)


#: The decoders chosen by name; every other ``method`` is a classifier
#: (:class:`WindowDecoder`) or a pre-image method (:class:`PreimageDecoder`).
DECODERS: MappingProxyType[str, type[Decoder]] = MappingProxyType(
    {"candidates": CandidateDecoder, "knn": WindowDecoder}
)


def _is_classifier(method):
    """A scikit-learn classifier, told from a pre-image solver by what it has."""
    return hasattr(method, "fit") and hasattr(method, "predict") and not hasattr(method, "solve")


def make_decoder(method: Any, params: dict[str, Any] | None = None, **settings: Any) -> Decoder:
    r"""Make the decoder of `method`, ready to be fitted.

    A decoder solves the pre-image problem of kernel dependency estimation
    (Bakır, Weston & Schölkopf 2004, eq. 5): from estimated coordinates
    :math:`\hat{c}(x) = k(x, X)\,\beta` to an output :math:`\hat{y}` whose
    coordinates are near them,

    .. math::

        \hat{y} \approx \arg\min_y \|c(y) - \hat{c}(x)\|^2,

    by search over candidates (:class:`CandidateDecoder`), symbol by symbol
    (:class:`WindowDecoder`) or with a pre-image method
    (:class:`PreimageDecoder`).

    Parameters
    ----------
    method : str, classifier, solver or callable
        A name of :data:`DECODERS`; a scikit-learn classifier (a
        :class:`WindowDecoder` with a clone of it); or a name of
        :data:`~preimage.PREIMAGE_METHODS`, a solver or a callable (a
        :class:`PreimageDecoder`).
    params : dict, default=None
        Options of the method.
    **settings
        The settings ``window``, ``n_neighbors``, ``coordinate_weight`` and
        ``candidates``: each decoder takes those it names in its
        ``settings``.

    Returns
    -------
    Decoder
        The decoder, not fitted.

    References
    ----------
    G. H. Bakır, J. Weston, B. Schölkopf. Learning to find pre-images. NIPS 16,
    2004 (Sec. 2.2, eq. 5: the pre-image problem of KDE; Sec. 3.2:
    pre-images of strings).

    Examples
    --------
    >>> from preimage.dependency import make_decoder
    >>> make_decoder("knn", window=5, n_neighbors=3, candidates=None)
    WindowDecoder('knn', window=5, n_neighbors=3, coordinate_weight=1.0)
    >>> make_decoder("exact", window=5)           # a pre-image method takes no setting
    PreimageDecoder('exact')
    """
    if isinstance(method, str) and method in DECODERS:
        cls = DECODERS[method]
    elif _is_classifier(method):
        cls = WindowDecoder
    else:
        cls = PreimageDecoder
    return cls(
        method, params, **{name: settings[name] for name in cls.settings if name in settings}
    )
