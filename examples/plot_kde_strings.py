"""
Predicting strings from strings with kernel dependency estimation
=================================================================

Your inputs are strings over ``abc`` and so are your outputs, over ``12``,
of the same length: each output symbol is a hidden state that shaped the
input around it. No regression predicts a string directly. Kernel dependency
estimation (Weston et al. 2003; Bakır et al. 2004) maps the outputs into a
feature space with a string kernel, finds its principal directions, regresses
the coordinates on the inputs with another kernel, and comes back to a string
with a pre-image: here the k nearest training outputs, position by position.
"""

# %%
# The toy strings of Bakır et al.
# -------------------------------
# :func:`preimage.datasets.make_kde_strings` draws input/output pairs from
# the paper's two Markov models. 150 pairs to learn from, 100 to test on.
from matplotlib.colors import ListedColormap
import matplotlib.pyplot as plt
import numpy as np

from preimage import KernelDependencyEstimator
from preimage.datasets import make_kde_strings
from preimage.kernels import (
    JointSpectrumKernel,
    KernelDistanceRBF,
    NormalizedKernel,
    SpectrumKernel,
)

X, Y, _ = make_kde_strings(250, random_state=0)
X_train, Y_train, X_test, Y_test = X[:150], Y[:150], X[150:], Y[150:]
for x, y in zip(X_train[:3], Y_train[:3]):
    print(f"input {x}\noutput {y}\n")

# %%
# The estimator
# -------------
# Inputs: a Gaussian of the distance between normalised 3-spectra (counts of
# every substring of length 3). Outputs: the normalised joint 3-spectrum,
# which counts each input substring of length 3 together with the output
# symbol at its centre. Pre-images: the ``n_neighbors`` nearest training
# outputs vote on every position.
kde = KernelDependencyEstimator(
    KernelDistanceRBF(NormalizedKernel(SpectrumKernel(3)), gamma=1.0),
    NormalizedKernel(JointSpectrumKernel(3)),
    alpha=1.0,
    n_neighbors=5,
).fit(X_train, Y_train)
Y_pred = kde.predict(X_test)
print(f"symbol accuracy on the test strings: {kde.score(X_test, Y_test):.3f}")

# %%
# How many neighbours?
# --------------------
# One fit per k, quick at this size. A baseline that always answers the more
# frequent output symbol shows what the inputs add.
ks = [1, 3, 5, 7, 9, 15]
scores = [
    KernelDependencyEstimator(
        KernelDistanceRBF(NormalizedKernel(SpectrumKernel(3)), gamma=1.0),
        NormalizedKernel(JointSpectrumKernel(3)),
        alpha=1.0,
        n_neighbors=k,
    )
    .fit(X_train, Y_train)
    .score(X_test, Y_test)
    for k in ks
]
symbols = "".join(Y_train)
majority = max("12", key=symbols.count)
baseline = np.mean([s == majority for s in "".join(Y_test)])
for k, score in zip(ks, scores):
    print(f"k = {k:2d}: symbol accuracy {score:.3f}")
print(f"always {majority!r}: {baseline:.3f}")

fig, ax = plt.subplots(figsize=(6, 4), layout="constrained")
ax.plot(ks, scores, "o-", label="kernel dependency estimation")
ax.axhline(baseline, color="k", ls="--", label=f"always '{majority}'")
ax.set_xlabel("neighbours k of the pre-image")
ax.set_ylabel("fraction of output symbols right")
ax.set_title("String prediction on 100 test strings")
ax.legend()

# %%
# The predictions, symbol by symbol
# ---------------------------------
# Each pair of rows is one test string: the true output above, the
# prediction (k = 5) below; red marks a wrong symbol.
n_show = 12
width = max(len(y) for y in Y_test[:n_show])
grid = np.full((2 * n_show, width), np.nan)
for i, (truth, pred) in enumerate(zip(Y_test[:n_show], Y_pred[:n_show])):
    grid[2 * i, : len(truth)] = 0
    grid[2 * i + 1, : len(pred)] = [2 if p != t else 1 for p, t in zip(pred, truth)]
fig, ax = plt.subplots(figsize=(6, 6), layout="constrained")
ax.imshow(grid, cmap=ListedColormap(["#dddddd", "#bbddbb", "#e06060"]), vmin=0, vmax=2)
for i, (truth, pred) in enumerate(zip(Y_test[:n_show], Y_pred[:n_show])):
    for j, (t, p) in enumerate(zip(truth, pred)):
        ax.text(j, 2 * i, t, ha="center", va="center", fontsize=8)
        ax.text(j, 2 * i + 1, p, ha="center", va="center", fontsize=8)
ax.set_yticks(np.arange(2 * n_show), ["true", "predicted"] * n_show, fontsize=7)
ax.set_xticks(range(0, width, 2))
ax.set_xlabel("position in the string")
ax.set_title("True and predicted output strings (red: wrong symbol)")
plt.show()
