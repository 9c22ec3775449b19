"""Errors of the command line, in the words the user typed.

The library names its arguments as Python spells them (``'key'``,
``key=NAME``, ``method='exact'``); on the command line the user typed
``--key NAME`` and ``--method exact``. :func:`named_as_options` respells, in the
message of an error raised inside it, the arguments it is told about. It is
told only about the arguments of the call it wraps: a message may also quote
the user's own values (an archive's entry ``'X'``, a column ``'key'``), which
a respelling of every name would garble.

:func:`refuse_existing` keeps the command line from replacing a user's file;
:func:`parse_image_shape` reads ``--image-shape``.
"""

import contextlib
import os
from pathlib import Path
import re

import click

__all__ = ["OPTION_NAMES", "named_as_options", "parse_image_shape", "refuse_existing", "respell"]

#: The library's arguments, as the command line spells them.
OPTION_NAMES = {
    "X": "DATA",
    "y": "--clean",
    "key": "--key",
    "columns": "--columns",
    "delimiter": "--delimiter",
    "image_shape": "--image-shape",
    "overwrite": "--force",
    "n_components": "--n-components",
    "n_landmarks": "--n-landmarks",
    "gamma": "--gamma",
    "method": "--method",
    "memory_budget": "--memory-budget",
}

#: Phrases that tell a Python caller what to write, and what to type instead.
_PHRASES = {
    "image_shape": [("'image_shape' (height, width)", "--image-shape HEIGHTxWIDTH")],
    "delimiter": [(" (or None to detect it)", "")],
    "overwrite": [("--force, or overwrite=True", "--force")],
    "n_landmarks": [("LearnedPreimage(n_landmarks=m)", "--n-landmarks M")],
    "memory_budget": [("preimage.set_config(memory_budget=...)", "--memory-budget")],
}

# A value the shell takes without quotes.
_PLAIN = r"[\w.,:+-]+"


def respell(message, names):
    """`message` with the arguments `names` spelled as options.

    ``'name'`` becomes ``--name``, ``name=value`` and ``name='value'`` become
    ``--name value`` (but not in a repr, after ``(`` or ``, ``), and the
    phrases of :data:`_PHRASES` become what to type.

    >>> respell("holds 2 arrays; pass key=NAME to choose one", ["key"])
    'holds 2 arrays; pass --key NAME to choose one'
    >>> respell("'image_shape' (3, 3) holds 9 pixels; got method='exact'",
    ...         ["image_shape", "method"])
    '--image-shape (3, 3) holds 9 pixels; got --method exact'
    >>> respell("'gamma'=1e-9 too small, got GaussianKernel(gamma=1e-09)", ["gamma"])
    '--gamma=1e-9 too small, got GaussianKernel(gamma=1e-09)'
    """
    for name in names:
        option = OPTION_NAMES[name]
        for phrase, typed in _PHRASES.get(name, ()):
            message = message.replace(phrase, typed)
        # Not inside a repr such as GaussianKernel(gamma=0.5) or f(x, key=...).
        message = re.sub(
            rf"(?<![\w.'(-])(?<!, ){re.escape(name)}=(?:'({_PLAIN})'(?!\w))?",
            lambda match, option=option: f"{option} {match[1] or ''}",
            message,
        )
        message = message.replace(f"'{name}'", option)
    return message


@contextlib.contextmanager
def named_as_options(*names):
    """Respell the arguments `names` (keys of :data:`OPTION_NAMES`) in the
    message of an error raised inside the ``with`` block; the error keeps its
    type and traceback."""
    try:
        yield
    except Exception as exc:
        if len(exc.args) == 1 and isinstance(exc.args[0], str):
            exc.args = (respell(exc.args[0], names),)
        raise


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


def parse_image_shape(text):
    """``HEIGHTxWIDTH`` (such as ``28x28``) as ``(height, width)``; None for None."""
    if text is None:
        return None
    try:
        h, w = (int(v) for v in text.lower().split("x"))
        if h < 1 or w < 1:
            raise ValueError
    except ValueError:
        raise click.BadParameter(
            f"expected HEIGHTxWIDTH such as 28x28, got {text!r}", param_hint="'--image-shape'"
        ) from None
    return h, w
