"""The house rules of docs/architecture.md, checked on the source itself.

* the layers: each part of the library imports only from the layers below it
  (the import-linter contract in pyproject.toml, run here);
* no private name crosses a family: a name with a leading underscore is
  imported only inside its own family (a subpackage, or a top-level module),
  and a private submodule of a subpackage only from inside that subpackage —
  the top-level private modules (``_validation``, ``_blocks``, ...) are the
  shared toolkit whose public names every family may import;
* modules stay small: none outside ``reproductions/`` over 650 lines.
"""

import ast
from pathlib import Path
import subprocess
import sys

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "preimage"
# In the formatter's style (ruff format: a call that does not fit on a line
# takes a line per argument). The same limit was 450 lines in the compact
# style before it; the formatter made the modules up to 40 % longer.
MAX_LINES = 650


def _modules():
    """(dotted name, path) of every module of the library."""
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        yield ".".join(parts), path


MODULES = dict(_modules())


def _family(module):
    """The family of a module: ``preimage.kernels._base`` → ``kernels``,
    ``preimage._validation`` → ``_validation``, ``preimage`` → ``preimage``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def _imports(module, path):
    """(line, target module, imported name or None) of every import of the
    library's own modules in `module`, relative ones resolved."""
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")[: len(module.split(".")) - node.level + is_package]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] == "preimage":
                for alias in node.names:
                    yield node.lineno, target, alias.name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "preimage":
                    yield node.lineno, alias.name, None


def _private_step(module):
    """The first private component below the family (``kernels._base`` is a
    private submodule of ``kernels``), or None."""
    parts = module.split(".")[2:]
    return next((p for p in parts if p.startswith("_") and not p.startswith("__")), None)


def _violations():
    for module, path in MODULES.items():
        for line, target, name in _imports(module, path):
            # `from .package import _module` names a module: judge the module
            if name is not None and f"{target}.{name}" in MODULES:
                target, name = f"{target}.{name}", None
            if _family(target) == _family(module):
                continue
            where = f"{path.relative_to(ROOT)}:{line}"
            if _private_step(target):
                yield f"{where} imports the private module {target}"
            if name is not None and name.startswith("_") and not name.startswith("__"):
                yield f"{where} imports the private name {name} from {target}"


def test_layers_hold():
    """The import-linter contract of pyproject.toml: no import reaches up."""
    lint = Path(sys.executable).parent / "lint-imports"
    done = subprocess.run(
        [str(lint), "--config", str(ROOT / "pyproject.toml"), "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_no_private_name_crosses_a_family():
    assert list(_violations()) == []


def test_the_private_name_rule_sees_what_it_forbids(tmp_path, monkeypatch):
    """The rule itself, on a module written to break it."""
    bad = PACKAGE / "solvers" / "_probe_for_the_architecture_test.py"
    monkeypatch.setitem(MODULES, "preimage.solvers._probe_for_the_architecture_test", bad)
    source = (
        "from ..kernels._base import RadialKernel\n"
        "from .._validation import check_array_2d, _check_top\n"
        "from ._starts import check_starts\n"
    )
    monkeypatch.setattr(
        Path,
        "read_text",
        lambda self, *a, **k: source if self == bad else Path.read_bytes(self).decode(),
    )
    found = [v for v in _violations() if "_probe_for" in v]
    assert len(found) == 2
    assert any("private module preimage.kernels._base" in v for v in found)
    assert any("private name _check_top" in v for v in found)


@pytest.mark.parametrize(
    "module", [m for m in MODULES if not m.startswith("preimage.reproductions")]
)
def test_modules_stay_small(module):
    lines = MODULES[module].read_text().count("\n")
    assert lines <= MAX_LINES, f"{module} has {lines} lines: split it by seam"
