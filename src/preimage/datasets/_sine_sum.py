"""The sum-of-sines regression problem of Vijayakumar and Wu (1999), Sec. 6."""

import numpy as np

from preimage._utils.typing import ArrayLike, RandomStateLike
from preimage._utils.validation import check_real_array
from preimage.datasets._checks import check_interval
from preimage.datasets._curves import check_sampling
from preimage.datasets._docs import fill_doc


def sine_sum(x: ArrayLike) -> np.ndarray:
    """Evaluate ``4 - sin x + sin 2x - sin 3x + sin 4x - sin 5x``.

    .. math:: f(x) = 4 + \\sum_{k=1}^{5} (-1)^k \\sin(kx)

    Parameters
    ----------
    x : float or array-like
        Points at which to evaluate the function.

    Returns
    -------
    ndarray
        The function values, float64, of the shape of `x`.

    References
    ----------
    Vijayakumar and Wu (1999), Sec. 6, Fig. 3.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.datasets import sine_sum
    >>> sine_sum([0.0, np.pi / 2]).round(12).tolist()
    [4.0, 3.0]
    """
    x = check_real_array(x, "x")
    return 4.0 - np.sin(x) + np.sin(2.0 * x) - np.sin(3.0 * x) + np.sin(4.0 * x) - np.sin(5.0 * x)


@fill_doc
def make_sine_sum(
    n_samples: int = 20,
    *,
    noise: float = 0.0,
    domain: tuple[float, float] = (-np.pi, np.pi),
    random_state: RandomStateLike = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Generate a 1-D regression problem on :func:`sine_sum`.

    .. math:: y = 4 - \\sin x + \\sin 2x - \\sin 3x + \\sin 4x - \\sin 5x
              + \\sigma \\varepsilon, \\qquad
              x \\sim U[a, b],\\ \\varepsilon \\sim \\mathcal{N}(0, 1).

    The paper does not state the interval; the default is one period.

    Parameters
    ----------
    n_samples : int, default=20
        Number of training points.
    noise : float, default=0.0
        Standard deviation of the Gaussian noise added to the targets.
    domain : tuple of float (low, high), default=(-pi, pi)
        Interval in which the inputs are drawn uniformly.
    %(random_state)s

    Returns
    -------
    x : ndarray of shape (n_samples, 1)
        The inputs, float64.
    y : ndarray of shape (n_samples,)
        The noisy targets.

    References
    ----------
    Vijayakumar and Wu (1999), Sec. 6, Fig. 3.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.datasets import make_sine_sum, sine_sum
    >>> x, y = make_sine_sum(random_state=0)
    >>> bool(np.array_equal(y, sine_sum(x[:, 0])))
    True
    """
    n_samples, noise, rng = check_sampling(n_samples, noise, random_state, n_features=1)
    low, high = check_interval(domain, "domain", bounded=True)

    x = rng.uniform(low, high, size=(n_samples, 1))
    y = sine_sum(x[:, 0])
    if noise > 0:
        y = y + noise * rng.standard_normal(n_samples)
    return x, y
