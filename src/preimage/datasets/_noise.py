"""Noise models that corrupt data before denoising, and shifted copies of images.

Each function returns a new array; integer input becomes float64, float32 stays float32.
"""

import numpy as np

from preimage._utils.typing import ArrayLike, RandomStateLike
from preimage._utils.validation import (
    check_array_2d,
    check_positive_int,
    check_probability,
    check_random_state,
    check_real,
)
from preimage.datasets._checks import check_interval, check_output_size, check_scale
from preimage.datasets._docs import fill_doc


@fill_doc
def add_gaussian_noise(
    X: ArrayLike,
    sigma: float,
    *,
    clip: tuple[float, float] | None = None,
    random_state: RandomStateLike = None,
) -> np.ndarray:
    """Add independent Gaussian noise to every entry of `X`.

    .. math:: \\tilde x_{ij} = x_{ij} + \\sigma \\varepsilon_{ij}, \\qquad
              \\varepsilon_{ij} \\sim \\mathcal{N}(0, 1) \\text{ i.i.d.},

    then clipped to `clip`. The noise is drawn in float64 whatever the dtype of `X`.

    Parameters
    ----------
    %(clean_X)s
    sigma : float
        Standard deviation of the noise, ``>= 0``.
    clip : tuple of float (low, high), default=None
        Interval the noisy result is clipped to, e.g. ``(0, 1)`` for pixels.
    %(random_state)s

    Returns
    -------
    %(noisy_returns)s

    References
    ----------
    Mika et al. (1999), Fig. 3 (:math:`\\sigma = 0.5` on USPS digits).

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.datasets import add_gaussian_noise
    >>> X = np.full((1000, 64), 0.5)
    >>> X_noisy = add_gaussian_noise(X, 0.5, random_state=0)
    >>> round(float((X_noisy - X).std()), 2)
    0.5
    """
    X = check_array_2d(X, "X")
    sigma = check_scale(sigma, "sigma")
    if clip is not None:
        clip = check_interval(clip, "clip", strict=False)
    rng = check_random_state(random_state)

    X_noisy = X + sigma * rng.standard_normal(X.shape)  # float64
    if clip is not None:
        np.clip(X_noisy, clip[0], clip[1], out=X_noisy)
    if X_noisy.size and np.abs(X_noisy).max() > float(np.finfo(X.dtype).max):
        raise ValueError(
            f"'sigma' = {sigma!r} gives values beyond the range of {X.dtype}, "
            "the dtype of 'X'; pass 'X' as float64, a smaller 'sigma' or a "
            "'clip' interval"
        )
    return X_noisy.astype(X.dtype, copy=False)


@fill_doc
def add_speckle_noise(
    X: ArrayLike,
    p: float,
    *,
    low: float = 0.0,
    high: float = 1.0,
    random_state: RandomStateLike = None,
) -> np.ndarray:
    """Set a random fraction of the entries of `X` to black or white.

    With one uniform draw :math:`u_{ij} \\sim U[0, 1)` per entry,

    .. math:: \\tilde x_{ij} = \\begin{cases}
              \\mathrm{low} & u_{ij} < p/2, \\\\
              \\mathrm{high} & p/2 \\le u_{ij} < p, \\\\
              x_{ij} & \\text{otherwise,}
              \\end{cases}

    so a smaller `p` replaces a subset of the entries of a larger one.

    Parameters
    ----------
    %(clean_X)s
    p : float in [0, 1]
        Probability that an entry is replaced (by `low` or `high`, each with
        probability ``p / 2``).
    low : float, default=0.0
        Value of a "black" entry.
    high : float, default=1.0
        Value of a "white" entry; must be ``>= low``.
    %(random_state)s

    Returns
    -------
    %(noisy_returns)s

    References
    ----------
    Mika et al. (1999), Fig. 3 (:math:`p = 0.4`).

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.datasets import add_speckle_noise
    >>> X = np.full((1000, 64), 0.5)
    >>> X_noisy = add_speckle_noise(X, 0.4, random_state=0)
    >>> [round(float(np.mean(X_noisy == v)), 1) for v in (0.0, 1.0, 0.5)]
    [0.2, 0.2, 0.6]
    """
    X = check_array_2d(X, "X", copy=True)
    p = check_probability(p, "p")
    low, high = check_real(low, "low"), check_real(high, "high")
    if low > high:
        raise ValueError(f"'low' must be <= 'high', got low={low!r} and high={high!r}")
    for name, value in (("low", low), ("high", high)):
        if abs(value) > float(np.finfo(X.dtype).max):
            raise ValueError(
                f"{name!r} = {value!r} is beyond the range of {X.dtype}, the dtype of 'X'"
            )
    rng = check_random_state(random_state)

    u = rng.random(X.shape)
    X[u < p / 2] = low
    X[(u >= p / 2) & (u < p)] = high
    return X


@fill_doc
def random_shifts(
    X: ArrayLike,
    n_samples: int,
    *,
    image_shape: tuple[int, int],
    max_shift: int = 2,
    random_state: RandomStateLike = None,
) -> tuple[np.ndarray, np.ndarray]:
    r"""Augment images by whole-pixel translations.

    Draws `n_samples` rows of `X` (with replacement) and shifts each image by
    :math:`(\Delta r, \Delta c)` pixels, uniform in :math:`\{-s, \dots, s\}`
    with :math:`s` = `max_shift`, filling the border with 0:

    .. math:: z(r, c) = \begin{cases}
              x(r - \Delta r, c - \Delta c) & \text{inside the image,} \\
              0 & \text{otherwise.}
              \end{cases}

    Parameters
    ----------
    X : array-like of shape (n_images, height * width)
        Flattened images. Not modified.
    n_samples : int
        Number of augmented images.
    image_shape : tuple of int
        ``(height, width)`` of each image.
    max_shift : int, default=2
        Largest shift in pixels along each axis, at most ``max(image_shape)``.
    %(random_state)s

    Returns
    -------
    X_shifted : ndarray of shape (n_samples, height * width)
        The shifted images, flattened, in the dtype of `X`.
    index : ndarray of shape (n_samples,)
        The row of `X` each image came from.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.datasets import random_shifts
    >>> X = np.arange(1.0, 10.0).reshape(1, 9)  # one 3 x 3 image
    >>> Z, index = random_shifts(X, 2, image_shape=(3, 3), max_shift=1, random_state=0)
    >>> Z[0].reshape(3, 3)
    array([[0., 0., 0.],
           [1., 2., 3.],
           [4., 5., 6.]])
    """
    X = check_array_2d(X, "X")
    n_samples = check_positive_int(n_samples, "n_samples")
    max_shift = check_positive_int(max_shift, "max_shift", minimum=0)
    if (
        not isinstance(image_shape, (tuple, list))
        or len(image_shape) != 2
        or not all(isinstance(v, (int, np.integer)) and v > 0 for v in image_shape)
    ):
        raise ValueError(
            f"'image_shape' must be a pair of positive integers (height, "
            f"width), got {image_shape!r}"
        )
    h, w = image_shape
    if h * w != X.shape[1]:
        raise ValueError(
            f"'image_shape' {image_shape!r} has {h * w} pixels, but 'X' has {X.shape[1]} features"
        )
    if max_shift > max(h, w):
        raise ValueError(
            f"'max_shift' must be at most max(image_shape) = {max(h, w)} (a "
            f"larger shift moves the whole image out of the frame), got "
            f"{max_shift!r}"
        )
    rng = check_random_state(random_state)
    check_output_size((n_samples, h * w), X.dtype, "'n_samples'")
    index = rng.integers(X.shape[0], size=n_samples)
    shifts = rng.integers(-max_shift, max_shift + 1, size=(n_samples, 2))
    images = X[index].reshape(n_samples, h, w)
    out = np.zeros_like(images)
    for dr, dc in np.unique(shifts, axis=0).tolist():  # only the shifts drawn
        rows = np.flatnonzero((shifts[:, 0] == dr) & (shifts[:, 1] == dc))
        src_r, dst_r = slice(max(-dr, 0), h - max(dr, 0)), slice(max(dr, 0), h - max(-dr, 0))
        src_c, dst_c = slice(max(-dc, 0), w - max(dc, 0)), slice(max(dc, 0), w - max(-dc, 0))
        out[rows, dst_r, dst_c] = images[rows][:, src_r, src_c]
    return out.reshape(n_samples, h * w), index
