r"""Kernels that know what pre-image methods need.

Each kernel gives its Gram block, its diagonal, its gradient in the input and,
where it exists, the map from kernel values back to input-space distances
(radial kernels, :math:`k(x, y) = f(\|x - y\|^2)`) or inner products
(dot-product kernels, :math:`k(x, y) = f(\langle x, y \rangle)`). The kernels
on numeric vectors share the protocol of one base
class :class:`~preimage.kernels.Kernel`; the kernels on strings and other
sequences that of :class:`~preimage.kernels.SequenceKernel`.

The names are imported at their first use (:mod:`preimage._utils.lazy`);
:data:`KERNELS` lists the kernels by name without importing them.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
