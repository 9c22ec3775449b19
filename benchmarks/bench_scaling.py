"""Time and peak memory against n: exact kernel PCA, Nyström, scikit-learn.

The job is scikit-learn's: fit Gaussian kernel PCA (100 components, σ = 5)
with a learned pre-image map (ridge α = 1) on n clean digits, then denoise
1,000 noisy test digits by ``inverse_transform(transform(X_noisy))``.
Digits: bundled MNIST augmented by shifts of up to 2 pixels (see
``bench_nystroem.py``; noise σ = 0.5 on the test digits only).

* scikit-learn ``KernelPCA(fit_inverse_transform=True)``, default solver;
* preimage exact: ``KernelPCA`` + ``inverse_transform(method="learned")``;
* preimage Nyström: ``KernelPCADenoiser(n_landmarks=m, method="learned")``
  fitted on the clean digits (kernel PCA and the map over m landmarks,
  both fitted on all n digits).

Each case runs in a fresh process; cases beyond ``--max-sklearn`` /
``--max-exact`` are not run (their n × n matrices grow past what the machine
does in reasonable time and memory: scikit-learn's dense eigen-decomposition
is O(n³), exact kernel PCA holds two n × n float64 matrices).

Run: ``python benchmarks/bench_scaling.py [--sizes ...] [--quick]``.
"""

import argparse
import time

import numpy as np

from _measure import run_isolated
from bench_nystroem import make_pairs

Q, GAMMA, ALPHA = 100, 0.02, 1.0


def data(n, n_test):
    _, clean, noisy_test, clean_test = make_pairs(n, n_test)
    return clean, noisy_test, clean_test


def sklearn_job(n, n_test, m):
    from sklearn.decomposition import KernelPCA

    X, noisy, clean = data(n, n_test)
    start = time.perf_counter()
    kpca = KernelPCA(
        Q, kernel="rbf", gamma=GAMMA, alpha=ALPHA, fit_inverse_transform=True, random_state=0
    ).fit(X)
    out = kpca.inverse_transform(kpca.transform(noisy))
    return time.perf_counter() - start, float(np.mean(np.sum((out - clean) ** 2, axis=1)))


def exact_job(n, n_test, m):
    from preimage import KernelPCA

    X, noisy, clean = data(n, n_test)
    start = time.perf_counter()
    kpca = KernelPCA(Q, kernel="rbf", gamma=GAMMA, random_state=0).fit(X)
    out = kpca.inverse_transform(kpca.transform(noisy), method="learned", alpha=ALPHA)
    return time.perf_counter() - start, float(np.mean(np.sum((out - clean) ** 2, axis=1)))


def nystroem_job(n, n_test, m):
    from preimage import KernelPCADenoiser

    X, noisy, clean = data(n, n_test)
    start = time.perf_counter()
    den = KernelPCADenoiser(
        Q,
        gamma=GAMMA,
        method="learned",
        method_params={"alpha": ALPHA},
        n_landmarks=m,
        random_state=0,
    ).fit(X)
    out = den.transform(noisy)
    return time.perf_counter() - start, float(np.mean(np.sum((out - clean) ** 2, axis=1)))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes", type=int, nargs="+", default=[1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000]
    )
    parser.add_argument("--n-test", type=int, default=1000)
    parser.add_argument("--landmarks", type=int, default=1000)
    parser.add_argument("--max-sklearn", type=int, default=10_000)
    parser.add_argument("--max-exact", type=int, default=20_000)
    parser.add_argument("--timeout", type=float, default=1800)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    if args.quick:
        args.sizes, args.n_test, args.landmarks = [500, 1000], 100, 200

    print(
        f"Fit ({Q} components, gamma={GAMMA}, learned map alpha={ALPHA}) on n clean "
        f"augmented digits + denoise {args.n_test}; Nyström m = {args.landmarks}"
    )
    print(
        f"{'n':>7} | {'sklearn s':>9} {'GB':>5} | {'exact s':>8} {'GB':>5} | "
        f"{'Nyström s':>9} {'GB':>5} | {'MSE sk':>7} {'exact':>7} {'Nyström':>7}"
    )
    for n in args.sizes:
        cells = []
        for job, limit in (
            (sklearn_job, args.max_sklearn),
            (exact_job, args.max_exact),
            (nystroem_job, None),
        ):
            if limit is not None and n > limit or (job is nystroem_job and n <= args.landmarks):
                cells.append(None)
                continue
            run = run_isolated(job, n, args.n_test, args.landmarks, timeout=args.timeout)
            cells.append(run)

        def fmt(run, width):
            if run is None:
                return f"{'-':>{width}} {'-':>5}"
            if "error" in run:
                return f"{'failed':>{width}} {'':>5}"
            return f"{run['result'][0]:{width}.2f} {run['peak_gb']:5.2f}"

        mses = [f"{c['result'][1]:7.2f}" if c and "result" in c else f"{'-':>7}" for c in cells]
        print(
            f"{n:7d} | {fmt(cells[0], 9)} | {fmt(cells[1], 8)} | {fmt(cells[2], 9)} | "
            + " ".join(mses),
            flush=True,
        )
        for c in cells:
            if c and "error" in c:
                print(f"        error: {c['error']}")
    print(
        "s: fit + transform + inverse_transform (data building excluded); GB: peak "
        "resident memory of the case's process (interpreter and data included)."
    )


if __name__ == "__main__":
    main()
