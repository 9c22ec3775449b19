"""The reference split of the denoising benchmarks (``../shared/REFERENCE.md``).

Bundled MNIST permuted by ``default_rng(0)``; the first ``n_train`` digits
train, the next ``n_test`` are the test digits, which get Gaussian noise
(σ = 0.5) and then speckle noise (p = 0.4) from the same generator — the
protocol STPRtool's published numbers follow.
"""

import numpy as np

from preimage.datasets import add_gaussian_noise, add_speckle_noise


def stprtool_split(X, n_train=2000, n_test=500):
    """``(X_train, X_test, noisy)``: the split of `X` (the bundled digits) and
    ``noisy = {"gaussian": ..., "speckle": ...}``, the test digits' noisy
    versions."""
    rng = np.random.default_rng(0)
    order = rng.permutation(len(X))
    X_train, X_test = X[order[:n_train]], X[order[n_train : n_train + n_test]]
    noisy = {
        "gaussian": add_gaussian_noise(X_test, 0.5, random_state=rng),
        "speckle": add_speckle_noise(X_test, 0.4, random_state=rng),
    }
    return X_train, X_test, noisy
