from ._estimator import KernelPCA
from ._fit import KernelPCAResult, center_gram, fit_kernel_pca, leading_components
from ._guards import (
    check_psd_eigenvalues,
    drop_rounding_level,
    refuse_no_component,
    refuse_non_finite,
    rounding_floor,
)
from ._nystroem import LANDMARK_METHODS, fit_nystroem_kpca, kernel_moments, select_landmarks
from ._projections import (
    center_block,
    check_coordinates,
    coordinates_expansion,
    expansion_coef,
    training_coordinates,
    transform_block,
)

__all__ = [
    "LANDMARK_METHODS",
    "KernelPCA",
    "KernelPCAResult",
    "center_block",
    "center_gram",
    "check_coordinates",
    "check_psd_eigenvalues",
    "coordinates_expansion",
    "drop_rounding_level",
    "expansion_coef",
    "fit_kernel_pca",
    "fit_nystroem_kpca",
    "kernel_moments",
    "leading_components",
    "refuse_no_component",
    "refuse_non_finite",
    "rounding_floor",
    "select_landmarks",
    "training_coordinates",
    "transform_block",
]
