r"""Kernel dependency estimation (KDE) on Gram matrices, and the pre-images of its outputs.

Functions on Gram matrices, the string pieces of KDE's learned pre-images,
and the decoders that turn estimated output coordinates back into outputs.

Notation (Weston et al. 2003; Bakır, Weston & Schölkopf 2004, Sec. 2.2):
:math:`m` training pairs :math:`(x_i, y_i)`, input Gram matrix
:math:`K_{st} = k(x_s, x_t)`, output Gram matrix :math:`L_{st} = l(y_s, y_t)`.

1. *Decomposition of the outputs*: kernel PCA of the centred output Gram
   matrix :math:`HLH` gives :math:`r` principal axes :math:`v_j` and the
   centred coordinates :math:`P` of the training outputs (:func:`fit_kde`).
2. *Learning the map*:
   :math:`\beta = (K^\top K + \gamma I)^{-1} K^\top P` (paper, eq. 4) or
   kernel ridge regression :math:`\beta = (K + \gamma I)^{-1} P`
   (:func:`kde_regression`), with :math:`\gamma` = ``alpha``.
3. *Testing*: the estimated coordinates of a new :math:`x` are
   :math:`k(x, X)\,\beta` (:func:`predict_coordinates`), and the output is a
   pre-image of the point they stand for (eq. 5), found by a decoder: a
   string decoded symbol by symbol from input windows (Sec. 3.2;
   :func:`window_features`, :func:`string_preimage_features`), the candidate
   whose coordinates are nearest, or any pre-image method on the expansion
   :math:`\sum_j \hat{p}_j v_j + \mu` over the training outputs.

:func:`data_kind` says what the data are (numeric vectors or sequences) and
:func:`resolve_kernel` which kernel applies to them; :class:`OutputSpace`
holds the training pairs in the output feature space.
:class:`preimage.KernelDependencyEstimator` validates, keeps state and calls
these.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
