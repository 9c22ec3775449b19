"""scikit-learn estimators: thin shells over the functions of the package."""

from .._lazy import lazy_exports

# For static type checkers (any TYPE_CHECKING is true to them); at run time the
# names come from _EXPORTS at their first use (preimage._lazy).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._denoiser import KernelPCADenoiser
    from ._kde import KernelDependencyEstimator
    from ._kernel_pca import KernelPCA
    from ._reduced_kpca import ReducedKernelPCA, reduce_kernel_pca
    from ._reduced_svm import ReducedSVC, ReducedSVR, reduce_svm
    from ._sparse_regression import SequentialSVR, WienerRegressor

_EXPORTS = {
    "._denoiser": ["KernelPCADenoiser"],
    "._kde": ["KernelDependencyEstimator"],
    "._kernel_pca": ["KernelPCA"],
    "._reduced_kpca": ["ReducedKernelPCA", "reduce_kernel_pca"],
    "._reduced_svm": ["ReducedSVC", "ReducedSVR", "reduce_svm"],
    "._sparse_regression": ["SequentialSVR", "WienerRegressor"],
}
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

__all__ = [
    "KernelDependencyEstimator",
    "KernelPCA",
    "KernelPCADenoiser",
    "ReducedKernelPCA",
    "ReducedSVC",
    "ReducedSVR",
    "SequentialSVR",
    "WienerRegressor",
    "reduce_kernel_pca",
    "reduce_svm",
]
