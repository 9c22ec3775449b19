"""Warnings and errors of the library.

Numerical trouble is never silent and never a NaN: it is a warning that says
what was done about it.
"""

__all__ = [
    "NumericalWarning",
    "ConvergenceWarning",
    "ConfigurationWarning",
    "MemoryBudgetError",
    "ModelFileError",
]


class NumericalWarning(RuntimeWarning):
    r"""Numerical trouble that the library met and dealt with.

    A computation met numerical trouble (a value outside a map's domain, a
    vanishing denominator, a rank-deficient matrix) and the library did
    something about it, which the message says.

    Examples
    --------
    The expansion :math:`\phi(0) - \phi(2)` of a Gaussian kernel is
    orthogonal to :math:`\phi(1)`: started at 1, the fixed-point iteration
    divides by zero, and is restarted from a support point.

    >>> import warnings
    >>> import numpy as np
    >>> from preimage import FeatureExpansion, find_preimage
    >>> from preimage.kernels import GaussianKernel
    >>> psi = FeatureExpansion([1.0, -1.0], np.array([[0.0], [2.0]]), GaussianKernel(gamma=1.0))
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     result = find_preimage(psi, x0=[[1.0]])
    >>> [w.category.__name__ for w in caught]
    ['NumericalWarning']
    """


class ConvergenceWarning(NumericalWarning):
    """An iterative method stopped before meeting its tolerance.

    The best answer found is returned.

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> from preimage import ConvergenceWarning, FeatureExpansion, find_preimage
    >>> from preimage.kernels import GaussianKernel
    >>> psi = FeatureExpansion([0.5, 0.5], np.array([[0.0], [2.0]]), GaussianKernel(gamma=1.0))
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     result = find_preimage(psi, x0=[[0.3]], max_iter=1)
    >>> [w.category is ConvergenceWarning for w in caught]
    [True]
    >>> result.converged.tolist()
    [False]
    """


class ConfigurationWarning(UserWarning):
    """Parameters and data that run, but are known to give poor results.

    For example a learned pre-image map without clean targets to learn from;
    the message says what to pass instead.

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> from preimage import ConfigurationWarning, KernelPCADenoiser
    >>> X = np.random.default_rng(0).normal(size=(20, 2))
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     denoiser = KernelPCADenoiser(2, method="learned").fit(X)
    >>> [w.category is ConfigurationWarning for w in caught]
    [True]
    """


class ModelFileError(ValueError):
    """A model file that cannot be loaded.

    It is not a model file of this library, is truncated, damaged or
    inconsistent, was written in a newer format, or does not carry the
    signature of the key given; the message says which.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import numpy as np
    >>> from preimage import ModelFileError, load_model
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "arrays.npz"
    ...     np.savez(path, X=np.ones(3))
    ...     try:
    ...         load_model(path)
    ...     except ModelFileError as error:
    ...         print(str(error).split(": ", 1)[1])
    not a preimage model file (no metadata)
    """


class MemoryBudgetError(MemoryError):
    """A dense matrix that would exceed the memory budget.

    The budget is set with ``preimage.set_config(memory_budget=...)`` or
    ``preimage.config_context(memory_budget=...)``; the message says what to
    do instead (usually Nyström, ``n_landmarks=m``).

    Examples
    --------
    The Gram matrix of 100 points does not fit in a budget of 1 kB:

    >>> import numpy as np
    >>> import preimage
    >>> from preimage import KernelPCA, MemoryBudgetError
    >>> with preimage.config_context(memory_budget="1kB"):
    ...     try:
    ...         KernelPCA(2, kernel="rbf").fit(np.zeros((100, 2)))
    ...     except MemoryBudgetError as error:
    ...         print(str(error)[:45])
    the 100 x 100 Gram matrix of exact kernel PCA
    """
