"""Pre-images for kernel methods: from kernel feature spaces back to input space.

The package's namespace holds the estimators, the pre-image solvers, the
settings, the model files and the warnings and errors of the library; each class
and function is documented in the subpackage that defines it.

The names below are imported at their first use (``preimage.KernelPCA``,
``from preimage import find_preimage``): ``import preimage`` itself loads
none of NumPy, SciPy or scikit-learn (:mod:`preimage._lazy`).
"""

from ._lazy import lazy_exports
from ._version import __version__

# What static type checkers and editors read (they take any TYPE_CHECKING as
# true; importing it from typing would cost the import of typing); at run time
# lazy_exports reads these imports and makes each at the name's first use
# (tests/test_imports.py keeps __all__ alike).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from . import kernels, reduced_set
    from ._config import config_context, delayed, get_config, set_config
    from ._expansion import FeatureExpansion
    from .estimators import (
        KernelDependencyEstimator,
        KernelPCA,
        KernelPCADenoiser,
        KernelPCADenoiserCV,
        ReducedKernelPCA,
        ReducedSVC,
        ReducedSVR,
        SequentialSVR,
        WienerRegressor,
        reduce_kernel_pca,
        reduce_svm,
    )
    from .exceptions import (
        ConfigurationWarning,
        ConvergenceWarning,
        MemoryBudgetError,
        ModelFileError,
        NumericalWarning,
    )
    from .model_files import load_model, model_info, save_model
    from .solvers import PREIMAGE_METHODS, PreimageResult, find_preimage

__getattr__, __dir__ = lazy_exports(__name__, __file__)

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
    "__version__",
]
