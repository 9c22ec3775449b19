"""The public API: the modules a user imports and the names they export.

A public module is one with no private component in its dotted name. Its public names are those of ``__all__``;
a public member of a public class is one its own body defines whose name has
no leading underscore (scikit-learn's generated ``set_*_request`` methods
and the methods a class inherits are documented where they are defined).
"""

import importlib
import inspect
from pathlib import Path
import types

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "preimage"


def public_module_names():
    """Dotted names of the public modules, sorted by path."""
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        name = ".".join(parts)
        if not any(p.startswith("_") for p in parts):
            names.append(name)
    return names


def public_objects():
    """``(dotted name, object)`` of every public class and function, once each,
    under the first public module that exports it (``preimage.KernelPCA``
    before ``preimage.KernelPCA``)."""
    seen = set()
    for module_name in public_module_names():
        module = importlib.import_module(module_name)
        for name in module.__all__:
            obj = getattr(module, name)
            if not (inspect.isclass(obj) or inspect.isfunction(obj)) or id(obj) in seen:
                continue
            seen.add(id(obj))
            yield f"{module_name}.{name}", obj


def public_members(cls):
    """``(name, object)`` of the public methods and properties `cls` defines."""
    for name, value in vars(cls).items():
        if name.startswith("_") or (name.startswith("set_") and name.endswith("_request")):
            continue
        if isinstance(value, types.FunctionType | property | classmethod | staticmethod):
            yield name, value
