"""scikit-learn estimators: thin shells over the functions of the package."""

from ._denoiser import KernelPCADenoiser
from ._kde import KernelDependencyEstimator
from ._kernel_pca import KernelPCA
from ._reduced_kpca import ReducedKernelPCA, reduce_kernel_pca
from ._reduced_svm import ReducedSVC, ReducedSVR, reduce_svm
from ._sparse_regression import SequentialSVR, WienerRegressor

__all__ = ["KernelDependencyEstimator", "KernelPCA", "KernelPCADenoiser", "ReducedKernelPCA",
           "ReducedSVC", "ReducedSVR", "SequentialSVR", "WienerRegressor", "reduce_kernel_pca",
           "reduce_svm"]
