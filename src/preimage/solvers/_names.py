"""The pre-image methods by name: :data:`PREIMAGE_METHODS`, the one list of them.

Its names are known without importing the solvers (the command line offers
them at ``--help``); a solver class is imported when it is looked up. Each
name is its class's ``name``.
"""

from preimage._utils.lazy import LazyRegistry

__all__ = ["PREIMAGE_METHODS"]

#: Every pre-image method, by name (in alphabetical order): the solver class
#: that implements it (a :class:`~preimage.solvers.PreimageSolver`).
PREIMAGE_METHODS = LazyRegistry(
    __package__,
    {
        "closed_form": "._closed_form:ClosedFormPreimage",
        "exact": "._exact:ExactPreimage",
        "fixed_point": "._fixed_point:FixedPointPreimage",
        "gradient": "._gradient:GradientPreimage",
        "learned": "._learned:LearnedPreimage",
        "mds": "._mds:MDSPreimage",
    },
)
