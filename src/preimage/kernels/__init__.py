r"""Kernels that know what pre-image methods need.

Each kernel gives its Gram block, its diagonal, its gradient in the input and,
where it exists, the map from kernel values back to input-space distances
(radial kernels, :math:`k(x, y) = f(\|x - y\|^2)`) or inner products
(dot-product kernels, :math:`k(x, y) = f(\langle x, y \rangle)`). The kernels
on numeric vectors share the protocol of one base
class :class:`~preimage.kernels.Kernel`; the kernels on strings and other
sequences that of :class:`~preimage.kernels.SequenceKernel`.

The names are imported at their first use (:mod:`preimage._lazy`);
:data:`KERNELS` lists the kernels by name without importing them.
"""

from .._lazy import lazy_exports

# For static type checkers (any TYPE_CHECKING is true to them); at run time
# lazy_exports reads these imports and makes each at the name's first use.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._base import Kernel
    from ._dot import DotProductKernel, LinearKernel, PolynomialKernel, SigmoidKernel
    from ._names import KERNELS
    from ._pairwise import squared_distances
    from ._radial import GaussianKernel, LaplacianKernel, RadialKernel
    from ._resolve import (
        SKLEARN_KERNELS,
        CallableKernel,
        PairwiseKernel,
        default_gamma,
        make_kernel,
        make_sklearn_kernel,
    )
    from ._sequence import CallableSequenceKernel, SequenceKernel
    from ._sine import SineKernel
    from ._string import (
        JointSpectrumKernel,
        KernelDistanceRBF,
        NormalizedKernel,
        SpectrumKernel,
        normalize_gram,
    )

__getattr__, __dir__ = lazy_exports(__name__, __file__)

__all__ = [
    "KERNELS",
    "CallableKernel",
    "CallableSequenceKernel",
    "DotProductKernel",
    "GaussianKernel",
    "JointSpectrumKernel",
    "KernelDistanceRBF",
    "Kernel",
    "LaplacianKernel",
    "LinearKernel",
    "NormalizedKernel",
    "PairwiseKernel",
    "PolynomialKernel",
    "RadialKernel",
    "SKLEARN_KERNELS",
    "SigmoidKernel",
    "SequenceKernel",
    "SineKernel",
    "SpectrumKernel",
    "default_gamma",
    "make_kernel",
    "make_sklearn_kernel",
    "normalize_gram",
    "squared_distances",
]
