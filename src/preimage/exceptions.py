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
    """A computation met numerical trouble (a value outside a map's domain, a
    vanishing denominator, a rank-deficient matrix) and the library did
    something about it, which the message says."""


class ConvergenceWarning(NumericalWarning):
    """An iterative method stopped before meeting its tolerance; the best
    answer found is returned."""


class ConfigurationWarning(UserWarning):
    """The parameters and the data given run, but are known to give poor
    results (a learned pre-image map without clean targets to learn from);
    the message says what to pass instead."""


class ModelFileError(ValueError):
    """A model file cannot be loaded: it is not a model file of this library,
    is truncated, damaged or inconsistent, was written in a newer format, or
    does not carry the signature of the key given."""


class MemoryBudgetError(MemoryError):
    """A dense matrix would exceed the memory budget
    (``preimage.set_config(memory_budget=...)``); the message says what to do
    instead (usually Nyström, ``n_landmarks=m``)."""
