"""Boxes for pre-images: ``bounds`` of every solver, the denoisers and ``preimage fit``."""

import warnings

from cli_run import run_cli
import numpy as np
import pytest

from preimage import (
    FeatureExpansion,
    KernelPCA,
    KernelPCADenoiser,
    KernelPCADenoiserCV,
    load_model,
)
from preimage.datasets import make_three_clusters
from preimage.kernels import GaussianKernel, PolynomialKernel
from preimage.solvers import PREIMAGE_METHODS, FixedPointPreimage, make_solver

RNG = np.random.default_rng(0)
X = RNG.uniform(0.1, 0.9, (30, 3))
KERNEL = GaussianKernel(gamma=0.5)
# Signed coefficients: the unconstrained pre-images leave the data's range.
PSI = FeatureExpansion(RNG.normal(size=(6, 30)), X, KERNEL)
BOXES = ["data", (0.2, 0.8), ([0.0, 0.3, 0.2], [1.0, 0.6, 0.5])]
NON_EXACT = sorted(set(PREIMAGE_METHODS) - {"exact"})


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # convergence and fallbacks are not the point here
        yield


def _inside(Z, low, high):
    return bool(np.all((Z >= low) & (Z <= high)))


@pytest.mark.parametrize("bounds", BOXES, ids=["data", "scalars", "arrays"])
@pytest.mark.parametrize("method", NON_EXACT)
def test_every_solver_keeps_its_output_in_the_box(method, bounds):
    solver = make_solver(method, {"bounds": bounds}, random_state=0).fit(X, KERNEL)
    low, high = solver.bounds_
    result = solver.solve(PSI, x0=X[:6] * 3 - 1)  # starts outside the box too
    assert _inside(result.x, low, high)
    np.testing.assert_allclose(result.distance2, PSI.distance2(result.x), rtol=1e-9, atol=1e-12)
    kpca = KernelPCA(4, kernel=KERNEL).fit(X)
    Z = kpca.inverse_transform(kpca.transform(X * 3 - 1), method=method, bounds=bounds)
    assert _inside(Z, *make_solver(method, {"bounds": bounds}).fit(X, KERNEL).bounds_)


def test_unconstrained_solvers_leave_the_box_here():
    """Without bounds the same expansions do leave it (else the test above tests nothing)."""
    for method in ("fixed_point", "gradient", "closed_form"):
        Z = make_solver(method, random_state=0).fit(X, KERNEL).solve(PSI, x0=X[:6]).x
        assert not _inside(Z, 0.2, 0.8), method


def test_fixed_point_projects_every_iterate():
    """Mika's update pushes z beyond x = 1 (weight 1.5 at (1, 0), -0.5 at (0, 0));
    the projected fixed point ends at a fixed point of clip(update), which the
    unconstrained one clipped once is not."""
    S = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    kernel = GaussianKernel(gamma=2.0)
    psi = FeatureExpansion([[-0.5, 1.5, 0.3, 0.0]], S, kernel)

    def update(z):
        c = psi.coef[0] * kernel.block(z[None], S)[0]
        return c @ S / c.sum()

    free = FixedPointPreimage(tol=1e-12, max_iter=1000).fit(S, kernel).solve(psi, [[0.5, 0.5]]).x
    assert free[0, 0] > 1
    solver = FixedPointPreimage(tol=1e-12, max_iter=1000, bounds="data").fit(S, kernel)
    z = solver.solve(psi, [[0.5, 0.5]]).x[0]
    assert _inside(z, 0, 1) and z[0] == 1.0
    np.testing.assert_allclose(z, np.clip(update(z), 0, 1), atol=1e-9)
    assert not np.allclose(np.clip(free[0], 0, 1), np.clip(update(np.clip(free[0], 0, 1)), 0, 1))


@pytest.mark.parametrize("method", sorted(PREIMAGE_METHODS))
def test_data_is_the_range_of_the_support(method):
    kernel = PolynomialKernel(degree=3) if method == "exact" else KERNEL
    solver = make_solver(method, {"bounds": "data"}).fit(X, kernel)
    np.testing.assert_array_equal(solver.bounds_.low, X.min(axis=0))
    np.testing.assert_array_equal(solver.bounds_.high, X.max(axis=0))
    assert make_solver(method).fit(X, kernel).bounds_ is None


def test_gradient_in_a_box_that_fixes_every_coordinate():
    """low == high: L-BFGS-B has nothing to move (and reports no iterations)."""
    solver = make_solver("gradient", {"bounds": (0.5, 0.5)}).fit(X, KERNEL)
    result = solver.solve(FeatureExpansion(np.ones((1, len(X))), X, KERNEL))
    np.testing.assert_array_equal(result.x, 0.5)
    assert np.isfinite(result.distance2).all()


@pytest.mark.parametrize(
    "bounds",
    [(1, 0), (0, np.inf), (np.nan, 1), ([0, 0], [1, 1]), "dat", (0, 1, 2), 5, ("a", "b")],
)
@pytest.mark.parametrize("method", sorted(PREIMAGE_METHODS))
def test_bad_bounds_are_refused_naming_bounds(method, bounds):
    kernel = PolynomialKernel(degree=3) if method == "exact" else KERNEL
    with pytest.raises(ValueError, match=r"^'bounds' must be None, 'data' or \(low, high\)") as e:
        make_solver(method, {"bounds": bounds}).fit(X, kernel)
    assert "\n" not in str(e.value) and len(str(e.value)) < 200


def test_exact_refuses_a_preimage_outside_the_box():
    kernel = PolynomialKernel(degree=3)
    psi = FeatureExpansion.of_points([[0.5, 2.0, 0.1]], kernel)
    inside = make_solver("exact", {"bounds": (0, 2)}).fit(psi.support, kernel).solve(psi)
    np.testing.assert_allclose(inside.x, [[0.5, 2.0, 0.1]])
    with pytest.raises(ValueError, match="outside 'bounds'"):
        make_solver("exact", {"bounds": (0, 1)}).fit(psi.support, kernel).solve(psi)
    # 8 φ((1, 1, 1)): (⟨x, e_j⟩ + 1)³ summed is 64, so every z_j is 3, beyond the data's 1
    S = np.array([[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]])
    solver = make_solver("exact", {"bounds": "data"}).fit(S, kernel)
    with pytest.raises(ValueError, match="1 of 1 expansions .* outside 'bounds'"):
        solver.solve(FeatureExpansion([[0.0, 8.0]], S, kernel))


def test_bounds_with_a_solver_given_as_method_is_refused():
    with pytest.raises(ValueError, match="'bounds' applies to a method given by name"):
        make_solver(FixedPointPreimage(), bounds=(0, 1))


def test_denoiser_data_bounds_are_the_range_of_all_clean_training_data():
    """ "data" is the clean targets' range over all n points, not the landmarks'."""
    clean = RNG.uniform(0, 1, (80, 3))
    noisy = clean + RNG.normal(scale=0.3, size=clean.shape)
    den = KernelPCADenoiser(3, gamma=2.0, bounds="data", n_landmarks=10, random_state=0)
    den.fit(noisy, clean)
    np.testing.assert_array_equal(den.bounds_.low, clean.min(axis=0))
    np.testing.assert_array_equal(den.bounds_.high, clean.max(axis=0))
    landmarks = den.kpca_.X_fit_
    assert np.any(landmarks.min(axis=0) > clean.min(axis=0))
    np.testing.assert_array_equal(den.solver_.bounds_.low, clean.min(axis=0))
    assert _inside(den.transform(noisy * 2), *den.bounds_)
    assert KernelPCADenoiser(3, gamma=2.0, bounds=None).fit(clean).bounds_ is None
    default = KernelPCADenoiser(3, gamma=2.0).fit(clean).bounds_  # "auto": "data"
    np.testing.assert_array_equal(default.low, clean.min(axis=0))
    assert KernelPCADenoiser(3, kernel="linear", method="exact").fit(clean).bounds_ is None


def test_denoiser_refuses_bad_bounds():
    with pytest.raises(ValueError, match="'bounds'"):
        KernelPCADenoiser(3, bounds=(1, 0)).fit(X)
    with pytest.raises(ValueError, match="'bounds'"):
        KernelPCADenoiser(3, bounds="pixels").fit(X)


def test_denoiser_cv_searches_bounds_and_extends_the_counts():
    """Three point sources: 2 components are best, below the default counts
    (15 % to 75 % of the 60 training points), which are halved down to them."""
    clean, _ = make_three_clusters(30, noise=0.03, random_state=0)
    noisy = clean + np.random.default_rng(0).normal(scale=0.1, size=clean.shape)
    den = KernelPCADenoiserCV(gammas=[7.0], bounds=[None, "data"], random_state=0)
    den.fit(noisy, clean)
    results = den.cv_results_
    assert set(results["param_bounds"]) == {None, "data"}
    assert den.best_params_["bounds"] == den.best_estimator_.bounds
    counts = sorted(set(results["param_n_components"].tolist()))
    # halved down to them, then round(sqrt(2 * 4)) = 3 between the best and its neighbour
    assert counts == [1, 2, 3, 4, 9, 18, 30, 45] and den.n_components_ == 2
    assert KernelPCADenoiserCV().bounds == ("auto",)
    given = KernelPCADenoiserCV([7.0], [9, 18], bounds=[(0, 1)], random_state=0)
    given.fit(noisy, clean)
    assert sorted(set(given.cv_results_["param_n_components"].tolist())) == [9, 18]
    assert given.best_estimator_.bounds == (0, 1)
    with pytest.raises(ValueError, match=r"'bounds\[1\]'"):
        KernelPCADenoiserCV([7.0], [2], bounds=[None, (1, 0)]).fit(noisy, clean)


def _png_folder(path, X):
    from PIL import Image

    path.mkdir()
    for i, x in enumerate(X):
        Image.fromarray(np.round(x.reshape(4, 4) * 255).astype(np.uint8)).save(path / f"{i}.png")
    return path


@pytest.mark.slow
def test_cli_fit_keeps_png_data_in_the_pixel_range(tmp_path):
    X = np.random.default_rng(1).uniform(0.2, 0.7, (30, 16))
    _png_folder(tmp_path / "digits", X)
    np.save(tmp_path / "digits.npy", X)
    args = ["--n-components", "3", "--gamma", "0.5", "--quiet", "--force"]
    cases = {
        ("digits",): [0.0, 1.0],
        ("digits", "--bounds", "none"): None,
        ("digits", "--bounds", "data"): "data",
        ("digits.npy",): "auto",
        ("digits.npy", "--bounds", " -1,2.5"): [-1.0, 2.5],
    }
    for (data, *extra), expected in cases.items():
        result = run_cli("fit", data, "-o", "m.npz", *args, *extra, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert load_model(tmp_path / "m.npz").bounds == expected, extra
    for bad in ["1,0", "0", "0,inf", "pixels"]:
        result = run_cli("fit", "digits", "-o", "m.npz", *args, "--bounds", bad, cwd=tmp_path)
        assert result.returncode == 2 and "'--bounds'" in result.stderr, bad
