"""Docstring text the kernels share (SciPy's ``doccer`` pattern): :func:`fill`
puts ``DOCS[name]``, the text after ``@@ name`` in ``_TEXT``, at ``%(name)s``."""

import inspect
import re

_TEXT = r"""
@@ gamma
gamma : float, default=1.0
    Inverse width, > 0.
@@ gamma_dot
gamma : float, default=1.0
    Scale of the inner product, > 0.
@@ coef0
coef0 : float, default=1.0
    The constant :math:`c_0`.
@@ degree
degree : int, default=3
    The degree :math:`p \ge 1`.
@@ check_input
check_input : bool, default=True
    Validate the arrays (finite, real, 2-D, of equal width); False trusts the caller.
@@ overflow
overflow : {"raise", "ignore"}, default="raise"
    Values beyond the float range are refused with a ValueError naming the
    arguments; ``"ignore"`` returns them as inf or NaN (a failed step).
@@ names
names : str, optional
    The arguments an overflow is blamed on (default ``'X'`` or ``'X' and 'Y'``).
@@ XY
X : array-like of shape (n_x, d)
    The first arguments, one per row.
Y : array-like of shape (n_y, d), default=None
    The second arguments, one per row; None means `X`.
@@ Z
Z : array-like of shape (m, d)
    Points at which the gradient is taken.
@@ r2
r2 : ndarray
    Squared distances :math:`r^2 = \|x - y\|^2`.
>> ndarray
    The values, of the shape and floating dtype of `r2`.
@@ t
t : ndarray
    Inner products :math:`t = \langle x, y \rangle`.
>> ndarray
    The values, of the shape and floating dtype of `t`.
@@ t_any
t : ndarray
    The arguments: inner products :math:`\langle x, y \rangle` (dot-product
    kernels) or squared distances :math:`\|x - y\|^2` (radial kernels).
>> ndarray
    The values, of the shape and floating dtype of `t`.
@@ k
k : ndarray
    Kernel values.
>> ndarray
    The input-space values, of the shape of `k`.
@@ values
values : array-like
    Kernel values :math:`k(x, y)`.
>> ndarray
    The input-space values, of the shape of `values`.
@@ ZX
Z : ndarray of shape (m, d)
    Points, validated by the caller (overflows come back as they are).
X : ndarray of shape (n, d)
    Second arguments, validated by the caller.
>> K : ndarray of shape (m, n)
    The kernel values.
D : ndarray of shape (m, n)
    The derivatives of the profile.
@@ sk_params
degree : int, default=3
    The degree of the poly kernel (scikit-learn's default).
coef0 : float, default=1.0
    The constant of the poly and sigmoid kernels (scikit-learn's default).
kernel_params : dict, default=None
    Extra keyword arguments of a callable kernel or of the kernel class (the
    sine kernel's order N is ``kernel_params={"order": N}``).
@@ n_jobs
n_jobs : int, default=None
    The parallelism of :func:`sklearn.metrics.pairwise.pairwise_kernels`.
@@ sequences
X : list of sequences
    The sequences (``(x, y)`` pairs for a joint kernel, 2-D arrays for a
    numeric base kernel).
@@ seq_diag
%(sequences)s
>> ndarray of shape (n,)
    The values :math:`k(x_i, x_i)`.
@@ vocabulary
vocabulary : dict, optional
    Feature to column index, kept fixed if given (other features are dropped,
    so that two sets share columns); by default fitted on `X`.
@@ Z_paired
Z : array of shape (m, d)
    One point :math:`z_j` per expansion.
"""
# "P\n>> R" is a method's Parameters (P) and Returns (R) sections.
_SECTIONS = r"\nParameters\n----------\n\1\n\nReturns\n-------\n\2"
DOCS = {
    k: re.sub(r"(?s)(.*)\n>> (.*)", _SECTIONS, v.rstrip("\n"))
    for k, v in re.findall(r"^@@ (\w+)\n(.*?)(?=^@@ |\Z)", _TEXT, re.M | re.S)
}
DOCS["seq_diag"] %= DOCS


def fill(obj):
    """Fill the ``%(name)s`` of `obj`'s docstring and of those its own body defines."""
    parts = vars(obj).values() if isinstance(obj, type) else ()
    for part in [obj, *(getattr(p, "fget", getattr(p, "__func__", p)) for p in parts)]:
        if (part is obj or inspect.isfunction(part)) and "%(" in (part.__doc__ or ""):
            part.__doc__ = inspect.cleandoc(part.__doc__) % DOCS + "\n"
    return obj
