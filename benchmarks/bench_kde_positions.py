"""String maps that depend on where a symbol stands: which kernel and decoder learn them.

Kernel dependency estimation (``KernelDependencyEstimator``) on three maps of
random words of 4 to 8 letters over the 8 letters ``a``-``h`` (chance: 1/8 =
0.125 of the symbols):

* uppercase: ``abc -> ABC``, each output symbol a function of the input symbol;
* shift: ``abc -> bcd``, each letter the next one (``h -> a``), the same kind;
* reverse: ``abc -> cba``, each output symbol the input symbol at the mirror
  position, which depends on where it stands and on the word's length;

and, for contrast, the toy strings of Bakır et al. (2004, Sec. 4)
(``make_kde_strings``, chance about 0.5): each output symbol labels the hidden
model that emitted the input symbol, read from the symbols around it.

Each row is an input kernel, an output kernel and a decoder (``method=``):
``"knn"`` is the window decoder of Bakır et al. (2004, Sec. 3.2), which sees
the estimated coordinates and the input symbols around each position but not
the position; ``"positions"`` takes at each position the symbol the
estimated feature-space point weighs most. The spectrum kernels count
substrings wherever they occur, so their output coordinates hold no position;
``WeightedDegreeKernel`` compares substrings where they stand (Rätsch and
Sonnenburg 2004), from the start, or from both ends with ``align="both"``.
All other settings are the estimator's defaults (``alpha=1``, paper
regression, 1 neighbour, window 3).

Printed: the fraction of test symbols right (``score``), mean ± standard
deviation over ``--draws`` draws (draw ``s`` uses ``default_rng(s)``, or
``random_state=s``), and the seconds of fit + predict of the first draw's
four tasks.

Run: ``python benchmarks/bench_kde_positions.py [--n-train 400] [--n-test 400]
[--draws 3]``.
"""

import argparse
import time

import numpy as np

from preimage import KernelDependencyEstimator
from preimage.datasets import make_kde_strings
from preimage.kernels import (
    JointSpectrumKernel,
    KernelDistanceRBF,
    NormalizedKernel,
    SpectrumKernel,
    WeightedDegreeKernel,
)

LETTERS = "abcdefgh"
TASKS = {
    "uppercase": str.upper,
    "shift": lambda w: "".join(LETTERS[(LETTERS.index(c) + 1) % len(LETTERS)] for c in w),
    "reverse": lambda w: w[::-1],
}
SPECTRUM_IN = KernelDistanceRBF(NormalizedKernel(SpectrumKernel(3)))
WD, WD_BOTH = WeightedDegreeKernel(3), WeightedDegreeKernel(3, align="both")
#: (label, input kernel, output kernel, decoder)
ROWS = [
    ("RBF(spectrum 3) -> spectrum 3", SPECTRUM_IN, NormalizedKernel(SpectrumKernel(3)), "knn"),
    (
        "RBF(spectrum 3) -> joint spectrum 3",
        SPECTRUM_IN,
        NormalizedKernel(JointSpectrumKernel(3)),
        "knn",
    ),
    ("spectrum 2 -> spectrum 2", SpectrumKernel(2), SpectrumKernel(2), "knn"),
    ("spectrum 2 -> spectrum 2", SpectrumKernel(2), SpectrumKernel(2), "positions"),
    ("WD 3 -> WD 3", WD, WD, "knn"),
    ("WD 3 -> WD 3", WD, WD, "positions"),
    (
        "WD 3 shift 1 -> WD 3 shift 1",
        WeightedDegreeKernel(3, 1),
        WeightedDegreeKernel(3, 1),
        "positions",
    ),
    ("WD 3 both ends -> WD 3", WD_BOTH, WD, "knn"),
    ("WD 3 both ends -> WD 3", WD_BOTH, WD, "positions"),
]


def words(rng, n):
    """`n` random words of 4 to 8 letters of LETTERS."""
    return ["".join(rng.choice(list(LETTERS), size=rng.integers(4, 9))) for _ in range(n)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-train", type=int, default=400)
    parser.add_argument("--n-test", type=int, default=400)
    parser.add_argument("--draws", type=int, default=3)
    args = parser.parse_args()
    n, draws = args.n_train, range(args.draws)
    data = {name: [] for name in [*TASKS, "toy"]}
    for seed in draws:
        rng = np.random.default_rng(seed)
        X = words(rng, n + args.n_test)
        for name, task in TASKS.items():
            data[name].append((X, [task(w) for w in X]))
        data["toy"].append(make_kde_strings(n + args.n_test, random_state=seed)[:2])
    print(f"{n} training, {args.n_test} test strings; {args.draws} draws")
    print(f"| input -> output kernel | method | {' | '.join(data)} | seconds |")
    print("|---|---|" + "---|" * (len(data) + 1))
    for label, k_in, k_out, method in ROWS:
        cells, elapsed = [], 0.0
        for pairs in data.values():
            scores = []
            for seed, (X, Y) in enumerate(pairs):
                start = time.perf_counter()
                kde = KernelDependencyEstimator(k_in, k_out, method=method).fit(X[:n], Y[:n])
                scores.append(kde.score(X[n:], Y[n:]))
                elapsed += (time.perf_counter() - start) if seed == 0 else 0.0
            cells.append(f"{np.mean(scores):.3f} ± {np.std(scores):.3f}")
        print(f"| {label} | {method} | {' | '.join(cells)} | {elapsed:.1f} |", flush=True)


if __name__ == "__main__":
    main()
