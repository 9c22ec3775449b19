"""Text of the command line that comes from files: made safe for a terminal.

A model file is written by whoever wrote it: its strings (where the training
data came from, the versions that wrote it) may hold escape sequences that a
terminal acts on (set the window title, clear the screen, move the cursor and
print over what was written) or marks that reorder the text around them.
Everything the command line shows from a file goes through
:func:`printable`, which escapes them as Python does in a repr (``\\x1b``).
"""

import contextlib
from pathlib import Path
import re
import warnings

import click

__all__ = [
    "info_lines",
    "printable",
    "recorded_image_shape",
    "selection_lines",
    "warnings_as_notes",
]

#: Characters a terminal acts on instead of showing: C0 and C1 controls, DEL,
#: and the marks that reorder text (bidirectional overrides and isolates).
_UNPRINTABLE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)


def printable(value):
    """`value` as text with every character a terminal would act on escaped
    (``\\x1b``, ``\\u202e``)."""
    return _UNPRINTABLE.sub(
        lambda m: m.group().encode("unicode_escape").decode("ascii"), str(value)
    )


@contextlib.contextmanager
def warnings_as_notes(category, quiet=False):
    """Warnings of `category` raised in the block as one escaped line each (each
    once) on standard error."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", category)
        yield
    notes = [printable(w.message) for w in caught if issubclass(w.category, category)]
    for note in dict.fromkeys(notes) if not quiet else ():
        click.echo(f"warning: {note}", err=True)


def recorded_image_shape(model_path, meta, width, *, check):
    """The image size (height, width) of the model file's ``user.image_shape``,
    or None. With `check`, one that is not two positive integers whose product
    is the model's `width` is an error naming the file's field; without, it is
    ignored."""
    user = meta.get("user")
    shape = user.get("image_shape") if isinstance(user, dict) else None
    if shape is None:
        return None
    if (
        isinstance(shape, list)
        and len(shape) == 2
        and all(isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in shape)
        and shape[0] * shape[1] == width
    ):
        return tuple(shape)
    if not check:
        return None
    raise click.ClickException(
        f"{model_path}: the model file's user.image_shape = {printable(repr(shape)[:60])} is "
        f"not a height and width whose product is the model's {width} features (pass "
        "--image-shape HxW to write images)"
    )


def info_lines(meta, model_path):
    """What ``preimage info`` shows of a model file's `meta`
    (:func:`preimage.io.model_info`), one escaped line per fact."""
    summary, user = dict(meta.get("summary", {})), meta.get("user", {})
    if not isinstance(user, dict):
        user = {}
    selection = summary.pop("component_selection", None)
    signature = "none"
    if meta.get("signed"):
        signature = (
            "verified with PREIMAGE_MODEL_KEY"
            if meta.get("verified")
            else "present, not verified (set PREIMAGE_MODEL_KEY to verify it)"
        )
    lines = [
        ("file", f"{model_path} ({Path(model_path).stat().st_size:,} bytes)"),
        ("estimator", meta.get("estimator")),
        (
            "written by",
            f"preimage {meta.get('preimage_version')} (model format "
            f"{meta.get('format_version')}), {meta.get('created')}",
        ),
        ("signature", signature),
    ]
    lines += [(k.replace("_", " "), v) for k, v in summary.items()]
    if isinstance(selection, dict):
        lines += selection_lines(selection)
    if isinstance(user.get("image_shape"), list) and user["image_shape"]:
        lines.append(("image shape", "x".join(map(str, user["image_shape"]))))
    if user.get("data"):
        lines.append(("fitted on", f"{user['data']} ({user.get('data_kind')})"))
    if user.get("clean"):
        lines.append(("clean targets", user["clean"]))
    params = ", ".join(f"{k}={v!r}" for k, v in meta.get("params", {}).items())
    lines.append(("parameters", params))
    return [printable(f"{name + ':':20} {value}") for name, value in lines]


def selection_lines(record):
    """How `n_components="auto"` chose, as (label, text) lines for the terminal."""
    lines = [
        (
            "component choice",
            (
                f"{record.get('rule')}, {record.get('n_train')} samples fitted and "
                f"{record.get('n_held_out')} held out"
            ),
        )
    ]
    scores = record.get("scores") or []
    if record.get("threshold") is not None and scores:
        lines.append(
            (
                "rule",
                (
                    f"the fewest components explaining {record['threshold']:.0%} "
                    "of the held-out variance that the largest candidate "
                    f"({record['candidates'][-1]}) explains"
                ),
            )
        )
    elif scores:
        lines.append(
            (
                "rule",
                (
                    "the fewest components whose held-out denoising error "
                    "(squared error summed over features, mean over samples) "
                    f"is within {record.get('tolerance', 0):.0%} of the "
                    "smallest"
                ),
            )
        )
    if scores:
        lines.append(
            (
                "candidates",
                ", ".join(f"{q}: {v:.4g}" for q, v in zip(record["candidates"], scores)),
            )
        )
    return lines
