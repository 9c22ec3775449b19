r"""Kernels that know what pre-image methods need.

Each kernel gives its Gram block, its diagonal, its gradient and, where it
exists, the map from kernel values back to input-space distances or inner
products. Kernels on vectors share :class:`~preimage.kernels.Kernel`, kernels on
sequences :class:`~preimage.kernels.SequenceKernel`; :data:`KERNELS` names them.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
