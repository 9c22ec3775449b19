r"""Sparse function approximation in an RKHS (Vijayakumar and Wu 1999), on arrays.

:func:`wiener_coefficients` (batch) and :func:`wiener_update` (one sample at a
time) give the Wiener solution, :func:`sequential_svr` the sparse sequential one.

References
----------
Vijayakumar and Wu (1999), Secs. 4.2, 5 and 5.1.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
