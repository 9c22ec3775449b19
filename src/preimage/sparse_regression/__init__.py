"""Sparse function approximation in an RKHS (Vijayakumar & Wu 1999), on arrays.

Notation: training inputs x_1..x_M with targets y, Gram matrix
``K_ij = K(x_i, x_j)`` of the reproducing kernel of the search space H,
``ψ_i = K(·, x_i)``.

* :func:`wiener_coefficients` — the batch Wiener solution in ``H = R(R)``
  (their Theorem 1 with eq. 17): ``f₀ = Σ_i a_i K(·, x_i)``, ``a = K⁺y``, the
  orthogonal projection of f onto ``span{ψ_i}`` (for inconsistent data: the
  minimum-norm least-squares fit).
* :func:`wiener_update` — one exact incremental step (their Theorem 2), so
  that adding samples one at a time reproduces the batch coefficients.
* :func:`sequential_svr` — their Fig. 2: Gauss–Seidel ascent on the
  ε-insensitive dual (eq. 19) with the augmented kernel ``R = K + λ²``, which
  gives a sparse ``f = Σ_i (α*_i − α_i)(K(x_i, ·) + λ²)``.

The Wiener solution and its incremental state live in ``_wiener``, the
sequential algorithm and its result in ``_sequential``;
:class:`~preimage.WienerRegressor` and :class:`~preimage.SequentialSVR` are
the estimators over them.
"""

from .._lazy import lazy_exports

# For static type checkers (any TYPE_CHECKING is true to them); at run time
# lazy_exports reads these imports and makes each at the name's first use.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._sequential import (
        DEFAULT_RATE_FRACTION,
        SequentialSVRResult,
        dual_objective,
        learning_rates,
        sequential_svr,
    )
    from ._wiener import DEFAULT_RTOL, WienerState, wiener_coefficients, wiener_update

__getattr__, __dir__ = lazy_exports(__name__, __file__)

__all__ = [
    "DEFAULT_RATE_FRACTION",
    "DEFAULT_RTOL",
    "SequentialSVRResult",
    "WienerState",
    "dual_objective",
    "learning_rates",
    "sequential_svr",
    "wiener_coefficients",
    "wiener_update",
]
