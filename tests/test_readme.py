"""The README's Python examples run as written."""

from pathlib import Path
import re

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def _python_blocks():
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


@pytest.mark.parametrize("index", range(len(_python_blocks())))
def test_readme_example_runs(index, capsys):
    pytest.importorskip("mlxtend")
    exec(compile(_python_blocks()[index], f"README.md[python block {index}]", "exec"), {})
    printed = capsys.readouterr().out.strip()
    assert printed, "the example is meant to print its result"
    assert float(printed.split()[-1]) > 0
