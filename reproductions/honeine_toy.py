"""Honeine & Richard (2011), Sec. 5.1 and Fig. 2: four 2-D sets, three
pre-image methods.

Protocol (their Table 2): for each of the frame, banana, spiral and sine sets,
``n_train`` noisy points train kernel PCA with ``n_eigen`` components and a
Gaussian kernel ``exp(−‖x − y‖²/(2σ²))`` (gamma = 1/(2σ²)); ``n_preimage``
further noisy points of the same set are projected and brought back to the
plane by each pre-image method, and compared with the noiseless points they
were generated from.

========  =======  ==========  ===  =======  ===
set       n_train  n_preimage  ν    n_eigen  σ
========  =======  ==========  ===  =======  ===
frame     350      850         0.1  5        0.4
banana    300      200         0.2  3        0.5
spiral    70       250         0.3  10       0.3
sine      420      330         0.5  10       0.4
========  =======  ==========  ===  =======  ===

Methods:

* fixed point (Mika et al. 1999) started at the noisy point, at most 100
  iterations (the paper's limit);
* the same with the paper's start, ``x₀ = Σ_i γ_i x_i`` with ``γ_i`` uniform on
  [−1, 1] over the training points;
* MDS (Kwok & Tsang 2003) on all training points ("global", the paper's
  setting) and on the 10 nearest (Kwok & Tsang's local version), solved in the
  frame of the neighbours themselves (``U z + x̄``);
* the paper's own reading of global MDS: classical MDS of the training points
  and the unknown point together, aligned to the training points by a
  Procrustes rigid motion (``MDSPreimage(alignment="procrustes")``). It equals
  the frame solution only when the input distances are exactly those of a
  point of the plane, which distances read from a projection are not (proof in
  ``preimage.solvers._mds``), so it is a separate row;
* the closed form (their eq. 9), λ = 1e-9 (the paper states λ only for MNIST).

Kernel PCA in the paper is centred but the text does not say which
projection is passed to the pre-image methods, so both are run: the principal
part ``Σ_k ⟨V_k, φ(x)⟩ V_k`` (the library default) and the exact
reconstruction ``Pφ̃(x) + μ`` with the feature-space mean added back.

The paper's "reconstruction error" is not defined in its text. We report three
means over the denoised points: the squared input distance to the noiseless
point, the squared input distance to the noisy input, and the feature-space
residual ``‖Pφ(x) − φ(z)‖²`` each method leaves. The experiment is repeated
over independent draws (mean ± sd over draws).

What to observe: where the methods put the denoised points relative to the
noiseless curve (the figures), which method has the smallest error in each set
and with each projection, and how the global MDS behaves when most training
points are far away in feature space (distances ``d̃² ≥ 2`` have no input-space
inverse, and those training points are left out).
"""

import warnings

import numpy as np

from preimage import KernelPCA
from preimage.datasets import (
    HONEINE_RICHARD_TABLE2,
    make_banana,
    make_frame,
    make_sine,
    make_spiral,
)
from preimage.exceptions import NumericalWarning
from preimage.solvers import ClosedFormPreimage, MDSPreimage, find_preimage, support_distance2
from reproductions._common import quiet_convergence, squared_errors
from reproductions._report import Report, Table

NAME = "honeine-toy"

MAKERS = {"frame": make_frame, "banana": make_banana, "spiral": make_spiral, "sine": make_sine}
#: Projection name -> ``add_mean`` of :meth:`KernelPCA.project`.
PROJECTIONS = {"principal part": False, "with mean": True}
#: λ of the closed form (the paper's MNIST value; none is given for 2-D).
ALPHA = 1e-9
#: The paper's iteration limit for the fixed point on these sets.
MAX_ITER = 100
METHODS = (
    "fixed point, noisy start",
    "fixed point, paper's start",
    "MDS, 10 neighbours",
    "MDS, global",
    "MDS, global, Procrustes",
    "closed form",
)
#: Methods drawn in the figure, as the three columns of the paper's Fig. 2.
FIGURE_METHODS = ("fixed point, noisy start", "MDS, global", "closed form")


def draw(name, params, scale, rng):
    """Training points and points to denoise (noisy and clean) of one set.

    `scale` shrinks the set sizes (for the quick run).
    """
    make = MAKERS[name]
    n_train = max(int(params["n_train"] * scale), 2 * params["n_components"])
    n_test = max(int(params["n_preimage"] * scale), 10)
    X, _ = make(n_train, noise=params["noise"], random_state=rng)
    T, T_clean = make(n_test, noise=params["noise"], random_state=rng)
    return X, T, T_clean


def _clipped(expansion, result):
    """How many neighbours MDS had to leave out (``d̃² ≥ 2 k(x, x) = 2``)."""
    d2 = np.take_along_axis(support_distance2(expansion), result.info["neighbors"], axis=1)
    return int((d2 >= 2.0).sum())


def denoise(X, T, params, rng):
    """Pre-images of T's projections by every method, for both projections.

    Returns ``{projection: {method: (result, extra)}}`` where ``extra`` counts
    fixed-point restarts or MDS neighbours left out, and the largest deviation
    of the closed form from ``Σ_i γ_i x_i`` (its λ → 0 limit).
    """
    kpca = KernelPCA(
        params["n_components"],
        kernel="rbf",
        gamma=1.0 / (2 * params["sigma"] ** 2),
        eigen_solver="dense",
    ).fit(X)
    kernel = kpca.kernel_
    solvers = {
        "MDS, 10 neighbours": MDSPreimage(10).fit(X, kernel),
        "MDS, global": MDSPreimage(len(X)).fit(X, kernel),
        "MDS, global, Procrustes": MDSPreimage(len(X), alignment="procrustes").fit(X, kernel),
        "closed form": ClosedFormPreimage(ALPHA).fit(X, kernel),
    }
    paper_start = rng.uniform(-1.0, 1.0, size=(len(T), len(X))) @ X
    out, deviation = {}, 0.0
    for projection, add_mean in PROJECTIONS.items():
        psi = kpca.project(T, add_mean=add_mean)
        runs = {}
        with quiet_convergence():
            for method, x0 in (
                ("fixed point, noisy start", T),
                ("fixed point, paper's start", paper_start),
            ):
                r = find_preimage(psi, "fixed_point", x0=x0, max_iter=MAX_ITER, random_state=rng)
                runs[method] = (r, int(r.info["restarts"].sum()))
        for method, solver in solvers.items():
            with warnings.catch_warnings():
                # MDS warns about neighbours it left out; the table counts them.
                warnings.simplefilter("ignore", NumericalWarning)
                r = find_preimage(psi, solver)
            runs[method] = (r, _clipped(psi, r) if method.startswith("MDS") else None)
        deviation = max(deviation, float(np.abs(runs["closed form"][0].x - psi.coef @ X).max()))
        out[projection] = runs
    return out, deviation


def _summary(results, T, T_clean):
    """Per-draw numbers of one method: errors and counts."""
    r, extra = results
    return dict(
        clean=squared_errors(r.x, T_clean).mean(),
        noisy=squared_errors(r.x, T).mean(),
        residual=float(np.mean(r.distance2)),
        unconverged=int((~r.converged).sum()),
        extra=extra,
    )


def _mean_sd(values):
    values = np.asarray(values, float)
    return (
        (float(values.mean()), float(values.std(ddof=1))) if values.size > 1 else float(values[0])
    )


def _table(draws):
    """One row per set, projection and method; errors as mean ± sd over draws."""
    rows = []
    for name, per_draw in draws.items():
        noise = [squared_errors(d["T"], d["T_clean"]).mean() for d in per_draw]
        rows.append(
            [name, "", "noisy input (no denoising)", _mean_sd(noise), 0.0, None, None, None, None]
        )
        for projection in PROJECTIONS:
            for method in METHODS:
                s = [d["summary"][projection][method] for d in per_draw]
                fixed, mds = method.startswith("fixed"), method.startswith("MDS")
                unconverged = sum(x["unconverged"] for x in s)
                extra = sum(x["extra"] or 0 for x in s)
                rows.append(
                    [
                        name,
                        projection,
                        method,
                        _mean_sd([x["clean"] for x in s]),
                        _mean_sd([x["noisy"] for x in s]),
                        _mean_sd([x["residual"] for x in s]),
                        unconverged if fixed else None,
                        extra if fixed else None,
                        extra if mds else None,
                    ]
                )
    return Table(
        "table2_errors",
        "Mean squared distance of the pre-images to the noiseless points and to "
        "the noisy inputs, and mean feature-space residual ‖Pφ(x) − φ(z)‖²; "
        "mean ± sd over draws; counts summed over draws",
        [
            "set",
            "projection",
            "method",
            "to noiseless",
            "to noisy input",
            "feature residual",
            "unconverged",
            "restarts",
            "left out d̃² ≥ 2",
        ],
        rows,
        digits=4,
    )


def _figure(first, projection):
    """The paper's Fig. 2: sets in rows, methods in columns, for one draw."""
    from matplotlib.collections import LineCollection

    from preimage.plot import pyplot

    plt = pyplot()
    fig, axes = plt.subplots(
        len(first), len(FIGURE_METHODS), figsize=(9.0, 11.0), layout="constrained", squeeze=False
    )
    for row, (name, d) in zip(axes, first.items()):
        X, T = d["X"], d["T"]
        low, high = X.min(axis=0), X.max(axis=0)
        margin = 0.25 * (high - low)
        low, high = low - margin, high + margin
        for ax, method in zip(row, FIGURE_METHODS):
            Z = d["results"][projection][method][0].x
            outside = int((~((Z >= low) & (Z <= high)).all(axis=1)).sum())
            ax.add_collection(
                LineCollection(np.stack([Z, T], axis=1), colors="tab:green", linewidths=0.4)
            )
            ax.scatter(*X.T, s=2, color="tab:blue")
            ax.scatter(*Z.T, s=3, color="tab:red", zorder=3)
            ax.set_xlim(low[0], high[0])
            ax.set_ylim(low[1], high[1])
            ax.set_aspect("equal")
            ax.tick_params(labelsize=7)
            ax.set_title(
                f"{name}: {method}" + (f"\n({outside} outside the panel)" if outside else ""),
                fontsize=8,
            )
    fig.suptitle(
        f"Honeine & Richard Fig. 2, projection: {projection}. Training points blue, "
        "pre-images red, green lines to the noisy inputs",
        fontsize=9,
    )
    return fig


def run(*, quick=False, seed=0, echo=print):
    """Run the reproduction; see the module docstring."""
    seeds = [seed] if quick else [seed + i for i in range(5)]
    scale = 0.2 if quick else 1.0
    draws = {name: [] for name in HONEINE_RICHARD_TABLE2}
    deviation = 0.0
    for s in seeds:
        echo(f"{NAME}: draw {s}: {', '.join(HONEINE_RICHARD_TABLE2)}")
        for k, (name, params) in enumerate(HONEINE_RICHARD_TABLE2.items()):
            rng = np.random.default_rng([s, k])
            X, T, T_clean = draw(name, params, scale, rng)
            results, dev = denoise(X, T, params, rng)
            deviation = max(deviation, dev)
            summary = {
                p: {m: _summary(results[p][m], T, T_clean) for m in METHODS} for p in PROJECTIONS
            }
            draws[name].append(dict(X=X, T=T, T_clean=T_clean, results=results, summary=summary))
    first = {name: d[0] for name, d in draws.items()}
    sizes = ", ".join(f"{name} {len(d['X'])}/{len(d['T'])}" for name, d in first.items())

    report = Report(
        name=NAME,
        title="Four 2-D sets, three pre-image methods (Honeine & Richard 2011, Fig. 2)",
        paper="Honeine & Richard (2011), Sec. 5.1, Table 2 and Fig. 2",
        data=(
            f"synthetic frame, banana, spiral and sine sets generated as described in the "
            f"paper, noise ν of its Table 2; training/denoised points: {sizes}; "
            f"{len(seeds)} independent draws (seeds {seeds[0]}..{seeds[-1]})"
        ),
    )
    report.tables.append(_table(draws))
    for projection in PROJECTIONS:
        stem = "fig2_" + projection.replace(" ", "_")
        report.figures[stem] = lambda p=projection: _figure(first, p)
    n_points = sum(len(d["T"]) for d in first.values()) * len(seeds)
    report.notes += [
        "Kernel PCA with the Table 2 widths and component counts (gamma = 1/(2σ²)), fitted "
        "on the training points; the other points are projected, then denoised. The paper "
        "does not define its 'reconstruction error' in the text, so the table gives the "
        "mean squared input distance to the noiseless points, to the noisy inputs, and the "
        "feature-space residual ‖Pφ(x) − φ(z)‖².",
        f"Fixed point: at most {MAX_ITER} iterations (the paper's limit), tolerance 1e-7 "
        f"relative; counts are over {n_points} pre-images per projection and method. The "
        "paper's start Σ γ_i x_i with γ_i uniform on [−1, 1] lies far from every training "
        "point, where the fixed-point denominator Σ γ_i k(z, x_i) vanishes; the solver then "
        "restarts from the training point nearest in feature space (then from random "
        "training points), which the 'restarts' column counts. The best point seen is "
        "returned when the limit is reached.",
        "MDS: feature distances d̃² ≥ 2 have no input-space distance under the Gaussian "
        "kernel, so they say nothing about where the pre-image lies; the solver leaves "
        "those training points out and runs MDS on the others (the 'left out' column "
        "counts them over all neighbours). The global version "
        "uses every training point as a neighbour. Kwok & Tsang's solution is expressed "
        "in the neighbours' own frame and needs no alignment; the paper's description "
        "(classical MDS, then Procrustes) is the 'Procrustes' row: MDS of the training "
        "points and the unknown point embedded in 2 dimensions, the rigid motion "
        "(rotation, reflection, translation; no scaling) that best maps the embedded "
        "training points onto their coordinates, applied to the point. The two agree "
        "exactly when the input distances are those of a point of the plane, and differ "
        "otherwise.",
        f"Closed form: λ = {ALPHA:g} (the paper's MNIST value; it gives none for "
        f"the 2-D sets). Its pre-images differed from the λ → 0 limit Σ γ_i x_i by at most "
        f"{deviation:.2g} in any coordinate.",
        "Figures: the first draw; estimates outside the plotted window (the training "
        "points' range plus a quarter on each side) are counted in the panel titles.",
    ]
    return report
