"""Library-wide settings (the memory budget), as scikit-learn's ``set_config``; they
follow the library's work to Dask tasks (:func:`bind_config`) and joblib (:func:`delayed`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
import contextlib
import functools
import math
import os
import re
import threading
from typing import Any

from preimage._utils.resources import available_memory

_UNITS = {"": 1, "b": 1} | {
    prefix + unit: base ** (power * i)
    for unit, base, power in (("b", 10, 3), ("ib", 2, 10))
    for i, prefix in enumerate("kmgt", 1)
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
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < math.inf:
        raise ValueError(f"'{name}' must be a positive number of bytes, got {value!r}")
    return int(value)


_global = {"memory_budget": None}
_local = threading.local()


def get_config() -> dict[str, Any]:
    """Return the current settings of the library.

    ``memory_budget``: the largest dense matrix, in bytes, that the library allocates
    for a training set; by default ``PREIMAGE_MEMORY_BUDGET`` (e.g. ``8GB``), else half
    the memory this process may use (the machine's, or its container's cgroup limit).

    Returns
    -------
    dict
        ``{"memory_budget": int}``: the innermost :func:`config_context` of this
        thread, else :func:`set_config`'s, else the default (a new dict).

    Examples
    --------
    >>> from preimage import get_config
    >>> import preimage
    >>> with preimage.config_context(memory_budget="512MiB"):
    ...     preimage.get_config()
    {'memory_budget': 536870912}
    """
    config = {**_global, **getattr(_local, "overrides", {})}
    if config["memory_budget"] is None:
        env = os.environ.get("PREIMAGE_MEMORY_BUDGET")
        budget = parse_bytes(env, "PREIMAGE_MEMORY_BUDGET") if env else available_memory() // 2
        config["memory_budget"] = budget
    return config


def set_config(*, memory_budget: int | str | None = None) -> None:
    """Change the settings for the whole process (:func:`config_context`: for one block).

    Parameters
    ----------
    memory_budget : int, str or None, default=None
        The largest dense matrix the library allocates for a training set, in bytes:
        a positive number, or a string such as ``"8GB"``, ``"512 MiB"`` or ``"1.5e9"``
        (B, kB, MB, GB, TB in powers of 1000, KiB, MiB, GiB, TiB in powers of 1024).
        None leaves it as it is.

    Raises
    ------
    ValueError
        If `memory_budget` is not a positive, finite number of bytes.

    Examples
    --------
    >>> from preimage import set_config
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

    The previous settings are restored on leaving, even on an error; an inner context
    wins. Another thread or worker keeps its own settings unless the work is bound to
    the caller's (as the library's Dask tasks are, and :func:`delayed` does for joblib).

    Parameters
    ----------
    memory_budget : int, str or None, default=None
        The largest dense matrix, in bytes, as for :func:`set_config` (e.g. ``"8GB"``);
        None leaves the current value.

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
    ...     with preimage.config_context(memory_budget="1kB"):
    ...         inner = preimage.get_config()["memory_budget"]
    ...     outer = preimage.get_config()["memory_budget"]
    >>> inner, outer
    (1000, 2000000000)
    """
    previous = getattr(_local, "overrides", {})
    overrides = dict(previous)
    if memory_budget is not None:
        overrides["memory_budget"] = parse_bytes(memory_budget)
    _local.overrides = overrides
    try:
        yield
    finally:
        _local.overrides = previous


class ConfiguredCall:
    """`func` called under ``config_context(**settings)`` and scikit-learn's
    `working_memory` (None: the worker's own), which it pickles with."""

    def __init__(self, func, settings, working_memory=None):
        self.func, self.settings, self.working_memory = func, dict(settings), working_memory

    def __call__(self, *args, **kwargs):
        from sklearn import config_context as sklearn_context  # None: leaves it as it is

        with config_context(**self.settings), sklearn_context(working_memory=self.working_memory):
            return self.func(*args, **kwargs)

    def __repr__(self):
        return f"ConfiguredCall({self.func!r}, {self.settings!r})"


def bind_config(func):
    """`func` as a :class:`ConfiguredCall` bound to the settings made here (not the
    defaults, each machine's own) and scikit-learn's ``working_memory``."""
    from sklearn import get_config as sklearn_config

    settings = {**_global, **getattr(_local, "overrides", {})}
    settings = {k: v for k, v in settings.items() if v is not None}
    return ConfiguredCall(func, settings, sklearn_config()["working_memory"])


def delayed(
    function: Callable[..., Any],
) -> Callable[..., tuple[ConfiguredCall, tuple[Any, ...], dict[str, Any]]]:
    """Make joblib tasks that run under the caller's settings.

    joblib's ``delayed`` with the settings in effect where a task is made bound to it,
    in threads and worker processes alike, as ``sklearn.utils.parallel.delayed``.

    Parameters
    ----------
    function : callable
        The function each task calls.

    Returns
    -------
    callable
        Called with the task's arguments, returns the ``(function, args, kwargs)``
        triple that ``joblib.Parallel`` takes.

    Raises
    ------
    TypeError
        If `function` is not callable.

    Examples
    --------
    >>> from preimage import delayed
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
