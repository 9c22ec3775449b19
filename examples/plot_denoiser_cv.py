r"""
Choosing the kernel width and the number of components
======================================================

A kernel PCA denoiser has two knobs: the width :math:`\sigma` of the Gaussian kernel
(:math:`\gamma = 1 / (2\sigma^2)`) and the number q of principal components kept. Too
few components and every digit looks like an average digit; too many and
the noise comes back. If you have a noisy copy of each training image, you
can let the data choose: :class:`preimage.KernelPCADenoiserCV` scores every
(:math:`\gamma`, q) pair by cross-validated denoising error, like scikit-learn's
``GridSearchCV`` but with one kernel PCA per width and fold.
"""

# %%
# Noisy training pairs
# --------------------
# 400 training digits and a noisy copy of each; 100 other digits to test on.
# The search is kept small: three widths, four component counts, three
# folds.
import matplotlib.pyplot as plt
import numpy as np

from preimage import KernelPCADenoiserCV
from preimage.datasets import add_gaussian_noise, load_mnist
from preimage.plot import plot_image_grid

X, _ = load_mnist()
order = np.random.default_rng(0).permutation(len(X))
X_train, X_test = X[order[:400]], X[order[2000:2100]]
X_pairs = add_gaussian_noise(X_train, 0.5, random_state=1)
X_noisy = add_gaussian_noise(X_test, 0.5, random_state=0)

gammas = [0.01, 0.02, 0.04]
counts = [25, 50, 100, 200]
search = KernelPCADenoiserCV(gammas, counts, cv=3, random_state=0)
search.fit(X_pairs, y=X_train)
print("best:", search.best_params_)

# %%
# The cross-validated error of every candidate
# --------------------------------------------
# ``cv_results_`` has scikit-learn's layout; its scores are negative mean
# squared errors (greater is better), so the curves below flip the sign.
results = search.cv_results_
fig, ax = plt.subplots(figsize=(6, 4), layout="constrained")
for gamma in gammas:
    rows = results["param_gamma"] == gamma
    ax.errorbar(
        results["param_n_components"][rows],
        -results["mean_test_score"][rows],
        yerr=results["std_test_score"][rows],
        marker="o",
        capsize=3,
        label=f"γ = {gamma} (σ = {np.sqrt(1 / (2 * gamma)):.1f})",
    )
ax.set_xscale("log")
ax.set_xticks(counts, [str(q) for q in counts])
ax.minorticks_off()
ax.set_xlabel("number of components q")
ax.set_ylabel("cross-validated denoising MSE")
ax.set_title("Held-out error of each (γ, q)")
ax.legend()

# %%
# The refitted denoiser on new digits
# -----------------------------------
# The search refits the best :class:`preimage.KernelPCADenoiser` on all the
# pairs; ``transform`` uses it.
X_denoised = search.transform(X_noisy)
err = np.mean(np.sum((X_denoised - X_test) ** 2, axis=1))
noise = np.mean(np.sum((X_noisy - X_test) ** 2, axis=1))
print(f"test MSE {err:.1f} (the noise alone: {noise:.1f})")
best = search.best_params_
plot_image_grid(
    [X_test[:8], X_noisy[:8], X_denoised[:8]],
    ["clean", "noisy", f"denoised\nγ = {best['gamma']:g}, q = {best['n_components']}"],
    image_shape=(28, 28),
    title=f"The chosen denoiser on test digits (MSE {err:.1f})",
)
plt.show()
