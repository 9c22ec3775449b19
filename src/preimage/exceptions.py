"""Warnings and errors of the library.

Numerical trouble is never silent and never a NaN, but a warning saying what was done.
"""

__all__ = ["NumericalWarning", "ConvergenceWarning"]  # noqa: F822 (made by __getattr__)
__all__ += ["ConfigurationWarning", "MemoryBudgetError", "ModelFileError"]


class NumericalWarning(RuntimeWarning):
    """Numerical trouble met and dealt with; the message says how.

    Examples
    --------
    >>> from preimage import NumericalWarning
    >>> issubclass(NumericalWarning, RuntimeWarning)
    True
    """


class ConfigurationWarning(UserWarning):
    """Parameters and data that run, but are known to give poor results.

    The message says what to pass instead.

    Examples
    --------
    >>> from preimage import ConfigurationWarning
    >>> issubclass(ConfigurationWarning, UserWarning)
    True
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
    """A dense matrix that would exceed the budget, ``preimage.set_config(memory_budget=...)``.

    Examples
    --------
    >>> import numpy as np
    >>> import preimage
    >>> with preimage.config_context(memory_budget="1kB"):
    ...     preimage.KernelPCA(2, kernel="rbf").fit(np.zeros((100, 2)))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    preimage.exceptions.MemoryBudgetError: the 100 x 100 Gram matrix of exact kernel PCA ...
    """


def __getattr__(name):
    # Made at first use: its base imports all of scikit-learn (seconds). setdefault keeps
    # one class whatever the threads.
    if name != "ConvergenceWarning":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from sklearn.exceptions import ConvergenceWarning as Base

    class ConvergenceWarning(NumericalWarning, Base):
        """An iterative method stopped before meeting its tolerance; the best answer is kept.

        A subclass of scikit-learn's ``ConvergenceWarning`` and of :class:`NumericalWarning`.

        Examples
        --------
        >>> import sklearn.exceptions
        >>> from preimage import ConvergenceWarning
        >>> issubclass(ConvergenceWarning, sklearn.exceptions.ConvergenceWarning)
        True
        """

        __qualname__ = "ConvergenceWarning"

    return globals().setdefault(name, ConvergenceWarning)
