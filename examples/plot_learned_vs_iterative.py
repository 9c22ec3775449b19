"""
Learned map, fixed point or closed form: speed against quality
==============================================================

You have thousands of images to denoise, or a denoiser that must answer
inside a request. Three pre-image methods trade time for quality differently:

* the **fixed point** (Mika et al. 1999) iterates from each noisy input, one
  kernel block per iteration;
* the **learned** map (Bakır et al. 2004) is a kernel ridge regression from
  kernel PCA coordinates back to images, fitted once on (noisy, clean) pairs
  and then applied with one kernel block;
* the **closed form** (Honeine & Richard 2011) is a single linear solve,
  made for smooth low-dimensional data and crude on images.

This example times the three on digits and then looks at them on a curve in
the plane, where the closed form is at home.
"""

# %%
# Digits: 1,000 training pairs, 500 test digits
# ---------------------------------------------
import time
import warnings

import matplotlib.pyplot as plt
import numpy as np

from preimage import KernelPCADenoiser
from preimage.datasets import add_gaussian_noise, load_mnist, make_half_circle
from preimage.exceptions import NumericalWarning
from preimage.plot import plot_denoising_2d

X, _ = load_mnist()
order = np.random.default_rng(0).permutation(len(X))
X_train, X_test = X[order[:1000]], X[order[1000:1500]]
X_train_noisy = add_gaussian_noise(X_train, 0.5, random_state=1)
X_noisy = add_gaussian_noise(X_test, 0.5, random_state=0)

methods = {
    "fixed point": dict(method="fixed_point"),
    "learned": dict(method="learned", method_params={"gamma": 100.0, "alpha": 1e-3}),
    "closed form": dict(method="closed_form", add_mean=True),
}
# A small first fit loads what the denoisers use, so that the timings below
# are of the work alone.
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    KernelPCADenoiser(10, gamma=0.02).fit(X_train[:100]).transform(X_noisy[:10])

fit_seconds, transform_seconds, errors = {}, {}, {}
for name, params in methods.items():
    denoiser = KernelPCADenoiser(200, gamma=0.02, random_state=0, **params)
    start = time.perf_counter()
    denoiser.fit(X_train_noisy, X_train) if name == "learned" else denoiser.fit(X_train)
    fit_seconds[name] = time.perf_counter() - start
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an iteration limit reached on a few digits
        X_hat = denoiser.transform(X_noisy)
    transform_seconds[name] = time.perf_counter() - start
    errors[name] = np.mean(np.sum((X_hat - X_test) ** 2, axis=1))
    print(
        f"{name:12s} fit {fit_seconds[name]:5.2f} s   denoise 500 digits "
        f"{transform_seconds[name]:5.2f} s   MSE {errors[name]:5.1f}"
    )

# %%
# The learned map and the closed form do their work at fit time: the learned
# map regresses the clean digits on the kernel PCA coordinates of their
# noisy copies, the closed form fits a coordinate system in feature space
# that inverts the Gram matrix of the training digits. Every call after that
# is cheap. The fixed point needs no pairs, only clean digits, and pays at
# every call.
names = list(methods)
fig, (ax_time, ax_err) = plt.subplots(1, 2, figsize=(9, 3.5), layout="constrained")
ax_time.barh(names, [fit_seconds[n] for n in names], label="fit")
ax_time.barh(
    names,
    [transform_seconds[n] for n in names],
    left=[fit_seconds[n] for n in names],
    label="denoise 500 digits",
)
ax_time.set_xlabel("seconds")
ax_time.set_title("Time")
ax_time.legend(loc="lower right")
ax_time.set_xlim(0, 1.5 * max(fit_seconds[n] + transform_seconds[n] for n in names))
ax_err.barh(names, [errors[n] for n in names], color="tab:green")
ax_err.set_xlabel("mean squared error (noise alone: 196)")
ax_err.set_title("Quality on 500 noisy digits")
ax_err.invert_yaxis()
ax_time.invert_yaxis()
fig.suptitle("Three pre-image methods on MNIST digits")

# %%
# A half circle: smooth and low-dimensional
# -----------------------------------------
# In two dimensions the closed form's linear solve no longer averages whole
# images: its pre-images lie near the curve, as the fixed point's do.
# The learned map learns from noisy → clean pairs of points on the curve. The
# closed form inverts the Gram matrix of the 300 training points, which in
# the plane has many eigenvalues at rounding level; the library says so with
# a ``NumericalWarning`` and uses a pseudo-inverse, as wanted here.
P_train, P_train_clean = make_half_circle(300, noise=0.1, random_state=0)
P_new, P_clean = make_half_circle(80, noise=0.1, random_state=1)
fig, axes = plt.subplots(1, 3, figsize=(12, 4), layout="constrained")
for ax, (name, params) in zip(axes, methods.items()):
    if name == "learned":
        params = dict(method="learned")
    denoiser = KernelPCADenoiser(4, gamma=2.0, random_state=0, **params)
    if name == "learned":
        denoiser.fit(P_train, P_train_clean)
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", NumericalWarning)
            denoiser.fit(P_train)
    P_hat = denoiser.transform(P_new)
    err = np.mean(np.sum((P_hat - P_clean) ** 2, axis=1))
    print(f"half circle, {name:12s} MSE {err:.4f}")
    plot_denoising_2d(P_new, P_hat, train=P_train, ax=ax, title=f"{name}: MSE {err:.4f}")
    ax.set_aspect("equal")
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    ax.legend(loc="lower center", fontsize=8)
fig.suptitle("The same three methods on a noisy half circle")
plt.show()
