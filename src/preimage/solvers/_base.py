"""The protocol every pre-image method follows: :class:`PreimageSolver`."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Literal, Self, overload

import numpy as np
from sklearn.base import BaseEstimator

from preimage._utils.typing import ArrayLike
from preimage._utils.validation import check_array_2d, check_bounds, check_expansion, checked_gram
from preimage._utils.xp import check_xp_2d, namespace, refuse
from preimage.kernels import Kernel
from preimage.kernels._expansion import FeatureExpansion
from preimage.kpca._projections import coordinates_expansion
from preimage.kpca._result import KernelPCAResult
from preimage.kpca._xp import DEVICE_METHODS
from preimage.solvers._docs import fill_doc
from preimage.solvers._result import PreimageResult
from preimage.solvers._xp import box_xp, solve_coordinates_xp, solve_xp

# Short names that keep solve_coordinates' overloads on one line each.
_X0 = ArrayLike | None
_No = Literal[False]
_Yes = Literal[True]


@fill_doc
class PreimageSolver(BaseEstimator):
    r"""Base class of the pre-image methods.

    A method is fitted on what it needs (:meth:`fit`), solves expansions from
    optional starts (:meth:`solve`), and kernel PCA coordinates by a faster way
    where it has one (:meth:`solve_coordinates`). Parameters are checked by
    :meth:`fit`, as in scikit-learn; the class attributes say what a method
    needs, for :func:`~preimage.solvers.make_solver`.

    Attributes
    ----------
    name : str or None
        The method's name in :data:`~preimage.solvers.PREIMAGE_METHODS`.
    uses_starts, uses_random_state, uses_landmarks : bool
        Whether starting points matter, random numbers are drawn, and
        ``n_landmarks`` (a Nyström form) is taken.
    learns : bool
        Whether :meth:`fit` learns a state from the support points (the solver
        is fitted once, kept in model files, and solves only over that support).
    learns_from_pairs : bool
        Whether :meth:`fit` learns from (coordinates, targets) pairs.
    %(fitted)s
    kpca_ : KernelPCAResult or None
        The kernel PCA given to :meth:`fit`, if any.

    Examples
    --------
    A method implements :meth:`solve`; :math:`\sum_i \gamma_i x_i` is exact
    under the linear kernel:

    >>> import numpy as np
    >>> from preimage.solvers import PreimageSolver
    >>> from preimage import FeatureExpansion, PreimageResult
    >>> from preimage.kernels import LinearKernel
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

    name: str | None = None
    uses_starts = False
    uses_random_state = False
    uses_landmarks = False
    learns = False
    learns_from_pairs = False

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
        """Check the parameters and the kernel, and remember them.

        Parameters
        ----------
        support : array of shape (n, d)
            The support points of the expansions to solve.
        kernel : Kernel
            Their kernel.
        kpca : KernelPCAResult, optional
            The kernel PCA over `support` whose coordinates
            :meth:`solve_coordinates` will get.
        coordinates, targets : arrays of shape (n', q) and (n', d), optional
            Training pairs of the methods that learn from pairs (the others
            ignore them).
        center_targets : bool, default=False
            Whether those learn the targets' deviations from their mean.

        Returns
        -------
        PreimageSolver
            The solver itself, fitted.
        """
        self._check_params()
        xp = namespace(support)
        if xp is None:
            self.X_fit_ = check_array_2d(support, "support")
            self.bounds_ = check_bounds(getattr(self, "bounds", None), self.X_fit_)
        elif self.name not in DEVICE_METHODS:
            raise refuse(f"method={self.name!r}", xp)
        else:
            self.X_fit_ = check_xp_2d(support, "support", xp)
            self.bounds_ = box_xp(getattr(self, "bounds", None), self.X_fit_, xp)
        self.kernel_, self.kpca_ = self._check_kernel(kernel), kpca
        self._fit(coordinates, targets, center_targets)
        return self

    def _fit(self, coordinates, targets, center_targets):
        """Learn what the method learns (the methods that learn)."""

    #: What a model file keeps of the fitted solver (see :mod:`preimage.io`):
    #: what its fit learns at a cost; the others are fitted again.
    _model_state: ClassVar[dict[str, str]] = {}

    def _restore(self, support, kernel, kpca, state):
        """Fitted on `support`, `kernel` and `kpca`, with the learned `state` of a file."""
        if not self._model_state:
            return self.fit(support, kernel, kpca=kpca)
        self._check_params()
        self.X_fit_, self.kernel_, self.kpca_ = support, self._check_kernel(kernel), kpca
        self.bounds_ = check_bounds(getattr(self, "bounds", None), support)
        sizes = dict(zip("ndq", (*support.shape, kpca.eigenvalues.shape[0])))
        for name, value in state.items():
            dims = self._model_state[name].partition("[")[2].rstrip("]?").split(",")
            if any(sizes.get(s, m) != m for s, m in zip(dims, np.shape(value))):
                raise ValueError(f"'solver_.{name}' does not fit the kernel PCA ({dims})")
        vars(self).update(state)
        return self

    def _check_params(self):
        """Refuse bad parameters, naming them (subclasses with parameters)."""

    def _check_kernel(self, kernel):
        """The kernel, if the method works with it; else a ValueError."""
        if not isinstance(kernel, Kernel):
            raise ValueError(f"'kernel' must be a preimage Kernel, got {kernel!r}")
        return kernel

    @fill_doc
    def solve(self, expansion: FeatureExpansion, x0: ArrayLike | None = None) -> PreimageResult:
        """Find the pre-images of `expansion`, starting from `x0` where that matters.

        Parameters
        ----------
        %(expansion)s
        x0 : array of shape (m, d) or (d,), optional
            Starting points, for the methods that use them (``uses_starts``).

        Returns
        -------
        %(result)s
        """
        self._check_support(expansion)
        xp = namespace(expansion.coef, x0)
        if xp is not None:
            return solve_xp(self, expansion, x0, xp)
        x, message, *info = self._preimages(expansion)
        return PreimageResult.direct(expansion, self._clip(x), self.name, message, *info)

    def _clip(self, x):
        """`x` clipped to the fitted box ``bounds_`` (where there is one)."""
        box = getattr(self, "bounds_", None)
        return x if box is None else np.clip(x, *box)

    def _preimages(self, expansion):
        """``x, message[, info]`` for expansions over the fitted support."""
        raise NotImplementedError

    @overload
    def solve_coordinates(
        self, Y: ArrayLike, *, add_mean: bool = ..., x0: _X0 = ..., return_result: _No = ...
    ) -> np.ndarray: ...
    @overload
    def solve_coordinates(
        self, Y: ArrayLike, *, add_mean: bool = ..., x0: _X0 = ..., return_result: _Yes
    ) -> PreimageResult: ...

    def solve_coordinates(
        self, Y: ArrayLike, *, add_mean: bool = False, x0: _X0 = None, return_result: bool = False
    ) -> np.ndarray | PreimageResult:
        """Find the pre-images of the feature-space points with kernel PCA coordinates `Y`.

        Parameters
        ----------
        Y : array of shape (m, q)
            Centred coordinates under the kernel PCA given to :meth:`fit`.
        add_mean : bool, default=False
            Whether Y stands for the reconstruction with the feature-space mean
            (True) or the principal part (:meth:`expansion_of`).
        x0 : array of shape (m, d), optional
            Starting points, for the methods that use them.
        return_result : bool, default=False
            Return the :class:`~preimage.PreimageResult` instead of the points.

        Returns
        -------
        ndarray of shape (m, d) or PreimageResult
            The pre-images, or with `return_result` their result.
        """
        xp = namespace(Y, x0)
        if xp is not None:
            return solve_coordinates_xp(self, Y, add_mean, x0, return_result, xp)
        return self._solve_coordinates(Y, add_mean=add_mean, x0=x0, return_result=return_result)

    def _solve_coordinates(self, Y, *, add_mean, x0, return_result):
        """The expansions Y stands for, solved (overridden by faster ways)."""
        result = self.solve(self.expansion_of(Y, add_mean=add_mean), x0=x0)
        return result if return_result else result.x

    def expansion_of(self, Y: ArrayLike, *, add_mean: bool = False) -> FeatureExpansion:
        r"""Return the expansions that kernel PCA coordinates stand for.

        With the fitted kernel PCA's axes :math:`V_k` and mean :math:`\mu`,
        :math:`y` stands for :math:`\sum_k (y_k + \langle V_k, \mu \rangle) V_k`
        (the principal part) or :math:`\sum_k y_k V_k + \mu` (with the mean).

        Parameters
        ----------
        Y : array of shape (m, q)
            Centred coordinates under that kernel PCA.
        add_mean : bool, default=False
            Whether to add the feature-space mean.

        Returns
        -------
        FeatureExpansion
            The m expansions.
        """
        kpca = self._fitted_kpca()
        return coordinates_expansion(Y, kpca, self.X_fit_, self.kernel_, add_mean=add_mean)

    def _fitted_kpca(self):
        if getattr(self, "kpca_", None) is None:
            raise ValueError(
                f"{type(self).__name__} was not fitted with a kernel PCA "
                "('kpca'), so it cannot map coordinates 'Y'; use solve() "
                "with an expansion"
            )
        return self.kpca_

    def _support_gram(self, copies=1):
        """The Gram matrix of the support points, refused beyond the memory budget
        (with room for `copies` n × n matrices)."""
        what = "Gram matrix of 'support'"
        return checked_gram(self.kernel_, self.X_fit_, what, copies=copies, names="'support'")

    def _check_support(self, expansion):
        """Refuse an `expansion` over another support than the one fitted on."""
        check_expansion(expansion)
        if not hasattr(self, "X_fit_"):
            raise ValueError(
                f"{type(self).__name__} is not fitted; call fit(support, "
                "kernel) first (a solver passed as 'method' is used as it is)"
            )
        support = expansion.support
        if support is not self.X_fit_ and (
            namespace(support) is not None or not np.array_equal(support, self.X_fit_)
        ):
            raise ValueError(
                f"the expansion's support differs from the one {type(self).__name__} "
                "was fitted on; fit it on expansion.support"
            )


class FunctionSolver(PreimageSolver):
    """A method that is ``_function(expansion, x0, **params)``, its parameters
    checked by ``_check(**params)`` and its kernel by ``_refuse(kernel)``."""

    _function: Callable[..., PreimageResult]
    _check: Callable[..., object]
    _refuse: Callable[[Kernel], Kernel]

    def _check_params(self):
        self._check(**self.get_params())

    def _check_kernel(self, kernel):
        return self._refuse(super()._check_kernel(kernel))

    @fill_doc
    def solve(self, expansion: FeatureExpansion, x0: ArrayLike | None = None) -> PreimageResult:
        """Find the pre-images of `expansion` by the method's function, from `x0`.

        Parameters
        ----------
        %(expansion)s
        %(x0)s

        Returns
        -------
        %(result)s
        """
        xp = namespace(expansion.coef, x0)
        if xp is not None:
            self._check_support(expansion)
            return solve_xp(self, expansion, x0, xp)
        params = self.get_params()  # every function solver has bounds, resolved by fit
        params["bounds"] = getattr(self, "bounds_", params["bounds"])  # "data": the range
        return self._function(expansion, x0, **params)
