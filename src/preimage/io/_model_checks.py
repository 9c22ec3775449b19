"""Checks of a model rebuilt from a file: what fit would refuse is refused.

Loading runs no constructor or ``fit``, and a file whose hashes were
recomputed can hold anything: every object's parameters and fitted state are
checked here, and a failure is a :class:`ModelFileError` naming the field.
"""

import dataclasses
import re
import warnings

import numpy as np

from preimage.denoising import KernelPCADenoiser
from preimage.exceptions import ModelFileError
from preimage.kernels import Kernel
from preimage.kpca import KernelPCA
from preimage.kpca._result import KernelPCAResult
from preimage.reduced_set import ReducedKernelPCA, ReducedSetResult, ReducedSVC, ReducedSVR
from preimage.solvers import PreimageSolver, make_solver
from preimage.sparse_regression import SequentialSVR, WienerRegressor, WienerState

__all__ = ["check_model", "denoiser_solver", "library_objects"]


class _Refused(Exception):
    def __init__(self, field, value, message):
        super().__init__(message)
        self.field, self.value, self.message = field, value, message


def _shown(value):
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape} and dtype {value.dtype}"
    if type(value).__module__.startswith("preimage") and not isinstance(value, Kernel):
        return f"a {type(value).__name__}"
    text = " ".join(repr(value).split())  # one line
    return text if len(text) <= 80 else text[:77] + "..."


def check_model(model, path):
    """Refuse a rebuilt `model` that its class's ``fit`` could not have made."""
    if type(model) not in _ESTIMATORS:
        raise ModelFileError(f"{path}: does not hold an estimator")
    objects = sorted(library_objects(model), key=lambda item: _order(item[0]))
    for obj, where in objects:
        try:
            with warnings.catch_warnings():
                # what fit warned about (a kernel MDS must clip) was said at fit
                warnings.simplefilter("ignore")
                _check_object(obj)
        except _Refused as refused:
            field = f"{where}.{refused.field}" if where else refused.field
            raise ModelFileError(
                f"{path}: {field!r} = {_shown(refused.value)}: {refused.message}"
            ) from None


def _order(obj):
    # parts before the wholes that rely on them
    parts = (Kernel, PreimageSolver, KernelPCA)
    return next((rank for rank, cls in enumerate(parts) if isinstance(obj, cls)), 3)


def library_objects(root):
    """(object, where) for every object of the library reachable from `root`, each once."""
    seen, stack, out = set(), [(root, "")], []
    while stack:
        obj, where = stack.pop()
        if isinstance(obj, dict):
            stack.extend((v, f"{where}[{k!r}]") for k, v in obj.items())
        elif isinstance(obj, (list, tuple)):
            stack.extend((v, f"{where}[{i}]") for i, v in enumerate(obj))
        elif type(obj).__module__.startswith("preimage") and id(obj) not in seen:
            seen.add(id(obj))
            out.append((obj, where))
            stack.extend((v, f"{where}.{k}" if where else k) for k, v in vars(obj).items())
    return out


def _check_object(obj):
    if isinstance(obj, Kernel) and dataclasses.is_dataclass(obj):  # as its constructor checks
        names = [field.name for field in dataclasses.fields(obj)]
        _check_as_model_error(lambda: dataclasses.replace(obj), obj, names)
    elif isinstance(obj, PreimageSolver):
        _solver(obj)
    check = _ESTIMATORS.get(type(obj))
    if check is not None:  # the parameters, as fit checks them
        _check_as_model_error(obj._validate_params, obj, quoted=r"The '(\w+)' parameter")
        if hasattr(obj, "feature_names_in_"):
            _array(obj, "feature_names_in_", (_value(obj, "n_features_in_"),), kinds="OU")
        check(obj)


def _value(obj, name):
    if name not in vars(obj):
        raise _Refused(name, None, "missing from the file; it was altered")
    return vars(obj)[name]


def _require(condition, name, value, message):
    if not condition:
        raise _Refused(name, value, message)


def _array(obj, name, shape, *, kinds="f", optional=False):
    """The array `name`, of `shape` (None: any length), dtype kind in `kinds`, finite."""
    value = _value(obj, name)
    if value is None and optional:
        return None
    _require(isinstance(value, np.ndarray), name, value, "must be an array")
    _require(value.dtype.kind in kinds, name, value, f"must be an array of kind {kinds!r} (dtype)")
    expected = "(" + ", ".join("n" if n is None else str(n) for n in shape) + ")"
    fits = value.ndim == len(shape) and all(n in (None, m) for n, m in zip(shape, value.shape))
    _require(fits, name, value, f"must have shape {expected}")
    _finite(name, value)
    return value


def _finite(name, value):
    if value.dtype.kind in "fc":
        _require(bool(np.isfinite(value).all()), name, value, "must hold finite values")


def _int(obj, name, minimum=0, *, equal=None):
    value = _value(obj, name)
    ok = isinstance(value, (int, np.integer)) and not isinstance(value, bool) and value >= minimum
    _require(ok, name, value, f"must be an integer >= {minimum}")
    if equal is not None:
        _require(value == equal[1], name, value, f"must equal {equal[0]} ({equal[1]})")
    return int(value)


def _instance(obj, name, cls, *, optional=False):
    value = _value(obj, name)
    if value is None and optional:
        return None
    _require(isinstance(value, cls), name, value, f"must be a {cls.__name__}")
    return value


def _real(obj, name, *, positive=False, optional=False):
    value = _value(obj, name)
    if value is None and optional:
        return None
    ok = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)
    try:
        ok = ok and bool(np.isfinite(float(value))) and (not positive or value > 0)
    except OverflowError:  # an int beyond the float range
        ok = False
    _require(ok, name, value, "must be a finite positive number" if positive else "must be finite")
    return value


def _indices(obj, name, n):
    value = _array(obj, name, (None,), kinds="iu")
    ok = value.size == 0 or (value.min() >= 0 and value.max() < n)
    _require(ok, name, value, f"must hold indices in [0, {n})")
    return value


def _check_as_model_error(check, obj, names=None, quoted=r"'(\w+)'"):
    """``check()``, its error a refusal of the first of `names` its message quotes."""
    try:
        check()
    except (ValueError, TypeError, OverflowError) as exc:
        found = re.findall(quoted, str(exc))
        name = next((n for n in found if names is None or n in names), "parameters")
        raise _Refused(name, vars(obj).get(name), str(exc)) from None


def _solver(solver):
    """A pre-image solver's parameters and kernel, as its fit checks them."""
    _check_as_model_error(solver._check_params, solver, vars(solver))
    if "kernel_" in vars(solver):
        kernel = _instance(solver, "kernel_", Kernel)
        try:
            solver._check_kernel(kernel)
        except (ValueError, TypeError) as exc:
            raise _Refused("kernel_", kernel, str(exc)) from None
    if "support_" in vars(solver):
        _array(solver, "support_", (None, None))
    if "kpca_" in vars(solver):
        _instance(solver, "kpca_", KernelPCAResult, optional=True)
    for name, value in vars(solver).items():
        if isinstance(value, np.ndarray):
            _finite(name, value)


def denoiser_solver(den):
    """The solver the denoiser `den` makes at fit, unfitted."""
    options = {"random_state": den.random_state, "n_landmarks": den.n_landmarks}
    return make_solver(den.method, den.method_params, **options)


def _kernel_pca(kp):
    d = _int(kp, "n_features_in_", 1)
    X = _array(kp, "X_fit_", (None, d))
    n = X.shape[0]
    if _value(kp, "kernel_") is None:
        _require(kp.kernel == "precomputed", "kernel_", None, "must be a Kernel")
    else:
        _instance(kp, "kernel_", Kernel)
    _real(kp, "gamma_", positive=True, optional=True)
    fit = _instance(kp, "fit_result_", KernelPCAResult)
    q = _array(fit, "eigenvalues", (None,)).shape[0]
    try:
        positive = bool((fit.eigenvalues >= 0).all())
        _require(positive, "eigenvalues", fit.eigenvalues, "must be >= 0")
        _require(q <= n, "eigenvalues", fit.eigenvalues, f"must be at most n_samples={n}")
        _array(fit, "alphas", (n, q))
        _array(fit, "eigenvectors", (n, q), optional=True)
        _array(fit, "K_col_mean", (n,), optional=True)
        _real(fit, "K_mean")
        _array(fit, "mean_coords", (q,))
        _array(fit, "mean_coef", (n,))
    except _Refused as refused:
        refused.field = f"fit_result_.{refused.field}"
        raise
    if kp.n_components is not None:
        _require(q <= kp.n_components, "n_components", kp.n_components, f"is below the {q} kept")
    _array(kp, "eigenvalues_", (q,))
    _array(kp, "expansion_coef_", (n, q))
    _array(kp, "eigenvectors_", (n, q), optional=True)
    if kp.n_landmarks is not None:
        _array(kp, "landmarks_", (n, d))
    _instance(kp, "_solvers", dict)
    for key, solver in kp._solvers.items():
        _require(isinstance(solver, PreimageSolver), "_solvers", key, "must hold solvers")
        _fitted_for(kp, solver, f"_solvers[{key!r}]")


def _fitted_for(kp, solver, where, owner=""):
    """Refuse a `solver` whose support, kernel or kernel PCA is not `kp`'s own."""
    state = vars(solver)
    for name, own, field in (
        ("support_", kp.X_fit_, "X_fit_"),
        ("kernel_", kp.kernel_, "kernel_"),
        ("kpca_", kp.fit_result_, "fit_result_"),
    ):
        if name in state:
            message = f"must be the kernel PCA's own ({owner}{field})"
            _require(_same(state[name], own), f"{where}.{name}", state[name], message)


def _same(a, b):
    """Whether `a` and `b` are one object or hold equal values."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and bool(np.array_equal(a, b))
    if type(a).__module__.startswith("preimage"):
        va, vb = vars(a), vars(b)
        return va.keys() == vb.keys() and all(_same(va[k], vb[k]) for k in va)
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


def _denoiser(den):
    kpca = _instance(den, "kpca_", KernelPCA)
    q = kpca.fit_result_.eigenvalues.shape[0]
    _int(den, "n_components_", 0, equal=("the components kept by kpca_", q))
    d = _int(den, "n_features_in_", 1, equal=("kpca_.n_features_in_", kpca.n_features_in_))
    solver = _instance(den, "solver_", PreimageSolver)
    message = f"must be the solver of method={den.method!r}"
    _require(solver.name == den.method, "solver_", solver, message)
    try:
        denoiser_solver(den)._check_params()
    except (ValueError, TypeError) as exc:
        raise _Refused("method_params", den.method_params, str(exc)) from None
    n = kpca.X_fit_.shape[0]
    _fitted_for(kpca, solver, "solver_", "kpca_.")
    state = vars(solver)
    if "coordinates_" in state:
        m = _array(solver, "coordinates_", (None, q)).shape[0]
        _array(solver, "dual_coef_", (m, d))
    if "diag_" in state:
        _array(solver, "diag_", (n,))
    if "M_" in state:
        _array(solver, "M_", (d, n))


def _reduced(est):
    d = _int(est, "n_features_in_", 1)
    _instance(est, "kernel_", Kernel)
    rs = _instance(est, "reduced_set_", ReducedSetResult)
    p = _array(est, "vectors_", (None, d)).shape[0]
    m = _array(est, "dual_coef_", (None, p)).shape[0]
    _array(est, "intercept_", (m,))
    _int(est, "n_vectors_", 0, equal=("the rows of vectors_", p))
    _require(rs.vectors is est.vectors_, "reduced_set_", rs, "must hold vectors_")
    _require(rs.coef is est.dual_coef_, "reduced_set_", rs, "must hold dual_coef_")
    return m


def _reduced_kpca(est):
    m = _reduced(est)
    _int(est, "n_components_", 1, equal=("the rows of dual_coef_", m))


def _reduced_svc(est):
    m = _reduced(est)
    k = _array(est, "classes_", (None,), kinds="biufU").shape[0]
    _require(k >= 2, "classes_", est.classes_, "must hold at least 2 classes")
    kind = _value(est, "kind_")
    _require(kind in ("binary", "ovo", "ovr"), "kind_", kind, "must be 'binary', 'ovo' or 'ovr'")
    pairs = _array(est, "pairs_", (m, 2), kinds="iu", optional=True)
    if pairs is not None and pairs.size:
        _require(pairs.min() >= 0 and pairs.max() < k, "pairs_", pairs, f"must be in [0, {k})")


def _reduced_svr(est):
    _require(_reduced(est) == 1, "dual_coef_", est.dual_coef_, "must have one row")


def _support(est, n):
    d = _int(est, "n_features_in_", 1)
    _instance(est, "kernel_", Kernel)
    s = _indices(est, "support_", n).shape[0]
    _array(est, "support_vectors_", (s, d))
    _array(est, "dual_coef_", (1, s))
    _int(est, "n_vectors_", 0, equal=("the length of support_", s))
    return d


def _wiener(est):
    X = _array(est, "X_fit_", (None, None))
    n = X.shape[0]
    _array(est, "y_fit_", (n,))
    _require(_support(est, n) == X.shape[1], "X_fit_", X, "must have n_features_in_ columns")
    _instance(est, "_state", WienerState, optional=True)


def _sequential(est):
    n = _array(est, "alpha_", (None,)).shape[0]
    _array(est, "alpha_star_", (n,))
    _support(est, n)
    _real(est, "intercept_")


_ESTIMATORS = {
    KernelPCA: _kernel_pca,
    KernelPCADenoiser: _denoiser,
    ReducedKernelPCA: _reduced_kpca,
    ReducedSVC: _reduced_svc,
    ReducedSVR: _reduced_svr,
    WienerRegressor: _wiener,
    SequentialSVR: _sequential,
}
