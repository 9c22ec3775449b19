"""Progress bars for the command line (tqdm, on standard error).

Bars show only when standard error is a terminal and the user did not ask for
``--quiet``, so redirected output and logs stay clean.
"""

import contextlib
import sys
import threading

__all__ = ["activity", "bar", "enabled", "ticking", "write"]


def enabled(quiet=False):
    """Whether bars should show: not quiet, and standard error is a terminal."""
    stream = sys.stderr
    return not quiet and hasattr(stream, "isatty") and stream.isatty()


def bar(iterable=None, *, quiet=False, **kwargs):
    """A tqdm bar over `iterable`, disabled when bars should not show."""
    from tqdm.auto import tqdm

    return tqdm(
        iterable, disable=not enabled(quiet), file=sys.stderr, dynamic_ncols=True, **kwargs
    )


def write(message, progress=None):
    """Print a line to standard output without breaking an active bar."""
    if progress is not None and not progress.disable:
        progress.write(message, file=sys.stdout)
    else:
        print(message, flush=True)


@contextlib.contextmanager
def ticking(progress, *, interval=0.5):
    """Redraw `progress` every `interval` seconds while the block runs, so the
    time elapsed moves during one long call."""
    if progress.disable:
        yield progress
        return
    stop = threading.Event()

    def tick():
        while not stop.wait(interval):
            progress.refresh()

    thread = threading.Thread(target=tick, daemon=True)
    thread.start()
    try:
        yield progress
    finally:
        stop.set()
        thread.join()


@contextlib.contextmanager
def activity(description, *, quiet=False, interval=0.5):
    """A bar without a length for one long call: its description and the time
    elapsed, redrawn every `interval` seconds until the block ends."""
    progress = bar(total=None, desc=description, quiet=quiet, bar_format="{desc}: {elapsed}")
    try:
        with ticking(progress, interval=interval):
            yield progress
    finally:
        progress.close()
