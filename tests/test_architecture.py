"""The house rules of docs/architecture.md, checked on the source itself.

* the layers: each folder of the library imports only from the layers below
  it (the import-linter contract in pyproject.toml, run here);
* no import cycle between modules, ``TYPE_CHECKING`` imports included;
* no private name (a leading underscore) is imported from another folder;
* modules stay small: at most 400 lines of code (docstrings, comments and
  blank lines not counted), and no top-level private module but the shared
  toolkit ``_utils`` and ``_version``;
* no code is written twice: pylint's similarity checker finds no run of seven
  or more lines that stands in two places (docstrings, comments, imports and
  signatures aside; a run of six is scikit-learn's ``__init__`` storing the
  same first parameters as another estimator's).
"""

import ast
import io
from pathlib import Path
import subprocess
import sys
import tokenize

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "preimage"
MAX_CODE_LINES = 400


def _modules():
    """(dotted name, path) of every module of the library."""
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        yield ".".join(parts), path


MODULES = dict(_modules())


def code_lines(source):
    """The number of lines holding a token other than a string, a comment or
    whitespace: the lines of code, docstrings not counted."""
    skip = {
        tokenize.STRING,
        tokenize.COMMENT,
        tokenize.NL,
        tokenize.NEWLINE,
        tokenize.INDENT,
        tokenize.DEDENT,
        tokenize.ENCODING,
        tokenize.ENDMARKER,
    }
    skip |= {
        getattr(tokenize, n)
        for n in ("FSTRING_START", "FSTRING_MIDDLE", "FSTRING_END")
        if hasattr(tokenize, n)
    }
    lines = set()
    for token in tokenize.tokenize(io.BytesIO(source.encode()).readline):
        if token.type not in skip:
            lines.update(range(token.start[0], token.end[0] + 1))
    return len(lines)


def _folder(module):
    """The folder of a module: ``preimage.kernels._base`` → ``kernels``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def _private_imports():
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.ImportFrom) or node.level or not node.module:
                continue
            if node.module.split(".")[0] != "preimage" or _folder(node.module) == _folder(module):
                continue
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    yield f"{path.relative_to(ROOT)}:{node.lineno} imports {alias.name}"


def _cycles(graph):
    """(module, ..., module) for every import that leads back to its importer."""
    for module in sorted(graph.modules):
        for imported in graph.find_modules_directly_imported_by(module):
            chain = graph.find_shortest_chain(importer=imported, imported=module)
            if chain:
                yield (module, *chain)


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


def test_no_import_cycle():
    assert list(_cycles(grimp.build_graph("preimage", cache_dir=None))) == []


def test_the_cycle_check_sees_a_cycle():
    graph = grimp.ImportGraph()
    for module in ("p.a", "p.b", "p.c"):
        graph.add_module(module)
    graph.add_import(importer="p.a", imported="p.b")
    graph.add_import(importer="p.b", imported="p.a")
    graph.add_import(importer="p.b", imported="p.c")
    assert sorted(_cycles(graph)) == [("p.a", "p.b", "p.a"), ("p.b", "p.a", "p.b")]


def test_no_private_name_crosses_a_folder():
    assert list(_private_imports()) == []


def test_code_lines_count_code_only():
    source = '"""Doc\n\nstring."""\n\n# comment\nx = 1  # here\ny = f"{x}"\n'
    assert code_lines(source) == 2


@pytest.mark.parametrize("module", list(MODULES))
def test_modules_stay_small(module):
    n = code_lines(MODULES[module].read_text())
    assert n <= MAX_CODE_LINES, f"{module} has {n} lines of code"


def _similar_runs(path, min_lines=7):
    """pylint's report of the runs of `min_lines` or more lines that stand twice under `path`."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pylint",
            "--disable=all",
            "--enable=duplicate-code",
            f"--min-similarity-lines={min_lines}",
            "--ignore-docstrings=y",
            "--ignore-comments=y",
            "--ignore-imports=y",
            "--ignore-signatures=y",
            "--score=n",
            str(path),
        ],
        capture_output=True,
        text=True,
        cwd=path if path.is_dir() else path.parent,
    )
    return done.stdout


def test_no_code_is_written_twice():
    assert "Similar lines" not in _similar_runs(PACKAGE)


def test_the_duplicate_check_sees_a_copy(tmp_path):
    body = "".join(f"    total = total * {i} + x\n" for i in range(8))
    for name in ("a", "b"):
        (tmp_path / f"{name}.py").write_text(
            f"def {name}(x):\n    total = 0\n{body}    return total\n"
        )
    assert "Similar lines in 2 files" in _similar_runs(tmp_path)


def test_no_top_level_private_module_but_the_toolkit():
    private = {p.name for p in PACKAGE.iterdir() if p.name.startswith("_")}
    assert private - {"__init__.py", "__init__.pyi", "__pycache__"} == {"_utils", "_version.py"}
