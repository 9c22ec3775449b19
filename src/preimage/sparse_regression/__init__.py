r"""Sparse function approximation in an RKHS (Vijayakumar & Wu 1999), on arrays.

Notation: training inputs :math:`x_1, \dots, x_M` with targets :math:`y`, the
Gram matrix :math:`K_{ij} = K(x_i, x_j)` of the reproducing kernel of the search
space :math:`H`, and :math:`\psi_i = K(\cdot, x_i)`.

- :func:`wiener_coefficients`: the batch Wiener solution in
  :math:`H = \mathcal{R}(R)`, the range of the correlation operator (their
  Theorem 1 with eq. 17), :math:`f_0 = \sum_i a_i K(\cdot, x_i)` with
  :math:`a = K^+ y`, the orthogonal projection of :math:`f` onto
  :math:`\operatorname{span}\{\psi_i\}` (for inconsistent data: the
  minimum-norm least-squares fit).
- :func:`wiener_update`: one exact incremental step (their Theorem 2), so that
  adding samples one at a time reproduces the batch coefficients; the solution
  so far is a :class:`WienerState`.
- :func:`sequential_svr`: their Fig. 2, Gauss-Seidel coordinate descent on the
  :math:`\varepsilon`-insensitive dual (eq. 19) with the augmented kernel
  :math:`R = K + \lambda^2`, which gives a sparse
  :math:`f = \sum_i (\alpha^*_i - \alpha_i)(K(x_i, \cdot) + \lambda^2)`
  (eq. 22); :func:`dual_objective` evaluates that dual and
  :func:`learning_rates` keeps the rates inside the bound of their Sec. 5.1.

The functions take kernel values (Gram matrices, their rows and diagonals);
:func:`sequential_svr` and :func:`wiener_update` return an instance of a small
class (:class:`SequentialSVRResult`, :class:`WienerState`). The estimators
:class:`preimage.WienerRegressor` and :class:`preimage.SequentialSVR` are thin
shells over them.

References
----------
S. Vijayakumar, S. Wu. A gradient based technique for generating sparse
representation in function approximation. ICONIP 1999 (Sec. 4.2: the batch and
incremental Wiener solutions; Sec. 5 and 5.1: the sparse representation and its
sequential algorithm).
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
