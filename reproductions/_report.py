"""What a reproduction returns, and how it is written and printed.

An experiment returns a :class:`Report`: its tables (our numbers beside the
paper's), the figures it draws, and notes on protocol. :func:`write_report`
puts each table in Markdown and CSV and each figure in PNG in a new folder,
which appears whole or not at all; :func:`format_report` is what the command
line prints.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
import math
from numbers import Real
import os
from pathlib import Path
from typing import Any

from preimage.io._files import atomic_dir

__all__ = ["Table", "Report", "format_report", "write_report"]


@dataclass
class Table:
    """A table of results.

    Cells are strings, numbers, ``None`` (empty) or ``(mean, sd)`` pairs. In
    Markdown a pair reads ``mean ± sd``; in CSV it becomes two columns,
    ``name`` and ``name_sd``, so the file holds the raw numbers.

    Parameters
    ----------
    name : str
        File stem of the table (``name.md``, ``name.csv``).
    title : str
        One line saying what the table shows.
    columns : list of str
        The column headers.
    rows : list of list, default=[]
        The rows, each a list of one cell per column.
    digits : int, default=2
        Decimals of floats in Markdown (CSV holds them in full).

    Examples
    --------
    >>> from reproductions import Table
    >>> table = Table("errors", "Mean squared error", ["method", "MSE"])
    >>> table.rows.append(["kernel PCA", (0.5, 0.25)])
    >>> print(table.to_markdown())
    **Mean squared error**
    <BLANKLINE>
    | method | MSE |
    |---|---|
    | kernel PCA | 0.50 ± 0.25 |
    >>> table.csv_rows()
    (['method', 'MSE', 'MSE_sd'], [['kernel PCA', '0.5', '0.25']])
    """

    name: str
    title: str
    columns: list
    rows: list = field(default_factory=list)
    digits: int = 2

    def _cell(self, value):
        if value is None:
            return ""
        if isinstance(value, tuple):
            mean, sd = value
            return f"{self._cell(mean)} ± {self._cell(sd)}"
        if isinstance(value, Real) and not isinstance(value, (bool, int)):
            if not math.isfinite(value):
                return str(value)
            return f"{value:.{self.digits}f}"
        return str(value)

    def to_markdown(self) -> str:
        """Return the table in GitHub Markdown, preceded by its title in bold.

        Returns
        -------
        str
            The title in bold, a blank line, then the table; floats are
            written with `digits` decimals, ``(mean, sd)`` pairs as
            ``mean ± sd``, None as an empty cell.
        """
        lines = [
            f"**{self.title}**",
            "",
            "| " + " | ".join(self.columns) + " |",
            "|" + "|".join("---" for _ in self.columns) + "|",
        ]
        for row in self.rows:
            lines.append("| " + " | ".join(self._cell(v) for v in row) + " |")
        return "\n".join(lines)

    def csv_rows(self) -> tuple[list[str], list[list[Any]]]:
        """Return the header and rows for CSV, with ``(mean, sd)`` cells split in two.

        A column holding a pair is written as two columns, ``name`` and
        ``name_sd``; floats are written in full (their ``repr``), None as an
        empty cell.

        Returns
        -------
        header : list of str
            The column names.
        rows : list of list
            The rows, one value per column of `header`.
        """
        paired = [
            any(isinstance(row[j], tuple) for row in self.rows) for j in range(len(self.columns))
        ]
        header = []
        for name, pair in zip(self.columns, paired):
            header += [name, f"{name}_sd"] if pair else [name]
        body = []
        for row in self.rows:
            out = []
            for value, pair in zip(row, paired):
                if pair:
                    out += list(value) if isinstance(value, tuple) else [value, None]
                else:
                    out.append(value)
            body.append(
                ["" if v is None else (repr(float(v)) if isinstance(v, float) else v) for v in out]
            )
        return header, body


@dataclass
class Report:
    """The outcome of one reproduction.

    Each parameter is kept as the attribute of the same name;
    :func:`run_experiment` sets `seconds` and `quick`.

    Parameters
    ----------
    name : str
        Command-line name (``python -m reproductions NAME``).
    title : str
        A one-line title.
    paper : str
        The publication and the figure or table reproduced.
    data : str
        What data were used, said plainly.
    tables : list of Table, default=[]
        The tables of results, our numbers beside the paper's.
    figures : dict, default={}
        File stem -> callable returning a matplotlib figure (drawn only when
        the report is written, so computing never needs matplotlib).
    notes : list of str, default=[]
        Protocol details and observations, one paragraph each.
    seconds : float, default=nan
        Wall-clock time of the computation.
    quick : bool, default=False
        Whether this was the reduced ``--quick`` version.

    Examples
    --------
    >>> from reproductions import Report, Table
    >>> report = Report(
    ...     "toy",
    ...     "A toy report",
    ...     paper="Mika et al. (1999), Table 1",
    ...     data="one number",
    ...     tables=[Table("numbers", "One number", ["x"], [[1.0]])],
    ... )
    >>> print(report.to_markdown().splitlines()[0])
    ## A toy report
    """

    name: str
    title: str
    paper: str
    data: str
    tables: list = field(default_factory=list)
    figures: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)
    seconds: float = float("nan")
    quick: bool = False

    def to_markdown(self) -> str:
        """Return the whole report as Markdown: header, tables, notes, figures.

        Returns
        -------
        str
            A ``##`` title, what is reproduced, the data, the command and its
            time, then each table, each note, and a link to each figure's
            ``.png`` (the figures themselves are written by
            :func:`write_report`).
        """
        parts = [
            f"## {self.title}",
            "",
            f"*Reproduces:* {self.paper}  ",
            f"*Data:* {self.data}  ",
            f"*Command:* `python -m reproductions {self.name}"
            f"{' --quick' if self.quick else ''}` "
            f"({self.seconds:.0f} s on this machine)",
            "",
        ]
        for table in self.tables:
            parts += [table.to_markdown(), ""]
        parts += [note + "\n" for note in self.notes]
        parts += [f"![{stem}]({stem}.png)" for stem in self.figures]
        return "\n".join(parts).rstrip() + "\n"


def format_report(report: Report) -> str:
    """Return a report as plain text for the terminal.

    The Markdown tables read well as they are; this is what ``python -m
    reproductions`` prints.

    Parameters
    ----------
    report : Report
        The report, as :func:`run_experiment` returns it.

    Returns
    -------
    str
        The name and title, the paper and data, each table, each note, and
        the time taken.

    Examples
    --------
    >>> from reproductions import Report, Table, format_report
    >>> table = Table("numbers", "One number", ["x"], [[1.0]])
    >>> report = Report("toy", "A toy report", "Mika et al. (1999)", "one number", [table])
    >>> report.seconds = 2.0
    >>> print(format_report(report))
    == toy: A toy report
       reproduces: Mika et al. (1999)
       data: one number
    <BLANKLINE>
    **One number**
    <BLANKLINE>
    | x |
    |---|
    | 1.00 |
    <BLANKLINE>
    [toy] 2.0 s
    """
    lines = [
        f"== {report.name}: {report.title}",
        f"   reproduces: {report.paper}",
        f"   data: {report.data}",
        "",
    ]
    for table in report.tables:
        lines += [table.to_markdown(), ""]
    lines += [f"note: {note}" for note in report.notes]
    lines.append(f"[{report.name}] {report.seconds:.1f} s{' (quick)' if report.quick else ''}")
    return "\n".join(lines)


def _write_csv(path, table):
    header, body = table.csv_rows()
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(header)
        writer.writerows(body)


def write_report(report: Report, directory: str | os.PathLike[str]) -> Path:
    """Write `report` into a new folder ``directory/report.name``.

    An earlier run is never overwritten: an existing folder gets a ``-N``
    sibling. A quick run's folder is ``NAME-quick``.

    Writes ``README.md`` (the whole report), one ``.md`` and one ``.csv`` per
    table and one ``.png`` per figure. The folder is filled under a hidden
    name beside it and renamed when complete, to the first free name of
    ``NAME``, ``NAME-1``, ... (claimed atomically: two runs at once take two
    names): a failure part way (a full disk) leaves no folder.

    Parameters
    ----------
    report : Report
        The report to write.
    directory : str or path-like
        The results folder in which the report's own folder is made.

    Returns
    -------
    pathlib.Path
        The folder written.

    Examples
    --------
    >>> import tempfile
    >>> from reproductions import Report, Table, write_report
    >>> table = Table("numbers", "One number", ["x"], [[1.0]])
    >>> report = Report("toy", "A toy report", "Mika et al. (1999)", "one number", [table])
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     first = write_report(report, folder)
    ...     files = sorted(path.name for path in first.iterdir())
    ...     second = write_report(report, folder)
    >>> first.name, second.name
    ('toy', 'toy-1')
    >>> files
    ['README.md', 'numbers.csv', 'numbers.md']
    """

    def fill(folder):
        for table in report.tables:
            (folder / f"{table.name}.md").write_text(table.to_markdown() + "\n", encoding="utf-8")
            _write_csv(folder / f"{table.name}.csv", table)
        if report.figures:
            from preimage import plot

            for stem, draw in report.figures.items():
                plot.save_figure(draw(), folder / f"{stem}.png")
        (folder / "README.md").write_text(report.to_markdown(), encoding="utf-8")

    name = report.name + ("-quick" if report.quick else "")
    return atomic_dir(Path(directory) / name, fill, numbered=True)
