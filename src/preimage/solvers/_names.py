"""The pre-image methods by name, :data:`PREIMAGE_METHODS`: its names are known
without importing the solvers (``--help`` lists them), each its class's ``name``."""

from preimage._utils.lazy import LazyRegistry

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
