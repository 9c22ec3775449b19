"""A registry whose names are known before its objects are imported.

The command line offers every pre-image method and kernel by name without
importing NumPy; only the standard library is imported here.
"""

from collections.abc import Mapping
import importlib

__all__ = ["LazyRegistry"]


class LazyRegistry(Mapping):
    """A read-only mapping of names to objects imported when looked up.

    Iterating, ``len`` and ``in`` use the names only; ``registry[name]``
    imports the object's module. Unknown names raise :class:`KeyError`.

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

    def __getitem__(self, name):
        module, _, attribute = self._entries[name].partition(":")
        return getattr(importlib.import_module(module, self._package), attribute)

    def __iter__(self):
        return iter(self._entries)

    def __len__(self):
        return len(self._entries)

    def __contains__(self, name):
        try:
            return name in self._entries
        except TypeError:  # an unhashable value is not a name
            return False

    def __repr__(self):
        return repr(dict(self.items()))
