"""The exact leading eigenpairs two ways: LAPACK's index range, ARPACK to machine precision.

``eigen_solver="dense"`` takes Lanczos (ARPACK, ``tol=0``) instead of LAPACK's
index-range driver (``scipy.linalg.eigh(subset_by_index=...)``) for q ≤ n/20
components of n ≥ 1,000 points (:func:`preimage._utils.eigen.top_eigh`). This times
both on the centred Gaussian Gram matrix of bundled MNIST digits (γ = 0.02),
for the shapes given, interleaved in one process (median of ``--repeats``),
and prints the largest differences of the eigenvalues (relative to the
largest) and of the eigenvectors (signs fixed alike).

Run: ``python benchmarks/bench_dense_eigenpairs.py [--shapes 1000:50 1000:100
2000:100 2000:200 5000:100] [--repeats 3] [--float32]``.
"""

import argparse
import time

import numpy as np

from preimage._utils.eigen import _index_range_eigh, _lanczos_eigh, flip_signs
from preimage.datasets import load_mnist
from preimage.kernels import GaussianKernel
from preimage.kpca import center_gram


def _sorted(values, vectors):
    order = np.argsort(values)[::-1]
    return values[order], flip_signs(vectors[:, order])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--shapes", nargs="+", default=["1000:50", "1000:100", "2000:100", "2000:200", "5000:100"]
    )
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--float32", action="store_true")
    args = parser.parse_args(argv)
    dtype = np.float32 if args.float32 else np.float64
    X, _ = load_mnist()
    X = X[np.random.default_rng(0).permutation(len(X))].astype(dtype)
    print(
        f"{'n':>6} {'q':>5} {'dtype':8} {'LAPACK s':>9} {'Lanczos s':>9} {'ratio':>6} "
        f"{'values':>8} {'vectors':>8}"
    )
    for shape in args.shapes:
        n, q = (int(v) for v in shape.split(":"))
        K = center_gram(GaussianKernel(gamma=0.02).block(X[:n]), copy=False)[0]
        times = {"lapack": [], "lanczos": []}
        for _ in range(args.repeats):
            start = time.perf_counter()
            lapack = _sorted(*_index_range_eigh(K, q))
            times["lapack"].append(time.perf_counter() - start)
            start = time.perf_counter()
            lanczos = _sorted(*_lanczos_eigh(K, q))
            times["lanczos"].append(time.perf_counter() - start)
        a, b = np.median(times["lapack"]), np.median(times["lanczos"])
        values = np.abs(lapack[0] - lanczos[0]).max() / lapack[0][0]
        vectors = np.abs(lapack[1] - lanczos[1]).max()
        print(
            f"{n:6d} {q:5d} {np.dtype(dtype).name:8} {a:9.2f} {b:9.2f} {a / b:5.1f}x "
            f"{values:8.1e} {vectors:8.1e}",
            flush=True,
        )
    print("ratio: LAPACK time / Lanczos time (above 1: Lanczos is faster)")


if __name__ == "__main__":
    main()
