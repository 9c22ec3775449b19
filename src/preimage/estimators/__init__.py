"""scikit-learn estimators: thin shells over the functions of the package."""

from ._denoiser import KernelPCADenoiser
from ._kernel_pca import KernelPCA

__all__ = ["KernelPCA", "KernelPCADenoiser"]
