"""Names imported at their first use: the packages' exports and the registries.

``import preimage`` imports none of the library's modules, and so none of
NumPy, SciPy or scikit-learn: each package's ``__init__`` lists where its
public names live and gets, from :func:`lazy_exports`, a module
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

__all__ = ["LazyRegistry", "lazy_exports"]


def lazy_exports(package, exports, submodules=()):
    """A package's ``__getattr__`` and ``__dir__`` that import its names at first use.

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    exports : dict
        Module (relative to `package`, such as ``"._base"``, or absolute) ->
        the public names it defines that the package exports.
    submodules : sequence of str
        Subpackages exported as names of their own (``preimage.kernels``).

    Returns
    -------
    __getattr__, __dir__ : callable
        To be assigned to the package's module-level names of the same name.

    Examples
    --------
    A package ``lazy_demo`` exporting :class:`json.JSONDecodeError`:

    >>> import sys, types
    >>> package = sys.modules["lazy_demo"] = types.ModuleType("lazy_demo")
    >>> package.__getattr__, package.__dir__ = lazy_exports(
    ...     "lazy_demo", {"json.decoder": ["JSONDecodeError"]})
    >>> "JSONDecodeError" in dir(package), "JSONDecodeError" in vars(package)
    (True, False)
    >>> package.JSONDecodeError.__name__
    'JSONDecodeError'
    >>> "JSONDecodeError" in vars(package)  # kept: an ordinary attribute from now on
    True
    >>> del sys.modules["lazy_demo"]
    """
    where = {name: module for module, names in exports.items() for name in names}
    where.update((name, None) for name in submodules)

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
        return sorted(set(vars(sys.modules[package])) | set(where))

    return __getattr__, __dir__


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
