"""What the commands share: their options, the checks of the options, the reading of DATA.

Each option is checked where click reads it (its type, or :class:`click.BadParameter`
naming it: exit status 2); what the library refuses is its own message, on one line
(exit status 1).
"""

import os
from pathlib import Path

import click

__all__ = [
    "ComponentCount",
    "ImageShape",
    "columns_option",
    "delimiter_option",
    "figures_to_files",
    "key_option",
    "memory_budget_option",
    "read_data_file",
    "refuse_existing",
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


def read_data_file(path, key, columns, delimiter, quiet):
    """`read_data`, --key, --columns and --delimiter checked against the kind of
    `path` first; a note of the columns read from a CSV file with a header (a
    label column is easily read as a feature)."""
    from preimage.io import read_data

    kind = "folder" if path.is_dir() else path.suffix.lower()
    for option, value, needs in (
        ("--key", key, ".npz"),
        ("--columns", columns, ".csv"),
        ("--delimiter", delimiter, ".csv"),
    ):
        if value is not None and kind != needs:
            raise click.BadParameter(
                f"applies to a {needs} file, but {path} is not one", param_hint=f"'{option}'"
            )
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


def refuse_existing(path, force, option, inputs=()):
    """Refuse an existing output `path` without --force, and one of the
    `inputs` ((name, path) pairs) as the output even with it."""
    for name, other in inputs:
        if other is not None and Path(path).exists() and os.path.samefile(path, other):
            raise click.ClickException(
                f"{option} {str(path)!r} is {name}; refusing to replace an input with the "
                f"output (choose another {option})"
            )
    if Path(path).exists() and not force:
        raise click.ClickException(
            f"{str(path)!r} exists; refusing to overwrite it (pass --force to replace it, "
            f"or choose another {option})"
        )


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


class ImageShape(click.ParamType):
    """``HEIGHTxWIDTH`` (such as ``28x28``) as ``(height, width)``."""

    name = "HEIGHTxWIDTH"

    def convert(self, value, param, ctx):
        try:
            h, w = (int(v) for v in value.lower().split("x"))
            if h >= 1 and w >= 1:
                return h, w
        except ValueError:
            pass
        self.fail(f"expected HEIGHTxWIDTH such as 28x28, got {value!r}", param, ctx)


def figures_to_files():
    """Draw the command's figures with Agg, unless ``MPLBACKEND`` names a backend.

    The figures only go to files: an interactive default backend would need a
    display. This is the command line's choice for its own process; the library
    (:mod:`preimage.plot`) never chooses a backend. Nothing happens without
    matplotlib: the command says so where it draws.
    """
    if os.environ.get("MPLBACKEND"):
        return
    try:
        import matplotlib
    except ImportError:
        return
    matplotlib.use("Agg")
