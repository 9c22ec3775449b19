"""Running the command line as a user runs it: ``python -m preimage.cli`` in a
subprocess that imports the same package as this test run, wherever it lives."""

import os
from pathlib import Path
import subprocess
import sys

import preimage

#: The environment of the subprocesses: this run's, with the package's folder
#: and the repository's root (``python -m reproductions``) first on PYTHONPATH.
ROOT = Path(__file__).resolve().parents[1]
ENV = {
    **os.environ,
    "PYTHONPATH": os.pathsep.join(
        filter(
            None,
            [str(Path(preimage.__file__).parents[1]), str(ROOT), os.environ.get("PYTHONPATH")],
        )
    ),
}


def run_cli(*args, cwd, timeout=300, **kwargs):
    """``preimage ARGS`` in `cwd`: the completed process, its output as text."""
    return subprocess.run(
        [sys.executable, "-m", "preimage.cli", *map(str, args)],
        cwd=cwd,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=timeout,
        **kwargs,
    )


def cli_runner():
    """click's ``CliRunner`` with standard error captured apart from standard
    output, on every click release (before 8.2 that needs ``mix_stderr=False``;
    8.2 removed the argument and always keeps them apart)."""
    import inspect

    from click.testing import CliRunner

    if "mix_stderr" in inspect.signature(CliRunner).parameters:
        return CliRunner(mix_stderr=False)
    return CliRunner()
