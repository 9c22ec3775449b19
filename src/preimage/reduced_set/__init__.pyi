from ._coefficients import (
    approximation_error as approximation_error,
    optimal_coefficients as optimal_coefficients,
)
from ._construction import construct as construct
from ._reduced_kpca import (
    ReducedKernelPCA as ReducedKernelPCA,
    kernel_pca_expansion as kernel_pca_expansion,
    reduce_kernel_pca as reduce_kernel_pca,
)
from ._reduced_svm import (
    ReducedSVC as ReducedSVC,
    ReducedSVR as ReducedSVR,
    reduce_svm as reduce_svm,
)
from ._registry import (
    REDUCED_SET_METHODS as REDUCED_SET_METHODS,
    reduce_expansion as reduce_expansion,
)
from ._result import ReducedSetResult as ReducedSetResult
from ._selection import select_kpca as select_kpca, select_l1 as select_l1
from ._sklearn_svm import (
    SVMExpansion as SVMExpansion,
    classification_threshold as classification_threshold,
    epsilon_insensitive_threshold as epsilon_insensitive_threshold,
    svm_expansion as svm_expansion,
)
