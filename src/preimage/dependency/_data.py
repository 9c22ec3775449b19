"""What kernel dependency estimation takes: numeric vectors or sequences of
symbols, the kernel on each, and the training pairs in the output feature space.

Inputs and outputs are each of one kind: ``"vector"`` (2-D numeric arrays; 1-D
outputs are one column) or ``"sequence"`` (lists of strings or of tuples of
symbols). The kind follows from the kernel: a kernel of :mod:`preimage.kernels`
or its name takes vectors, a :class:`~preimage.kernels.SequenceKernel` what it
says it takes, and a user's function on two samples what it is given.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp

from preimage._utils.memory import check_dense
from preimage._utils.typing import ArrayLike, Sequences
from preimage._utils.validation import check_array_2d
from preimage.dependency._fit import KDEResult, fit_kde, output_coordinates
from preimage.dependency._strings import check_equal_lengths, check_sequences
from preimage.kernels import CallableSequenceKernel, Kernel, SequenceKernel, make_kernel
from preimage.kernels._expansion import FeatureExpansion
from preimage.kpca._fit import expansion_coef


def _is_numeric(data):
    """True for numeric data (arrays, lists of numbers, sparse matrices, data
    frames), False for sequences of symbols."""
    if isinstance(data, (str, bytes)):
        return False
    if sp.issparse(data):
        return True  # refused as sparse by the numeric checks
    if isinstance(data, np.ndarray):
        arr = data
    else:
        try:
            arr = np.asarray(data)
        except ValueError:  # ragged: sequences of different lengths
            return False
        if arr.ndim not in (1, 2):
            return False
    if arr.dtype.kind == "O":  # numbers held as objects, or strings
        return not any(isinstance(v, (str, bytes, list, tuple)) for v in arr.flat)
    return arr.dtype.kind in "biufc"


def data_kind(kernel, data, name="kernel", data_name="X"):
    """The kind of data `kernel` takes, ``"vector"`` or ``"sequence"``; a
    kernel on numeric arrays given sequences is refused, naming `name` and
    `data_name`."""
    if isinstance(kernel, SequenceKernel):
        return "vector" if kernel.vector_input else "sequence"
    numeric = _is_numeric(data)
    if isinstance(kernel, (str, Kernel)) and not numeric:
        raise ValueError(
            f"{name!r}={kernel!r} works on numeric arrays, but {data_name!r} holds "
            "sequences; for strings pass a SequenceKernel such as "
            "preimage.kernels.SpectrumKernel(p=3), or a callable on two sequences"
        )
    return "vector" if numeric else "sequence"


def resolve_kernel(kernel, kind, X):
    """The kernel object of `kernel` on data `X` of `kind`: an object as it is,
    a name with its default width from `X`, a callable wrapped."""
    if isinstance(kernel, (Kernel, SequenceKernel)):
        return kernel
    if kind == "sequence":
        return CallableSequenceKernel(kernel)
    return make_kernel(kernel, X=X)


def check_outputs(Y, kind, name="Y", *, n_features=None):
    """Outputs of `kind` as a finite 2-D float array (1-D as one column) or a
    non-empty list of sequences, or an error naming `name`."""
    if kind == "vector":
        Y = np.asarray(Y)
        if Y.dtype == object:  # numbers held as objects (a data frame's, say)
            try:
                Y = Y.astype(np.float64)
            except (TypeError, ValueError):
                pass  # refused below, naming `name`
        return check_array_2d(Y.reshape(-1, 1) if Y.ndim == 1 else Y, name, n_features=n_features)
    return check_sequences(Y, name, min_samples=1)


@dataclass(eq=False)
class OutputSpace:
    """The training pairs of kernel dependency estimation in the output feature space.

    What the regression is fitted on and a decoder is fitted with, and where
    the coordinates of any output come from. Made by :meth:`of_pairs`, which
    checks the pairs; the fields are attributes of the same names.

    Parameters
    ----------
    kernel : Kernel or SequenceKernel
        The output kernel l, with Gram blocks ``l(A, B)``.
    kind, input_kind : {"vector", "sequence"}
        What the outputs and the inputs are.
    joint : bool
        Whether l takes ``(x, y)`` pairs of an input and its output.
    X, Y : list or ndarray
        The checked training inputs and outputs (vectors as 2-D arrays).
    one_d : bool, default=False
        Whether the vector outputs came as a 1-D array.
    result : KDEResult, default=None
        The fit on the Gram matrices, set by :meth:`fit`.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.dependency import OutputSpace
    >>> from preimage.kernels import LinearKernel
    >>> X = np.array([[0.0], [1.0]])
    >>> space = OutputSpace.of_pairs(X, [-1.0, 1.0], "linear", "vector")
    >>> space
    OutputSpace(kernel=LinearKernel(), kind='vector', input_kind='vector', joint=False, one_d=True)
    >>> _ = space.fit(LinearKernel())
    >>> np.round(np.abs(space.coordinates(np.array([[0.2]]))), 4)  # linear: y - mean
    array([[0.2]])
    """

    kernel: Kernel | SequenceKernel
    kind: str
    input_kind: str
    joint: bool
    X: Any = field(repr=False)  # list of sequences or 2-D array
    Y: Any = field(repr=False)  # list of sequences or 2-D array
    one_d: bool = False
    result: KDEResult | None = field(default=None, repr=False)

    @classmethod
    def of_pairs(
        cls,
        X: Sequences | np.ndarray,
        Y: Sequences | ArrayLike,
        kernel: str | Kernel | SequenceKernel | Callable[..., float],
        input_kind: str,
        *,
        joint: bool | None = None,
    ) -> OutputSpace:
        """Check the outputs of training inputs and make their output space.

        Parameters
        ----------
        X : list of sequences or ndarray
            The checked training inputs.
        Y : array-like or list of sequences
            Their outputs, checked here.
        kernel : str, Kernel, SequenceKernel or callable
            The output kernel: an object, a name of
            :data:`~preimage.kernels.KERNELS` or a callable on two outputs.
        input_kind : {"vector", "sequence"}
            What the inputs are.
        joint : bool, default=None
            Whether the kernel takes ``(x, y)`` pairs; None asks it.

        Returns
        -------
        OutputSpace
            The space of the pairs, not fitted yet.

        Raises
        ------
        ValueError
            If there are fewer than 2 pairs, no outputs, not one output per
            input, or a joint kernel with numeric inputs or outputs of other
            lengths than their inputs.
        """
        if len(X) < 2:
            raise ValueError(
                f"'X' has {len(X)} sample(s); KDE needs at least 2 (the "
                "centred output Gram matrix of one sample is 0)"
            )
        if Y is None:
            raise ValueError(
                "'Y' must hold the outputs: kernel dependency estimation "
                "requires y to be passed, but the target y is None"
            )
        if joint is None:
            joint = isinstance(kernel, SequenceKernel) and kernel.joint
        if joint and input_kind != "sequence":
            raise ValueError(
                "a joint 'output_kernel' takes (x, y) pairs of sequences, but "
                "'X' holds numeric vectors"
            )
        kind = data_kind(kernel, Y, "output_kernel", "Y")
        one_d = kind == "vector" and np.ndim(Y) == 1
        Y = check_outputs(Y, kind)
        if len(Y) != len(X):
            raise ValueError(f"'Y' must hold one output per input of 'X' ({len(X)}), got {len(Y)}")
        if joint:
            check_equal_lengths(X, Y, "Y")
        return cls(resolve_kernel(kernel, kind, Y), kind, input_kind, bool(joint), X, Y, one_d)

    def fit(
        self,
        input_kernel: Kernel | SequenceKernel,
        n_components: int | None = None,
        *,
        alpha: float = 1.0,
        regression: str = "paper",
    ) -> KDEResult:
        """Fit kernel dependency estimation on the training pairs (:func:`fit_kde`).

        Parameters
        ----------
        input_kernel : Kernel or SequenceKernel
            The kernel k on the inputs.
        n_components : int, default=None
            The number of output principal axes kept; None keeps all with a
            non-zero eigenvalue.
        alpha : float, default=1.0
            The strength of the regression's penalty.
        regression : {"paper", "ridge"}, default="paper"
            The form of the regression (see :func:`kde_regression`).

        Returns
        -------
        KDEResult
            The fit, also kept as ``result``.
        """
        n = len(self.X)
        if n_components is not None and n_components > n:
            raise ValueError(
                f"'n_components' must be <= n_samples={n} (the size of the "
                f"Gram matrix), got {n_components!r}"
            )
        # K and L, the centred L and its eigenvectors, and KᵀK + γI.
        what = f"the {n} x {n} input and output Gram matrices"
        check_dense((n, n), np.float64, what, hint="fit on fewer samples", copies=5)
        K = np.asarray(input_kernel(self.X), dtype=float)
        L = np.asarray(self.kernel(self._data(self.X, self.Y)), dtype=float)
        # Gram matrices are symmetric; a float32 or BLAS product is so only to
        # rounding, which the eigendecomposition of L must not see.
        K, L = (K + K.T) / 2, (L + L.T) / 2
        self.result = fit_kde(K, L, n_components, alpha=alpha, regression=regression)
        return self.result

    def check_outputs(self, Y: Sequences | ArrayLike, name: str = "Y") -> np.ndarray | list[Any]:
        """Check outputs against the kind (and width) of the training outputs.

        Parameters
        ----------
        Y : array-like or list of sequences
            The outputs.
        name : str, default="Y"
            The argument named by an error.

        Returns
        -------
        ndarray or list
            A 2-D float array, or a list of sequences.
        """
        width = self.Y.shape[1] if self.kind == "vector" else None
        return check_outputs(Y, self.kind, name, n_features=width)

    def coordinates(self, Y: Sequences | np.ndarray, X: Any = None) -> np.ndarray:
        r"""Return the centred coordinates of checked outputs (:func:`output_coordinates`).

        Parameters
        ----------
        Y : list or ndarray
            The checked outputs.
        X : list or ndarray, default=None
            The checked inputs they belong to, used by a joint kernel only.

        Returns
        -------
        ndarray of shape (n, r)
            The coordinates, one row per output.
        """
        if self.joint:
            check_equal_lengths(X, Y, "Y")
        L = self.kernel(self._data(X, Y), self._data(self.X, self.Y))
        return output_coordinates(L, self.result)

    def expansion(self, C: ArrayLike) -> FeatureExpansion:
        r"""Return the points :math:`\sum_j c_j v_j + \mu` as expansions over the training outputs.

        Parameters
        ----------
        C : array-like of shape (n, r)
            The checked coordinates.

        Returns
        -------
        FeatureExpansion
            The :math:`n` points.

        Raises
        ------
        ValueError
            If the outputs are not numeric or the output kernel is not a
            preimage :class:`~preimage.kernels.Kernel`.
        """
        if not isinstance(self.kernel, Kernel) or self.kind != "vector":
            raise ValueError(
                "expansion needs numeric outputs and a preimage Kernel as 'output_kernel'"
            )
        coef, norm2 = expansion_coef(C, self.result.output_pca, add_mean=True)
        return FeatureExpansion(coef, self.Y, self.kernel, norm2=norm2)

    def outputs(self, decoded: list[Any] | np.ndarray) -> list[Any] | np.ndarray:
        """Put decoded outputs in the form of the training outputs.

        Parameters
        ----------
        decoded : list or ndarray
            The decoded outputs.

        Returns
        -------
        list or ndarray
            Sequences as they are; vectors as an array, 1-D if the training
            outputs were.
        """
        if self.kind != "vector":
            return decoded
        decoded = np.asarray(decoded)
        return decoded.ravel() if self.one_d else decoded

    def _data(self, X, Y):
        return list(zip(X, Y)) if self.joint else Y
