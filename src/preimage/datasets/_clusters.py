"""Gaussian clusters around point sources: the toy problems of Mika et al.
(1999), Table 1, and Schölkopf et al. (1999), Fig. 5."""

import numpy as np

from preimage._utils.typing import ArrayLike, RandomStateLike
from preimage._utils.validation import check_array_2d, check_positive_int, check_random_state
from preimage.datasets._checks import check_interval, check_output_size, check_scale
from preimage.datasets._curves import check_sampling
from preimage.datasets._docs import fill_doc

# Source positions of the three-cluster toy problem (see make_three_clusters).
_THREE_CLUSTER_CENTERS = ((-0.5, -0.1), (0.0, 0.7), (0.5, 0.1))


def _draw_around(centers, n_per, scale, rng, return_centers):
    """`n_per` points ``c_k + scale * N(0, I)`` around each row of `centers`."""
    y = np.repeat(np.arange(centers.shape[0]), n_per)
    X = centers[y] + scale * rng.standard_normal((y.size, centers.shape[1]))
    return (X, y, centers) if return_centers else (X, y)


@fill_doc
def make_gaussian_sources(
    n_samples_per_source: int = 100,
    *,
    n_sources: int = 11,
    n_features: int = 10,
    scale: float = 0.1,
    center_box: tuple[float, float] = (-1.0, 1.0),
    centers: ArrayLike | None = None,
    return_centers: bool = False,
    random_state: RandomStateLike = None,
) -> tuple[np.ndarray, ...]:
    """Generate isotropic Gaussian sources with uniformly drawn centres.

    With centres :math:`c_k \\sim U([a, b]^d)`, ``(a, b) = center_box``, the
    points of source :math:`k` are

    .. math:: x = c_k + \\sigma \\varepsilon, \\qquad
              \\varepsilon \\sim \\mathcal{N}(0, I_d).

    The paper uses 100 training and 33 test points per source and
    :math:`\\sigma \\in \\{0.05, 0.1, 0.2, 0.4, 0.8\\}`.

    Parameters
    ----------
    n_samples_per_source : int, default=100
        Number of points drawn from each source.
    n_sources : int, default=11
        Number of Gaussian sources.
    n_features : int, default=10
        Dimension of the input space.
    scale : float, default=0.1
        Standard deviation of every coordinate of every source.
    center_box : tuple of float (low, high), default=(-1.0, 1.0)
        Bounds of the cube the centres are drawn in, unless `centers` is given.
    centers : array-like of shape (n_sources, n_features), default=None
        Fixed centres, e.g. those of a training set for its test set.
    return_centers : bool, default=False
        If True, also return the centres.
    %(random_state)s

    Returns
    -------
    X : ndarray of shape (n_sources * n_samples_per_source, n_features)
        The points, float64, grouped by source.
    y : ndarray of shape (n_sources * n_samples_per_source,)
        Integer index of the source each point was drawn from.
    centers : ndarray of shape (n_sources, n_features)
        The source centres. Only returned if `return_centers` is True.

    References
    ----------
    Mika et al. (1999), Table 1.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.datasets import make_gaussian_sources
    >>> X, y, centers = make_gaussian_sources(return_centers=True, random_state=0)
    >>> X.shape, y.shape, centers.shape
    ((1100, 10), (1100,), (11, 10))
    """
    n_per = check_positive_int(n_samples_per_source, "n_samples_per_source")
    n_sources = check_positive_int(n_sources, "n_sources")
    n_features = check_positive_int(n_features, "n_features")
    scale = check_scale(scale, "scale")
    low, high = check_interval(center_box, "center_box", bounded=True)
    rng = check_random_state(random_state)
    names = "'n_samples_per_source', 'n_sources' or 'n_features'"
    check_output_size((n_per * n_sources, n_features), np.float64, names)

    if centers is None:
        centers = rng.uniform(low, high, size=(n_sources, n_features))
    else:
        centers = check_array_2d(centers, "centers", dtype=np.float64, copy=True)
        if centers.shape != (n_sources, n_features):
            raise ValueError(
                f"'centers' must have shape (n_sources, n_features) = "
                f"({n_sources}, {n_features}), got an array with shape "
                f"{centers.shape}; pass n_sources and n_features that match it"
            )

    return _draw_around(centers, n_per, scale, rng, return_centers)


@fill_doc
def make_three_clusters(
    n_samples_per_cluster: int = 100,
    *,
    noise: float = 0.1,
    return_centers: bool = False,
    random_state: RandomStateLike = None,
) -> tuple[np.ndarray, ...]:
    """Generate three Gaussian clusters around fixed point sources in the plane.

    The points of cluster :math:`k` are

    .. math:: x = c_k + \\sigma \\varepsilon, \\qquad
              \\varepsilon \\sim \\mathcal{N}(0, I_2),

    with the paper's lost numerals taken from the toy example of Schölkopf et
    al. (1998), which its figure reproduces.

    Parameters
    ----------
    n_samples_per_cluster : int, default=100
        Number of points drawn around each source.
    noise : float, default=0.1
        Standard deviation of the isotropic Gaussian noise.
    return_centers : bool, default=False
        If True, also return the three sources.
    %(random_state)s

    Returns
    -------
    X : ndarray of shape (3 * n_samples_per_cluster, 2)
        The points, float64, grouped by cluster.
    y : ndarray of shape (3 * n_samples_per_cluster,)
        Integer index (0, 1, 2) of the source of each point.
    centers : ndarray of shape (3, 2)
        The sources ``(-0.5, -0.1), (0, 0.7), (0.5, 0.1)``. Only returned if
        `return_centers` is True.

    References
    ----------
    Schölkopf et al. (1999), Sec. VI-A, Fig. 5; Schölkopf et al. (1998).

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.datasets import make_three_clusters
    >>> X, y = make_three_clusters(random_state=0)
    >>> X.shape, np.bincount(y).tolist()
    ((300, 2), [100, 100, 100])
    """
    n_per, noise, rng = check_sampling(
        n_samples_per_cluster, noise, random_state, name="n_samples_per_cluster", n_groups=3
    )
    return _draw_around(np.array(_THREE_CLUSTER_CENTERS), n_per, noise, rng, return_centers)
