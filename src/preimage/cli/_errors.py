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

:class:`CommandLine` is the group of the commands: whatever fails in any of
them is one line on standard error (exit status 1; 2 for a usage error), and
Ctrl-C or SIGTERM stop it as an exception (``interrupted``, exit status 130;
``terminated``, 143), so that the temporary files of the write under way are
removed on the way out.
"""

import contextlib
import os
from pathlib import Path
import re
import signal

import click

__all__ = [
    "OPTION_NAMES",
    "CommandLine",
    "Terminated",
    "describe_os_error",
    "named_as_options",
    "parse_image_shape",
    "refuse_existing",
    "respell",
]

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


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the process is, as Ctrl-C raises KeyboardInterrupt:
    every ``finally`` and ``except BaseException`` on the way out runs."""


def describe_os_error(exc):
    """An OSError as ``PATH: what went wrong``, naming the file asked for."""
    from preimage.io._files import without_temp_names

    if exc.strerror is not None and len(exc.args) >= 2:  # OSError(errno, strerror, ...)
        text = exc.strerror
        if exc.filename2 is not None:
            text = f"{exc.filename} -> {exc.filename2}: {text}"
        elif exc.filename is not None:
            text = f"{exc.filename}: {text}"
    else:
        text = str(exc) or type(exc).__name__
    return without_temp_names(text)


def _one_line(text):
    return " ".join(text.split()) if "\n" in text else text


class CommandLine(click.Group):
    """The commands' group: failures as one line, signals as exceptions."""

    def main(self, *args, **kwargs):
        with _signals_as_interrupts():
            return super().main(*args, **kwargs)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except OSError as exc:
            raise click.ClickException(_one_line(describe_os_error(exc))) from None
        except MemoryError as exc:  # MemoryBudgetError says what to do instead
            raise click.ClickException(_one_line(str(exc) or "out of memory")) from None
        # ValueError covers ModelFileError; OverflowError and FloatingPointError
        # are numbers out of range. Anything else is a bug, and keeps its traceback.
        except (ValueError, TypeError, OverflowError, FloatingPointError) as exc:
            raise click.ClickException(_one_line(str(exc) or type(exc).__name__)) from None
        except KeyboardInterrupt as exc:
            terminated = isinstance(exc, Terminated)
            click.echo("terminated" if terminated else "interrupted", err=True)
            raise click.exceptions.Exit(143 if terminated else 130) from None


@contextlib.contextmanager
def _signals_as_interrupts():
    """SIGINT raises KeyboardInterrupt and SIGTERM :class:`Terminated` inside
    the block; the first of them makes both ignored, so that the cleanup it
    starts is not cut short. A signal the process ignores stays ignored."""
    watched = (signal.SIGINT, signal.SIGTERM)

    def interrupt(signum, frame):
        for number in previous:
            signal.signal(number, signal.SIG_IGN)
        raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()

    previous = {}
    try:
        for number in watched:
            if signal.getsignal(number) is not signal.SIG_IGN:
                previous[number] = signal.signal(number, interrupt)
    except ValueError:  # not the main thread (a test runner's): leave the signals alone
        pass
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
