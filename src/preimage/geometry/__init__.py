"""Feature-space geometry: the metric and curvature a kernel induces on input
space (Schölkopf et al. 1999, Sec. II-E, after Burges 1999).

The feature map φ embeds input space as a surface in feature space. Its
metric ``g_ij(x) = ∂²k(x, x')/∂x_i∂x'_j |_{x'=x}`` is written in the kernel
alone (``_metric``: closed forms for radial and dot-product kernels, central
differences of the kernel's gradient otherwise, and the volume element
``√det g``); its scalar curvature follows from the metric's derivatives
(``_curvature``: Christoffel symbols and the Riemann tensor by central
differences of any metric, and the closed forms, among them the paper's
polynomial kernels).
"""

from .._lazy import lazy_exports

# For static type checkers (any TYPE_CHECKING is true to them); at run time
# lazy_exports reads these imports and makes each at the name's first use.
TYPE_CHECKING = False
if TYPE_CHECKING:
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

__getattr__, __dir__ = lazy_exports(__name__, __file__)

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
