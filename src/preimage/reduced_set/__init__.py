r"""Reduced sets: approximate kernel expansions by fewer vectors.

An expansion :math:`\Psi = \sum_{i=1}^n \alpha_i \phi(x_i)`, such as the
weight vector of a kernel SVM or a kernel PCA axis, costs n kernel values at
every point it is evaluated. A reduced set replaces it by
:math:`\Psi' = \sum_{j=1}^p \beta_j \phi(z_j)` with :math:`p \ll n`,
minimising :math:`\|\Psi - \Psi'\|^2` (Schölkopf et al. 1999, Sec. V; Burges
1996): by selection among the expansion's own points, or by construction of
new ones as pre-images.

Beside the methods (:data:`REDUCED_SET_METHODS`, :func:`reduce_expansion`)
sit readers of trained models (:func:`svm_expansion`,
:func:`kernel_pca_expansion`) and the estimators :class:`ReducedSVC`,
:class:`ReducedSVR` and :class:`ReducedKernelPCA`.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
