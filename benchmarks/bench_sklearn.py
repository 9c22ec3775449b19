"""End-to-end learned-pre-image denoising against scikit-learn's KernelPCA.

The same job both ways, with identical hyper-parameters: fit Gaussian kernel
PCA on n clean MNIST digits together with Bakır's learned pre-image map
(kernel ridge regression from coordinates back to pixels, ridge ``alpha``, the
forward kernel), then denoise 500 noisy digits (Gaussian noise σ = 0.5):
``inverse_transform(transform(X_noisy))``.

Like for like: every case runs in float64 and again in float32, and each
preimage case is timed against scikit-learn fed the *same* dtype
(``X.astype(np.float32)``) with its default eigen-solver (``"auto"``: dense
LAPACK for ≥ 10 components). The dtype of each output is printed (scikit-learn
keeps float32 input in float32). Cases:

* scikit-learn ``KernelPCA(kernel="rbf", fit_inverse_transform=True)``, with
  ``eigen_solver="auto"`` (exact) and ``"randomized"`` (approximate);
* preimage ``KernelPCA(...)`` + ``inverse_transform(Y, method="learned")``
  with ``eigen_solver="dense"`` (exact, what the default ``"auto"`` resolves
  to here) and ``"randomized"`` (approximate).

Every ratio has its match error beside it: ``max|diff|`` is the largest
absolute difference from scikit-learn's exact output *in the same dtype*,
relative to its largest pixel; ``vs f64`` is the same against scikit-learn's
float64 output. An approximate solver's speed-up is only comparable with the
exact rows beside it.

Timing: all cases run in one process, interleaved round by round (case A, B,
C, … then again), and the median job time (fit + transform +
inverse_transform; data loading excluded) over ``--repeats`` rounds is
reported, so that a load change on a shared machine hits every case alike.

Run: ``python benchmarks/bench_sklearn.py [--sizes 2000 5000] [--repeats 3] [--quick]``.
Target: the exact job ('dense', within 1e-6 of scikit-learn's exact
output) at least 2x faster than scikit-learn's exact job at n = 2,000 and 3x
at n = 5,000 in float64, and 3x in float32 at n = 5,000.
"""

import argparse
import time

import numpy as np


def load(n, n_test, seed=0):
    """n training digits and n_test noisy test digits with their clean
    versions. The test digits are the ones after the training digits in a
    fixed random order; at n = 5,000 no bundled digit is left over, and the
    test digits are then noisy copies of the first training digits."""
    from preimage.datasets import add_gaussian_noise, load_mnist

    X, _ = load_mnist()
    order = np.random.default_rng(seed).permutation(len(X))
    test = order[n : n + n_test] if n + n_test <= len(X) else order[:n_test]
    clean_test = X[test]
    return X[order[:n]], add_gaussian_noise(clean_test, 0.5, random_state=seed), clean_test


def sklearn_case(X, noisy, q, gamma, alpha, solver):
    from sklearn.decomposition import KernelPCA

    kpca = KernelPCA(
        q,
        kernel="rbf",
        gamma=gamma,
        alpha=alpha,
        fit_inverse_transform=True,
        eigen_solver=solver,
        random_state=0,
    ).fit(X)
    return kpca.inverse_transform(kpca.transform(noisy))


def preimage_case(X, noisy, q, gamma, alpha, solver):
    from preimage import KernelPCA

    kpca = KernelPCA(q, kernel="rbf", gamma=gamma, eigen_solver=solver, random_state=0).fit(X)
    return kpca.inverse_transform(kpca.transform(noisy), method="learned", alpha=alpha)


CASES = [
    # (name, function, eigen-solver); the first of each dtype is the reference
    ("sklearn, 'auto' (exact)", sklearn_case, "auto"),
    ("sklearn, 'randomized'", sklearn_case, "randomized"),
    ("preimage, 'dense' (exact)", preimage_case, "dense"),
    ("preimage, 'randomized'", preimage_case, "randomized"),
]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[2000, 5000])
    parser.add_argument("--n-test", type=int, default=500)
    parser.add_argument("--components", type=int, default=100)
    parser.add_argument("--gamma", type=float, default=0.02, help="Gaussian 1/(2σ²); σ = 5")
    parser.add_argument("--alpha", type=float, default=1.0, help="ridge (scikit-learn's default)")
    parser.add_argument("--repeats", type=int, default=3, help="interleaved rounds (median)")
    parser.add_argument("--quick", action="store_true", help="n = 1000, 100 test digits")
    args = parser.parse_args(argv)
    if args.quick:
        args.sizes, args.n_test, args.repeats = [1000], 100, 1

    q, g, a = args.components, args.gamma, args.alpha
    print(
        f"Learned-pre-image denoising, {q} components, gamma={g}, alpha={a}, "
        f"{args.n_test} noisy test digits; all cases interleaved in one process, "
        f"median of {args.repeats} rounds"
    )
    print(
        f"{'n':>6} {'dtype':7} {'case':28} {'out':7} {'job s':>7} {'vs sklearn':>10} "
        f"{'max|diff|':>10} {'vs f64':>8} {'MSE':>7}"
    )
    import sklearn.decomposition  # noqa: F401

    import preimage  # noqa: F401  (imports outside the timed calls)

    for n in args.sizes:
        X, noisy, clean = load(n, args.n_test)
        runs = [(dtype, case) for dtype in (np.float64, np.float32) for case in CASES]
        times = {key: [] for key in range(len(runs))}
        outputs = {}
        for _ in range(args.repeats):
            for key, (dtype, (_, func, solver)) in enumerate(runs):
                Xd, noisyd = X.astype(dtype), noisy.astype(dtype)
                start = time.perf_counter()
                out = func(Xd, noisyd, q, g, a, solver)
                times[key].append(time.perf_counter() - start)
                outputs[key] = out
        ref64 = outputs[0].astype(np.float64)
        for key, (dtype, (name, _, _)) in enumerate(runs):
            first = 0 if dtype is np.float64 else len(CASES)
            ref = outputs[first].astype(np.float64)
            out = outputs[key].astype(np.float64)
            job = float(np.median(times[key]))
            ratio = np.median(times[first]) / job
            diff = np.abs(out - ref).max() / np.abs(ref).max()
            diff64 = np.abs(out - ref64).max() / np.abs(ref64).max()
            mse = np.mean(np.sum((out - clean) ** 2, axis=1))
            print(
                f"{n:6d} {np.dtype(dtype).name:7} {name:28} {outputs[key].dtype.name:7} "
                f"{job:7.2f} {ratio:9.1f}x {diff:10.1e} {diff64:8.1e} {mse:7.2f}",
                flush=True,
            )
    print(
        "job s: median fit + transform + inverse_transform; 'vs sklearn' = "
        "scikit-learn 'auto' job time in the same dtype / this job time; max|diff|: "
        "against scikit-learn's exact output in the same dtype, vs f64: against its "
        "float64 output, both relative to the largest pixel."
    )


if __name__ == "__main__":
    main()
