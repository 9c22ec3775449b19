from ._base import PreimageSolver as PreimageSolver
from ._closed_form import ClosedFormPreimage as ClosedFormPreimage
from ._exact import ExactPreimage as ExactPreimage, exact_preimage as exact_preimage
from ._fixed_point import FixedPointPreimage as FixedPointPreimage, fixed_point as fixed_point
from ._gradient import GradientPreimage as GradientPreimage, gradient_descent as gradient_descent
from ._learned import LearnedPreimage as LearnedPreimage
from ._mds import MDSPreimage as MDSPreimage
from ._names import PREIMAGE_METHODS as PREIMAGE_METHODS
from ._registry import (
    CallablePreimage as CallablePreimage,
    find_preimage as find_preimage,
    make_solver as make_solver,
)
from ._result import PreimageResult as PreimageResult
from ._starts import (
    nearest_support_points as nearest_support_points,
    support_distance2 as support_distance2,
)
