"""String kernels: spectrum, joint spectrum, weighted degree, normalised, and the RBF of a
kernel distance."""

from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from preimage._utils.typing import ArrayLike, Sequences, Vocabulary
from preimage._utils.validation import (
    check_array_2d,
    check_overflow,
    check_positive,
    check_positive_int,
    check_real_array,
)
from preimage._utils.warnings import warn
from preimage.exceptions import NumericalWarning
from preimage.kernels._base import Kernel
from preimage.kernels._docs import fill
from preimage.kernels._sequence import SequenceKernel, _check_sequences, _count_matrix, _row_norms2

_NORMALIZATIONS = ("cosine", "trace")
_Features = tuple[sp.csr_matrix, Vocabulary]  # sparse features, feature to column


def _warn_zero_rows(n_zero, what):
    if n_zero:
        warn(
            f"{n_zero} {what} with k(x, x) = 0 (for a spectrum kernel: shorter than p, "
            "so no p-grams); their normalised kernel values were set to 0 instead of NaN",
            NumericalWarning,
        )


def _row_scales(d, method):
    """Row factors for squared norms `d`: 1/√d or 1/Σd, 0 (warned of) for 0."""
    if method == "trace":
        t = d.sum()
        _warn_zero_rows(d.size if t == 0 else 0, "sequences (the whole set)")
        return np.full(d.size, 1.0 / t if t > 0 else 0.0)
    _warn_zero_rows(int((d == 0).sum()), "sequences")
    return _inverse_sqrt(d)


def _inverse_sqrt(d):
    """``1/√d`` for squared norms `d`, 0 where d = 0."""
    s = np.sqrt(d)
    return np.divide(1.0, s, out=np.zeros_like(s), where=s > 0)


def normalize_gram(
    S: ArrayLike,
    diag_x: ArrayLike | None = None,
    diag_y: ArrayLike | None = None,
    method: str = "cosine",
) -> np.ndarray:
    r"""Normalise a Gram block, :math:`S \leftarrow D_x^{-1} S D_y^{-1}`.

    Parameters
    ----------
    S : array-like of shape (n_x, n_y)
        Kernel values :math:`k(x_i, y_j)`.
    diag_x : array-like of shape (n_x,), optional
        :math:`k(x_i, x_i)`; by default the diagonal of `S` (then square).
    diag_y : array-like of shape (n_y,), optional
        :math:`k(y_j, y_j)`; by default `diag_x`.
    method : {"cosine", "trace"}, default="cosine"
        :math:`D_{ii} = \sqrt{k(x_i, x_i)}` (cosine), or :math:`D_{ii} = \sum_i S_{ii}`
        and :math:`S \leftarrow S / (\operatorname{tr}_x \operatorname{tr}_y)` (trace).

    Returns
    -------
    ndarray of shape (n_x, n_y)
        The normalised block.

    Notes
    -----
    Bakır et al.'s :math:`D_{ii} = \sum_i S_{ii}` read literally is the trace;
    the usual normalisation is the cosine. Rows with :math:`k(x, x) = 0` get 0,
    with a :class:`~preimage.exceptions.NumericalWarning`.

    References
    ----------
    Bakır et al. (2004), Sec. 4.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.kernels import normalize_gram
    >>> normalize_gram(np.array([[4.0, 2.0], [2.0, 9.0]])).round(4)  # 2 / sqrt(4 * 9)
    array([[1.    , 0.3333],
           [0.3333, 1.    ]])
    """
    if method not in _NORMALIZATIONS:
        raise ValueError(f"'method' must be one of {list(_NORMALIZATIONS)}, got {method!r}")
    S = check_real_array(S, "S")
    if S.ndim != 2:
        raise ValueError(f"'S' must be a 2-D Gram block, got shape {S.shape}")
    own_diagonal = diag_x is None and diag_y is None
    if diag_x is None:
        if S.shape[0] != S.shape[1]:
            raise ValueError(f"'diag_x' is needed for a non-square block 'S' of shape {S.shape}")
        diag_x = np.diagonal(S)
    diag_x = check_real_array(diag_x, "diag_x").ravel()
    diag_y = diag_x if diag_y is None else check_real_array(diag_y, "diag_y").ravel()
    for name, d, n in (("diag_x", diag_x, S.shape[0]), ("diag_y", diag_y, S.shape[1])):
        if d.shape != (n,):
            raise ValueError(
                f"{name!r} must have length {n} to match 'S' of shape "
                f"{S.shape}, got length {d.size}"
            )
        if (d < 0).any():
            raise ValueError(
                f"{name!r} must hold finite non-negative values k(x, x), got minimum {d.min()!r}"
            )

    # A trace beyond float64 scales S to 0; an overflow is refused below.
    with np.errstate(over="ignore"):
        if method == "trace":
            scale = float(diag_x.sum()) * float(diag_y.sum())
            if scale == 0:
                _warn_zero_rows(S.shape[0], "sequences (the whole block)")
                return np.zeros_like(S)
            out, own_diagonal = S / scale, False
        else:
            n_zero = int((diag_x == 0).sum()) + (0 if own_diagonal else int((diag_y == 0).sum()))
            _warn_zero_rows(n_zero, "sequences")
            # Exactly symmetric when X is Y.
            out = S * (_inverse_sqrt(diag_x)[:, None] * _inverse_sqrt(diag_y)[None, :])
    hint = (
        "'S' is not a Gram block of the given diagonals: some |S_ij| exceed "
        "√(k(x_i, x_i) k(y_j, y_j)) by far"
    )
    check_overflow(out, "the normalised values", "'S'", hint)
    if own_diagonal:
        np.fill_diagonal(out, (diag_x != 0).astype(np.float64))
    return out


@dataclass(frozen=True)
class SpectrumKernel(SequenceKernel):
    r"""The p-spectrum kernel: the number of shared contiguous p-grams (Bakır et al.'s :math:`\phi_k`).

    .. math:: k(x, x') = \sum_{\alpha \in \Sigma^p}
              \mathrm{count}_\alpha(x)\, \mathrm{count}_\alpha(x'),
              \qquad \mathrm{count}_\alpha(x) =
              \sum_{i=1}^{|x|-p+1} [x_i \ldots x_{i+p-1} = \alpha].

    Parameters
    ----------
    p : int, default=3
        Length of the contiguous subsequences (p-grams) counted.

    Notes
    -----
    ``"abc"`` and ``["a", "b", "c"]`` are the same sequence.

    References
    ----------
    Leslie et al. (2002).
    Bakır et al. (2004), Sec. 4.

    Examples
    --------
    >>> from preimage.kernels import SpectrumKernel
    >>> k = SpectrumKernel(p=2)
    >>> k(["abab", "bab"], [["a", "b"]])  # "ab" occurs twice, then once
    array([[2.],
           [1.]])
    """

    p: int = 3

    def __post_init__(self):
        check_positive_int(self.p, "p")

    def _grams(self, s):
        return zip(*(s[k:] for k in range(self.p)))


@dataclass(frozen=True)
class JointSpectrumKernel(SequenceKernel):
    r"""Joint spectrum kernel on pairs ``(x, y)`` of equal-length sequences.

    The output feature map :math:`\phi_l(x, y)` of Bakır et al.: one feature
    per input p-gram :math:`\alpha` and output symbol b at its centre,

    .. math:: \phi_{\alpha, b}(x, y) = \sum_{i=1}^{|x|-p+1}
              [x_i \ldots x_{i+p-1} = \alpha]\, [y_{i+(p-1)/2} = b],
              \qquad k((x, y), (x', y')) = \langle \phi(x, y),
              \phi(x', y') \rangle.

    Parameters
    ----------
    p : int, default=3
        Window length, odd so that the window has a centre.

    References
    ----------
    Bakır et al. (2004), Sec. 4.

    Examples
    --------
    >>> from preimage.kernels import JointSpectrumKernel
    >>> k = JointSpectrumKernel(p=3)
    >>> k([("abcab", "11212")])  # windows abc|1, bca|2, cab|1: three features
    array([[3.]])
    """

    p: int = 3

    joint = True  # it takes (x, y) pairs

    def __post_init__(self):
        check_positive_int(self.p, "p")
        if self.p % 2 == 0:
            raise ValueError(f"'p' must be odd so that a window has a centre, got {self.p!r}")

    def _check(self, X, name):
        return _check_sequences(X, name, pairs=True)

    def _grams(self, pair):
        x, y = pair
        windows = zip(*(x[k:] for k in range(self.p)))
        return zip(windows, y[(self.p - 1) // 2 :])


@fill
@dataclass(frozen=True)
class WeightedDegreeKernel(SequenceKernel):
    r"""The weighted-degree kernel: substrings matched where they stand, up to a shift.

    The d-grams :math:`u_{d,l}(x) = x_l \ldots x_{l+d-1}` of two sequences are
    compared position by position, those `shift` positions apart too,

    .. math:: k(x, x') = \sum_{d=1}^{D} \beta_d \sum_{l, l'} w_{|l - l'|}\,
              [u_{d,l}(x) = u_{d,l'}(x')], \qquad
              \beta_d = \frac{2(D - d + 1)}{D(D + 1)}, \quad
              w_0 = 1, \; w_s = \frac{1}{2(s + 1)} \; (1 \le s \le S),

    over the positions :math:`l, l'` where both d-grams exist and
    :math:`|l - l'| \le S`. Positions count from the start (strings of
    different lengths compare the positions they share), from the end, or
    both ways (the sum of the two kernels). With ``shift=0`` it is the
    weighted-degree kernel of Rätsch and Sonnenburg (2004), the weighted count
    of common d-grams at the same positions; ``shift=S`` is that of Rätsch,
    Sonnenburg and Schölkopf (2005), where
    :math:`[u_{d,l+s}(x) = u_{d,l}(x')] + [u_{d,l}(x) = u_{d,l+s}(x')]`
    weighs :math:`1/(2(s + 1))`.

    Unlike the spectrum kernel, the features say where a symbol stands: a map
    whose output symbol depends on its position (reversal, say) is linear in them.

    Parameters
    ----------
    degree : int, default=3
        The longest substring :math:`D` compared.
    shift : int, default=0
        The largest shift :math:`S \ge 0`.
    align : {"start", "end", "both"}, default="start"
        Where positions count from. ``"both"`` lets a regression on the
        features tell how far a symbol stands from either end: reversing
        strings of several lengths needs it.

    Notes
    -----
    The weights :math:`w_{|l - l'|}` form a symmetric Toeplitz matrix whose
    symbol :math:`\sum_{s=0}^{S} \cos(s\omega)/(s + 1)` stays at or above 1/2
    (checked numerically for :math:`S \le 1000`), so the kernel is positive
    semi-definite for every shift. Explicit sparse features (one per degree,
    end, position and d-gram, scaled by :math:`\sqrt{\beta_d}`) exist for
    ``shift=0`` only. Rätsch and Sonnenburg define the kernel on strings of one
    length, where ``"start"`` and ``"end"`` agree.

    References
    ----------
    Rätsch and Sonnenburg (2004). Rätsch, Sonnenburg and Schölkopf (2005).

    Examples
    --------
    The spectrum kernel cannot tell "ab" from "ba"; this one can:

    >>> from preimage.kernels import SpectrumKernel, WeightedDegreeKernel
    >>> SpectrumKernel(p=1)(["ab", "ba"])
    array([[2., 2.],
           [2., 2.]])
    >>> WeightedDegreeKernel(degree=1)(["ab", "ba"])
    array([[2., 0.],
           [0., 2.]])
    >>> WeightedDegreeKernel(degree=1, shift=1)(["ab"], ["ba"])  # a and b one apart: 2 / 4
    array([[0.5]])
    """

    degree: int = 3
    shift: int = 0
    align: str = "start"

    def __post_init__(self):
        check_positive_int(self.degree, "degree")
        check_positive_int(self.shift, "shift", minimum=0)
        if self.align not in ("start", "end", "both"):
            raise ValueError(
                f"'align' must be one of ['start', 'end', 'both'], got {self.align!r}"
            )

    @property
    def _no_features(self):  # a class attribute in the base
        return "a shift" if self.shift else ""

    def _grams(self, s, offset=0):
        """The features ``(d, from the end, position + offset, d-gram)`` of `s`."""
        n, ends = len(s), {"start": (0,), "end": (1,), "both": (0, 1)}[self.align]
        return (
            (d, e, i - e * n + offset, tuple(s[i : i + d]))
            for e in ends
            for d in range(1, self.degree + 1)
            for i in range(n - d + 1)
        )

    def _beta(self, vocabulary, n):
        """The weight β_d of each of the `n` columns of `vocabulary`."""
        D, beta = self.degree, np.zeros(n)
        for (d, *_), j in vocabulary.items():
            beta[j] = 2.0 * (D - d + 1) / (D * (D + 1))
        return beta

    def _sides(self, X, Y):
        """Features of `X` weighted by β_d; those of `Y` moved by every shift s,
        weighted by w_|s|, summed."""
        F, vocabulary = _count_matrix(map(self._grams, X), None, "X")
        G = _count_matrix(map(self._grams, Y), vocabulary, "Y")[0]
        for s in filter(None, range(-self.shift, self.shift + 1)):  # every s but 0
            moved = _count_matrix((self._grams(y, s) for y in Y), vocabulary, "Y")[0]
            G = G + moved / (2 * abs(s) + 2)
        return F @ sp.diags(self._beta(vocabulary, F.shape[1])), G

    def features(self, X: Sequences, vocabulary: Vocabulary | None = None) -> _Features:
        r"""Return the sparse d-gram indicators, scaled by :math:`\sqrt{\beta_d}`.

        Parameters
        ----------
        %(sequences)s
        %(vocabulary)s

        Returns
        -------
        F : scipy.sparse.csr_matrix of shape (n, n_features)
            The scaled indicators.
        vocabulary : dict
            Feature ``(d, from the end, position, d-gram)`` to column index;
            ``from the end`` is 1 where positions count from the end (negative).
        """
        F, vocabulary = super().features(X, vocabulary)
        return F @ sp.diags(np.sqrt(self._beta(vocabulary, F.shape[1]))), vocabulary

    def __call__(self, X: Sequences, Y: Sequences | None = None) -> np.ndarray:
        """Gram block ``K_ij = k(x_i, y_j)`` of shape (n_x, n_y), float64."""
        X = self._check(X, "X")
        F, G = self._sides(X, X if Y is None else self._check(Y, "Y"))
        return np.asarray((F @ G.T).toarray(), dtype=np.float64)

    def diag(self, X: Sequences) -> np.ndarray:
        r"""Return the diagonal :math:`k(x_i, x_i)`.
        %(seq_diag)s
        """
        X = self._check(X, "X")
        F, G = self._sides(X, X)
        return np.asarray(F.multiply(G).sum(axis=1), dtype=np.float64).ravel()


class _WrappedKernel(SequenceKernel):
    """A kernel on the input of its kernel `base`."""

    base: SequenceKernel | Kernel  # the subclasses' field

    def __post_init__(self):
        if not isinstance(self.base, (SequenceKernel, Kernel)):
            raise TypeError(
                f"'base' must be a SequenceKernel (e.g. SpectrumKernel(p=3)) or a "
                f"preimage Kernel, got {self.base!r}"
            )

    @property
    def joint(self) -> bool:  # type: ignore[override]  # a class attribute in the base
        """The base kernel takes ``(x, y)`` pairs."""
        return isinstance(self.base, SequenceKernel) and self.base.joint

    @property
    def vector_input(self) -> bool:  # type: ignore[override]  # a class attribute in the base
        """The base kernel (or the one it wraps) takes numeric vectors."""
        return isinstance(self.base, Kernel) or self.base.vector_input

    def _check(self, X, name):
        check = self.base._check if isinstance(self.base, SequenceKernel) else check_array_2d
        return check(X, name)


@fill
@dataclass(frozen=True)
class NormalizedKernel(_WrappedKernel):
    r"""A base kernel normalised, :math:`\tilde k = D^{-1} k D^{-1}`.

    .. math:: \tilde k(x, y) = \frac{k(x, y)}{\sqrt{k(x, x)\, k(y, y)}} \quad (\text{cosine}).

    Parameters
    ----------
    base : SequenceKernel or Kernel, default=SpectrumKernel()
        The kernel to normalise.
    method : {"cosine", "trace"}, default="cosine"
        See :func:`normalize_gram`; ``"trace"`` values depend on the other
        sequences passed with them, ``"cosine"`` is a genuine kernel.

    References
    ----------
    Bakır et al. (2004), Sec. 4.

    Examples
    --------
    >>> from preimage.kernels import NormalizedKernel, SpectrumKernel
    >>> k = NormalizedKernel(SpectrumKernel(p=1))
    >>> k(["aab", "ab"]).round(4)  # counts (2, 1) and (1, 1): 3 / sqrt(5 * 2)
    array([[1.    , 0.9487],
           [0.9487, 1.    ]])
    """

    base: SequenceKernel | Kernel = field(default_factory=SpectrumKernel)
    method: str = "cosine"

    def __post_init__(self):
        super().__post_init__()
        if self.method not in _NORMALIZATIONS:
            raise ValueError(
                f"'method' must be one of {list(_NORMALIZATIONS)}, got {self.method!r}"
            )

    def features(self, X: Sequences, vocabulary: Vocabulary | None = None) -> _Features:
        r"""Return the base kernel's sparse features scaled, :math:`D^{-1} F`.

        Parameters
        ----------
        %(sequences)s
        %(vocabulary)s

        Returns
        -------
        F : scipy.sparse.csr_matrix of shape (n, n_features)
            The scaled counts.
        vocabulary : dict
            Feature to column index.
        """
        if not isinstance(self.base, SequenceKernel):
            raise NotImplementedError(
                f"{type(self.base).__name__} has no explicit sparse features"
            )
        F, vocabulary = self.base.features(X, vocabulary)
        return sp.diags(_row_scales(_row_norms2(F), self.method)) @ F, vocabulary

    def __call__(self, X: Sequences, Y: Sequences | None = None) -> np.ndarray:
        """Normalised Gram block, ``normalize_gram(k(X, Y), k(X), k(Y), method)``."""
        S = self.base(X, Y)
        diags = (None, None) if Y is None else (self.base.diag(X), self.base.diag(Y))
        return normalize_gram(S, *diags, self.method)

    def diag(self, X: Sequences) -> np.ndarray:
        r"""Return the diagonal: 1 (cosine) or :math:`k(x_i, x_i) / \operatorname{tr}^2`.
        %(seq_diag)s
        """
        d = np.asarray(self.base.diag(X), dtype=np.float64)
        _row_scales(d, self.method)  # warns of zero rows
        if self.method == "trace":
            return d / d.sum() ** 2 if d.sum() > 0 else np.zeros_like(d)
        return (d != 0).astype(np.float64)


@fill
@dataclass(frozen=True)
class KernelDistanceRBF(_WrappedKernel):
    r"""RBF of the distance a base kernel induces, :math:`\exp(-\gamma\, d(x, x'))`.

    .. math:: K(x, x') = \exp(-\gamma\, d(x, x')), \qquad
              d(x, x')^2 = k(x, x) + k(x', x') - 2 k(x, x').

    Parameters
    ----------
    base : SequenceKernel or Kernel, default=SpectrumKernel()
        The kernel whose feature-space distance is used.
    %(gamma)s
        The paper's :math:`\exp(-d(x, x'))` is ``gamma=1``.

    Notes
    -----
    The distance, not its square, is conditionally negative definite
    (Schoenberg): the kernel is positive semi-definite for any base kernel.

    References
    ----------
    Bakır et al. (2004), Sec. 4.

    Examples
    --------
    >>> from preimage.kernels import KernelDistanceRBF, SpectrumKernel
    >>> k = KernelDistanceRBF(SpectrumKernel(p=1), gamma=0.5)
    >>> k(["ab", "b"]).round(4)  # d^2 = 2 + 1 - 2 * 1 = 1, exp(-0.5)
    array([[1.    , 0.6065],
           [0.6065, 1.    ]])
    """

    base: SequenceKernel | Kernel = field(default_factory=SpectrumKernel)
    gamma: float = 1.0

    _no_features = "exp of a distance"

    def __post_init__(self):
        super().__post_init__()
        check_positive(self.gamma, "gamma")

    def __call__(self, X: Sequences, Y: Sequences | None = None) -> np.ndarray:
        r"""Gram block :math:`\exp(-\gamma\, d(x_i, y_j))`, from one base block and two diagonals."""
        S = np.asarray(self.base(X, Y), dtype=np.float64)
        diags = [np.diagonal(S)] * 2 if Y is None else map(self.base.diag, (X, Y))
        dx, dy = (np.asarray(d, dtype=np.float64) for d in diags)
        d2 = np.maximum(dx[:, None] + dy[None, :] - 2.0 * S, 0.0)
        if Y is None:
            np.fill_diagonal(d2, 0.0)
        return np.exp(np.sqrt(d2) * -self.gamma)

    def diag(self, X: Sequences) -> np.ndarray:
        r"""Return the diagonal, :math:`K(x, x) = \exp(0) = 1`.
        %(seq_diag)s
        """
        return np.ones(len(self._check(X, "X")))
