"""The types the public API is annotated with (checked by mypy in ``tests/test_typing.py``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import ArrayLike as ArrayLike

#: A seed, as ``random_state=`` takes it everywhere: None, a non-negative int,
#: a NumPy ``Generator`` or ``SeedSequence``, or a legacy ``RandomState``.
RandomStateLike: TypeAlias = (
    int | np.integer | np.random.Generator | np.random.SeedSequence | np.random.RandomState | None
)

#: A box for pre-images, as ``bounds=`` takes it: None, ``"data"`` (the
#: data's range) or ``(low, high)``, numbers or arrays of shape (d,).
BoundsLike: TypeAlias = str | tuple[ArrayLike, ArrayLike] | None

#: Sequences, as the string kernels and kernel dependency estimation take them:
#: a list, tuple or 1-D array of strings, of lists of symbols, or of ``(x, y)``
#: pairs of them (and, for a kernel wrapping a numeric one, rows of numbers).
Sequences: TypeAlias = Sequence[Any] | np.ndarray

#: Data where SciPy sparse matrices and Dask arrays are taken as well as
#: arrays (:data:`ArrayLike`). Neither library ships annotations, so to the
#: type checker this is ``Any``; the name says what is meant.
MatrixLike: TypeAlias = Any

#: The vocabulary of sparse count features: feature (a p-gram, a pair) → column.
Vocabulary: TypeAlias = dict[Any, int]

#: What a transformer's ``transform`` returns: an array, a Dask array for a
#: Dask input, or the container scikit-learn's ``set_output`` asks for (a
#: pandas or polars DataFrame). ``Any`` to the type checker, like MatrixLike.
TransformOutput: TypeAlias = Any
