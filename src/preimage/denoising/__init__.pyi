from ._cv import KernelPCADenoiserCV
from ._denoiser import KernelPCADenoiser

__all__ = [
    "KernelPCADenoiser",
    "KernelPCADenoiserCV",
]
