r"""Feature-space geometry: the metric and curvature a kernel induces on input space.

:func:`induced_metric` and :func:`volume_element` in closed form where known, by
central differences otherwise; :func:`scalar_curvature` likewise, and
:func:`metric_scalar_curvature` for any metric.

References
----------
Schölkopf et al. (1999), Sec. II-E. Burges (1999).
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
