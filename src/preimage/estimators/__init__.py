"""scikit-learn estimators: thin shells over the functions of the package."""

from .._lazy import lazy_exports

# For static type checkers (any TYPE_CHECKING is true to them); at run time
# lazy_exports reads these imports and makes each at the name's first use.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._denoiser import KernelPCADenoiser
    from ._denoiser_cv import KernelPCADenoiserCV
    from ._kde import KernelDependencyEstimator
    from ._kernel_pca import KernelPCA
    from ._reduced_kpca import ReducedKernelPCA, reduce_kernel_pca
    from ._reduced_svm import ReducedSVC, ReducedSVR, reduce_svm
    from ._sparse_regression import SequentialSVR, WienerRegressor

__getattr__, __dir__ = lazy_exports(__name__, __file__)

__all__ = [
    "KernelDependencyEstimator",
    "KernelPCA",
    "KernelPCADenoiser",
    "KernelPCADenoiserCV",
    "ReducedKernelPCA",
    "ReducedSVC",
    "ReducedSVR",
    "SequentialSVR",
    "WienerRegressor",
    "reduce_kernel_pca",
    "reduce_svm",
]
