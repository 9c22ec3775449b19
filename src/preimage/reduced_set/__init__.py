"""Reduced sets: approximate kernel expansions by fewer vectors (Schölkopf et
al. 1999, Sec. V) — selection among the expansion's own points, and
construction of new ones as pre-images."""

from ._coefficients import approximation_error, optimal_coefficients
from ._construction import construct
from ._dispatch import METHODS, reduce_expansion
from ._result import ReducedSet
from ._selection import select_kpca, select_l1

__all__ = [
    "METHODS",
    "ReducedSet",
    "approximation_error",
    "construct",
    "optimal_coefficients",
    "reduce_expansion",
    "select_kpca",
    "select_l1",
]
