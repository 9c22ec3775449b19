"""The commands' group: the library's errors as ``Error: <message>`` on one line
(exit status 1; usage errors 2); Ctrl-C and SIGTERM as exceptions (exit status 130,
143), so that the temporary files of the write under way are removed on the way out.
"""

import contextlib
import signal

import click

from preimage.cli._text import printable
from preimage.exceptions import MemoryBudgetError

# With ModelFileError (a ValueError) and MemoryBudgetError (a MemoryError); OverflowError
# and FloatingPointError are numbers out of range. Anything else is a bug: its traceback shows.
_ONE_LINE = (OSError, MemoryError, ValueError, TypeError, OverflowError, FloatingPointError)


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised as Ctrl-C raises KeyboardInterrupt: every ``finally`` runs."""


def describe_os_error(exc):
    """An OSError as ``PATH: what went wrong``, naming the file asked for."""
    from preimage.io._files import without_temp_names

    if exc.strerror is not None and len(exc.args) >= 2:  # OSError(errno, strerror, ...)
        names = " -> ".join(str(n) for n in (exc.filename, exc.filename2) if n is not None)
        text = f"{names}: {exc.strerror}" if names else exc.strerror
    else:
        text = str(exc) or type(exc).__name__
    return without_temp_names(text)


class CommandLine(click.Group):
    """The commands' group: failures as one line, signals as exceptions."""

    received = ()  # the signals received during main()

    def main(self, *args, **kwargs):
        with _signals_as_interrupts() as self.received:
            return super().main(*args, **kwargs)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except click.exceptions.Exit:
            raise
        except (KeyboardInterrupt, Exception) as exc:
            # Whatever fails once a signal came is the signal: an extension module whose
            # import it cut short raises ImportError("initialization failed").
            if self.received or isinstance(exc, KeyboardInterrupt):
                terminated = isinstance(exc, Terminated) or signal.SIGTERM in self.received
                click.echo("terminated" if terminated else "interrupted", err=True)
                # CPython kills itself with SIGINT at exit if the interrupt last left an
                # exec() of a string (SciPy's imports run some); a new one clears that.
                exec("")
                raise click.exceptions.Exit(143 if terminated else 130) from None
            if isinstance(exc, click.ClickException):  # file names: a file's, or one typed
                exc.message = printable(exc.message)
                raise
            if not isinstance(exc, _ONE_LINE):
                raise
            text = describe_os_error(exc) if isinstance(exc, OSError) else str(exc)
            if not text:
                text = "out of memory" if isinstance(exc, MemoryError) else type(exc).__name__
            if isinstance(exc, MemoryBudgetError):  # the library's message, and the option
                text += " On the command line: --memory-budget."
            text = " ".join(text.split()) if "\n" in text else text
            raise click.ClickException(printable(text)) from None


@contextlib.contextmanager
def _signals_as_interrupts():
    """SIGINT and SIGTERM raise inside the block and are recorded in the list it gives;
    the first makes both ignored, so the cleanup it starts is not cut short. A signal
    the process ignores stays ignored."""

    def interrupt(signum, frame):
        received.append(signum)
        for number in previous:
            signal.signal(number, signal.SIG_IGN)
        raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()

    previous, received = {}, []
    with contextlib.suppress(ValueError):  # not the main thread (a test runner's): leave them
        for number in (signal.SIGINT, signal.SIGTERM):
            if signal.getsignal(number) is not signal.SIG_IGN:
                previous[number] = signal.signal(number, interrupt)
    try:
        yield received
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
