"""Parameter text the docstrings of this folder share, filled in by
:func:`fill_doc` (SciPy's ``doccer`` pattern: ``%(name)s`` in a docstring)."""

DOCS = {
    "kernel": """kernel : str, Kernel or callable, default="rbf"
        A name (``"rbf"``, ``"sine"``, ...), a kernel object from
        :mod:`preimage.kernels` or a callable on pairs of samples.
    gamma : float, default=None
        Kernel width; None resolves from the (first) training data.
    degree : int, default=3
        Degree of the polynomial kernel.
    coef0 : float, default=1
        Constant of the polynomial and sigmoid kernels.
    kernel_params : dict, default=None
        Extra parameters of a callable kernel or kernel class; the sine
        kernel's order N is ``kernel_params={"order": N}``.""",
    "svr": """C : float, default=inf
        Box constraint :math:`0 \\le \\alpha_i, \\alpha^*_i \\le C`; infinite for
        noiseless data, as in the paper.
    augmentation : float, default=1.0
        The augmenting factor :math:`\\lambda` of :math:`R = K + \\lambda^2`
        ("in the scale of the input vectors").
    learning_rate : None, float or array-like of shape (n_samples,), default=None
        Per-sample rates :math:`\\gamma_i`, below :math:`1 / R_{ii}`; None gives
        :math:`\\gamma_i = 0.95 / R_{ii}` (see :func:`learning_rates`).
    learning_rate_bound : {"raise", "clip"}, default="raise"
        A rate at or above :math:`1 / R_{ii}` raises a ValueError, or is
        clipped to :math:`0.95 / R_{ii}`.
    tol : float, default=1e-6
        Stop when every step of a sweep has
        :math:`(|\\delta\\alpha_i| + |\\delta\\alpha^*_i|) / \\gamma_i \\le` ``tol``
        (the projected gradient of the dual, in units of :math:`y`).
    max_iter : int, default=10000
        Maximum number of sweeps.""",
    "fitted": """support_ : ndarray of shape (``n_vectors_``,)
        Indices of the training samples in the expansion.
    support_vectors_ : ndarray of shape (``n_vectors_``, n_features)
        Their inputs.
    n_vectors_ : int
        Number of vectors in the expansion, ``support_.size``.
    kernel_ : Kernel
        The kernel object resolved from ``kernel`` and its parameters.
    gamma_ : float or None
        The width of ``kernel_`` (None for a kernel without one).
    n_features_in_ : int
        Number of features seen during :meth:`fit`.""",
}


def fill_doc(obj):
    """`obj` with the ``%(name)s`` of its docstring replaced by ``DOCS[name]``."""
    obj.__doc__ = obj.__doc__ % DOCS
    return obj
