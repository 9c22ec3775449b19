"""Array API dispatch, as scikit-learn does it: with ``array_api_dispatch`` on, the
arrays of another library (PyTorch, CuPy, array-api-strict) are computed on in their
namespace and on their device; NumPy arrays always take the NumPy path."""

import copy

import numpy as np
import sklearn


def namespace(*arrays):
    """The array namespace of the non-NumPy arrays among `arrays` when scikit-learn's
    ``array_api_dispatch`` is on, else None (the NumPy path); mixed namespaces are refused."""
    if not sklearn.get_config().get("array_api_dispatch", False):
        return None
    from sklearn.utils._array_api import get_namespace

    found = [a for a in arrays if not isinstance(a, np.ndarray) and _is_array(a)]
    return get_namespace(*found)[0] if found else None


def _is_array(a):
    """Whether `a` is an array API array (PyTorch and CuPy arrays included)."""
    return hasattr(a, "__array_namespace__") or type(a).__module__.split(".")[0] in (
        "torch",
        "cupy",
    )


def same_namespace(fitted, *arrays, method):
    """The namespace of the fitted array `fitted`, which `arrays` must share, else a
    ValueError naming `method` (``"KernelPCA.transform"``), as scikit-learn words it."""
    xp, fitted = namespace(*arrays), namespace(fitted)
    if xp is not fitted:
        on = ["NumPy" if x is None else x.__name__.split(".")[-1] for x in (fitted, xp)]
        raise ValueError(
            f"Inputs passed to {method}() must use the same namespace as those passed to "
            f"fit(): fitted on {on[0]} arrays, given {on[1]}"
        )
    return fitted


def device_of(x):
    """The device `x` lives on."""
    from sklearn.utils._array_api import device

    return device(x)


def refuse(what, xp):
    """A TypeError saying that `what` runs on NumPy arrays only, naming the namespace."""
    name = getattr(xp, "__name__", str(xp)).replace("sklearn.externals.array_api_compat.", "")
    return TypeError(
        f"{what} runs on NumPy arrays only, not on {name} arrays (array API dispatch "
        "covers KernelPCA, the denoisers, find_preimage and the numeric kernels); pass "
        "NumPy arrays"
    )


def to_numpy(x):
    """`x` as a NumPy array (from any device)."""
    if isinstance(x, np.ndarray) or namespace(x) is None:
        return np.asarray(x)
    from sklearn.utils._array_api import _convert_to_numpy

    return _convert_to_numpy(x, namespace(x))


def take_rows(X, rows):
    """``X[rows]`` for an integer NumPy array `rows`, in the namespace of X."""
    xp = namespace(X)
    return X[rows] if xp is None else xp.take(X, xp.asarray(rows, device=device_of(X)), axis=0)


def numpy_copy(obj, moved=None, _seen=None):
    """A copy of `obj` (an estimator, solver, fit result, or a dict, list or tuple of them)
    whose arrays of another namespace are NumPy arrays; their namespaces are added to the
    set `moved`."""
    seen = {} if _seen is None else _seen
    if id(obj) in seen:
        return seen[id(obj)]
    xp = namespace(obj)
    if xp is not None:
        moved is None or moved.add(xp.__name__.split(".")[-1])
        return to_numpy(obj)
    if isinstance(obj, dict | list | tuple):
        items = obj.items() if isinstance(obj, dict) else enumerate(obj)
        copied = {k: numpy_copy(v, moved, seen) for k, v in items}
        if isinstance(obj, dict):
            return copied
        return (
            type(obj)(*copied.values()) if hasattr(obj, "_fields") else type(obj)(copied.values())
        )
    if not hasattr(obj, "__dict__") or isinstance(obj, type) or callable(obj):
        return obj
    new = seen[id(obj)] = copy.copy(obj)
    vars(new).update({k: numpy_copy(v, moved, seen) for k, v in vars(obj).items()})
    return new


def check_xp_2d(X, name, xp, *, n_features=None, min_samples=1):
    """`X` as a finite 2-D real floating array of namespace `xp`, or an error naming it."""
    X = X if namespace(X) is xp else xp.asarray(X)
    if X.ndim != 2 or X.shape[0] < min_samples or X.shape[1] < 1:
        raise ValueError(f"{name!r} must be a 2-D array with samples and features, got {X.shape}")
    if n_features is not None and X.shape[1] != n_features:
        raise ValueError(
            f"{name!r} has {X.shape[1]} features, but {n_features} were expected "
            "(the number of features seen at fit time)"
        )
    if not xp.isdtype(X.dtype, "real floating"):
        X = xp.astype(X, xp.float64)
    if not bool(xp.all(xp.isfinite(X))):
        raise ValueError(f"{name!r} contains NaN or inf; all values must be finite")
    return X
