"""Model files of earlier formats, brought up to the current one as they are read.

Format 1 (preimage 0.1.0.dev0) predates the unified vocabulary and solver
objects, format 2 KernelPCA's scikit-learn parameters; format 3 is current.
After the checksums are verified, :func:`upgrade_state` renames classes,
attributes and option keys in the JSON state (the tables below), then
:func:`upgrade_model` completes the rebuilt model with what the old format did
not store, computed from what it did, so that it predicts as it did; fitted
attributes added since (:data:`ADDED`) are completed the same way.
"""

from preimage.io._model_checks import denoiser_solver, library_objects
from preimage.solvers import ClosedFormPreimage, LearnedPreimage

__all__ = ["ADDED", "upgrade_state", "upgrade_model"]

#: Classes renamed or moved since format 1: old ``module:name`` → current.
CLASSES = {
    "preimage.kpca:KernelPCAFit": "preimage.kpca:KernelPCAResult",
    "preimage.sparse_regression:WienerState": "preimage.sparse_regression._wiener:WienerState",
    "preimage.sparse_regression:SequentialSVRResult": "preimage.sparse_regression._sequential:SequentialSVRResult",
    "preimage.reduced_set._result:ReducedSet": "preimage.reduced_set._result:ReducedSetResult",
}

#: Attributes renamed since format 1, by (current) class: old name → new.
ATTRIBUTES = {
    "preimage.estimators._kernel_pca:KernelPCA": {
        "_fit_state": "fit_result_",
        "_solver_cache": "_solvers",
    },
    "preimage.solvers._closed_form:ClosedFormPreimage": {"regularization": "alpha"},
    "preimage.estimators._sparse_regression:SequentialSVR": {"n_basis_vectors_": "n_vectors_"},
    "preimage.estimators._reduced_kpca:ReducedKernelPCA": {
        "coef_": "dual_coef_",
        "offset_": "intercept_",
    },
}

#: Keys renamed inside dictionaries of options, by (current) class and
#: attribute: old key → new.
OPTIONS = {
    "preimage.estimators._denoiser:KernelPCADenoiser": {
        "method_params": {"regularization": "alpha"}
    },
    "preimage.reduced_set._result:ReducedSetResult": {"info": {"solver": "preimage_method"}},
}


def upgrade_state(node, version):
    """The state tree `node` of a format-`version` file, in the current format."""
    if version >= 2:
        return node
    if isinstance(node, list):
        return [upgrade_state(v, version) for v in node]
    if not isinstance(node, dict):
        return node
    if "__object__" in node:
        name = CLASSES.get(node["__object__"], node["__object__"])
        renamed = ATTRIBUTES.get(name, {})
        options = OPTIONS.get(name, {})
        state = {}
        for key, value in node["state"].items():
            value = upgrade_state(value, version)
            if key in options and isinstance(value, dict):
                value = {options[key].get(k, k): v for k, v in value.items()}
            state[renamed.get(key, key)] = value
        return {**node, "__object__": name, "state": state}
    return {k: upgrade_state(v, version) for k, v in node.items()}


def upgrade_model(model, version):
    """Complete a model rebuilt from a format-`version` file; returns the model."""
    for obj, _ in library_objects(model):
        for upgrade in _UPGRADES.get(type(obj).__name__, ()) if version < 2 else ():
            upgrade(obj)
        if version < 3 and type(obj).__name__ == "KernelPCA":
            _sklearn_parameters(obj)
        for name, compute in ADDED.get(type(obj).__name__, {}).items():
            if name not in vars(obj):
                setattr(obj, name, compute(obj))
    return model


def _sklearn_parameters(kpca):
    """KernelPCA's scikit-learn parameters, and its old Gaussian width kept for a refit."""
    defaults = dict(alpha=1.0, fit_inverse_transform=False, remove_zero_eig=False, n_jobs=None)
    for name, value in defaults.items():
        vars(kpca).setdefault(name, value)
    if kpca.gamma is None and isinstance(kpca.kernel, str) and kpca.kernel in ("rbf", "gaussian"):
        kpca.gamma = "total_variance"


def _kernel_pca(kpca):
    # The fitted-solver cache of format 1 is keyed by the old option names; it
    # is a cache, rebuilt on use. The closed form now keeps its own maps.
    vars(kpca)["_solvers"] = {}
    vars(kpca).pop("_closed_form_maps", None)


def _denoiser(den):
    kpca = den.kpca_
    solver = den.solver_
    if solver is None:
        # Format 1 made the solvers of iterative methods at each call, from the
        # same parameters: make it once, as a denoiser now does at fit.
        den.solver_ = denoiser_solver(den).fit(kpca.X_fit_, kpca.kernel_, kpca=kpca.fit_result_)
        return
    _link_solver(solver, kpca)


def _link_solver(solver, kpca):
    """A format-1 solver of a denoiser, given the kernel PCA, support and kernel it is fitted on."""
    state = vars(solver)
    state.setdefault("kpca_", kpca.fit_result_)
    state.setdefault("support_", kpca.X_fit_)
    state.setdefault("kernel_", kpca.kernel_)
    if isinstance(solver, LearnedPreimage):
        state.setdefault("target_mean_", None)  # format 1 had no centred targets
        state.setdefault("KA_", None)  # computed on use
    if isinstance(solver, ClosedFormPreimage):
        state.setdefault("_coordinate_maps", None)


def _wiener(reg):
    # The coefficients over all training samples duplicated the expansion's
    # (zero off the support); its size is now said by n_vectors_.
    vars(reg).pop("coef_", None)
    reg.n_vectors_ = int(reg.support_.size)


def _sine_order(est):
    """Format 1 read a sine kernel's order from `degree`; now ``kernel_params``."""
    if isinstance(est.kernel, str) and est.kernel == "sine":
        est.kernel_params = {"order": est.degree, **(est.kernel_params or {})}


def _reduced(est):
    """Format 1 kept only a reduced estimator's fitted state: parameters saying how it was made."""
    rs = est.reduced_set_
    # Not the current default (shared): format 1 reduced per machine unless told.
    shared = bool(rs.info.get("shared", False))
    per_machine = (est.dual_coef_ != 0).sum(axis=1).max(initial=0)
    n_vectors = max(1, int(est.n_vectors_ if shared else per_machine))
    defaults = dict(estimator=None, n_vectors=n_vectors, method=rs.method, shared=shared)
    for name, value in {**defaults, "method_params": None, "random_state": None}.items():
        vars(est).setdefault(name, value)


#: Fitted attributes added since a file may have been written, by class: name →
#: how to compute it from what the file holds.
ADDED = {
    "KernelPCADenoiser": {
        "n_components_": lambda den: int(den.kpca_.eigenvalues_.shape[0]),
        "component_selection_": lambda den: None,
    },
    "MDSPreimage": {"alignment": lambda solver: "frame"},
}

_UPGRADES = {
    "KernelPCA": (_kernel_pca, _sine_order),
    "KernelPCADenoiser": (_denoiser, _sine_order),
    "WienerRegressor": (_wiener, _sine_order),
    "SequentialSVR": (_sine_order,),
    "ReducedSVC": (_reduced,),
    "ReducedSVR": (_reduced,),
    "ReducedKernelPCA": (_reduced,),
}
