"""Argument checks shared by every public entry point.

Every message names the argument, says what was expected and shows what came,
``f"{name!r} must be ..., got {value!r}"``, so that a user can find the mistake
without reading the traceback.
"""

from numbers import Integral, Real

import numpy as np

__all__ = [
    "check_array_2d",
    "check_magnitude",
    "check_positive",
    "check_real_array",
    "refuse_overflow",
    "check_probability",
    "check_random_state",
    "check_positive_int",
]

FLOAT_DTYPES = (np.float64, np.float32)


def check_array_2d(X, name="X", *, dtype=FLOAT_DTYPES, min_samples=1,
                   n_features=None, copy=False, magnitude=True):
    """Return `X` as a finite 2-D floating array, or raise naming `name`.

    With `magnitude` (the default) values whose squared distances overflow
    are refused (:func:`check_magnitude`); arrays that are not points (a
    Gram matrix, data written to a file) skip that check.

    Integer and boolean input becomes float64; float32 stays float32 (so the
    float32 path of the kernels is kept end to end). Object, string and complex
    arrays are refused with a TypeError.
    """
    try:
        arr = np.asarray(X)
    except Exception as exc:  # ragged lists and the like
        raise ValueError(f"{name!r} must be array-like of numbers, got {type(X).__name__}: {exc}") from None
    if arr.dtype == object or arr.dtype.kind in "USVMmc":
        raise TypeError(
            f"{name!r} must hold real numbers, got an array of dtype {arr.dtype}")
    if arr.ndim != 2:
        raise ValueError(
            f"{name!r} must be a 2-D array (n_samples, n_features), got an array "
            f"with shape {arr.shape}; reshape 1-D data with X.reshape(-1, 1) for a "
            "single feature or X.reshape(1, -1) for a single sample")
    if arr.shape[0] < min_samples:
        raise ValueError(
            f"{name!r} must have at least {min_samples} sample(s), got shape {arr.shape}")
    if arr.shape[1] == 0:
        raise ValueError(f"{name!r} must have at least 1 feature, got shape {arr.shape}")
    if n_features is not None and arr.shape[1] != n_features:
        raise ValueError(
            f"{name!r} has {arr.shape[1]} features, but {n_features} were expected "
            "(the number of features seen at fit time)")
    if isinstance(dtype, tuple):
        target = arr.dtype if arr.dtype in dtype else dtype[0]
    else:
        target = np.dtype(dtype)
    arr = np.array(arr, dtype=target, copy=copy or None, order="C")
    if arr.size == 0:
        return arr
    # The extremes find NaN and inf (either makes one of them non-finite) in
    # two passes without the boolean temporary of np.isfinite(arr), and give
    # the magnitude check its largest value.
    top = max(float(arr.max()), -float(arr.min()))
    if not np.isfinite(top):
        bad = "NaN" if np.isnan(arr).any() else "inf"
        raise ValueError(f"{name!r} contains {bad}; all values must be finite")
    return _check_top(arr, top, name) if magnitude else arr


def check_magnitude(arr, name="X"):
    """Refuse values so large that squared distances between rows overflow.

    ``‖x − y‖² ≤ 4 d max|x_i|²`` must stay below the dtype's largest value:
    about 1e153 for float64 and 9e18 for float32 with 10 features. Beyond it
    every kernel value would be computed from inf.
    """
    if arr.size == 0 or arr.dtype.kind != "f":
        return arr
    top = max(float(arr.max()), -float(arr.min()))  # no temporary copy of arr
    if not np.isfinite(top):
        raise ValueError(f"{name!r} contains NaN or inf; all values must be finite")
    return _check_top(arr, top, name)


def _check_top(arr, top, name):
    if arr.dtype.kind != "f":
        return arr
    limit = np.sqrt(np.finfo(arr.dtype).max / (4.0 * max(arr.shape[-1], 1)))
    if top > limit:
        raise ValueError(
            f"{name!r} holds values up to {top:.3g} in magnitude, beyond {limit:.3g} where "
            f"squared distances overflow {arr.dtype}; rescale {name!r} (e.g. with "
            "sklearn.preprocessing.StandardScaler)")
    return arr


def check_real_array(values, name):
    """`values` as a finite float64 array of any shape, or an error naming `name`."""
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name!r} must be an array of real numbers, got "
                        f"{type(values).__name__}") from None
    if not np.isfinite(arr).all():
        raise ValueError(f"{name!r} contains NaN or inf; all values must be finite")
    return arr


def refuse_overflow(values, what, names, hint):
    """`values` if all are finite; else a ValueError naming the arguments.

    For results computed from finite input: a NaN or inf there means the true
    value lies beyond the float range, so the message says what overflowed
    (`what`), for which arguments (`names`) and what to do (`hint`).
    """
    dtype = np.asarray(values).dtype
    if not np.isfinite(values).all():
        raise ValueError(f"{what} are not finite for these {names}: they lie beyond the "
                         f"range of {dtype}; {hint}")
    return values


def check_positive(value, name, *, allow_none=False, strict=True):
    """Check a real scalar parameter is positive (or non-negative)."""
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, Real) or not np.isfinite(value):
        raise ValueError(f"{name!r} must be a finite real number, got {value!r}")
    if (strict and value <= 0) or (not strict and value < 0):
        kind = "positive" if strict else "non-negative"
        raise ValueError(f"{name!r} must be {kind}, got {value!r}")
    return float(value)


def check_positive_int(value, name, *, allow_none=False, minimum=1):
    """Check an integer parameter is at least `minimum`."""
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, Integral) or value < minimum:
        raise ValueError(f"{name!r} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def check_probability(value, name):
    """Check a probability in [0, 1]."""
    if isinstance(value, bool) or not isinstance(value, Real) or not 0 <= value <= 1:
        raise ValueError(f"{name!r} must be a probability in [0, 1], got {value!r}")
    return float(value)


def check_random_state(seed):
    """Turn `seed` into a :class:`numpy.random.Generator`.

    Accepts None, an int, a Generator, or a legacy RandomState (whose stream is
    used to seed a Generator, so scikit-learn style seeds keep working).
    """
    if seed is None or isinstance(seed, (Integral, np.random.SeedSequence)):
        if isinstance(seed, bool) or (isinstance(seed, Integral) and seed < 0):
            raise ValueError(f"'random_state' must be None, a non-negative int or a "
                             f"Generator, got {seed!r}")
        return np.random.default_rng(seed)
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, np.random.RandomState):
        return np.random.default_rng(seed.randint(np.iinfo(np.int32).max))
    raise ValueError(
        f"'random_state' must be None, an int, a numpy Generator or RandomState, got {seed!r}")


def validate_estimator_input(estimator, X, *, reset, name="X", **kwargs):
    """scikit-learn's ``validate_data`` (sets and checks ``n_features_in_``),
    with every message naming the argument.

    Float32 input stays float32; integers become float64. With ``y=...``
    (validated together with X, as by ``validate_data``) messages about y
    name 'y', and both are returned.
    """
    import re

    from sklearn.utils.validation import validate_data

    kwargs.setdefault("dtype", [np.float64, np.float32])
    with_y = not (isinstance(kwargs.get("y", "no_validation"), str)
                  and kwargs.get("y", "no_validation") == "no_validation")
    _refuse_non_numeric(X, name)
    if with_y and kwargs.get("y_numeric") and kwargs["y"] is not None:
        _refuse_non_numeric(kwargs["y"], "y")  # class labels may be strings
    try:
        out = validate_data(estimator, X, reset=reset, **kwargs)
    except ValueError as exc:
        message = str(exc)
        if re.search(rf"'{re.escape(name)}'", message) or (with_y and "'y'" in message):
            raise
        # scikit-learn says "Input y contains NaN", "y should be a 1d array"
        if with_y and "inconsistent numbers of samples" in message:
            raise ValueError(f"{name!r} and 'y' must have the same number of samples: "
                             f"{message}") from None
        about_y = with_y and re.search(r"\by\b", message) and not re.search(r"\bX\b",
                                                                           message)
        raise ValueError(f"invalid {'y' if about_y else name!r}: {message}") from None
    if isinstance(out, tuple):
        X_out, y_out = out
        if isinstance(X_out, np.ndarray):
            X_out = check_magnitude(X_out, name)
        if isinstance(y_out, np.ndarray) and y_out.dtype.kind == "f" and y_out.ndim:
            y_out = check_magnitude(y_out if y_out.ndim == 2 else y_out[:, None],
                                    "y").reshape(y_out.shape)
        return X_out, y_out
    return check_magnitude(out, name) if isinstance(out, np.ndarray) else out


def _refuse_non_numeric(X, name):
    """A TypeError naming `name` for arrays (or lists) of strings, dates or
    objects that are not numbers, as :func:`check_array_2d`. (Complex data
    get scikit-learn's ValueError, which its estimator checks expect.)"""
    if not isinstance(X, (np.ndarray, list, tuple)):
        return  # DataFrames, sparse matrices: scikit-learn's checks apply
    try:
        arr = np.asarray(X)
    except Exception:  # ragged lists: scikit-learn says so
        return
    if arr.dtype.kind in "Mm":
        raise TypeError(f"{name!r} must hold real numbers, got an array of dtype "
                        f"{arr.dtype}")
    if arr.dtype.kind in "OUSV":
        try:
            arr.astype(np.float64)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"{name!r} must hold real numbers, got an array of dtype "
                            f"{arr.dtype} ({exc})") from None


def validate_dask_input(estimator, X, *, reset, name="X"):
    """The checks of :func:`validate_estimator_input` that need no data: a
    Dask array must be 2-D, real and as wide as at fit time. Its values are
    checked block by block when they are computed. Integer blocks become
    float64 there; the array is returned as float64 or float32 here.
    """
    if X.ndim != 2:
        raise ValueError(f"{name!r} must be a 2-D Dask array (n_samples, n_features), "
                         f"got shape {X.shape}")
    if X.dtype.kind not in "biuf":
        raise TypeError(f"{name!r} must hold real numbers, got a Dask array of dtype "
                        f"{X.dtype}")
    if reset:
        estimator.n_features_in_ = X.shape[1]
    elif X.shape[1] != estimator.n_features_in_:
        raise ValueError(
            f"{name!r} has {X.shape[1]} features, but {type(estimator).__name__} is "
            f"expecting {estimator.n_features_in_} features as input")
    return X if X.dtype in FLOAT_DTYPES else X.astype(np.float64)
