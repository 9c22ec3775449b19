"""End-to-end learned-pre-image denoising against scikit-learn's KernelPCA.

The same job both ways, with identical hyper-parameters: fit Gaussian kernel
PCA on n clean MNIST digits together with Bakır's learned pre-image map
(kernel ridge regression from coordinates back to pixels, ridge ``alpha``, the
forward kernel), then denoise 500 noisy digits (Gaussian noise σ = 0.5):
``inverse_transform(transform(X_noisy))``.

* scikit-learn: ``KernelPCA(kernel="rbf", fit_inverse_transform=True).fit(X)``
  with its default eigen-solver (``"auto"``: dense LAPACK for ≥ 10
  components), and again with ``eigen_solver="randomized"``;
* preimage: ``KernelPCA(...).fit(X)`` and
  ``inverse_transform(Y, method="learned", alpha=...)`` with the default
  eigen-solver (``"auto"``, scikit-learn's rule: dense LAPACK here, so the
  outputs agree to rounding) in float64 and float32, and with
  ``eigen_solver="randomized"`` beside scikit-learn's randomized case (both
  approximate: compare their max|diff|).

Every case runs in a fresh process (time and peak memory of its own); the
outputs are compared with scikit-learn's (max abs. difference, relative to
the largest pixel value, and the MSE to the clean digits).

Run: ``python benchmarks/bench_sklearn.py [--sizes 2000 5000] [--quick]``.
Target (issue: speed and scale): preimage at least 3x faster than
scikit-learn's default at n = 2,000 and 5,000.
"""

import argparse

import numpy as np

from _measure import run_isolated


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


def sklearn_case(n, n_test, q, gamma, alpha, solver):
    from sklearn.decomposition import KernelPCA

    X, noisy, _ = load(n, n_test)
    import time

    start = time.perf_counter()
    kpca = KernelPCA(
        q,
        kernel="rbf",
        gamma=gamma,
        alpha=alpha,
        fit_inverse_transform=True,
        eigen_solver=solver,
        random_state=0,
    ).fit(X)
    out = kpca.inverse_transform(kpca.transform(noisy))
    return out, time.perf_counter() - start


def preimage_case(n, n_test, q, gamma, alpha, dtype, solver="auto"):
    from preimage import KernelPCA

    X, noisy, _ = load(n, n_test)
    X, noisy = X.astype(dtype), noisy.astype(dtype)
    import time

    start = time.perf_counter()
    kpca = KernelPCA(q, kernel="rbf", gamma=gamma, eigen_solver=solver, random_state=0).fit(X)
    out = kpca.inverse_transform(kpca.transform(noisy), method="learned", alpha=alpha)
    return out, time.perf_counter() - start


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[2000, 5000][:])
    parser.add_argument("--n-test", type=int, default=500)
    parser.add_argument("--components", type=int, default=100)
    parser.add_argument("--gamma", type=float, default=0.02, help="Gaussian 1/(2σ²); σ = 5")
    parser.add_argument("--alpha", type=float, default=1.0, help="ridge (scikit-learn's default)")
    parser.add_argument("--quick", action="store_true", help="n = 1000, 100 test digits")
    args = parser.parse_args(argv)
    if args.quick:
        args.sizes, args.n_test = [1000], 100

    q, g, a = args.components, args.gamma, args.alpha
    print(
        f"Learned-pre-image denoising, {q} components, gamma={g}, alpha={a}, "
        f"{args.n_test} noisy test digits; each case in a fresh process"
    )
    print(
        f"{'n':>6} {'case':38} {'time s':>8} {'(job s)':>8} {'peak GB':>8} "
        f"{'vs sklearn':>10} {'max|diff|':>10} {'MSE':>8}"
    )
    for n in args.sizes:
        _, _, clean = load(n, args.n_test)
        cases = [
            ("sklearn, eigen_solver='auto'", sklearn_case, (n, args.n_test, q, g, a, "auto")),
            (
                "sklearn, eigen_solver='randomized'",
                sklearn_case,
                (n, args.n_test, q, g, a, "randomized"),
            ),
            ("preimage float64", preimage_case, (n, args.n_test, q, g, a, np.float64)),
            (
                "preimage float64, eigen_solver='randomized'",
                preimage_case,
                (n, args.n_test, q, g, a, np.float64, "randomized"),
            ),
            ("preimage float32", preimage_case, (n, args.n_test, q, g, a, np.float32)),
        ]
        reference = None
        for name, func, case_args in cases:
            run = run_isolated(func, *case_args)
            if "error" in run:
                print(f"{n:6d} {name:38} failed: {run['error']}")
                continue
            out, job = run["result"]
            if reference is None:
                reference, ref_job = out, job
            diff = np.abs(out - reference).max() / np.abs(reference).max()
            mse = np.mean(np.sum((out - clean) ** 2, axis=1))
            print(
                f"{n:6d} {name:38} {run['seconds']:8.2f} {job:8.2f} {run['peak_gb']:8.2f} "
                f"{ref_job / job:9.1f}x {diff:10.1e} {mse:8.2f}",
                flush=True,
            )
    print(
        "time s: the whole child call (data loading included); job s: fit + transform "
        "+ inverse_transform only; 'vs sklearn' = sklearn default's job time / this "
        "job time; max|diff| relative to the largest pixel of sklearn's output."
    )


if __name__ == "__main__":
    main()
