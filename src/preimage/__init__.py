"""preimage: from kernel feature spaces back to input space."""

from . import kernels, reduced_set
from ._expansion import FeatureExpansion
from .estimators import (
    KernelDependencyEstimator,
    KernelPCA,
    KernelPCADenoiser,
    ReducedKernelPCA,
    ReducedSVC,
    ReducedSVR,
    SequentialSVR,
    WienerRegressor,
    reduce_kernel_pca,
    reduce_svm,
)
from .exceptions import ConvergenceWarning, NumericalWarning
from .solvers import METHODS, PreimageResult, find_preimage

__version__ = "0.1.0.dev0"

__all__ = [
    "METHODS",
    "ConvergenceWarning",
    "FeatureExpansion",
    "KernelDependencyEstimator",
    "KernelPCA",
    "KernelPCADenoiser",
    "NumericalWarning",
    "PreimageResult",
    "ReducedKernelPCA",
    "ReducedSVC",
    "ReducedSVR",
    "SequentialSVR",
    "WienerRegressor",
    "find_preimage",
    "kernels",
    "reduce_kernel_pca",
    "reduce_svm",
    "reduced_set",
    "__version__",
]
