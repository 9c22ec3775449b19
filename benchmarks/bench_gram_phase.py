"""The Gram phase of exact kernel PCA at n = 10,000: the checked path against KernelPCA's own.

``fit_kernel_pca(K)`` on a user's K reads it to check it (finite, ``max|K_ij|``),
centres it with its column and its row means (three passes over K) and reads the
centred matrix again to check and restore its symmetry. ``KernelPCA`` built K
itself (``k(X, X)``: finite and exactly symmetric by construction), so its fit
skips both checks and centres with one mean vector in one pass over cache-sized
row blocks, ``K_ij - (h_i + h_j)``, which also finds ``max|K_ij|``. Both sides
run here in one process on the data of ``bench_eigen_block.py`` (bundled MNIST
digits and copies shifted one pixel; γ = 0.02; float64, 2 BLAS threads):

* the rate: the bare product ``K @ V`` (n x n times n x 110), best of three;
* the Gram matrix ``GaussianKernel.block(X)`` (one ``?syrk``: n² d flops), best of two;
* the old phase (Gram, check, centring, check of HKH) and the new one (Gram, centring),
  each with its share of the rate (the ``?syrk``'s n² d flops over the phase's time);
* the q = 100 leading pairs by the public checked path, ``fit_kernel_pca(K)``, and by
  ``KernelPCA(...).fit(X)``, with the largest difference of the eigenvalues (relative to
  λ_1) and of the training projections ``u_k √λ_k`` (relative to their largest).

Run: ``python benchmarks/bench_gram_phase.py [--n 10000] [--q 100]``.
"""

import argparse

from bench_eigen_block import digits, timed
import numpy as np
from threadpoolctl import threadpool_limits

from preimage._utils.eigen import flip_signs
from preimage._utils.validation import check_gram
from preimage.kernels import GaussianKernel
from preimage.kpca import KernelPCA, fit_kernel_pca
from preimage.kpca._fit import _center_gram


def old_phase(K):
    """What ``fit_kernel_pca`` runs on a user's K before its eigensolver."""
    K, k_max = check_gram(K, "K", in_place=True)
    Kc = _center_gram(K, False)[0]
    return check_gram(Kc, "K", symmetric=True, in_place=True, scale=k_max)[0]


def new_phase(K):
    """What it runs on KernelPCA's own K."""
    return _center_gram(K, False, symmetric=True)[0]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10000)
    parser.add_argument("--q", type=int, default=100)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    threadpool_limits(args.threads)
    n, q, kernel = args.n, args.q, GaussianKernel(gamma=0.02)
    X = digits(n)
    print(f"n = {n}, d = {X.shape[1]}, q = {q}, {args.threads} BLAS threads, float64")
    V = np.random.default_rng(1).standard_normal((n, q + 10))
    K, _ = timed(lambda: kernel.block(X))  # pages and BLAS buffers touched once
    t_gemm = min(timed(lambda: K @ V)[1] for _ in range(3))
    rate = 2.0 * n * n * V.shape[1] / t_gemm
    times = {"gram": [], "old": [], "new": []}
    for _ in range(2):  # alternated, best of two
        for side, phase in (("old", old_phase), ("new", new_phase)):
            K = None  # freed before the next one
            K, t_gram = timed(lambda: kernel.block(X))
            _, t_phase = timed(lambda: phase(K))
            times["gram"].append(t_gram)
            times[side].append(t_phase)
    K = None  # freed before the next one
    t_gram, t_old, t_new = (min(times[key]) for key in ("gram", "old", "new"))
    flops = float(n) * n * X.shape[1]

    def row(name, seconds, note=""):
        print(f"{name:50} {seconds:6.2f} s {100 * flops / seconds / rate:6.1f} %  {note}".rstrip())

    print(f"{'phase':50} {'time':>8} {'of rate':>8}")
    print(f"{'K @ V (the rate)':50} {t_gemm:6.2f} s {100.0:6.1f} %  {rate / 1e9:.1f} GFLOP/s")
    row("Gram matrix k(X) alone", t_gram)
    row(
        "old: Gram + check K + centring + check HKH",
        t_gram + t_old,
        f"after the Gram {t_old:.2f} s",
    )
    row("new: Gram + one-mean centring", t_gram + t_new, f"after the Gram {t_new:.2f} s")
    print(f"new/old phase time {(t_gram + t_new) / (t_gram + t_old):.2f}")
    params = {"eigen_solver": "arpack", "random_state": 0}
    old = fit_kernel_pca(kernel.block(X), q, **params)
    new = KernelPCA(q, kernel=kernel, **params).fit(X)
    value_err = np.abs(new.eigenvalues_ - old.eigenvalues).max() / old.eigenvalues[0]
    old_proj = flip_signs(old.eigenvectors) * np.sqrt(old.eigenvalues)
    new_proj = flip_signs(new.eigenvectors_) * np.sqrt(new.eigenvalues_)
    proj_err = np.abs(new_proj - old_proj).max() / np.abs(old_proj).max()
    print(
        f"fit_kernel_pca(K) against KernelPCA.fit(X), q = {q} by ARPACK: "
        f"eigenvalues {value_err:.1e} of lambda_1, projections {proj_err:.1e}"
    )
    print("of rate: the ?syrk's n^2 d flops over the phase's time, as a share of K @ V's rate")


if __name__ == "__main__":
    main()
