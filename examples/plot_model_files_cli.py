"""
Saving a denoiser and using it from the command line
====================================================

You fitted a denoiser in Python and want to apply it elsewhere: in a batch
job, from a shell script, on someone else's machine. :func:`preimage.save_model`
writes it as a model file — NumPy arrays and JSON metadata with a checksum of
every array, never a pickle, so opening a file from someone else cannot run
code — and :func:`preimage.load_model` reads it back. The ``preimage``
command line reads the same files: ``preimage info`` says what a model holds,
``preimage denoise`` applies it to data in ``.npy``, ``.npz``, ``.csv``
files or folders of PNG images.
"""

# %%
# Fit and save
# ------------
from pathlib import Path
import shutil
import subprocess
import sys
import tempfile

import matplotlib.pyplot as plt
import numpy as np

from preimage import KernelPCADenoiser, load_model, save_model
from preimage.datasets import add_gaussian_noise, load_mnist
from preimage.plot import plot_image_grid

X, _ = load_mnist()  # sorted by class: shuffle before splitting
order = np.random.default_rng(0).permutation(len(X))
X_train, X_test = X[order[:1000]], X[order[1000:1010]]
X_noisy = add_gaussian_noise(X_test, 0.5, random_state=0)
denoiser = KernelPCADenoiser(200, gamma=0.02, random_state=0).fit(X_train)

folder = Path(tempfile.mkdtemp())
model_path = save_model(denoiser, folder / "digits.npz")
print(f"{model_path.name}: {model_path.stat().st_size / 1e6:.1f} MB")

# %%
# Load it back: the same numbers
# ------------------------------
same = load_model(model_path)
print("identical output:", np.array_equal(same.transform(X_noisy), denoiser.transform(X_noisy)))

# %%
# The command line on the same file
# ---------------------------------
# ``preimage COMMAND`` in a shell; here each command runs in a subprocess
# (``python -m preimage.cli``, the same program) and its output is printed.
np.save(folder / "noisy.npy", X_noisy)


def preimage_cli(*args):
    """Run ``preimage *args`` and print what it writes."""
    print("$ preimage", " ".join(args))
    done = subprocess.run(
        [sys.executable, "-m", "preimage.cli", *args], capture_output=True, text=True, cwd=folder
    )
    print(done.stdout + done.stderr)
    print("exit status", done.returncode)
    return done


preimage_cli("info", "digits.npz")

# %%
# Denoise the noisy digits into a ``.npy`` file, then try again: an existing
# output is refused unless ``--force`` is given, with exit status 1.
preimage_cli("denoise", "digits.npz", "noisy.npy", "-o", "denoised.npy", "--quiet")
preimage_cli("denoise", "digits.npz", "noisy.npy", "-o", "denoised.npy", "--quiet")

# %%
# What the command line wrote
# ---------------------------
# The file holds the same numbers as the denoiser in this process.
X_cli = np.load(folder / "denoised.npy")
print("same as in Python:", np.allclose(X_cli, denoiser.transform(X_noisy)))
plot_image_grid(
    [X_test, X_noisy, X_cli],
    ["clean", "noisy", "preimage denoise"],
    image_shape=(28, 28),
    title="Digits denoised from the command line with a saved model",
)
shutil.rmtree(folder)  # the temporary files
plt.show()
