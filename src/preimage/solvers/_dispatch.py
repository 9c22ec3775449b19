"""One entry point for every pre-image method."""

from ._closed_form import ClosedFormPreimage
from ._exact import exact_preimage
from ._fixed_point import fixed_point
from ._gradient import gradient_descent
from ._learned import LearnedPreimage
from ._mds import MDSPreimage
from ._starts import check_expansion

__all__ = ["METHODS", "find_preimage", "make_solver"]

#: Methods that work expansion by expansion, as functions.
_ITERATIVE = {"fixed_point": fixed_point, "gradient": gradient_descent,
              "exact": exact_preimage}
#: Methods fitted once on the support points, then applied to many expansions.
_FITTED = {"mds": MDSPreimage, "learned": LearnedPreimage,
           "closed_form": ClosedFormPreimage}
#: Every method name understood by :func:`find_preimage`.
METHODS = tuple(sorted({**_ITERATIVE, **_FITTED}))


def make_solver(method, **options):
    """A fresh solver object for a fitted method name (mds, learned, closed_form)."""
    if method not in _FITTED:
        raise ValueError(f"'method' must be one of {sorted(_FITTED)} to make a fitted "
                         f"solver, got {method!r}")
    return _FITTED[method](**options)


def find_preimage(expansion, method="fixed_point", x0=None, **options):
    """Pre-images of feature-space expansions.

    Finds, for each ``Ψ_j = Σ_i γ_ji φ(x_i)``, a point z_j with small residual

        ρ(z_j) = ‖Ψ_j − φ(z_j)‖².

    Parameters
    ----------
    expansion : FeatureExpansion
        The m expansions (e.g. ``KernelPCA.project(X)``).
    method : str, fitted solver or callable, default="fixed_point"
        * ``"fixed_point"`` — Mika et al. (1999) for radial kernels, Kwok &
          Tsang's version for dot-product kernels, regularised with
          ``regularization=λ`` (Abrahamsen & Hansen 2011);
        * ``"gradient"`` — L-BFGS-B on ρ for any differentiable kernel;
        * ``"mds"`` — Kwok & Tsang (2003): distances to neighbours, then MDS;
        * ``"learned"`` — Bakır et al. (2004): kernel ridge map from kernel PCA
          coordinates to input space (options ``kernel``, ``gamma``, ``alpha``);
        * ``"closed_form"`` — Honeine & Richard (2011), option
          ``regularization``;
        * ``"exact"`` — Schölkopf et al. (1999, Prop. 2) for invertible
          dot-product kernels;
        * a solver already fitted on ``expansion.support`` (an instance of
          :class:`MDSPreimage`, :class:`LearnedPreimage` or
          :class:`ClosedFormPreimage`), reused without refitting;
        * a callable ``f(expansion, x0=None, **options) -> PreimageResult``.
    x0 : array of shape (m, d) or (d,), optional
        Starting points of the iterative methods (denoising starts at the
        noisy input); also the default anchor of the regularised fixed point.
    **options
        Passed to the method.

    Returns
    -------
    PreimageResult
        ``x`` (m, d), ``distance2`` (m,), ``n_iter``, ``converged``,
        ``message``, ``method``.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage import FeatureExpansion, find_preimage
    >>> from preimage.kernels import GaussianKernel
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    >>> psi = FeatureExpansion.of_points(X[:1], GaussianKernel(gamma=1.0))
    >>> result = find_preimage(psi, method="fixed_point", x0=[[0.3, 0.2]])
    >>> np.round(result.x, 6)
    array([[0., 0.]])
    """
    if hasattr(method, "solve"):
        if options:
            raise ValueError(f"options {sorted(options)} cannot be passed with a fitted "
                             "solver as 'method'; set them when constructing it")
        return method.solve(check_expansion(expansion), x0=x0)
    if callable(method):
        return method(expansion, x0=x0, **options)
    if isinstance(method, str) and method in _ITERATIVE:
        return _ITERATIVE[method](check_expansion(expansion), x0, **options)
    if isinstance(method, str) and method in _FITTED:
        check_expansion(expansion)
        solver = _FITTED[method](**options).fit(expansion.support, expansion.kernel)
        return solver.solve(expansion, x0=x0)
    raise ValueError(f"Unknown pre-image method {method!r}; 'method' must be one of "
                     f"{list(METHODS)}, a fitted solver or a callable")
