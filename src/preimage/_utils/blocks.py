"""Row blocks: reductions and maps over them, for NumPy and Dask arrays alike.

A tall matrix such as ``K_nm = k(X, Z)`` is touched only through sums of
per-row terms or row-wise maps: a NumPy array in row chunks of at most
``working_memory`` MiB, a Dask array block-wise (sums tree-reduced, maps by
``map_blocks``). Dask is imported only when a Dask array is given.

The function mapped is often heavy (an estimator's bound method): it enters
the graph once, as a key every block task depends on (:func:`_graph_arguments`),
the estimator as a key named by its content, so that chained steps share it;
the call is bound to the caller's settings (``bind_config``).
"""

import functools
import inspect

import numpy as np

from preimage._utils.config import bind_config

__all__ = ["row_chunks", "is_dask_array", "sum_row_blocks", "map_row_blocks"]


def row_chunks(n_rows, row_bytes, working_memory=None):
    """Yield slices of at most as many rows as fit in `working_memory` MiB.

    `working_memory` defaults to scikit-learn's global setting
    (``sklearn.get_config()["working_memory"]``, 1024 MiB unless changed).
    At least one row is always yielded per chunk.
    """
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
    """``call(owner, *blocks)`` calls ``owner.<name>(*args, *blocks, **kwargs)``:
    a method split from the object it is bound to, so that the object can be
    a key of its own in a Dask graph."""

    def __init__(self, name, args=(), kwargs=None):
        self.name, self.args, self.kwargs = name, tuple(args), dict(kwargs or {})

    def __call__(self, owner, *blocks):
        return getattr(owner, self.name)(*self.args, *blocks, **self.kwargs)

    def __repr__(self):
        return f"_MethodCall({self.name!r})"


def _split_owner(func):
    """``(owner, call)`` with ``call(owner, *blocks) == func(*blocks)`` when
    `func` is a method bound to an object (or a ``functools.partial`` of one);
    ``(None, func)`` otherwise."""
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
    """The leading arguments of :func:`_apply` that stand for `func` in a Dask
    graph: each a ``Delayed`` of one key, which every block task depends on.

    For a method bound to an object (an estimator's ``transform``), the
    method's name and the object are separate keys; the object's is named by
    its content (``KernelPCA-<token>``), so every graph of the same fitted
    estimator holds it under one key, which Dask merges when graphs combine.
    """
    from dask import delayed
    from dask.base import tokenize

    owner, call = _split_owner(func)
    call = bind_config(call)
    arguments = [delayed(call, name=f"{_name(func)}-function-{tokenize(call)}")]
    if owner is not None:
        arguments.append(delayed(owner, name=f"{type(owner).__name__}-{_content_token(owner)}"))
    return arguments


def _content_token(obj):
    """A token of `obj`'s pickle (Dask before 2024.2 tokenizes an arbitrary
    object at random, which would give one estimator two keys)."""
    import pickle

    from dask.base import tokenize

    return tokenize(type(obj).__qualname__, pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL))


def _apply(call, *args):
    """A block task: `call` (a key of :func:`_graph_arguments`) on the rest,
    the owner of a method first when there is one, then the blocks."""
    return call(*args)


def _aligned_blocks(arrays):
    """Delayed row blocks of 2-D Dask arrays sharing the first array's row
    chunks (each rechunked to a single column chunk)."""
    first = arrays[0].rechunk({1: -1})
    rows = first.chunks[0]
    blocks = [first.to_delayed().ravel()]
    for a in arrays[1:]:
        if a.shape[0] != first.shape[0]:
            raise ValueError(f"row counts differ: {first.shape[0]} and {a.shape[0]}")
        a = a.rechunk({0: rows, 1: -1})
        blocks.append(a.to_delayed().ravel())
    return list(zip(*blocks))


def sum_row_blocks(func, *arrays, row_bytes, working_memory=None):
    """``Σ_b func(A[b], B[b], …)`` over row blocks b of row-aligned arrays.

    Parameters
    ----------
    func : callable
        Maps row blocks of each array to a tuple of arrays of fixed shapes.
    *arrays : NumPy or Dask arrays with the same number of rows
        All of one kind. NumPy arrays are cut into chunks of at most
        `working_memory` MiB counting `row_bytes` per row; Dask arrays keep
        their own row chunks and the partial sums are tree-reduced.
    row_bytes : int
        The memory one row of the block computation takes (e.g. ``m · 8``
        for a float64 kernel row against m landmarks).

    Returns
    -------
    tuple of ndarray
        The sums, computed.
    """
    if is_dask_array(arrays[0]):
        import dask
        from dask import delayed

        lead = _graph_arguments(func)
        apply = delayed(_apply, pure=True)
        parts = [apply(*lead, *blocks) for blocks in _aligned_blocks(arrays)]
        (total,) = dask.compute(_tree_sum(parts))
        return total
    total = None
    for rows in row_chunks(arrays[0].shape[0], row_bytes, working_memory):
        part = func(*(a[rows] for a in arrays))
        total = part if total is None else _add(total, part)
    return total


def map_row_blocks(func, X, *others, n_columns, dtype):
    """``func(X[b], other[b], …)`` for every row block b, stacked.

    A Dask array gives a Dask array (lazy, by ``map_blocks``); `others` are
    rechunked to X's row chunks. `func` must return ``(rows, n_columns)``.
    In the graph, `func` is one key that every block task depends on, run
    under the caller's settings (see the module's notes).
    """
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
