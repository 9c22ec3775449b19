"""The fitted state of an estimator as JSON plus NumPy arrays, and back.

Objects are stored by class and attributes; only the classes of
:data:`LOADABLE` are rebuilt. An object array of strings (scikit-learn's
``feature_names_in_``) is stored as a Unicode array marked ``"as_object"``.
"""

import hashlib
import importlib

import numpy as np

from preimage.exceptions import ModelFileError

__all__ = [
    "LOADABLE",
    "Encoder",
    "Decoder",
    "check_dtype",
    "class_name",
    "json_value",
    "sha256",
]

#: Classes a model file may name, by module and name. Only these are rebuilt.
LOADABLE = {
    "preimage.kpca._estimator": ("KernelPCA",),
    "preimage.denoising._denoiser": ("KernelPCADenoiser",),
    "preimage.reduced_set._reduced_kpca": ("ReducedKernelPCA",),
    "preimage.reduced_set._reduced_svm": ("ReducedSVC", "ReducedSVR"),
    "preimage.sparse_regression._estimators": ("WienerRegressor", "SequentialSVR"),
    "preimage.kernels._dot": ("LinearKernel", "PolynomialKernel", "SigmoidKernel"),
    "preimage.kernels._radial": ("GaussianKernel", "LaplacianKernel"),
    "preimage.kernels._sine": ("SineKernel",),
    "preimage.kernels._string": (
        "SpectrumKernel",
        "JointSpectrumKernel",
        "NormalizedKernel",
        "KernelDistanceRBF",
    ),
    "preimage.kpca._result": ("KernelPCAResult",),
    "preimage.solvers._closed_form": ("ClosedFormPreimage",),
    "preimage.solvers._exact": ("ExactPreimage",),
    "preimage.solvers._fixed_point": ("FixedPointPreimage",),
    "preimage.solvers._gradient": ("GradientPreimage",),
    "preimage.solvers._learned": ("LearnedPreimage",),
    "preimage.solvers._mds": ("MDSPreimage",),
    "preimage.reduced_set._result": ("ReducedSetResult",),
    "preimage.kernels._expansion": ("FeatureExpansion",),
    "preimage.sparse_regression._wiener": ("WienerState",),
    "preimage.sparse_regression._sequential": ("SequentialSVRResult",),
}

#: The kinds of dtype a model file may hold: booleans, integers, floats,
#: complex numbers and Unicode strings, none of them structured or nested.
_ARRAY_KINDS = "biufcU"
#: The longest Unicode string element (in characters) a dtype may name.
_MAX_STRING = 2**16


def check_dtype(text, where, path):
    """The dtype spelled `text` if plain (no sub-array, structure, objects or dates)."""
    try:
        dtype = np.dtype(text) if isinstance(text, str) else None
    except (TypeError, ValueError, SyntaxError):
        dtype = None
    plain = dtype is not None and dtype.kind in _ARRAY_KINDS and dtype.subdtype is None
    plain = plain and dtype.names is None and not dtype.hasobject
    if not plain or (dtype.kind == "U" and dtype.itemsize > 4 * _MAX_STRING):
        raise ModelFileError(
            f"{path}: {where} {text!r} is not a plain numeric or string dtype "
            "(booleans, integers, floats, complex numbers, Unicode strings); "
            "the file was altered"
        )
    return dtype


#: Where the classes of files written before the library's layout by task
#: (0.1.0 and earlier) live now: their old module -> the new one.
MOVED = {
    "preimage.estimators._kernel_pca": "preimage.kpca._estimator",
    "preimage.estimators._denoiser": "preimage.denoising._denoiser",
    "preimage.estimators._reduced_kpca": "preimage.reduced_set._reduced_kpca",
    "preimage.estimators._reduced_svm": "preimage.reduced_set._reduced_svm",
    "preimage.estimators._sparse_regression": "preimage.sparse_regression._estimators",
    "preimage.kpca": "preimage.kpca._result",
    "preimage._expansion": "preimage.kernels._expansion",
}


def class_name(cls):
    return f"{cls.__module__}:{cls.__qualname__}"


def _loadable_class(name, path):
    module, _, qualname = name.partition(":")
    module = MOVED.get(module, module)
    if qualname not in LOADABLE.get(module, ()):
        raise ModelFileError(
            f"{path}: names the class {name!r}, which preimage does not "
            "load from model files (altered, or not a preimage model)"
        )
    return getattr(importlib.import_module(module), qualname)


class Encoder:
    """The fitted state as a JSON tree plus a list of arrays; what is shared stays shared."""

    def __init__(self):
        self.arrays = []
        self.seen = {}  # id -> reference
        self.keep = []  # keeps encoded objects alive so ids stay unique

    def encode(self, value, where):
        if value is None or isinstance(value, (bool, int, float, str)):
            if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 2**53:
                return {"__int__": str(value)}
            return value
        if isinstance(value, np.generic):
            return {"__scalar__": [value.dtype.str, value.item()]}
        if isinstance(value, np.dtype):
            return {"__dtype__": value.str}
        if isinstance(value, (list, tuple)):
            items = [self.encode(v, f"{where}[{i}]") for i, v in enumerate(value)]
            return items if isinstance(value, list) else {"__tuple__": items}
        if isinstance(value, dict):
            if all(isinstance(k, str) and not k.startswith("__") for k in value):
                return {k: self.encode(v, f"{where}[{k!r}]") for k, v in value.items()}
            return {
                "__dict__": [
                    [self.encode(k, f"{where} key"), self.encode(v, f"{where}[{k!r}]")]
                    for k, v in value.items()
                ]
            }
        if id(value) in self.seen:
            return {"__ref__": self.seen[id(value)]}
        if isinstance(value, np.ndarray):
            strings = value.dtype.hasobject and all(isinstance(v, str) for v in value.flat)
            if not strings and (value.dtype.kind not in _ARRAY_KINDS or value.dtype.hasobject):
                raise TypeError(
                    f"{where} is an array of dtype {value.dtype}; model files "
                    "hold numeric and string arrays only (use pickle)"
                )
            key = f"a{len(self.arrays)}"
            self.arrays.append((key, value.astype(str) if strings else value, where))
            ref = {"array": key, "as_object": True} if strings else {"array": key}
            self._remember(value, ref)
            return {"__array__": key, **({"as_object": True} if strings else {})}
        cls = type(value)
        if cls.__qualname__ not in LOADABLE.get(cls.__module__, ()):
            raise TypeError(
                f"{where} is a {cls.__module__}.{cls.__qualname__}, which a model file "
                "cannot hold (model files hold preimage's own estimators, kernels and "
                "solvers with NumPy arrays; use pickle for anything else)"
            )
        ref = self._remember(value, None)
        state = {k: self.encode(v, f"{where}.{k}") for k, v in vars(value).items()}
        return {"__object__": class_name(cls), "id": ref["object"], "state": state}

    def _remember(self, value, ref):
        if ref is None:
            ref = {"object": len(self.seen)}
        self.seen[id(value)] = ref
        self.keep.append(value)
        return ref


class Decoder:
    def __init__(self, arrays, path):
        self.arrays, self.path, self.objects, self.object_arrays = arrays, path, {}, {}

    def _array(self, key, as_object):
        if not as_object:
            return self.arrays[key]
        if self.arrays[key].dtype.kind != "U":
            raise ModelFileError(
                f"{self.path}: array {key} is marked as strings but holds numbers"
            )
        if key not in self.object_arrays:  # one object array however often it is met
            self.object_arrays[key] = self.arrays[key].astype(object)
        return self.object_arrays[key]

    def decode(self, node, where=""):
        """The value of the JSON `node`, found at the field `where` (for messages)."""
        if isinstance(node, list):
            return [self.decode(v, f"{where}[{i}]") for i, v in enumerate(node)]
        if not isinstance(node, dict):
            return node
        if "__array__" in node:
            return self._array(node["__array__"], node.get("as_object", False))
        if "__ref__" in node:
            ref = node["__ref__"]
            if "array" in ref:
                return self._array(ref["array"], ref.get("as_object", False))
            return self.objects[ref["object"]]
        if "__tuple__" in node:
            return tuple(self.decode(v, f"{where}[{i}]") for i, v in enumerate(node["__tuple__"]))
        if "__dict__" in node:
            return {
                self.decode(k, f"{where} key"): self.decode(v, f"{where}[{k!r}]")
                for k, v in node["__dict__"]
            }
        if "__int__" in node:
            return int(node["__int__"])
        if "__scalar__" in node:
            return self._scalar(node["__scalar__"], where)
        if "__dtype__" in node:
            return check_dtype(node["__dtype__"], "a dtype", self.path)
        if "__object__" in node:
            cls = _loadable_class(node["__object__"], self.path)
            obj = cls.__new__(cls)
            self.objects[node["id"]] = obj
            # Frozen dataclasses too: their fields live in the instance __dict__.
            state = node["state"].items()
            vars(obj).update({k: self.decode(v, f"{where}.{k}" if where else k) for k, v in state})
            return obj
        return {k: self.decode(v, f"{where}[{k!r}]") for k, v in node.items()}

    def _scalar(self, node, where):
        dtype, value = node
        dtype = check_dtype(dtype, "a scalar's dtype", self.path)
        if not isinstance(value, (bool, int, float, str)):
            raise ModelFileError(f"{self.path}: a scalar's value {value!r} is not a number")
        try:
            return np.array(value, dtype=dtype)[()]
        except (OverflowError, ValueError, TypeError):
            shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
            raise ModelFileError(
                f"{self.path}: {where!r} = {shown}: not a value of its dtype {dtype.str!r}; "
                "the file was altered"
            ) from None


def json_value(value):
    """A parameter as plain JSON for the human-readable summary."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, dict):
        return {str(k): json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_value(v) for v in value]
    return repr(value)


def sha256(array):
    return hashlib.sha256(np.ascontiguousarray(array).view(np.uint8).reshape(-1)).hexdigest()
