"""Size of the Dask graphs of fitted estimators: is the estimator in it once?

A Dask array is transformed block by block by a fitted estimator's method. A
distributed scheduler sends each task to a worker separately, so what a
task holds is shipped once per task: the sum of the tasks' pickled sizes is
what crosses the network, and it should be about one estimator, not one per
block. (Pickling the whole graph at once hides the repetition: pickle writes
an object met twice once.)

    python benchmarks/bench_dask_graph.py [--chunks 20] [--quick]
"""

import argparse
import pickle

import cloudpickle
import dask.array as da
import numpy as np

from preimage import KernelPCA, KernelPCADenoiser
from preimage.datasets import load_digits


def graph_sizes(array):
    """(keys, whole graph pickled, sum of the tasks pickled one by one,
    largest task) in bytes, for a Dask array."""
    graph = dict(array.__dask_graph__())
    tasks = [len(cloudpickle.dumps(v)) for v in graph.values()]
    return len(graph), len(cloudpickle.dumps(graph)), sum(tasks), max(tasks)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=20)
    parser.add_argument(
        "--quick", action="store_true", help="fit on 300 digits: a check that it runs"
    )
    args = parser.parse_args()
    X, _ = load_digits()
    if args.quick:
        X = X[:300]
    rows = -(-X.shape[0] // args.chunks)
    dX = da.from_array(X, chunks=(rows, X.shape[1]))
    denoiser = KernelPCADenoiser().fit(X)
    kpca = KernelPCA(32, kernel="rbf", gamma=0.02).fit(X)
    Y = kpca.transform(dX)
    cases = [
        ("KernelPCADenoiser().transform", denoiser, denoiser.transform(dX)),
        ("KernelPCA(32).transform", kpca, Y),
        (
            "KernelPCA(32).inverse_transform(method='mds')",
            kpca,
            kpca.inverse_transform(Y, method="mds"),
        ),
    ]
    print(f"digits {X.shape}, {dX.numblocks[0]} row chunks")
    print(
        "| case | estimator pickled | keys | graph pickled at once | tasks pickled one "
        "by one | largest task |"
    )
    print("|---|---|---|---|---|---|")
    for name, estimator, out in cases:
        size = len(pickle.dumps(estimator))
        keys, whole, total, largest = graph_sizes(out)
        print(
            f"| {name} | {size / 1e6:.2f} MB | {keys} | {whole / 1e6:.2f} MB | "
            f"{total / 1e6:.2f} MB ({total / size:.1f}×) | {largest / 1e6:.2f} MB |"
        )
    # The graph computes what the estimator gives block by block.
    expected = np.vstack([denoiser.transform(X[i : i + rows]) for i in range(0, len(X), rows)])
    assert np.array_equal(cases[0][2].compute(), expected)


if __name__ == "__main__":
    main()
