"""Sums and maps over row blocks of NumPy arrays (chunks of ``working_memory`` MiB) and Dask
arrays (block-wise; Dask is imported only for one). In a Dask graph the function mapped is
one key (its estimator another, named by content) bound to the caller's settings."""

import functools
import inspect
from operator import call as _apply  # a block task: call(owner if any, *blocks)
import pickle

import numpy as np

from preimage._utils.config import bind_config


def row_chunks(n_rows, row_bytes, working_memory=None):
    """Slices of as many rows (at least one) as fit in `working_memory` MiB (default:
    scikit-learn's setting)."""
    if working_memory is None:
        from sklearn import get_config

        working_memory = get_config()["working_memory"]
    rows = max(int(working_memory * 2**20 // max(row_bytes, 1)), 1)
    for start in range(0, n_rows, rows):
        yield slice(start, min(start + rows, n_rows))


def is_dask_array(X):
    """True for a ``dask.array.Array`` (checked without importing Dask)."""
    return type(X).__module__.split(".")[0] == "dask" and hasattr(X, "chunks")


def _add(a, b):
    return tuple(x + y for x, y in zip(a, b))


def _tree_sum(parts):
    """Sum delayed tuples pairwise, so the reduction has depth log2(blocks)."""
    from dask import delayed

    add = delayed(_add, pure=True)
    while len(parts) > 1:
        pairs = [add(parts[i], parts[i + 1]) for i in range(0, len(parts) - 1, 2)]
        parts = pairs + ([parts[-1]] if len(parts) % 2 else [])
    return parts[0]


class _MethodCall:
    """``call(owner, *blocks)`` calls ``owner.<name>(*args, *blocks, **kwargs)``."""

    def __init__(self, name, args=(), kwargs=None):
        self.name, self.args, self.kwargs = name, tuple(args), dict(kwargs or {})

    def __call__(self, owner, *blocks):
        return getattr(owner, self.name)(*self.args, *blocks, **self.kwargs)

    def __repr__(self):
        return f"_MethodCall({self.name!r})"


def _split_owner(func):
    """``(owner, call)`` with ``call(owner, *blocks) == func(*blocks)`` for a bound method
    (or a partial of one); ``(None, func)`` otherwise."""
    args, kwargs = (), {}
    if isinstance(func, functools.partial):
        func, args, kwargs = func.func, func.args, func.keywords
    owner = getattr(func, "__self__", None)
    if not inspect.ismethod(func) or isinstance(owner, type):
        return None, functools.partial(func, *args, **kwargs) if args or kwargs else func
    return owner, _MethodCall(func.__name__, args, kwargs)


def _name(func):
    """The name the keys of `func`'s tasks start with (``transform``, ...)."""
    func = getattr(func, "func", func)  # a partial: the function's name
    return getattr(func, "__name__", type(func).__name__).strip("_<>") or "block"


def _graph_arguments(func):
    """The ``Delayed`` keys standing for `func` in a Dask graph: the bound call, and for a
    method its object, named by content (``KernelPCA-<token>``) so graphs share it."""
    from dask import delayed
    from dask.base import tokenize

    owner, call = _split_owner(func)
    call = bind_config(call)
    arguments = [delayed(call, name=f"{_name(func)}-function-{tokenize(call)}")]
    if owner is not None:
        # A token of the pickle: Dask before 2024.2 tokenizes an arbitrary object at random.
        token = tokenize(type(owner).__qualname__, pickle.dumps(owner, pickle.HIGHEST_PROTOCOL))
        arguments.append(delayed(owner, name=f"{type(owner).__name__}-{token}"))
    return arguments


def _aligned_blocks(arrays):
    """Delayed row blocks of 2-D Dask arrays, rechunked to the first one's row chunks."""
    first = arrays[0].rechunk({1: -1})
    blocks = [first.to_delayed().ravel()]
    for a in arrays[1:]:
        if a.shape[0] != first.shape[0]:
            raise ValueError(f"row counts differ: {first.shape[0]} and {a.shape[0]}")
        blocks.append(a.rechunk({0: first.chunks[0], 1: -1}).to_delayed().ravel())
    return list(zip(*blocks))


def sum_row_blocks(func, *arrays, row_bytes, working_memory=None):
    """The tuple ``sum_b func(A[b], B[b], ...)`` over row blocks b of row-aligned arrays,
    all NumPy (chunks of `row_bytes` per row) or all Dask (their chunks, tree-reduced)."""
    if is_dask_array(arrays[0]):
        import dask
        from dask import delayed

        lead = _graph_arguments(func)
        apply = delayed(_apply, pure=True)
        parts = [apply(*lead, *blocks) for blocks in _aligned_blocks(arrays)]
        return dask.compute(_tree_sum(parts))[0]
    total = None
    for rows in row_chunks(arrays[0].shape[0], row_bytes, working_memory):
        part = func(*(a[rows, ...] for a in arrays))
        total = part if total is None else _add(total, part)
    return total


def map_row_blocks(func, X, *others, n_columns, dtype):
    """``func(X[b], other[b], ...)`` (of shape ``(rows, n_columns)``) stacked; lazy, by
    ``map_blocks``, for a Dask X."""
    if not is_dask_array(X):
        return func(X, *others)
    import dask.array as da

    X = X.rechunk({1: -1})
    others = [o.rechunk({0: X.chunks[0], 1: -1}) if is_dask_array(o) else o for o in others]
    return da.map_blocks(
        _apply,
        *_graph_arguments(func),
        X,
        *others,
        token=_name(func),
        chunks=(X.chunks[0], (n_columns,)),
        dtype=dtype,
        meta=np.empty((0, n_columns), dtype=dtype),
    )
