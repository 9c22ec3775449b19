"""Library-wide settings: the memory budget for dense matrices.

Like scikit-learn's ``set_config``/``config_context``: a process-wide default,
changed for a block with :func:`config_context`.
"""

from __future__ import annotations

from collections.abc import Iterator
import contextlib
import os
import re
import threading
from typing import Any

__all__ = ["config_context", "get_config", "set_config", "parse_bytes"]

_UNITS = {"": 1, "b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12,
          "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40}


def parse_bytes(value, name="memory_budget"):
    """A byte count from an int or a string such as ``"8GB"`` or ``"512 MiB"``."""
    if isinstance(value, str):
        match = re.fullmatch(r"\s*([0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\s*([a-zA-Z]*)\s*",
                             value)
        if not match or match.group(2).lower() not in _UNITS:
            raise ValueError(f"'{name}' must be a number of bytes such as 8000000000, "
                             f"'8GB' or '512MiB', got {value!r}")
        value = float(match.group(1)) * _UNITS[match.group(2).lower()]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0 \
            or value == float("inf"):
        raise ValueError(f"'{name}' must be a positive number of bytes, got {value!r}")
    return int(value)


def _physical_memory():
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        return 16 * 2**30


def _default_budget():
    env = os.environ.get("PREIMAGE_MEMORY_BUDGET")
    if env:
        return parse_bytes(env, "PREIMAGE_MEMORY_BUDGET")
    return _physical_memory() // 2


_global = {"memory_budget": None}
_local = threading.local()


def get_config() -> dict[str, Any]:
    """The current settings, as a dict.

    ``memory_budget``: the largest dense matrix, in bytes, that the library
    allocates for a training set (a Gram matrix, a kernel ridge system). The
    default is half the machine's physical memory, or the environment
    variable ``PREIMAGE_MEMORY_BUDGET`` (e.g. ``8GB``).
    """
    config = dict(_global)
    config.update(getattr(_local, "overrides", {}))
    if config["memory_budget"] is None:
        config["memory_budget"] = _default_budget()
    return config


def set_config(*, memory_budget: int | str | None = None) -> None:
    """Change the settings for the whole process (see :func:`get_config`)."""
    if memory_budget is not None:
        _global["memory_budget"] = parse_bytes(memory_budget)


@contextlib.contextmanager
def config_context(*, memory_budget: int | str | None = None) -> Iterator[None]:
    """Change the settings inside a ``with`` block, in this thread."""
    previous = dict(getattr(_local, "overrides", {}))
    overrides = dict(previous)
    if memory_budget is not None:
        overrides["memory_budget"] = parse_bytes(memory_budget)
    _local.overrides = overrides
    try:
        yield
    finally:
        _local.overrides = previous
