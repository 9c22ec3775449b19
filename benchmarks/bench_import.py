"""How long ``import preimage`` and ``preimage --help`` take, against ``import numpy``.

A user who types ``preimage --help`` waits for the interpreter to start and
for everything the command line imports; ``import numpy`` is the floor any
library of the scientific stack pays. Each command runs in a fresh
interpreter (``subprocess``), the commands in turn, round after round, so that
load on the shared machine hits them alike; each is run once first, untimed,
so that bytecode is compiled and the files are in the page cache. The table
gives the median wall time of each command and its ratio to the median of
``import numpy`` measured in the same run.

``preimage --help`` is run as the console script runs it
(``from preimage.cli import main; main()``). With ``--src`` given more than
once, the library's commands are measured for each source tree (put first on
``PYTHONPATH``), in the same rounds: the code before a change beside the code
after it.

Run: ``python benchmarks/bench_import.py [--repeats 15] [--src DIR ...]``
(default ``--src``: this checkout's ``src``).
Target (issue: two manners): ``preimage --help`` within ``TARGET_RATIO`` times
``import numpy``.
"""

import argparse
import os
from pathlib import Path
import statistics
import subprocess
import sys
import time

#: ``preimage --help`` within this many times ``import numpy``.
TARGET_RATIO = 2.5

#: The commands timed: label -> arguments of the interpreter.
NUMPY = ("import numpy", ["-c", "import numpy"])
LIBRARY = (
    ("import preimage", ["-c", "import preimage"]),
    ("preimage --help", ["-c", "from preimage.cli import main; main()", "--help"]),
)


def _environment(src):
    """The environment of a child: `src` first on PYTHONPATH, no display, so
    that nothing the user's session set changes what is imported."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "MPLBACKEND")}
    env["PYTHONPATH"] = os.pathsep.join(
        [str(src)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])
    )
    return env


def run_once(args, env):
    """Wall time of one fresh interpreter running `args` (it must succeed)."""
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, *args],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    return time.perf_counter() - start


def measure(sources, repeats):
    """{label: [seconds, ...]}: every command `repeats` times, in turn."""
    cases = [(NUMPY[0], NUMPY[1], _environment(sources[0]))]
    for src in sources:
        suffix = "" if len(sources) == 1 else f"  [{src}]"
        cases += [(label + suffix, args, _environment(src)) for label, args in LIBRARY]
    for _, args, env in cases:  # warm-up: bytecode compiled, files cached
        run_once(args, env)
    times = {label: [] for label, _, _ in cases}
    for _ in range(repeats):
        for label, args, env in cases:
            times[label].append(run_once(args, env))
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--repeats", type=int, default=15, help="Runs of each command (default 15)."
    )
    parser.add_argument(
        "--src",
        action="append",
        type=Path,
        help="A source tree holding the package preimage (repeatable).",
    )
    args = parser.parse_args()
    sources = [p.resolve() for p in args.src or [Path(__file__).resolve().parents[1] / "src"]]
    times = measure(sources, args.repeats)
    floor = statistics.median(times[NUMPY[0]])
    print(
        f"{sys.executable} (Python {sys.version.split()[0]}), {args.repeats} fresh "
        f"interpreters per command, in turn; median and quartiles of wall time"
    )
    width = max(map(len, times))
    print(f"{'command':{width}} {'median s':>9} {'q1 s':>7} {'q3 s':>7} {'x numpy':>8}")
    for label, seconds in times.items():
        q1, _, q3 = statistics.quantiles(seconds, n=4)
        median = statistics.median(seconds)
        print(f"{label:{width}} {median:9.3f} {q1:7.3f} {q3:7.3f} {median / floor:8.2f}")
    print(f"target: preimage --help within {TARGET_RATIO}x import numpy")


if __name__ == "__main__":
    main()
