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
from ._config import config_context, get_config, set_config
from .exceptions import (ConfigurationWarning, ConvergenceWarning, MemoryBudgetError,
                         ModelFileError, NumericalWarning)
from .model_files import load_model, model_info, save_model
from .solvers import PREIMAGE_METHODS, PreimageResult, find_preimage
from ._version import __version__

__all__ = [
    "PREIMAGE_METHODS",
    "ConfigurationWarning",
    "ConvergenceWarning",
    "FeatureExpansion",
    "KernelDependencyEstimator",
    "KernelPCA",
    "KernelPCADenoiser",
    "MemoryBudgetError",
    "ModelFileError",
    "NumericalWarning",
    "PreimageResult",
    "ReducedKernelPCA",
    "ReducedSVC",
    "ReducedSVR",
    "SequentialSVR",
    "WienerRegressor",
    "config_context",
    "find_preimage",
    "get_config",
    "kernels",
    "load_model",
    "model_info",
    "reduce_kernel_pca",
    "reduce_svm",
    "reduced_set",
    "save_model",
    "set_config",
    "__version__",
]
