"""Every public docstring follows one standard.

- numpydoc's validation passes, with the checks of ``[tool.numpydoc_validation]``
  in pyproject.toml (numpydoc is a test tool; ``make docs`` builds the site
  with the same checks and fails on a docstring that breaks one);
- every public class and function has an Examples section with a doctest
  (``--doctest-modules`` runs it);
- the names that implement mathematics carry the equation (``:math:`` or
  ``.. math::``) and the paper (a References section); the few that hold no
  mathematics of their own (file formats, configuration, containers,
  argument checks) are listed in ``NO_EQUATION``;
- mathematics is written one way, in LaTeX: no mathematical Unicode in the
  docstrings the site renders (public modules, names and members).
"""

import functools
import importlib
import inspect
from pathlib import Path
import re
import tomllib

from public_api import public_members, public_module_names, public_objects
import pytest

ROOT = Path(__file__).resolve().parents[1]
OBJECTS = dict(public_objects())

#: Public names with no equation or paper of their own.
NO_EQUATION = {
    # warnings, errors and configuration
    "preimage.ConfigurationWarning",
    "preimage.ConvergenceWarning",
    "preimage.MemoryBudgetError",
    "preimage.ModelFileError",
    "preimage.NumericalWarning",
    "preimage.config_context",
    "preimage.delayed",
    "preimage.get_config",
    "preimage.set_config",
    # model files and data files
    "preimage.load_model",
    "preimage.model_info",
    "preimage.save_model",
    # result containers
    "preimage.PreimageResult",
    "preimage.kpca.KernelPCAResult",
    "preimage.reduced_set.ReducedSetResult",
    "preimage.sparse_regression.SequentialSVRResult",
    "preimage.sparse_regression.WienerState",
    # argument checks and plumbing
    "preimage.kernels.CallableKernel",
    "preimage.kernels.CallableSequenceKernel",
    "preimage.kernels.PairwiseKernel",
    "preimage.kernels.SequenceKernel",
    "preimage.kernels.make_kernel",
    "preimage.kernels.make_sklearn_kernel",
    "preimage.solvers.CallablePreimage",
    "preimage.solvers.PreimageSolver",
    "preimage.solvers.make_solver",
    "preimage.datasets.load_digits",
    "preimage.datasets.load_mnist",
    "preimage.datasets.random_shifts",
}
#: Whole modules of applications: files, plots, the command line, reports.
NO_EQUATION_MODULES = (
    "preimage.cli.",
    "preimage.io.",
    "preimage.cli._demo.",
    "preimage.io.",
    "preimage.plot.",
    "reproductions.",
    "preimage.exceptions.",
)

# Greek letters, super- and subscripts, arrows, mathematical operators and
# the symbols of norms and products: written as :math:`...` instead.
MATH_UNICODE = re.compile(
    "[\u0370-\u03ff\u00b2\u00b3\u00b9\u00b7\u00d7\u00bd\u2016\u2070-\u209f"
    "\u2190-\u21ff\u2200-\u22ff\u27e8\u27e9\u1d40-\u1d6a\u2032]"
)


@functools.cache
def _checks():
    """numpydoc's ``validate`` function, a validator and the checks of
    pyproject.toml, as numpydoc resolves them."""
    validate = pytest.importorskip("numpydoc.validate")
    with open(ROOT / "pyproject.toml", "rb") as file:
        config = tomllib.load(file)["tool"]["numpydoc_validation"]

    class Validator(validate.Validator):
        """numpydoc's validator, for a module with no ``def`` or ``class`` line
        too (a package whose ``__init__`` only imports lazily), which numpydoc
        fails to locate in its file (StopIteration)."""

        def __init__(self, obj_name):
            super().__init__(validate.get_doc_object(self._load_obj(obj_name)))

        @property
        def source_file_def_line(self):
            try:
                return super().source_file_def_line
            except StopIteration:
                return None

    return validate, Validator, validate.get_validation_checks(set(config["checks"]))


def _rendered_docstrings():
    """``(dotted name, docstring)`` of each public module, name and public
    member: every docstring the site renders."""
    for module_name in public_module_names():
        yield module_name, importlib.import_module(module_name).__doc__ or ""
    for name, obj in OBJECTS.items():
        yield name, inspect.getdoc(obj) or ""
        if inspect.isclass(obj):
            for member, value in public_members(obj):
                target = value.fget if isinstance(value, property) else value
                yield f"{name}.{member}", inspect.getdoc(target) or ""


RENDERED = dict(_rendered_docstrings())


@pytest.mark.parametrize("name", list(RENDERED))
def test_numpydoc_validation(name):
    validate, validator, checks = _checks()
    errors = [
        f"{code}: {message}"
        for code, message in validate.validate(name, validator_cls=validator)["errors"]
        if code in checks
    ]
    assert errors == [], f"{name}:\n" + "\n".join(errors)


@pytest.mark.parametrize("name", list(OBJECTS))
def test_every_public_name_has_an_example(name):
    doc = inspect.getdoc(OBJECTS[name]) or ""
    assert re.search(r"^Examples\n-{8}\n(.*\n)*?>>> ", doc + "\n", re.MULTILINE), name


@pytest.mark.parametrize(
    "name",
    [n for n in OBJECTS if n not in NO_EQUATION and not n.startswith(NO_EQUATION_MODULES)],
)
def test_the_mathematics_carries_its_equation_and_paper(name):
    doc = inspect.getdoc(OBJECTS[name]) or ""
    assert ".. math::" in doc or ":math:`" in doc, f"{name} states no equation"
    assert re.search(r"^References\n-{10}$", doc, re.MULTILINE), f"{name} cites no paper"


def test_the_exemptions_name_public_names():
    assert NO_EQUATION - set(OBJECTS) == set()


@pytest.mark.parametrize("name", list(RENDERED))
def test_mathematics_is_written_in_latex(name):
    doc = RENDERED[name]
    found = sorted(set(MATH_UNICODE.findall(doc)))
    assert found == [], f"{name} writes mathematics in Unicode: {''.join(found)}"
    # A backslash of LaTeX in a docstring that is not raw (``"\alpha"``
    # read as BEL + "lpha"); click's form feed ends a command's help text.
    controls = sorted({hex(ord(c)) for c in doc if ord(c) < 32 and c not in "\n\f"})
    assert controls == [], f"{name} holds control characters {controls}"
