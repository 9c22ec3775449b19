r"""Kernel PCA: the fit on a Gram matrix, Nyström kernel PCA over landmarks, and the estimator.

:func:`fit_kernel_pca` centres a Gram matrix in feature space and keeps its
leading eigenpairs as a :class:`KernelPCAResult`, whose axes and projections
are expansions :math:`\sum_i \alpha_i \phi(x_i)` (:func:`coordinates_expansion`);
:func:`fit_nystroem_kpca` does the same over :math:`m` landmarks, streaming
over the training data; :class:`KernelPCA` is scikit-learn's estimator on top
of both, with every pre-image method behind ``inverse_transform``.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
