from ._coefficients import approximation_error, optimal_coefficients
from ._construction import construct
from ._reduced_kpca import ReducedKernelPCA, kernel_pca_expansion, reduce_kernel_pca
from ._reduced_svm import ReducedSVC, ReducedSVR, reduce_svm
from ._registry import REDUCED_SET_METHODS, reduce_expansion
from ._result import ReducedSetResult
from ._selection import select_kpca, select_l1
from ._sklearn_svm import (
    SVMExpansion,
    classification_threshold,
    epsilon_insensitive_threshold,
    svm_expansion,
)

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
    "kernel_pca_expansion",
    "optimal_coefficients",
    "reduce_expansion",
    "reduce_kernel_pca",
    "reduce_svm",
    "select_kpca",
    "select_l1",
    "svm_expansion",
]
