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
