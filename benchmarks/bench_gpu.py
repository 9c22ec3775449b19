"""Kernel PCA and fixed-point denoising on one GPU (PyTorch, array API dispatch).

One command, three parts, each ratio printed beside its match error:

(a) n = 5,000 bundled MNIST digits (``load_mnist``, [0, 1]), Gaussian kernel with the
    denoiser's default width (``default_gamma`` of the training digits), 200 components:
    ``KernelPCADenoiser(method="fixed_point")`` on float32 torch tensors on the device
    against the NumPy float64 path on this machine's CPU: fit, transform (coordinates)
    and denoising (fixed point from the noisy inputs) of 1,000 noisy digits (σ = 0.5);
    the max abs difference of the coordinates and of the pre-images (target ≤ 1e-3).
(b) n = 20,000 and 50,000 *augmented* digits (the 5,000 bundled digits and their
    copies shifted by one pixel in the 8 directions and by two pixels in the 4 axis
    directions: 65,000 in a fixed random order; training = the first n, test = the next
    10,000 with noise σ = 0.5), float32 on the device, 200 components: time per phase
    (Gram by ``kernel.block``, centring + eigenpairs by ``fit_kernel_pca_xp``,
    projection, fixed-point pre-images) with a device synchronisation around each, the
    fraction of the device's measured float32 matrix-product rate (n × n @ n × 410 in
    the same run) each phase reaches, the eigen-residual max ‖K_c v − λv‖ / λ₁ computed
    independently in float64 (target ≤ 1e-4), the total (target ≤ 10 s at n = 50,000)
    and the estimator end to end (``KernelPCADenoiser.fit`` + ``transform``).
(c) scikit-learn ``KernelPCA(n_components=200, kernel="rbf", fit_inverse_transform=True)``
    on the CPU cores, fit + ``inverse_transform(transform(...))`` of the same 10,000 noisy
    digits at n = 20,000 (smaller when a timed n = 4,000 run extrapolated as n³ says it
    would exceed ``--sklearn-budget`` seconds; printed), against the device at the same n:
    the speed-up (target ≥ 50x), the subspace agreement (cosine of the largest principal
    angle between the two 200-dimensional eigenvector subspaces) and the mean squared
    difference of the two denoised outputs (different pre-image methods: learned map
    vs fixed point), with each one's MSE to the clean digits.

Run: ``SCIPY_ARRAY_API=1 python benchmarks/bench_gpu.py [--device cuda] [--quick]``
(the variable is set by the script when missing). ``--quick`` runs tiny sizes (a check
that the script runs, e.g. ``--quick --device cpu``); ``--namespace array_api_strict``
runs the same structure on array-api-strict instead of torch (no device timing).
"""

import argparse
import datetime
import os
import platform
import sys
import time

import numpy as np

Q = 200


def augmented_digits(n_total, seed=0):
    """The bundled digits and their shifted copies (8 one-pixel, 4 two-pixel shifts),
    the first `n_total` in a fixed random order."""
    from preimage.datasets import load_mnist

    _, _, images = load_mnist(return_images=True)
    shifts = [(0, 0)] + [(i, j) for i in (-1, 0, 1) for j in (-1, 0, 1) if (i, j) != (0, 0)]
    shifts += [(2, 0), (-2, 0), (0, 2), (0, -2)]
    out = []
    for di, dj in shifts:
        moved = np.roll(images, (di, dj), axis=(1, 2))  # digits have empty borders
        out.append(moved.reshape(len(images), -1))
    X = np.concatenate(out)
    return X[np.random.default_rng(seed).permutation(len(X))[:n_total]]


class Counting:
    """An array namespace that counts its ``linalg.eigh`` calls (one per subspace step)."""

    def __init__(self, xp):
        self._xp, self.steps = xp, 0
        outer = self

        class Linalg:
            def __getattr__(self, name):
                return getattr(xp.linalg, name)

            def eigh(self, A):
                outer.steps += 1
                return xp.linalg.eigh(A)

        self.linalg = Linalg()

    def __getattr__(self, name):
        return getattr(self._xp, name)


def make_env(args):
    """(to_device, sync, xp-from-array, device description) for the chosen namespace."""
    if args.namespace == "array_api_strict":
        import array_api_strict as strict

        return (
            lambda a: strict.asarray(np.asarray(a, dtype=np.float32)),
            lambda: None,
            f"array-api-strict {strict.__version__} (CPU; timings not a device's)",
            None,
        )
    try:
        import torch
    except ImportError:
        sys.exit("bench_gpu.py needs PyTorch: pip install torch (not installed here)")
    device = torch.device(args.device)
    if device.type == "cuda" and not torch.cuda.is_available():
        sys.exit("bench_gpu.py: --device cuda, but torch sees no CUDA device")

    def sync():
        if device.type == "cuda":
            torch.cuda.synchronize()

    name = torch.cuda.get_device_name(device) if device.type == "cuda" else "CPU"
    tf32 = torch.backends.cuda.matmul.allow_tf32
    desc = f"torch {torch.__version__} on {device} ({name}); TF32 matmul: {tf32}"
    to_dev = lambda a: torch.as_tensor(np.asarray(a, dtype=np.float32), device=device)  # noqa: E731
    return to_dev, sync, desc, torch


def timed(fn, sync):
    sync()
    start = time.perf_counter()
    out = fn()
    sync()
    return out, time.perf_counter() - start


def header(desc):
    import scipy
    import sklearn

    import preimage

    print("# bench_gpu.py: kernel PCA and fixed-point denoising on one device")
    print(f"date: {datetime.datetime.now().isoformat(timespec='seconds')}")
    print(f"machine: {platform.node()}, {platform.processor() or platform.machine()}, ", end="")
    print(f"{os.cpu_count()} CPUs; {desc}")
    print(
        f"python {platform.python_version()}, numpy {np.__version__}, scipy {scipy.__version__}, "
        f"scikit-learn {sklearn.__version__}, preimage {preimage.__version__}"
    )


def part_a(n, n_test, to_dev, sync, to_numpy):
    from preimage.datasets import add_gaussian_noise, load_mnist
    from preimage.denoising import KernelPCADenoiser

    X, _ = load_mnist(n_samples=n)
    rng = np.random.default_rng(0)
    noisy = add_gaussian_noise(X[rng.permutation(n)[:n_test]], 0.5, random_state=0)
    print(f"\n## (a) n = {n} bundled MNIST digits, {Q} components, {n_test} noisy test digits")
    print("    (noisy copies, sigma 0.5, of training digits); default gamma; fixed point from")
    print("    the noisy inputs. Device float32 vs NumPy float64 on the CPU.")
    rows, outs = {}, {}
    for label, data, noise, s in (
        ("numpy f64 CPU", X, noisy, lambda: None),
        ("device f32", to_dev(X), to_dev(noisy), sync),
    ):
        den = KernelPCADenoiser(n_components=min(Q, n - 1), method="fixed_point")
        _, t_fit = timed(lambda d=den, x=data: d.fit(x), s)
        Y, t_tr = timed(lambda d=den, x=noise: d.kpca_.transform(x), s)
        Z, t_dn = timed(lambda d=den, x=noise: d.transform(x), s)
        rows[label], outs[label] = (t_fit, t_tr, t_dn), (to_numpy(Y), to_numpy(Z))
    print(f"{'':16}{'fit s':>9}{'transform s':>13}{'denoise s':>11}")
    for label, (a, b, c) in rows.items():
        print(f"{label:16}{a:9.3f}{b:13.3f}{c:11.3f}")
    ratio = [c / g for c, g in zip(rows["numpy f64 CPU"], rows["device f32"], strict=True)]
    dy = np.max(np.abs(outs["numpy f64 CPU"][0] - outs["device f32"][0]))
    dz = np.max(np.abs(outs["numpy f64 CPU"][1] - outs["device f32"][1]))
    print(f"speed-up CPU/device: fit {ratio[0]:.1f}x, transform {ratio[1]:.1f}x, ", end="")
    print(f"denoise {ratio[2]:.1f}x")
    for what, d in (("coordinates", dy), ("pre-images", dz)):
        print(
            f"max |diff| of the {what}: {d:.2e} (target <= 1e-3: {'met' if d <= 1e-3 else 'NOT met'})"
        )


def matmul_rate(n, to_dev, sync):
    """float32 flop/s of an n x n @ n x 410 product (best of 3)."""
    A = to_dev(np.random.default_rng(1).random((n, n), dtype=np.float32))
    B = to_dev(np.random.default_rng(2).random((n, 410), dtype=np.float32))
    best = min(timed(lambda: A @ B, sync)[1] for _ in range(4))
    return 2.0 * n * n * 410 / best


def eigen_residual(X, fit, gamma, xp, to_numpy, block=4000):
    """max_k ‖K_c v_k − λ_k v_k‖ / λ₁ in float64, K_c the centred Gaussian Gram matrix
    built anew (squared distances expanded) in row blocks, and max |VᵀV − I|."""
    X64 = xp.astype(X, xp.float64)
    V = xp.astype(fit.eigenvectors, xp.float64)
    lam = np.asarray(to_numpy(fit.eigenvalues), dtype=np.float64)
    sq = xp.sum(X64 * X64, axis=1)
    n = X.shape[0]
    KV, col_sum = [], xp.zeros(n, dtype=xp.float64, device=X64.device)
    for start in range(0, n, block):
        stop = min(start + block, n)
        Xb = X64[start:stop, :]
        d2 = sq[start:stop, None] + sq[None, :] - 2 * (Xb @ X64.T)
        Kb = xp.exp(-gamma * xp.clip(d2, min=0.0))
        KV.append(Kb @ V)
        col_sum = col_sum + xp.sum(Kb, axis=0)
    KV = to_numpy(xp.concat(KV, axis=0))
    m, Vh = to_numpy(col_sum) / n, to_numpy(V)
    s = Vh.sum(axis=0)  # K_c V = KV − 1(mᵀV) − m sᵀ + mean(m) 1 sᵀ
    KcV = KV - (m @ Vh)[None, :] - np.outer(m, s) + m.mean() * s[None, :]
    res = np.linalg.norm(KcV - Vh * lam[None, :], axis=0).max() / lam[0]
    return res, np.abs(Vh.T @ Vh - np.eye(Vh.shape[1])).max()


def device_phases(X_host, noisy_host, to_dev, sync, to_numpy, rate, check):
    """Phase by phase, as KernelPCA._fit_xp and KernelPCADenoiser.transform do."""
    from sklearn.externals.array_api_compat import array_namespace

    from preimage.kernels import GaussianKernel, default_gamma
    from preimage.kpca._xp import expansion_coef_xp, fit_kernel_pca_xp, transform_xp
    from preimage.solvers._xp import fixed_point_xp

    gamma = default_gamma(X_host)
    X, noisy = to_dev(X_host), to_dev(noisy_host)
    xp = array_namespace(X)
    kernel, (n, d), m = GaussianKernel(gamma=gamma), X.shape, noisy.shape[0]
    counting = Counting(xp)
    K, t_gram = timed(lambda: kernel.block(X, check_input=False), sync)
    fit, t_eig = timed(lambda K=K: fit_kernel_pca_xp(K, Q, counting), sync)
    del K
    Y, t_proj = timed(
        lambda: transform_xp(kernel.block(noisy, X, check_input=False), fit, xp), sync
    )

    def preimages():
        coef, norm2 = expansion_coef_xp(Y, fit, xp)
        box = (xp.min(X, axis=0), xp.max(X, axis=0))  # bounds="auto": the data's box
        params = {"max_iter": 300, "tol": 1e-7, "alpha": 0.0, "anchor": None, "box": box}
        return fixed_point_xp(coef, X, kernel, norm2, noisy, xp=xp, **params)

    res, t_pre = timed(preimages, sync)
    steps, b = counting.steps, min(2 * Q + 10, n)
    it = int(np.max(to_numpy(res.n_iter)))
    flops = {
        "Gram": 2.0 * n * n * d,
        # each step: K Q (2 n² b), QᵀKQ, QS, KQ S and the QR (about 10 n b²)
        "centring + eigenpairs": steps * (2.0 * n * n * b + 10.0 * n * b * b),
        "projection": 2.0 * m * n * d + 2.0 * m * n * Q,
        # each step: k(Z, X) (2 m n d) and C X (2 m n d); one more k for the best point
        "fixed-point pre-images": (4.0 * it + 4.0) * m * n * d,
    }
    times = dict(zip(flops, (t_gram, t_eig, t_proj, t_pre), strict=True))
    out = {"times": times, "flops": flops, "steps": steps, "iters": it, "gamma": gamma}
    out["Z"], out["V"] = to_numpy(res.x), to_numpy(fit.eigenvectors)
    if check:
        out["residual"] = eigen_residual(X, fit, gamma, xp, to_numpy)
    print(
        f"  n = {n}: gamma {gamma:.4g}; {steps} subspace steps (b = {b}); fixed point: {it} steps"
    )
    print(f"  {'phase':24}{'s':>8}{'Gflop':>10}{'% of matmul rate':>18}")
    for name, t in times.items():
        pct = f"{100 * flops[name] / t / rate:.1f}%" if rate else "-"
        print(f"  {name:24}{t:8.3f}{flops[name] / 1e9:10.0f}{pct:>18}")
    total = sum(times.values())
    print(f"  total fit + denoise (phases): {total:.2f} s", end="")
    print(" (target <= 10 s at n = 50,000)" if n >= 50000 else "")
    if check:
        r, o = out["residual"]
        print(
            f"  eigen-residual max ||K_c v - lambda v|| / lambda_1 (float64, rebuilt K): {r:.2e} ",
            end="",
        )
        print(f"(target <= 1e-4: {'met' if r <= 1e-4 else 'NOT met'}); max |V'V - I| {o:.1e}")
    out["total"] = total
    return out


def part_b(sizes, n_test, to_dev, sync, to_numpy, rate_fn):
    from preimage.datasets import add_gaussian_noise
    from preimage.denoising import KernelPCADenoiser

    print("\n## (b) augmented digits: the 5,000 bundled MNIST digits and their copies shifted")
    print("    by one pixel in the 8 directions and by two pixels in the 4 axis directions")
    print(
        f"    (65,000 in a fixed random order); training = the first n, test = the next {n_test},"
    )
    print(
        f"    noise sigma 0.5; float32 on the device, {Q} components, fixed point from the inputs."
    )
    pool = augmented_digits(max(sizes) + n_test)
    results = {}
    for n in sizes:
        X, clean = pool[:n], pool[n : n + n_test]
        noisy = add_gaussian_noise(clean, 0.5, random_state=0)
        rate = rate_fn(n)
        print(
            f" n = {n}: measured float32 matmul rate (n x n @ n x 410): {rate / 1e12:.1f} Tflop/s"
        )
        out = device_phases(X, noisy, to_dev, sync, to_numpy, rate, check=True)
        Xd, nd = to_dev(X), to_dev(noisy)
        den = KernelPCADenoiser(n_components=Q, method="fixed_point")
        _, t_end = timed(lambda d=den, x=Xd, z=nd: d.fit(x).transform(z), sync)
        print(f"  estimator end to end (KernelPCADenoiser fit + transform): {t_end:.2f} s")
        out["mse"] = np.mean(np.sum((out["Z"] - clean) ** 2, axis=1))
        results[n] = (out, X, noisy, clean)
    return results


def sklearn_job(X, noisy, gamma):
    from sklearn.decomposition import KernelPCA

    start = time.perf_counter()
    kp = KernelPCA(n_components=Q, kernel="rbf", gamma=gamma, fit_inverse_transform=True)
    Z = kp.fit(X).inverse_transform(kp.transform(noisy))
    return time.perf_counter() - start, kp.eigenvectors_, Z


def part_c(n_want, n_test, budget, to_dev, sync, to_numpy, quick):
    from preimage.datasets import add_gaussian_noise
    from preimage.kernels import default_gamma

    pool = augmented_digits(n_want + n_test)
    n_probe = n_want if quick else 4000
    X, clean = pool[:n_probe], pool[n_want : n_want + n_test]
    noisy = add_gaussian_noise(clean, 0.5, random_state=0)
    t_probe = sklearn_job(X, noisy, default_gamma(X))[0]
    n = n_want
    while not quick and t_probe * (n / n_probe) ** 3 > budget and n > n_probe:
        n -= 2000
    print(f"\n## (c) scikit-learn KernelPCA(n_components={Q}, kernel='rbf',")
    print("    fit_inverse_transform=True) on the CPU cores: fit + inverse_transform(transform)")
    print(f"    of the {n_test} noisy augmented digits of (b), n = {n}", end="")
    if n < n_want:
        print(
            f" (not {n_want}: n = {n_probe} took {t_probe:.1f} s, n^3 extrapolation over "
            f"the {budget:.0f} s budget)",
            end="",
        )
    print(f"; the same gamma. Device: fixed point, {Q} components, float32.")
    X = pool[:n]
    gamma = default_gamma(X)
    t_sk, V_sk, Z_sk = sklearn_job(X, noisy, gamma)
    dev = device_phases(X, noisy, to_dev, sync, to_numpy, rate=None, check=False)
    cos = np.linalg.svd(dev["V"].astype(np.float64).T @ V_sk, compute_uv=False).min()
    msd = np.mean(np.sum((dev["Z"] - Z_sk) ** 2, axis=1))
    mse_sk, mse_dev = (np.mean(np.sum((Z - clean) ** 2, axis=1)) for Z in (Z_sk, dev["Z"]))
    ratio = t_sk / dev["total"]
    print(
        f"scikit-learn {t_sk:.2f} s, device {dev['total']:.2f} s: speed-up {ratio:.1f}x "
        f"(target >= 50x: {'met' if ratio >= 50 else 'NOT met'})"
    )
    print(
        f"  match: subspace agreement (cos of the largest principal angle) {cos:.6f}; "
        f"denoised outputs' mean squared difference {msd:.3f} per digit"
    )
    print(
        f"  (learned map vs fixed point; MSE to the clean digits: scikit-learn {mse_sk:.3f}, "
        f"device {mse_dev:.3f})"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes (a check that it runs)")
    parser.add_argument("--device", default="cuda", help="torch device (default cuda)")
    parser.add_argument("--namespace", default="torch", choices=["torch", "array_api_strict"])
    parser.add_argument(
        "--sklearn-budget",
        type=float,
        default=150.0,
        help="seconds allowed for scikit-learn's job in (c)",
    )
    args = parser.parse_args()
    os.environ.setdefault("SCIPY_ARRAY_API", "1")
    if "scipy" in sys.modules and os.environ["SCIPY_ARRAY_API"] != "1":
        sys.exit("bench_gpu.py needs SCIPY_ARRAY_API=1")
    to_dev, sync, desc, _ = make_env(args)
    import sklearn

    from preimage._utils.xp import to_numpy

    sklearn.set_config(array_api_dispatch=True)
    header(desc)
    from sklearn.externals.array_api_compat import array_namespace

    W = to_dev(np.random.default_rng(3).random((410, 410)))  # warm-up: context, BLAS, solvers
    xpw = array_namespace(W)
    timed(lambda: (W @ W, xpw.linalg.eigh(W @ W.T), xpw.linalg.qr(W)), sync)
    start = time.perf_counter()
    if args.quick:
        part_a(300, 40, to_dev, sync, to_numpy)
        rate_fn = lambda n: matmul_rate(n, to_dev, sync)  # noqa: E731
        part_b([2500], 50, to_dev, sync, to_numpy, rate_fn)
        part_c(2500, 50, args.sklearn_budget, to_dev, sync, to_numpy, quick=True)
    else:
        part_a(5000, 1000, to_dev, sync, to_numpy)
        part_b(
            [20000, 50000], 10000, to_dev, sync, to_numpy, lambda n: matmul_rate(n, to_dev, sync)
        )
        part_c(20000, 10000, args.sklearn_budget, to_dev, sync, to_numpy, quick=False)
    print(f"\nwall time of the whole run: {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
