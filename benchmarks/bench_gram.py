"""Gaussian Gram block against a bare matrix product of the same shape.

A kernel block costs one GEMM plus an elementwise map; this measures how close
``GaussianKernel(X, Y)`` comes to ``X @ Y.T`` alone, and compares it with
scikit-learn's ``rbf_kernel``, side by side in one run (the machine is shared,
so only ratios measured together mean anything).

A second table times the small blocks that iterative pre-image solvers
evaluate thousands of times (a few points against a few hundred support
points): there ``GaussianKernel`` runs its product on one BLAS thread, and the
table compares it with the same product on the default thread pool.

Run: ``python benchmarks/bench_gram.py [--n 5000] [--d 784] [--repeat 5]``.
Target (issue: foundation): at most 1.5x the bare product, float64 and float32.
"""

import argparse
import time

import numpy as np
from sklearn.metrics.pairwise import rbf_kernel
from threadpoolctl import threadpool_limits

from preimage.kernels import GaussianKernel


def best_time(func, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=5000)
    parser.add_argument("--d", type=int, default=784)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)

    rng = np.random.default_rng(0)
    kernel = GaussianKernel(gamma=1 / 72)
    print(f"Gaussian Gram block {args.n} x {args.n} from {args.n} x {args.d} inputs, "
          f"best of {args.repeat}")
    print(f"{'dtype':8} {'X @ Y.T':>9} {'preimage':>9} {'sklearn':>9} "
          f"{'preimage/GEMM':>14} {'sklearn/GEMM':>13}")
    for dtype in (np.float64, np.float32):
        X = rng.random((args.n, args.d)).astype(dtype)
        Y = rng.random((args.n, args.d)).astype(dtype)
        # Interleave the three so that load on the machine hits them alike.
        t_gemm = t_ours = t_sk = np.inf
        for _ in range(args.repeat):
            t_gemm = min(t_gemm, best_time(lambda: X @ Y.T, 1))
            t_ours = min(t_ours, best_time(lambda: kernel(X, Y), 1))
            t_sk = min(t_sk, best_time(lambda: rbf_kernel(X, Y, gamma=kernel.gamma), 1))
        K = kernel(X[:500], Y[:500])
        err = np.abs(K - rbf_kernel(X[:500].astype(np.float64), Y[:500].astype(np.float64),
                                    gamma=kernel.gamma)).max()
        print(f"{np.dtype(dtype).name:8} {t_gemm:9.3f} {t_ours:9.3f} {t_sk:9.3f} "
              f"{t_ours / t_gemm:14.2f} {t_sk / t_gemm:13.2f}   "
              f"(out dtype {K.dtype}, max |diff| vs float64 sklearn {err:.1e})")


    # Small blocks: m points against s support points, as in one fixed-point step.
    print(f"\nSmall Gaussian blocks from {args.d}-dimensional inputs, 2000 calls, best of "
          f"{args.repeat}")
    print(f"{'m x s':>10} {'GEMM, pool':>11} {'GEMM, 1 thread':>15} {'preimage':>9} "
          f"{'pool/1 thread':>14} {'preimage/1 thread':>18}")
    for m, s in ((6, 400), (20, 1000)):
        Z = rng.random((m, args.d))
        S = rng.random((s, args.d))

        def calls(func):
            return lambda: [func() for _ in range(2000)]

        def one_thread():
            with threadpool_limits(1, user_api="blas"):
                for _ in range(2000):
                    Z @ S.T

        t_pool = t_one = t_ours = np.inf
        for _ in range(args.repeat):
            t_pool = min(t_pool, best_time(calls(lambda: Z @ S.T), 1))
            t_one = min(t_one, best_time(one_thread, 1))
            t_ours = min(t_ours, best_time(calls(lambda: kernel(Z, S)), 1))
        print(f"{f'{m} x {s}':>10} {t_pool:11.3f} {t_one:15.3f} {t_ours:9.3f} "
              f"{t_pool / t_one:14.2f} {t_ours / t_one:18.2f}")


if __name__ == "__main__":
    main()
