r"""Feature-space geometry: the metric and curvature a kernel induces on input space.

The feature map :math:`\phi` embeds input space as a surface in feature space
(Schölkopf et al. 1999, Sec. II-E, after Burges 1999). Its Riemannian metric
is written in the kernel alone,

.. math::

    g_{ij}(x) = \left. \frac{\partial^2 k(x, x')}{\partial x_i \, \partial x'_j}
    \right|_{x' = x}.

:func:`induced_metric` computes it in closed form for radial kernels and for the
class of dot-product kernels (:func:`profile_derivatives`), and by central
differences of the kernel's gradient otherwise
(:func:`metric_by_finite_differences`); :func:`volume_element` gives
:math:`\sqrt{\det g}`. The scalar curvature follows from the metric's
derivatives: :func:`metric_scalar_curvature` takes the Christoffel symbols and
the Riemann tensor of any metric by central differences,
:func:`scalar_curvature` uses the closed forms where there are any, among them
the paper's polynomial kernels (:func:`polynomial_scalar_curvature`).

References
----------
B. Schölkopf, S. Mika, C. J. C. Burges, P. Knirsch, K.-R. Müller, G. Rätsch
and A. J. Smola, "Input space versus feature space in kernel-based methods",
IEEE Trans. Neural Networks 10(5), 1999, Sec. II-E.

C. J. C. Burges, "Geometry and invariance in kernel based methods", in
Advances in Kernel Methods: Support Vector Learning, MIT Press, 1999.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
