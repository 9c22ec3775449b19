"""The protocol every pre-image method follows.

A pre-image method is a solver object with one small interface:

* ``fit(support, kernel, *, kpca=None, coordinates=None, targets=None,
  center_targets=False)`` — fit on what the method needs: the support points
  and kernel of the expansions it will solve (every method), the kernel PCA
  whose coordinates it will be given (for :meth:`~PreimageSolver.solve_coordinates`),
  and, for a method that learns a map, training pairs (coordinates → targets);
* ``solve(expansion, x0=None)`` — pre-images of expansions, from optional
  starting points, as a :class:`~preimage.PreimageResult`;
* ``solve_coordinates(Y, *, add_mean=False, x0=None, return_result=False)``
  — pre-images of kernel PCA coordinates Y: the expansions they stand for,
  solved; a method with a faster way from coordinates (the learned map, the
  closed form) takes it.

What a method needs is said once, by its class attributes, so that a caller
passes it without knowing the method (:func:`preimage.solvers.make_solver`
reads them):

``uses_starts``
    x0 matters (iterative methods start there; denoising starts at the noisy
    input).
``uses_random_state``
    the method draws random numbers (restarts, landmarks).
``uses_landmarks``
    the method takes ``n_landmarks`` (a Nyström form of itself).
``learns``
    ``fit`` learns a state from the support points, so the solver is fitted
    once, reused and kept in model files, and solves only expansions over
    that support.
``learns_from_pairs``
    ``fit`` learns from (coordinates → targets) pairs, which a caller with
    pairs (a denoiser fitted on noisy → clean data) passes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Self, overload

import numpy as np
from sklearn.base import BaseEstimator

from .._expansion import FeatureExpansion
from .._typing import ArrayLike
from .._validation import check_array_2d, check_expansion
from ..kernels import Kernel
from ..kpca import KernelPCAResult, coordinates_expansion

if TYPE_CHECKING:
    from ._result import PreimageResult

__all__ = ["PreimageSolver"]


class PreimageSolver(BaseEstimator):
    """Base class of the pre-image methods (see the module docstring).

    Parameters are stored by ``__init__`` and checked by :meth:`fit`, as in
    scikit-learn; ``get_params``, ``set_params`` and ``repr`` come from
    :class:`sklearn.base.BaseEstimator`.
    """

    #: The name under which the method is registered.
    name: str | None = None
    uses_starts = False
    uses_random_state = False
    uses_landmarks = False
    learns = False
    learns_from_pairs = False

    # -- fit --------------------------------------------------------------------
    def fit(
        self,
        support: ArrayLike,
        kernel: Kernel,
        *,
        kpca: KernelPCAResult | None = None,
        coordinates: ArrayLike | None = None,
        targets: ArrayLike | None = None,
        center_targets: bool = False,
    ) -> Self:
        """Check the parameters and the kernel, and remember the support.

        Parameters
        ----------
        support : array of shape (n, d)
            The support points of the expansions to solve.
        kernel : Kernel
            Their kernel.
        kpca : KernelPCAResult, optional
            The kernel PCA (over `support`) whose coordinates
            :meth:`solve_coordinates` will be given.
        coordinates, targets, center_targets
            Training pairs of the methods that learn from them
            (``learns_from_pairs``); the others ignore them.

        Returns
        -------
        self
        """
        self._check_params()
        self.support_ = check_array_2d(support, "support")
        self.kernel_ = self._check_kernel(kernel)
        self.kpca_ = kpca
        return self

    def _check_params(self):
        """Refuse bad parameters, naming them (subclasses with parameters)."""

    def _check_kernel(self, kernel):
        """The kernel, if the method works with it; else a ValueError."""
        if not isinstance(kernel, Kernel):
            raise ValueError(f"'kernel' must be a preimage Kernel, got {kernel!r}")
        return kernel

    # -- solve ------------------------------------------------------------------
    def solve(
        self, expansion: FeatureExpansion, x0: ArrayLike | None = None
    ) -> PreimageResult:  # pragma: no cover - abstract
        """Pre-images of `expansion`, starting from `x0` where that matters.

        Returns
        -------
        PreimageResult
        """
        raise NotImplementedError

    @overload
    def solve_coordinates(
        self,
        Y: ArrayLike,
        *,
        add_mean: bool = ...,
        x0: ArrayLike | None = ...,
        return_result: Literal[False] = ...,
    ) -> np.ndarray: ...
    @overload
    def solve_coordinates(
        self,
        Y: ArrayLike,
        *,
        add_mean: bool = ...,
        x0: ArrayLike | None = ...,
        return_result: Literal[True],
    ) -> PreimageResult: ...

    def solve_coordinates(
        self,
        Y: ArrayLike,
        *,
        add_mean: bool = False,
        x0: ArrayLike | None = None,
        return_result: bool = False,
    ) -> np.ndarray | PreimageResult:
        """Pre-images of the feature-space points with kernel PCA coordinates Y.

        Parameters
        ----------
        Y : array of shape (m, q)
            Centred coordinates under the kernel PCA given to :meth:`fit`.
        add_mean : bool, default=False
            Which expansion the coordinates stand for: the principal part
            (False) or the reconstruction with the feature-space mean (True);
            see :func:`preimage.kpca.expansion_coef`.
        x0 : array of shape (m, d), optional
            Starting points, for the methods that use them.
        return_result : bool, default=False
            Return the :class:`~preimage.PreimageResult` (residuals,
            iterations, convergence) instead of the points alone.

        Returns
        -------
        ndarray of shape (m, d), or PreimageResult
        """
        return self._solve_coordinates(Y, add_mean=add_mean, x0=x0, return_result=return_result)

    def _solve_coordinates(self, Y, *, add_mean, x0, return_result):
        """:meth:`solve_coordinates` without its overloads: the expansions Y
        stands for, solved. Methods with a faster way from coordinates
        override this."""
        result = self.solve(self.expansion_of(Y, add_mean=add_mean), x0=x0)
        return result if return_result else result.x

    def expansion_of(self, Y: ArrayLike, *, add_mean: bool = False) -> FeatureExpansion:
        """The expansions that kernel PCA coordinates Y stand for, over the
        fitted support."""
        return coordinates_expansion(
            Y, self._fitted_kpca(), self.support_, self.kernel_, add_mean=add_mean
        )

    def _fitted_kpca(self):
        if getattr(self, "kpca_", None) is None:
            raise ValueError(
                f"{type(self).__name__} was not fitted with a kernel PCA "
                "('kpca'), so it cannot map coordinates 'Y'; use solve() "
                "with an expansion"
            )
        return self.kpca_

    def _check_support(self, expansion):
        """A learning solver applies only to expansions over the support it
        was fitted on."""
        check_expansion(expansion)
        if not hasattr(self, "support_"):
            raise ValueError(
                f"{type(self).__name__} is not fitted; call fit(support, "
                "kernel) first (a solver passed as 'method' is used as it is)"
            )
        if expansion.support is not self.support_ and (
            expansion.support.shape != self.support_.shape
            or not np.array_equal(expansion.support, self.support_)
        ):
            raise ValueError(
                f"the expansion's support differs from the one {type(self).__name__} "
                "was fitted on; fit it on expansion.support"
            )
        return expansion
