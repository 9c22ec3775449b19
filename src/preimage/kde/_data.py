"""What kernel dependency estimation takes: numeric vectors or sequences of
symbols, the kernel on each, and the training pairs in the output feature
space.

Inputs and outputs are each of one kind: ``"vector"`` (2-D numeric arrays;
1-D outputs are one column) or ``"sequence"`` (lists of strings or of
tuples of symbols). The kind follows from the kernel: a kernel of
:mod:`preimage.kernels` or its name takes vectors, a
:class:`~preimage.kernels.SequenceKernel` takes what it says it takes, and a
user's function on two single samples takes what it is given.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import scipy.sparse as sp

from .._expansion import FeatureExpansion
from .._memory import check_dense
from .._typing import ArrayLike, Sequences
from .._validation import check_array_2d
from ..kernels import CallableSequenceKernel, Kernel, SequenceKernel, make_kernel
from ..kpca import expansion_coef
from ._fit import KDEResult, fit_kde, output_coordinates
from ._strings import check_equal_lengths, check_sequences

__all__ = ["OutputSpace", "check_outputs", "data_kind", "resolve_kernel"]


def _is_numeric(data):
    """True for numeric data (arrays, lists of numbers, sparse matrices, data
    frames), False for sequences of symbols (strings, lists of symbols,
    sequences of different lengths)."""
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


def data_kind(
    kernel: str | Kernel | SequenceKernel | Callable[..., float],
    data: Sequences | ArrayLike,
    name: str = "kernel",
    data_name: str = "X",
) -> Literal["vector", "sequence"]:
    """The kind of data `kernel` takes, ``"vector"`` or ``"sequence"``.

    A kernel of :mod:`preimage.kernels` (or its name) takes vectors and
    refuses `data` that hold sequences, naming `name` and `data_name`; a
    :class:`~preimage.kernels.SequenceKernel` takes sequences, or vectors
    when it wraps a numeric kernel; a callable takes `data` as they come.
    """
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


def resolve_kernel(
    kernel: str | Kernel | SequenceKernel | Callable[..., float],
    kind: str,
    X: Sequences | ArrayLike,
) -> Kernel | SequenceKernel:
    """The kernel object (Gram blocks ``k(A, B)``) for `kernel` on checked
    data `X` of `kind`: a kernel object as it is, a name of
    :data:`~preimage.kernels.KERNELS` with its default width from `X`, and a
    callable on two single samples as a
    :class:`~preimage.kernels.CallableKernel` (numeric rows) or a
    :class:`~preimage.kernels.CallableSequenceKernel` (sequences)."""
    if isinstance(kernel, (Kernel, SequenceKernel)):
        return kernel
    if kind == "sequence":
        return CallableSequenceKernel(kernel)  # type: ignore[arg-type]  # not a name here
    return make_kernel(kernel, X=X)


def check_outputs(
    Y: Sequences | ArrayLike, kind: str, name: str = "Y", *, n_features: int | None = None
) -> np.ndarray | list[Any]:
    """Outputs of `kind` checked: a finite 2-D float array (1-D outputs as one
    column, `n_features` columns if given) or a non-empty list of sequences."""
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
    """The training pairs of kernel dependency estimation in the output
    feature space: what the regression is fitted on and a decoder is fitted
    with, and where the coordinates of any output come from.

    Attributes
    ----------
    kernel : Kernel or SequenceKernel
        l, with Gram blocks ``l(A, B)``.
    kind, input_kind : {"vector", "sequence"}
        What the outputs and the inputs are.
    joint : bool
        l takes ``(x, y)`` pairs of an input and its output.
    X, Y : list or ndarray
        The checked training inputs and outputs (vectors as 2-D arrays).
    one_d : bool
        The vector outputs came as a 1-D array (one output dimension).
    result : KDEResult
        The fit on the Gram matrices, set by :meth:`fit`.
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
        """The space of checked inputs `X` (of `input_kind`) and their outputs
        `Y` under the output kernel `kernel` (an object, a name of
        :data:`~preimage.kernels.KERNELS` or a callable), with `Y` checked.

        `joint`: whether the kernel takes ``(x, y)`` pairs; None asks it
        (:attr:`~preimage.kernels.SequenceKernel.joint`).
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
        """KDE of the training pairs: :func:`~preimage.kde.fit_kde` on the input
        Gram matrix of `input_kernel` and the output Gram matrix. Sets and
        returns ``result``."""
        n = len(self.X)
        if n_components is not None and n_components > n:
            raise ValueError(
                f"'n_components' must be <= n_samples={n} (the size of the "
                f"Gram matrix), got {n_components!r}"
            )
        # K and L, the centred L and its eigenvectors, and KᵀK + γI.
        check_dense(
            (n, n),
            np.float64,
            f"the {n} x {n} input and output Gram matrices",
            hint="fit on fewer samples",
            copies=5,
        )
        K = np.asarray(input_kernel(self.X), dtype=float)
        L = np.asarray(self.kernel(self._data(self.X, self.Y)), dtype=float)
        # Gram matrices are symmetric; a float32 or BLAS product is so only to
        # rounding, which the eigendecomposition of L must not see.
        K, L = (K + K.T) / 2, (L + L.T) / 2
        self.result = fit_kde(K, L, n_components, alpha=alpha, regression=regression)
        return self.result

    def check_outputs(self, Y: Sequences | ArrayLike, name: str = "Y") -> np.ndarray | list[Any]:
        """Outputs of the training outputs' kind (and width), checked."""
        width = self.Y.shape[1] if self.kind == "vector" else None
        return check_outputs(Y, self.kind, name, n_features=width)

    def coordinates(self, Y: Sequences | np.ndarray, X: Any = None) -> np.ndarray:
        """Centred coordinates ``⟨φ_l(y) − μ, v_j⟩`` of checked outputs `Y`,
        shape (n, r); for a joint kernel those of the pairs ``(x_i, y_i)``
        with the checked inputs `X`."""
        if self.joint:
            check_equal_lengths(X, Y, "Y")
        L = self.kernel(self._data(X, Y), self._data(self.X, self.Y))
        return output_coordinates(L, self.result)

    def expansion(self, C: ArrayLike) -> FeatureExpansion:
        """The point ``Σ_j c_j v_j + μ`` of checked coordinates `C` (n, r), as
        an expansion over the training outputs (numeric outputs and a
        preimage Kernel only)."""
        if not isinstance(self.kernel, Kernel) or self.kind != "vector":
            raise ValueError(
                "expansion needs numeric outputs and a preimage Kernel as 'output_kernel'"
            )
        coef, norm2 = expansion_coef(C, self.result.output_pca, add_mean=True)
        return FeatureExpansion(coef, self.Y, self.kernel, norm2=norm2)

    def outputs(self, decoded: list[Any] | np.ndarray) -> list[Any] | np.ndarray:
        """Decoded outputs in the form of the training outputs: vectors as an
        array, 1-D if the training outputs were."""
        if self.kind != "vector":
            return decoded
        decoded = np.asarray(decoded)
        return decoded.ravel() if self.one_d else decoded

    def _data(self, X, Y):
        return list(zip(X, Y)) if self.joint else Y
