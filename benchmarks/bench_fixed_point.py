"""Fixed-point pre-images per iteration against a plain NumPy loop.

Mika et al.'s Gaussian update ``z ← Σ_i γ_i k(z, x_i) x_i / Σ_i γ_i k(z, x_i)``
costs two matrix products per iteration: the squared distances ``Z·Xᵀ`` and
the weighted sum ``W·X``. This times, on the realistic denoising case
(kernel PCA with q components of bundled MNIST digits, noisy test digits, the
expansions of their projections):

(a) the library's :func:`~preimage.solvers.fixed_point`, a fixed number of
    iterations (``tol`` at its floor, so that nothing stops early), everything
    it does included (starts, bookkeeping, the objective at the last point);
(b) a plain NumPy loop of the same iteration, written here;
(c) the two matrix products alone, of the same shapes.

The three are interleaved, repeat by repeat, in one process (the machine is
shared: only ratios measured together mean anything), and the median of each
is kept. Beside the ratio (a)/(b) stands the largest absolute difference
between (a)'s and (b)'s pre-images.

Run: ``python benchmarks/bench_fixed_point.py [--n-train 2000] [--n-test 500]
[--n-components 100] [--iters 10] [--repeat 5]``.
Target: (a) within ``TARGET_RATIO`` times (b) per iteration.
"""

import argparse
import time
import warnings

import numpy as np

from preimage import KernelPCA
from preimage.datasets import load_mnist
from preimage.exceptions import ConvergenceWarning
from preimage.solvers import fixed_point

#: (a) at most this many times (b) per iteration.
TARGET_RATIO = 1.1
#: Mika et al.'s width on digits, ``exp(−‖x − y‖²/c)`` with c = 0.5·d·σ².
GAMMA = 1 / (0.5 * 784 * 0.5**2)
#: Standard deviation of the Gaussian noise added to the test digits.
NOISE = 0.5


def build_case(n_train, n_test, n_components, seed=0):
    """Expansions of the kernel PCA projections of noisy test digits, and the
    noisy digits (the starts)."""
    X, _ = load_mnist(n_samples=n_train + n_test)
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(X))
    train, test = X[order[:n_train]], X[order[n_train:]]
    noisy = test + NOISE * rng.standard_normal(test.shape)
    kpca = KernelPCA(n_components, kernel="rbf", gamma=GAMMA, random_state=0).fit(train)
    return kpca.expansion_from_components(kpca.transform(noisy)), noisy


def library(expansion, x0, iters):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        result = fixed_point(expansion, x0, max_iter=iters, tol=1e-300)
    return result.x


def plain_loop(coef, X, x0, gamma, iters):
    """The Gaussian fixed point, minimal: distances by one product, exp,
    weights, the weighted sum by a second product, divide."""
    x_sq = np.einsum("ij,ij->i", X, X)
    Z = x0.copy()
    for _ in range(iters):
        z_sq = np.einsum("ij,ij->i", Z, Z)
        W = Z @ X.T
        W *= 2 * gamma
        W -= gamma * z_sq[:, None]
        W -= gamma * x_sq[None, :]
        np.minimum(W, 0.0, out=W)
        np.exp(W, out=W)
        W *= coef
        Z = (W @ X) / W.sum(axis=1)[:, None]
    return Z


def gemms_only(Z, X, W, iters):
    for _ in range(iters):
        Z @ X.T
        W @ X


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-train", type=int, default=2000)
    parser.add_argument("--n-test", type=int, default=500)
    parser.add_argument("--n-components", type=int, default=100)
    parser.add_argument("--iters", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--target", type=float, default=TARGET_RATIO)
    args = parser.parse_args(argv)

    expansion, noisy = build_case(args.n_train, args.n_test, args.n_components)
    coef, X = expansion.coef, expansion.support
    gamma = expansion.kernel.gamma
    expansion.norm2()  # cached on the expansion: not part of any timing
    W = np.ones((noisy.shape[0], X.shape[0]))

    cases = {
        "(a) library fixed_point": lambda: library(expansion, noisy, args.iters),
        "(b) plain NumPy loop": lambda: plain_loop(coef, X, noisy, gamma, args.iters),
        "(c) the two GEMMs alone": lambda: gemms_only(noisy, X, W, args.iters),
    }
    times = {name: [] for name in cases}
    outputs = {}
    for _ in range(args.repeat):
        for name, func in cases.items():
            start = time.perf_counter()
            outputs[name] = func()
            times[name].append(time.perf_counter() - start)
    per_iter = {name: 1e3 * np.median(t) / args.iters for name, t in times.items()}

    a, b, c = per_iter.values()
    diff = np.max(np.abs(outputs["(a) library fixed_point"] - outputs["(b) plain NumPy loop"]))
    print(
        f"{args.n_test} pre-images of {args.n_train}-point expansions, d = {X.shape[1]}, "
        f"q = {args.n_components}, {args.iters} iterations, median of {args.repeat} "
        "interleaved repeats"
    )
    print(f"{'case':<26} {'ms/iteration':>12}")
    for name, ms in per_iter.items():
        print(f"{name:<26} {ms:>12.1f}")
    ratio = a / b
    verdict = "met" if ratio <= args.target else "NOT met"
    print(
        f"(a)/(b) = {ratio:.2f} (target <= {args.target}: {verdict}); (c)/(b) = {c / b:.2f}; "
        f"max |(a) - (b)| = {diff:.2e}"
    )


if __name__ == "__main__":
    main()
