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

from .._files import atomic_dir

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
    rows : list of list
    digits : int
        Significant decimals of floats in Markdown.
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
        """The table in GitHub Markdown, preceded by its title in bold."""
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
        """Header and rows for CSV, with ``(mean, sd)`` cells split in two."""
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

    Attributes
    ----------
    name, title : str
        Command-line name and a one-line title.
    paper : str
        The publication and the figure or table reproduced.
    data : str
        What data were used, said plainly.
    tables : list of Table
    figures : dict
        File stem -> callable returning a matplotlib figure (drawn only when
        the report is written, so computing never needs matplotlib).
    notes : list of str
        Protocol details and observations, one paragraph each.
    seconds : float
        Wall-clock time of the computation.
    quick : bool
        Whether this was the reduced ``--quick`` version.
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
        """The whole report as Markdown: header, tables, notes, figures."""
        parts = [
            f"## {self.title}",
            "",
            f"*Reproduces:* {self.paper}  ",
            f"*Data:* {self.data}  ",
            f"*Command:* `preimage reproduce {self.name}"
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
    """Plain text for the terminal: the Markdown tables read well as they are."""
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
    """Write `report` into a new folder ``directory/report.name`` (never over
    an earlier run: an existing folder gets a ``-N`` sibling).

    Writes ``README.md`` (the whole report), one ``.md`` and one ``.csv`` per
    table and one ``.png`` per figure. The folder is filled under a hidden
    name beside it and renamed when complete, to the first free name of
    ``NAME``, ``NAME-1``, ... (claimed atomically: two runs at once take two
    names): a failure part way (a full disk) leaves no folder. Returns the
    folder.
    """

    def fill(folder):
        for table in report.tables:
            (folder / f"{table.name}.md").write_text(table.to_markdown() + "\n", encoding="utf-8")
            _write_csv(folder / f"{table.name}.csv", table)
        if report.figures:
            from .. import plot

            for stem, draw in report.figures.items():
                plot.save_figure(draw(), folder / f"{stem}.png")
        (folder / "README.md").write_text(report.to_markdown(), encoding="utf-8")

    name = report.name + ("-quick" if report.quick else "")
    return atomic_dir(Path(directory) / name, fill, numbered=True)
