"""Noisy curves in the plane: the toy curves of Mika et al. (1999), Fig. 1,
and the four 2-D sets of Honeine & Richard (2011), Table 2.

Every generator takes ``n_samples``, a noise level ``noise`` and
``random_state`` (None, an int or a :class:`numpy.random.Generator`), draws all
of its randomness from ``random_state``, so the same seed gives bit-identical
output, and returns float64 arrays ``(X, X_clean)``: the noisy points and the
noiseless points on the curve they were generated from, so that a denoising
error such as ``np.linalg.norm(X_denoised - X_clean, axis=1).mean()`` can be
measured.
"""

import numpy as np

from preimage._utils.typing import RandomStateLike
from preimage._utils.validation import check_positive_int, check_random_state
from preimage.datasets._checks import check_output_size, check_scale

__all__ = [
    "HONEINE_RICHARD_TABLE2",
    "make_banana",
    "make_frame",
    "make_half_circle",
    "make_sine",
    "make_spiral",
    "make_square",
]

#: Settings of Honeine & Richard (2011), Table 2, for the four 2-D toy sets.
#: ``n_train`` training points, ``n_preimage`` points whose pre-images are
#: computed, ``noise`` the noise level nu, ``n_components`` the number of
#: kernel-PCA eigenvectors kept (the table's n_eigen) and ``sigma`` the width of
#: the Gaussian kernel ``exp(-||x - y||^2 / (2 sigma^2))``.
HONEINE_RICHARD_TABLE2 = {
    "frame": dict(n_train=350, n_preimage=850, noise=0.1, n_components=5, sigma=0.4),
    "banana": dict(n_train=300, n_preimage=200, noise=0.2, n_components=3, sigma=0.5),
    "spiral": dict(n_train=70, n_preimage=250, noise=0.3, n_components=10, sigma=0.3),
    "sine": dict(n_train=420, n_preimage=330, noise=0.5, n_components=10, sigma=0.4),
}


def _curve_arguments(n_samples, noise, random_state):
    """The checked arguments of every curve generator: ``(n_samples, noise, rng)``,
    after refusing an output beyond the memory budget."""
    n_samples = check_positive_int(n_samples, "n_samples")
    noise = check_scale(noise, "noise")
    rng = check_random_state(random_state)
    check_output_size((n_samples, 2), np.float64, "'n_samples'")
    return n_samples, noise, rng


# ---------------------------------------------------------------------------
# Curves in the plane (Mika et al. 1999, Fig. 1)
# ---------------------------------------------------------------------------


def _square_boundary(rng, n_samples):
    """Points uniform along the perimeter of [-1, 1]^2, and their outward normals.

    The perimeter (length 8) is cut into the bottom, right, top and left sides;
    a point on side k is ``normal_k + u * tangent_k`` with u uniform in
    [-1, 1), so its fixed coordinate is exactly +-1.
    """
    normals = np.array([[0.0, -1.0], [1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]])
    tangents = np.column_stack([-normals[:, 1], normals[:, 0]])  # counter-clockwise
    s = rng.uniform(0.0, 8.0, size=n_samples)
    side = np.minimum(np.floor(s / 2.0).astype(np.intp), 3)
    u = s - 2.0 * side - 1.0
    normal = normals[side]
    return normal + u[:, None] * tangents[side], normal


def make_half_circle(
    n_samples: int = 100, *, noise: float = 0.05, random_state: RandomStateLike = None
) -> tuple[np.ndarray, np.ndarray]:
    """Generate noisy points on the upper half of the unit circle.

    Parameters
    ----------
    n_samples : int, default=100
        Number of points.
    noise : float, default=0.05
        Standard deviation of the isotropic Gaussian noise.
    random_state : None, int or numpy.random.Generator, default=None
        Source of randomness; the same seed gives identical output.

    Returns
    -------
    X : ndarray of shape (n_samples, 2)
        The noisy points, float64.
    X_clean : ndarray of shape (n_samples, 2)
        The noiseless points on the half circle that `X` was generated from.

    Notes
    -----
    .. math:: x = (\\cos t, \\sin t) + \\sigma \\varepsilon, \\qquad
              t \\sim U[0, \\pi],\\ \\varepsilon \\sim \\mathcal{N}(0, I_2).

    One of the toy curves of Mika et al. (1999), Fig. 1. The paper gives no
    number of points and no noise level; the defaults here were chosen to
    resemble the figure.

    References
    ----------
    S. Mika, B. Schölkopf, A. Smola, K.-R. Müller, M. Scholz and G. Rätsch,
    "Kernel PCA and de-noising in feature spaces", Advances in Neural
    Information Processing Systems 11, 1999.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.datasets import make_half_circle
    >>> X, X_clean = make_half_circle(random_state=0)
    >>> X.shape
    (100, 2)
    >>> bool(np.allclose(np.hypot(X_clean[:, 0], X_clean[:, 1]), 1.0))
    True
    """
    n_samples, noise, rng = _curve_arguments(n_samples, noise, random_state)

    t = rng.uniform(0.0, np.pi, size=n_samples)
    X_clean = np.column_stack([np.cos(t), np.sin(t)])
    X = X_clean + noise * rng.standard_normal((n_samples, 2))
    return X, X_clean


def make_square(
    n_samples: int = 100, *, noise: float = 0.05, random_state: RandomStateLike = None
) -> tuple[np.ndarray, np.ndarray]:
    """Generate noisy points on the boundary of the square ``[-1, 1]^2``.

    Parameters
    ----------
    n_samples : int, default=100
        Number of points.
    noise : float, default=0.05
        Standard deviation of the isotropic Gaussian noise.
    random_state : None, int or numpy.random.Generator, default=None
        Source of randomness; the same seed gives identical output.

    Returns
    -------
    X : ndarray of shape (n_samples, 2)
        The noisy points, float64.
    X_clean : ndarray of shape (n_samples, 2)
        The noiseless points on the square that `X` was generated from; each
        has ``max(|x|, |y|) == 1`` exactly.

    Notes
    -----
    With :math:`p(s)` the point at arc length :math:`s` along the perimeter
    (length 8) of :math:`[-1, 1]^2`,

    .. math:: x = p(s) + \\sigma \\varepsilon, \\qquad
              s \\sim U[0, 8),\\ \\varepsilon \\sim \\mathcal{N}(0, I_2).

    One of the toy curves of Mika et al. (1999), Fig. 1. The paper gives no
    number of points and no noise level; the defaults here were chosen to
    resemble the figure. See :func:`make_frame` for the variant of Honeine &
    Richard (2011) with uniform noise normal to the sides.

    References
    ----------
    S. Mika, B. Schölkopf, A. Smola, K.-R. Müller, M. Scholz and G. Rätsch,
    "Kernel PCA and de-noising in feature spaces", Advances in Neural
    Information Processing Systems 11, 1999.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.datasets import make_square
    >>> X, X_clean = make_square(random_state=0)
    >>> X.shape
    (100, 2)
    >>> bool((np.abs(X_clean).max(axis=1) == 1.0).all())
    True
    """
    n_samples, noise, rng = _curve_arguments(n_samples, noise, random_state)

    X_clean, _ = _square_boundary(rng, n_samples)
    X = X_clean + noise * rng.standard_normal((n_samples, 2))
    return X, X_clean


# ---------------------------------------------------------------------------
# Honeine & Richard (2011), Table 2
# ---------------------------------------------------------------------------


def make_frame(
    n_samples: int = 350, *, noise: float = 0.1, random_state: RandomStateLike = None
) -> tuple[np.ndarray, np.ndarray]:
    """Generate the "frame" data set: a square with noise normal to its sides.

    Parameters
    ----------
    n_samples : int, default=350
        Number of points (the paper's n_train).
    noise : float, default=0.1
        Half-width nu of the uniform noise normal to the sides.
    random_state : None, int or numpy.random.Generator, default=None
        Source of randomness; the same seed gives identical output.

    Returns
    -------
    X : ndarray of shape (n_samples, 2)
        The noisy points, float64.
    X_clean : ndarray of shape (n_samples, 2)
        The noiseless points on the square that `X` was generated from; each
        has ``max(|x|, |y|) == 1`` exactly, and ``X - X_clean`` is along the
        normal of the side, of length at most `noise`.

    Notes
    -----
    "A square with sides of length 2 [centred at the origin]. Data are
    generated uniformly randomly on each side and corrupted by a noise
    uniformly distributed on the interval [-nu, nu] normal to the side."
    With :math:`p(s)` the point at arc length :math:`s` along the perimeter and
    :math:`n(s)` the outward normal of its side,

    .. math:: x = p(s) + \\xi\\, n(s), \\qquad
              s \\sim U[0, 8),\\ \\xi \\sim U[-\\nu, \\nu].

    Placing points uniformly along the whole perimeter puts, on average, the
    same number on each side.

    Honeine & Richard (2011), Table 2: n_train = 350, n_preimage = 850,
    nu = 0.1; see :data:`HONEINE_RICHARD_TABLE2` for the kernel settings.

    References
    ----------
    P. Honeine and C. Richard, "Preimage problem in kernel-based machine
    learning", IEEE Signal Processing Magazine 28(2), 77-88, 2011.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.datasets import make_frame
    >>> X, X_clean = make_frame(random_state=0)
    >>> X.shape
    (350, 2)
    >>> bool(np.abs(X - X_clean).max() <= 0.1)
    True
    """
    n_samples, noise, rng = _curve_arguments(n_samples, noise, random_state)

    X_clean, normal = _square_boundary(rng, n_samples)
    xi = rng.uniform(-noise, noise, size=n_samples)
    X = X_clean + xi[:, None] * normal
    return X, X_clean


def make_banana(
    n_samples: int = 300, *, noise: float = 0.2, random_state: RandomStateLike = None
) -> tuple[np.ndarray, np.ndarray]:
    """Generate the "banana" data set: noisy points on a parabola.

    Parameters
    ----------
    n_samples : int, default=300
        Number of points (the paper's n_train).
    noise : float, default=0.2
        Standard deviation nu of the Gaussian noise on the second coordinate.
    random_state : None, int or numpy.random.Generator, default=None
        Source of randomness; the same seed gives identical output.

    Returns
    -------
    X : ndarray of shape (n_samples, 2)
        The noisy points ``(x, x^2 + xi)``, float64.
    X_clean : ndarray of shape (n_samples, 2)
        The noiseless points ``(x, x^2)``.

    Notes
    -----
    "The parabola defined by the coordinates (x, x^2 + xi), with x uniformly
    distributed on [-1, 1], and xi normally distributed with a standard
    deviation of nu":

    .. math:: x = (t, t^2 + \\xi), \\qquad
              t \\sim U[-1, 1],\\ \\xi \\sim \\mathcal{N}(0, \\nu^2).

    Honeine & Richard (2011), Table 2: n_train = 300, n_preimage = 200,
    nu = 0.2; see :data:`HONEINE_RICHARD_TABLE2` for the kernel settings.

    References
    ----------
    P. Honeine and C. Richard, "Preimage problem in kernel-based machine
    learning", IEEE Signal Processing Magazine 28(2), 77-88, 2011.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.datasets import make_banana
    >>> X, X_clean = make_banana(random_state=0)
    >>> X.shape
    (300, 2)
    >>> bool(np.array_equal(X[:, 0], X_clean[:, 0]))
    True
    """
    n_samples, noise, rng = _curve_arguments(n_samples, noise, random_state)

    t = rng.uniform(-1.0, 1.0, size=n_samples)
    xi = noise * rng.standard_normal(n_samples)
    X_clean = np.column_stack([t, t**2])
    X = np.column_stack([t, t**2 + xi])
    return X, X_clean


def make_spiral(
    n_samples: int = 70, *, noise: float = 0.3, random_state: RandomStateLike = None
) -> tuple[np.ndarray, np.ndarray]:
    """Generate the "spiral" data set: an Archimedean spiral with radial noise.

    Parameters
    ----------
    n_samples : int, default=70
        Number of points (the paper's n_train).
    noise : float, default=0.3
        Upper bound nu of the uniform radial noise, drawn in ``[0, nu]``.
    random_state : None, int or numpy.random.Generator, default=None
        Source of randomness; the same seed gives identical output.

    Returns
    -------
    X : ndarray of shape (n_samples, 2)
        The noisy points, float64.
    X_clean : ndarray of shape (n_samples, 2)
        The noiseless points (``xi = 0``) at the same angles.

    Notes
    -----
    "(A(phi) cos phi, A(phi) sin phi) with A(phi) = 0.07 phi + xi, where phi
    and xi are generated uniformly on [0, 6 pi] and [0, nu]":

    .. math:: x = (0.07\\varphi + \\xi)(\\cos\\varphi, \\sin\\varphi),
              \\qquad \\varphi \\sim U[0, 6\\pi],\\ \\xi \\sim U[0, \\nu].

    The noise is one-sided: it only pushes points outwards.

    Honeine & Richard (2011), Table 2: n_train = 70, n_preimage = 250,
    nu = 0.3; see :data:`HONEINE_RICHARD_TABLE2` for the kernel settings.

    References
    ----------
    P. Honeine and C. Richard, "Preimage problem in kernel-based machine
    learning", IEEE Signal Processing Magazine 28(2), 77-88, 2011.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.datasets import make_spiral
    >>> X, X_clean = make_spiral(random_state=0)
    >>> X.shape
    (70, 2)
    >>> r, r_clean = np.linalg.norm(X, axis=1), np.linalg.norm(X_clean, axis=1)
    >>> bool(((r - r_clean >= -1e-12) & (r - r_clean <= 0.3 + 1e-12)).all())
    True
    """
    n_samples, noise, rng = _curve_arguments(n_samples, noise, random_state)

    phi = rng.uniform(0.0, 6.0 * np.pi, size=n_samples)
    xi = rng.uniform(0.0, noise, size=n_samples)
    direction = np.column_stack([np.cos(phi), np.sin(phi)])
    X_clean = (0.07 * phi)[:, None] * direction
    X = (0.07 * phi + xi)[:, None] * direction
    return X, X_clean


def make_sine(
    n_samples: int = 420, *, noise: float = 0.5, random_state: RandomStateLike = None
) -> tuple[np.ndarray, np.ndarray]:
    """Generate the "sine" data set: a sine curve with uniform noise.

    Parameters
    ----------
    n_samples : int, default=420
        Number of points (the paper's n_train).
    noise : float, default=0.5
        Upper bound nu of the uniform noise, drawn in ``[0, nu]^2``.
    random_state : None, int or numpy.random.Generator, default=None
        Source of randomness; the same seed gives identical output.

    Returns
    -------
    X : ndarray of shape (n_samples, 2)
        The noisy points, float64.
    X_clean : ndarray of shape (n_samples, 2)
        The noiseless points ``(phi, 0.8 sin(2 phi))``.

    Notes
    -----
    "(phi, 0.8 sin(2 phi)), phi uniform on [0, 2 pi], corrupted with an
    additive uniformly distributed noise in the range [0, nu]^2":

    .. math:: x = (\\varphi, 0.8 \\sin 2\\varphi) + \\xi, \\qquad
              \\varphi \\sim U[0, 2\\pi],\\ \\xi \\sim U([0, \\nu]^2).

    The noise is not centred: it shifts the cloud by ``(nu / 2, nu / 2)`` on
    average.

    Honeine & Richard (2011), Table 2: n_train = 420, n_preimage = 330,
    nu = 0.5; see :data:`HONEINE_RICHARD_TABLE2` for the kernel settings.

    References
    ----------
    P. Honeine and C. Richard, "Preimage problem in kernel-based machine
    learning", IEEE Signal Processing Magazine 28(2), 77-88, 2011.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.datasets import make_sine
    >>> X, X_clean = make_sine(random_state=0)
    >>> X.shape
    (420, 2)
    >>> bool(((X - X_clean >= 0) & (X - X_clean <= 0.5)).all())
    True
    """
    n_samples, noise, rng = _curve_arguments(n_samples, noise, random_state)

    phi = rng.uniform(0.0, 2.0 * np.pi, size=n_samples)
    X_clean = np.column_stack([phi, 0.8 * np.sin(2.0 * phi)])
    X = X_clean + rng.uniform(0.0, noise, size=(n_samples, 2))
    return X, X_clean
