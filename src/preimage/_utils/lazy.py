"""Names imported at their first use: the packages' exports and the registries.

``import preimage`` imports none of the library's modules, and so none of
NumPy, SciPy or scikit-learn: each package's ``__init__`` lists where its
public names live (the imports of its ``if TYPE_CHECKING:`` block, which
static type checkers read too) and gets, from :func:`lazy_exports`, a module
``__getattr__`` and ``__dir__`` (PEP 562) that import a name's module the
first time the name is asked for (``preimage.KernelPCA``, ``from
preimage.kernels import GaussianKernel``) and keep it in the package, so the
next access is an ordinary attribute. The command line starts, and answers
``--help``, without the numerical stack.

A registry whose names are needed before its objects (the command line
offers every pre-image method and kernel by name) is a :class:`LazyRegistry`:
a read-only mapping that knows its names and where each object lives, and
imports an object when it is looked up.

Only the standard library is imported here.
"""

from collections.abc import Mapping
import importlib
import sys

__all__ = ["LazyRegistry", "lazy_exports", "type_checking_imports"]


def lazy_exports(package, source):
    """A package's ``__getattr__`` and ``__dir__`` that import its names at first use.

    The names and where they live are read from the package's own
    ``if TYPE_CHECKING:`` block, the imports static type checkers see, so that
    they are written once: ``from ._base import Kernel`` exports ``Kernel``
    from ``._base``, ``from . import kernels`` the subpackage ``kernels``.

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    source : str or path-like
        The package's ``__init__.py`` (its ``__file__``).

    Returns
    -------
    __getattr__, __dir__ : callable
        To be assigned to the package's module-level names of the same name.
        ``__dir__`` lists the package's ``__all__``, the names of the block
        and its other public attributes (``__version__``, a subpackage once
        imported), not ``TYPE_CHECKING``, ``lazy_exports`` or private names.

    Examples
    --------
    A package ``lazy_demo`` exporting :class:`json.JSONDecodeError`:

    >>> import pathlib, sys, tempfile, types
    >>> init = pathlib.Path(tempfile.mkdtemp()) / "__init__.py"
    >>> _ = init.write_text("if TYPE_CHECKING:\\n    from json.decoder import JSONDecodeError\\n")
    >>> package = sys.modules["lazy_demo"] = types.ModuleType("lazy_demo")
    >>> package.__getattr__, package.__dir__ = lazy_exports("lazy_demo", init)
    >>> "JSONDecodeError" in dir(package), "JSONDecodeError" in vars(package)
    (True, False)
    >>> package.JSONDecodeError.__name__
    'JSONDecodeError'
    >>> "JSONDecodeError" in vars(package)  # kept: an ordinary attribute from now on
    True
    >>> del sys.modules["lazy_demo"]
    """
    where = type_checking_imports(source)

    def __getattr__(name):
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = where[name]
        if module is None:
            value = importlib.import_module(f".{name}", package)
        else:
            value = getattr(importlib.import_module(module, package), name)
        # Kept in the package: the next access does not come here.
        setattr(sys.modules[package], name, value)
        return value

    def __dir__():
        # What the package offers: __all__, the lazily exported names and its
        # other public attributes (subpackages imported since, __version__),
        # without the machinery (TYPE_CHECKING, lazy_exports) or private names,
        # as scikit-learn's lazily loaded modules list theirs.
        namespace = vars(sys.modules[package])
        public = {
            name
            for name, value in namespace.items()
            if (not name.startswith("_") or name == "__version__")
            and name != "TYPE_CHECKING"
            and value is not lazy_exports
        }
        return sorted(public | set(namespace.get("__all__", ())) | set(where))

    return __getattr__, __dir__


def type_checking_imports(source):
    """Name -> the module it is imported from (relative, as written, such as
    ``"._base"``; None for a subpackage imported as ``from . import name``),
    for every import in the ``if TYPE_CHECKING:`` blocks of the file `source`."""
    import ast  # only here: a package's first import, not every name's

    with open(source, encoding="utf-8") as file:
        tree = ast.parse(file.read(), str(source))
    where = {}
    for node in tree.body:
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for imp in node.body:
                if not isinstance(imp, ast.ImportFrom) or any(a.asname for a in imp.names):
                    raise TypeError(
                        f"{source}: the TYPE_CHECKING block may hold only "
                        "'from MODULE import NAME' imports, without 'as'"
                    )
                module = "." * imp.level + (imp.module or "")
                for alias in imp.names:
                    where[alias.name] = None if imp.module is None else module
    return where


class LazyRegistry(Mapping):
    """A read-only mapping of names to objects imported when looked up.

    Iterating, ``len`` and ``in`` use the names only; ``registry[name]``
    imports the object's module the first time. Unknown names raise
    :class:`KeyError`, as a dict does.

    Parameters
    ----------
    package : str
        What relative module names are relative to (the caller's ``__package__``).
    entries : dict
        Name -> ``"module:attribute"``, such as ``"._radial:GaussianKernel"``,
        in the order the registry lists them.

    Examples
    --------
    >>> registry = LazyRegistry("json", {"decoder": ".decoder:JSONDecoder"})
    >>> list(registry), "decoder" in registry, len(registry)
    (['decoder'], True, 1)
    >>> registry["decoder"].__name__
    'JSONDecoder'
    """

    def __init__(self, package, entries):
        self._package = package
        self._entries = dict(entries)
        self._loaded = {}

    def __getitem__(self, name):
        if name in self._loaded:
            return self._loaded[name]
        module, _, attribute = self._entries[name].partition(":")
        value = getattr(importlib.import_module(module, self._package), attribute)
        self._loaded[name] = value
        return value

    def __iter__(self):
        return iter(self._entries)

    def __len__(self):
        return len(self._entries)

    def __contains__(self, name):
        # By name alone: a membership test (a check of a user's choice) imports nothing.
        try:
            return name in self._entries
        except TypeError:  # an unhashable value is not a name
            return False

    def __repr__(self):
        return repr(dict(self.items()))
