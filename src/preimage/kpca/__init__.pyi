from ._estimator import KernelPCA as KernelPCA
from ._fit import center_gram as center_gram, fit_kernel_pca as fit_kernel_pca
from ._nystroem import LANDMARK_METHODS as LANDMARK_METHODS, fit_nystroem_kpca as fit_nystroem_kpca
from ._projections import (
    center_block as center_block,
    coordinates_expansion as coordinates_expansion,
    expansion_coef as expansion_coef,
    transform_block as transform_block,
)
from ._result import KernelPCAResult as KernelPCAResult
