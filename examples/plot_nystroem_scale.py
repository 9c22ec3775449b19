r"""
More training data than a Gram matrix can hold: Nyström kernel PCA
==================================================================

Exact kernel PCA stores the n × n Gram matrix: 3.2 GB at n = 20,000 in
double precision, and its eigendecomposition takes time cubic in n. With
``n_landmarks=m``, :class:`preimage.KernelPCADenoiser` fits kernel PCA on
the projections of the :math:`\varphi(x_i)` onto the span of m landmarks, streaming over
the training data, so the cost grows linearly in n; its principal axes are
expansions over the landmarks, and every pre-image method works on them. How
many landmarks does a denoiser need?
"""

# %%
# 20,000 augmented digits
# -----------------------
# :func:`preimage.datasets.random_shifts` makes shifted copies of 4,000
# bundled MNIST digits; the other 1,000 digits are kept apart, and 300 of
# them, with Gaussian noise, are denoised.
import time
import warnings

import matplotlib.pyplot as plt
import numpy as np

from preimage import KernelPCADenoiser
from preimage.datasets import add_gaussian_noise, load_mnist, random_shifts
from preimage.plot import plot_image_grid

X, _ = load_mnist()  # sorted by class: shuffle before splitting
order = np.random.default_rng(0).permutation(len(X))
X_train, _ = random_shifts(X[order[:4000]], 20_000, image_shape=(28, 28), random_state=0)
X_test = X[order[4000:4300]]
X_noisy = add_gaussian_noise(X_test, 0.5, random_state=2)
n = len(X_train)
print(f"training set {X_train.shape}, {X_train.nbytes / 1e6:.0f} MB")
print(f"its exact Gram matrix would take {n * n * 8 / 1e9:.1f} GB")


def mse(A, B):
    """Mean over digits of the squared distance between images."""
    return float(np.mean(np.sum((A - B) ** 2, axis=1)))


# %%
# Fit and denoise with a growing number of landmarks
# --------------------------------------------------
# 100 components, the recommended width for digits, uniform landmarks and
# the fixed-point pre-image.
landmarks = [150, 300, 600, 1200]
fit_seconds, errors, denoised = [], [], {}
for m in landmarks:
    denoiser = KernelPCADenoiser(100, gamma=0.02, n_landmarks=m, random_state=0)
    start = time.perf_counter()
    denoiser.fit(X_train)
    fit_seconds.append(time.perf_counter() - start)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an iteration limit reached on a few digits
        denoised[m] = denoiser.transform(X_noisy)
    errors.append(mse(denoised[m], X_test))
    print(f"m = {m:5d}: fit {fit_seconds[-1]:5.1f} s, MSE {errors[-1]:.1f}")

# %%
# Time and error against the number of landmarks
# ----------------------------------------------
fig, ax_time = plt.subplots(figsize=(6, 4), layout="constrained")
ax_time.plot(landmarks, fit_seconds, "o-", color="tab:blue")
ax_time.set_xlabel("number of landmarks m")
ax_time.set_ylabel("fit time on 20,000 digits (s)", color="tab:blue")
ax_err = ax_time.twinx()
ax_err.plot(landmarks, errors, "s--", color="tab:red")
ax_err.set_ylabel("denoising MSE on 300 test digits", color="tab:red")
ax_time.set_title("Nyström kernel PCA: cost and quality")

# %%
# Digits denoised with the fewest and the most landmarks
# ------------------------------------------------------
m_low, m_high = landmarks[0], landmarks[-1]
plot_image_grid(
    [X_test[:10], X_noisy[:10], denoised[m_low][:10], denoised[m_high][:10]],
    ["clean", "noisy", f"{m_low} landmarks", f"{m_high} landmarks"],
    image_shape=(28, 28),
    title="Denoising with Nyström kernel PCA fitted on 20,000 digits",
)

# %%
# The fit time grows with m and the error falls with it. Given (noisy, clean)
# pairs, the learned pre-image (``method="learned"``, with its own
# ``n_landmarks`` in ``method_params``) is the one to use at this scale: one
# kernel block per call instead of iterations; ``benchmarks/bench_nystroem.py``
# fits it on up to 100,000 pairs.
plt.show()
