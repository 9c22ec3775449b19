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

from preimage._utils.typing import ArrayLike
from preimage._utils.validation import check_array_2d, check_expansion
from preimage.kernels import Kernel
from preimage.kernels._expansion import FeatureExpansion
from preimage.kpca._projections import coordinates_expansion
from preimage.kpca._result import KernelPCAResult

if TYPE_CHECKING:
    from preimage.solvers._result import PreimageResult

__all__ = ["PreimageSolver"]


class PreimageSolver(BaseEstimator):
    r"""Base class of the pre-image methods.

    A pre-image method is a solver with one small interface:

    * :meth:`fit` on what the method needs: the support points and kernel of
      the expansions it will solve (every method), the kernel PCA whose
      coordinates it will be given (for :meth:`solve_coordinates`), and, for
      a method that learns a map, training pairs (coordinates to targets);
    * :meth:`solve` expansions, from optional starting points, into a
      :class:`~preimage.PreimageResult`;
    * :meth:`solve_coordinates` for kernel PCA coordinates: the expansions
      they stand for, solved; a method with a faster way from coordinates
      (the learned map, the closed form) takes it.

    Parameters are stored by ``__init__`` and checked by :meth:`fit`, as in
    scikit-learn; ``get_params``, ``set_params`` and ``repr`` come from
    :class:`sklearn.base.BaseEstimator`. What a method needs is said once, by
    its class attributes, so that a caller passes it without knowing the
    method (:func:`~preimage.solvers.make_solver` reads them).

    Attributes
    ----------
    name : str or None
        The name under which the method is registered in
        :data:`~preimage.solvers.PREIMAGE_METHODS`.
    uses_starts : bool
        Whether starting points matter (iterative methods start there;
        denoising starts at the noisy input).
    uses_random_state : bool
        Whether the method draws random numbers (restarts, landmarks).
    uses_landmarks : bool
        Whether the method takes ``n_landmarks`` (a Nyström form of itself).
    learns : bool
        Whether :meth:`fit` learns a state from the support points, so that
        the solver is fitted once, reused and kept in model files, and solves
        only expansions over that support.
    learns_from_pairs : bool
        Whether :meth:`fit` learns from (coordinates, targets) pairs, which a
        caller with pairs (a denoiser fitted on noisy to clean data) passes.
    support_ : ndarray of shape (n, d)
        The support points given to :meth:`fit`.
    kernel_ : Kernel
        The kernel given to :meth:`fit`.
    kpca_ : KernelPCAResult or None
        The kernel PCA given to :meth:`fit`, if any.

    Examples
    --------
    A method is a subclass that implements :meth:`solve`. This one returns
    the weighted mean of the support points, :math:`\sum_i \gamma_i x_i`,
    the exact pre-image under the linear kernel:

    >>> import numpy as np
    >>> from preimage import FeatureExpansion, PreimageResult
    >>> from preimage.kernels import LinearKernel
    >>> from preimage.solvers import PreimageSolver
    >>> class WeightedMean(PreimageSolver):
    ...     name = "weighted_mean"
    ...
    ...     def solve(self, expansion, x0=None):
    ...         x = expansion.coef @ expansion.support
    ...         return PreimageResult.direct(expansion, x, self.name, "weighted mean")
    >>> X = np.array([[0.0], [2.0]])
    >>> psi = FeatureExpansion([0.5, 0.5], X, LinearKernel())
    >>> WeightedMean().fit(X, psi.kernel).solve(psi).x
    array([[1.]])
    """

    # The name under which the method is registered (the class docstring
    # documents it and the other class attributes).
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
        coordinates : array of shape (n', q), optional
            Training inputs of the methods that learn from pairs
            (``learns_from_pairs``); the others ignore them.
        targets : array of shape (n', d), optional
            The training targets of those methods.
        center_targets : bool, default=False
            Whether those methods learn the targets' deviations from their
            mean.

        Returns
        -------
        PreimageSolver
            The solver itself, fitted.
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
        r"""Find the pre-images of `expansion`, starting from `x0` where that matters.

        Parameters
        ----------
        expansion : FeatureExpansion
            The m expansions :math:`\Psi_j`.
        x0 : array of shape (m, d) or (d,), optional
            Starting points, for the methods that use them (``uses_starts``).

        Returns
        -------
        PreimageResult
            The pre-images :math:`x_j` with their residuals
            :math:`\|\Psi_j - \phi(x_j)\|^2`.
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
        """Find the pre-images of the feature-space points with kernel PCA coordinates `Y`.

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
        ndarray of shape (m, d) or PreimageResult
            The pre-images, or with `return_result` their
            :class:`~preimage.PreimageResult`.
        """
        return self._solve_coordinates(Y, add_mean=add_mean, x0=x0, return_result=return_result)

    def _solve_coordinates(self, Y, *, add_mean, x0, return_result):
        """:meth:`solve_coordinates` without its overloads: the expansions Y
        stands for, solved. Methods with a faster way from coordinates
        override this."""
        result = self.solve(self.expansion_of(Y, add_mean=add_mean), x0=x0)
        return result if return_result else result.x

    def expansion_of(self, Y: ArrayLike, *, add_mean: bool = False) -> FeatureExpansion:
        r"""Return the expansions that kernel PCA coordinates stand for.

        With the principal axes :math:`V_k` of the kernel PCA given to
        :meth:`fit` and the feature-space mean :math:`\mu`, the coordinates
        :math:`y` stand for :math:`\sum_k (y_k + c_k) V_k` with
        :math:`c_k = \langle V_k, \mu \rangle` (the principal part), or
        :math:`\sum_k y_k V_k + \mu` (with the mean); both are expansions over
        the fitted support (:func:`preimage.kpca.expansion_coef`).

        Parameters
        ----------
        Y : array of shape (m, q)
            Centred coordinates under that kernel PCA.
        add_mean : bool, default=False
            Whether to add the feature-space mean (True) or to take the
            principal part (False).

        Returns
        -------
        FeatureExpansion
            The m expansions, with their squared norms in closed form.
        """
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
