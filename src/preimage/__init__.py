"""preimage: from kernel feature spaces back to input space."""

from . import kernels
from ._expansion import FeatureExpansion
from .estimators import KernelPCA, KernelPCADenoiser
from .exceptions import ConvergenceWarning, NumericalWarning
from .solvers import METHODS, PreimageResult, find_preimage

__version__ = "0.1.0.dev0"

__all__ = [
    "METHODS",
    "ConvergenceWarning",
    "FeatureExpansion",
    "KernelPCA",
    "KernelPCADenoiser",
    "NumericalWarning",
    "PreimageResult",
    "find_preimage",
    "kernels",
    "__version__",
]
