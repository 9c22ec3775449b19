"""The exact kernel-PCA + learned-map job with Lanczos multiplying by K
through NumPy (``K @ v``, the general product) and through SciPy's ``?symv``
(one triangle of K, the BLAS ARPACK calls), interleaved in one process.

The job is ``benchmarks/bench_sklearn.py``'s exact case (q = 100, γ = 0.02,
α = 1, ``eigen_solver="dense"``, 500 noisy test digits). The median job time
of ``--repeats`` interleaved rounds is printed per product with the largest
difference of the outputs, relative to the largest pixel.

Run: ``python benchmarks/bench_lanczos_product.py [--n 2000] [--repeats 5]``.
"""

import argparse
import time

from bench_sklearn import load, preimage_case
import numpy as np

from preimage._utils import eigen as _eigen


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    X, noisy, _ = load(args.n, 500)
    symv = _eigen._symmetric_operator
    products = {"K @ v (NumPy)": lambda K: K, "?symv (SciPy)": symv}
    print(f"n = {args.n}, median of {args.repeats} interleaved rounds")
    for dtype in (np.float64, np.float32):
        Xd, noisyd = X.astype(dtype), noisy.astype(dtype)
        times = {name: [] for name in products}
        outputs = {}
        for _ in range(args.repeats):
            for name, operator in products.items():
                _eigen._symmetric_operator = operator
                start = time.perf_counter()
                outputs[name] = preimage_case(Xd, noisyd, 100, 0.02, 1.0, "dense")
                times[name].append(time.perf_counter() - start)
        _eigen._symmetric_operator = symv
        ref = outputs["K @ v (NumPy)"].astype(np.float64)
        base = np.median(times["K @ v (NumPy)"])
        for name in products:
            job = np.median(times[name])
            diff = np.abs(outputs[name] - ref).max() / np.abs(ref).max()
            print(
                f"{np.dtype(dtype).name:8} {name:15} job {job:6.2f} s  "
                f"speed-up {base / job:4.2f}x  max|diff| {diff:.1e}",
                flush=True,
            )


if __name__ == "__main__":
    main()
