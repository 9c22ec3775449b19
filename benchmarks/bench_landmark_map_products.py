"""The learned map's normal equations in the triangular landmark basis.

The Nyström learned map solves ``(WᵀL_nmᵀL_nmW + αI)θ = WᵀL_nmᵀX`` and
takes ``β = Wθ`` (``preimage.solvers._learned``). When the landmark basis is
the Cholesky one (``W = R⁻¹``, upper triangular), the three products with W
are BLAS's triangular ones (``?trmm``, m³ flops against 2m³ for a general
product). This times them against general products, in one process,
interleaved (medians of ``--rounds``), on the map of the denoiser of
``bench_pipelines.py`` (n augmented noisy → clean float64 pairs, 400
components, 1,000 landmarks, the map over 2,000 pairs): first the products
alone, on the fitted map's own W and the moments of its first 5,000 pairs,
with the largest difference relative to the largest entry; then the whole
job (fit + denoising of 2,000 test images) with the triangular products
switched off for the second, with the test MSE of each.

Run: ``python benchmarks/bench_landmark_map_products.py [--n 20000] [--rounds 3]``.
"""

import argparse
import time

import numpy as np

from bench_nystroem import NYSTROEM_DENOISER, make_pairs


def main(argv=None):
    from preimage import KernelPCADenoiser
    from preimage._utils.eigen import landmark_basis
    from preimage.denoising._components import kpca_coordinates
    import preimage.solvers._learned as learned

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    noisy, clean, noisy_test, clean_test = make_pairs(args.n, 2000)
    params = NYSTROEM_DENOISER
    triangular = learned._is_upper_triangular

    def general(W):
        return False

    # The products alone, on the fitted map's basis and moments.
    den = KernelPCADenoiser(**params).fit(noisy, clean)
    kernel, C_m = den.solver_.map_kernel_, den.solver_.coordinates_
    W = landmark_basis(kernel.block(C_m), warn_dropped=False)
    L = kernel.block(kpca_coordinates(den.kpca_, noisy[:5000]), C_m)
    LtL, LtT = L.T @ L, L.T @ clean[:5000]
    theta = np.linalg.solve(W.T @ LtL @ W + 1e-3 * np.eye(W.shape[1]), W.T @ LtT)
    print(f"basis: {W.shape[0]} × {W.shape[1]}, upper triangular: {triangular(W)}")
    times, outs = {"trmm": [], "gemm": []}, {}
    for _ in range(max(args.rounds, 5)):
        for name in times:
            learned._is_upper_triangular = triangular if name == "trmm" else general
            start = time.perf_counter()
            outs[name] = (*learned._in_basis(W, LtL, LtT), learned._times_basis(W, theta))
            times[name].append(time.perf_counter() - start)
    learned._is_upper_triangular = triangular
    diff = max(
        float(np.abs(a - b).max() / np.abs(b).max()) for a, b in zip(outs["trmm"], outs["gemm"])
    )
    for name, ts in times.items():
        print(
            f"  products {name}: median {np.median(ts):.3f} s  rounds {', '.join(f'{t:.3f}' for t in ts)}"
        )
    ratio = np.median(times["gemm"]) / np.median(times["trmm"])
    print(
        f"  speed-up of the triangular products: {ratio:.2f}x, largest relative difference {diff:.1e}"
    )

    # The whole job.
    times, errors = {"trmm": [], "gemm": []}, {}
    for _ in range(args.rounds):
        for name in times:
            learned._is_upper_triangular = triangular if name == "trmm" else general
            start = time.perf_counter()
            out = KernelPCADenoiser(**params).fit(noisy, clean).transform(noisy_test)
            times[name].append(time.perf_counter() - start)
            errors[name] = float(np.mean(np.sum((out - clean_test) ** 2, axis=1)))
    learned._is_upper_triangular = triangular
    for name, ts in times.items():
        rounds = ", ".join(f"{t:.2f}" for t in ts)
        print(
            f"  denoiser {name}: median {np.median(ts):6.2f} s  MSE {errors[name]:.4f}  rounds {rounds}"
        )
    ratio = np.median(times["gemm"]) / np.median(times["trmm"])
    print(f"  speed-up of the whole job: {ratio:.2f}x (n = {args.n}, fit + denoise)")


if __name__ == "__main__":
    main()
