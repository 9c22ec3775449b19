"""Pre-images from distance constraints (Kwok and Tsang), placed in the
neighbours' frame or by global MDS aligned by Procrustes (Honeine and Richard):
:class:`MDSPreimage`, whose Notes give the equations."""

from __future__ import annotations

from dataclasses import dataclass
import warnings

import numpy as np

from preimage._utils.typing import ArrayLike, BoundsLike
from preimage._utils.validation import check_overflow, check_positive, check_positive_int
from preimage._utils.warnings import warn
from preimage.exceptions import NumericalWarning
from preimage.kernels import DotProductKernel, RadialKernel
from preimage.kernels._expansion import FeatureExpansion
from preimage.solvers._base import PreimageSolver
from preimage.solvers._docs import fill_doc
from preimage.solvers._starts import support_distance2

#: How the point is placed from its distances to the neighbours.
ALIGNMENTS = ("frame", "procrustes")

_BLOCK_FLOATS = 4_000_000  # floats of one block's (points × (n + 1) × basis) arrays


def procrustes_coordinates(Zt: np.ndarray, d2: np.ndarray) -> np.ndarray:
    """Classical MDS of the neighbours and each point, aligned by Procrustes.

    `Zt` (n, r): the neighbours' centred coordinates in their frame (rank r);
    `d2` (m, n): finite squared distances of m points to them. Returns the
    (m, r) points ``z = Q y_0 + t`` (:class:`MDSPreimage`, Notes).

    ``B = J G J`` with ``G = [[ZᵀZ, g], [gᵀ, 0]]``, ``g_i = ½(d₀_i² − d_i²)``,
    so B has rank at most r + 2 and its range lies in the span of
    ``J[Z; 0]ᵀ``, ``J e_0`` and ``J[g; 0]``: its leading eigenpairs are those of
    the (r + 2) × (r + 2) matrix ``EᵀBE`` for an orthonormal basis E of that
    span (Rayleigh–Ritz, exact here), O(n r²) per point instead of O(n³).
    """
    (n, r), m = Zt.shape, d2.shape[0]
    if r == 0:
        return np.zeros((m, 0))
    n1, k = n + 1, min(r + 2, n + 1)
    step = max(1, _BLOCK_FLOATS // (n1 * k))
    return np.concatenate([_procrustes_block(Zt, d2[i : i + step], k) for i in range(0, m, step)])


def _procrustes_block(Zt, d2, k):
    n, r = Zt.shape
    m, n1 = d2.shape[0], n + 1
    d0 = np.sum(Zt**2, axis=1)
    # G = [[ZᵀZ, g], [gᵀ, 0]] has the distances D, so B = J G J.
    g = 0.5 * (d0 - d2)
    if k < n1:
        # Rayleigh–Ritz on the span of J[Z; 0]ᵀ, J e (e: the point), J[g; 0] ⊇ range(B).
        basis = np.zeros((m, n1, k))
        basis[:, :n, :r] = Zt
        basis[:, :, r] = -1.0 / n1
        basis[:, n, r] += 1.0
        basis[:, :n, r + 1] = g
        basis[:, :, r + 1] -= basis[:, :, r + 1].mean(axis=1, keepdims=True)
        E = np.linalg.qr(basis)[0]
    else:
        E = np.broadcast_to(np.eye(n1), (m, n1, n1))
    JE = E - E.mean(axis=1, keepdims=True)
    GE = np.empty_like(JE)
    GE[:, :n] = np.einsum("ia,maj->mij", Zt, np.einsum("ia,mij->maj", Zt, JE[:, :n]))
    GE[:, :n] += g[:, :, None] * JE[:, n][:, None, :]
    GE[:, n] = np.einsum("mi,mij->mj", g, JE[:, :n])
    BE = GE - GE.mean(axis=1, keepdims=True)
    T = np.einsum("mia,mib->mab", E, BE)
    w, W = np.linalg.eigh(0.5 * (T + np.swapaxes(T, 1, 2)))
    # The r leading eigenpairs (eigh sorts ascending); negative ones carry no
    # Euclidean coordinate and are set to 0, as classical MDS does.
    Y = np.einsum("mia,mab->mib", E, W[:, :, -r:]) * np.sqrt(np.maximum(w[:, None, -r:], 0))
    centre = Y[:, :n].mean(axis=1)
    cross = np.einsum("mia,ib->mab", Y[:, :n] - centre[:, None], Zt)
    P, _, Rt = np.linalg.svd(cross)
    return np.einsum("ma,mab->mb", Y[:, n] - centre, P @ Rt)


@fill_doc
@dataclass(eq=False, repr=False)
class MDSPreimage(PreimageSolver):
    r"""Kwok and Tsang's pre-image: input distances to the nearest training points, then MDS.

    The feature distances :math:`\tilde d_i^2 = \|\Psi - \phi(x_i)\|^2` give
    input distances by inverting the kernel (radial:
    :math:`\tilde d^2 = 2 f(0) - 2 f(d^2)`; dot-product: through
    :math:`f^{-1}`); the pre-image lies at those distances from the n nearest
    training points (Notes), listed in the result's ``info["neighbors"]``.

    Parameters
    ----------
    n_neighbors : int, default=10
        Training points used.
    rank_tol : float, default=1e-10
        Singular values below `rank_tol` times the largest are dropped.
    alignment : {"frame", "procrustes"}, default="frame"
        Kwok and Tsang's solution in the neighbours' SVD frame, or classical
        MDS of the neighbours and the point aligned to the neighbours by a
        rigid motion (Honeine and Richard).
    %(bounds)s

    Attributes
    ----------
    diag_ : ndarray of shape (n,)
        The kernel diagonal :math:`k(x_i, x_i)` of the support points.
    %(fitted)s

    Notes
    -----
    With :math:`[x_1 - \bar x, \dots, x_n - \bar x] = U \Lambda V^\top`,
    :math:`Z = \Lambda V^\top` and :math:`d_{0,i}^2 = \|z_i\|^2`, the pre-image
    is :math:`\bar x + U z`: in the frame,
    :math:`z = -\tfrac{1}{2} \Lambda^{-1} V^\top (d^2 - d_0^2)` (least squares
    with :math:`\|z\|^2` free); by Procrustes, :math:`z = Q y_0 + t` for the
    classical MDS embedding :math:`y` of the n + 1 points and the rigid motion
    :math:`\arg\min \sum_i \|Q y_i + t - z_i\|^2`. Both give a point of the
    neighbours' span exactly.

    References
    ----------
    Kwok and Tsang (2004), Sec. 4.
    Honeine and Richard (2011), Sec. 5.1 (global MDS with a Procrustes alignment).

    Examples
    --------
    >>> import numpy as np
    >>> from preimage.solvers import MDSPreimage
    >>> from preimage import FeatureExpansion
    >>> from preimage.kernels import GaussianKernel
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    >>> psi = FeatureExpansion(np.eye(4)[[2]], X, GaussianKernel(gamma=0.5))
    >>> for alignment in ("frame", "procrustes"):
    ...     solver = MDSPreimage(4, alignment=alignment).fit(X, psi.kernel)
    ...     print(np.round(solver.solve(psi).x, 8) + 0.0)
    [[0. 1.]]
    [[0. 1.]]
    """

    name = "mds"
    learns = True

    n_neighbors: int = 10
    rank_tol: float = 1e-10
    alignment: str = "frame"
    bounds: BoundsLike = None

    def _check_params(self):
        check_positive_int(self.n_neighbors, "n_neighbors")
        check_positive(self.rank_tol, "rank_tol")
        if not isinstance(self.alignment, str) or self.alignment not in ALIGNMENTS:
            raise ValueError(
                f"'alignment' must be one of {list(ALIGNMENTS)}, got {self.alignment!r}"
            )

    def _check_kernel(self, kernel):
        kernel = super()._check_kernel(kernel)
        if not isinstance(kernel, (RadialKernel, DotProductKernel)):
            raise ValueError(
                "method='mds' needs a radial or dot-product kernel (to turn feature "
                f"distances into input distances), got {kernel!r}"
            )
        if isinstance(kernel, DotProductKernel) and not kernel.invertible:
            warn(
                f"{kernel!r} is not invertible on the whole line; MDS uses the branch "
                "with non-negative kernel argument",
                NumericalWarning,
            )
        return kernel

    def _fit(self, coordinates, targets, center_targets):
        self.diag_ = self.kernel_.diag(self.X_fit_, check_input=False, names="'support'")

    def input_distance2(
        self,
        expansion: FeatureExpansion,
        feature_d2: ArrayLike | None = None,
        diag: ArrayLike | None = None,
    ) -> np.ndarray:
        r"""Return the squared input distances implied by feature distances.

        The kernel is inverted (:math:`\tilde d^2 = 2 f(0) - 2 f(d^2)` for a
        radial kernel; see the class docstring).

        Parameters
        ----------
        expansion : FeatureExpansion
            The m expansions, over the fitted support.
        feature_d2 : array of shape (m, p), optional
            Squared feature distances :math:`\tilde d^2` to p points (default:
            the support points).
        diag : array of shape (m, p) or (1, p), optional
            The :math:`k(x, x)` of those points, given with `feature_d2`.

        Returns
        -------
        ndarray of shape (m, p)
            The squared input distances (p = n by default).
        """
        if feature_d2 is None:
            feature_d2 = support_distance2(expansion)
            diag = self.diag_[None, :]
        d2, too_far = self._input_distance2(expansion, feature_d2, diag)
        if too_far.any():
            warn(
                f"MDS: {int(too_far.sum())} feature distances d̃² ≥ 2k(x, x) are too "
                "large for the kernel's inverse (the logarithm is undefined); they were "
                "clipped to the largest finite input distance",
                NumericalWarning,
            )
        hint = f"the inverse of {self.kernel_!r} is beyond the float range there"
        return check_overflow(d2, "the input distances implied by it", "'expansion'", hint)

    def _input_distance2(self, expansion, feature_d2, diag):
        """:meth:`input_distance2` (inf where the kernel's inverse overflows), and
        where it is undefined (``d̃² ≥ 2k(x, x)`` for a radial kernel)."""
        kernel = self.kernel_
        quiet = np.errstate(over="ignore", invalid="ignore", divide="ignore")
        with quiet, warnings.catch_warnings():
            # The clipping of the inverses is reported once, below, by MDS.
            warnings.simplefilter("ignore", NumericalWarning)
            if isinstance(kernel, RadialKernel):
                f0, (lo, hi) = float(kernel.profile(np.zeros(1))[0]), kernel.value_range
                too_far = np.asarray(feature_d2) >= 2 * f0
                values = f0 - np.asarray(feature_d2, dtype=float) / 2
                d2 = kernel.inverse_profile(np.clip(values, lo + np.finfo(float).tiny, hi))
            else:
                too_far = np.zeros(np.shape(feature_d2), dtype=bool)
                norm2 = expansion.norm2()
                cross = (norm2[:, None] + diag - feature_d2) / 2
                f_inv = kernel.inverse_profile
                d2 = np.maximum(f_inv(norm2)[:, None] + f_inv(diag) - 2 * f_inv(cross), 0.0)
        return np.where(np.isfinite(d2), d2, np.inf), too_far

    def _frame(self, Xn):
        """``U, s, Vt, x̄, d₀²``: the neighbours' frame (Notes), rank by `rank_tol`."""
        mean = Xn.mean(axis=0)
        U, s, Vt = np.linalg.svd((Xn - mean).T, full_matrices=False)
        keep = s > self.rank_tol * max(s[0], np.finfo(float).tiny) if s.size else s > 0
        U, s, Vt = U[:, keep], s[keep], Vt[keep]
        d0 = np.sum((s[:, None] * Vt) ** 2, axis=0)
        return U, s, Vt, mean, d0

    def _place(self, d2, s, Vt, d0):
        """Frame coordinates (m, r) of points at squared distances d2 (m, n)
        from the neighbours ``Z = Λ Vᵀ`` (Notes)."""
        if self.alignment == "frame":
            return -0.5 * ((d2 - d0) @ Vt.T) / s
        # Non-finite distances (the kernel's inverse overflowed) give NaN, as
        # in the frame solution, and the fallback of PreimageResult.direct.
        z = np.full((d2.shape[0], s.size), np.nan)
        finite = np.isfinite(d2).all(axis=1)
        if finite.any():
            z[finite] = procrustes_coordinates((s[:, None] * Vt).T, d2[finite])
        return z

    def _preimages(self, expansion):
        """MDS on each expansion's nearest support points, leaving out (with a
        warning) those whose feature distance no input distance explains."""
        X, n = self.X_fit_, min(self.n_neighbors, self.X_fit_.shape[0])
        feature_d2 = support_distance2(expansion)
        neighbors = np.argsort(feature_d2, axis=1)[:, :n]
        near_d2 = np.take_along_axis(feature_d2, neighbors, axis=1)
        # Input distances of the neighbours only: the others play no part.
        d2_near, undefined = self._input_distance2(expansion, near_d2, self.diag_[neighbors])
        if undefined.any():
            rows, alone = undefined.any(axis=1), undefined.all(axis=1)
            none_left = f" ({int(alone.sum())} expansions had none left and were given their "
            none_left += "nearest point)"
            warn(
                f"MDS: {int(undefined.sum())} of the {undefined.size} distances to the "
                f"{n} nearest points ({int(rows.sum())} of {expansion.n_expansions} "
                "expansions) are so large in feature space (d̃² ≥ 2k(x, x)) that no input "
                "distance explains them; those points were left out and MDS used the "
                f"remaining neighbours{none_left if alone.any() else ''}",
                NumericalWarning,
            )
        # Where the inverse overflowed, or the neighbours span directions at the
        # rounding level, x is not finite: PreimageResult.direct then falls back
        # to the support point nearest in feature space, with a warning.
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            if n == X.shape[0] and not undefined.any():
                # Every expansion uses all training points: one SVD serves them all.
                d2 = np.empty_like(d2_near)
                np.put_along_axis(d2, neighbors, d2_near, axis=1)
                U, s, Vt, mean, d0 = self._frame(X)
                x = self._place(d2, s, Vt, d0) @ U.T + mean
            else:
                x = np.empty((expansion.n_expansions, X.shape[1]))
                for j, idx in enumerate(neighbors):
                    keep = ~undefined[j]
                    if not keep.any():
                        x[j] = X[idx[0]]
                        continue
                    U, s, Vt, mean, d0 = self._frame(X[idx[keep]])
                    x[j] = U @ self._place(d2_near[j : j + 1, keep], s, Vt, d0)[0] + mean
        aligned = ", aligned by Procrustes" if self.alignment == "procrustes" else ""
        return x, f"MDS on the {n} nearest training points{aligned}", {"neighbors": neighbors}
