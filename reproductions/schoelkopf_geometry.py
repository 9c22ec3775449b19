"""The metric of the kernel map: Schölkopf et al. (1999), Sec. II-E.

The feature map embeds input space as a surface whose Riemannian metric is
written in the kernel alone, ``g_ij = ∂²k(x, x')/∂x_i∂x'_j |_{x'=x}``; for
dot-product kernels ``g_ij = K' δ_ij + K'' x_i x_j``. The paper computes the
curvature of the surface of the polynomial kernels ``(⟨x, x'⟩ + c)^p`` and
states: both curvatures (homogeneous, c = 0, and inhomogeneous, c > 0) vanish
for p = 1; for input dimension 2 the homogeneous one vanishes for all powers
whereas the inhomogeneous one vanishes for none p ≠ 1; the surfaces of
homogeneous kernels with nonvanishing curvature have a singularity at x = 0,
none of the inhomogeneous ones does. The formula itself is lost from the
available text; ours (``preimage.geometry``, module docstring of
``_curvature``) is derived from the warped-product form of the metric.

Each statement is checked two ways: the closed forms (metric and scalar
curvature), and finite differences that use nothing but the kernel's gradient
(the metric by central differences of ∇k, the curvature by central
differences of that metric). The metric is also compared with the line
element ``k(x+δ, x+δ) − 2k(x, x+δ) + k(x, x)`` from kernel values alone.

What to observe: the closed forms and the differences agree to about 10⁻¹⁰
(metric) and 10⁻⁵ (curvature, relative to the size of its terms); the
homogeneous surface in the plane is flat (a cone) while the inhomogeneous one
is not; in three dimensions the homogeneous curvature grows like ‖x‖^{−2p}
toward 0 while the inhomogeneous one stays finite; the Gaussian's surface is
flat, with metric 2γ I.
"""

import numpy as np

from preimage.geometry import (
    induced_metric,
    metric_by_finite_differences,
    polynomial_scalar_curvature,
    scalar_curvature,
)
from preimage.kernels import GaussianKernel, LinearKernel, PolynomialKernel, SigmoidKernel
from reproductions._report import Report, Table

NAME = "schoelkopf-geometry"

KERNELS = {
    "Gaussian, gamma = 0.5 (sigma = 1)": GaussianKernel(gamma=0.5),
    "linear": LinearKernel(),
    "polynomial p = 2, c = 1": PolynomialKernel(degree=2, gamma=1.0, coef0=1.0),
    "polynomial p = 3, c = 0": PolynomialKernel(degree=3, gamma=1.0, coef0=0.0),
    "polynomial p = 3, c = 1": PolynomialKernel(degree=3, gamma=1.0, coef0=1.0),
    "sigmoid, gamma = 0.3, c = 0.1": SigmoidKernel(gamma=0.3, coef0=0.1),
}


def _points(n, d, rng):
    """Points with norms spread over [0.3, 1.5]."""
    U = rng.normal(size=(n, d))
    U /= np.linalg.norm(U, axis=1, keepdims=True)
    return U * rng.uniform(0.3, 1.5, size=(n, 1))


def _line_element_error(kernel, X, rng):
    """Largest relative gap between δᵀgδ and the feature-space squared
    distance from kernel values, |δ| = 10⁻⁴."""
    g = induced_metric(kernel, X)
    worst = 0.0
    for x, gx in zip(X, g):
        u = rng.normal(size=x.size)
        delta = 1e-4 * u / np.linalg.norm(u)
        K = kernel(np.stack([x, x + delta]))
        feature = K[1, 1] - 2 * K[0, 1] + K[0, 0]
        worst = max(worst, abs(feature - delta @ gx @ delta) / abs(delta @ gx @ delta))
    return worst


def _scale(kernel, X, R):
    """Size of the terms that cancel into R (see tests/test_geometry.py)."""
    scale = np.maximum(1.0, np.abs(R))
    if isinstance(kernel, PolynomialKernel):
        u = kernel.gamma * (X**2).sum(1) + kernel.coef0
        scale = np.maximum(scale, u ** (-kernel.degree))
    return scale


def _sci(x):
    """A number that may be tiny, in scientific notation (the tables' text)."""
    return f"{float(x):.2e}"


def metric_table(n, dims, rng):
    rows = []
    for name, kernel in KERNELS.items():
        for d in dims:
            X = _points(n, d, rng)
            closed = induced_metric(kernel, X, method="closed_form")
            numeric = metric_by_finite_differences(kernel, X)
            gap = np.abs(closed - numeric).max() / np.abs(closed).max()
            R = scalar_curvature(kernel, X, method="closed_form")
            scale = _scale(kernel, X, R)
            fd = scalar_curvature(kernel, X, method="finite_differences")
            fd2 = scalar_curvature(
                kernel, X, method="finite_differences", metric="finite_differences"
            )
            rows.append(
                [
                    name,
                    d,
                    _sci(gap),
                    _sci(_line_element_error(kernel, X, rng)),
                    _sci(np.abs(R).max()),
                    _sci((np.abs(fd - R) / scale).max()),
                    _sci((np.abs(fd2 - R) / scale).max()),
                ]
            )
    return Table(
        "closed_vs_differences",
        f"Closed forms against finite differences, {n} random points (norms 0.3-1.5) per row",
        [
            "kernel",
            "d",
            "metric: max abs(closed − differences of ∇k) / max abs(g)",
            "line element: max relative gap to δᵀgδ (‖δ‖ = 1e-4)",
            "max abs(R) (closed form)",
            "R: differences of the closed metric, max gap / scale",
            "R: differences of the differenced metric, max gap / scale",
        ],
        rows,
        digits=3,
    )


def claims_table(n, rng):
    rows = []
    for d, powers in ((2, (1, 2, 3, 5)), (3, (1, 2, 3))):
        X = _points(n, d, rng)
        for p in powers:
            hom = PolynomialKernel(degree=p, coef0=0.0)
            R_hom = scalar_curvature(hom, X, method="finite_differences")
            R_inh = scalar_curvature(
                PolynomialKernel(degree=p, coef0=1.0), X, method="finite_differences"
            )
            rows.append(
                [
                    d,
                    p,
                    _sci(np.abs(R_hom).min()),
                    _sci((np.abs(R_hom) / _scale(hom, X, R_hom)).max()),
                    _sci(np.abs(R_inh).min()),
                    _sci(np.abs(R_inh).max()),
                ]
            )
    return Table(
        "claims_flat",
        "Where R vanishes, by finite differences only: abs(R) of (⟨x, x'⟩ + c)^p over "
        f"{n} random points per row (paper: for d = 2 the homogeneous R vanishes for all p, "
        "the inhomogeneous for p = 1 only)",
        [
            "d",
            "p",
            "c = 0: min abs(R)",
            "c = 0: max abs(R) / scale",
            "c = 1: min abs(R)",
            "c = 1: max abs(R)",
        ],
        rows,
    )


def singularity_table():
    rows = []
    u = np.array([1.0, 2.0, -2.0]) / 3.0
    for t in (1.0, 0.1, 0.01):
        for p in (2, 3):
            for c in (0.0, 1.0):
                k = PolynomialKernel(degree=p, coef0=c)
                x = t * u[None]
                rows.append(
                    [
                        p,
                        c,
                        f"{t:g}",
                        f"{polynomial_scalar_curvature(x, degree=p, coef0=c)[0]:.6g}",
                        f"{scalar_curvature(k, x, method='finite_differences')[0]:.6g}",
                    ]
                )
    return Table(
        "singularity",
        "d = 3: R toward x = 0 (homogeneous: −2(p − 1)/(p‖x‖^{2p}); inhomogeneous: finite)",
        ["p", "c", "‖x‖", "R closed form", "R finite differences"],
        rows,
        digits=0,
    )


def _figure():
    from preimage.plot import pyplot

    plt = pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), layout="constrained")
    radii = np.geomspace(0.05, 3.0, 60)
    marks = np.geomspace(0.08, 2.5, 8)
    for ax, d in zip(axes, (2, 3)):
        e = np.zeros(d)
        e[0] = 1.0
        for i, (p, c) in enumerate([(2, 0.0), (3, 0.0), (2, 1.0), (3, 1.0)]):
            k = PolynomialKernel(degree=p, coef0=c)
            style = "-" if c else "--"
            # in the plane, R is drawn in units of its terms' size (r² + c)^(−p),
            # so that "zero" means zero against the terms that cancel into it
            # in space, R < 0 throughout and spans eight decades: −R on a log scale
            unit = (lambda r, p=p, c=c: (r**2 + c) ** p) if d == 2 else (lambda r: -1.0)
            R = polynomial_scalar_curvature(radii[:, None] * e, degree=p, coef0=c)
            ax.plot(radii, R * unit(radii), style, color=f"C{i}", label=f"p = {p}, c = {c:g}")
            Rm = scalar_curvature(k, marks[:, None] * e, method="finite_differences")
            ax.plot(marks, Rm * unit(marks), "o", color=f"C{i}", ms=4, mfc="none")
        ax.set_xscale("log")
        ax.set_xlabel("‖x‖")
        ax.grid(True, lw=0.3)
    axes[0].set_title("d = 2: flat for c = 0, curved for c > 0")
    axes[0].set_ylabel("R · (‖x‖² + c)^p")
    axes[1].set_yscale("log")
    axes[1].set_title("d = 3: singular at 0 for c = 0, finite for c > 0")
    axes[1].set_ylabel("−R (the scalar curvature R is negative)")
    axes[0].legend(
        fontsize="small", title="lines: closed form; circles: differences", title_fontsize="small"
    )
    fig.suptitle("Curvature of the surface of (⟨x, x'⟩ + c)^p (Schölkopf et al. 1999, Sec. II-E)")
    return fig


def run(*, quick=False, seed=0, echo=print):
    """Run the reproduction; see the module docstring."""
    rng = np.random.default_rng(seed)
    n = 5 if quick else 50
    dims = (2, 3) if quick else (2, 3, 5)
    echo(f"{NAME}: metrics and curvatures at {n} points per kernel and dimension")
    report = Report(
        name=NAME,
        title="The metric and curvature of the kernel map (Schölkopf et al. 1999, Sec. II-E)",
        paper="Schölkopf et al. (1999), Sec. II-E (after Burges 1999)",
        data=f"random points with norms uniform in [0.3, 1.5], {n} per row, seed {seed}",
    )
    report.tables += [metric_table(n, dims, rng), claims_table(n, rng), singularity_table()]
    report.figures["curvature"] = _figure
    report.notes.append(
        "Kernels in the library's parametrisation: Gaussian exp(−γ‖x − x'‖²) (metric 2γ I; "
        "the papers' exp(−‖x − x'‖²/(2σ²)) gives I/σ²), polynomial (γ⟨x, x'⟩ + c)^p with "
        "γ = 1 as in the paper. 'scale' is the size of the terms that cancel into R, "
        "max(1, abs(R), (γ‖x‖² + c)^(−p)): the homogeneous curvature in the plane is zero "
        "as a difference of terms of that size. Differences: the metric with step "
        "ε^(1/3) max(1, ‖x‖∞), the curvature with step 10⁻⁴ max(‖x‖∞, ℓ) (10⁻³ when the metric is itself differenced), ℓ = √(c/γ) "
        "for polynomials and 1/√γ otherwise. Sign convention: the unit sphere has R > 0."
    )
    return report
