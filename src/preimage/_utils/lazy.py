"""A registry whose names are known before its objects are imported (standard library only)."""

from collections.abc import Mapping
import importlib


class LazyRegistry(Mapping):
    """A read-only mapping of names to ``"module:attribute"`` (relative to `package`),
    imported when looked up; iterating, ``len`` and ``in`` use the names only."""

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
