"""preimage: from kernel feature spaces back to input space."""

from . import kernels
from ._expansion import FeatureExpansion
from .estimators import KernelPCA

__version__ = "0.1.0.dev0"

__all__ = ["FeatureExpansion", "KernelPCA", "kernels", "__version__"]
