"""Synthetic data sets from the pre-image literature.

Every generator draws all of its randomness from ``random_state`` (None, an
int or a :class:`numpy.random.Generator`), so the same seed gives bit-identical
output, and returns float64 arrays.

The curve generators (:func:`make_half_circle`, :func:`make_square`,
:func:`make_frame`, :func:`make_banana`, :func:`make_spiral`,
:func:`make_sine`) return ``(X, X_clean)``: the noisy points and the noiseless
points on the curve they were generated from, so that a denoising error such as
``np.linalg.norm(X_denoised - X_clean, axis=1).mean()`` can be measured.
"""

from numbers import Real

import numpy as np

from .._memory import check_dense
from .._validation import (
    check_array_2d,
    check_positive,
    check_positive_int,
    check_random_state,
    check_real_array,
)

__all__ = [
    "HONEINE_RICHARD_TABLE2",
    "make_banana",
    "make_frame",
    "make_gaussian_sources",
    "make_half_circle",
    "make_sine",
    "make_sine_sum",
    "make_spiral",
    "make_square",
    "make_three_clusters",
    "sine_sum",
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

# Source positions of the three-cluster toy problem (see make_three_clusters).
_THREE_CLUSTER_CENTERS = ((-0.5, -0.1), (0.0, 0.7), (0.5, 0.1))


# ---------------------------------------------------------------------------
# private argument checks (shared with _noise.py)
# ---------------------------------------------------------------------------

def _check_real(value, name):
    """Check a finite real scalar (bools refused)."""
    if isinstance(value, bool) or not isinstance(value, Real) or not np.isfinite(value):
        raise ValueError(f"{name!r} must be a finite real number, got {value!r}")
    return float(value)


#: The largest noise level or coordinate a generator accepts: beyond it the
#: points' squared distances would overflow float64 (``check_array_2d``
#: refuses such data), and uniform draws over a wider interval overflow.
MAX_SCALE = 1e150


def _check_scale(value, name):
    """A non-negative noise level or spread, at most :data:`MAX_SCALE`."""
    value = check_positive(value, name, strict=False)
    if value > MAX_SCALE:
        raise ValueError(f"{name!r} must be at most {MAX_SCALE:g}: larger values make "
                         f"points whose squared distances overflow float64, got {value!r}")
    return value


def _check_output_size(shape, dtype, names):
    """Refuse, before allocating, an output beyond the memory budget."""
    check_dense(shape, dtype, f"the {' x '.join(map(str, shape))} output array",
                hint=f"ask for fewer {names}")


def _check_interval(value, name, *, strict=True, bounded=False):
    """Check a pair ``(low, high)`` of finite reals with ``low < high``.

    With ``strict=False``, ``low == high`` is allowed; with `bounded`, both
    ends must be at most :data:`MAX_SCALE` in magnitude (a range to draw from).
    """
    try:
        low, high = value
    except (TypeError, ValueError):
        raise ValueError(
            f"{name!r} must be a pair (low, high) of finite real numbers, "
            f"got {value!r}") from None
    for v in (low, high):
        if isinstance(v, bool) or not isinstance(v, Real) or not np.isfinite(v):
            raise ValueError(
                f"{name!r} must be a pair (low, high) of finite real numbers, "
                f"got {value!r}")
    if (strict and not low < high) or (not strict and not low <= high):
        op = "<" if strict else "<="
        raise ValueError(f"{name!r} must satisfy low {op} high, got {value!r}")
    if bounded and max(abs(low), abs(high)) > MAX_SCALE:
        raise ValueError(f"{name!r} must lie within [-{MAX_SCALE:g}, {MAX_SCALE:g}] (points "
                         f"beyond have squared distances that overflow float64), got "
                         f"{value!r}")
    return float(low), float(high)


# ---------------------------------------------------------------------------
# Gaussian sources
# ---------------------------------------------------------------------------

def make_gaussian_sources(n_samples_per_source=100, *, n_sources=11, n_features=10,
                          scale=0.1, center_box=(-1.0, 1.0), centers=None,
                          return_centers=False, random_state=None):
    """Generate isotropic Gaussian sources with uniformly drawn centres.

    The toy problem of Mika et al. (1999): eleven Gaussians in ten dimensions
    whose centres are drawn uniformly in the cube ``[-1, 1]^10``.

    Parameters
    ----------
    n_samples_per_source : int, default=100
        Number of points drawn from each source. The paper uses 100 training
        and 33 test points per source.
    n_sources : int, default=11
        Number of Gaussian sources.
    n_features : int, default=10
        Dimension of the input space.
    scale : float, default=0.1
        Standard deviation of every coordinate of every source (the paper's
        sigma, one of 0.05, 0.1, 0.2, 0.4, 0.8).
    center_box : tuple of float (low, high), default=(-1.0, 1.0)
        Bounds of the cube in which the centres are drawn uniformly. Ignored
        when `centers` is given.
    centers : array-like of shape (n_sources, n_features), default=None
        Fixed source centres. Pass the centres returned with
        ``return_centers=True`` to draw a test set from the same sources as a
        training set. If None, the centres are drawn from `random_state`.
    return_centers : bool, default=False
        If True, also return the centres.
    random_state : None, int or numpy.random.Generator, default=None
        Source of randomness; the same seed gives identical output.

    Returns
    -------
    X : ndarray of shape (n_sources * n_samples_per_source, n_features)
        The points, float64, grouped by source (all points of source 0, then
        all points of source 1, ...).
    y : ndarray of shape (n_sources * n_samples_per_source,)
        Integer index of the source each point was drawn from.
    centers : ndarray of shape (n_sources, n_features)
        The source centres. Only returned if `return_centers` is True.

    Notes
    -----
    With centres :math:`c_k \\sim U([a, b]^d)`, ``(a, b) = center_box``, the
    points of source :math:`k` are

    .. math:: x = c_k + \\sigma \\varepsilon, \\qquad
              \\varepsilon \\sim \\mathcal{N}(0, I_d).

    This is the de-noising experiment of Mika et al. (1999), Table 1: 11
    sources in :math:`\\mathbb{R}^{10}`, 100 training and 33 test points per
    source, :math:`\\sigma \\in \\{0.05, 0.1, 0.2, 0.4, 0.8\\}`.

    References
    ----------
    S. Mika, B. Schölkopf, A. Smola, K.-R. Müller, M. Scholz and G. Rätsch,
    "Kernel PCA and de-noising in feature spaces", Advances in Neural
    Information Processing Systems 11, 1999.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.datasets import make_gaussian_sources
    >>> X, y, centers = make_gaussian_sources(return_centers=True, random_state=0)
    >>> X.shape, y.shape, centers.shape
    ((1100, 10), (1100,), (11, 10))
    >>> X_test, y_test = make_gaussian_sources(33, centers=centers, random_state=1)
    >>> X_test.shape
    (363, 10)
    """
    n_per = check_positive_int(n_samples_per_source, "n_samples_per_source")
    n_sources = check_positive_int(n_sources, "n_sources")
    n_features = check_positive_int(n_features, "n_features")
    scale = _check_scale(scale, "scale")
    low, high = _check_interval(center_box, "center_box", bounded=True)
    rng = check_random_state(random_state)
    _check_output_size((n_per * n_sources, n_features), np.float64,
                       "'n_samples_per_source', 'n_sources' or 'n_features'")

    if centers is None:
        centers = rng.uniform(low, high, size=(n_sources, n_features))
    else:
        centers = check_array_2d(centers, "centers", dtype=np.float64, copy=True)
        if centers.shape != (n_sources, n_features):
            raise ValueError(
                f"'centers' must have shape (n_sources, n_features) = "
                f"({n_sources}, {n_features}), got an array with shape "
                f"{centers.shape}; pass n_sources and n_features that match it")

    y = np.repeat(np.arange(n_sources), n_per)
    X = centers[y] + scale * rng.standard_normal((y.size, n_features))
    if return_centers:
        return X, y, centers
    return X, y


def make_three_clusters(n_samples_per_cluster=100, *, noise=0.1, return_centers=False,
                        random_state=None):
    """Generate three Gaussian clusters around fixed point sources in the plane.

    Parameters
    ----------
    n_samples_per_cluster : int, default=100
        Number of points drawn around each source.
    noise : float, default=0.1
        Standard deviation of the isotropic Gaussian noise.
    return_centers : bool, default=False
        If True, also return the three sources.
    random_state : None, int or numpy.random.Generator, default=None
        Source of randomness; the same seed gives identical output.

    Returns
    -------
    X : ndarray of shape (3 * n_samples_per_cluster, 2)
        The points, float64, grouped by cluster.
    y : ndarray of shape (3 * n_samples_per_cluster,)
        Integer index (0, 1, 2) of the source of each point.
    centers : ndarray of shape (3, 2)
        The sources ``(-0.5, -0.1), (0, 0.7), (0.5, 0.1)``. Only returned if
        `return_centers` is True.

    Notes
    -----
    The points of cluster :math:`k` are

    .. math:: x = c_k + \\sigma \\varepsilon, \\qquad
              \\varepsilon \\sim \\mathcal{N}(0, I_2),

    with :math:`c_1 = (-0.5, -0.1)`, :math:`c_2 = (0, 0.7)`,
    :math:`c_3 = (0.5, 0.1)` and :math:`\\sigma = 0.1`, 100 points each.

    This is the toy problem of Schölkopf et al. (1999), Sec. VI-A, Fig. 5. The
    numerals of the source positions and of sigma were lost from the available
    text of that paper; the values used here are the standard ones from the
    kernel PCA toy example of Schölkopf, Smola & Müller, which the figure
    reproduces.

    References
    ----------
    B. Schölkopf, S. Mika, C. J. C. Burges, P. Knirsch, K.-R. Müller,
    G. Rätsch and A. J. Smola, "Input space versus feature space in
    kernel-based methods", IEEE Transactions on Neural Networks 10(5),
    1000-1017, 1999.

    B. Schölkopf, A. Smola and K.-R. Müller, "Nonlinear component analysis as
    a kernel eigenvalue problem", Neural Computation 10(5), 1299-1319, 1998.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.datasets import make_three_clusters
    >>> X, y = make_three_clusters(random_state=0)
    >>> X.shape, np.bincount(y).tolist()
    ((300, 2), [100, 100, 100])
    """
    n_per = check_positive_int(n_samples_per_cluster, "n_samples_per_cluster")
    noise = _check_scale(noise, "noise")
    rng = check_random_state(random_state)
    _check_output_size((3 * n_per, 2), np.float64, "'n_samples_per_cluster'")

    centers = np.array(_THREE_CLUSTER_CENTERS, dtype=np.float64)
    y = np.repeat(np.arange(3), n_per)
    X = centers[y] + noise * rng.standard_normal((y.size, 2))
    if return_centers:
        return X, y, centers
    return X, y


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


def make_half_circle(n_samples=100, *, noise=0.05, random_state=None):
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
    n_samples = check_positive_int(n_samples, "n_samples")
    noise = _check_scale(noise, "noise")
    rng = check_random_state(random_state)
    _check_output_size((n_samples, 2), np.float64, "'n_samples'")

    t = rng.uniform(0.0, np.pi, size=n_samples)
    X_clean = np.column_stack([np.cos(t), np.sin(t)])
    X = X_clean + noise * rng.standard_normal((n_samples, 2))
    return X, X_clean


def make_square(n_samples=100, *, noise=0.05, random_state=None):
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
    n_samples = check_positive_int(n_samples, "n_samples")
    noise = _check_scale(noise, "noise")
    rng = check_random_state(random_state)
    _check_output_size((n_samples, 2), np.float64, "'n_samples'")

    X_clean, _ = _square_boundary(rng, n_samples)
    X = X_clean + noise * rng.standard_normal((n_samples, 2))
    return X, X_clean


# ---------------------------------------------------------------------------
# Honeine & Richard (2011), Table 2
# ---------------------------------------------------------------------------

def make_frame(n_samples=350, *, noise=0.1, random_state=None):
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
    n_samples = check_positive_int(n_samples, "n_samples")
    noise = _check_scale(noise, "noise")
    rng = check_random_state(random_state)
    _check_output_size((n_samples, 2), np.float64, "'n_samples'")

    X_clean, normal = _square_boundary(rng, n_samples)
    xi = rng.uniform(-noise, noise, size=n_samples)
    X = X_clean + xi[:, None] * normal
    return X, X_clean


def make_banana(n_samples=300, *, noise=0.2, random_state=None):
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
    n_samples = check_positive_int(n_samples, "n_samples")
    noise = _check_scale(noise, "noise")
    rng = check_random_state(random_state)
    _check_output_size((n_samples, 2), np.float64, "'n_samples'")

    t = rng.uniform(-1.0, 1.0, size=n_samples)
    xi = noise * rng.standard_normal(n_samples)
    X_clean = np.column_stack([t, t ** 2])
    X = np.column_stack([t, t ** 2 + xi])
    return X, X_clean


def make_spiral(n_samples=70, *, noise=0.3, random_state=None):
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
    n_samples = check_positive_int(n_samples, "n_samples")
    noise = _check_scale(noise, "noise")
    rng = check_random_state(random_state)
    _check_output_size((n_samples, 2), np.float64, "'n_samples'")

    phi = rng.uniform(0.0, 6.0 * np.pi, size=n_samples)
    xi = rng.uniform(0.0, noise, size=n_samples)
    direction = np.column_stack([np.cos(phi), np.sin(phi)])
    X_clean = (0.07 * phi)[:, None] * direction
    X = (0.07 * phi + xi)[:, None] * direction
    return X, X_clean


def make_sine(n_samples=420, *, noise=0.5, random_state=None):
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
    n_samples = check_positive_int(n_samples, "n_samples")
    noise = _check_scale(noise, "noise")
    rng = check_random_state(random_state)
    _check_output_size((n_samples, 2), np.float64, "'n_samples'")

    phi = rng.uniform(0.0, 2.0 * np.pi, size=n_samples)
    X_clean = np.column_stack([phi, 0.8 * np.sin(2.0 * phi)])
    X = X_clean + rng.uniform(0.0, noise, size=(n_samples, 2))
    return X, X_clean


# ---------------------------------------------------------------------------
# Sum of sines (Vijayakumar & Wu)
# ---------------------------------------------------------------------------

def sine_sum(x):
    """Evaluate ``4 - sin x + sin 2x - sin 3x + sin 4x - sin 5x``.

    Parameters
    ----------
    x : float or array-like
        Points at which to evaluate the function.

    Returns
    -------
    y : float64 ndarray of the same shape as `x`
        The function values (a 0-d array for scalar input).

    Notes
    -----
    .. math:: f(x) = 4 + \\sum_{k=1}^{5} (-1)^k \\sin(kx)

    The regression target of Vijayakumar & Wu (1999), Sec. 6, Fig. 3. It is
    :math:`2\\pi`-periodic, with values between roughly 1 and 7.

    References
    ----------
    S. Vijayakumar and S. Wu, "Sequential support vector classifiers and
    regression", Proc. International Conference on Soft Computing (SOCO'99),
    1999.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.datasets import sine_sum
    >>> sine_sum([0.0, np.pi / 2]).round(12).tolist()
    [4.0, 3.0]
    """
    x = check_real_array(x, "x")
    return (4.0 - np.sin(x) + np.sin(2.0 * x) - np.sin(3.0 * x)
            + np.sin(4.0 * x) - np.sin(5.0 * x))


def make_sine_sum(n_samples=20, *, noise=0.0, domain=(-np.pi, np.pi), random_state=None):
    """Generate a 1-D regression problem on :func:`sine_sum`.

    Parameters
    ----------
    n_samples : int, default=20
        Number of training points.
    noise : float, default=0.0
        Standard deviation of the Gaussian noise added to the targets.
    domain : tuple of float (low, high), default=(-pi, pi)
        Interval in which the inputs are drawn uniformly.
    random_state : None, int or numpy.random.Generator, default=None
        Source of randomness; the same seed gives identical output.

    Returns
    -------
    x : ndarray of shape (n_samples, 1)
        The inputs, float64.
    y : ndarray of shape (n_samples,)
        The targets ``sine_sum(x[:, 0]) + noise * N(0, 1)``.

    Notes
    -----
    .. math:: y = 4 - \\sin x + \\sin 2x - \\sin 3x + \\sin 4x - \\sin 5x
              + \\sigma \\varepsilon, \\qquad
              x \\sim U[a, b],\\ \\varepsilon \\sim \\mathcal{N}(0, 1).

    Vijayakumar & Wu (1999), Sec. 6, Fig. 3, train on 20 uniformly drawn
    samples. The paper does not state the interval; the default
    :math:`[-\\pi, \\pi]` is one period of the function.

    References
    ----------
    S. Vijayakumar and S. Wu, "Sequential support vector classifiers and
    regression", Proc. International Conference on Soft Computing (SOCO'99),
    1999.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.datasets import make_sine_sum, sine_sum
    >>> x, y = make_sine_sum(random_state=0)
    >>> x.shape, y.shape
    ((20, 1), (20,))
    >>> bool(np.array_equal(y, sine_sum(x[:, 0])))
    True
    """
    n_samples = check_positive_int(n_samples, "n_samples")
    noise = _check_scale(noise, "noise")
    low, high = _check_interval(domain, "domain", bounded=True)
    rng = check_random_state(random_state)
    _check_output_size((n_samples, 1), np.float64, "'n_samples'")

    x = rng.uniform(low, high, size=(n_samples, 1))
    y = sine_sum(x[:, 0])
    if noise > 0:
        y = y + noise * rng.standard_normal(n_samples)
    return x, y
