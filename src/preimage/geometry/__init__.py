r"""Feature-space geometry: the metric and curvature a kernel induces on input space.

The feature map :math:`\phi` embeds input space as a surface in feature space,
whose Riemannian metric is written in the kernel alone,

.. math::

    g_{ij}(x) = \left. \frac{\partial^2 k(x, x')}{\partial x_i \, \partial x'_j}
    \right|_{x' = x}.

:func:`induced_metric` computes it in closed form for radial and dot-product
kernels (:func:`profile_derivatives`), by central differences otherwise
(:func:`metric_by_finite_differences`); :func:`volume_element` gives
:math:`\sqrt{\det g}`. :func:`metric_scalar_curvature` takes the scalar
curvature of any metric by central differences, :func:`scalar_curvature` and
:func:`polynomial_scalar_curvature` use the closed forms where there are any.

References
----------
Schölkopf et al. (1999), Sec. II-E. Burges (1999).
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
