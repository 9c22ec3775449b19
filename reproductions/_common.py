"""Helpers shared by the reproductions: errors, linear PCA, digit splits."""

from contextlib import contextmanager
import warnings

import numpy as np
from sklearn.decomposition import PCA

from preimage.datasets import load_mnist
from preimage.exceptions import ConvergenceWarning

__all__ = [
    "mse",
    "squared_errors",
    "linear_pca_reconstruct",
    "mnist_per_class",
    "quiet_convergence",
]


def squared_errors(A, B):
    """Squared Euclidean distance between matching rows of A and B."""
    return np.sum((np.asarray(A, float) - np.asarray(B, float)) ** 2, axis=1)


def mse(A, B):
    """Mean over rows of the squared error summed over columns (for images:
    summed over pixels, averaged over images, the papers' convention)."""
    return float(np.mean(squared_errors(A, B)))


def linear_pca_reconstruct(X_train, X_test, n_components):
    """Reconstructions of X_test from its first principal components of
    X_train (mean added back), one array per entry of `n_components`."""
    n_max = max(n_components)
    pca = PCA(n_max, svd_solver="full").fit(X_train)
    centred = np.asarray(X_test, float) - pca.mean_
    out = []
    for n in n_components:
        V = pca.components_[:n]
        out.append(centred @ V.T @ V + pca.mean_)
    return out


def mnist_per_class(n_train_per_class, n_test_per_class, *, digits=range(10), rng):
    """A per-class random split of the bundled MNIST digits.

    Returns ``X_train, y_train, X_test, y_test`` with `n_train_per_class`
    and `n_test_per_class` digits of every class in `digits` (disjoint),
    drawn with `rng`; the bundle holds 500 digits per class.
    """
    X, y = load_mnist()
    train, test = [], []
    for d in digits:
        idx = rng.permutation(np.flatnonzero(y == d))
        if n_train_per_class + n_test_per_class > idx.size:
            raise ValueError(
                f"class {d} has {idx.size} digits, fewer than "
                f"{n_train_per_class} + {n_test_per_class}"
            )
        train.append(idx[:n_train_per_class])
        test.append(idx[n_train_per_class : n_train_per_class + n_test_per_class])
    train, test = np.concatenate(train), np.concatenate(test)
    return X[train], y[train], X[test], y[test]


@contextmanager
def quiet_convergence():
    """Silence ConvergenceWarning inside the block: reproductions count the
    unconverged pre-images from ``PreimageResult.converged`` and report the
    count instead of printing one warning per call."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        yield
