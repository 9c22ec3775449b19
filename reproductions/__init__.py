"""Reproductions of the experiments of the pre-image papers.

Each module reproduces one figure or table and exposes
``run(*, quick=False, seed=0, echo=print) -> Report``; the command
``python -m reproductions NAME`` (or ``all``) runs it, prints our numbers beside the
paper's and writes tables (Markdown, CSV) and figures (PNG) under a results
folder. ``quick=True`` runs a reduced version in seconds, which the test suite
uses to check that every reproduction still executes; only full runs are
compared with the papers (``REPRODUCTIONS.md``).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
import time

from ._report import Report, Table, format_report, write_report

__all__ = ["EXPERIMENTS", "Report", "Table", "format_report", "run_experiment", "write_report"]

#: Command-line name -> (module, what it reproduces).
EXPERIMENTS = {
    "mika-table1": ("mika_table1", "Mika et al. 1999, Table 1: 11 Gaussians in R^10"),
    "toy-2d": (
        "toy_2d",
        "Schölkopf et al. 1999 Fig. 5 and Mika et al. 1999 Fig. 1: denoising in the plane",
    ),
    "digits-denoising": (
        "digits_denoising",
        "Mika et al. 1999 Figs. 3-4: denoising digits, linear vs kernel PCA",
    ),
    "digits-eigenvectors": (
        "digits_eigenvectors",
        "Mika et al. 1999 Fig. 2: pre-images of kernel PCA eigenvectors",
    ),
    "bakir-denoising": (
        "bakir_denoising",
        "Bakır et al. 2004 Fig. 1: gradient descent vs learned pre-images",
    ),
    "bakir-kde": (
        "bakir_kde",
        "Bakır et al. 2004 Sec. 4: string prediction with KDE and k-NN pre-images",
    ),
    "bakir-compression": (
        "bakir_compression",
        "Bakır et al. 2004 Fig. 2: compressing a frame sequence",
    ),
    "honeine-toy": (
        "honeine_toy",
        "Honeine & Richard 2011 Fig. 2: four 2-D sets, three pre-image methods",
    ),
    "honeine-mnist": (
        "honeine_mnist",
        "Honeine & Richard 2011 Fig. 3: denoising MNIST '2's, with CPU times",
    ),
    "reduced-set-svm": (
        "schoelkopf_reduced_set",
        "Schölkopf et al. 1999 Tables II-IV: reduced-set SVM digit recognizers",
    ),
    "vijayakumar-fig3": (
        "vijayakumar_sparse",
        "Vijayakumar & Wu 1999 Fig. 3: Wiener and "
        "sparse sequential SV approximation of a sine series",
    ),
    "schoelkopf-fig3": (
        "schoelkopf_features",
        "Schölkopf et al. 1999 Fig. 3: kernel PCA features of three clusters",
    ),
    "schoelkopf-geometry": (
        "schoelkopf_geometry",
        "Schölkopf et al. 1999 Sec. II-E: the metric and curvature a kernel induces",
    ),
}


def run_experiment(
    name: str, *, quick: bool = False, seed: int = 0, echo: Callable[[str], object] = print
) -> Report:
    """Run the reproduction `name` and return its report, timed.

    Parameters
    ----------
    name : str
        The experiment's command-line name, a key of :data:`EXPERIMENTS`
        (such as ``"mika-table1"``).
    quick : bool, default=False
        Run the reduced version, in seconds, which only checks that the
        reproduction still executes; only full runs are compared with the
        papers.
    seed : int, default=0
        Seeds the experiment's data and randomised methods.
    echo : callable, default=print
        Receives progress lines.

    Returns
    -------
    Report
        The experiment's tables, figures and notes, with `seconds` (the
        wall-clock time of the run) and `quick` set.

    Raises
    ------
    ValueError
        If `name` is not a key of :data:`EXPERIMENTS`.

    Examples
    --------
    >>> from reproductions import run_experiment
    >>> report = run_experiment("schoelkopf-fig3", quick=True, echo=lambda line: None)
    >>> report.paper
    'Schölkopf et al. (1999), Fig. 3'
    >>> [table.name for table in report.tables]
    ['components', 'claims']
    """
    if name not in EXPERIMENTS:
        raise ValueError(f"'name' must be one of {sorted(EXPERIMENTS)}, got {name!r}")
    module = import_module(f".{EXPERIMENTS[name][0]}", __name__)
    start = time.perf_counter()
    report = module.run(quick=quick, seed=seed, echo=echo)
    report.seconds = time.perf_counter() - start
    report.quick = quick
    return report
