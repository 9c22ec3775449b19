r"""Kernel dependency estimation on Gram matrices, and the pre-images of its outputs.

Notation (Weston et al. 2003; Bakır et al. 2004, Sec. 2.2): :math:`m`
training pairs :math:`(x_i, y_i)`, input Gram matrix
:math:`K_{st} = k(x_s, x_t)`, output Gram matrix :math:`L_{st} = l(y_s, y_t)`.

1. Kernel PCA of the centred :math:`HLH` gives :math:`r` axes :math:`v_j` and
   the centred coordinates :math:`P` of the training outputs (:func:`fit_kde`).
2. The map :math:`\beta = (K^\top K + \gamma I)^{-1} K^\top P` (eq. 4) or
   :math:`\beta = (K + \gamma I)^{-1} P` (:func:`kde_regression`).
3. A new :math:`x` gets the coordinates :math:`k(x, X)\,\beta`
   (:func:`predict_coordinates`), and a decoder finds the pre-image of the
   point they stand for (eq. 5): a string symbol by symbol from input windows
   (Sec. 3.2, :class:`WindowDecoder`) or from the symbols the point weighs
   most at each position (:class:`PositionDecoder`), the nearest candidate
   (:class:`CandidateDecoder`) or a pre-image method (:class:`PreimageDecoder`).

:class:`preimage.KernelDependencyEstimator` validates, keeps state and calls
these.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
