"""What the commands share: their options, their checks, the reading of DATA.

An option is checked where click reads it (exit status 2); what the library
refuses is its own one-line message (exit status 1).
"""

import contextlib
import functools
import math
import os
from pathlib import Path

import click

from preimage._utils.config import parse_bytes
from preimage.cli._text import note

data_argument = click.argument("data", type=click.Path(exists=True, path_type=Path))
model_argument = click.argument(
    "model_path", metavar="MODEL", type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
seed_option = click.option("--seed", default=0, type=int, help="Random seed.")


def quiet_option(help="No progress bar and no messages."):
    return click.option("--quiet", is_flag=True, help=help)


def bad_option(option, message):
    """A usage error (exit status 2): ``Invalid value for 'OPTION': MESSAGE``."""
    return click.BadParameter(message, param_hint=f"'{option}'")


def output_option(help, **path):
    """-o/--output, the file the command writes."""
    return click.option(
        "-o", "--output", required=True, help=help, type=click.Path(path_type=Path, **path)
    )


def data_options(force_help):
    """The options of a command that reads DATA and writes -o/--output."""
    options = [
        click.option(
            "--key",
            metavar="NAME",
            help="The array to read from an .npz DATA [default: its only one, or 'X'].",
        ),
        click.option(
            "--columns",
            metavar="LIST",
            help="The columns to read from a .csv DATA, by header name or 0-based index, "
            "with ranges: '1-784', 'x,y' [default: all, which must be numbers].",
        ),
        click.option(
            "--delimiter",
            metavar="CHAR",
            help="What separates the values of a .csv DATA: ',', ';', tab, whitespace or "
            "another character [default: detected].",
        ),
        click.option(
            "--header/--no-header",
            default=None,
            help="Whether the first line of a .csv DATA names the columns [default: "
            "detected: a header when none of its cells is a number].",
        ),
        click.option(
            "--memory-budget",
            callback=_parsed(functools.partial(parse_bytes, name="--memory-budget")),
            help="Largest dense array allowed, e.g. 8GB [default: $PREIMAGE_MEMORY_BUDGET, "
            "else half the memory this process may use, a container's limit included]; "
            "reading or a step that needs more is refused before it starts.",
        ),
        click.option("--force", is_flag=True, help=force_help),
        quiet_option(),
    ]

    def decorate(command):
        # The command gets `read`, reading a DATA path with --key/--columns/--delimiter,
        # and runs under the budget: the model's arrays, DATA as it is read (sizes known
        # from the files' headers), the dense matrices of the computation.
        @functools.wraps(command)
        def run(key, columns, delimiter, header, memory_budget, **kwargs):
            from preimage._utils.config import config_context

            def read(path):
                return read_data_file(path, key, columns, delimiter, header, kwargs["quiet"])

            with config_context(memory_budget=memory_budget):
                return command(read=read, **kwargs)

        return functools.reduce(lambda command, option: option(command), reversed(options), run)

    return decorate


def read_data_file(path, key, columns, delimiter, header, quiet):
    """`read_data` after checking --key/--columns/--delimiter/--header against `path`'s kind."""
    from preimage.io import read_data

    kind = "folder" if path.is_dir() else path.suffix.lower()
    for option, value, needs in (
        ("--key", key, ".npz"),
        ("--columns", columns, ".csv"),
        ("--delimiter", delimiter, ".csv"),
        ("--header", header, ".csv"),
    ):
        if value is not None and kind != needs:
            raise bad_option(option, f"applies to a {needs} file, but {path} is not one")
    X, source = read_data(path, key=key, columns=columns, delimiter=delimiter, header=header)
    names = source.header
    if names is not None and columns is None and not quiet:  # a label column read as data?
        shown = ", ".join(map(repr, names[:3])) + (
            f", ..., {names[-1]!r}" if len(names) > 3 else ""
        )
        note(f"{path}: all {len(names)} columns read ({shown}); choose others with --columns")
    return X, source


def check_not_existing(path, force, inputs):
    """Refuse an existing -o `path` without --force, and any of `inputs` even with it."""
    for name, other in inputs:
        if other is not None and path.exists() and os.path.samefile(path, other):
            raise click.ClickException(
                f"-o {str(path)!r} is {name}; refusing to replace an input with the "
                "output (choose another -o)"
            )
    if path.exists() and not force:
        raise click.ClickException(
            f"{str(path)!r} exists; refusing to overwrite it (pass --force to replace it, "
            "or choose another -o)"
        )


def _parsed(parse, expected=None):
    """A callback that gives an option's text (None stays None) through `parse`, and
    makes a ValueError a usage error saying what was `expected` (else its message)."""

    def callback(ctx, param, value):
        try:
            return value if value is None else parse(value)
        except ValueError as exc:
            message = str(exc) if expected is None else f"expected {expected}, got {value!r}"
            raise click.BadParameter(message) from None

    return callback


def _component_count(text):
    if text.strip().lower() == "auto":
        return "auto"
    if int(text) < 1:
        raise ValueError
    return int(text)


def _box_bounds(text):
    text = text.strip().lower()
    if text in ("none", "data"):
        return text
    low, high = (float(v) for v in text.split(","))
    if not -math.inf < low <= high < math.inf:
        raise ValueError
    return low, high


def _image_shape(text):
    h, w = (int(v) for v in text.lower().split("x"))
    if h < 1 or w < 1:
        raise ValueError
    return h, w


#: --n-components: a positive number, or 'auto'.
as_component_count = _parsed(_component_count, "a positive integer or 'auto'")
#: --bounds: ``none``, ``data`` or ``LOW,HIGH`` (finite, LOW <= HIGH) as ``(low, high)``.
as_box_bounds = _parsed(_box_bounds, "none, data or low,high with low <= high (such as 0,1)")
#: --image-shape: ``HEIGHTxWIDTH`` (such as ``28x28``) as ``(height, width)``.
as_image_shape = _parsed(_image_shape, "HEIGHTxWIDTH such as 28x28")


def figures_to_files():
    """Draw with Agg unless ``MPLBACKEND`` names a backend: the figures only go to
    files (the command line's choice for its process; the library never chooses)."""
    if not os.environ.get("MPLBACKEND"):
        with contextlib.suppress(ImportError):
            import matplotlib

            matplotlib.use("Agg")
