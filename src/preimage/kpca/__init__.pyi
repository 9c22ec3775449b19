from ._estimator import KernelPCA
from ._fit import center_gram, fit_kernel_pca
from ._nystroem import LANDMARK_METHODS, fit_nystroem_kpca
from ._projections import center_block, coordinates_expansion, expansion_coef, transform_block
from ._result import KernelPCAResult

__all__ = [
    "LANDMARK_METHODS",
    "KernelPCA",
    "KernelPCAResult",
    "center_block",
    "center_gram",
    "coordinates_expansion",
    "expansion_coef",
    "fit_kernel_pca",
    "fit_nystroem_kpca",
    "transform_block",
]
