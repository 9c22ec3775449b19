r"""Sparse function approximation in an RKHS (Vijayakumar and Wu 1999), on arrays.

Training inputs :math:`x_1, \dots, x_M` with targets :math:`y`, the Gram matrix
:math:`K_{ij} = K(x_i, x_j)` of the reproducing kernel of the search space
:math:`H`, and :math:`\psi_i = K(\cdot, x_i)`:

- :func:`wiener_coefficients`: the batch Wiener solution
  :math:`f_0 = \sum_i a_i K(\cdot, x_i)`, :math:`a = K^+ y` (Theorem 1, eq. 17);
  :func:`wiener_update` adds one sample exactly (Theorem 2) to a
  :class:`WienerState`;
- :func:`sequential_svr`: Gauss-Seidel descent on the
  :math:`\varepsilon`-insensitive dual (eq. 19) with :math:`R = K + \lambda^2`
  (Fig. 2), a sparse :math:`f = \sum_i (\alpha^*_i - \alpha_i)(K(x_i, \cdot) + \lambda^2)`
  (eq. 22), with :func:`dual_objective` and :func:`learning_rates`.

References
----------
Vijayakumar and Wu (1999), Secs. 4.2, 5 and 5.1.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
