"""The public API's annotations, checked.

* every public function and every public method of a public class (the names
  in ``__all__`` of the package and of each public module) annotates all its
  parameters and its return, so that a new unannotated one fails here;
* every public module declares ``__all__``, so that none escapes that check;
* mypy passes on the package with the configuration of ``pyproject.toml``,
  which checks the bodies of annotated functions against their annotations,
  and a program using the library gets its types from the annotations;
* ``py.typed`` ships with the package (PEP 561).
"""

import importlib
import inspect
from pathlib import Path
import tomllib
import types

from public_api import public_module_names
import pytest

import preimage

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "preimage"
PYPROJECT = ROOT / "pyproject.toml"
MYPY_CACHE = ROOT / ".mypy_cache"  # where `mypy` run by hand from the root keeps it

#: Dunder methods that are part of a class's public API.
PUBLIC_DUNDERS = ("__init__", "__call__")


def _missing_annotations(func, *, method=False):
    """The parameters of `func` without annotation, and ``"return"`` if the
    return has none (the first parameter of a method is exempt)."""
    signature = inspect.signature(func)  # follows __wrapped__ through decorators
    params = list(signature.parameters.values())[1 if method else 0 :]
    missing = [p.name for p in params if p.annotation is inspect.Parameter.empty]
    if signature.return_annotation is inspect.Signature.empty:
        missing.append("return")
    return missing


def _class_members(cls):
    """(qualified name, function, is_method) of the public methods and
    properties that `cls` and its bases of the library define."""
    for klass in cls.__mro__:
        if not klass.__module__.startswith("preimage"):
            continue
        for name, value in vars(klass).items():
            if name.startswith("_") and name not in PUBLIC_DUNDERS:
                continue
            where = f"{cls.__module__}.{cls.__qualname__}.{name}"
            if isinstance(value, property):
                yield where, value.fget, True
            elif isinstance(value, staticmethod):
                yield where, value.__func__, False
            elif isinstance(value, classmethod):
                yield where, value.__func__, True
            elif inspect.isfunction(value):
                yield where, value, True


def _public_callables(modules):
    """(qualified name, function, is_method) of every public callable the
    `modules` export in ``__all__``."""
    for module in modules:
        for name in module.__all__:
            obj = getattr(module, name)
            where = f"{module.__name__}.{name}"
            if isinstance(obj, types.ModuleType):
                continue
            if inspect.isclass(obj):
                if obj.__module__.startswith("preimage"):
                    yield from _class_members(obj)
            elif inspect.isfunction(obj):
                yield where, obj, False
            elif inspect.isfunction(getattr(obj, "callback", None)):  # a click command
                yield where, obj.callback, False


def _unannotated(modules):
    """``"name: missing, ..."`` for every public callable lacking annotations."""
    found = {}
    for where, func, method in _public_callables(modules):
        missing = _missing_annotations(func, method=method)
        if missing:
            found[where] = f"{where}: {', '.join(missing)}"
    return sorted(found.values())


def _public_modules():
    return [importlib.import_module(name) for name in public_module_names()]


def test_public_modules_declare_all():
    assert [m.__name__ for m in _public_modules() if not hasattr(m, "__all__")] == []


def test_public_callables_are_annotated():
    modules = _public_modules()
    assert sum(1 for _ in _public_callables(modules)) > 300  # the walk finds the API
    assert _unannotated(modules) == []


def test_the_annotation_rule_sees_what_it_forbids():
    """The rule itself, on a module written to break it."""
    probe = types.ModuleType("preimage._probe_for_the_typing_test")
    source = (
        "from typing import Any\n"
        "def annotated(x: int, *, y: str = 'a', **kw: Any) -> int: ...\n"
        "def bare(x, y: int = 0): ...\n"
        "class Probe:\n"
        "    def __init__(self, a: int) -> None: ...\n"
        "    def method(self, b) -> int: ...\n"
        "    def _private(self, c): ...\n"
        "    @property\n"
        "    def value(self): ...\n"
        "    @classmethod\n"
        "    def make(cls) -> 'Probe': ...\n"
        "    @staticmethod\n"
        "    def helper(d: int): ...\n"
        "__all__ = ['annotated', 'bare', 'Probe']\n"
    )
    exec(compile(source, probe.__name__, "exec"), probe.__dict__)
    assert _unannotated([probe]) == [
        "preimage._probe_for_the_typing_test.Probe.helper: return",
        "preimage._probe_for_the_typing_test.Probe.method: b",
        "preimage._probe_for_the_typing_test.Probe.value: return",
        "preimage._probe_for_the_typing_test.bare: x, return",
    ]


def _mypy(*paths, env=None, monkeypatch=None):
    from mypy import api  # in the test extra: its absence is a failure, not a skip

    for key, value in (env or {}).items():
        monkeypatch.setenv(key, value)
    return api.run(
        ["--config-file", str(PYPROJECT), "--cache-dir", str(MYPY_CACHE), *map(str, paths)]
    )


@pytest.mark.slow
def test_mypy_passes():
    """mypy with pyproject.toml's [tool.mypy] on the whole package (about
    30 s without a cache, 1 s with one)."""
    out, err, status = _mypy(PACKAGE)
    assert status == 0, out + err


@pytest.mark.slow
def test_mypy_checks_a_program_against_the_annotations(tmp_path, monkeypatch):
    """A program that uses a result as what it is not is refused: the
    annotations reach a user's type checker."""
    program = tmp_path / "program.py"
    program.write_text(
        "import numpy as np\n"
        "from preimage.kernels import GaussianKernel\n"
        "\n"
        "K: str = GaussianKernel(gamma=1.0).block(np.zeros((2, 1)))\n"
        "n: int = GaussianKernel(gamma=1.0).block(np.zeros((2, 1))).shape[0]\n"
    )
    out, err, status = _mypy(
        program, env={"MYPYPATH": str(PACKAGE.parent)}, monkeypatch=monkeypatch
    )
    assert status == 1, out + err
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert len(errors) == 1, out
    assert "program.py:4:" in errors[0] and 'variable has type "str"' in errors[0], out


def test_py_typed_ships_with_the_package():
    assert (PACKAGE / "py.typed").is_file()
    package_data = tomllib.loads(PYPROJECT.read_text())["tool"]["setuptools"]["package-data"]
    assert "py.typed" in package_data["preimage"]
    assert (Path(preimage.__file__).parent / "py.typed").is_file()
