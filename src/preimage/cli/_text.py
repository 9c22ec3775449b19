"""Text of the command line that comes from files, made safe for a terminal.

A model file's strings may hold escape sequences a terminal acts on (title,
clearing, moving the cursor to print over text) or marks that reorder text:
everything shown from a file goes through :func:`printable`.
"""

import contextlib
import functools
import json
import math
from pathlib import Path
import warnings

import click

#: ``click.echo`` to standard error: notes, warnings and progress, apart from the results.
note = functools.partial(click.echo, err=True)


def printable(value):
    """`value` as text, each character :meth:`str.isprintable` refuses escaped as in a
    repr (``\\x1b``, ``\\udc9b``): C0 and C1 controls, DEL, the marks that reorder text,
    lone surrogates (a file name's undecodable bytes, which an output stream would
    otherwise refuse or write back as raw bytes such as 0x9b, the 8-bit CSI)."""
    text = str(value)
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


@contextlib.contextmanager
def warnings_as_notes(category, quiet=False):
    """Warnings of `category` in the block as one escaped line each, once, on stderr."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", category)
        yield
    notes = [printable(w.message) for w in caught if issubclass(w.category, category)]
    for text in dict.fromkeys(notes) if not quiet else ():
        note(f"warning: {text}")


def recorded_image_shape(model_path, meta, width, *, check):
    """The model file's ``user.image_shape`` as (height, width[, channels]), or None; a bad
    one (not two positive integers, and 3 or 4 channels, whose product is `width`) is an
    error with `check`."""
    user = meta.get("user")
    shape = user.get("image_shape") if isinstance(user, dict) else None
    if (
        isinstance(shape, list)
        and len(shape) in (2, 3)
        and shape[2:] in ([], [3], [4])  # grey, RGB or RGBA
        and all(isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in shape)
        and math.prod(shape) == width
    ):
        return tuple(shape)
    if shape is None or not check:
        return None
    raise click.ClickException(
        f"{model_path}: the model file's user.image_shape = {printable(repr(shape)[:60])} is "
        f"not a height and width (and 3 or 4 channels) whose product is the model's {width} features (pass "
        "--image-shape HxW to write images)"
    )


def info_lines(meta, model_path):
    """What ``preimage info`` shows of `meta` (:func:`preimage.io.model_info`), escaped."""
    summary, user = dict(meta.get("summary", {})), meta.get("user", {})
    if not isinstance(user, dict):
        user = {}
    selection = summary.pop("component_selection", None)
    signature = "none"
    if meta.get("signed") and meta.get("verified"):
        signature = "verified with PREIMAGE_MODEL_KEY"
    elif meta.get("signed"):
        signature = "present, not verified (set PREIMAGE_MODEL_KEY to verify it)"
    version = (
        f"preimage {meta.get('preimage_version')} (model format {meta.get('format_version')})"
    )
    lines = [
        ("file", f"{model_path} ({Path(model_path).stat().st_size:,} bytes)"),
        ("estimator", meta.get("estimator")),
        ("written by", f"{version}, {meta.get('created')}"),
        ("signature", signature),
    ]
    lines += [(k.replace("_", " "), v) for k, v in summary.items()]
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


def json_text(value):
    """`value` as JSON that any parser reads: a number that is not finite as the string
    ``"nan"``, ``"inf"`` or ``"-inf"``; every control character escaped (DEL too)."""

    def finite(v):
        if isinstance(v, float) and not math.isfinite(v):
            return str(v)
        if isinstance(v, dict):
            return {key: finite(item) for key, item in v.items()}
        return [finite(item) for item in v] if isinstance(v, (list, tuple)) else v

    text = json.dumps(finite(value), indent=2, ensure_ascii=True, allow_nan=False)
    return text.replace("\x7f", "\\u007f")


def selection_lines(record):
    """How `n_components="auto"` chose (a dict, else nothing), as (label, text) lines."""
    if not isinstance(record, dict):
        return []
    scores = record.get("scores") or []
    text = f"{record.get('rule')}, {record.get('n_train')} samples fitted and "
    lines = [("component choice", text + f"{record.get('n_held_out')} held out")]
    if not scores:
        return lines
    if record.get("thresholds") is not None:
        block, overall = record["thresholds"]
        rule = (
            "the candidates before the first block of components along which the held-out "
            f"samples' variance is under {block} times the fitted samples' (or under "
            f"{overall} times along all components up to it)"
        )
    else:
        rule = (
            "the fewest components whose held-out denoising error (squared error summed "
            f"over features, mean over samples) is within {record.get('tolerance', 0):.0%} "
            "of the smallest"
        )
    pairs = zip(record["candidates"], scores)
    lines += [("rule", rule), ("candidates", ", ".join(f"{q}: {v:.4g}" for q, v in pairs))]
    return lines
