"""Noisy curves in the plane, returned with the noiseless points they come from.

The toy curves of Mika et al. (1999), Fig. 1 (the paper gives no size or noise
level; the defaults resemble its figure) and the four 2-D sets of Honeine and
Richard (2011), Table 2 (their settings: :data:`HONEINE_RICHARD_TABLE2`).
"""

import numpy as np

from preimage._utils.typing import RandomStateLike
from preimage._utils.validation import check_positive_int, check_random_state
from preimage.datasets._checks import check_output_size, check_scale
from preimage.datasets._docs import fill_doc

#: Honeine and Richard (2011), Table 2: ``n_train`` training points,
#: ``n_preimage`` points whose pre-images are computed, the noise level, the
#: kernel-PCA eigenvectors kept and the Gaussian width sigma.
HONEINE_RICHARD_TABLE2 = {
    "frame": dict(n_train=350, n_preimage=850, noise=0.1, n_components=5, sigma=0.4),
    "banana": dict(n_train=300, n_preimage=200, noise=0.2, n_components=3, sigma=0.5),
    "spiral": dict(n_train=70, n_preimage=250, noise=0.3, n_components=10, sigma=0.3),
    "sine": dict(n_train=420, n_preimage=330, noise=0.5, n_components=10, sigma=0.4),
}


def check_sampling(n, noise, random_state, *, name="n_samples", n_groups=1, n_features=2):
    """``(n, noise, rng)`` checked, the ``(n_groups * n, n_features)`` output within the
    memory budget; `name` is that of `n`."""
    n = check_positive_int(n, name)
    noise = check_scale(noise, "noise")
    rng = check_random_state(random_state)
    check_output_size((n_groups * n, n_features), np.float64, f"'{name}'")
    return n, noise, rng


def _square_boundary(rng, n_samples):
    """Points uniform along the perimeter of [-1, 1]^2, and their outward normals."""
    normals = np.array([[0.0, -1.0], [1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]])
    tangents = np.column_stack([-normals[:, 1], normals[:, 0]])  # counter-clockwise
    s = rng.uniform(0.0, 8.0, size=n_samples)
    side = np.minimum(np.floor(s / 2.0).astype(np.intp), 3)
    u = s - 2.0 * side - 1.0
    normal = normals[side]
    return normal + u[:, None] * tangents[side], normal


@fill_doc
def make_half_circle(
    n_samples: int = 100, *, noise: float = 0.05, random_state: RandomStateLike = None
) -> tuple[np.ndarray, np.ndarray]:
    r"""Generate noisy points on the upper half of the unit circle.

    .. math:: x = (\cos t, \sin t) + \sigma \varepsilon, \qquad
              t \sim U[0, \pi],\ \varepsilon \sim \mathcal{N}(0, I_2).

    Parameters
    ----------
    n_samples : int, default=100
        Number of points.
    noise : float, default=0.05
        Standard deviation of the isotropic Gaussian noise.
    %(random_state)s

    Returns
    -------
    %(curve_returns)s

    References
    ----------
    Mika et al. (1999), Fig. 1.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.datasets import make_half_circle
    >>> X, X_clean = make_half_circle(random_state=0)
    >>> bool(np.allclose(np.hypot(X_clean[:, 0], X_clean[:, 1]), 1.0))
    True
    """
    n_samples, noise, rng = check_sampling(n_samples, noise, random_state)

    t = rng.uniform(0.0, np.pi, size=n_samples)
    X_clean = np.column_stack([np.cos(t), np.sin(t)])
    X = X_clean + noise * rng.standard_normal((n_samples, 2))
    return X, X_clean


@fill_doc
def make_square(
    n_samples: int = 100, *, noise: float = 0.05, random_state: RandomStateLike = None
) -> tuple[np.ndarray, np.ndarray]:
    r"""Generate noisy points on the boundary of the square ``[-1, 1]^2``.

    With :math:`p(s)` the point at arc length :math:`s` along the perimeter,

    .. math:: x = p(s) + \sigma \varepsilon, \qquad
              s \sim U[0, 8),\ \varepsilon \sim \mathcal{N}(0, I_2).

    :func:`make_frame` has uniform noise normal to the sides.

    Parameters
    ----------
    n_samples : int, default=100
        Number of points.
    noise : float, default=0.05
        Standard deviation of the isotropic Gaussian noise.
    %(random_state)s

    Returns
    -------
    %(curve_returns)s

    References
    ----------
    Mika et al. (1999), Fig. 1.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.datasets import make_square
    >>> X, X_clean = make_square(random_state=0)
    >>> bool((np.abs(X_clean).max(axis=1) == 1.0).all())
    True
    """
    n_samples, noise, rng = check_sampling(n_samples, noise, random_state)

    X_clean, _ = _square_boundary(rng, n_samples)
    X = X_clean + noise * rng.standard_normal((n_samples, 2))
    return X, X_clean


@fill_doc
def make_frame(
    n_samples: int = 350, *, noise: float = 0.1, random_state: RandomStateLike = None
) -> tuple[np.ndarray, np.ndarray]:
    r"""Generate the "frame" data set: a square with noise normal to its sides.

    With :math:`p(s)` the point at arc length :math:`s` along the perimeter and
    :math:`n(s)` the outward normal of its side,

    .. math:: x = p(s) + \xi\, n(s), \qquad
              s \sim U[0, 8),\ \xi \sim U[-\nu, \nu].

    Parameters
    ----------
    n_samples : int, default=350
        Number of points.
    noise : float, default=0.1
        Half-width nu of the uniform noise normal to the sides.
    %(random_state)s

    Returns
    -------
    %(curve_returns)s

    References
    ----------
    Honeine and Richard (2011), Table 2.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.datasets import make_frame
    >>> X, X_clean = make_frame(random_state=0)
    >>> bool(np.abs(X - X_clean).max() <= 0.1)
    True
    """
    n_samples, noise, rng = check_sampling(n_samples, noise, random_state)

    X_clean, normal = _square_boundary(rng, n_samples)
    xi = rng.uniform(-noise, noise, size=n_samples)
    X = X_clean + xi[:, None] * normal
    return X, X_clean


@fill_doc
def make_banana(
    n_samples: int = 300, *, noise: float = 0.2, random_state: RandomStateLike = None
) -> tuple[np.ndarray, np.ndarray]:
    r"""Generate the "banana" data set: noisy points on a parabola.

    .. math:: x = (t, t^2 + \xi), \qquad
              t \sim U[-1, 1],\ \xi \sim \mathcal{N}(0, \nu^2).

    Parameters
    ----------
    n_samples : int, default=300
        Number of points.
    noise : float, default=0.2
        Standard deviation nu of the Gaussian noise on the second coordinate.
    %(random_state)s

    Returns
    -------
    %(curve_returns)s

    References
    ----------
    Honeine and Richard (2011), Table 2.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.datasets import make_banana
    >>> X, X_clean = make_banana(random_state=0)
    >>> bool(np.array_equal(X[:, 0], X_clean[:, 0]))
    True
    """
    n_samples, noise, rng = check_sampling(n_samples, noise, random_state)

    t = rng.uniform(-1.0, 1.0, size=n_samples)
    xi = noise * rng.standard_normal(n_samples)
    X_clean = np.column_stack([t, t**2])
    X = np.column_stack([t, t**2 + xi])
    return X, X_clean


@fill_doc
def make_spiral(
    n_samples: int = 70, *, noise: float = 0.3, random_state: RandomStateLike = None
) -> tuple[np.ndarray, np.ndarray]:
    r"""Generate the "spiral" data set: an Archimedean spiral with radial noise.

    .. math:: x = (0.07\varphi + \xi)(\cos\varphi, \sin\varphi),
              \qquad \varphi \sim U[0, 6\pi],\ \xi \sim U[0, \nu].

    The noise only pushes points outwards.

    Parameters
    ----------
    n_samples : int, default=70
        Number of points.
    noise : float, default=0.3
        Upper bound nu of the uniform radial noise, drawn in ``[0, nu]``.
    %(random_state)s

    Returns
    -------
    %(curve_returns)s

    References
    ----------
    Honeine and Richard (2011), Table 2.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.datasets import make_spiral
    >>> X, X_clean = make_spiral(random_state=0)
    >>> r, r_clean = np.linalg.norm(X, axis=1), np.linalg.norm(X_clean, axis=1)
    >>> bool(((r - r_clean >= -1e-12) & (r - r_clean <= 0.3 + 1e-12)).all())
    True
    """
    n_samples, noise, rng = check_sampling(n_samples, noise, random_state)

    phi = rng.uniform(0.0, 6.0 * np.pi, size=n_samples)
    xi = rng.uniform(0.0, noise, size=n_samples)
    direction = np.column_stack([np.cos(phi), np.sin(phi)])
    X_clean = (0.07 * phi)[:, None] * direction
    X = (0.07 * phi + xi)[:, None] * direction
    return X, X_clean


@fill_doc
def make_sine(
    n_samples: int = 420, *, noise: float = 0.5, random_state: RandomStateLike = None
) -> tuple[np.ndarray, np.ndarray]:
    r"""Generate the "sine" data set: a sine curve with uniform noise.

    .. math:: x = (\varphi, 0.8 \sin 2\varphi) + \xi, \qquad
              \varphi \sim U[0, 2\pi],\ \xi \sim U([0, \nu]^2).

    The noise is not centred: it shifts the cloud by ``(nu / 2, nu / 2)``.

    Parameters
    ----------
    n_samples : int, default=420
        Number of points.
    noise : float, default=0.5
        Upper bound nu of the uniform noise, drawn in ``[0, nu]^2``.
    %(random_state)s

    Returns
    -------
    %(curve_returns)s

    References
    ----------
    Honeine and Richard (2011), Table 2.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.datasets import make_sine
    >>> X, X_clean = make_sine(random_state=0)
    >>> bool(((X - X_clean >= 0) & (X - X_clean <= 0.5)).all())
    True
    """
    n_samples, noise, rng = check_sampling(n_samples, noise, random_state)

    phi = rng.uniform(0.0, 2.0 * np.pi, size=n_samples)
    X_clean = np.column_stack([phi, 0.8 * np.sin(2.0 * phi)])
    X = X_clean + rng.uniform(0.0, noise, size=(n_samples, 2))
    return X, X_clean
