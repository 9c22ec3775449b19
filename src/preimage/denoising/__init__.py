"""Denoising through kernel PCA and a pre-image, and its tuning by cross-validation.

:class:`KernelPCADenoiser` projects noisy data onto the leading kernel PCA
axes of its training data and maps the projections back with a pre-image
method (Mika et al. (1999)); ``n_components="auto"`` chooses the count on
held-out data. :class:`KernelPCADenoiserCV` chooses the width, the count and
the method by cross-validation on training pairs.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
