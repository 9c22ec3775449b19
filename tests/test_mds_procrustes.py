"""MDS pre-images aligned by Procrustes (Honeine & Richard 2011, Sec. 5.1)
against Kwok & Tsang's frame solution (``src/preimage/solvers/_mds.py``).

* an independent computation: the full (n + 1) × (n + 1) classical MDS of the
  neighbours and the point, aligned by ``scipy.linalg.orthogonal_procrustes``,
  equals ``MDSPreimage(alignment="procrustes")`` to 1e-8;
* the two alignments are equal (1e-8) when the distances are exactly those of
  a point in the neighbours' affine span, and differ otherwise (a point off the
  span, whose projection the frame solution returns exactly; distances from
  kernel PCA projections, which no point realises).
"""

import warnings

import numpy as np
import pytest
from scipy.linalg import orthogonal_procrustes
from sklearn.metrics.pairwise import rbf_kernel

from preimage import FeatureExpansion, KernelPCA, find_preimage
from preimage.datasets import make_three_clusters
from preimage.exceptions import NumericalWarning
from preimage.kernels import GaussianKernel, LinearKernel
from preimage.solvers import MDSPreimage


def global_mds_procrustes(Xn, d2):
    """Classical MDS of the neighbours Xn (n, d) and one point at squared
    distances d2 (n,), embedded in rank(Xn − x̄) dimensions, then the rigid
    motion mapping the embedded neighbours onto Xn (orthogonal_procrustes)."""
    n = len(Xn)
    r = np.linalg.matrix_rank(Xn - Xn.mean(axis=0), tol=1e-10 * np.abs(Xn).max())
    D = np.zeros((n + 1, n + 1))
    D[:n, :n] = np.sum((Xn[:, None] - Xn[None]) ** 2, axis=-1)
    D[:n, n] = D[n, :n] = d2
    J = np.eye(n + 1) - 1.0 / (n + 1)
    w, W = np.linalg.eigh(-0.5 * J @ D @ J)
    order = np.argsort(w)[::-1][:r]
    Y = W[:, order] * np.sqrt(np.maximum(w[order], 0))
    # Procrustes in the neighbours' r-dimensional frame: Xn − x̄ = T Eᵀ
    mean = Xn.mean(axis=0)
    E = np.linalg.svd((Xn - mean).T, full_matrices=False)[0][:, :r]
    T = (Xn - mean) @ E
    centre = Y[:n].mean(axis=0)
    R, _ = orthogonal_procrustes(Y[:n] - centre, T)
    return E @ ((Y[n] - centre) @ R) + mean


def input_d2_gaussian(coef, X, gamma):
    K = rbf_kernel(X, X, gamma=gamma)
    feature_d2 = coef @ K @ coef + 1 - 2 * K @ coef
    with np.errstate(invalid="ignore"):  # d̃² ≥ 2: no input distance
        return feature_d2, -np.log(1 - feature_d2 / 2) / gamma


@pytest.mark.parametrize("n_neighbors", [3, 6, 15])
@pytest.mark.parametrize("dim", [2, 5])
def test_procrustes_alignment_equals_full_mds_and_orthogonal_procrustes(n_neighbors, dim):
    rng = np.random.default_rng(dim * 100 + n_neighbors)
    X = rng.normal(scale=0.6, size=(15, dim))
    kernel = GaussianKernel(gamma=0.15)
    kpca = KernelPCA(3, kernel=kernel).fit(X)
    T = X[:6] + rng.normal(scale=0.2, size=(6, dim))
    for add_mean in (False, True):
        psi = kpca.project(T, add_mean=add_mean)
        solver = MDSPreimage(n_neighbors, alignment="procrustes").fit(X, kernel)
        with warnings.catch_warnings():
            # neighbours with d̃² ≥ 2 are left out, with a warning (test_solvers.py)
            warnings.simplefilter("ignore", NumericalWarning)
            result = solver.solve(psi)
        for j, c in enumerate(psi.coef):
            feature_d2, d2 = input_d2_gaussian(c, X, 0.15)
            idx = np.argsort(feature_d2)[:n_neighbors]
            idx = idx[feature_d2[idx] < 2]
            expected = global_mds_procrustes(X[idx], d2[idx])
            np.testing.assert_allclose(result.x[j], expected, atol=1e-8)


def linear_expansion(X, coef):
    """Ψ = Σ γ_i φ(x_i) with the linear kernel is the point p = Σ γ_i x_i, and
    the input distances MDS reads from it are exactly ‖p − x_i‖²."""
    return FeatureExpansion(coef, X, LinearKernel()), coef @ X


@pytest.mark.parametrize("n_neighbors", [3, 8, 20])
def test_alignments_agree_when_the_distances_are_those_of_a_point_in_the_span(n_neighbors):
    rng = np.random.default_rng(n_neighbors)
    X = rng.normal(size=(20, 2))  # neighbours span the plane: every p is in their span
    psi, p = linear_expansion(X, rng.normal(scale=0.3, size=(5, 20)))
    frame = find_preimage(psi, "mds", n_neighbors=n_neighbors)
    procrustes = find_preimage(psi, "mds", n_neighbors=n_neighbors, alignment="procrustes")
    np.testing.assert_allclose(frame.x, p, atol=1e-8)
    np.testing.assert_allclose(procrustes.x, p, atol=1e-8)


def test_alignments_differ_for_a_point_off_the_span():
    # neighbours in the plane z = 1; Σ γ_i ≠ 1 puts p off it: the frame
    # solution is exactly p's projection onto the plane, Procrustes is not
    rng = np.random.default_rng(3)
    X = np.column_stack([rng.normal(size=(12, 2)), np.ones(12)])
    coef = rng.uniform(0.2, 0.4, size=(4, 12))
    psi, p = linear_expansion(X, coef)
    assert np.all(np.abs(p[:, 2] - 1) > 1)
    frame = find_preimage(psi, "mds", n_neighbors=12)
    procrustes = find_preimage(psi, "mds", n_neighbors=12, alignment="procrustes")
    np.testing.assert_allclose(frame.x, np.column_stack([p[:, :2], np.ones(4)]), atol=1e-8)
    np.testing.assert_allclose(procrustes.x[:, 2], 1.0, atol=1e-8)  # in the plane too
    assert np.all(np.linalg.norm(procrustes.x - frame.x, axis=1) > 1e-3)


def test_alignments_differ_on_distances_no_point_realises():
    X, _ = make_three_clusters(15, random_state=4)
    kpca = KernelPCA(3, kernel="rbf", gamma=1.5).fit(X)
    psi = kpca.project(X[::5] + 0.05)
    frame = find_preimage(psi, "mds", n_neighbors=5)
    procrustes = find_preimage(psi, "mds", n_neighbors=5, alignment="procrustes")
    gap = np.linalg.norm(procrustes.x - frame.x, axis=1)
    assert np.median(gap) > 1e-4


def test_procrustes_on_every_training_point_in_blocks():
    # the global setting: all neighbours shared, the points solved in blocks
    rng = np.random.default_rng(7)
    X = rng.normal(size=(30, 3))
    psi, p = linear_expansion(X, rng.normal(scale=0.2, size=(9, 30)))
    result = find_preimage(psi, "mds", n_neighbors=30, alignment="procrustes")
    np.testing.assert_allclose(result.x, p, atol=1e-8)
    assert "Procrustes" in result.message


@pytest.mark.parametrize("alignment", ["svd", None, 1])
def test_unknown_alignment_names_the_argument(alignment):
    X = np.random.default_rng(0).normal(size=(6, 2))
    with pytest.raises(ValueError, match=r"'alignment' must be one of \['frame', 'procrustes'\]"):
        MDSPreimage(alignment=alignment).fit(X, GaussianKernel(gamma=1.0))


def test_a_denoiser_with_procrustes_mds_saves_and_loads_the_same(tmp_path):
    from preimage import KernelPCADenoiser
    from preimage.io import load_model, save_model

    X, _ = make_three_clusters(15, random_state=4)
    den = KernelPCADenoiser(
        3, gamma=1.5, method="mds", method_params={"n_neighbors": 6, "alignment": "procrustes"}
    ).fit(X)
    T = X[::7] + 0.05
    loaded = load_model(save_model(den, tmp_path / "model.npz"))
    assert loaded.solver_.alignment == "procrustes"
    np.testing.assert_array_equal(loaded.transform(T), den.transform(T))
    frame = KernelPCADenoiser(3, gamma=1.5, method="mds", method_params={"n_neighbors": 6})
    assert np.abs(frame.fit(X).transform(T) - den.transform(T)).max() > 1e-6
