"""Bakır, Weston & Schölkopf (2004), Sec. 4, "String prediction with kernel
dependency estimation": the table of symbol errors of KDE with k-NN
pre-images against a plain window k-NN.

Protocol of the paper, and how we read it:

* data: 50 toy string pairs (:func:`preimage.datasets.make_kde_strings`):
  outputs over {1, 2} switching state with probability 1/5, lengths 10–20,
  inputs over {a, b, c} from one of two Markov models whose transitions depend
  on the current output symbol;
* input kernel: the p = 3 spectrum kernel, normalised, inside an RBF of the
  distance it induces, ``K(x, x') = exp(−d(x, x'))`` — read as
  ``KernelDistanceRBF(NormalizedKernel(SpectrumKernel(3)), gamma=1)``, with d
  the (unsquared) feature-space distance of the normalised kernel;
* output kernel: the joint kernel on (input, output) pairs, p = 3 windows of
  the input with the output symbol at their centre, normalised, no RBF;
* "normalised with S ← D⁻¹SD⁻¹, D_ii = Σ_i S_ii": read as the cosine
  normalisation ``D_ii = √S_ii`` (the literal reading makes every D_ii the
  trace, a global scale; it is one of the variants of the readings table);
* KDE: kernel PCA of the output Gram matrix keeping every component with a
  non-zero eigenvalue, the paper's regression ``β = (KᵀK + λI)⁻¹KP`` with
  λ = 1;
* pre-image: k-NN (k = 1, 3, 5, 7, 9) on ``[output coordinates, one-hot input
  window of length 3]`` per position, trained on the true coordinates of the
  training outputs, applied with the estimated ones; coordinates unscaled
  (``coordinate_weight = 1``), windows padded with a terminal symbol;
* baseline: k-NN on the one-hot input window of length 3 alone, same k;
* error: fraction of output symbols misclassified, pooled over the strings of
  a test fold; 10-fold cross-validation (shuffled folds); mean ± standard
  deviation over the ten folds (the paper's ± is not defined; the standard
  error over folds is given beside it).

Beyond the paper: the same on 500 strings (10-fold), ten independent draws of
50 strings to show how much of the gap between the methods (and between our
numbers and the paper's) is sampling noise, and a table of readings and
variants at k = 5 on those draws (ridge form of the regression, literal trace
normalisation, no RBF, the weight of the coordinates, and decoding the true
test coordinates as a ceiling for the decoder).

What to observe: KDE's error sits below the window k-NN's at every k, and the
gap is of the size the paper reports; with 50 strings both numbers move by
several points from one draw to the next.
"""

import numpy as np
from sklearn.model_selection import KFold
from sklearn.neighbors import KNeighborsClassifier

from preimage import KernelDependencyEstimator
from preimage.datasets import make_kde_strings
from preimage.dependency import symbol_accuracy, window_features
from preimage.kernels import (
    JointSpectrumKernel,
    KernelDistanceRBF,
    NormalizedKernel,
    SpectrumKernel,
)
from reproductions._report import Report, Table

NAME = "bakir-kde"

#: Neighbours k of the paper's table.
KS = (1, 3, 5, 7, 9)
#: Bakır et al. (2004), Sec. 4: fraction of symbols misclassified, "± 0.03".
PAPER_KDE = {1: 0.182, 3: 0.169, 5: 0.162, 7: 0.164, 9: 0.163}
PAPER_KNN = {1: 0.251, 3: 0.243, 5: 0.249, 7: 0.250, 9: 0.248}
PAPER_PM = 0.03
#: Spectrum length, window length, ridge λ (``alpha``) and RBF width of the paper.
P, WINDOW, ALPHA, RBF_GAMMA = 3, 3, 1.0, 1.0
#: k of the readings table (the paper's best KDE entry).
K_READINGS = 5


def paper_kde(n_neighbors, *, normalization="cosine", rbf=True, **params):
    """The paper's KDE, with the readings table's variants as options."""
    spectrum = NormalizedKernel(SpectrumKernel(P), method=normalization)
    input_kernel = KernelDistanceRBF(spectrum, gamma=RBF_GAMMA) if rbf else spectrum
    params = {"alpha": ALPHA, "window": WINDOW, **params}
    return KernelDependencyEstimator(
        input_kernel,
        NormalizedKernel(JointSpectrumKernel(P), method=normalization),
        n_neighbors=n_neighbors,
        **params,
    )


def window_knn_predict(X_train, Y_train, X_test, ks, window=WINDOW):
    """The baseline, k-NN on one-hot input windows symbol by symbol: one
    list of predicted strings per k in `ks`."""
    symbols = sorted({s for x in X_train for s in x})
    clf = KNeighborsClassifier(n_neighbors=ks[0]).fit(
        window_features(X_train, window, symbols), list("".join(Y_train))
    )
    F = window_features(X_test, window, symbols)
    ends = np.cumsum([len(x) for x in X_test])[:-1]
    out = []
    for k in ks:
        # A fitted k-NN only stores the training set: k is read at prediction.
        labels = clf.set_params(n_neighbors=k).predict(F)
        out.append(["".join(part) for part in np.split(labels, ends)])
    return out


def kde_predict(X_train, Y_train, X_test, ks, *, oracle_Y=None, **options):
    """Predictions of the paper's KDE for every k in `ks` from one fit.

    The fitted estimator's k-NN pre-image keeps its training set, so
    changing its k re-decodes the same estimated coordinates; this equals
    refitting with ``n_neighbors=k`` (tested in tests/test_kde.py).
    ``oracle_Y``: decode the true coordinates of these test outputs instead.
    """
    kde = paper_kde(ks[0], **options).fit(X_train, Y_train)
    C = (
        kde.predict_coordinates(X_test)
        if oracle_Y is None
        else kde.transform_outputs(oracle_Y, X_test)
    )
    out = []
    for k in ks:
        kde.classifier_.set_params(n_neighbors=k)
        out.append(kde.decode(C, X_test))
    return out


def _folds(n, n_folds, seed):
    return list(KFold(n_folds, shuffle=True, random_state=seed).split(np.arange(n)))


def _take(seq, idx):
    return [seq[i] for i in idx]


def cross_validate(X, Y, ks, n_folds, seed, methods=None):
    """Fold errors ``{method: array (n_folds, len(ks))}``.

    `methods` maps a name to ``f(X_train, Y_train, X_test, Y_test, ks) ->
    one list of predicted outputs per k``; by default KDE and the window k-NN.
    """
    if methods is None:
        methods = {"KDE": _kde_method(), "k-NN": _window_method}
    errors = {name: np.zeros((n_folds, len(ks))) for name in methods}
    for f, (train, test) in enumerate(_folds(len(X), n_folds, seed)):
        parts = _take(X, train), _take(Y, train), _take(X, test), _take(Y, test)
        for name, method in methods.items():
            for j, pred in enumerate(method(*parts, ks)):
                errors[name][f, j] = 1.0 - symbol_accuracy(parts[3], pred)
    return errors


def _kde_method(**options):
    def predict(X_train, Y_train, X_test, Y_test, ks):
        return kde_predict(X_train, Y_train, X_test, ks, **options)

    return predict


def _kde_oracle(X_train, Y_train, X_test, Y_test, ks):
    """Decode the *true* coordinates of the test pairs: a ceiling for the decoder."""
    return kde_predict(X_train, Y_train, X_test, ks, oracle_Y=Y_test)


def _window_method(X_train, Y_train, X_test, Y_test, ks):
    return window_knn_predict(X_train, Y_train, X_test, ks)


def _summary(errors):
    """Mean, SD (ddof = 1) and standard error over folds, per column."""
    n = errors.shape[0]
    sd = errors.std(axis=0, ddof=1)
    return errors.mean(axis=0), sd, sd / np.sqrt(n)


def _cv_table(name, title, errors, ks):
    kde_mean, kde_sd, kde_se = _summary(errors["KDE"])
    knn_mean, knn_sd, knn_se = _summary(errors["k-NN"])
    wins = (errors["KDE"] < errors["k-NN"]).sum(axis=0)
    rows = []
    for j, k in enumerate(ks):
        rows.append(
            [
                k,
                (kde_mean[j], kde_sd[j]),
                kde_se[j],
                f"{PAPER_KDE[k]:.3f} ± {PAPER_PM}",
                (knn_mean[j], knn_sd[j]),
                knn_se[j],
                f"{PAPER_KNN[k]:.3f} ± {PAPER_PM}",
                knn_mean[j] - kde_mean[j],
                f"{wins[j]}/{errors['KDE'].shape[0]}",
            ]
        )
    return Table(
        name,
        title,
        [
            "k",
            "KDE (mean ± SD over folds)",
            "KDE SE",
            "KDE, paper",
            "window k-NN (mean ± SD)",
            "k-NN SE",
            "k-NN, paper",
            "gap k-NN − KDE",
            "folds KDE better",
        ],
        rows,
        digits=3,
    )


def _draws_table(per_draw, ks):
    """per_draw: list of {method: fold errors}; one CV mean per draw."""
    kde = np.array([e["KDE"].mean(axis=0) for e in per_draw])  # (draws, k)
    knn = np.array([e["k-NN"].mean(axis=0) for e in per_draw])
    gap = knn - kde
    n = len(per_draw)
    rows = []
    for j, k in enumerate(ks):
        rows.append(
            [
                k,
                (kde[:, j].mean(), kde[:, j].std(ddof=1)),
                kde[:, j].min(),
                kde[:, j].max(),
                PAPER_KDE[k],
                (knn[:, j].mean(), knn[:, j].std(ddof=1)),
                knn[:, j].min(),
                knn[:, j].max(),
                PAPER_KNN[k],
                (gap[:, j].mean(), gap[:, j].std(ddof=1)),
                f"{(gap[:, j] > 0).sum()}/{n}",
            ]
        )
    table = Table(
        "draws_50",
        f"{n} independent draws of 50 strings, 10-fold CV each: the "
        "CV error of each draw, mean ± SD over draws, smallest and largest",
        [
            "k",
            "KDE (mean ± SD over draws)",
            "KDE min",
            "KDE max",
            "KDE, paper",
            "window k-NN (mean ± SD)",
            "k-NN min",
            "k-NN max",
            "k-NN, paper",
            "gap k-NN − KDE (mean ± SD)",
            "draws KDE better",
        ],
        rows,
        digits=3,
    )
    return table, kde, knn


def _readings():
    """Readings table: label -> method (see :func:`cross_validate`)."""
    return {
        "paper setup (as above)": _kde_method(),
        "regression='ridge': β = (K + λI)⁻¹P": _kde_method(regression="ridge"),
        "literal trace normalisation D_ii = Σ_i S_ii": _kde_method(normalization="trace"),
        "no RBF: normalised spectrum kernel on inputs": _kde_method(rbf=False),
        "coordinate weight 0.3": _kde_method(coordinate_weight=0.3),
        "coordinate weight 3": _kde_method(coordinate_weight=3.0),
        "λ = 0.1": _kde_method(alpha=0.1),
        "true test coordinates decoded (ceiling, uses test outputs)": _kde_oracle,
        "window k-NN (baseline)": _window_method,
    }


def _readings_table(draws, n_folds, k, quick):
    methods = _readings()
    if quick:
        methods = {name: methods[name] for name in list(methods)[:2] + list(methods)[-1:]}
    per_draw = [cross_validate(X, Y, (k,), n_folds, s, methods) for s, (X, Y) in draws]
    rows = []
    for name in methods:
        means = np.array([e[name][:, 0].mean() for e in per_draw])
        sd = means.std(ddof=1) if len(means) > 1 else float("nan")
        rows.append([name, (means.mean(), sd)])
    return Table(
        "readings",
        f"Readings and variants, {k}-NN pre-images: CV error on the "
        f"{len(draws)} draws of 50 strings (mean ± SD over draws)",
        ["variant", f"error, {k}-NN"],
        rows,
        digits=3,
    )


def _rank(per_draw_errors, i):
    """1-based rank of draw i by mean error over k (1 = lowest error)."""
    means = per_draw_errors.mean(axis=1)
    return int((means < means[i]).sum()) + 1


def _figure(panels, ks):
    from preimage.plot import pyplot

    plt = pyplot()
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 3.6), sharey=True)
    for ax, (title, curves) in zip(np.atleast_1d(axes), panels):
        for (label, mean, err), style in zip(curves, ("o-", "s-")):
            ax.errorbar(
                np.array(ks) + (0.1 if style == "s-" else -0.1),
                mean,
                yerr=err,
                fmt=style,
                capsize=3,
                label=label,
            )
        ax.plot(ks, [PAPER_KDE[k] for k in ks], "C0x--", label="KDE, paper")
        ax.plot(ks, [PAPER_KNN[k] for k in ks], "C1x--", label="k-NN, paper")
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("k (neighbours)")
        ax.set_xticks(ks)
        ax.grid(alpha=0.3)
    first = np.atleast_1d(axes)[0]
    first.set_ylabel("fraction of symbols misclassified")
    fig.suptitle(
        "Bakır et al. 2004, string prediction: KDE + k-NN pre-images vs window k-NN", fontsize=10
    )
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    fig.legend(
        *first.get_legend_handles_labels(), loc="lower center", ncol=4, fontsize=8, frameon=False
    )
    return fig


def run(*, quick=False, seed=0, echo=print):
    """Run the reproduction; see the module docstring."""
    from threadpoolctl import threadpool_limits

    n_folds = 10
    n_large, n_folds_large = (100, 5) if quick else (500, 10)
    n_draws = 2 if quick else 10
    ks = KS
    # Many tiny fits: one BLAS/OpenMP thread is ~10x faster than contended pools.
    with threadpool_limits(1):
        echo(f"{NAME}: 50 strings, {n_folds}-fold CV, k = {ks}")
        X, Y, model = make_kde_strings(50, random_state=seed)
        main = cross_validate(X, Y, ks, n_folds, seed)

        echo(f"{NAME}: {n_large} strings, {n_folds_large}-fold CV")
        XL, YL, _ = make_kde_strings(n_large, random_state=seed + 1000)
        large = cross_validate(XL, YL, ks, n_folds_large, seed)

        echo(f"{NAME}: {n_draws} draws of 50 strings")
        draws = []
        for i in range(n_draws):
            Xd, Yd, _ = make_kde_strings(50, random_state=seed + i)
            draws.append((seed + i, (Xd, Yd)))
        # Draw 0 is the 50-string table's own draw (same data and folds).
        per_draw = [main] + [cross_validate(Xd, Yd, ks, n_folds, s) for s, (Xd, Yd) in draws[1:]]

        echo(f"{NAME}: readings at k = {K_READINGS}")
        readings = _readings_table(draws, n_folds, K_READINGS, quick)

    report = Report(
        name=NAME,
        title="String prediction with kernel dependency estimation (Bakır et al. 2004, Sec. 4)",
        paper="Bakır, Weston & Schölkopf (2004), Sec. 4, table of symbol errors "
        "(KDE with k-NN pre-images vs window k-NN)",
        data=(
            f"toy strings of make_kde_strings (the paper's generator): 50 pairs (seed "
            f"{seed}; {int((model == 0).sum())} from model 1, {int((model == 1).sum())} "
            f"from model 2); {n_large} pairs (seed {seed + 1000}); {n_draws} draws of 50 "
            f"(seeds {seed}–{seed + n_draws - 1})"
        ),
    )
    report.tables.append(
        _cv_table(
            "table_50",
            f"Fraction of symbols misclassified, 50 strings, {n_folds}-fold CV "
            "(paper's protocol); SD and SE over folds",
            main,
            ks,
        )
    )
    report.tables.append(
        _cv_table(
            f"table_{n_large}",
            f"The same on {n_large} strings, {n_folds_large}-fold CV",
            large,
            ks,
        )
    )
    draws_table, kde_draws, knn_draws = _draws_table(per_draw, ks)
    report.tables.append(draws_table)
    report.tables.append(readings)

    def curves(errors):
        return [
            ("KDE (ours)", errors["KDE"].mean(0), errors["KDE"].std(0, ddof=1)),
            ("window k-NN (ours)", errors["k-NN"].mean(0), errors["k-NN"].std(0, ddof=1)),
        ]

    panels = [
        (f"50 strings, {n_folds}-fold CV (± SD over folds)", curves(main)),
        (f"{n_large} strings, {n_folds_large}-fold CV (± SD over folds)", curves(large)),
        (
            f"{n_draws} draws of 50 strings (± SD over draws)",
            [
                ("KDE (ours)", kde_draws.mean(0), kde_draws.std(0, ddof=1)),
                ("window k-NN (ours)", knn_draws.mean(0), knn_draws.std(0, ddof=1)),
            ],
        ),
    ]
    report.figures["error_vs_k"] = lambda: _figure(panels, ks)
    report.notes += [
        "Kernels: input K(x, x') = exp(−d(x, x')) with d² = 2 − 2 k̂(x, x') for the "
        "cosine-normalised 3-spectrum kernel k̂ (KernelDistanceRBF(NormalizedKernel("
        "SpectrumKernel(3)), gamma=1)); output: cosine-normalised joint 3-spectrum kernel "
        "on the pairs (x_i, y_i). The paper's 'D_ii = Σ_i S_ii' read literally is one "
        "scalar (the trace); we read it as the usual D_ii = √S_ii and show the literal "
        "reading in the readings table.",
        "KDE: every output component with a non-zero eigenvalue (at most 44 for 45 "
        "training strings), β = (KᵀK + λI)⁻¹KP with λ = 1 (the paper's eq. 4). Pre-image: "
        "KNeighborsClassifier(k) on [output coordinates, one-hot window of 3 input "
        "symbols with a terminal symbol beyond the ends]; the coordinates are unscaled "
        "(one window mismatch costs 2 in squared distance, two unit-norm outputs are at "
        "most 4 apart), trained on the true coordinates, applied with the estimated ones.",
        "Errors: symbols pooled within a test fold (5 strings, about 75 symbols, for 50 "
        "strings); ± is the SD over the 10 folds, SE = SD/√10. The paper's '± 0.03' "
        "for every entry matches the size of our SE better than our SD. Folds are "
        "shuffled (KFold with the seed); ties between equally distant neighbours are "
        "broken by scikit-learn's order, which matters for the window k-NN, where many "
        "positions share a window.",
        "The joint output kernel never sees the first and last output symbol (no "
        "3-window of the input is centred there), so those are decoded from the window "
        "with its terminal symbol alone.",
        f"The first table's draw (seed {seed}) ranks {_rank(kde_draws, 0)} of {n_draws} "
        f"draws for KDE (1 = lowest error, mean over k) and {_rank(knn_draws, 0)} for the "
        "window k-NN: single 50-string tables differ by several points between draws, "
        "so the draws table is the one to set beside the paper's numbers.",
        "Threads: the run is limited to one BLAS/OpenMP thread (threadpoolctl); the "
        "thousands of tiny fits run ~10x faster than with contended thread pools.",
    ]
    return report
