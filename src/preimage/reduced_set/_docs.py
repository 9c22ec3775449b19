"""Docstring pieces the reduced-set estimators share, filled in by :func:`fill_doc`."""

DOCS = {
    "method": r"""method : {"construction", "selection_kpca", "selection_l1"}, default="construction"
        The reduced-set method (:data:`preimage.reduced_set.REDUCED_SET_METHODS`).""",
    "options": r"""method_params : dict, default=None
        Options of the method (``n_starts``, ``phase2``, ``penalty``, ...).
    random_state : None, int or Generator, default=None
        Random starts of the construction (the selections are deterministic).""",
    "attributes": r"""vectors_ : ndarray of shape (p, n_features)
        The reduced-set vectors :math:`z_j`.
    reduced_set_ : ReducedSetResult
        The reduction, with its history.
    approximation_error_ : ndarray of shape (m,)
        :math:`\rho_k = \|\Psi_k - \Psi'_k\|^2`, one per machine or component.
    relative_error_ : ndarray of shape (m,)
        :math:`\rho_k / \|\Psi_k\|^2`.
    kernel_ : Kernel
        The kernel.
    n_features_in_ : int
        The number of features seen during fit.""",
    "svm_attributes": r"""original_intercept_ : ndarray of shape (m,)
        The original machines' thresholds.
    threshold_recomputed_ : bool
        Whether the thresholds were recomputed on a training set.""",
    "svm_references": """Schölkopf et al. (1999), Sec. V, Sec. VI-B. Burges (1996).""",
    "kpca_references": """Schölkopf et al. (1999), Sec. V. Schölkopf et al. (1998).""",
}


def fill_doc(obj):
    """Fill the ``%(name)s`` pieces of `obj`'s docstring from :data:`DOCS`."""
    obj.__doc__ = obj.__doc__ % DOCS
    return obj
