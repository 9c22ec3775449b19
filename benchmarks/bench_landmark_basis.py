"""The landmark basis by Cholesky against the eigen-decomposition, in the Nyström denoiser.

``preimage._utils.eigen.landmark_basis`` takes ``W = R⁻¹`` from ``K_mm = RᵀR``
when K_mm is well conditioned, else ``W = UΛ^{-1/2}`` from ``eigh``. This
times the Nyström denoiser of ``bench_pipelines.py`` (n augmented noisy →
clean float64 pairs, 400 components, 1,000 landmarks, the learned map over
2,000 pairs; fit + denoising of 2,000 test images) with both, the Cholesky
path switched off for the second, interleaved in one process (medians of
``--rounds``), and prints the test MSE of each beside the ratio.

Run: ``python benchmarks/bench_landmark_basis.py [--n 20000] [--rounds 3]``.
"""

import argparse
import time

import numpy as np

from bench_nystroem import NYSTROEM_DENOISER, make_pairs


def main(argv=None):
    from preimage import KernelPCADenoiser
    import preimage._utils.eigen as eigen

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    noisy, clean, noisy_test, clean_test = make_pairs(args.n, 2000)
    params = NYSTROEM_DENOISER
    cholesky = eigen._cholesky_basis
    times, errors = {"cholesky": [], "eigh": []}, {}
    for _ in range(args.rounds):
        for name in times:
            eigen._cholesky_basis = cholesky if name == "cholesky" else (lambda K, eps: None)
            start = time.perf_counter()
            out = KernelPCADenoiser(**params).fit(noisy, clean).transform(noisy_test)
            times[name].append(time.perf_counter() - start)
            errors[name] = float(np.mean(np.sum((out - clean_test) ** 2, axis=1)))
    eigen._cholesky_basis = cholesky
    for name, ts in times.items():
        rounds = ", ".join(f"{t:.2f}" for t in ts)
        print(f"{name:9} median {np.median(ts):6.2f} s  MSE {errors[name]:.4f}  rounds {rounds}")
    ratio = np.median(times["eigh"]) / np.median(times["cholesky"])
    print(f"speed-up of the Cholesky basis: {ratio:.2f}x (n = {args.n}, fit + denoise)")


if __name__ == "__main__":
    main()
