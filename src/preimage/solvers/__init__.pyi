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
