from . import kernels, reduced_set
from ._utils.config import config_context, delayed, get_config, set_config
from .denoising import KernelPCADenoiser, KernelPCADenoiserCV
from .dependency import KernelDependencyEstimator
from .exceptions import (
    ConfigurationWarning,
    ConvergenceWarning,
    MemoryBudgetError,
    ModelFileError,
    NumericalWarning,
)
from .io import load_model, model_info, save_model
from .kernels._expansion import FeatureExpansion
from .kpca import KernelPCA
from .reduced_set import ReducedKernelPCA, ReducedSVC, ReducedSVR, reduce_kernel_pca, reduce_svm
from .solvers import PREIMAGE_METHODS, PreimageResult, find_preimage
from .sparse_regression import SequentialSVR, WienerRegressor

__all__ = [
    "PREIMAGE_METHODS",
    "ConfigurationWarning",
    "ConvergenceWarning",
    "FeatureExpansion",
    "KernelDependencyEstimator",
    "KernelPCA",
    "KernelPCADenoiser",
    "KernelPCADenoiserCV",
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
    "delayed",
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
]
