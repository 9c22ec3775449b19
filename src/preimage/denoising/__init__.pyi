from ._cv import KernelPCADenoiserCV as KernelPCADenoiserCV
from ._denoiser import KernelPCADenoiser as KernelPCADenoiser
