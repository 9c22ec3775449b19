"""What a denoiser fitted on noisy data alone can do, against one given clean pairs.

Bundled MNIST digits (784 pixels in [0, 1], Gaussian noise clipped to [0, 1])
and grey 64 x 64 patches of scikit-learn's bundled photograph ``china.jpg``
(Gaussian noise σ = 0.135); MSE = squared error to the clean image summed over
pixels, mean over images. ``KernelPCADenoiser()`` with its defaults
(``n_components="auto"``, the papers' width), seed 0.

- noisy only: fitted on the noisy images, applied to the same noisy images
  (all one has); the error cannot be measured without clean images: the
  count keeps the components that generalise to held-out images, and
  ``input`` marks a denoiser that found none and returns its inputs
  unchanged, with a warning.
- with clean pairs: ``fit(noisy, clean)`` on the same images, applied to
  other noisy images of the same kind; the held-out check keeps only counts
  that beat the input, else returns the input unchanged.

What to observe: with noisy data alone the result is the input itself
(too few images) or better than the noise, except the photo patches, a
little worse; with clean pairs it is never worse than the input.
The last line is the README's example with every default: 2,000 clean
digits, 100 other digits with noise σ = 0.5.

Run: ``python benchmarks/bench_noisy_only.py`` (the duration it prints at its end).
"""

import time
import warnings

import numpy as np
from sklearn.datasets import load_sample_image
from sklearn.feature_extraction.image import extract_patches_2d

from preimage import ConfigurationWarning, KernelPCADenoiser
from preimage.datasets import add_gaussian_noise, load_mnist


def mse(A, B):
    return np.mean(np.sum((A - B) ** 2, axis=1))


def row(name, clean, noisy, new_clean, new_noisy):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConfigurationWarning)
        alone = KernelPCADenoiser(random_state=0).fit(noisy)
        paired = KernelPCADenoiser(random_state=0).fit(noisy, clean)
    said = [str(w.message) for w in caught if "inputs unchanged" in str(w.message)]
    returned = [
        "input" if d.component_selection_["returns_input"] else "" for d in (alone, paired)
    ]
    print(
        f"{name:34} {mse(noisy, clean):7.1f} {mse(alone.transform(noisy), clean):7.1f} "
        f"({alone.n_components_:3d}) {returned[0]:>5}  {mse(new_noisy, new_clean):7.1f} "
        f"{mse(paired.transform(new_noisy), new_clean):7.1f} ({paired.n_components_:3d}) "
        f"{returned[1]:>5}  warnings: {len(said)}"
    )


def main():
    start = time.perf_counter()
    warnings.simplefilter("ignore")  # the fixed point's restarts on photo patches
    X = load_mnist()[0]
    print(f"{'':34} {'noise':>7} {'alone':>7} (  q) {'':5}  {'noise':>7} {'paired':>7} (  q)")
    new = X[4000:4200]
    for n, sigma in [(40, 0.5), (50, 0.4), (200, 0.4), (400, 0.5), (1000, 0.5)]:
        clean = X[: 4000 : 4000 // n]
        noisy = add_gaussian_noise(clean, sigma, clip=(0, 1), random_state=0)
        new_noisy = add_gaussian_noise(new, sigma, clip=(0, 1), random_state=1)
        row(f"{n} digits, sigma {sigma}", clean, noisy, new, new_noisy)
    image = load_sample_image("china.jpg").mean(axis=2) / 255
    patches = extract_patches_2d(image, (64, 64), max_patches=340, random_state=0)
    patches = patches.reshape(340, -1)
    clean, new = patches[:280], patches[280:]
    noisy = add_gaussian_noise(clean, 0.135, random_state=0)
    new_noisy = add_gaussian_noise(new, 0.135, random_state=1)
    row("280 photo patches 64x64, sigma 0.135", clean, noisy, new, new_noisy)

    order = np.random.default_rng(0).permutation(len(X))
    train, test = X[order[:2000]], X[order[2000:2100]]
    noisy = add_gaussian_noise(test, 0.5, random_state=0)
    readme = KernelPCADenoiser().fit(train)
    print(
        f"README: KernelPCADenoiser().fit(2,000 clean digits): {mse(noisy, test):.1f} -> "
        f"{mse(readme.transform(noisy), test):.2f} ({readme.n_components_} components)"
    )
    print(f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
