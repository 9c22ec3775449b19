"""From scikit-learn's kernel spellings to kernel objects.

Estimators accept ``kernel="rbf", gamma=None, degree=3, coef0=1``, a
:class:`~preimage.kernels.Kernel` instance, a callable on pairs of samples
(scikit-learn's convention) or ``"precomputed"``. This module resolves them,
including the data-dependent default width, at fit time.
"""

from dataclasses import dataclass, field
import numpy as np

from .._validation import check_array_2d
from .._warnings import warn
from ..exceptions import NumericalWarning
from ._base import Kernel
from ._dot import LinearKernel, PolynomialKernel, SigmoidKernel
from ._radial import GaussianKernel, LaplacianKernel
from ._sine import SineKernel

__all__ = ["KERNELS", "CallableKernel", "default_gamma", "make_kernel"]

#: Kernel names understood by every estimator, and the classes they make.
KERNELS = {
    "rbf": GaussianKernel,
    "gaussian": GaussianKernel,
    "laplacian": LaplacianKernel,
    "poly": PolynomialKernel,
    "polynomial": PolynomialKernel,
    "linear": LinearKernel,
    "sigmoid": SigmoidKernel,
    "sine": SineKernel,
}


@dataclass(frozen=True)
class CallableKernel(Kernel):
    """A user's kernel function ``f(x, y, **params)`` on pairs of 1-D samples.

    Evaluated with :func:`sklearn.metrics.pairwise.pairwise_kernels`, exactly
    as scikit-learn's estimators do; it has no gradient, so only pre-image
    methods that need none apply to it.
    """

    function: object = None
    params: dict = field(default_factory=dict)

    differentiable = False
    # A user's function may return anything: public blocks refuse NaN and inf.
    may_overflow = True

    def __post_init__(self):
        if not callable(self.function):
            raise ValueError(f"'kernel' must be callable, got {self.function!r}")

    def _block(self, X, Y):
        from sklearn.metrics.pairwise import pairwise_kernels

        return pairwise_kernels(X, Y, metric=self.function, **self.params)

    def __hash__(self):
        return hash((self.function, tuple(sorted(self.params.items()))))


def default_gamma(X, kernel="rbf"):
    """The width the papers use when none is given.

    For the Gaussian kernel, Mika et al. (1999) take ``exp(−‖x − y‖²/(d c))``
    with c twice the average variance per dimension, that is

        γ = 1 / (2 · Σ_j Var(x_j)),

    one over twice the total variance of the training data. Other kernels get
    scikit-learn's default ``1/n_features``. Constant data (zero variance) falls
    back to ``1/n_features`` with a warning.
    """
    if isinstance(X, np.ndarray) or not (hasattr(X, "var") and hasattr(X, "shape")):
        X = check_array_2d(X, "X")  # a Dask array is reduced as it is
    if kernel in ("rbf", "gaussian"):
        total_variance = float(X.var(axis=0).sum()) if X.shape[0] > 1 else 0.0
        if not np.isfinite(total_variance):
            raise ValueError("'X' contains NaN or inf; all values must be finite")
        # A variance below ~1/max_float (denormal) has no finite inverse.
        if total_variance > 0 and np.isfinite(1.0 / (2.0 * total_variance)):
            return 1.0 / (2.0 * total_variance)
        warn(
            "the training data have zero variance, so the default Gaussian width "
            f"1/(2·total variance) is undefined; using gamma = 1/n_features = "
            f"{1.0 / X.shape[1]:.4g} instead", NumericalWarning)
    return 1.0 / X.shape[1]


def make_kernel(kernel="rbf", *, gamma=None, degree=3, coef0=1.0, kernel_params=None,
                X=None):
    """Resolve a kernel specification into a :class:`Kernel`.

    Parameters
    ----------
    kernel : str, Kernel or callable
        A name from :data:`KERNELS`, a kernel object (returned as is), or a
        callable on pairs of samples.
    gamma : float or None
        Width of rbf, laplacian, poly and sigmoid kernels; None resolves from
        `X` with :func:`default_gamma`.
    degree, coef0 : int, float
        Polynomial degree and the constant of poly and sigmoid kernels
        (scikit-learn's defaults 3 and 1). Other kernels ignore them.
    kernel_params : dict or None
        Extra keyword arguments for a callable kernel or the kernel class:
        the sine kernel's order N is ``kernel_params={"order": N}`` (without
        it, :class:`SineKernel`'s default).
    X : array or None
        Training data, needed only to resolve ``gamma=None``.
    """
    if kernel_params is not None and not isinstance(kernel_params, dict):
        raise TypeError(f"'kernel_params' must be a dict or None, got {kernel_params!r}")
    params = dict(kernel_params or {})
    if isinstance(kernel, Kernel):
        if gamma is not None or params:
            warn("'gamma' and 'kernel_params' are ignored when 'kernel' is a "
                 "kernel object", UserWarning)
        return kernel
    if callable(kernel):
        return CallableKernel(kernel, params)
    if not isinstance(kernel, str) or kernel not in KERNELS:
        raise ValueError(
            f"'kernel' must be one of {sorted(KERNELS) + ['precomputed']}, a Kernel "
            f"object or a callable, got {kernel!r}")
    cls = KERNELS[kernel]
    if cls in (GaussianKernel, LaplacianKernel, PolynomialKernel, SigmoidKernel):
        if gamma is None:
            if X is None:
                raise ValueError("'gamma' is None and no data were given to resolve it")
            gamma = default_gamma(X, kernel)
        params.setdefault("gamma", gamma)
    if cls is PolynomialKernel:
        params.setdefault("degree", degree)
    if cls in (PolynomialKernel, SigmoidKernel):
        params.setdefault("coef0", coef0)
    return cls(**params)
