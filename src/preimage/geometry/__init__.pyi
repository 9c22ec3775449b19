from ._curvature import (
    CURVATURE_METHODS as CURVATURE_METHODS,
    metric_scalar_curvature as metric_scalar_curvature,
    polynomial_scalar_curvature as polynomial_scalar_curvature,
    scalar_curvature as scalar_curvature,
)
from ._metric import (
    METRIC_METHODS as METRIC_METHODS,
    induced_metric as induced_metric,
    metric_by_finite_differences as metric_by_finite_differences,
    profile_derivatives as profile_derivatives,
    volume_element as volume_element,
)
