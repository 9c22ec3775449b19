"""The contract every public function and estimator keeps, for property tests.

For any input, a call either returns finite values of the documented shape, or
raises ValueError or TypeError whose message names an argument in quotes
(``'X'``, ``'n_components'``, ...). Numerical trouble is a NumericalWarning;
a bare RuntimeWarning from NumPy (overflow, division by zero, invalid value)
fails the contract, since it means a NaN or inf was made silently.

Hypothesis profiles (``--hypothesis-profile``): ``default`` keeps the suite
fast; ``long`` runs many more examples per property. The number of cases
generated is reported at the end of the run.
"""

import re
import warnings

from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
import numpy as np

from preimage.exceptions import NumericalWarning

__all__ = ["CASES", "check_contract", "data_arrays", "names_an_argument"]

#: Cases checked in this run, by outcome (reported by conftest).
CASES = {"finite output": 0, "named error": 0}

_ARGUMENT = re.compile(r"'[A-Za-z_][A-Za-z0-9_]*'")


def names_an_argument(message):
    return _ARGUMENT.search(str(message)) is not None


def _all_finite(value):
    if isinstance(value, (tuple, list)):
        return all(_all_finite(v) for v in value)
    array = np.asarray(value)
    if array.dtype.kind not in "biufc":
        return True
    return bool(np.all(np.isfinite(array)))


def check_contract(call, shape=None):
    """Run ``call()`` under the contract; return its output, or None after a
    named ValueError/TypeError.

    `shape`: the documented shape of the output (a tuple, or a callable
    given the output that asserts what it must).
    """
    with warnings.catch_warnings():
        # NumPy's warnings inside the library are attributed to its modules;
        # those inside scikit-learn's own checks are not the library's to fix.
        warnings.filterwarnings("error", category=RuntimeWarning, module="preimage")
        warnings.simplefilter("ignore", NumericalWarning)
        try:
            out = call()
        except (ValueError, TypeError) as exc:
            assert names_an_argument(exc), f"{type(exc).__name__} names no argument: {exc}"
            CASES["named error"] += 1
            return None
    assert _all_finite(out), f"non-finite output without an error: {out!r}"
    if callable(shape):
        shape(out)
    elif shape is not None:
        assert np.shape(out) == tuple(shape), f"shape {np.shape(out)}, expected {shape}"
    CASES["finite output"] += 1
    return out


_SPECIAL = [0.0, -0.0, 1.0, -1.0, 1e-300, -1e-300, 1e300, -1e300, 1e150, np.nan, np.inf, -np.inf]


@st.composite
def data_arrays(
    draw,
    *,
    min_rows=0,
    max_rows=8,
    min_cols=0,
    max_cols=4,
    dtypes=None,
    finite=False,
    adversarial=True,
):
    """2-D data of random shape and dtype: ordinary values mixed with
    adversarial ones (NaN, inf, huge and tiny magnitudes, signed zeros),
    duplicated rows and constant columns. `finite` keeps NaN and inf out
    (huge values stay)."""
    n = draw(st.integers(min_rows, max_rows))
    d = draw(st.integers(min_cols, max_cols))
    dtype = draw(st.sampled_from(dtypes or ["float64", "float32", "int64", "bool"]))
    special = [v for v in _SPECIAL if not finite or np.isfinite(v)] if adversarial else [0.0]
    if dtype in ("float64", "float32"):
        limit = 1e6
        values = st.one_of(
            st.floats(-limit, limit, allow_nan=False, width=32), st.sampled_from(special)
        )
        with np.errstate(over="ignore"):
            X = draw(hnp.arrays(np.float64, (n, d), elements=values)).astype(dtype)
    elif dtype == "int64":
        X = draw(hnp.arrays(np.int64, (n, d), elements=st.integers(-1000, 1000)))
    elif dtype == "bool":
        X = draw(hnp.arrays(np.bool_, (n, d)))
    else:
        X = np.empty((n, d), dtype=object)
        X[...] = "a"
    if n > 1 and d > 0 and draw(st.booleans()):
        X[draw(st.integers(1, n - 1))] = X[0]  # a duplicated row
    if n > 0 and d > 1 and draw(st.booleans()):
        X[:, draw(st.integers(0, d - 1))] = X[0, 0]  # a constant column
    return X
