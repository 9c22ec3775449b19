"""The candidate-set search of kernel dependency estimation."""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass
from typing import TYPE_CHECKING, Any, Self

import numpy as np
from scipy.spatial.distance import cdist

from preimage._utils.typing import ArrayLike, Sequences
from preimage._utils.validation import check_array_2d
from preimage.dependency._base import Decoder

if TYPE_CHECKING:
    from preimage.dependency._data import OutputSpace


@dataclass(eq=False, repr=False)  # the constructor is the dataclass's
class CandidateDecoder(Decoder):
    r"""Decode to the candidate whose output coordinates are nearest the estimated ones.

    .. math::

        \hat{y} = \arg\min_{y \in \mathcal{C}} \|\hat{c}(x) - c(y)\|^2

    over the candidate outputs :math:`\mathcal{C}`. With a joint output kernel
    each candidate is paired with the input, :math:`c(x, y)`, so only
    candidates of the input's length qualify (a ValueError if none has it).

    Parameters
    ----------
    method : "candidates", default="candidates"
        The name of the decoder.
    params : dict, default=None
        Unused.
    candidates : list or array-like, default=None
        Candidate outputs; None takes the training outputs.

    Attributes
    ----------
    candidates_ : list or ndarray
        The checked candidates.

    References
    ----------
    Weston et al. (2003). Bakır et al. (2004), Sec. 2.2, eq. 5.

    Examples
    --------
    With a linear output kernel the coordinates of 0.2 decode to the nearest candidate:

    >>> from preimage import KernelDependencyEstimator
    >>> kde = KernelDependencyEstimator(method="candidates", candidates=[[-1.0], [0.0], [1.0]])
    >>> kde = kde.fit([[0.0], [1.0]], [-1.0, 1.0])
    >>> kde.decoder_.decode(kde.transform_outputs([0.2]))
    array([[0.]])
    """

    settings = ("candidates",)

    method: Any = "candidates"
    params: dict[str, Any] | None = None
    _: KW_ONLY
    candidates: Sequences | ArrayLike | None = None

    @property
    def needs_inputs(self) -> bool:  # type: ignore[override]  # a class attribute in the base
        """A joint kernel pairs each candidate with the input."""
        return self.space_.joint

    def fit(self, X: Sequences, Y: Sequences, space: OutputSpace) -> Self:
        self.space_ = space
        cands = self.candidates
        self.candidates_ = Y if cands is None else space.check_outputs(cands, "candidates")
        if not space.joint:
            self._coordinates = space.coordinates(self.candidates_)
        return self

    def decode(self, C: np.ndarray, X: Sequences | None = None) -> list[Any] | np.ndarray:
        cands = self.candidates_
        if not self.space_.joint:
            index, _ = nearest_coordinates(C, self._coordinates)
            return cands[index] if isinstance(cands, np.ndarray) else [cands[i] for i in index]
        # Every (input, candidate) pair of equal lengths; the nearest of each input's.
        pairs = [(j, c) for j, x in enumerate(X) for c, y in enumerate(cands) if len(y) == len(x)]
        owner, which = np.array(pairs, dtype=int).reshape(-1, 2).T
        missing = np.setdiff1d(np.arange(len(X)), owner)
        if missing.size:
            raise ValueError(
                f"'candidates' holds no output of length {len(X[missing[0]])}, the length "
                f"of input {missing[0]} (a joint kernel pairs each candidate with the "
                "input, so their lengths must match)"
            )
        C_pairs = self.space_.coordinates([cands[c] for c in which], [X[j] for j in owner])
        D = np.full((len(X), len(cands)), np.inf)
        D[owner, which] = np.sum((C_pairs - C[owner]) ** 2, axis=1)
        return [cands[c] for c in D.argmin(axis=1)]


def nearest_coordinates(
    query: ArrayLike, candidates: ArrayLike, mask: ArrayLike | None = None
) -> tuple[np.ndarray, np.ndarray]:
    r"""Return the index of the candidate nearest each query, and the squared distance.

    .. math::

        \operatorname{index}_k = \arg\min_c \|q_k - c\|^2

    over the candidates :math:`c` (rows of `candidates`) that `mask` allows.

    Parameters
    ----------
    query : array-like of shape (m, r)
        The query coordinates :math:`q_k`.
    candidates : array-like of shape (n_candidates, r)
        The candidate coordinates.
    mask : array-like of bool of shape (m, n_candidates), default=None
        The allowed (query, candidate) pairs, at least one a row; None allows all.

    Returns
    -------
    index : ndarray of shape (m,)
        The index of the nearest allowed candidate of each query.
    distance2 : ndarray of shape (m,)
        Its squared distance to the query.

    References
    ----------
    Weston et al. (2003). Bakır et al. (2004), Sec. 2.2, eq. 5.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.dependency import nearest_coordinates
    >>> index, distance2 = nearest_coordinates([[0.9, 0.0]], [[0.0, 0.0], [1.0, 0.0]])
    >>> index, np.round(distance2, 4)   # (1 - 0.9)**2
    (array([1]), array([0.01]))
    """
    Q = check_array_2d(query, "query", dtype=np.float64, min_samples=0)
    C = check_array_2d(candidates, "candidates", dtype=np.float64, n_features=Q.shape[1])
    if mask is not None:
        mask = np.asarray(mask)
        if mask.dtype != bool or mask.shape != (Q.shape[0], C.shape[0]):
            raise ValueError(
                f"'mask' must be a boolean array of shape {(Q.shape[0], C.shape[0])} (queries, "
                f"candidates), got {mask.dtype} of shape {mask.shape}"
            )
        if not mask.any(axis=1).all():
            raise ValueError(
                f"'mask' must allow at least one candidate for every query; "
                f"row {int(np.argmin(mask.any(axis=1)))} allows none"
            )
    d2 = cdist(Q, C, "sqeuclidean")  # check_array_2d bounds the magnitudes: no overflow
    if mask is not None:
        d2 = np.where(mask, d2, np.inf)
    index = d2.argmin(axis=1)
    return index, d2[np.arange(len(index)), index]
