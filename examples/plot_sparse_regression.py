r"""
Wiener against sequential sparse regression
===========================================

You want to fit a smooth function from a few samples with a kernel, and you
want the model to be small. The RKHS Wiener solution
(:class:`preimage.WienerRegressor`, ``a = K⁺y``) interpolates the samples
with one coefficient for every one of them. Vijayakumar and Wu's sequential
support vector regression (:class:`preimage.SequentialSVR`) tolerates errors
up to :math:`\varepsilon` and keeps only the samples it needs: a sparse expansion, found by a
simple gradient algorithm with no quadratic-programming package. Both take
any kernel of :mod:`preimage.kernels`, here the sine kernel of order N, whose
feature space holds exactly the trigonometric polynomials up to frequency N.
"""

# %%
# A sum of sines, sampled 20 times
# --------------------------------
# :func:`preimage.datasets.make_sine_sum` is the problem of Vijayakumar & Wu
# (1999): :math:`4 - \sin x + \sin 2x - \sin 3x + \sin 4x - \sin 5x` on one period,
# here with a little noise on the targets.
import matplotlib.pyplot as plt
import numpy as np

from preimage import SequentialSVR, WienerRegressor
from preimage.datasets import make_sine_sum, sine_sum

x, y = make_sine_sum(20, noise=0.1, random_state=0)
x_grid = np.linspace(-np.pi, np.pi, 400)[:, None]
truth = sine_sum(x_grid[:, 0])

# %%
# Both regressors with the sine kernel of order 5
# -----------------------------------------------
wiener = WienerRegressor(kernel="sine", kernel_params={"order": 5}).fit(x, y)
fits = {"Wiener (all samples)": wiener.predict(x_grid)}
sparse = {}
for epsilon in (0.1, 0.3):
    svr = SequentialSVR(kernel="sine", kernel_params={"order": 5}, epsilon=epsilon)
    sparse[epsilon] = svr.fit(x, y)
    fits[f"sequential SVR, ε = {epsilon}"] = svr.predict(x_grid)


def nmse(pred):
    """Mean squared error against the noiseless function, over its variance."""
    return np.mean((pred - truth) ** 2) / np.var(truth)


print(f"Wiener: {wiener.n_vectors_} vectors, nMSE {nmse(fits['Wiener (all samples)']):.4f}")
for epsilon, svr in sparse.items():
    pred = fits[f"sequential SVR, ε = {epsilon}"]
    print(
        f"sequential SVR, ε = {epsilon}: {svr.n_vectors_} vectors, nMSE {nmse(pred):.4f}, "
        f"converged {svr.converged_}"
    )

# %%
# The fits and the samples each keeps
# -----------------------------------
# Circled samples are the support vectors of the sparse fit: the samples
# whose coefficient is not zero. The others could be deleted from the model
# without changing a prediction.
fig, axes = plt.subplots(1, 3, figsize=(13, 4), sharey=True, layout="constrained")
for ax, (label, pred) in zip(axes, fits.items()):
    ax.plot(x_grid[:, 0], truth, color="0.6", lw=3, label="true function")
    ax.plot(x_grid[:, 0], pred, color="tab:blue", label="fit")
    ax.plot(x[:, 0], y, "k.", label="samples")
    if label.startswith("sequential"):
        svr = sparse[float(label.split("= ")[1])]
        kept = np.isin(x[:, 0], svr.support_vectors_[:, 0])
        ax.plot(
            x[kept, 0],
            y[kept],
            "o",
            mfc="none",
            mec="tab:red",
            ms=10,
            label=f"kept samples ({svr.n_vectors_})",
        )
        ax.set_title(f"{label}\n{svr.n_vectors_} of 20 samples kept, nMSE {nmse(pred):.3f}")
    else:
        ax.set_title(f"{label}\n20 of 20 samples kept, nMSE {nmse(pred):.3f}")
    ax.set_xlabel("x")
    ax.legend(loc="lower left", fontsize=8)
axes[0].set_ylabel("y")
fig.suptitle("Sum of sines from 20 noisy samples, sine kernel of order 5")
plt.show()
