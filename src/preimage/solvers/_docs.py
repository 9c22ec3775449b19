"""Docstring sections the pre-image methods share, written once.

:func:`fill_doc` replaces each line ``%(key)s`` of a docstring by the section
``@key`` of the text below, indented as that line (SciPy's ``doccer`` pattern).
"""

import re
import textwrap

_TEXT = r"""
@expansion
expansion : FeatureExpansion
    The m expansions :math:`\Psi_j`.
@x0
x0 : array of shape (m, d) or (d,), optional
    Starting points; default the support point nearest each :math:`\Psi_j`.
@x0_unused
x0 : array of shape (m, d) or (d,), optional
    Not used (the common signature of the methods).
@result
PreimageResult
    The pre-images :math:`x_j` with their residuals :math:`\|\Psi_j - \phi(x_j)\|^2`.
@fitted
X_fit_ : ndarray of shape (n, d)
    The support points given to :meth:`fit`.
kernel_ : Kernel
    The kernel given to :meth:`fit`.
bounds_ : tuple of two ndarrays of shape (d,) or None
    The box `bounds` stands for, resolved by :meth:`fit`.
@random_state
random_state : None, int or Generator
    Draws the random (re)starts.
@fixed_point
max_iter : int, default=300
    Iterations per start.
tol : float, default=1e-7
    Stop when :math:`\|z_{t+1} - z_t\| \le \mathrm{tol} \cdot \max(s, \|z_t\|)`,
    :math:`s` the largest norm of a support point (the data's scale).
alpha : float, default=0
    The weight :math:`\lambda \ge 0` of the input-space penalty
    :math:`\lambda \|z - a\|^2`, which keeps pre-images near `anchor`.
anchor : array of shape (m, d), optional
    The point :math:`a` of the penalty; defaults to the starting points.
max_restarts : int, default=5
    Restarts per expansion when the denominator vanishes: from the nearest,
    then from random support points.
@fixed_point_refs
Mika et al. (1999), Sec. 3, eq. 10 (the Gaussian fixed point).
Kwok and Tsang (2004) (the polynomial fixed point).
Abrahamsen and Hansen (2011) (the input-space penalty).
@gradient
n_starts : int, default=1
    Starts per expansion: the given start (or the nearest support point), the
    next nearest, then random support points; the best end point is kept.
max_iter : int, default=200
    L-BFGS-B iterations per start.
tol : float, default=1e-9
    L-BFGS-B's ``ftol`` (relative decrease of :math:`\rho`).
@bounds
bounds : None, "data" or (low, high), default=None
    A box the pre-images are kept in: ``"data"`` is the range of the support
    points per feature; ``(low, high)`` are numbers or arrays of shape (d,)
    (e.g. ``(0, 1)`` for pixels). The fixed point projects every iterate onto
    it (a projected fixed point, this library's own), gradient descent keeps
    each coordinate in it (L-BFGS-B's bounds), MDS, the closed form and the
    learned map clip their output, and the exact pre-image refuses an
    expansion whose pre-image lies outside it. Zheng, Lai and Yuen (2010)
    keep pre-images in the data's range by convex combination weights.
@residual
For any differentiable kernel, L-BFGS-B minimises

.. math:: \rho(z) = \|\Psi - \phi(z)\|^2 = \|\Psi\|^2 - 2 \sum_i \gamma_i k(z, x_i) + k(z, z)
@gradient_refs
Mika et al. (1999), eq. 7, minimised by gradient descent in Sec. 3.
Bakır et al. (2004), Sec. 3 and 4 ("kPCA + gradient descent").
@rtol
rtol : float, default=1e-6
    The largest relative residual :math:`\|\Psi_j - \phi(z_j)\|^2 / \|\Psi_j\|^2`
    of an exact pre-image.
@exact_math
For :math:`k(x, y) = f(\langle x, y \rangle)` with f invertible, if
:math:`\Psi = \phi(z)` then :math:`\langle \Psi, \phi(e_j) \rangle = f(z_j)` over
the canonical basis :math:`e_j`, so

.. math:: z = \sum_{j=1}^d f^{-1}\Big(\sum_{i=1}^n \gamma_i\, k(x_i, e_j)\Big)\, e_j.
@two_points
>>> from preimage import FeatureExpansion
>>> from preimage.kernels import GaussianKernel
>>> X = np.array([[0.0], [1.0]])
@exact_refs
Schölkopf et al. (1999), Sec. IV, Prop. 3.
Bakır et al. (2004), Sec. 3 ("Exact pre-images").
"""


def sections(text):
    """The sections of `text`, each a line ``@key`` and the text below it, by key."""
    parts = re.split(r"^@(\w+)\n", text, flags=re.MULTILINE)
    return {key: part.strip("\n") for key, part in zip(parts[1::2], parts[2::2])}


DOCS = sections(_TEXT)
_SLOT = re.compile(r"^( *)%\((\w+)\)s$", re.MULTILINE)


def fill_doc(obj, docs=DOCS):
    """`obj` with the slots ``%(key)s`` of its docstring filled from `docs`
    (:data:`DOCS`; kernel PCA's estimators pass their own)."""
    if obj.__doc__:
        obj.__doc__ = _SLOT.sub(lambda m: textwrap.indent(docs[m[2]], m[1]), obj.__doc__)
    return obj
