"""Parameter text shared by the generators' docstrings (SciPy's ``doccer`` pattern).

A docstring line ``{{name}}`` is replaced by the snippet ``name``, indented as
the line is.
"""

import re
import textwrap

SNIPPETS = {
    "random_state": """\
random_state : None, int or numpy.random.Generator, default=None
    Source of randomness; the same seed gives bit-identical output.""",
    "curve_returns": """\
X : ndarray of shape (n_samples, 2)
    The noisy points, float64.
X_clean : ndarray of shape (n_samples, 2)
    The noiseless points on the curve that `X` was generated from.""",
    "clean_X": """\
X : array-like of shape (n_samples, n_features)
    Clean data, finite. Not modified.""",
    "noisy_returns": """\
ndarray of shape (n_samples, n_features)
    The corrupted data, float64 (float32 if `X` is float32).""",
}


def fill_doc(func):
    """`func` with each ``{{name}}`` line of its docstring replaced by a snippet."""
    func.__doc__ = re.sub(
        r"^( *)\{\{(\w+)\}\}$",
        lambda m: textwrap.indent(SNIPPETS[m[2]], m[1]),
        func.__doc__,
        flags=re.M,
    )
    return func
