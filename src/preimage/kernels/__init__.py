"""Kernels that know what pre-image methods need.

Each kernel gives its Gram block, its diagonal, its gradient in the input and,
where it exists, the map from kernel values back to input-space distances
(radial kernels) or inner products (dot-product kernels).
"""

from ._base import DotProductKernel, Kernel, RadialKernel
from ._dot import LinearKernel, PolynomialKernel, SigmoidKernel
from ._pairwise import squared_distances
from ._radial import GaussianKernel, LaplacianKernel
from ._resolve import (KERNELS, SKLEARN_KERNELS, CallableKernel, PairwiseKernel, default_gamma,
                       make_kernel, make_sklearn_kernel)
from ._sequence import CallableSequenceKernel, SequenceKernel
from ._sine import SineKernel
from ._string import (
    JointSpectrumKernel,
    KernelDistanceRBF,
    NormalizedKernel,
    SpectrumKernel,
    normalize_gram,
)

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
