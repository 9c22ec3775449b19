"""`import preimage` and `preimage --help` load only what they need.

Each package imports its public names at their first use (lazy_loader, reading
the package's ``__init__.pyi``), and the command line's choices come from
registries (preimage._utils.lazy) that know their names
without importing what they name. What a fresh interpreter has loaded
(``sys.modules``) is checked here, never the time it took
(benchmarks/bench_import.py times it), so that a heavy import added at the
top of a module fails a test instead of slowing every start in silence.
"""

import ast
import importlib
import json
import os
from pathlib import Path
import subprocess
import sys

import pytest

import preimage
from preimage import PREIMAGE_METHODS
from preimage.kernels import KERNELS, Kernel
from preimage.solvers import PreimageSolver

SRC = Path(preimage.__file__).parents[1]

#: What neither `import preimage` nor the command line's help may load: the
#: numerical stack, and what only some commands need (figures, Dask, images,
#: progress bars).
HEAVY = (
    "numpy",
    "scipy",
    "scipy.optimize",
    "sklearn",
    "sklearn.linear_model",
    "pandas",
    "matplotlib",
    "dask",
    "PIL",
    "tqdm",
)

#: Every package of the library that exports its names at their first use.
LAZY_PACKAGES = sorted(
    ".".join(path.parent.relative_to(SRC).parts)
    for path in (SRC / "preimage").rglob("__init__.py")
    if "lazy_loader.attach_stub" in path.read_text()
)


def _loaded(code):
    """The modules a fresh interpreter has after running `code` (which may
    print; the modules are the last line of its output)."""
    code += "\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))\n"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(SRC), os.environ.get("PYTHONPATH")])),
    }
    run = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr
    return set(json.loads(run.stdout.splitlines()[-1])), run.stdout


def _help(*args):
    return (
        "from preimage.cli import main\n"
        f"try:\n    main({list(args) + ['--help']!r})\n"
        "except SystemExit as exc:\n    assert exc.code == 0, exc.code\n"
    )


def test_import_preimage_loads_none_of_the_numerical_stack():
    modules, _ = _loaded("import preimage")
    assert "preimage" in modules
    assert sorted(set(HEAVY) & modules) == []
    assert sorted(m for m in modules if m.startswith("preimage.")) == ["preimage._version"]


def test_a_name_asked_for_is_imported_then():
    """The harness sees what is loaded: the estimators come with scikit-learn."""
    modules, _ = _loaded("from preimage import KernelPCA")
    assert {"preimage.kpca._estimator", "sklearn", "numpy"} <= modules


@pytest.mark.parametrize("command", [(), ("fit",), ("denoise",), ("demo",), ("info",)])
def test_help_loads_none_of_the_numerical_stack(command):
    modules, output = _loaded(_help(*command))
    assert "Usage:" in output and "preimage.cli" in modules
    assert sorted(set(HEAVY) & modules) == []
    if command == ("fit",):  # its choices are shown, from the registries' names
        assert all(name in output for name in PREIMAGE_METHODS)
        assert "laplacian" in output


def test_registries_know_their_names_without_importing_what_they_name():
    modules, output = _loaded(
        "from preimage import PREIMAGE_METHODS\nfrom preimage.kernels import KERNELS\n"
        "print((list(PREIMAGE_METHODS), list(KERNELS), 'mds' in PREIMAGE_METHODS, "
        "len(KERNELS)))"
    )
    assert output.splitlines()[0] == str(
        (list(PREIMAGE_METHODS), list(KERNELS), True, len(KERNELS))
    )
    assert not any(
        m.startswith(("preimage.solvers._", "preimage.kernels._")) and not m.endswith("._names")
        for m in modules
    )
    assert sorted(set(HEAVY) & modules) == []


def test_every_method_is_registered_by_its_solvers_name_in_alphabetical_order():
    assert list(PREIMAGE_METHODS) == sorted(PREIMAGE_METHODS)
    for name, cls in PREIMAGE_METHODS.items():
        assert issubclass(cls, PreimageSolver) and cls.name == name


def test_every_kernel_name_makes_a_kernel():
    assert all(issubclass(cls, Kernel) for cls in KERNELS.values())


def test_a_registry_is_a_read_only_mapping_that_refuses_unknown_names():
    with pytest.raises(KeyError, match="nope"):
        PREIMAGE_METHODS["nope"]
    with pytest.raises(TypeError):
        PREIMAGE_METHODS["nope"] = PreimageSolver
    assert None not in KERNELS and [] not in KERNELS and "rbf" in KERNELS
    assert dict(KERNELS)["rbf"] is KERNELS["gaussian"]
    assert "GaussianKernel" in repr(KERNELS)


def test_the_packages_export_their_names_lazily():
    """The parametrized checks below have packages to check."""
    assert {
        "preimage",
        "preimage.datasets",
        "preimage.kernels",
        "preimage.kpca",
        "preimage.plot",
        "preimage.solvers",
    } <= set(LAZY_PACKAGES)


@pytest.mark.parametrize("package", LAZY_PACKAGES)
def test_every_exported_name_is_there_and_listed(package):
    module = __import__(package, fromlist=["_"])
    for name in module.__all__:
        assert getattr(module, name) is not None
    with pytest.raises(AttributeError, match=f"No {package} attribute nope"):
        module.nope


@pytest.mark.parametrize("package", LAZY_PACKAGES)
def test_dir_lists_the_exports_without_the_lazy_machinery(package):
    # dir() is lazy_loader's list of the exports, whether imported yet or not
    # (a subpackage imported since adds nothing a user does not see already).
    module = importlib.import_module(package)
    listed = dir(module)
    assert listed == sorted(set(listed))
    assert set(listed) == set(module.__all__) - {"__version__"}
    assert not {"lazy_loader", "__getattr__", "__dir__"} & set(listed)


def test_star_import_gives_all_of_preimage():
    namespace = {}
    exec("from preimage import *", namespace)
    assert set(preimage.__all__) <= set(namespace)


def _stub_imports(package):
    """(name, alias) of every name the package's __init__.pyi imports."""
    tree = ast.parse((SRC / package.replace(".", "/") / "__init__.pyi").read_text())
    return [
        (alias.name, alias.asname)
        for node in tree.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    ]


@pytest.mark.parametrize("package", LAZY_PACKAGES)
def test_type_checkers_and_the_lazy_exports_see_the_same_names(package):
    """The stub's imports are what type checkers read (each an explicit
    re-export, ``name as name``) and what lazy_loader exports at run time;
    every name resolves."""
    imports = _stub_imports(package)
    assert [name for name, alias in imports if alias != name] == []
    module = importlib.import_module(package)
    assert set(module.__all__) - {"__version__"} == {name for name, _ in imports}
    assert all(getattr(module, name) is not None for name, _ in imports)
