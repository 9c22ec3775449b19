from ._coefficients import approximation_error, optimal_coefficients
from ._construction import construct
from ._kernel_pca import kernel_pca_expansion
from ._reduced_kpca import ReducedKernelPCA, reduce_kernel_pca
from ._reduced_svm import ReducedSVC, ReducedSVR, reduce_svm
from ._registry import REDUCED_SET_METHODS, reduce_expansion
from ._result import ReducedSetResult
from ._selection import select_kpca, select_l1
from ._sklearn_svm import SVMExpansion, kernel_from_sklearn, svm_expansion, svm_kernel
from ._thresholds import classification_threshold, epsilon_insensitive_threshold
from ._votes import ovo_to_ovr_decision, ovo_votes

__all__ = [
    "REDUCED_SET_METHODS",
    "ReducedKernelPCA",
    "ReducedSVC",
    "ReducedSVR",
    "ReducedSetResult",
    "SVMExpansion",
    "approximation_error",
    "classification_threshold",
    "construct",
    "epsilon_insensitive_threshold",
    "kernel_from_sklearn",
    "kernel_pca_expansion",
    "optimal_coefficients",
    "ovo_to_ovr_decision",
    "ovo_votes",
    "reduce_expansion",
    "reduce_kernel_pca",
    "reduce_svm",
    "select_kpca",
    "select_l1",
    "svm_expansion",
    "svm_kernel",
]
