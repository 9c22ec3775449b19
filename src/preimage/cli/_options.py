"""What the commands share: their options, the reading of DATA, the drawing of figures.

Every command that reads data takes ``--key``, ``--columns`` and
``--delimiter`` (:data:`key_option`, :data:`columns_option`,
:data:`delimiter_option`) and reads with :func:`read_data_file`;
:class:`ComponentCount` is ``--n-components``: a positive count or ``auto``;
:data:`memory_budget_option` is ``--memory-budget`` of the commands that read
data and compute (``fit``, ``denoise``).
The commands that draw (``demo``, and ``python -m reproductions``) write their figures to
files, with the backend :func:`figures_to_files` chooses.
"""

import os

import click

from preimage.cli._errors import named_as_options

__all__ = [
    "ComponentCount",
    "columns_option",
    "delimiter_option",
    "figures_to_files",
    "key_option",
    "memory_budget_option",
    "read_data_file",
]


# How to read DATA (and --clean): the options of every command that reads data.
key_option = click.option(
    "--key",
    metavar="NAME",
    help="The array to read from an .npz DATA [default: its only one, or 'X'].",
)
columns_option = click.option(
    "--columns",
    metavar="LIST",
    help="The columns to read from a .csv DATA, by header name or 0-based index, with "
    "ranges: '1-784', 'x,y' [default: all, which must be numbers].",
)
delimiter_option = click.option(
    "--delimiter",
    metavar="CHAR",
    help="What separates the values of a .csv DATA: ',', ';', tab, whitespace or another "
    "character [default: detected].",
)


def _parse_budget(ctx, param, value):
    if value is None:
        return None
    from preimage._utils.config import parse_bytes

    try:
        return parse_bytes(value, "--memory-budget")
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


# The budget covers everything the command holds: the model's arrays, DATA as
# it is read (sizes known from the files' headers), the dense matrices of the
# computation.
memory_budget_option = click.option(
    "--memory-budget",
    callback=_parse_budget,
    help="Largest dense array allowed, e.g. 8GB [default: $PREIMAGE_MEMORY_BUDGET, "
    "else half the memory this process may use, a container's limit included]; "
    "reading or a step that needs more is refused before it starts.",
)


def read_data_file(
    path, key, columns, delimiter, quiet, *, memory_budget=None, budget_option=False
):
    """`read_data` under the memory budget (`memory_budget`, if given), its
    errors naming --key, --columns and --delimiter (and --memory-budget, if
    the command has `budget_option`); a note of the columns read from a CSV
    file with a header (a label column is easily read as a feature)."""
    from preimage._utils.config import config_context
    from preimage.io import read_data

    options = ("key", "columns", "delimiter") + (("memory_budget",) if budget_option else ())
    with config_context(memory_budget=memory_budget), named_as_options(*options):
        X, source = read_data(path, key=key, columns=columns, delimiter=delimiter)
    names = source.header
    if names is not None and columns is None and not quiet:
        shown = ", ".join(map(repr, names[:3])) + (
            f", ..., {names[-1]!r}" if len(names) > 3 else ""
        )
        click.echo(
            f"{path}: all {len(names)} columns read ({shown}); choose others with --columns",
            err=True,
        )
    return X, source


class ComponentCount(click.ParamType):
    """A positive number of components, or 'auto'."""

    name = "INTEGER|auto"

    def convert(self, value, param, ctx):
        if isinstance(value, str) and value.strip().lower() == "auto":
            return "auto"
        try:
            count = int(value)
            if count < 1 or count != float(value):
                raise ValueError
        except (TypeError, ValueError):
            self.fail(f"expected a positive integer or 'auto', got {value!r}", param, ctx)
        return count


def figures_to_files():
    """Draw the command's figures with Agg, unless the user chose a backend
    with ``MPLBACKEND``.

    The command's figures only go to files: an interactive default backend
    would need a display (there is none on a server) or open windows for
    nothing. This is the command line's choice for its own process; the
    library (:mod:`preimage.plot`) never chooses a backend. Nothing happens
    without matplotlib: the command says so where it draws.
    """
    if os.environ.get("MPLBACKEND"):
        return
    try:
        import matplotlib
    except ImportError:
        return
    matplotlib.use("Agg")
