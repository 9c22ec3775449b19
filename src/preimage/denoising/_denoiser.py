"""Kernel PCA denoising: project onto the leading components, return the pre-image."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass
from numbers import Integral
from typing import Any, Literal, Self

import numpy as np
from sklearn.base import BaseEstimator, OneToOneFeatureMixin, TransformerMixin, _fit_context
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from preimage._utils.blocks import is_dask_array, map_row_blocks
from preimage._utils.eigen import EIGEN_SOLVERS
from preimage._utils.typing import BoundsLike, MatrixLike, RandomStateLike, TransformOutput
from preimage._utils.validation import (
    Box,
    check_array_2d,
    check_bounds,
    measure_chunks,
    validate_dask_input,
    validate_estimator_input,
)
from preimage._utils.warnings import warn
from preimage._utils.xp import check_xp_2d, namespace, same_namespace
from preimage.denoising import _correction
from preimage.denoising._components import (
    has_width,
    kpca_coordinates,
    make_kpca,
    mean_squared_error,
    select_n_components,
)
from preimage.exceptions import ConfigurationWarning
from preimage.kernels import Kernel, default_gamma
from preimage.kpca._constraints import KERNEL_CONSTRAINTS, LANDMARK_CONSTRAINTS
from preimage.kpca._docs import fill_doc
from preimage.kpca._guards import check_has_components
from preimage.kpca._xp import runs_on_device
from preimage.solvers import PREIMAGE_METHODS, PreimageResult, PreimageSolver, make_solver
from preimage.solvers._xp import make_box


def _clean_targets(X, y):
    """y as clean targets when it is 2-D, else None (the labels a pipeline
    passes to every step are ignored)."""
    xp = namespace(y)
    y = y if y is None or is_dask_array(y) or xp else np.asarray(y)
    if y is None or y.ndim != 2:
        return None
    if xp is not None:  # array API dispatch
        y = check_xp_2d(y, "y", xp, n_features=X.shape[1])
    elif not is_dask_array(y):
        y = check_array_2d(y, "y", n_features=X.shape[1])
    elif y.shape[1] != X.shape[1]:
        raise ValueError(
            f"'y' has {y.shape[1]} features, but {X.shape[1]} were expected (those of 'X')"
        )
    else:
        y = measure_chunks(y if y.dtype.kind == "f" else y.astype(np.float64))
    if y.shape[0] != X.shape[0]:
        raise ValueError(f"'y' must have one row per row of 'X' ({X.shape[0]}), got {y.shape[0]}")
    return y


#: How ``n_components="auto"`` chose, as a model file keeps it ("?": may be absent).
_SELECTION = {"?": "", "rule": "str", "n_components": "int", "candidates": "numbers?"}
_SELECTION |= {"scores": "numbers?", "threshold": "float?", "tolerance": "float?"}
_SELECTION |= {"n_train": "int?", "n_held_out": "int?", "input_error": "float?"}
_SELECTION |= {"returns_input": "bool?", "thresholds": "numbers?", "overall": "numbers?"}


class _DenoiserMixin(OneToOneFeatureMixin, TransformerMixin):
    """What both denoisers share: float64 output, the device tag, `image_shape` as a tuple."""

    def _validated(self, X, *, reset):
        """X validated: a Dask array lazily, anything else in memory."""
        validate = validate_dask_input if is_dask_array(X) else validate_estimator_input
        return validate(self, X, reset=reset)

    def _image_shape(self):
        return None if self.image_shape is None else tuple(self.image_shape)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.transformer_tags.preserves_dtype = ["float64"]
        tags.array_api_support = runs_on_device(self.kernel, self.method, self)
        return tags


@fill_doc
@dataclass(eq=False, repr=False)  # the constructor is the dataclass's
class KernelPCADenoiser(_DenoiserMixin, BaseEstimator):
    r"""Denoise inputs through kernel PCA and a pre-image.

    A noisy x is mapped to :math:`\phi(x)`, projected onto the first q
    principal components learned from clean data, and brought back to input
    space by a pre-image method (Mika et al. 1999; Schölkopf et al. 1999):

    .. math::

        \hat x = \arg\min_z \|P_q \phi(x) - \phi(z)\|^2.

    Parameters
    ----------
    n_components : int, "auto" or None, default="auto"
        Number of components q. ``"auto"`` chooses it from the training data
        by a held-out split (see Notes). None keeps all: a reconstruction,
        not a denoiser. More than n_samples (or `n_landmarks`) is refused;
        components beyond the rank of the data are zero, with a
        NumericalWarning.
    kernel : str, Kernel or callable, default="rbf"
        A kernel by name (:data:`preimage.kernels.KERNELS`), a kernel object,
        or a callable on pairs of samples.
    gamma : float, default=None
        Kernel width. None resolves on the clean training data (stored as
        ``kpca_.gamma_``) to the papers' choice for the Gaussian kernel,
        :math:`\gamma = 1 / (2 \sum_j \operatorname{Var}(x_j))` (Mika et al.
        1999), and to ``1/n_features`` for the other kernels with a width
        (:func:`preimage.kernels.default_gamma`).
    %(kernel_parameters)s
    %(method)s
    method_params : dict, default=None
        Options of the pre-image method (e.g. ``{"max_iter": 100}`` for the
        fixed point, ``{"gamma": 10, "alpha": 0.01}`` for the learned map).
    bounds : None, "auto", "data" or (low, high), default="auto"
        A box the denoised points are kept in (None: none), passed to a
        method given by name (:class:`~preimage.solvers.FixedPointPreimage`
        says how each keeps to it): ``"data"`` is the range per feature of
        the clean training data (all of it, also with `n_landmarks`);
        ``"auto"`` is ``"data"`` for every method but ``"exact"``, whose
        pre-image is unique (a box could only refuse it); ``(low, high)``
        are numbers or arrays of shape (n_features,), e.g. ``(0, 1)`` for
        pixels. Resolved by ``fit`` as ``bounds_``.
    %(eigen_solver)s
    random_state : int, RandomState instance, Generator or None, default=None
        Seeds the kernel PCA, the held-out split of ``n_components="auto"``
        and the random restarts of the pre-images (unless ``method_params``
        sets its own).
    %(n_landmarks)s
        With ``method="learned"`` the map is then the Nyström kernel ridge
        map over m of the training pairs (unless ``method_params`` sets its
        own ``n_landmarks``), so the whole fit is linear in n.
    %(landmarks)s
    %(correction)s
    %(image_shape)s

    Attributes
    ----------
    kpca_ : KernelPCA
        The kernel PCA fitted on the clean training data.
    solver_ : PreimageSolver
        The pre-image solver, fitted on the kernel PCA (and, for the learned
        map, on the training pairs).
    n_components_ : int
        The number of components used.
    bounds_ : (low, high) of ndarrays of shape (n_features,) or None
        The box `bounds` stands for.
    component_selection_ : dict or None
        With ``n_components="auto"``, how it was chosen: the ``rule``
        (``"held-out generalisation"`` or ``"held-out denoising
        error"``), the ``candidates`` and their ``scores``, the
        ``threshold`` or the ``tolerance``, the sizes ``n_train`` and
        ``n_held_out`` of the split, the chosen ``n_components``, whether
        the denoiser ``returns_input`` unchanged (see Notes), and with clean
        targets the held-out ``input_error``. None for a count given.
    correction_coef_, correction_intercept_ : ndarray or None
        With ``correction="ridge"``, the fitted map: shape (2, d, d) and (d,)
        (:math:`\hat x = z + z W_z + x W_x + b`) or, on images, the filters
        (2, k, k) on the pre-image and on the noisy input, and (1,).
    correction_alpha_ : float or None
        Its ridge strength.
    n_features_in_ : int
        Number of features seen during ``fit``.
    feature_names_in_ : ndarray of shape (``n_features_in_``,)
        Names of features seen during ``fit``. Defined only when X has
        feature names that are all strings.

    See Also
    --------
    KernelPCADenoiserCV : The denoiser with its width, component count and
        method options chosen by cross-validation.
    preimage.kpca.KernelPCA : The kernel PCA it fits.

    Notes
    -----
    ``n_components="auto"`` holds a fifth of the training samples out (at
    most 1,000), fits kernel PCA on the rest once with the largest of the
    candidates 1, 2, 3, 4, 6, 8, 12, ... (up to 256, and below what the
    training part has), and scores each candidate q on the held-out part.
    With clean targets it takes the fewest components whose denoising error
    :math:`\operatorname{mean}_i \|\hat x_i - t_i\|^2` is within 1 % of the
    smallest, and only counts whose held-out error is below the inputs' own,
    :math:`\operatorname{mean}_i \|x_i - t_i\|^2`: when none is, the
    denoiser returns its inputs unchanged (``returns_input``) with a
    ConfigurationWarning, so that the default never makes a result worse in
    silence. Without clean targets the error cannot be measured (it depends
    on the noise level, which noisy data alone do not tell); what is measured
    is whether components describe new samples (a cross-validated rank).
    With :math:`\beta_{ik}` the centred coordinates of the held-out
    :math:`x_i` and :math:`\lambda_k / n` the variance of the n fitted
    samples along component k, each block of
    components between one candidate p and the next q scores

    .. math::

        G(q) = \frac{\sum_{p < k \le q} \operatorname{mean}_i \beta_{ik}^2}
        {\sum_{p < k \le q} \lambda_k / n},

    about 1 for the data's structure and far less for components that fit
    the training samples' noise; :math:`G(1..q)` is the same ratio along
    all of the first q. The denoiser keeps the candidates before the first
    with :math:`G(q) < 0.3` or :math:`G(1..q) < 0.5`; when that leaves none
    (the first component's ratio is under 0.5) it returns its inputs
    unchanged (``returns_input``) with a ConfigurationWarning (see
    :doc:`/guide/denoising` for what this catches and what it cannot). The
    chosen count is then fitted on all the data.

    ``fit(X, y)`` accepts clean targets: kernel PCA is fitted on ``y``, the
    learned map on the pairs (coordinates of X, y). Without them the learned
    map returns a blurred average of training points or worse (bundled
    MNIST, 1,000 digits, noise :math:`\sigma = 0.5`, 100 components, width
    0.02, map ``{"gamma": 100, "alpha": 1e-3}``: MSE 87.5 unpaired, 18.0 on
    pairs, 48.4 for the average digit), with a ConfigurationWarning. The
    pairs also make ``GridSearchCV(denoiser).fit(X_noisy, X_clean)`` work.

    ``transform`` accepts a Dask array and denoises it block by block; with
    `n_landmarks`, ``fit`` accepts Dask arrays too.

    References
    ----------
    Mika et al. (1999), Sec. 2, eq. 5; Sec. 3, eq. 10; Sec. 4. Schölkopf et
    al. (1999), Secs. IV and VI-A. Bakır et al. (2004), Sec. 2.1, eq. 2;
    Sec. 3.1.

    Examples
    --------
    Three point sources with Gaussian noise (:math:`\sigma = 0.1`): two
    components of a Gaussian kernel PCA move test points onto their sources.

    >>> import numpy as np
    >>> from preimage import KernelPCADenoiser
    >>> from preimage.datasets import make_three_clusters
    >>> X, _, centers = make_three_clusters(return_centers=True, random_state=0)
    >>> X_test, y_test = make_three_clusters(random_state=1)
    >>> den = KernelPCADenoiser(n_components=2, gamma=10.0).fit(X)
    >>> def err(Z):
    ...     return np.mean(np.sum((Z - centers[y_test]) ** 2, axis=1))
    >>> print(f"{err(X_test):.4f} -> {err(den.transform(X_test)):.4f}")
    0.0180 -> 0.0002
    """

    _parameter_constraints = {
        "n_components": [Interval(Integral, 1, None, closed="left"), StrOptions({"auto"}), None],
        **KERNEL_CONSTRAINTS,
        "method": [StrOptions(set(PREIMAGE_METHODS))],
        "add_mean": ["boolean"],
        "method_params": [dict, None],
        "bounds": [None, StrOptions({"auto", "data"}), "array-like"],
        "eigen_solver": [StrOptions(set(EIGEN_SOLVERS))],
        "random_state": ["random_state", np.random.Generator],
        **LANDMARK_CONSTRAINTS,
        "correction": [StrOptions({"ridge"}), None],
        "image_shape": ["array-like", None],
    }

    n_components: int | Literal["auto"] = "auto"
    _: KW_ONLY
    kernel: str | Kernel | Callable[..., float] = "rbf"
    gamma: float | None = None
    degree: int = 3
    coef0: float = 1
    kernel_params: dict[str, Any] | None = None
    method: str | PreimageSolver | Callable[..., PreimageResult] = "fixed_point"
    add_mean: bool = False
    method_params: dict[str, Any] | None = None
    bounds: BoundsLike = "auto"
    eigen_solver: str = "auto"
    random_state: RandomStateLike = None
    n_landmarks: int | None = None
    landmarks: str = "uniform"
    correction: str | None = None
    image_shape: tuple[int, int] | None = None

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X: MatrixLike, y: MatrixLike | None = None) -> Self:
        """Fit kernel PCA on the clean data (y, or X) and the pre-image solver.

        Parameters
        ----------
        X : array of shape (n_samples, n_features)
            Training inputs (clean, or noisy when `y` holds their clean
            versions).
        y : array of shape (n_samples, n_features), optional
            Clean targets for X. Anything else (None, or the 1-D labels a
            pipeline passes to every step) is ignored.

        Returns
        -------
        KernelPCADenoiser
            The fitted denoiser, ``self``.
        """
        X = self._validated(X, reset=True)
        y = _clean_targets(X, y)
        _correction.check_correction(
            [self.correction], self.image_shape, X.shape[1], y is not None
        )
        clean = X if y is None else y
        n, q = clean.shape[0], self.n_components
        if self.n_landmarks is None and isinstance(q, Integral) and q > n:
            raise ValueError(
                f"'n_components' must be <= n_samples={n} (the size of the Gram matrix), got {q}"
            )
        self.bounds_ = make_box(self.bounds, clean, self.method)
        solver = self._make_solver()
        if solver.learns_from_pairs and y is None:
            warn(
                f"method={self.method!r} without clean targets learns its map from the training "
                "points' own coordinates back to themselves; the coordinates of a noisy input "
                "lie elsewhere (noise shrinks them toward the origin), where the map returns a "
                "blurred average of training points, or worse, not a denoised input. To denoise, "
                "fit it on noisy inputs and their clean versions: fit(X_noisy, y=X_clean)",
                ConfigurationWarning,
            )
        gamma = self.gamma
        if gamma is None and has_width(self.kernel):  # the papers' width, on the clean data
            gamma = default_gamma(clean, self.kernel)
        n_components, self.component_selection_ = self.n_components, None
        if isinstance(n_components, str):  # "auto"
            n_components, self.component_selection_ = select_n_components(self, gamma, X, y)
        kpca = self.kpca_ = make_kpca(self, gamma, n_components, self.n_landmarks).fit(clean)
        check_has_components(kpca.fit_result_, kpca.gamma_)
        self.n_components_ = int(kpca.eigenvalues_.shape[0])
        pairs = {}
        if solver.learns_from_pairs and (y is not None or kpca.eigenvectors_ is None):
            # Coordinates of the inputs against their clean versions. Without
            # targets, an exact fit's own training coordinates serve (the
            # solver's default); a Nyström fit keeps no n-sized state, so the
            # pairs are made here from all n training points.
            pairs = {"coordinates": kpca_coordinates(kpca, X), "targets": clean}
        self.solver_ = solver.fit(kpca.X_fit_, kpca.kernel_, kpca=kpca.fit_result_, **pairs)
        ridge = self.correction and _correction.fit_correction(
            _correction.out_of_fold_preimages(self, X, y), self._image_shape()
        )
        return self._set_correction(ridge or None)

    def _set_correction(self, ridge):
        """Keep the fitted :class:`~preimage.denoising._correction.RidgeCorrection` (or none)."""
        fitted = (None,) * 3 if ridge is None else (ridge.coef, ridge.intercept, ridge.alpha)
        self.correction_coef_, self.correction_intercept_, self.correction_alpha_ = fitted
        return self

    def _make_solver(self):
        options = {"random_state": self.random_state, "n_landmarks": self.n_landmarks}
        options["bounds"] = getattr(self, "bounds_", None)
        return make_solver(self.method, self.method_params, **options)

    @property
    def _model_state(self):
        """What a model file keeps of a fitted denoiser (see :mod:`preimage.io`)."""
        return {
            "n_features_in_": "int",
            "feature_names_in_": "U[d]?",
            "component_selection_": _SELECTION,
            "bounds_": {"?": "", "low": "f[d]", "high": "f[d]"},
            "kpca_": "model",
            "solver_": self._make_solver()._model_state,
            "correction_coef_": "f[2,a,a]?",
            "correction_intercept_": "f[c]?",
            "correction_alpha_": "float?",
        }

    def _restore(self, state):
        """Complete the fitted `state` a model file holds, as :meth:`fit` would."""
        kpca, selection = state["kpca_"], state["component_selection_"]
        if selection is not None:  # the record as select_n_components made it
            selection = {k: v for k, v in selection.items() if v is not None}
        made = make_kpca(self, kpca.gamma, kpca.n_components, self.n_landmarks)
        if repr(made.get_params()) != repr(kpca.get_params()):
            raise ValueError("'kpca_' is not the kernel PCA of the denoiser's parameters")
        auto = isinstance(self.n_components, str)
        chosen = selection["n_components"] if auto and selection else self.n_components
        if auto != (selection is not None) or kpca.n_components != chosen:
            raise ValueError("'kpca_.n_components' is not the denoiser's 'n_components'")
        if state["n_features_in_"] != kpca.n_features_in_:
            raise ValueError("'n_features_in_' is not that of 'kpca_'")
        box = check_bounds(self.bounds, np.zeros((1, kpca.n_features_in_)), method=self.method)
        if (box is None) != (state["bounds_"] is None):
            raise ValueError("'bounds_' is not the box of the denoiser's 'bounds'")
        self.bounds_ = None if state["bounds_"] is None else Box(**state["bounds_"])
        self.kpca_, self.component_selection_ = kpca, selection
        self.n_features_in_, self.n_components_ = kpca.n_features_in_, kpca.eigenvalues_.size
        if state["feature_names_in_"] is not None:
            self.feature_names_in_ = state["feature_names_in_"]
        self.solver_ = self._make_solver()._restore(
            kpca.X_fit_, kpca.kernel_, kpca.fit_result_, state["solver_"]
        )
        coef, intercept = state["correction_coef_"], state["correction_intercept_"]
        d = kpca.n_features_in_
        if self.correction is None or coef is None or intercept is None:
            ok = self.correction is None and coef is None and intercept is None
        elif self.image_shape is None:  # a (d, d) map on each of z and x
            ok = coef.shape == (2, d, d) and intercept.shape == (d,)
        else:  # odd k × k filters
            ok = coef.shape[1] % 2 == 1 and intercept.shape == (1,)
        if not ok:
            raise ValueError("'correction_coef_' is not the map of the denoiser's 'correction'")
        self.correction_coef_, self.correction_intercept_ = coef, intercept
        self.correction_alpha_ = state["correction_alpha_"]

    def transform(self, X: MatrixLike) -> TransformOutput:
        """Denoise X.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The noisy points; a Dask array is denoised block by block and
            gives a Dask array.

        Returns
        -------
        ndarray of shape (n_samples, n_features)
            The denoised points: the pre-images of their projections.
        """
        if is_dask_array(X):
            check_is_fitted(self)
            X = validate_dask_input(self, X, reset=False)
            dtype = np.result_type(X.dtype, self.kpca_.X_fit_.dtype)
            return map_row_blocks(self.transform, X, n_columns=self.n_features_in_, dtype=dtype)
        return self._solve(X, return_result=False)

    def denoise(self, X: MatrixLike) -> PreimageResult:
        r"""Denoise X and say how.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The noisy points (in memory: for a Dask array use
            :meth:`transform`).

        Returns
        -------
        PreimageResult
            The denoised points ``x``, their feature-space residuals
            ``distance2`` (:math:`\|P_q \phi(x) - \phi(\hat x)\|^2`),
            iterations and convergence flags.
        """
        check_is_fitted(self)
        if is_dask_array(X):
            raise TypeError(
                "denoise() returns in-memory results; for a Dask array 'X' "
                "use transform(X), which denoises it block by block"
            )
        return self._solve(X, return_result=True)

    def _solve(self, X, *, return_result):
        """Project X and bring it back, starting from X where starts matter."""
        check_is_fitted(self)
        method = f"{type(self).__name__}.{'denoise' if return_result else 'transform'}"
        same_namespace(self.kpca_.X_fit_, X, method=method)
        X = validate_estimator_input(self, X, reset=False)
        Y = kpca_coordinates(self.kpca_, X)
        if (self.component_selection_ or {}).get("returns_input"):  # see the Notes
            X = np.array(X) if namespace(X) is None else namespace(X).asarray(X, copy=True)
            if not return_result:
                return X
            psi = self.solver_.expansion_of(Y, add_mean=self.add_mean)
            message = "no component count denoised held-out samples: the inputs, unchanged"
            return PreimageResult.direct(psi, X, "input", message)
        out = self.solver_.solve_coordinates(
            Y, add_mean=self.add_mean, x0=X, return_result=return_result
        )
        if getattr(self, "correction_coef_", None) is None:
            return out
        ridge = (X, self.correction_coef_, self.correction_intercept_, self._image_shape())
        if not return_result:
            return _correction.apply_correction(out, *ridge)
        out.x = _correction.apply_correction(out.x, *ridge)
        return out

    def score(self, X: MatrixLike, y: MatrixLike | None = None) -> float:
        r"""Return minus the mean squared error of the denoised X against targets.

        The score is :math:`-\operatorname{mean}_i \|\hat x_i - t_i\|^2` (summed
        over features) with the targets t: y, or X itself; greater is better.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The noisy points.
        y : array-like of shape (n_samples, n_features), optional
            Their clean versions; anything else (None, 1-D labels) scores
            against X itself.

        Returns
        -------
        float
            Minus the mean squared error.
        """
        denoised = self.transform(X)
        X = validate_estimator_input(self, X, reset=False)
        y = _clean_targets(X, y)
        return -mean_squared_error(denoised, X if y is None else y)
