"""Argument checks shared by every public entry point. Each message names the
argument, says what was expected and shows what came."""

from __future__ import annotations

from numbers import Integral, Real
import re
from typing import Any, NamedTuple, TypeVar

import numpy as np

from preimage._utils.memory import NYSTROEM_HINT, check_dense
from preimage._utils.typing import ArrayLike, RandomStateLike
from preimage._utils.xp import check_xp_2d, namespace, refuse

FLOAT_DTYPES = (np.float64, np.float32)

_A = TypeVar("_A", bound=ArrayLike)


def check_array_2d(
    X: ArrayLike,
    name: str = "X",
    *,
    dtype: Any = FLOAT_DTYPES,
    min_samples: int = 1,
    n_features: int | None = None,
    copy: bool = False,
    magnitude: bool = True,
) -> np.ndarray:
    """`X` as a finite 2-D float array (float32 kept, other reals float64), values checked by
    :func:`check_magnitude` if `magnitude`; or an error naming `name`."""
    if namespace(X) is not None:  # array API dispatch: this computation is NumPy's only
        raise refuse(f"the computation given {name!r}", namespace(X))
    try:
        arr = np.asarray(X)
    except Exception as exc:  # ragged lists and the like
        raise ValueError(
            f"{name!r} must be array-like of numbers, got {type(X).__name__}: {exc}"
        ) from None
    if arr.dtype == object or arr.dtype.kind in "USVMmc":
        raise TypeError(f"{name!r} must hold real numbers, got an array of dtype {arr.dtype}")
    if arr.ndim != 2:
        raise ValueError(
            f"{name!r} must be a 2-D array (n_samples, n_features), got an array "
            f"with shape {arr.shape}; reshape 1-D data with X.reshape(-1, 1) for a "
            "single feature or X.reshape(1, -1) for a single sample"
        )
    if arr.shape[0] < min_samples:
        raise ValueError(
            f"{name!r} must have at least {min_samples} sample(s), got shape {arr.shape}"
        )
    if arr.shape[1] == 0:
        raise ValueError(f"{name!r} must have at least 1 feature, got shape {arr.shape}")
    if n_features is not None and arr.shape[1] != n_features:
        raise ValueError(
            f"{name!r} has {arr.shape[1]} features, but {n_features} were expected "
            "(the number of features seen at fit time)"
        )
    if isinstance(dtype, tuple):
        dtype = arr.dtype if arr.dtype in dtype else dtype[0]
    # np.array always copies, np.asarray only when it must (NumPy 1.x and 2.x alike).
    arr = (np.array if copy else np.asarray)(arr, dtype=dtype, order="C")
    if arr.size == 0:
        return arr
    # The extremes find NaN and inf without the temporary of np.isfinite(arr).
    top = max(float(arr.max()), -float(arr.min()))
    if not np.isfinite(top):
        bad = "NaN" if np.isnan(arr).any() else "inf"
        raise ValueError(f"{name!r} contains {bad}; all values must be finite")
    return check_magnitude(arr, name, top) if magnitude else arr


def check_magnitude(arr: np.ndarray, name: str = "X", top: float | None = None) -> np.ndarray:
    """Refuse values (largest magnitude `top`) so large that squared distances between rows
    overflow: ``4 d max|x_i|^2`` must stay below the dtype's largest value."""
    if arr.size == 0 or arr.dtype.kind != "f":
        return arr
    if top is None:
        top = max(float(arr.max()), -float(arr.min()))  # no temporary copy of arr
        if not np.isfinite(top):
            raise ValueError(f"{name!r} contains NaN or inf; all values must be finite")
    limit = np.sqrt(np.finfo(arr.dtype).max / (4.0 * max(arr.shape[-1], 1)))
    if top > limit:
        raise ValueError(
            f"{name!r} holds values up to {top:.3g} in magnitude, beyond {limit:.3g} where "
            f"squared distances overflow {arr.dtype}; rescale {name!r} (e.g. with "
            "sklearn.preprocessing.StandardScaler)"
        )
    return arr


def check_real_array(values: ArrayLike, name: str) -> np.ndarray:
    """`values` as a finite float64 array of any shape, or an error naming `name`."""
    try:
        arr = np.asarray(values)
    except ValueError as exc:  # ragged nested lists
        raise ValueError(
            f"{name!r} must be an array of real numbers, got {type(values).__name__}: {exc}"
        ) from None
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{name!r} must hold real numbers, got {values!r} of dtype {arr.dtype}")
    arr = np.asarray(arr, dtype=np.float64)
    if not np.isfinite(arr).all():
        bad = "NaN" if np.isnan(arr).any() else "inf"
        raise ValueError(f"{name!r} contains {bad}; all values must be finite")
    return arr


def check_overflow(values: _A, what: str, names: str, hint: str) -> _A:
    """`values` if all are finite (computed from finite input); else a ValueError saying
    `what` overflowed for which argument `names`, and the `hint`."""
    if not np.isfinite(values).all():
        raise ValueError(
            f"{what} are not finite for these {names}: they lie beyond the "
            f"range of {np.asarray(values).dtype}; {hint}"
        )
    return values


def check_real(value, name, *, low=None, high=None, low_open=False, high_open=False):
    """`value` as a finite real number (not a bool) in the interval from `low` to `high`
    (closed unless `low_open`/`high_open`, None unbounded), or a ValueError naming `name`."""
    try:  # an int beyond the float range is not finite
        finite = isinstance(value, Real) and bool(np.isfinite(float(value)))
    except OverflowError:
        finite = False
    if isinstance(value, (bool, np.bool_)) or not finite:
        raise ValueError(f"{name!r} must be a finite real number, got {value!r}")
    below = low is not None and (value <= low if low_open else value < low)
    above = high is not None and (value >= high if high_open else value > high)
    if below or above:
        left = "(-inf" if low is None else f"{'(' if low_open else '['}{low:g}"
        right = "inf)" if high is None else f"{high:g}{')' if high_open else ']'}"
        raise ValueError(f"{name!r} must be in {left}, {right}, got {value!r}")
    return float(value)


def check_positive(value, name, *, strict=True):
    """A positive (or, with ``strict=False``, non-negative) finite real number."""
    value = check_real(value, name)
    if value < 0 or (strict and value == 0):
        raise ValueError(
            f"{name!r} must be {'positive' if strict else 'non-negative'}, got {value!r}"
        )
    return value


def check_positive_int(value, name, *, allow_none=False, minimum=1):
    """An integer parameter of at least `minimum`."""
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, Integral) or value < minimum:
        raise ValueError(f"{name!r} must be an integer >= {minimum}, got {value!r}")
    return int(value)


class Box(NamedTuple):
    """A box for pre-images: the bounds of each feature."""

    low: np.ndarray
    high: np.ndarray


def check_bounds(bounds, X, name="bounds", method=None):
    """None, or the :class:`Box` `bounds` stands for around the points `X`
    (n, d), float arrays of shape (d,): ``"data"`` is X's range per
    feature, ``"auto"`` too but for the pre-image `method` ``"exact"``
    (unique: a box could only refuse it); ``(low, high)`` holds finite
    scalars or arrays of shape (d,) with low <= high. Else a ValueError
    naming `name`."""
    if isinstance(bounds, str) and bounds == "auto":
        bounds = None if method == "exact" else "data"
    if bounds is None:
        return None
    d = X.shape[1]
    if isinstance(bounds, str) and bounds == "data":
        return Box(np.asarray(X.min(axis=0), dtype=float), np.asarray(X.max(axis=0), dtype=float))
    try:
        if isinstance(bounds, str):
            raise TypeError
        low, high = (np.broadcast_to(np.asarray(b, dtype=float), (d,)).copy() for b in bounds)
        ok = np.isfinite(low).all() and np.isfinite(high).all() and (low <= high).all()
    except (TypeError, ValueError, OverflowError):
        ok = False
    if not ok:
        shown = " ".join(repr(bounds).split())
        shown = shown if len(shown) <= 80 else shown[:76] + " ..."
        raise ValueError(
            f"{name!r} must be None, 'data' or (low, high): finite numbers or arrays of "
            f"shape ({d},) with low <= high, got {shown}"
        )
    return Box(low, high)


def check_probability(value, name):
    """A probability in [0, 1]."""
    if isinstance(value, bool) or not isinstance(value, Real) or not 0 <= value <= 1:
        raise ValueError(f"{name!r} must be a probability in [0, 1], got {value!r}")
    return float(value)


def check_random_state(seed: RandomStateLike) -> np.random.Generator:
    """`seed` (None, an int, a SeedSequence, a Generator, or a legacy RandomState, whose
    stream seeds one) as a :class:`numpy.random.Generator`."""
    if seed is None or isinstance(seed, (Integral, np.random.SeedSequence)):
        if isinstance(seed, bool) or (isinstance(seed, Integral) and seed < 0):
            raise ValueError(
                f"'random_state' must be None, a non-negative int or a Generator, got {seed!r}"
            )
        return np.random.default_rng(seed)
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, np.random.RandomState):
        return np.random.default_rng(seed.randint(np.iinfo(np.int32).max))
    raise ValueError(
        f"'random_state' must be None, an int, a numpy Generator or RandomState, got {seed!r}"
    )


def check_gram(
    K: ArrayLike,
    name: str = "K",
    *,
    symmetric: bool = False,
    in_place: bool = False,
    dtype: Any = FLOAT_DTYPES,
    scale: float = 0.0,
) -> tuple[np.ndarray, float]:
    """`K` as a finite square float array, and ``max|K_ij|``; or an error naming `name`.

    With `symmetric`, entries beyond ``max_float/(4N)`` (its eigenvalues would overflow)
    and asymmetry beyond ``sqrt(eps) max(max|K_ij|, scale)`` are refused (`scale`: the
    magnitude K was computed from, e.g. before centring); smaller asymmetry (rounding) is
    replaced by ``(K_ij + K_ji)/2``, in K itself if `in_place`, else in a copy.
    """
    K = check_array_2d(K, name, dtype=dtype, magnitude=False)
    n = K.shape[0]
    if n != K.shape[1]:
        raise ValueError(f"{name!r} must be a square Gram matrix, got shape {K.shape}")
    top = max(float(K.max()), -float(K.min()))
    if not symmetric:
        return K, top
    limit = float(np.finfo(K.dtype).max) / (4.0 * n)
    if top > limit:
        raise ValueError(
            f"{name!r} holds values up to {top:.3g} in magnitude, beyond "
            f"{limit:.3g} where its eigenvalues overflow {K.dtype}; rescale "
            "the kernel (or the data it is computed from)"
        )
    tol = np.sqrt(np.finfo(K.dtype).eps) * max(top, scale)
    # Square tiles of the upper triangle against their mirror images, both in cache.
    step = 256
    for i in range(0, n, step):
        for j in range(i, n, step):
            upper, lower = K[i : i + step, j : j + step], K[j : j + step, i : i + step]
            gap = float(np.abs(upper - lower.T).max())
            if gap > tol:
                raise ValueError(
                    f"{name!r} must be a symmetric Gram matrix, got entries "
                    f"K[i, j] - K[j, i] up to {gap:.3g}"
                )
            if gap > 0:
                if not in_place:
                    K, in_place = K.copy(), True
                    upper, lower = K[i : i + step, j : j + step], K[j : j + step, i : i + step]
                mean = (upper + lower.T) / 2
                upper[...], lower[...] = mean, mean.T
    return K, top


def checked_gram(kernel, X, what, *, copies=1, hint=NYSTROEM_HINT, names="'X'", dtype=None):
    """``k(X, X)``, refused before allocation when `copies` n x n matrices exceed the memory
    budget (message: "the n x n `what`", `hint`), and if it overflows (blaming `names`)."""
    n, dtype = X.shape[0], X.dtype if dtype is None else dtype
    check_dense((n, n), dtype, f"the {n} x {n} {what}", copies=copies, hint=hint)
    return kernel.block(X, X, check_input=False, names=names)


def check_expansion(expansion, name="expansion", *, purpose=None):
    """`expansion` if it holds ``coef``, ``support``, ``kernel`` and support points; else an
    error naming `name` (`purpose`: what cannot be done without support points)."""
    if not all(hasattr(expansion, a) for a in ("coef", "support", "kernel", "norm2")):
        raise TypeError(
            f"{name!r} must be a preimage.FeatureExpansion, got {type(expansion).__name__}"
        )
    if expansion.support is None:
        raise ValueError(
            f"{name!r} has no support points or kernel (it came from a precomputed "
            f"kernel), so {purpose or 'it cannot be evaluated at new points'}"
        )
    return expansion


def validate_estimator_input(estimator, X, *, reset, name="X", **kwargs):
    """scikit-learn's ``validate_data`` with every message naming the argument (and 'y' for
    ``y=...``), float32 kept, and the magnitude check."""
    from sklearn.utils.validation import validate_data

    xp = namespace(X)
    if xp is not None:  # array API dispatch, for the estimators tagged for it
        if "y" in kwargs or not estimator.__sklearn_tags__().array_api_support:
            raise refuse(type(estimator).__name__, xp)
        n_features = None if reset else estimator.n_features_in_
        X = check_xp_2d(X, name, xp, n_features=n_features, min_samples=1 if reset else 0)
        if reset:
            estimator.n_features_in_ = X.shape[1]
            vars(estimator).pop("feature_names_in_", None)
        return X
    kwargs.setdefault("dtype", [np.float64, np.float32])
    y = kwargs.get("y", "no_validation")
    with_y = not (isinstance(y, str) and y == "no_validation")
    _check_numeric(X, name)
    if with_y and kwargs.get("y_numeric") and y is not None:
        _check_numeric(y, "y")  # class labels may be strings
    try:
        out = validate_data(estimator, X, reset=reset, **kwargs)
    except ValueError as exc:
        message = str(exc)
        if re.search(rf"'{re.escape(name)}'", message) or (with_y and "'y'" in message):
            raise
        # scikit-learn says "Input y contains NaN", "y should be a 1d array",
        # and "Complex data not supported" of either
        if with_y and "inconsistent numbers of samples" in message:
            raise ValueError(
                f"{name!r} and 'y' must have the same number of samples: {message}"
            ) from None
        about_y = with_y and (
            re.search(r"\by\b", message)
            and not re.search(r"\bX\b", message)
            or message.startswith("Complex")
            and not np.iscomplexobj(X)
        )
        raise ValueError(f"invalid {'y' if about_y else name!r}: {message}") from None
    X_out, y_out = out if isinstance(out, tuple) else (out, None)
    if isinstance(X_out, np.ndarray):
        X_out = check_magnitude(X_out, name)
    if isinstance(y_out, np.ndarray) and y_out.dtype.kind == "f" and y_out.ndim:
        y_out = check_magnitude(y_out.reshape(len(y_out), -1), "y").reshape(y_out.shape)
    return (X_out, y_out) if isinstance(out, tuple) else X_out


def _check_numeric(X, name):
    """A TypeError naming `name` for arrays or lists of strings, dates or objects that are
    not numbers (complex data get scikit-learn's ValueError)."""
    if not isinstance(X, (np.ndarray, list, tuple)):
        return  # DataFrames, sparse matrices: scikit-learn's checks apply
    try:
        arr = np.asarray(X)
    except Exception:  # ragged lists: scikit-learn says so
        return
    if arr.dtype.kind in "Mm":
        raise TypeError(f"{name!r} must hold real numbers, got an array of dtype {arr.dtype}")
    if arr.dtype.kind in "OUSV":
        try:
            arr.astype(np.float64)
        except (TypeError, ValueError) as exc:
            raise TypeError(
                f"{name!r} must hold real numbers, got an array of dtype {arr.dtype} ({exc})"
            ) from None


def validate_dask_input(estimator, X, *, reset, name="X"):
    """The checks of :func:`validate_estimator_input` that need no data, for a Dask array
    (its values are checked block by block when computed); float64 or float32."""
    if X.ndim != 2:
        raise ValueError(
            f"{name!r} must be a 2-D Dask array (n_samples, n_features), got shape {X.shape}"
        )
    if X.dtype.kind not in "biuf":
        raise TypeError(f"{name!r} must hold real numbers, got a Dask array of dtype {X.dtype}")
    if reset:
        X = measure_chunks(X)
        estimator.n_features_in_ = X.shape[1]
    elif X.shape[1] != estimator.n_features_in_:
        raise ValueError(
            f"{name!r} has {X.shape[1]} features, but {type(estimator).__name__} is "
            f"expecting {estimator.n_features_in_} features as input"
        )
    return X if X.dtype in FLOAT_DTYPES else X.astype(np.float64)


def measure_chunks(X):
    """Dask array `X` with its unknown (NaN) chunk sizes, those of rows picked by a mask or of
    ``DataFrame.to_dask_array()``, measured in one pass over its blocks."""
    return X.copy().compute_chunk_sizes() if np.isnan(X.shape).any() else X
