from ._base import Kernel as Kernel
from ._dot import (
    DotProductKernel as DotProductKernel,
    LinearKernel as LinearKernel,
    PolynomialKernel as PolynomialKernel,
    SigmoidKernel as SigmoidKernel,
)
from ._names import KERNELS as KERNELS
from ._pairwise import squared_distances as squared_distances
from ._radial import (
    GaussianKernel as GaussianKernel,
    LaplacianKernel as LaplacianKernel,
    RadialKernel as RadialKernel,
)
from ._resolve import (
    SKLEARN_KERNELS as SKLEARN_KERNELS,
    CallableKernel as CallableKernel,
    PairwiseKernel as PairwiseKernel,
    default_gamma as default_gamma,
    make_kernel as make_kernel,
    make_sklearn_kernel as make_sklearn_kernel,
)
from ._sequence import (
    CallableSequenceKernel as CallableSequenceKernel,
    SequenceKernel as SequenceKernel,
)
from ._sine import SineKernel as SineKernel
from ._string import (
    JointSpectrumKernel as JointSpectrumKernel,
    KernelDistanceRBF as KernelDistanceRBF,
    NormalizedKernel as NormalizedKernel,
    SpectrumKernel as SpectrumKernel,
    WeightedDegreeKernel as WeightedDegreeKernel,
    normalize_gram as normalize_gram,
)
