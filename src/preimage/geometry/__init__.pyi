from ._curvature import (
    CURVATURE_METHODS,
    metric_scalar_curvature,
    polynomial_scalar_curvature,
    scalar_curvature,
)
from ._metric import (
    METRIC_METHODS,
    induced_metric,
    metric_by_finite_differences,
    profile_derivatives,
    volume_element,
)

__all__ = [
    "CURVATURE_METHODS",
    "METRIC_METHODS",
    "induced_metric",
    "metric_by_finite_differences",
    "metric_scalar_curvature",
    "polynomial_scalar_curvature",
    "profile_derivatives",
    "scalar_curvature",
    "volume_element",
]
