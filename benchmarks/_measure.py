"""Run one benchmark case in a fresh process and measure it.

Each case runs in a child process started with ``spawn``, so that its peak
resident memory (``ru_maxrss``) is its own, not that of earlier cases; the
child reports its wall time, its peak memory and the case's result. Peak
memory counts the whole process, interpreter and libraries included (about
0.15 GB for NumPy, SciPy and scikit-learn); the baseline printed beside it is
the same child's memory just before the case runs.
"""

import multiprocessing
import resource
import time


def _child(func, args, queue):
    baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    try:
        start = time.perf_counter()
        result = func(*args)
        seconds = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        queue.put(("ok", result, seconds, peak / 2**20, baseline / 2**20))
    except BaseException as exc:  # report, never hang the parent
        queue.put(("error", f"{type(exc).__name__}: {exc}", None, None, None))


def run_isolated(func, *args, timeout=None):
    """``func(*args)`` in a new process: returns a dict with ``result``,
    ``seconds`` (wall time of the call), ``peak_gb`` and ``baseline_gb`` (peak
    resident set size of the process, and before the call, in GiB), or
    ``error`` when it failed or ran out of `timeout` seconds.

    `func` must be importable (a module-level function of the calling
    script, which must guard its entry point with ``if __name__ == "__main__"``).
    """
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    proc = ctx.Process(target=_child, args=(func, args, queue))
    proc.start()
    start = time.monotonic()
    while True:
        try:
            status, result, seconds, peak, baseline = queue.get(timeout=1.0)
            break
        except Exception:  # queue.Empty: still running, or died without a word
            if not proc.is_alive():
                return {"error": f"the process died (exit code {proc.exitcode})"}
            if timeout is not None and time.monotonic() - start > timeout:
                proc.kill()
                proc.join()
                return {"error": f"no answer within {timeout} s"}
    proc.join()
    if status != "ok":
        return {"error": result}
    return {"result": result, "seconds": seconds, "peak_gb": peak, "baseline_gb": baseline}
