from . import kernels as kernels, reduced_set as reduced_set
from ._utils.config import (
    config_context as config_context,
    delayed as delayed,
    get_config as get_config,
    set_config as set_config,
)
from .denoising import (
    KernelPCADenoiser as KernelPCADenoiser,
    KernelPCADenoiserCV as KernelPCADenoiserCV,
)
from .dependency import KernelDependencyEstimator as KernelDependencyEstimator
from .exceptions import (
    ConfigurationWarning as ConfigurationWarning,
    ConvergenceWarning as ConvergenceWarning,
    MemoryBudgetError as MemoryBudgetError,
    ModelFileError as ModelFileError,
    NumericalWarning as NumericalWarning,
)
from .io import load_model as load_model, model_info as model_info, save_model as save_model
from .kernels._expansion import FeatureExpansion as FeatureExpansion
from .kpca import KernelPCA as KernelPCA
from .reduced_set import (
    ReducedKernelPCA as ReducedKernelPCA,
    ReducedSVC as ReducedSVC,
    ReducedSVR as ReducedSVR,
    reduce_kernel_pca as reduce_kernel_pca,
    reduce_svm as reduce_svm,
)
from .solvers import (
    PREIMAGE_METHODS as PREIMAGE_METHODS,
    PreimageResult as PreimageResult,
    find_preimage as find_preimage,
)
from .sparse_regression import SequentialSVR as SequentialSVR, WienerRegressor as WienerRegressor
