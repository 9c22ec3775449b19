"""The kernels by name, :data:`KERNELS`, imported when looked up."""

from preimage._utils.lazy import LazyRegistry

#: Kernel names understood by every estimator, and the classes they make
#: (``KERNELS["rbf"]`` is :class:`~preimage.kernels.GaussianKernel`).
KERNELS = LazyRegistry(
    __package__,
    {
        "rbf": "._radial:GaussianKernel",
        "gaussian": "._radial:GaussianKernel",
        "laplacian": "._radial:LaplacianKernel",
        "poly": "._dot:PolynomialKernel",
        "polynomial": "._dot:PolynomialKernel",
        "linear": "._dot:LinearKernel",
        "sigmoid": "._dot:SigmoidKernel",
        "sine": "._sine:SineKernel",
    },
)
