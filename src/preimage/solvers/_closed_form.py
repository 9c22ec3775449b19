"""The closed-form pre-image of Honeine and Richard (2011)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import linalg

from preimage._utils.eigen import full_eigh
from preimage._utils.typing import BoundsLike
from preimage._utils.validation import check_overflow, check_positive
from preimage._utils.warnings import warn
from preimage._utils.xp import namespace
from preimage.exceptions import NumericalWarning
from preimage.kpca._projections import check_coordinates
from preimage.solvers._base import PreimageSolver
from preimage.solvers._docs import fill_doc
from preimage.solvers._xp import closed_form_map_xp

_MAP = "the entries of the closed form's map M = X − λ(Xᵀ)⁺K⁺"


@fill_doc
@dataclass(eq=False, repr=False)
class ClosedFormPreimage(PreimageSolver):
    r"""Honeine and Richard's pre-image, learned once from the support points.

    Inner products in feature space fitted to those of input space on the
    training points give the pre-image of :math:`\Psi = \sum_i \gamma_i \phi(x_i)`
    as the least-squares solution of their eq. 7-8,

    .. math:: X^\top x^* = (P - \lambda K^{-1})\, \gamma,

    with :math:`X = [x_1 \dots x_n]`, :math:`P = X^\top X` and :math:`K` the
    Gram matrix: :math:`x^* = M \gamma` with
    :math:`M = (X^\top)^+ (P - \lambda K^{-1}) = X - \lambda (X^\top)^+ K^+`
    computed once (pseudo-inverses: singular Gram matrices and dependent points
    are handled). From kernel PCA coordinates, :math:`MA` is computed once.

    Parameters
    ----------
    alpha : float, default=1e-9
        The regularisation :math:`\lambda \ge 0` (:math:`\lambda \to 0` gives
        :math:`\sum_i \gamma_i x_i`).
    %(bounds)s

    Attributes
    ----------
    M_ : ndarray of shape (d, n)
        The map :math:`M`.

    References
    ----------
    Honeine and Richard (2011), eq. 7-9.

    Examples
    --------

    >>> import numpy as np
    >>> from preimage.solvers import ClosedFormPreimage
    >>> from preimage import FeatureExpansion
    >>> from preimage.kernels import GaussianKernel
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    >>> psi = FeatureExpansion([0.5, 0.5, 0.0], X, GaussianKernel(gamma=0.5))
    >>> ClosedFormPreimage(alpha=0.0).fit(X, psi.kernel).solve(psi).x
    array([[0.5, 0. ]])
    >>> np.round(ClosedFormPreimage(alpha=0.1).fit(X, psi.kernel).solve(psi).x, 4)
    array([[0.4689, 0.048 ]])
    """

    name = "closed_form"
    learns = True

    alpha: float = 1e-9
    bounds: BoundsLike = None

    _model_state = {"M_": "f[d,n]"}
    _coordinate_maps = None

    def _check_params(self):
        check_positive(self.alpha, "alpha", strict=False)

    def _fit(self, coordinates, targets, center_targets):
        """The map M."""
        lam, X = float(self.alpha), self.X_fit_
        xp = namespace(X)
        if xp is not None:
            self.M_ = closed_form_map_xp(X, self.kernel_, lam, xp)
            return
        # (Xᵀ)⁺P = X exactly (points as columns, as in the paper).
        self.M_, self._coordinate_maps = np.array(X.T, dtype=float), None
        if lam:
            # K and its eigenvectors: two n × n matrices.
            K = self._support_gram(copies=2)
            # K⁺ dropping eigenvalues below n·eps·max|w|, as scipy.linalg.pinvh does.
            w, V = full_eigh(K)
            top = max(float(np.abs(w).max()), np.finfo(float).tiny)
            keep = np.abs(w) > K.shape[0] * np.finfo(float).eps * top
            if not keep.all():
                warn(
                    f"the Gram matrix of the {K.shape[0]} support points has "
                    f"{int((~keep).sum())} eigenvalues at rounding level (dependent "
                    "images φ(x_i): duplicated points, or more points than the feature "
                    "space has dimensions); they were dropped from K⁻¹ (a "
                    "pseudo-inverse) instead of divided by",
                    NumericalWarning,
                )
            with np.errstate(over="ignore", invalid="ignore"):  # refused just below
                XV = linalg.pinv(X.astype(np.float64)) @ V[:, keep]
                self.M_ -= lam * (XV / w[keep]) @ V[:, keep].T
            hint = "use a smaller 'alpha' or rescale 'support'"
            check_overflow(self.M_, _MAP, "'alpha' and 'support'", hint)

    def _preimages(self, expansion):
        with np.errstate(over="ignore", invalid="ignore"):  # handled by direct()
            x = expansion.coef @ self.M_.T
        return x, "closed form"

    def _solve_coordinates(self, Y, *, add_mean, x0, return_result):
        """Pre-images straight from coordinates (:math:`MA`), or with
        `return_result` from the expansions, for their residuals."""
        if return_result:
            return super()._solve_coordinates(Y, add_mean=add_mean, x0=x0, return_result=True)
        kpca = self._fitted_kpca()
        Y = check_coordinates(Y, kpca.coef.shape[1])
        if self._coordinate_maps is None:
            self._coordinate_maps = (self.M_ @ kpca.coef, self.M_ @ kpca.mean_coef)
        MA, M_mean = self._coordinate_maps
        Y = np.asarray(Y, dtype=float) * (kpca.eigenvalues > 0)
        return self._clip(Y @ MA.T + M_mean if add_mean else (Y + kpca.mean_coords) @ MA.T)
