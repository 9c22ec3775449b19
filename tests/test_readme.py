"""The README's Python examples run as written and print what they say."""

from pathlib import Path
import re

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def _python_blocks():
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def _run(index, capsys, namespace=None):
    pytest.importorskip("mlxtend")
    exec(compile(_python_blocks()[index], f"README.md[python block {index}]", "exec"),
         {} if namespace is None else namespace)
    return capsys.readouterr().out.split()


def test_readme_has_the_examples_tested_here():
    assert len(_python_blocks()) == 5


def test_denoiser_example_prints_what_its_comment_says(capsys):
    (mse,) = _run(0, capsys)
    # "about 13; the noise alone is 196"
    assert 10 < float(mse) < 16


def test_three_step_example_converges(capsys):
    residual, success = _run(1, capsys)
    assert 0 < float(residual) < 2     # ‖Ψ − φ(z)‖² of a Gaussian kernel is below 2
    assert success == "True"


def test_nystroem_and_dask_examples_print_what_they_say(capsys):
    pytest.importorskip("dask.array")
    namespace = {}
    (mse,) = _run(2, capsys, namespace)
    # "about 16.6; the noise alone is 196"
    assert 14 < float(mse) < 19
    (diff,) = _run(3, capsys, namespace)
    assert float(diff) < 1e-8


def test_reduced_svm_example_prints_what_its_comments_say(capsys):
    n_support, n_vectors, full, reduced = _run(4, capsys)
    assert int(n_vectors) == 100 and int(n_support) > 5 * int(n_vectors)
    # "0.926 → 0.911": the reduced machine loses little accuracy
    assert float(full) > 0.9 and float(full) - float(reduced) < 0.03
