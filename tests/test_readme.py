"""The README's Python examples run as written and print what they say."""

import os
from pathlib import Path
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def _python_blocks():
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def _run(index, capsys, namespace=None):
    pytest.importorskip("mlxtend")
    exec(
        compile(_python_blocks()[index], f"README.md[python block {index}]", "exec"),
        {} if namespace is None else namespace,
    )
    return capsys.readouterr().out.split()


def _bash_blocks():
    return re.findall(r"```bash\n(.*?)```", README.read_text(), flags=re.S)


def test_readme_has_the_examples_tested_here():
    assert len(_python_blocks()) == 8
    assert len(_bash_blocks()) == 3  # set-up, command line, installing by hand


def test_coming_from_scikit_learn_example_agrees_with_scikit_learn(capsys):
    (gap,) = _run(7, capsys)
    # our learned inverse map against scikit-learn's on the same coordinates
    assert float(gap) < 1e-8


@pytest.mark.slow
def test_denoiser_example_prints_what_its_comment_says(capsys):
    (mse,) = _run(0, capsys)
    # "11.3; the noise alone is 196" (the held-out split of the count is drawn
    # anew each run; on clean digits every block generalises, so it is 256)
    assert abs(float(mse) - 11.3) < 0.3


@pytest.mark.slow
def test_cross_validated_denoiser_example_prints_what_the_text_says(capsys):
    from preimage import KernelPCADenoiser

    namespace = {}
    gamma, n_components, mse = _run(3, capsys, namespace)
    search, X_train, X_test, X_noisy = (
        namespace[k] for k in ("denoiser", "X_train", "X_test", "X_noisy")
    )
    # What it prints is the refitted best candidate: the same denoiser fitted
    # independently on the same pairs gives the same digits.
    best = search.best_params_
    assert (gamma, n_components) == (str(round(best["gamma"], 3)), str(best["n_components"]))
    refit = KernelPCADenoiser(random_state=0, **best).fit(namespace["X_pairs"], X_train)
    out = refit.transform(X_noisy)
    np.testing.assert_allclose(search.transform(X_noisy), out, rtol=0, atol=1e-10)
    assert float(mse) == np.mean(np.sum((out - X_test) ** 2, axis=1)).round(1)
    # The text's claim, with a tolerance: "11.9" (the noise alone: 196), and
    # the count one of the candidates given.
    assert abs(float(mse) - 11.9) < 0.5
    assert best["n_components"] in (100, 200, 400)


@pytest.mark.slow
def test_three_step_example_converges(capsys):
    residual, success = _run(1, capsys)
    assert 0 < float(residual) < 2  # ‖Ψ − φ(z)‖² of a Gaussian kernel is below 2
    assert success == "True"


@pytest.mark.slow
def test_model_file_example_round_trips_exactly(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (same,) = _run(2, capsys)
    assert same == "True"
    assert (tmp_path / "digits8.npz").exists()


@pytest.mark.slow
def test_command_line_example_runs_as_written(tmp_path):
    """Each line of the README's command-line block, in a shell, in order."""
    pytest.importorskip("mlxtend")
    lines = [line.split("  #")[0] for line in _bash_blocks()[1].strip().splitlines()]
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": os.pathsep.join([bin_dir, os.environ.get("PATH", "")])}
    if shutil.which("preimage", path=env["PATH"]) is None:
        pytest.skip("the preimage console script is not installed beside this Python")
    for line in lines:
        result = subprocess.run(
            line, shell=True, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600
        )
        assert result.returncode == 0, (line, result.stderr)
        if line.startswith("preimage info"):
            assert "GaussianKernel(gamma=0.02)" in result.stdout
            assert re.search(r"n components:\s+400", result.stdout)
    denoised = np.load(tmp_path / "denoised.npy")
    assert denoised.shape == (100, 784)
    from preimage.datasets import load_mnist

    clean = load_mnist()[0][1::50]
    mse = np.mean(np.sum((denoised - clean) ** 2, axis=1))
    assert mse < 16, mse  # the noise alone is about 196
    pngs = sorted((tmp_path / "denoised").glob("*.png"))
    assert len(pngs) == 100
    from PIL import Image

    assert Image.open(pngs[0]).size == (28, 28)


@pytest.mark.slow
def test_nystroem_and_dask_examples_print_what_they_say(capsys):
    pytest.importorskip("dask.array")
    namespace = {}
    (mse,) = _run(4, capsys, namespace)
    # "about 16.6; the noise alone is 196"
    assert 14 < float(mse) < 19
    (diff,) = _run(5, capsys, namespace)
    assert float(diff) < 1e-8


@pytest.mark.slow
def test_reduced_svm_example_prints_what_its_comments_say(capsys):
    n_support, n_vectors, full, reduced = _run(6, capsys)
    assert int(n_vectors) == 100 and int(n_support) > 5 * int(n_vectors)
    # "0.926 → 0.911": the reduced machine loses little accuracy
    assert float(full) > 0.9 and float(full) - float(reduced) < 0.03
