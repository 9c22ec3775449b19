"""Kernel objects from scikit-learn's kernel spellings, at fit time."""

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, Literal

import numpy as np

from preimage._utils.typing import MatrixLike
from preimage._utils.validation import check_array_2d
from preimage._utils.warnings import warn
from preimage._utils.xp import namespace
from preimage.exceptions import NumericalWarning
from preimage.kernels._base import Kernel
from preimage.kernels._docs import fill
from preimage.kernels._names import KERNELS


@fill
@dataclass(frozen=True)
class PairwiseKernel(Kernel):
    """A kernel evaluated by :func:`sklearn.metrics.pairwise.pairwise_kernels` (no gradient).

    Parameters
    ----------
    metric : str or callable
        One of scikit-learn's kernel names or a callable on pairs of samples.
    params : dict, default={}
        Keyword arguments of the kernel (those it does not take are filtered out).
    %(n_jobs)s

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.kernels import PairwiseKernel
    >>> k = PairwiseKernel("cosine")
    >>> np.round(k(np.array([[1.0, 0.0], [1.0, 1.0]])), 4)  # cos 45 degrees
    array([[1.    , 0.7071],
           [0.7071, 1.    ]])
    """

    metric: object = None
    params: dict = field(default_factory=dict, hash=False)  # a dict is unhashable
    n_jobs: object = None

    differentiable = False
    # A user's function may return anything: public blocks refuse NaN and inf.
    may_overflow = True

    def __post_init__(self):
        from sklearn.metrics.pairwise import PAIRWISE_KERNEL_FUNCTIONS

        names = sorted(set(PAIRWISE_KERNEL_FUNCTIONS) - {"precomputed"})
        if not (callable(self.metric) or isinstance(self.metric, str) and self.metric in names):
            raise ValueError(f"'metric' must be one of {names} or a callable, got {self.metric!r}")

    def _block(self, X, Y):
        from sklearn.metrics.pairwise import pairwise_kernels

        K = pairwise_kernels(
            X, Y, metric=self.metric, filter_params=True, n_jobs=self.n_jobs, **self.params
        )
        # scikit-learn before 1.8 fills a callable's values into float64 whatever the
        # input; float32 input stays float32 here, as with every other kernel.
        dtype = np.result_type(X.dtype, Y.dtype)
        return K.astype(dtype, copy=False) if dtype.kind == "f" else K


@fill
@dataclass(frozen=True)
class CallableKernel(PairwiseKernel):
    """A user's kernel function ``f(x, y, **params)`` on pairs of 1-D samples (no gradient).

    Parameters
    ----------
    metric : callable
        The function ``f(x, y, **params) -> float``.
    params : dict, default={}
        Its keyword arguments (those it does not take are filtered out).
    %(n_jobs)s

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.kernels import CallableKernel
    >>> k = CallableKernel(lambda x, y: float(x @ y) + 1.0)
    >>> k(np.array([[1.0, 2.0]]), np.array([[3.0, 4.0]]))  # 11 + 1
    array([[12.]])
    """

    def __post_init__(self):
        if not callable(self.metric):
            raise ValueError(f"'kernel' must be callable, got {self.metric!r}")

    @property
    def function(self) -> Callable[..., float]:
        """The user's kernel function, the field `metric`."""
        return self.metric  # type: ignore[return-value]  # callable, checked when made


def default_gamma(X: MatrixLike, kernel: str = "rbf") -> float:
    r"""Return the kernel width the papers use when none is given.

    For the Gaussian kernel, twice the total variance:

    .. math:: \gamma = \frac{1}{2 \sum_j \operatorname{Var}(x_j)}.

    Other kernels, and constant data (with a NumericalWarning), get ``1/n_features``.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
        The training data (NumPy, Dask or SciPy sparse).
    kernel : str, default="rbf"
        The kernel's name.

    Returns
    -------
    float
        The width :math:`\gamma`.

    References
    ----------
    Mika et al. (1999), Sec. 4.
    Schölkopf et al. (1999), Sec. VI-A.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.kernels import default_gamma
    >>> X = np.array([[0.0, 0.0], [2.0, 0.0], [0.0, 2.0], [2.0, 2.0]])
    >>> default_gamma(X)  # variances 1 and 1: 1 / (2 * 2)
    0.25
    >>> default_gamma(X, "poly")  # 1 / n_features
    0.5
    """
    xp = namespace(X)
    if xp is not None and kernel in ("rbf", "gaussian"):  # array API dispatch
        variance = float(xp.sum(xp.var(X, axis=0)))
        if variance > 0:
            return 0.5 / variance
    sparse = hasattr(X, "tocsr")
    lazy = hasattr(X, "var") and hasattr(X, "shape") and not isinstance(X, np.ndarray)
    if xp is None and not sparse and not lazy:
        X = check_array_2d(X, "X")  # a Dask array is reduced as it is
    if kernel in ("rbf", "gaussian") and xp is None:
        # Over a power of two s >= max |x| (exact), so squares neither underflow nor overflow.
        peak = float(abs(X).max()) if X.shape[0] > 1 else 0.0
        if not np.isfinite(peak):
            raise ValueError("'X' contains NaN or inf; all values must be finite")
        s = 2.0 ** np.frexp(peak)[1] if peak else 1.0
        if sparse:  # without densifying X
            from sklearn.utils.sparsefuncs import mean_variance_axis

            variance = float(mean_variance_axis(X.tocsr() / s, axis=0)[1].sum())
        else:
            variance = float((X / s).var(axis=0).sum()) if peak else 0.0
        if variance:
            with np.errstate(over="ignore", under="ignore"):
                gamma = float(np.float64(0.5) / variance / s / s)  # 1 / (2 s² variance)
            if not 0 < gamma < np.inf:
                raise ValueError(
                    f"'X' holds values up to {peak:.3g} in magnitude: the default Gaussian "
                    f"width 1/(2·total variance) {'over' if gamma else 'under'}flows float64; "
                    "rescale 'X' (e.g. with sklearn.preprocessing.StandardScaler) or give 'gamma'"
                )
            return gamma
        warn(
            "the training data have zero variance, so the default Gaussian width "
            f"1/(2·total variance) is undefined; using gamma = 1/n_features = "
            f"{1.0 / X.shape[1]:.4g} instead",
            NumericalWarning,
        )
    return 1.0 / X.shape[1]


@fill
def make_kernel(
    kernel: str | Kernel | Callable[..., float] = "rbf",
    *,
    gamma: float | None = None,
    degree: int = 3,
    coef0: float = 1.0,
    kernel_params: dict[str, Any] | None = None,
    X: MatrixLike | None = None,
) -> Kernel:
    """Resolve a kernel specification into a :class:`Kernel`.

    Parameters
    ----------
    kernel : str, Kernel or callable, default="rbf"
        A name from :data:`KERNELS`, a kernel object, or a callable on pairs of samples.
    gamma : float, default=None
        Width of rbf, laplacian, poly and sigmoid kernels; None resolves from
        `X` with :func:`default_gamma`.
    %(sk_params)s
    X : array-like of shape (n_samples, n_features), default=None
        Training data, needed only to resolve ``gamma=None``.

    Returns
    -------
    Kernel
        `kernel` itself, a :class:`CallableKernel`, or the class :data:`KERNELS` names.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.kernels import make_kernel
    >>> make_kernel("rbf", gamma=0.5)
    GaussianKernel(gamma=0.5)
    >>> make_kernel("poly", gamma=1.0, degree=2, coef0=0.0)
    PolynomialKernel(degree=2, gamma=1.0, coef0=0.0)
    >>> make_kernel("rbf", X=np.array([[0.0], [2.0]]))  # variance 1: 1 / (2 * 1)
    GaussianKernel(gamma=0.5)
    """
    if kernel_params is not None and not isinstance(kernel_params, dict):
        raise TypeError(f"'kernel_params' must be a dict or None, got {kernel_params!r}")
    params = dict(kernel_params or {})
    if isinstance(kernel, Kernel):
        if gamma is not None or params:
            warn(
                "'gamma' and 'kernel_params' are ignored when 'kernel' is a kernel object",
                UserWarning,
            )
        return kernel
    if callable(kernel):
        return CallableKernel(kernel, params)
    if not isinstance(kernel, str) or kernel not in KERNELS:
        raise ValueError(
            f"'kernel' must be one of {sorted(KERNELS) + ['precomputed']}, a Kernel "
            f"object or a callable, got {kernel!r}"
        )
    cls = KERNELS[kernel]
    names = {f.name for f in fields(cls)}
    if "gamma" in names and gamma is None:
        if X is None:
            raise ValueError("'gamma' is None and no data were given to resolve it")
        gamma = default_gamma(X, kernel)
    defaults = {"gamma": gamma, "degree": degree, "coef0": coef0}
    return cls(**{k: v for k, v in defaults.items() if k in names} | params)


#: scikit-learn's kernel names, with the parameters ``KernelPCA`` gives them.
SKLEARN_KERNELS = ("linear", "poly", "rbf", "sigmoid", "cosine")


@fill
def make_sklearn_kernel(
    kernel: str | Kernel | Callable[..., float],
    *,
    gamma: float | Literal["total_variance"] | None = None,
    degree: int = 3,
    coef0: float = 1.0,
    kernel_params: dict[str, Any] | None = None,
    n_jobs: int | None = None,
    X: MatrixLike | None = None,
) -> tuple[Kernel, float | None]:
    """Resolve a kernel as :class:`sklearn.decomposition.KernelPCA` does.

    ``"cosine"``, callables and sparse `X` get a :class:`PairwiseKernel`.

    Parameters
    ----------
    kernel : str, Kernel or callable
        A name (scikit-learn's or :data:`KERNELS`), a kernel object, or a callable.
    gamma : float, "total_variance" or None, default=None
        The width; None is scikit-learn's ``1/n_features``,
        ``"total_variance"`` the papers' rule of :func:`default_gamma`.
    %(sk_params)s
        Named kernels evaluated by :class:`PairwiseKernel` ignore it.
    %(n_jobs)s
    X : array-like or sparse matrix of shape (n_samples, n_features), default=None
        The training data; needed unless `kernel` is a kernel object.

    Returns
    -------
    kernel : Kernel
        The kernel object.
    gamma : float or None
        The width used, scikit-learn's ``gamma_``.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.kernels import make_sklearn_kernel
    >>> X = np.array([[0.0, 0.0], [2.0, 0.0], [0.0, 2.0], [2.0, 2.0]])
    >>> make_sklearn_kernel("rbf", X=X)  # scikit-learn's 1 / n_features
    (GaussianKernel(gamma=0.5), 0.5)
    >>> make_sklearn_kernel("rbf", gamma="total_variance", X=X)  # 1 / (2 * 2)
    (GaussianKernel(gamma=0.25), 0.25)
    >>> make_sklearn_kernel("cosine", X=X)[0].metric
    'cosine'
    """
    if isinstance(kernel, Kernel):  # gamma is only warned of
        made = make_kernel(kernel, gamma=gamma, kernel_params=kernel_params)
        return made, getattr(kernel, "gamma", None)
    if X is None:
        raise ValueError("'X' (the training data) is needed to resolve the kernel")
    if gamma is None:
        gamma = 1.0 / X.shape[1]
    elif isinstance(gamma, str) and gamma == "total_variance":
        gamma = default_gamma(X, "rbf")
    sparse = hasattr(X, "tocsr")
    if callable(kernel) or kernel == "cosine" or sparse:
        on_sparse = SKLEARN_KERNELS + ("gaussian", "laplacian")
        if sparse and not (callable(kernel) or kernel in on_sparse):
            raise ValueError(
                f"kernel={kernel!r} needs a dense 'X'; on sparse input "
                f"use one of {sorted(on_sparse)} or a callable"
            )
        params = {"gamma": gamma, "degree": degree, "coef0": coef0}
        params = dict(kernel_params or {}) if callable(kernel) else params
        return PairwiseKernel("rbf" if kernel == "gaussian" else kernel, params, n_jobs), gamma  # type: ignore[return-value]  # resolved
    params = {"degree": degree, "coef0": coef0, "kernel_params": kernel_params, "X": X}
    made = make_kernel(kernel, gamma=gamma, **params)
    return made, getattr(made, "gamma", gamma)  # type: ignore[arg-type]
