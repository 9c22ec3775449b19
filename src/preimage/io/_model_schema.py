"""A fitted estimator as its parameters plus its declared fitted state, and back.

Each estimator that model files hold declares, in ``_model_state``, the
fitted attributes a file keeps and what each must be: a spec string such as
``"f[n,q]"`` (a float array, finite, whose dimensions bind the symbols ``n``
and ``q`` shared by the other arrays), ``"int"``, ``"float"``, ``"bool"``,
``"str"``, ``"dtype"``, ``"kernel"``, ``"model"`` (a nested estimator),
``"numbers"`` or ``"dict"`` (of JSON values and arrays); a trailing ``?`` marks what may be absent, and a
dict nests a record. Loading builds the estimator from its parameters
(checked by its own constraints), checks the stored state against the
declaration, refusing any name it does not declare, and hands it to the
estimator's ``_restore``, which recomputes everything else. Classes are named
by their public names only.
"""

import dataclasses
import functools
import inspect
import math
import re

import numpy as np

from preimage.exceptions import ModelFileError
from preimage.io._model_archive import plain_dtype


@functools.cache
def classes():
    """The classes a model file may name, by kind, then by public name."""
    from sklearn.svm import SVC, SVR, NuSVC, NuSVR

    from preimage import kernels
    from preimage.denoising import KernelPCADenoiser
    from preimage.kpca import KernelPCA
    from preimage.reduced_set import ReducedKernelPCA, ReducedSVC, ReducedSVR
    from preimage.sparse_regression import SequentialSVR, WienerRegressor

    models = (KernelPCA, KernelPCADenoiser, ReducedKernelPCA, ReducedSVC, ReducedSVR)
    models += (WienerRegressor, SequentialSVR)
    names = "Linear Polynomial Sigmoid Gaussian Laplacian Sine Spectrum JointSpectrum Normalized"
    kernel_classes = [getattr(kernels, name + "Kernel") for name in names.split()]
    return {
        "model": {cls.__name__: cls for cls in models},
        "estimator": {cls.__name__: cls for cls in (KernelPCA, SVC, SVR, NuSVC, NuSVR)},
        "kernel": {cls.__name__: cls for cls in [*kernel_classes, kernels.KernelDistanceRBF]},
    }


def _named(kind, name, where):
    if not isinstance(name, str) or name not in classes()[kind]:
        raise _Refused(where, f"names the {kind} {shown(name)}, which model files do not hold")
    return classes()[kind][name]


class _Refused(Exception):
    """A field of the file that is refused: its place, its value and the reason."""

    def __init__(self, where, reason, *value):
        value = f" = {shown(value[0])}" if value else ""
        super().__init__(f"{where!r}{value}: {reason}" if where else f"the model{value}: {reason}")


def shown(value, limit=60):
    """`value` for a message: its repr, on one line, at most `limit` characters."""
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape} and dtype {value.dtype}"
    return _one_line(repr(value), limit)


def _one_line(text, limit):
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _at(where, name):
    return f"{where}.{name}" if where else name


def few(names, limit=3):
    """At most `limit` of `names`, quoted, then how many more."""
    names = sorted(map(str, names))
    text = ", ".join(shown(n, 40) for n in names[:limit])
    return text + (f" and {len(names) - limit} more" if len(names) > limit else "")


# --- saving ---------------------------------------------------------------------


class _Encoder:
    """Values as JSON, arrays as members ``a0``, ``a1``... (each array once)."""

    def __init__(self):
        self.arrays, self._ids = {}, {}

    def value(self, value, where):
        if value is None or isinstance(value, (bool, str)):
            return value
        if isinstance(value, (int, float, np.integer, np.floating, np.bool_)):
            return value.item() if isinstance(value, np.generic) else value
        if isinstance(value, (list, tuple)):
            return [self.value(v, f"{where}[{i}]") for i, v in enumerate(value)]
        if isinstance(value, dict):
            if not all(isinstance(k, str) and not k.startswith("__") for k in value):
                raise TypeError(f"{where} has keys that are not names; model files hold JSON")
            return {k: self.value(v, f"{where}[{k!r}]") for k, v in value.items()}
        if isinstance(value, np.ndarray):
            return {"__array__": self.array(value, where)}
        if type(value).__name__ in classes()["kernel"]:
            fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
            return {"__kernel__": type(value).__name__, **self.value(fields, where)}
        if type(value).__name__ in classes()["estimator"] and hasattr(value, "get_params"):
            params = self.value(value.get_params(deep=False), where)
            return {"__estimator__": type(value).__name__, **params}
        raise TypeError(
            f"{where} is a {type(value).__module__}.{type(value).__qualname__}, which a "
            "model file cannot hold (it holds parameters as JSON, preimage's kernels and "
            "NumPy arrays of numbers or strings; use pickle for anything else)"
        )

    def array(self, value, where):
        if value.dtype.hasobject and all(isinstance(v, str) for v in value.flat):
            value = value.astype(str)
        if value.dtype.kind not in "biufU" or value.dtype.names is not None:
            raise TypeError(
                f"{where} is an array of dtype {value.dtype}; model files hold "
                "arrays of numbers and strings only (use pickle)"
            )
        key = self._ids.setdefault(id(value), f"a{len(self._ids)}")
        self.arrays[key] = (value, where)
        return key

    def model(self, est, where="estimator"):
        params = {k: self.value(v, f"{where}.{k}") for k, v in est.get_params(deep=False).items()}
        state = self.state(est, est._model_state, where)
        return {"class": type(est).__name__, "params": params, "state": state}

    def state(self, obj, spec, where):
        out = {}
        for name, kind in spec.items():
            value = obj.get(name) if isinstance(obj, dict) else getattr(obj, name, None)
            if value is None or name == "?":
                continue
            at = f"{where}.{name}"
            if isinstance(kind, dict):
                out[name] = self.state(value, kind, at)
            elif kind.rstrip("?") == "model":
                out[name] = self.model(value, at)
            elif kind.rstrip("?") == "dtype":
                out[name] = np.dtype(value).str
            else:
                out[name] = self.value(value, at)
        return out


def encode_model(est):
    """(the JSON tree of `est`, {member: (array, where)})."""
    if classes()["model"].get(type(est).__name__) is not type(est):
        raise TypeError(
            f"a model file cannot hold a {type(est).__name__}; it holds "
            f"{few(classes()['model'], 10)} (use pickle for anything else)"
        )
    encoder = _Encoder()
    return encoder.model(est), encoder.arrays


# --- loading --------------------------------------------------------------------

_SPEC = re.compile(r"([fibU*])\[([\w,]*)\]")
_KINDS = {"f": "f", "i": "iu", "b": "b", "U": "U", "*": "biufU"}


def _real(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _finite(value):
    try:
        return _real(value) and math.isfinite(value)
    except OverflowError:  # an int beyond the float range
        return False


#: The test of each kind of value that is not an array (nor a dtype).
_CHECKS = {
    "int": lambda v: _real(v) and isinstance(v, int) and v >= 0,
    "float": _finite,
    "bool": lambda v: isinstance(v, bool),
    "str": lambda v: isinstance(v, str) and len(v) <= 200,
    "numbers": lambda v: isinstance(v, list) and all(map(_real, v)),
    "kernel": lambda v: type(v).__name__ in classes()["kernel"],
    "dict": lambda v: isinstance(v, dict),
}


class _Decoder:
    def __init__(self, arrays):
        self.arrays = arrays

    def value(self, node, where):
        """The JSON `node` with its arrays and kernels built."""
        if isinstance(node, list):
            return [self.value(v, f"{where}[{i}]") for i, v in enumerate(node)]
        if not isinstance(node, dict):
            return node
        if "__array__" in node:
            key = node["__array__"]
            if not isinstance(key, str) or key not in self.arrays:
                raise _Refused(where, f"names the array {shown(key)}, which the file lacks")
            array = self.arrays[key]
            return array.astype(object) if array.dtype.kind == "U" else array
        if "__kernel__" in node:
            return self.build("kernel", node, "__kernel__", where)
        if "__estimator__" in node:
            return self.build("estimator", node, "__estimator__", where)
        return {k: self.value(v, f"{where}[{k!r}]") for k, v in node.items()}

    def build(self, kind, node, tag, where):
        cls = _named(kind, node[tag], where)
        params = {k: self.value(v, _at(where, k)) for k, v in node.items() if k != tag}
        if unknown := set(params) - set(inspect.signature(cls).parameters):
            raise _Refused(where, f"{cls.__name__} has no parameter {few(unknown)}")
        try:
            obj = cls(**params)
            if hasattr(obj, "_validate_params"):
                obj._validate_params()
        except (ValueError, TypeError, OverflowError) as exc:
            raise _Refused(where, _one_line(str(exc), 300)) from None
        return obj

    def model(self, node, where):
        if not isinstance(node, dict) or set(node) != {"class", "params", "state"}:
            raise _Refused(where, "is not a model's record (class, params and state)")
        if not isinstance(node["params"], dict):
            raise _Refused(_at(where, "params"), "is not a mapping")
        est = self.build(
            "model", {"__model__": node["class"], **node["params"]}, "__model__", where
        )
        state = self.state(node["state"], est._model_state, {}, where)
        try:
            est._restore(state)
        except (ValueError, TypeError, IndexError, KeyError, ArithmeticError) as exc:
            raise _Refused(where, _one_line(str(exc), 300)) from None
        return est

    def state(self, node, spec, sizes, where):
        """`node`, a record of `spec`, checked: {name: value}."""
        if not isinstance(node, dict):
            raise _Refused(where, "is not a mapping")
        spec = {k: v for k, v in spec.items() if k != "?"}
        if extra := set(node) - set(spec):
            reason = f"holds {few(extra)}, which the schema of this class does not declare"
            raise _Refused(where, reason + "; the file was altered")
        out = {}
        for name, kind in spec.items():
            at, value = _at(where, name), node.get(name)
            if value is None:
                if "?" in kind:
                    out[name] = None
                    continue
                raise _Refused(at, "is missing; the file was altered or truncated")
            if isinstance(kind, dict):
                out[name] = self.state(value, kind, sizes, at)
            elif kind.rstrip("?") == "model":
                out[name] = self.model(value, at)
            else:
                out[name] = self.check(self.value(value, at), kind.rstrip("?"), sizes, at)
        return out

    def check(self, value, kind, sizes, at):
        """`value`, refused unless of `kind`."""
        if kind == "dtype":
            dtype = plain_dtype(value)
            if dtype is None or dtype.kind != "f":
                raise _Refused(at, "must name a float dtype", value)
            return dtype
        if kind not in _CHECKS:
            return self.array(value, kind, sizes, at)
        if not _CHECKS[kind](value):
            raise _Refused(at, f"must be of kind {kind!r}", value)
        return value

    def array(self, value, kind, sizes, at):
        letters, dims = _SPEC.fullmatch(kind).groups()
        if not isinstance(value, np.ndarray):
            raise _Refused(at, "must be an array", value)
        dtype_kind = "U" if value.dtype.hasobject else value.dtype.kind
        if dtype_kind not in _KINDS[letters]:
            raise _Refused(at, f"must be an array of kind {_KINDS[letters]!r}", value)
        dims = dims.split(",") if dims else []
        if value.ndim != len(dims):
            raise _Refused(at, f"must have {len(dims)} dimensions", value)
        for symbol, size in zip(dims, value.shape):
            expected = int(symbol) if symbol.isdigit() else sizes.setdefault(symbol, size)
            if size != expected:
                axis = f"{symbol} = {expected} along that axis"
                raise _Refused(at, f"must have {axis}, as the rest of the file", value)
        if letters == "f" and not np.isfinite(value).all():
            raise _Refused(at, "must hold finite values", value)
        return value


def decode_model(tree, arrays, path):
    """The estimator the JSON `tree` of a file describes, over its `arrays`."""
    try:
        return _Decoder(arrays).model(tree, "")
    except _Refused as refused:
        raise ModelFileError(f"{path}: {refused}") from None
    except RecursionError:
        raise ModelFileError(f"{path}: the model's state is nested too deeply") from None
