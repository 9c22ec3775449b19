"""Warnings and errors of the library.

Numerical trouble is never silent and never a NaN: it is a warning that says
what was done about it.
"""

import threading

__all__ = [
    "NumericalWarning",
    "ConvergenceWarning",  # noqa: F822 (made at its first use: __getattr__)
    "ConfigurationWarning",
    "MemoryBudgetError",
    "ModelFileError",
]


class NumericalWarning(RuntimeWarning):
    """Numerical trouble met and dealt with; the message says how.

    Examples
    --------
    >>> import warnings
    >>> from preimage import NumericalWarning
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", NumericalWarning)  # silence them all
    """


class ConfigurationWarning(UserWarning):
    """Parameters and data that run, but are known to give poor results.

    The message says what to pass instead.

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> from preimage import ConfigurationWarning, KernelPCADenoiser
    >>> X = np.random.default_rng(0).normal(size=(20, 2))
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     denoiser = KernelPCADenoiser(2, method="learned").fit(X)  # no clean targets
    >>> [w.category is ConfigurationWarning for w in caught]
    [True]
    """


class ModelFileError(ValueError):
    """A model file that cannot be loaded; the message says why.

    Examples
    --------
    >>> from preimage import ModelFileError
    >>> issubclass(ModelFileError, ValueError)
    True
    """


class MemoryBudgetError(MemoryError):
    """A dense matrix that would exceed the memory budget.

    The budget is ``preimage.set_config(memory_budget=...)``; the message says
    what to do instead.

    Examples
    --------
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


_CONVERGENCE_DOC = """An iterative method stopped before meeting its tolerance.

The best answer found is returned. A subclass of scikit-learn's
``ConvergenceWarning`` (a filter for that one catches this one) and of
:class:`NumericalWarning`.

Examples
--------
>>> import sklearn.exceptions
>>> from preimage import ConvergenceWarning
>>> issubclass(ConvergenceWarning, sklearn.exceptions.ConvergenceWarning)
True
"""
_LOCK = threading.Lock()


def __getattr__(name):
    # ConvergenceWarning is made at its first use: scikit-learn's, its base,
    # imports all of scikit-learn (seconds), which the other names do not need.
    if name != "ConvergenceWarning":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    with _LOCK:  # one class, whatever the threads
        if name not in globals():
            from sklearn.exceptions import ConvergenceWarning as base

            globals()[name] = type(
                name,
                (NumericalWarning, base),
                {"__module__": __name__, "__doc__": _CONVERGENCE_DOC},
            )
    return globals()[name]
