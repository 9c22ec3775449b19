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


def test_demo_prints_table_and_never_overwrites_its_figure(tmp_path):
    pytest.importorskip("matplotlib")
    args = ("demo", "--n-train", "300", "--n-test", "30", "--n-components", "20",
            "--output-dir", "out")
    first = run_cli(*args, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    rows = re.findall(r"^\s+(\d+)\s+([\d.]+)\s+([\d.]+)$", first.stdout, flags=re.M)
    assert rows, first.stdout
    for q, clean, noisy in rows:
        # noise lies mostly outside the principal subspace of clean digits
        assert float(clean) < float(noisy), (q, clean, noisy)
    figure = tmp_path / "out" / "kpca_digits.png"
    assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    before = figure.read_bytes()

    second = run_cli(*args, cwd=tmp_path)
    assert second.returncode == 0, second.stderr
    assert figure.read_bytes() == before
    assert (tmp_path / "out" / "kpca_digits-1.png").exists()


def test_demo_rejects_more_digits_than_exist(tmp_path):
    result = run_cli("demo", "--n-train", "5000", "--n-test", "10", cwd=tmp_path)
    assert result.returncode == 2
    assert "n-train" in result.stderr
