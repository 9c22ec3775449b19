"""Does a thread pool pay for the elementwise pass of a Gaussian Gram block?

The training block ``k(X) = exp(-gamma ||x_i - x_j||^2)`` is one symmetric
product ``X X^T`` followed by an elementwise pass (``sym``): scale by
``-2 gamma``, add ``-gamma (||x_i||^2 + ||x_j||^2)``, clamp at 0, ``exp``. A
block ``k(X, Y)`` of large X and Y gets ``-gamma ||x - y||^2`` from the product
and its pass is the two steps ``exp(-gamma D2)`` (``exp``: a scale and an
``exp`` on the product, the same memory traffic). Each pass is timed right
after its product (as in the library, where BLAS's threads are still
spinning), three ways on the same product:

* ``pool``: row chunks split among a thread pool of `--threads` threads, each
  walking its chunk in cache-sized blocks (the former ``kernels/_pairwise``
  pass);
* ``blocked``: the same cache-sized blocks in the calling thread;
* ``numpy``: plain whole-array NumPy calls.

    python benchmarks/bench_pairwise_threads.py [--n 4000] [--d 784] [--repeat 3]
"""

import argparse
from concurrent.futures import ThreadPoolExecutor
import time

import numpy as np

BLOCK_BYTES = 1 << 19


def _finish(block, rows, term, factor):
    if term is None:  # exp(-gamma D2, out=D2)
        np.multiply(block, factor, out=block)
    else:
        np.multiply(block, factor, out=block)
        block += np.add(term[rows, None], term)
        np.minimum(block, 0, out=block)
    np.exp(block, out=block)


def _walk(P, lo, hi, step, term, factor):
    for start in range(lo, hi, step):
        rows = slice(start, min(start + step, hi))
        _finish(P[rows], rows, term, factor)


def pass_pool(P, term, factor, pool, threads):
    step = max(BLOCK_BYTES // P[:1].nbytes, 1)
    bounds = np.linspace(0, P.shape[0], threads + 1).astype(int)
    futures = [
        pool.submit(_walk, P, lo, hi, step, term, factor)
        for lo, hi in zip(bounds[1:-1], bounds[2:])
    ]
    _walk(P, 0, bounds[1], step, term, factor)
    for f in futures:
        f.result()


def pass_blocked(P, term, factor):
    _walk(P, 0, P.shape[0], max(BLOCK_BYTES // P[:1].nbytes, 1), term, factor)


def pass_numpy(P, term, factor):
    _finish(P, slice(None), term, factor)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=4000)
    parser.add_argument("--d", type=int, default=784)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    pool = ThreadPoolExecutor(max_workers=args.threads - 1)
    arms = {
        "pool": lambda P, t, f: pass_pool(P, t, f, pool, args.threads),
        "blocked": pass_blocked,
        "numpy": pass_numpy,
    }
    print(f"Gaussian Gram block k(X), n={args.n}, d={args.d}, pool of {args.threads} threads")
    print(
        f"{'pass':5} {'dtype':8} {'arm':8} {'product s':>10} {'pass s':>8} "
        f"{'pass s / pool':>14}  max|diff| vs pool"
    )
    cases = [(p, dt) for p in ("sym", "exp") for dt in (np.float64, np.float32)]
    for kind, dtype in cases:
        X = np.random.default_rng(0).normal(size=(args.n, args.d)).astype(dtype)
        gamma = 1.0 / (2.0 * float(X.var(axis=0).sum()))
        if kind == "sym":
            term = np.multiply(np.einsum("ij,ij->i", X, X), -gamma, dtype=dtype)
            factor = 2.0 * gamma
        else:
            term, factor = None, -gamma
        best, results = {}, {}
        for _ in range(args.repeat):
            for name, run in arms.items():
                start = time.perf_counter()
                P = X @ X.T
                mid = time.perf_counter()
                run(P, term, factor)
                end = time.perf_counter()
                old = best.get(name, (np.inf, np.inf))
                best[name] = (min(old[0], mid - start), min(old[1], end - mid))
                results[name] = P
        for name in arms:
            product, pass_s = best[name]
            diff = float(np.abs(results[name] - results["pool"]).max())
            ratio = pass_s / best["pool"][1]
            print(
                f"{kind:5} {np.dtype(dtype).name:8} {name:8} {product:10.3f} {pass_s:8.3f} "
                f"{ratio:13.2f}x  {diff:.1e}"
            )
        del results
    pool.shutdown()


if __name__ == "__main__":
    main()
