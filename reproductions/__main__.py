"""``python -m reproductions NAME ...`` (or ``make reproduce``): rerun the papers' experiments.

Run from the repository's root: each experiment prints its table beside the
paper's numbers and its own running time, and writes its tables (Markdown,
CSV) and figures (PNG) to a new folder under ``--output-dir``.
"""

from pathlib import Path
import sys

import click

from preimage._utils.progress import bar, ticking
from preimage.cli._errors import describe_os_error
from preimage.cli._options import figures_to_files
from preimage.cli._text import warnings_as_notes
from preimage.exceptions import NumericalWarning
from preimage.io._files import check_writable
from reproductions import EXPERIMENTS, format_report, run_experiment, write_report


def write(message, progress):
    """Print a line to standard output without breaking the progress bar."""
    if progress.disable:
        print(message, flush=True)
    else:
        progress.write(message, file=sys.stdout)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("names", nargs=-1)
@click.option(
    "--quick",
    is_flag=True,
    help="A reduced version that runs in seconds (checks that it runs; "
    "its numbers are not comparable with the papers).",
)
@click.option("--seed", default=0, show_default=True, type=int, help="Random seed.")
@click.option(
    "--output-dir",
    default="results",
    show_default=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Each run writes a new folder here, named after the reproduction "
    "(toy-2d, then toy-2d-1, ...); earlier results are never overwritten.",
)
@click.option("--list", "list_", is_flag=True, help="List the reproductions and exit.")
@click.option(
    "--quiet", is_flag=True, help="No progress bar and no running commentary; the tables only."
)
def main(names, quick, seed, output_dir, list_, quiet):
    """Reproduce experiments of the pre-image papers: NAMES, or 'all'.

    Each prints its table beside the paper's numbers and its own time, and
    writes the tables (Markdown, CSV) and figures (PNG) under --output-dir.
    """

    listing = "\n".join(f"{name:22} {what}" for name, (_, what) in EXPERIMENTS.items())
    if list_:
        click.echo(listing)
        return
    if not names:
        raise click.UsageError(f"name the reproductions to run, or 'all':\n{listing}")
    if "all" in names:
        names = tuple(EXPERIMENTS)
    unknown = [n for n in names if n not in EXPERIMENTS]
    if unknown:
        raise click.BadParameter(
            f"unknown reproduction {unknown[0]!r}; choose from all, " + ", ".join(EXPERIMENTS),
            param_hint="'NAMES'",
        )
    try:
        check_writable(output_dir / names[0])
    except OSError as exc:
        raise click.ClickException(describe_os_error(exc)) from None
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise click.ClickException(
            'reproductions draw figures and need matplotlib: pip install "preimage[plot,data]"'
        ) from None
    figures_to_files()
    total = 0.0
    with (
        bar(
            total=len(names),
            unit="experiment",
            quiet=quiet,
            bar_format="{desc} {n_fmt}/{total_fmt} [{elapsed}]",
        ) as progress,
        ticking(progress),
    ):

        def echo(message):
            if not quiet:
                write(message, progress)

        for name in names:
            progress.set_description(f"reproducing {name}")
            with warnings_as_notes(NumericalWarning, quiet):
                report = run_experiment(name, quick=quick, seed=seed, echo=echo)
            write(format_report(report), progress)
            try:
                folder = write_report(report, output_dir)
            except OSError as exc:  # a full disk, a read-only folder: one line
                raise click.ClickException(describe_os_error(exc)) from None
            write(f"[{name}] written to {folder}\n", progress)
            total += report.seconds
            progress.update()
    if len(names) > 1:
        click.echo(f"{len(names)} reproductions in {total:.0f} s")


if __name__ == "__main__":
    main()
