"""Pre-image methods: from feature-space expansions back to input space.

Each method is a function or a small fitted object in a module of its own;
:func:`find_preimage` dispatches on ``method=``.
"""

from ._closed_form import ClosedFormPreimage
from ._dispatch import METHODS, find_preimage, make_solver
from ._exact import exact_preimage
from ._fixed_point import fixed_point
from ._gradient import gradient_descent
from ._learned import LearnedPreimage
from ._mds import MDSPreimage
from ._result import PreimageResult
from ._starts import nearest_support_points, support_distance2

__all__ = [
    "METHODS",
    "ClosedFormPreimage",
    "LearnedPreimage",
    "MDSPreimage",
    "PreimageResult",
    "exact_preimage",
    "find_preimage",
    "fixed_point",
    "gradient_descent",
    "make_solver",
    "nearest_support_points",
    "support_distance2",
]
