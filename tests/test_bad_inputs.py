"""The table of bad inputs in docs/bad-input.md, checked row by row.

Each row of the table names a case below, the outcome a user gets (an
exception class, a warning class, or ``finite`` output) and a fragment of the
message. The test runs every case and checks the table says what happens, so
the documentation cannot drift from the library.
"""

from pathlib import Path
import re
import warnings

import numpy as np
import pytest
from sklearn.svm import SVC

from preimage import (
    FeatureExpansion,
    KernelPCA,
    KernelPCADenoiser,
    KernelPCADenoiserCV,
    WienerRegressor,
    config_context,
    find_preimage,
    load_model,
    reduce_svm,
)
from preimage.kernels import GaussianKernel, PolynomialKernel

TABLE = Path(__file__).resolve().parents[1] / "docs" / "bad-input.md"

X = np.random.default_rng(0).normal(size=(20, 3))


def _with_nan():
    bad = X.copy()
    bad[3, 1] = np.nan
    return bad


def _budget_fit():
    with config_context(memory_budget="1kB"):
        return KernelPCA(2, kernel="rbf", gamma="total_variance").fit(X)


def _not_a_model(tmp_path):
    path = tmp_path / "notes.npz"
    path.write_text("not an archive")
    return load_model(path)


CASES = {
    "nan": lambda tmp: KernelPCA(2, kernel="rbf", gamma="total_variance").fit(_with_nan()),
    "inf": lambda tmp: KernelPCA(2, kernel="rbf", gamma="total_variance").fit(
        np.where(X > 1.5, np.inf, X)
    ),
    "object": lambda tmp: KernelPCA(2, kernel="rbf", gamma="total_variance").fit(
        np.array([["a", "b"]] * 5, dtype=object)
    ),
    "one-d": lambda tmp: KernelPCA(2, kernel="rbf", gamma="total_variance").fit(X[:, 0]),
    "empty": lambda tmp: KernelPCA(2, kernel="rbf", gamma="total_variance").fit(np.empty((0, 3))),
    "no-features": lambda tmp: KernelPCA(2, kernel="rbf", gamma="total_variance").fit(
        np.empty((5, 0))
    ),
    "one-sample": lambda tmp: KernelPCA(1, kernel="rbf", gamma="total_variance").fit(X[:1]),
    "constant-data": lambda tmp: KernelPCADenoiser(2).fit(np.ones((10, 3))).transform(X),
    "duplicated-rows": lambda tmp: (
        KernelPCA(2, kernel="rbf", gamma="total_variance")
        .fit(np.repeat(X[:3], 5, axis=0))
        .transform(X)
    ),
    "too-many-components": lambda tmp: KernelPCADenoiser(50).fit(X),
    "gamma-zero": lambda tmp: KernelPCA(2, kernel="rbf", gamma=0).fit(X),
    "gamma-huge": lambda tmp: KernelPCA(2, kernel="rbf", gamma=1e300).fit(X).transform(X),
    "gamma-tiny": lambda tmp: KernelPCADenoiser(2, gamma=1e-300).fit(X).transform(X),
    "kernel-gamma-negative": lambda tmp: GaussianKernel(gamma=-1.0),
    "huge-values": lambda tmp: KernelPCA(2, kernel="rbf", gamma="total_variance").fit(X * 1e200),
    "tiny-values": lambda tmp: KernelPCADenoiser(2).fit(X * 1e-150).transform(X * 1e-150) * 1e150,
    "tiniest-values": lambda tmp: KernelPCADenoiser(2).fit(X * 1e-155),
    "int-input": lambda tmp: (
        KernelPCA(2, kernel="rbf", gamma="total_variance").fit(X.round().astype(int)).transform(X)
    ),
    "width-mismatch": lambda tmp: (
        KernelPCA(2, kernel="rbf", gamma="total_variance").fit(X).transform(X[:, :2])
    ),
    "unknown-kernel": lambda tmp: KernelPCA(2, kernel="chi2").fit(X),
    "unknown-method": lambda tmp: find_preimage(
        KernelPCA(2, kernel="rbf", gamma="total_variance").fit(X).project(X), method="magic"
    ),
    "denoiser-method": lambda tmp: KernelPCADenoiser(2, method="magic").fit(X),
    "bounds": lambda tmp: KernelPCADenoiser(2, bounds=(1, [0, 0, 0])).fit(X),
    "exact-bounds": lambda tmp: find_preimage(
        FeatureExpansion.of_points(X[:2], PolynomialKernel(degree=3)), "exact", bounds=(-0.5, 0.5)
    ),
    "denoiser-cv-counts": lambda tmp: KernelPCADenoiserCV(n_components=[2, 50]).fit(X, X),
    "denoiser-cv-widths": lambda tmp: KernelPCADenoiserCV(gammas=[1.0, -1.0]).fit(X, X),
    "denoiser-cv-no-pairs": lambda tmp: KernelPCADenoiserCV([1.0], [2]).fit(X).transform(X),
    "correction-no-pairs": lambda tmp: KernelPCADenoiser(2, correction="ridge").fit(X),
    "correction-image-shape": lambda tmp: KernelPCADenoiser(
        2, correction="ridge", image_shape=(2, 2)
    ).fit(X, X),
    "correction-candidates": lambda tmp: KernelPCADenoiserCV(correction=["lasso"]).fit(X, X),
    "memory-budget": lambda tmp: _budget_fit(),
    "not-a-model": _not_a_model,
    "wiener-duplicates": lambda tmp: (
        WienerRegressor().fit(np.repeat(X[:4], 3, axis=0), np.repeat(X[:4, 0], 3)).predict(X)
    ),
    "regressor-y-column": lambda tmp: WienerRegressor().fit(X, X[:, :1]).predict(X),
    "svm-precomputed": lambda tmp: reduce_svm(
        SVC(kernel="precomputed").fit(X @ X.T, X[:, 0] > 0), 2
    ),
    "regressor-no-y": lambda tmp: WienerRegressor().fit(X, None),
}


def _rows():
    rows = []
    for line in TABLE.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and re.fullmatch(r"`[a-z0-9-]+`", cells[0]):
            rows.append((cells[0].strip("`"), cells[2], cells[3]))
    return rows


def test_the_table_lists_every_case_once():
    ids = [row[0] for row in _rows()]
    assert sorted(ids) == sorted(CASES)


@pytest.mark.parametrize("case, outcome, message", _rows())
def test_each_row_says_what_happens(case, outcome, message, tmp_path):
    kind = re.match(r"`(\w+)`", outcome).group(1)
    fragments = re.findall(r"`([^`]+)`", message)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = CASES[case](tmp_path)
            error = None
        except Exception as exc:
            error = exc
    if kind == "finite":
        assert error is None, error
        assert np.all(np.isfinite(result))
        text = " ".join(str(w.message) for w in caught)
    elif kind.endswith("Warning"):
        assert error is None, error
        assert np.all(np.isfinite(result))
        matching = [
            w
            for w in caught
            if w.category.__name__ == kind or kind in [c.__name__ for c in w.category.__mro__]
        ]
        assert matching, [str(w.message) for w in caught]
        text = " ".join(str(w.message) for w in matching)
    else:
        assert error is not None, f"{case}: no error"
        assert kind in [c.__name__ for c in type(error).__mro__], repr(error)
        text = str(error)
    for fragment in fragments:
        assert fragment in text, (case, fragment, text)


def test_a_filter_for_sklearns_convergence_warning_catches_ours():
    """An iteration stopped early warns with preimage's ConvergenceWarning, a
    scikit-learn ConvergenceWarning too: a user's filter for it applies."""
    import sklearn.exceptions

    from preimage import ConvergenceWarning, FeatureExpansion, NumericalWarning

    psi = FeatureExpansion([0.5, 0.5], np.array([[0.0], [2.0]]), GaussianKernel(gamma=1.0))
    with warnings.catch_warnings():
        warnings.simplefilter("error", sklearn.exceptions.ConvergenceWarning)
        with pytest.raises(ConvergenceWarning):
            find_preimage(psi, x0=[[0.3]], max_iter=1)
    assert issubclass(ConvergenceWarning, NumericalWarning)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sklearn.exceptions.ConvergenceWarning)
        result = find_preimage(psi, x0=[[0.3]], max_iter=1)
    assert result.converged.tolist() == [False]
