"""The one dispatch on ``method=``: :func:`make_solver` (every estimator goes
through it) and :func:`find_preimage`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
import inspect
from typing import Any

from preimage._utils.typing import ArrayLike, BoundsLike, RandomStateLike
from preimage._utils.validation import check_expansion
from preimage.kernels._expansion import FeatureExpansion
from preimage.solvers._base import PreimageSolver
from preimage.solvers._docs import fill_doc
from preimage.solvers._names import PREIMAGE_METHODS
from preimage.solvers._result import PreimageResult


@fill_doc
@dataclass(eq=False, repr=False)
class CallablePreimage(PreimageSolver):
    """A user's pre-image function as a solver.

    ``f(expansion, x0=None, **options)`` returns a :class:`~preimage.PreimageResult`;
    any kernel is accepted (the function decides).

    Parameters
    ----------
    function : callable
        The pre-image function.
    options : dict, optional
        Keyword arguments passed to `function` at every call.

    Examples
    --------
    >>> from preimage.solvers import CallablePreimage
    >>> import numpy as np
    >>> from preimage import FeatureExpansion, PreimageResult
    >>> from preimage.kernels import LinearKernel
    >>> def weighted_mean(expansion, x0=None):
    ...     x = expansion.coef @ expansion.support
    ...     return PreimageResult.direct(expansion, x, "weighted_mean", "weighted mean")
    >>> X = np.array([[0.0], [2.0]])
    >>> psi = FeatureExpansion([0.5, 0.5], X, LinearKernel())
    >>> CallablePreimage(weighted_mean).fit(X, psi.kernel).solve(psi).x
    array([[1.]])
    """

    name = "callable"
    uses_starts = True

    function: Callable[..., PreimageResult] | None = None
    options: dict[str, Any] | None = None

    def _check_params(self):
        if not callable(self.function):
            raise ValueError(f"'function' must be callable, got {self.function!r}")

    def _check_kernel(self, kernel):
        return kernel  # the function decides what it can work with

    @fill_doc
    def solve(self, expansion: FeatureExpansion, x0: ArrayLike | None = None) -> PreimageResult:
        """Call the function: ``function(expansion, x0=x0, **options)``.

        Parameters
        ----------
        %(expansion)s
        x0 : array of shape (m, d) or (d,), optional
            Starting points, passed on to the function.

        Returns
        -------
        PreimageResult
            What the function returns.
        """
        return self.function(expansion, x0=x0, **(self.options or {}))


def make_solver(
    method: str | PreimageSolver | Callable[..., PreimageResult],
    options: dict[str, Any] | None = None,
    *,
    random_state: RandomStateLike = None,
    n_landmarks: int | None = None,
    bounds: BoundsLike = None,
) -> PreimageSolver:
    """Return a solver for `method`, ready to be fitted.

    Parameters
    ----------
    method : str, PreimageSolver or callable
        A name of :data:`PREIMAGE_METHODS` (a new solver with `options`), a
        solver (returned as it is), or a function ``f(expansion, x0=None,
        **options)`` returning a :class:`~preimage.PreimageResult`.
    options : dict, optional
        Parameters of the method.
    random_state : None, int or Generator
        For methods that draw random numbers, unless `options` sets one.
    n_landmarks : int, optional
        For methods with a Nyström form, unless `options` sets one.
    bounds : None, "data" or (low, high), optional
        For a method given by name, unless `options` sets them.

    Returns
    -------
    PreimageSolver
        A new solver, or `method` itself.

    Examples
    --------
    >>> from preimage.solvers import make_solver
    >>> make_solver("fixed_point", {"max_iter": 50}, random_state=0)
    FixedPointPreimage(max_iter=50, random_state=0)
    """
    options = dict(options or {})
    if bounds is not None and not isinstance(method, str):
        raise ValueError(
            "'bounds' applies to a method given by name; set them on the solver "
            "(or in the function) given as 'method'"
        )
    if isinstance(method, PreimageSolver):
        if options:
            raise ValueError(
                f"options {sorted(options)} cannot be passed with a solver as "
                "'method'; set them when constructing it"
            )
        return method
    if isinstance(method, str) and method in PREIMAGE_METHODS:
        cls = PREIMAGE_METHODS[method]
        accepted = inspect.signature(cls).parameters
        unknown = sorted(set(options) - set(accepted))
        if unknown:
            raise TypeError(
                f"options {unknown} are not parameters of method={method!r} "
                f"({cls.__name__}); its parameters are {sorted(accepted)}"
            )
        if cls.uses_random_state:
            options.setdefault("random_state", random_state)
        if cls.uses_landmarks and n_landmarks is not None:
            options.setdefault("n_landmarks", n_landmarks)
        if bounds is not None:
            options.setdefault("bounds", bounds)
        return cls(**options)
    if callable(method) and not isinstance(method, type):
        return CallablePreimage(method, options)
    raise ValueError(
        f"Unknown pre-image method {method!r}; 'method' must be one of "
        f"{list(PREIMAGE_METHODS)}, a solver or a callable"
    )


@fill_doc
def find_preimage(
    expansion: FeatureExpansion,
    method: str | PreimageSolver | Callable[..., PreimageResult] = "fixed_point",
    x0: ArrayLike | None = None,
    **options: Any,
) -> PreimageResult:
    r"""Find pre-images of feature-space expansions.

    For each expansion :math:`\Psi_j = \sum_i \gamma_{ji}\, \phi(x_i)`, a point
    :math:`z_j` with a small residual :math:`\|\Psi_j - \phi(z_j)\|^2`.

    Parameters
    ----------
    expansion : FeatureExpansion
        The m expansions (e.g. ``KernelPCA.project(X)``).
    method : str, PreimageSolver or callable, default="fixed_point"
        A name of :data:`~preimage.solvers.PREIMAGE_METHODS` (``"fixed_point"``,
        ``"gradient"``, ``"mds"``, ``"learned"``, ``"closed_form"``,
        ``"exact"``: the solver classes say which kernels each takes), a solver
        (one that learns must be fitted on ``expansion.support``), or a callable
        ``f(expansion, x0=None, **options)`` returning a
        :class:`~preimage.PreimageResult`.
    x0 : array of shape (m, d) or (d,), optional
        Starting points of the iterative methods.
    **options
        Parameters of the method.

    Returns
    -------
    %(result)s

    References
    ----------
    Schölkopf et al. (1999), Sec. IV; Bakır et al. (2004), eq. 1.

    Examples
    --------
    >>> from preimage import find_preimage
    >>> import numpy as np
    >>> from preimage import FeatureExpansion
    >>> from preimage.kernels import GaussianKernel
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    >>> psi = FeatureExpansion.of_points(X[:1], GaussianKernel(gamma=1.0))
    >>> result = find_preimage(psi, method="fixed_point", x0=[[0.3, 0.2]])
    >>> np.round(result.x, 6)
    array([[0., 0.]])
    """
    check_expansion(expansion)
    solver = make_solver(method, options)
    if solver is not method:  # made here: fitted here, on the expansion's support
        solver.fit(expansion.support, expansion.kernel)
    return solver.solve(expansion, x0=x0)
