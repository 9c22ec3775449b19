"""Exact kernel PCA at n = 10,000 by phase: ARPACK's Lanczos against a block Krylov solver.

``eigen_solver="dense"`` finds q ≤ n/20 eigenpairs by Lanczos (ARPACK, ``tol=0``,
one ``?symv`` per step: bound by memory bandwidth). A block method reads K fewer
times, each read a BLAS-3 product ``K @ Q``. This times, in one process on 2 BLAS
threads, every phase of the fit on bundled MNIST digits (the 5,000 bundled ones
and, to reach n > 5,000, copies shifted one pixel to the right; γ = 0.02):

* the bare product ``K @ V`` (n x n times n x 110, float64): the machine's rate;
* the Gram matrix ``GaussianKernel.block(X)`` (one ``?syrk``, 2 n² d flops);
* the centring and the symmetry check ``check_gram`` of the centred matrix;
* the q = 100 leading eigenpairs by Lanczos and by Rayleigh-Ritz on a block
  Krylov space ``[Q, KQ, K²Q, ...]`` (Golub & Underwood 1977; block of 50
  columns, stopped when every pair's residual ``‖Kv − λv‖ / λ_1 ≤ 1e-11``).

Beside each time: the fraction of the product's rate the phase reaches (its
flops over its time) and, for the block solver, the largest difference of the
eigenvalues (relative to λ_1) and of the training projections ``u_k √λ_k``
(relative to their largest) from Lanczos's.

Run: ``python benchmarks/bench_eigen_block.py [--n 10000] [--q 100] [--block 50]``.
"""

import argparse
import time

import numpy as np
from scipy import linalg
from threadpoolctl import threadpool_limits

from preimage._utils.eigen import _orthonormalize, flip_signs, top_eigh
from preimage._utils.validation import check_gram
from preimage.datasets import load_mnist
from preimage.kernels import GaussianKernel
from preimage.kpca import center_gram


def block_krylov_eigh(K, q, block, tol=1e-11):
    """The q top eigenpairs by Rayleigh-Ritz on ``[Q, KQ, K²Q, ...]``, each new block
    orthogonalized twice against the basis; Rayleigh-Ritz from 3q columns on, until
    every relative residual is below `tol`. Returns the pairs and the products' columns."""
    n = K.shape[0]
    Q = _orthonormalize(np.random.default_rng(0).standard_normal((n, block)))
    basis, images = Q, K @ Q
    while True:
        m = basis.shape[1]
        if m >= 3 * q:
            values, small = linalg.eigh(basis.T @ images, subset_by_index=(m - q, m - 1))
            vectors = basis @ small
            residual = np.linalg.norm(images @ small - vectors * values, axis=0).max()
            if residual <= tol * abs(values[-1]):
                return values, vectors, m
        Q = images[:, -block:]
        for _ in range(2):
            Q = Q - basis @ (basis.T @ Q)
        Q = _orthonormalize(Q)
        basis, images = np.hstack([basis, Q]), np.hstack([images, K @ Q])


class _Counter:
    """``v -> Kv`` counting the products (ARPACK's matrix-vector products)."""

    def __init__(self, K):
        self.K, self.calls, self.shape, self.dtype = K, 0, K.shape, K.dtype

    def __call__(self, v):
        self.calls += 1
        return self.K @ v


def digits(n):
    """n digits: the bundled MNIST ones, shuffled, then the same shifted one pixel right."""
    X, _ = load_mnist()
    X = X[np.random.default_rng(0).permutation(len(X))]
    shifted = np.roll(X.reshape(-1, 28, 28), 1, axis=2).reshape(len(X), -1)
    return np.vstack([X, shifted])[:n]


def timed(func):
    start = time.perf_counter()
    out = func()
    return out, time.perf_counter() - start


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10000)
    parser.add_argument("--q", type=int, default=100)
    parser.add_argument("--block", type=int, default=50)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    threadpool_limits(args.threads)
    n, q = args.n, args.q
    X = digits(n)
    print(
        f"n = {n} ({min(n, 5000)} bundled digits, {max(n - 5000, 0)} shifted one pixel), "
        f"q = {q}, {args.threads} BLAS threads, float64"
    )
    V = np.random.default_rng(1).standard_normal((n, q + 10))
    _, t_fill = timed(lambda: GaussianKernel(gamma=0.02).block(X))  # pages touched once
    K, t_gram = timed(lambda: GaussianKernel(gamma=0.02).block(X))
    _, t_gemm = timed(lambda: K @ V)
    rate = 2.0 * n * n * V.shape[1] / t_gemm
    (Kc, _, _), t_centre = timed(lambda: center_gram(K, copy=False))
    _, t_check = timed(lambda: check_gram(Kc, "K", symmetric=True, in_place=True))
    (old_values, old_vectors), t_old = timed(lambda: top_eigh(Kc, q, solver="dense"))
    (values, vectors, columns), t_new = timed(lambda: block_krylov_eigh(Kc, q, args.block))
    order = np.argsort(values)[::-1]
    values, vectors = values[order], flip_signs(vectors[:, order])
    value_err = np.abs(values - old_values).max() / old_values[0]
    old_proj, new_proj = old_vectors * np.sqrt(old_values), vectors * np.sqrt(values)
    proj_err = np.abs(new_proj - old_proj).max() / np.abs(old_proj).max()
    # ARPACK's product count, on the same matrix (not timed).
    from scipy.sparse.linalg import LinearOperator, eigsh

    counter = _Counter(Kc)
    v0 = np.random.default_rng(0).uniform(-1, 1, n)
    eigsh(LinearOperator(Kc.shape, matvec=counter, dtype=Kc.dtype), q, which="LA", tol=0, v0=v0)

    def row(name, seconds, flops, note=""):
        print(f"{name:52} {seconds:7.2f} s {100 * flops / seconds / rate:6.1f} %  {note}")

    print(f"{'phase':52} {'time':>9} {'of rate':>8}")
    row(
        f"K @ V, {n} x {n} @ {n} x {q + 10} (the rate)",
        t_gemm,
        2.0 * n * n * V.shape[1],
        f"{rate / 1e9:.1f} GFLOP/s",
    )
    row(
        "Gram matrix k(X) (?syrk, pages touched)",
        t_gram,
        2.0 * n * n * X.shape[1],
        f"first call, pages untouched: {t_fill:.2f} s",
    )
    row("centring HKH", t_centre, 4.0 * n * n)
    row("check_gram of HKH (symmetry pass)", t_check, 2.0 * n * n)
    row(f"eigenpairs, Lanczos ({counter.calls} products K v)", t_old, 2.0 * n * n * counter.calls)
    row(
        f"eigenpairs, block Krylov ({columns} columns, {columns // args.block} reads)",
        t_new,
        2.0 * n * n * columns,
        f"block/Lanczos time {t_new / t_old:.2f}; values {value_err:.1e}, projections {proj_err:.1e}",
    )
    print("of rate: the phase's flops over its time, as a share of the K @ V product's rate")


if __name__ == "__main__":
    main()
