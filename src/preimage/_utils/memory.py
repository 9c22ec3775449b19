"""The memory guard: refuse a dense matrix beyond the budget before allocating it."""

import numpy as np

from preimage._utils.config import get_config
from preimage.exceptions import MemoryBudgetError

NYSTROEM_HINT = (
    "fit on fewer samples, or use Nyström kernel PCA with n_landmarks=m (memory O(n d + m²))"
)


def format_bytes(n):
    for unit, size in (("TB", 10**12), ("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{int(n)} bytes"


def check_dense(shape, dtype, what, *, hint=NYSTROEM_HINT, copies=1):
    """The bytes `copies` dense arrays of `shape` and `dtype` need; a MemoryBudgetError
    naming `what` (``"the n x n Gram matrix"``) with the `hint` if beyond the budget."""
    need = copies * int(np.prod(shape, dtype=np.float64)) * np.dtype(dtype).itemsize
    budget = get_config()["memory_budget"]
    if need > budget:
        raise MemoryBudgetError(
            f"{what} would need {format_bytes(need)}, over the memory budget of "
            f"{format_bytes(budget)}; {hint}. The budget is "
            "preimage.set_config(memory_budget=...) or the environment variable "
            "PREIMAGE_MEMORY_BUDGET."
        )
    return need
