"""Denoising in the plane: Schölkopf et al. (1999), Fig. 5, and Mika et al.
(1999), Fig. 1.

Three clusters (Schölkopf et al., Sec. VI-A): three point sources with
Gaussian noise; kernel PCA on training points with
``k(x, y) = exp(−‖x − y‖²/0.1)`` (gamma = 10, the kernel of the same toy
problem in Schölkopf, Smola & Müller 1998; the numerals of the 1999 text are
lost), then test points from the same model reconstructed from n = 1…8
components by the fixed point started at the test point. Discarding
higher-order components removes the noise: the points move toward their
sources. We measure the mean squared distance of the pre-images to their
source, beside linear PCA with one and two components.

Half circle and square (Mika et al., Fig. 1): a noisy curve is denoised
through four kernel PCA features (the paper's choice for its figure), by a
nonlinear autoencoder, by principal curves, and by linear PCA with one
component ("using two components, reconstruction is perfect and thus does not
denoise"). The autoencoder is the paper's 5-layer bottleneck network trained
in autoassociative mode (input 2, tanh hidden layer of h units, one tanh
bottleneck unit, tanh hidden layer of h units, linear output 2), trained by
L-BFGS (the paper used conjugate gradients, which scikit-learn lacks; L-BFGS
is its full-batch optimiser); the denoised point is the network's output. The
principal curve is Hastie & Stuetzle's (``_principal_curves``), with the
span of its smoother annealed as the paper describes; the denoised point is
the projection on the curve. The paper selected every parameter for the best
denoising; we select the kernel width, the autoencoder's h and the final span
the same way (by the mean squared distance to the noiseless points), but on
an independent validation draw, and report on a fresh draw both that error
and the mean squared distance to the curve.

What to observe: the three clusters collapse onto their sources as n
decreases, with n = 2 already separating them; on the curves kernel PCA,
the autoencoder and the principal curve follow the half circle, which a line
cannot; on the square, the autoencoder and the principal curve are open
curves (one-dimensional parameterisations) that must leave a gap somewhere in
the closed boundary, where kernel PCA has none.
"""

import warnings

import numpy as np

from preimage import KernelPCA
from preimage.datasets import make_half_circle, make_square, make_three_clusters
from preimage.solvers import find_preimage
from reproductions._common import linear_pca_reconstruct, quiet_convergence, squared_errors
from reproductions._principal_curves import principal_curve
from reproductions._report import Report, Table

NAME = "toy-2d"

#: Kernel of the three-cluster problem: exp(−‖x − y‖²/0.1).
CLUSTER_GAMMA = 10.0
#: Candidate widths for the curves, chosen on a validation draw.
CURVE_GAMMAS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0)
#: Kernel PCA features used for the curves, as in Mika et al., Fig. 1.
CURVE_COMPONENTS = 4
#: Candidate final spans of the principal curve, chosen on a validation draw;
#: each is reached by annealing, halving the span from ``SPAN_START``.
CURVE_SPANS = (0.05, 0.1, 0.2, 0.4)
SPAN_START = 0.5
#: Candidate widths h of the autoencoder's outer hidden layers (2-h-1-h-2),
#: chosen on a validation draw; each is trained from `AUTOENCODER_RESTARTS`
#: random starts and the start of least training error is kept.
AUTOENCODER_WIDTHS = (4, 8, 16)
AUTOENCODER_RESTARTS = 3
AUTOENCODER_MAX_ITER = 5000


def denoise(X_train, X, n_components, gamma):
    """Fixed-point pre-images of the projections of X on each n in
    `n_components` (kernel PCA fitted once on X_train); returns the list of
    results."""
    kpca = KernelPCA(max(n_components), kernel="rbf", gamma=gamma, eigen_solver="dense").fit(
        X_train
    )
    with quiet_convergence():
        return [
            find_preimage(kpca.project(X, n_components=n), "fixed_point", x0=X, max_iter=1000)
            for n in n_components
        ]


# -- three clusters --------------------------------------------------------


def three_clusters(n_per_cluster, n_components, rng):
    """Train and test draws, the pre-images for each n, linear PCA for 1, 2."""
    X, _ = make_three_clusters(n_per_cluster, random_state=rng)
    T, t, centers = make_three_clusters(n_per_cluster, return_centers=True, random_state=rng)
    results = denoise(X, T, n_components, CLUSTER_GAMMA)
    linear = linear_pca_reconstruct(X, T, [1, 2])
    return dict(X=X, T=T, source=centers[t], results=results, linear=linear)


def _cluster_table(run, n_components):
    source = run["source"]
    rows = [["noisy test points", "", squared_errors(run["T"], source).mean(), None]]
    for n, L in zip((1, 2), run["linear"]):
        rows.append(["linear PCA", n, squared_errors(L, source).mean(), None])
    for n, r in zip(n_components, run["results"]):
        rows.append(
            [
                "kernel PCA + fixed point",
                n,
                squared_errors(r.x, source).mean(),
                int((~r.converged).sum()),
            ]
        )
    return Table(
        "three_clusters",
        "Three clusters: mean squared distance of the test points to their source",
        ["method", "components", "mean squared distance", "unconverged"],
        rows,
        digits=4,
    )


def _cluster_figure(run, n_components):
    from preimage.plot import pyplot

    plt = pyplot()
    cols = 4
    nrows = -(-len(n_components) // cols)
    fig, axes = plt.subplots(
        nrows,
        cols,
        figsize=(2.6 * cols, 2.6 * nrows),
        layout="constrained",
        sharex=True,
        sharey=True,
        squeeze=False,
    )
    for ax, n, r in zip(axes.flat, n_components, run["results"]):
        ax.scatter(*run["X"].T, s=3, color="0.75", label="training points")
        ax.plot(
            np.stack([run["T"][:, 0], r.x[:, 0]]),
            np.stack([run["T"][:, 1], r.x[:, 1]]),
            color="tab:green",
            lw=0.4,
        )
        ax.scatter(*r.x.T, s=8, color="tab:red", zorder=3, label="pre-images")
        ax.set_title(f"n = {n}", fontsize=9)
        ax.set_aspect("equal")
    for ax in axes.flat[len(n_components) :]:
        ax.set_visible(False)
    axes.flat[0].legend(fontsize=6, loc="lower left")
    fig.suptitle("Three clusters: test points (line ends) and their pre-images from n components")
    return fig


# -- curves ----------------------------------------------------------------


def distance2_to_half_circle(Z):
    """Squared distance to the upper unit half circle."""
    Z = np.asarray(Z, float)
    radial = (np.hypot(Z[:, 0], Z[:, 1]) - 1.0) ** 2
    ends = np.minimum(((Z - [1.0, 0.0]) ** 2).sum(1), ((Z - [-1.0, 0.0]) ** 2).sum(1))
    return np.where(Z[:, 1] >= 0, radial, ends)


def distance2_to_square(Z):
    """Squared distance to the boundary of the square [−1, 1]²."""
    A = np.abs(np.asarray(Z, float))
    outside = (np.maximum(A - 1.0, 0.0) ** 2).sum(1)
    inside = np.min(1.0 - A, axis=1).clip(min=0.0) ** 2
    return np.where((A <= 1.0).all(1), inside, outside)


CURVES = {
    "half circle": (make_half_circle, distance2_to_half_circle),
    "square": (make_square, distance2_to_square),
}


def annealed_spans(span, start=SPAN_START):
    """The annealing schedule ending at `span`: `start`, start/2, ... while
    above `span`, then `span`."""
    spans = []
    while start > span * (1 + 1e-9):
        spans.append(start)
        start /= 2
    return [*spans, span]


def principal_curve_denoise(X, span):
    """Hastie–Stuetzle principal curve of X annealed down to `span`."""
    return principal_curve(X, span=annealed_spans(span), tol=1e-3, max_iter=50)


def autoencoder_denoise(
    X, width, *, restarts=AUTOENCODER_RESTARTS, max_iter=AUTOENCODER_MAX_ITER, seed=0
):
    """Train the 2-h-1-h-2 tanh bottleneck network X → X from `restarts`
    random starts (random_state seed, seed + 1, ...), keep the one of least
    training loss; return its output, its bottleneck activation (the curve
    parameter), whether L-BFGS stopped at `max_iter`, and the network."""
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.neural_network import MLPRegressor
    from threadpoolctl import threadpool_limits

    best = None
    for r in range(restarts):
        net = MLPRegressor(
            hidden_layer_sizes=(width, 1, width),
            activation="tanh",
            solver="lbfgs",
            alpha=0.0,
            max_iter=max_iter,
            tol=1e-8,
            random_state=seed + r,
        )
        # Matrices of a few dozen entries: BLAS threads only cost time.
        with warnings.catch_warnings(), threadpool_limits(1):
            warnings.simplefilter("ignore", ConvergenceWarning)
            net.fit(X, X)
        if best is None or net.loss_ < best.loss_:
            best = net
    # The bottleneck activation: tanh(tanh(X W1 + b1) W2 + b2).
    hidden = np.tanh(X @ best.coefs_[0] + best.intercepts_[0])
    code = np.tanh(hidden @ best.coefs_[1] + best.intercepts_[1])
    return dict(x=best.predict(X), code=code[:, 0], at_max_iter=best.n_iter_ >= max_iter, net=best)


def _select(candidates, denoised, X_clean):
    """The candidate whose denoised validation points are nearest (mean
    squared distance) to the noiseless points."""
    scores = [squared_errors(denoised(c), X_clean).mean() for c in candidates]
    return candidates[int(np.argmin(scores))]


def curve(
    name,
    n_samples,
    rng,
    *,
    widths=AUTOENCODER_WIDTHS,
    restarts=AUTOENCODER_RESTARTS,
    max_iter=AUTOENCODER_MAX_ITER,
):
    """Select each method's parameter on a validation draw, then denoise a
    fresh draw with each."""
    make, distance2 = CURVES[name]
    V, V_clean = make(n_samples, random_state=rng)
    gamma = _select(CURVE_GAMMAS, lambda g: denoise(V, V, [CURVE_COMPONENTS], g)[0].x, V_clean)
    span = _select(CURVE_SPANS, lambda s: principal_curve_denoise(V, s).projections, V_clean)
    width = _select(
        widths,
        lambda h: autoencoder_denoise(V, h, restarts=restarts, max_iter=max_iter)["x"],
        V_clean,
    )
    X, X_clean = make(n_samples, random_state=rng)
    return dict(
        X=X,
        clean=X_clean,
        distance2=distance2,
        gamma=gamma,
        kernel=denoise(X, X, [CURVE_COMPONENTS], gamma)[0],
        span=span,
        principal=principal_curve_denoise(X, span),
        width=width,
        autoencoder=autoencoder_denoise(X, width, restarts=restarts, max_iter=max_iter),
        linear=linear_pca_reconstruct(X, X, [1])[0],
    )


def _curve_methods(c):
    """(label, denoised points) of each method, in the paper's order."""
    return [
        (f"kernel PCA, {CURVE_COMPONENTS} components, gamma = {c['gamma']:g}", c["kernel"].x),
        (f"autoencoder 2-{c['width']}-1-{c['width']}-2", c["autoencoder"]["x"]),
        (f"principal curve, span {c['span']:g}", c["principal"].projections),
        ("linear PCA, 1 component", c["linear"]),
    ]


def _curve_table(curves):
    rows = []
    for name, c in curves.items():
        d2 = c["distance2"]
        for label, Z in [("noisy data", c["X"]), *_curve_methods(c)]:
            rows.append([name, label, d2(Z).mean(), squared_errors(Z, c["clean"]).mean()])
    return Table(
        "curves",
        "Curves: mean squared distance to the curve and to the noiseless points",
        ["data", "method", "to the curve", "to the noiseless points"],
        rows,
        digits=4,
    )


def _curve_order(Z, closed):
    """An order in which to join denoised points into a line: along the line
    for points on a line, else by polar angle (closing the loop if `closed`)."""
    centred = Z - Z.mean(axis=0)
    _, s, Vt = np.linalg.svd(centred, full_matrices=False)
    if s[1] < 1e-6 * s[0]:
        return np.argsort(centred @ Vt[0])
    order = np.argsort(np.arctan2(Z[:, 1], Z[:, 0]))
    return np.append(order, order[0]) if closed else order


def _curve_figure(curves):
    from preimage.plot import pyplot

    plt = pyplot()
    fig, axes = plt.subplots(
        len(curves),
        4,
        figsize=(11.0, 2.9 * len(curves)),
        layout="constrained",
        sharex="row",
        sharey="row",
        squeeze=False,
    )
    for row, (name, c) in zip(axes, curves.items()):
        # Each method's points joined in the order of its own parameter
        # where it has one (the bottleneck unit, the arc length).
        lines = [
            c["kernel"].x[_curve_order(c["kernel"].x, closed=name == "square")],
            c["autoencoder"]["x"][np.argsort(c["autoencoder"]["code"])],
            c["principal"].vertices,
            c["linear"][_curve_order(c["linear"], closed=False)],
        ]
        for ax, (label, Z), line in zip(row, _curve_methods(c), lines):
            err = squared_errors(Z, c["clean"]).mean()
            ax.scatter(*c["X"].T, s=3, color="0.5")
            ax.scatter(*Z.T, s=12, color="tab:red")
            ax.plot(*line.T, color="tab:red", lw=0.8)
            ax.set_title(f"{name}: {label.split(',')[0]}\nMSD to noiseless {err:.4f}", fontsize=8)
            ax.set_aspect("equal")
    fig.suptitle(
        "Data (small points) and denoised (big points), as in Mika et al. Fig. 1; "
        "MSD = mean squared distance"
    )
    return fig


def run(*, quick=False, seed=0, echo=print):
    """Run the reproduction; see the module docstring."""
    rng = np.random.default_rng(seed)
    n_components = list(range(1, 9))
    n_cluster = 30 if quick else 100
    echo(f"{NAME}: three clusters, n = 1..8 components")
    clusters = three_clusters(n_cluster, n_components, rng)
    echo(f"{NAME}: half circle and square")
    # Quick: one autoencoder width, one start, fewer iterations: seconds.
    ae = dict(widths=(8,), restarts=1, max_iter=300) if quick else {}
    curves = {name: curve(name, 40 if quick else 100, rng, **ae) for name in CURVES}

    report = Report(
        name=NAME,
        title="Denoising in the plane (Schölkopf et al. 1999 Fig. 5; Mika et al. 1999 Fig. 1)",
        paper="Schölkopf et al. (1999), Sec. VI-A and Fig. 5; Mika et al. (1999), Fig. 1",
        data=(
            f"synthetic: three sources (-0.5, -0.1), (0, 0.7), (0.5, 0.1) with noise "
            f"0.1, {n_cluster} training and {n_cluster} test points each; half circle "
            f"and square boundary with Gaussian noise 0.05, {40 if quick else 100} "
            "points (the papers give no sizes or noise levels for the curves)"
        ),
    )
    report.tables += [_cluster_table(clusters, n_components), _curve_table(curves)]
    report.figures["three_clusters"] = lambda: _cluster_figure(clusters, n_components)
    report.figures["curves"] = lambda: _curve_figure(curves)
    report.notes.append(
        "Three clusters: kernel exp(−‖x − y‖²/0.1), principal-part projection, fixed "
        "point started at each test point (at most 1000 iterations). The papers show "
        "this only as a figure; the table quantifies it."
    )
    widths = ae.get("widths", AUTOENCODER_WIDTHS)
    restarts = ae.get("restarts", AUTOENCODER_RESTARTS)
    max_iter = ae.get("max_iter", AUTOENCODER_MAX_ITER)
    report.notes.append(
        "Curves: each method's parameter was chosen by the mean squared distance to the "
        "noiseless points on a separate validation draw of the same curve, then applied "
        "to a fresh draw, which is denoised in place (the data set is both the training "
        "set and the set denoised, as in the paper's figure). Kernel PCA: "
        f"{CURVE_COMPONENTS} components, fixed point started at each point, gamma from "
        f"{list(CURVE_GAMMAS)}. Autoencoder: scikit-learn MLPRegressor trained X → X, "
        "layers 2-h-1-h-2, tanh hidden and bottleneck units, linear output, no weight "
        f"penalty, L-BFGS (at most {max_iter} iterations, tol 1e-8), h from "
        f"{list(widths)}, {restarts} random start(s) (random_state 0, 1, ...) of which the "
        "least training loss is kept; denoised = the network's output. Principal curve: "
        "Hastie & Stuetzle, started from the first principal-component line, tricube "
        f"running-line smoother, span annealed by halving from {SPAN_START} down to the "
        f"final span chosen from {list(CURVE_SPANS)}, at most 50 iterations per span, "
        "stop when D² changes by less than 0.1 %; denoised = the projection on the curve. "
        "Linear PCA: one component."
    )
    for name, c in curves.items():
        p = c["principal"]
        report.notes.append(
            f"{name}: principal curve {p.n_iter} iterations over "
            f"{len(annealed_spans(c['span']))} spans, last span converged: {p.converged}; "
            f"autoencoder stopped at the iteration limit: {c['autoencoder']['at_max_iter']}."
        )
    return report
