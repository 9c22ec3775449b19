"""Progress bars for the command line (tqdm, on standard error when it is a terminal)."""

import contextlib
import sys
import threading


def bar(iterable=None, *, quiet=False, **kwargs):
    """A tqdm bar over `iterable`, shown unless `quiet` or standard error is no terminal."""
    from tqdm.auto import tqdm

    stream = sys.stderr
    show = not quiet and hasattr(stream, "isatty") and stream.isatty()
    return tqdm(iterable, disable=not show, file=stream, dynamic_ncols=True, **kwargs)


@contextlib.contextmanager
def ticking(progress, *, interval=0.5):
    """Redraw `progress` every `interval` seconds while the block runs."""
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
    """A bar of one long call: its description and the time elapsed."""
    form = "{desc}: {elapsed}"
    with bar(total=None, desc=description, quiet=quiet, bar_format=form) as progress:
        with ticking(progress, interval=interval):
            yield progress
