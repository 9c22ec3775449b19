"""Parameter text shared by the generators' docstrings (SciPy's ``doccer`` pattern):
a line ``%(name)s`` of a docstring decorated by :func:`fill_doc` becomes the entry
`name`, indented as the line."""

import functools

from preimage.solvers._docs import fill_doc as fill_solver_doc, sections

SNIPPETS = sections(
    """
@random_state
random_state : None, int or numpy.random.Generator, default=None
    Source of randomness; the same seed gives bit-identical output.
@curve_returns
X : ndarray of shape (n_samples, 2)
    The noisy points, float64.
X_clean : ndarray of shape (n_samples, 2)
    The noiseless points on the curve that `X` was generated from.
@clean_X
X : array-like of shape (n_samples, n_features)
    Clean data, finite. Not modified.
@noisy_returns
ndarray of shape (n_samples, n_features)
    The corrupted data, float64 (float32 if `X` is float32).
"""
)

#: `func` with each docstring line ``%(name)s`` replaced by ``SNIPPETS[name]``.
fill_doc = functools.partial(fill_solver_doc, docs=SNIPPETS)
