"""The ``preimage`` command line. It parses arguments and calls the library;
no algorithm lives here."""

from pathlib import Path
import sys

import click

__all__ = ["main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="preimage")
def main():
    """Pre-images for kernel methods: from feature space back to input space."""


@main.command()
@click.option("--n-train", default=2000, show_default=True, type=click.IntRange(10),
              help="Clean training digits.")
@click.option("--n-test", default=200, show_default=True, type=click.IntRange(10),
              help="Noisy test digits.")
@click.option("--noise", "noise", default="gaussian", show_default=True,
              type=click.Choice(["gaussian", "speckle"]), help="Noise model (Mika et al.).")
@click.option("--level", default=None, type=click.FloatRange(0),
              help="Noise level: std of Gaussian noise (0.5) or speckle probability (0.4).")
@click.option("--seed", default=0, show_default=True, type=int, help="Random seed.")
@click.option("--output-dir", default="preimage-demo", show_default=True,
              type=click.Path(file_okay=False, path_type=Path),
              help="Where the image grid goes (existing files are never overwritten).")
@click.option("--quiet", is_flag=True, help="Print only the results.")
def demo(n_train, n_test, noise, level, seed, output_dir, quiet):
    """Denoise real MNIST digits through kernel PCA and pre-images.

    Fits on clean training digits, adds noise to test digits, and denoises them
    with each pre-image method, beside linear PCA and scikit-learn's
    KernelPCA.inverse_transform; prints the mean squared error of each (summed
    over pixels, mean over digits) and writes an image grid.
    """
    from .demo import run_demo

    echo = (lambda *a, **k: None) if quiet else click.echo
    if n_train + n_test > 5000:
        raise click.BadParameter(
            f"n_train + n_test = {n_train + n_test} exceeds the 5000 digits",
            param_hint="'--n-train'/'--n-test'")
    echo(f"denoising {n_test} test digits with {noise} noise; kernel PCA fitted on "
         f"{n_train} clean training digits ...")
    result = run_demo(n_train=n_train, n_test=n_test, noise=noise, level=level, seed=seed,
                      echo=echo)
    click.echo(f"\n{result.source}, {result.noise} noise, {n_train} train / {n_test} test")
    click.echo(f"{'method':44} {'MSE':>7} {'seconds':>8}")
    for name, mse, seconds in result.rows:
        click.echo(f"{name:44} {mse:7.2f} {seconds:8.2f}")
    click.echo("(MSE: squared error to the clean digit summed over pixels, mean over "
               "test digits; lower is better)")
    try:
        from . import plot
        from ._files import atomic_write, fresh_path
        from .demo import plot_demo

        fig = plot_demo(result)
        path = fresh_path(output_dir / "denoising.png")
        atomic_write(path, lambda tmp: plot.save_figure(fig, tmp))
        click.echo(f"\nimage grid written to {path}")
    except ImportError as exc:
        click.echo(f"\nno figure: {exc}", err=True)


@main.command()
@click.argument("names", nargs=-1)
@click.option("--quick", is_flag=True,
              help="A reduced version that runs in seconds (checks that it runs; "
                   "its numbers are not comparable with the papers).")
@click.option("--seed", default=0, show_default=True, type=int, help="Random seed.")
@click.option("--output-dir", default="results", show_default=True,
              type=click.Path(file_okay=False, path_type=Path),
              help="Each run writes a new folder NAME (or NAME-1, ...) here; "
                   "earlier results are never overwritten.")
@click.option("--list", "list_", is_flag=True, help="List the reproductions and exit.")
def reproduce(names, quick, seed, output_dir, list_):
    """Reproduce experiments of the pre-image papers: NAMES, or 'all'.

    Each prints its table beside the paper's numbers and its own time, and
    writes the tables (Markdown, CSV) and figures (PNG) under OUTPUT_DIR.
    """
    from .reproductions import EXPERIMENTS, format_report, run_experiment, write_report

    if list_ or not names:
        for name, (_, what) in EXPERIMENTS.items():
            click.echo(f"{name:22} {what}")
        if not list_:
            click.echo("\nusage: preimage reproduce NAME [NAME ...] | all  [--quick]")
        return
    if "all" in names:
        names = tuple(EXPERIMENTS)
    unknown = [n for n in names if n not in EXPERIMENTS]
    if unknown:
        raise click.BadParameter(
            f"unknown reproduction {unknown[0]!r}; choose from all, "
            + ", ".join(EXPERIMENTS), param_hint="'NAMES'")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise click.ClickException(
            "reproductions draw figures and need matplotlib: "
            "pip install \"preimage[plot,data]\"") from None
    total = 0.0
    for name in names:
        report = run_experiment(name, quick=quick, seed=seed, echo=click.echo)
        click.echo(format_report(report))
        folder = write_report(report, output_dir)
        click.echo(f"[{name}] written to {folder}\n")
        total += report.seconds
    if len(names) > 1:
        click.echo(f"{len(names)} reproductions in {total:.0f} s")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
