"""Pre-image methods: from feature-space expansions back to input space.

Every method is a solver with one interface (:class:`PreimageSolver`: fit on
what it needs, solve expansions from optional starts, and solve kernel PCA
coordinates, by a fast path where one exists), registered once in
:data:`PREIMAGE_METHODS`. What a method needs is said by its solver's
class attributes, which :func:`make_solver` reads: :func:`find_preimage` and
every estimator dispatch on ``method=`` through it. The algorithms themselves
are functions or small classes in modules of their own, named for the method.
The names are imported at their first use; :data:`PREIMAGE_METHODS` knows
its names without importing the solvers.
"""

from .._lazy import lazy_exports

# For static type checkers (any TYPE_CHECKING is true to them); at run time
# lazy_exports reads these imports and makes each at the name's first use.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._base import PreimageSolver
    from ._closed_form import ClosedFormPreimage
    from ._exact import ExactPreimage, exact_preimage
    from ._fixed_point import FixedPointPreimage, fixed_point
    from ._gradient import GradientPreimage, gradient_descent
    from ._learned import LearnedPreimage
    from ._mds import MDSPreimage
    from ._names import PREIMAGE_METHODS
    from ._registry import CallablePreimage, find_preimage, make_solver
    from ._result import PreimageResult
    from ._starts import nearest_support_points, support_distance2

__getattr__, __dir__ = lazy_exports(__name__, __file__)

__all__ = [
    "PREIMAGE_METHODS",
    "CallablePreimage",
    "ClosedFormPreimage",
    "ExactPreimage",
    "FixedPointPreimage",
    "GradientPreimage",
    "LearnedPreimage",
    "MDSPreimage",
    "PreimageResult",
    "PreimageSolver",
    "exact_preimage",
    "find_preimage",
    "fixed_point",
    "gradient_descent",
    "make_solver",
    "nearest_support_points",
    "support_distance2",
]
