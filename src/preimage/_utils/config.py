"""Library-wide settings (the memory budget), as scikit-learn's ``set_config``.

The settings a caller made follow the library's work to other threads and
processes: :func:`bind_config` binds them to a function run elsewhere (a Dask
task), :func:`delayed` is joblib's ``delayed`` with that binding.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
import contextlib
import functools
import os
import re
import threading
from typing import Any

from preimage._utils.resources import available_memory

__all__ = [
    "config_context",
    "get_config",
    "set_config",
    "parse_bytes",
    "bind_config",
    "ConfiguredCall",
    "delayed",
]

_UNITS = {
    "": 1,
    "b": 1,
    "kb": 10**3,
    "mb": 10**6,
    "gb": 10**9,
    "tb": 10**12,
    "kib": 2**10,
    "mib": 2**20,
    "gib": 2**30,
    "tib": 2**40,
}


def parse_bytes(value, name="memory_budget"):
    """A byte count from an int or a string such as ``"8GB"`` or ``"512 MiB"``."""
    if isinstance(value, str):
        match = re.fullmatch(r"\s*([0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\s*([a-zA-Z]*)\s*", value)
        if not match or match.group(2).lower() not in _UNITS:
            raise ValueError(
                f"'{name}' must be a number of bytes such as 8000000000, "
                f"'8GB' or '512MiB', got {value!r}"
            )
        value = float(match.group(1)) * _UNITS[match.group(2).lower()]
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not value > 0
        or value == float("inf")
    ):
        raise ValueError(f"'{name}' must be a positive number of bytes, got {value!r}")
    return int(value)


def _default_budget():
    env = os.environ.get("PREIMAGE_MEMORY_BUDGET")
    if env:
        return parse_bytes(env, "PREIMAGE_MEMORY_BUDGET")
    # Half of what this process may use: inside a container the cgroup limit,
    # beyond which the kernel kills the process rather than fail an allocation.
    return available_memory() // 2


_global = {"memory_budget": None}
_local = threading.local()


def get_config() -> dict[str, Any]:
    """Return the current settings of the library.

    ``memory_budget``: the largest dense matrix, in bytes, that the library
    allocates for a training set. The default is ``PREIMAGE_MEMORY_BUDGET``
    (e.g. ``8GB``), else half the memory this process may use (the machine's,
    or the container's cgroup limit when smaller). A value set also holds in
    the library's Dask tasks, wherever they run.

    Returns
    -------
    dict
        ``{"memory_budget": int}``: the innermost :func:`config_context` of
        this thread, else :func:`set_config`'s, else the default (a new dict).

    Examples
    --------
    >>> import preimage
    >>> with preimage.config_context(memory_budget="512MiB"):
    ...     preimage.get_config()
    {'memory_budget': 536870912}
    """
    config = dict(_global)
    config.update(getattr(_local, "overrides", {}))
    if config["memory_budget"] is None:
        config["memory_budget"] = _default_budget()
    return config


def set_config(*, memory_budget: int | str | None = None) -> None:
    """Change the settings for the whole process.

    :func:`config_context` changes them for one block, in one thread.

    Parameters
    ----------
    memory_budget : int, str or None, default=None
        The largest dense matrix the library allocates for a training set,
        in bytes: a positive number, or a string with a unit such as
        ``"8GB"``, ``"512 MiB"`` or ``"1.5e9"`` (B, kB, MB, GB, TB in powers
        of 1000, KiB, MiB, GiB, TiB in powers of 1024). None leaves it as it is.

    Raises
    ------
    ValueError
        If `memory_budget` is not a positive, finite number of bytes.

    Examples
    --------
    >>> import preimage
    >>> previous = preimage.get_config()["memory_budget"]
    >>> preimage.set_config(memory_budget="4GiB")
    >>> preimage.get_config()["memory_budget"]
    4294967296
    >>> preimage.set_config(memory_budget=previous)
    """
    if memory_budget is not None:
        _global["memory_budget"] = parse_bytes(memory_budget)


@contextlib.contextmanager
def config_context(*, memory_budget: int | str | None = None) -> Iterator[None]:
    """Change the settings inside a ``with`` block, in this thread.

    The settings in effect before the block are restored on leaving it, even
    when it raises. Contexts nest; inside one, a value given to an inner
    context wins. They are thread-local: another thread, a Dask task or a
    joblib worker keeps its own settings unless the work is bound to the
    caller's (as the library's Dask tasks are, and :func:`delayed` does for
    joblib).

    Parameters
    ----------
    memory_budget : int, str or None, default=None
        The largest dense matrix, in bytes, as for :func:`set_config` (e.g.
        ``"8GB"``); None leaves the current value.

    Yields
    ------
    None
        Nothing: the settings apply to the code inside the block.

    Raises
    ------
    ValueError
        If `memory_budget` is not a positive, finite number of bytes.

    Examples
    --------
    >>> import preimage
    >>> with preimage.config_context(memory_budget="2GB"):
    ...     preimage.get_config()["memory_budget"]
    2000000000
    >>> with preimage.config_context(memory_budget="2GB"):
    ...     with preimage.config_context(memory_budget="1kB"):
    ...         inner = preimage.get_config()["memory_budget"]
    ...     outer = preimage.get_config()["memory_budget"]
    >>> inner, outer
    (1000, 2000000000)
    """
    previous = dict(getattr(_local, "overrides", {}))
    overrides = dict(previous)
    if memory_budget is not None:
        overrides["memory_budget"] = parse_bytes(memory_budget)
    _local.overrides = overrides
    try:
        yield
    finally:
        _local.overrides = previous


def _explicit_settings():
    """The settings made with :func:`set_config` and :func:`config_context`
    in this thread (not the defaults, which are each machine's own)."""
    settings = {k: v for k, v in _global.items() if v is not None}
    settings.update({k: v for k, v in getattr(_local, "overrides", {}).items() if v is not None})
    return settings


class ConfiguredCall:
    """`func` called under ``config_context(**settings)`` and scikit-learn's
    `working_memory` (None: the worker's own); it pickles with them, so that a
    worker elsewhere runs `func` under the caller's budget."""

    def __init__(self, func, settings, working_memory=None):
        self.func = func
        self.settings = dict(settings)
        self.working_memory = working_memory

    def __call__(self, *args, **kwargs):
        with config_context(**self.settings), self._sklearn_context():
            return self.func(*args, **kwargs)

    def _sklearn_context(self):
        if self.working_memory is None:
            return contextlib.nullcontext()
        from sklearn import config_context as sklearn_context

        return sklearn_context(working_memory=self.working_memory)

    def __repr__(self):
        return f"ConfiguredCall({self.func!r}, {self.settings!r})"


def bind_config(func):
    """`func` as a :class:`ConfiguredCall` bound to the settings the caller
    made here (not the defaults, each machine's own) and scikit-learn's
    ``working_memory``, for running in a Dask task elsewhere."""
    from sklearn import get_config as sklearn_config

    return ConfiguredCall(func, _explicit_settings(), sklearn_config()["working_memory"])


def delayed(
    function: Callable[..., Any],
) -> Callable[..., tuple[ConfiguredCall, tuple[Any, ...], dict[str, Any]]]:
    """Make joblib tasks that run under the caller's settings.

    joblib's ``delayed`` with the settings in effect where a task is made
    bound to it, in joblib's threads and worker processes alike, as
    ``sklearn.utils.parallel.delayed`` does for scikit-learn's.

    Parameters
    ----------
    function : callable
        The function each task calls.

    Returns
    -------
    callable
        Called with the task's arguments, returns the ``(function, args,
        kwargs)`` triple that ``joblib.Parallel`` takes, the function a
        ``ConfiguredCall`` that calls `function` under the bound settings.

    Raises
    ------
    TypeError
        If `function` is not callable.

    Examples
    --------
    >>> from joblib import Parallel
    >>> import preimage
    >>> with preimage.config_context(memory_budget="2GB"):
    ...     budgets = Parallel(n_jobs=2, backend="threading")(
    ...         preimage.delayed(lambda: preimage.get_config()["memory_budget"])()
    ...         for _ in range(2)
    ...     )
    >>> budgets
    [2000000000, 2000000000]
    """
    if not callable(function):
        raise TypeError(f"'function' must be callable, got {type(function).__name__}")

    @functools.wraps(function)
    def make_task(*args, **kwargs):
        return bind_config(function), args, kwargs

    return make_task
