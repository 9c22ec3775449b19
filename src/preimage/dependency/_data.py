"""What kernel dependency estimation takes: ``"vector"`` data (2-D numeric arrays;
1-D outputs as one column) or ``"sequence"`` data (lists of strings or tuples of
symbols), as the kernel says, and the training pairs in the output feature space."""

from __future__ import annotations

from contextlib import suppress
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
from preimage.kpca._projections import expansion_coef


def _is_numeric(data):
    """True for numeric data (arrays, lists of numbers, sparse matrices, data
    frames), False for sequences of symbols."""
    if sp.issparse(data):
        return True  # refused as sparse by the numeric checks
    try:
        arr = np.asarray(data)
    except ValueError:  # ragged: sequences of different lengths
        return False
    if not isinstance(data, np.ndarray) and arr.ndim not in (1, 2):  # a string, say
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
    return CallableSequenceKernel(kernel) if kind == "sequence" else make_kernel(kernel, X=X)


def check_outputs(Y, kind, name="Y", *, n_features=None):
    """Outputs of `kind` as a finite 2-D float array (1-D as one column) or a
    non-empty list of sequences, or an error naming `name`."""
    if kind == "vector":
        Y = np.asarray(Y)
        if Y.dtype == object:  # numbers held as objects (a data frame's, say); else refused below
            with suppress(TypeError, ValueError):
                Y = Y.astype(np.float64)
        return check_array_2d(Y.reshape(-1, 1) if Y.ndim == 1 else Y, name, n_features=n_features)
    return check_sequences(Y, name, min_samples=1)


@dataclass(eq=False)
class OutputSpace:
    """The training pairs of kernel dependency estimation in the output feature space.

    The output kernel, the kinds of outputs and inputs, whether the kernel is
    joint (takes ``(x, y)`` pairs), the checked pairs, whether the vector
    outputs came 1-D, and the fit; made by :meth:`of_pairs`.
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
    def of_pairs(cls, X, Y, kernel, input_kind, *, joint=None):
        """Check the outputs of checked training inputs and make their space, not fitted."""
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

    def fit(self, input_kernel, n_components=None, *, alpha=1.0, regression="paper"):
        """Fit kernel dependency estimation on the pairs (:func:`fit_kde`); kept as ``result``."""
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
        """Check outputs against the kind (and width) of the training outputs."""
        width = self.Y.shape[1] if self.kind == "vector" else None
        return check_outputs(Y, self.kind, name, n_features=width)

    def coordinates(self, Y: Sequences | np.ndarray, X: Any = None) -> np.ndarray:
        """The centred coordinates of checked outputs (of the pairs, for a joint kernel)."""
        if self.joint:
            check_equal_lengths(X, Y, "Y")
        L = self.kernel(self._data(X, Y), self._data(self.X, self.Y))
        return output_coordinates(L, self.result)

    def expansion(self, C: ArrayLike) -> FeatureExpansion:
        r"""The points :math:`\sum_j c_j v_j + \mu` as expansions over the training outputs."""
        if not isinstance(self.kernel, Kernel) or self.kind != "vector":
            raise ValueError(
                "expansion needs numeric outputs and a preimage Kernel as 'output_kernel'"
            )
        coef, norm2 = expansion_coef(C, self.result.output_pca, add_mean=True)
        return FeatureExpansion(coef, self.Y, self.kernel, norm2=norm2)

    def outputs(self, decoded: list[Any] | np.ndarray) -> list[Any] | np.ndarray:
        """Decoded outputs in the form of the training outputs (1-D if they were)."""
        if self.kind != "vector":
            return decoded
        return np.ravel(decoded) if self.one_d else np.asarray(decoded)

    def _data(self, X, Y):
        return list(zip(X, Y)) if self.joint else Y
