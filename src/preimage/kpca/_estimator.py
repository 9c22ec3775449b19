"""Kernel PCA estimator whose projections are feature-space expansions."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass
import functools
from numbers import Integral, Real
from typing import Any, ClassVar, Literal, Self, overload

import numpy as np
from scipy.sparse import issparse
from sklearn.base import (
    BaseEstimator,
    ClassNamePrefixFeaturesOutMixin,
    TransformerMixin,
    _fit_context,
)
from sklearn.exceptions import NotFittedError
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from preimage._utils.blocks import is_dask_array, map_row_blocks
from preimage._utils.eigen import EIGEN_SOLVERS
from preimage._utils.memory import check_dense
from preimage._utils.typing import ArrayLike, MatrixLike, RandomStateLike, TransformOutput
from preimage._utils.validation import checked_gram, validate_dask_input, validate_estimator_input
from preimage._utils.xp import check_xp_2d, device_of, namespace, same_namespace
from preimage.kernels import KERNELS, Kernel, make_sklearn_kernel
from preimage.kernels._expansion import FeatureExpansion
from preimage.kpca._constraints import KERNEL_CONSTRAINTS, LANDMARK_CONSTRAINTS
from preimage.kpca._docs import fill_doc
from preimage.kpca._fit import _fit_kernel_pca
from preimage.kpca._guards import check_has_components
from preimage.kpca._nystroem import fit_nystroem_kpca, select_landmarks
from preimage.kpca._projections import check_coordinates, coordinates_expansion, transform_block
from preimage.kpca._result import KernelPCAResult, leading_components
from preimage.kpca._xp import expansion_coef_xp, fit_kernel_pca_xp, runs_on_device, transform_xp
from preimage.solvers import PreimageResult, PreimageSolver, find_preimage, make_solver

#: A pre-image method: a name of PREIMAGE_METHODS, a solver, or a function.
PreimageMethod = str | PreimageSolver | Callable[..., PreimageResult]

#: The parameters passed on to :func:`fit_kernel_pca` as they are.
_TO_FIT = ("eigen_solver", "tol", "max_iter", "iterated_power", "random_state", "remove_zero_eig")


@fill_doc
@dataclass(eq=False, repr=False)
class KernelPCA(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    r"""Kernel principal component analysis with projections as expansions.

    PCA of the centred images :math:`\phi(x_i) - \mu` through the centred
    Gram matrix, a drop-in for :class:`sklearn.decomposition.KernelPCA` (the
    same parameters, defaults, fitted attributes, errors and numbers, to
    rounding), plus projections as :class:`~preimage.FeatureExpansion`
    objects over the uncentred training images (:meth:`project`), pre-images
    by any method (``inverse_transform(Y, method=...)``) and Nyström
    landmarks (`n_landmarks`).

    Parameters
    ----------
    n_components : int, default=None
        Number of components q. None keeps all with a non-zero eigenvalue;
        more than the samples are clipped to n_samples (scikit-learn's rule;
        with `n_landmarks`, more than the landmarks are refused).
    kernel : str, Kernel or callable, default="linear"
        ``"linear"``, ``"rbf"`` (or ``"gaussian"``), ``"laplacian"``,
        ``"poly"``, ``"sigmoid"``, ``"cosine"``, ``"sine"``,
        ``"precomputed"``, a kernel object from :mod:`preimage.kernels`, or a
        callable on pairs of samples.
    gamma : float, "total_variance" or None, default=None
        Kernel width of rbf, laplacian, poly and sigmoid kernels. None is
        scikit-learn's ``1/n_features``; ``"total_variance"`` the papers'
        :math:`1 / (2 \sigma^2_{\mathrm{total}})`, with
        :math:`\sigma^2_{\mathrm{total}}` the total variance of the training
        data (Mika et al. 1999). Stored as ``gamma_``.
    %(kernel_parameters)s
    alpha : float, default=1.0
        Ridge of the learned inverse map (``fit_inverse_transform=True``).
    fit_inverse_transform : bool, default=False
        Learn the inverse map at fit time (kernel ridge regression of the
        training points on their coordinates), used by
        ``inverse_transform(Y)`` without a method.
    %(eigen_solver)s
    tol : float, default=0
        ARPACK tolerance (0: machine precision).
    max_iter : int, default=None
        ARPACK iteration limit.
    iterated_power : int or "auto", default="auto"
        Power iterations of the randomized solver.
    remove_zero_eig : bool, default=False
        Drop components with a zero eigenvalue even when `n_components` is
        given (they are always dropped when it is None). When kept, their
        coordinates are 0.
    random_state : int, RandomState instance, Generator or None, default=None
        Seeds ARPACK's start vector, the randomized solver, the landmarks and
        the random restarts of ``inverse_transform`` unless given there.
    copy_X : bool, default=True
        Store a copy of the training data (the expansions' support).
    n_jobs : int, default=None
        Parallel jobs of the kernel evaluations that go through
        ``sklearn.metrics.pairwise.pairwise_kernels`` (callable and cosine
        kernels, sparse input).
    %(n_landmarks)s
    %(landmarks)s

    Attributes
    ----------
    eigenvalues_ : ndarray of shape (q,)
        Eigenvalues :math:`\lambda_k` of the centred Gram matrix, decreasing.
    eigenvectors_ : ndarray of shape (n_samples, q), or None
        Its unit eigenvectors :math:`u_k` (None for a Nyström fit).
    dual_coef_ : ndarray of shape (n_samples, n_features)
        Coefficients of the learned inverse map (``fit_inverse_transform``).
    X_transformed_fit_ : ndarray of shape (n_samples, q)
        The training coordinates it maps from (``fit_inverse_transform``).
    X_fit_ : ndarray of shape (n_support, n_features)
        The support of every expansion: the training data, the landmarks, or
        for a precomputed kernel the training Gram matrix.
    fit_result_ : KernelPCAResult
        Everything the fit keeps, as the functions of :mod:`preimage.kpca`
        take it.
    landmarks_ : ndarray of shape (m, n_features)
        The landmarks (Nyström fit only).
    landmark_indices_ : ndarray of shape (m,) or None
        Their rows in the training data (None for k-means centres; Nyström
        fit only).
    kernel_ : Kernel or None
        The resolved kernel (None for ``"precomputed"``).
    gamma_ : float or None
        The kernel width used.
    n_features_in_ : int
        Number of features seen during ``fit``.
    feature_names_in_ : ndarray of shape (``n_features_in_``,)
        Names of features seen during ``fit``. Defined only when X has
        feature names that are all strings.

    See Also
    --------
    preimage.denoising.KernelPCADenoiser : Denoising by kernel PCA and a pre-image.
    preimage.kpca.fit_kernel_pca : Exact kernel PCA on a Gram matrix.
    preimage.kpca.fit_nystroem_kpca : Nyström kernel PCA.

    Notes
    -----
    The fit solves :math:`HKH\, u_k = \lambda_k u_k` and keeps the unit axes
    :math:`V_k = \sum_i \alpha_{ki} \phi(x_i)`,
    :math:`\alpha_k = u_k / \sqrt{\lambda_k}` (:func:`fit_kernel_pca`);
    ``transform`` gives :math:`\beta_k = \langle V_k, \phi(x) - \mu \rangle`.

    ``transform``, ``inverse_transform`` and (with `n_landmarks`) ``fit``
    accept Dask arrays, block by block. Kernel rows of a NumPy input are
    evaluated in chunks of scikit-learn's ``working_memory``. Beyond the
    memory budget (``preimage.set_config(memory_budget=...)``) an exact fit
    raises :class:`~preimage.MemoryBudgetError` before allocating the Gram
    matrix, suggesting `n_landmarks`.

    References
    ----------
    Schölkopf et al. (1998). Mika et al. (1999), Sec. 2 and footnote 1; Sec. 4
    (the width). Bakır et al. (2004), Sec. 3.1, eq. 6 (the learned inverse
    map). Williams and Seeger (2001) (Nyström).

    Examples
    --------
    >>> import numpy as np
    >>> from preimage import KernelPCA
    >>> X = np.random.default_rng(0).normal(size=(30, 3))
    >>> kpca = KernelPCA(n_components=2, kernel="rbf", gamma=0.5).fit(X)
    >>> kpca.transform(X[:4]).shape
    (4, 2)
    >>> psi = kpca.project(X[:4])
    >>> psi.distance2(X[:4]).shape     # feature-space residual at the inputs
    (4,)

    With the linear kernel, kernel PCA is PCA: the points 2 and 0 lie at 1
    and -1 from their mean, and ``inverse_transform`` finds the point back.

    >>> X = np.array([[2.0], [0.0]])
    >>> kpca = KernelPCA(n_components=1).fit(X)
    >>> kpca.transform([[4.0]])
    array([[3.]])
    >>> np.round(kpca.inverse_transform([[3.0]], method="gradient"), 6)
    array([[4.]])
    """

    _parameter_constraints: ClassVar[dict] = {
        "n_components": [Interval(Integral, 1, None, closed="left"), None],
        **KERNEL_CONSTRAINTS,
        "kernel": [StrOptions(set(KERNELS) | {"cosine", "precomputed"}), Kernel, callable],
        "gamma": [Interval(Real, 0, None, closed="neither"), StrOptions({"total_variance"}), None],
        "alpha": [Interval(Real, 0, None, closed="left")],
        "fit_inverse_transform": ["boolean"],
        "eigen_solver": [StrOptions(set(EIGEN_SOLVERS))],
        "tol": [Interval(Real, 0, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left"), None],
        "iterated_power": [Interval(Integral, 0, None, closed="left"), StrOptions({"auto"})],
        "remove_zero_eig": ["boolean"],
        "random_state": ["random_state", np.random.Generator],
        "copy_X": ["boolean"],
        "n_jobs": [None, Integral],
        **LANDMARK_CONSTRAINTS,
    }

    n_components: int | None = None
    _: KW_ONLY
    kernel: str | Kernel | Callable[..., float] = "linear"
    gamma: float | Literal["total_variance"] | None = None
    degree: int = 3
    coef0: float = 1
    kernel_params: dict[str, Any] | None = None
    alpha: float = 1.0
    fit_inverse_transform: bool = False
    eigen_solver: str = "auto"
    tol: float = 0
    max_iter: int | None = None
    iterated_power: int | Literal["auto"] = "auto"
    remove_zero_eig: bool = False
    random_state: RandomStateLike = None
    copy_X: bool = True
    n_jobs: int | None = None
    n_landmarks: int | None = None
    landmarks: str = "uniform"

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X: MatrixLike, y: object = None) -> Self:
        """Fit kernel PCA on X.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training data (sparse allowed for exact kernel PCA), or a Dask
            array with `n_landmarks`. With ``kernel="precomputed"``, the
            square Gram matrix of shape (n_samples, n_samples).
        y : Ignored
            Not used, present for API consistency by convention.

        Returns
        -------
        KernelPCA
            The fitted estimator, ``self``.
        """
        return self._fit(X)

    @_fit_context(prefer_skip_nested_validation=True)
    def fit_transform(self, X: MatrixLike, y: object = None) -> TransformOutput:
        r"""Fit kernel PCA on X and return the training coordinates.

        For exact kernel PCA they are :math:`u_k \sqrt{\lambda_k}`, without a
        second kernel evaluation; for a Nyström fit, ``transform(X)``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training data, as in :meth:`fit`.
        y : Ignored
            Not used, present for API consistency by convention.

        Returns
        -------
        ndarray of shape (n_samples, q)
            The centred coordinates of the training points.
        """
        self._fit(X)
        if self.eigenvectors_ is None:
            return self.transform(X)
        xp = namespace(X) or np
        return self.eigenvectors_ * xp.sqrt(self.eigenvalues_)[None, :]

    def _fit(self, X):
        if self.fit_inverse_transform and self.kernel == "precomputed":
            raise ValueError("Cannot fit_inverse_transform with a precomputed kernel.")
        xp = namespace(X)
        if xp is not None:
            return self._fit_xp(X, xp)
        if is_dask_array(X):
            if self.n_landmarks is None:
                raise ValueError(
                    "'X' is a Dask array, but exact kernel PCA needs the n × n Gram "
                    "matrix in memory; set 'n_landmarks' for the Nyström fit, which "
                    "reduces a Dask array block by block"
                )
            X = validate_dask_input(self, X, reset=True)
        else:
            copy = self.copy_X and self.n_landmarks is None
            X = validate_estimator_input(self, X, reset=True, accept_sparse="csr", copy=copy)
        n = X.shape[0]
        if n < 2:
            raise ValueError(
                f"'X' has n_samples={n}; kernel PCA needs at least 2 samples "
                "(the centred Gram matrix of one sample is 0)"
            )
        if self.n_landmarks is not None:
            self._fit_nystroem(X)
        elif self.kernel == "precomputed":
            if X.shape[0] != X.shape[1]:
                raise ValueError(
                    f"'X' must be a square Gram matrix with kernel='precomputed', "
                    f"got shape {X.shape}"
                )
            self.kernel_, self.gamma_ = self._resolve_kernel(X)
            # The given Gram matrix and the eigensolver's centred copy of it.
            what = f"the {n} x {n} Gram matrix of exact kernel PCA"
            check_dense((n, n), X.dtype, what, copies=2)
            self._fit_gram(X.toarray() if issparse(X) else X, X, copy=True)
        else:
            self.kernel_, self.gamma_ = self._resolve_kernel(X)
            # The Gram matrix, then the eigensolver's working copy of it.
            K = checked_gram(self.kernel_, X, "Gram matrix of exact kernel PCA", copies=2)
            self._fit_gram(K, X, copy=False)
        if self.fit_inverse_transform:
            if issparse(X):
                raise TypeError(
                    "sparse 'X' is not supported with fit_inverse_transform=True "
                    "(the learned map needs dense training points); pass "
                    "X.toarray()"
                )
            self._fit_inverse_map()
        return self

    def _fit_xp(self, X, xp):
        """The exact fit in the namespace of X, on its device (array API dispatch)."""
        X = check_xp_2d(validate_estimator_input(self, X, reset=True), "X", xp, min_samples=2)
        if self.n_landmarks is not None:
            self._fit_nystroem(X)
            if self.fit_inverse_transform:
                self._fit_inverse_map()
            return self
        self.kernel_, self.gamma_ = self._resolve_kernel(X)
        K = self.kernel_.block(X, check_input=False)
        q = None if self.n_components is None else min(self.n_components, X.shape[0])
        fit = fit_kernel_pca_xp(K, q, xp, remove_zero_eig=self.remove_zero_eig)
        self._set_fit(check_has_components(fit, self.gamma_), X)
        if self.fit_inverse_transform:
            self._fit_inverse_map()
        return self

    def _fit_inverse_map(self):
        learned = self._solver("learned", {"alpha": self.alpha})
        self.dual_coef_, self.X_transformed_fit_ = learned.dual_coef_, learned.coordinates_

    def _resolve_kernel(self, X, gamma=None):
        """``kernel_, gamma_``: the kernel (None for a precomputed one) and its width."""
        if self.kernel == "precomputed":
            return None, 1.0 / X.shape[1] if self.gamma is None else self.gamma
        params = {k: getattr(self, k) for k in ("degree", "coef0", "kernel_params", "n_jobs")}
        gamma = self.gamma if gamma is None else gamma
        return make_sklearn_kernel(self.kernel, gamma=gamma, X=X, **params)

    def _fit_gram(self, K, support, *, copy):
        q = None if self.n_components is None else min(self.n_components, K.shape[0])
        params = {name: getattr(self, name) for name in _TO_FIT}
        # A kernel of this library gives a finite, symmetric k(X, X) (not so a user's K).
        own = self.kernel_ is not None and type(self.kernel_).__module__.startswith("preimage.")
        fit = _fit_kernel_pca(K, q, own=own, copy=copy, warn_rank=False, names="'X'", **params)
        self._set_fit(fit, support)

    def _fit_nystroem(self, X):
        if self.kernel == "precomputed" or issparse(X):
            raise ValueError(
                "'n_landmarks' needs the kernel as a function of dense input "
                "points; it is not available with kernel='precomputed' or a "
                "sparse 'X'"
            )
        self.kernel_, self.gamma_ = self._resolve_kernel(X)
        m, method, seed = self.n_landmarks, self.landmarks, self.random_state
        landmarks, index = select_landmarks(X, m, self.kernel_, method=method, random_state=seed)
        fit = fit_nystroem_kpca(self.kernel_, X, landmarks, self.n_components)
        xp = namespace(X)
        if xp is not None:  # the n x m products ran on the device; the m x m parts here
            landmarks = xp.asarray(landmarks, device=device_of(X))
            fit = KernelPCAResult(
                **{
                    k: xp.asarray(v, device=device_of(X)) if isinstance(v, np.ndarray) else v
                    for k, v in vars(fit).items()
                }
            )
        check_has_components(fit, self.gamma_)
        self.landmarks_, self.landmark_indices_ = landmarks, index
        self._set_fit(fit, landmarks)

    #: What a model file keeps of a fitted KernelPCA (see :mod:`preimage.io`);
    #: the kernel, the inverse map and the caches are made again by :meth:`_restore`.
    _model_state = {
        "n_features_in_": "int",
        "feature_names_in_": "U[d]?",
        "X_fit_": "f[n,d]",
        "gamma_": "float?",
        "landmark_indices_": "i[n]?",
        "fit_result_": {
            "eigenvalues": "f[q]",
            "eigenvectors": "f[n,q]?",
            "coef": "f[n,q]",
            "K_col_mean": "f[n]?",
            "K_mean": "float",
            "mean_coords": "f[q]",
            "mean_coef": "f[n]",
        },
    }

    def _restore(self, state):
        """Complete the fitted `state` a model file holds, as :meth:`fit` would."""
        X, fit = state["X_fit_"], KernelPCAResult(**state["fit_result_"])
        (n, d), q = X.shape, fit.eigenvalues.shape[0]
        if d != state["n_features_in_"] or q > n or (fit.eigenvalues < 0).any():
            raise ValueError("'fit_result_' and 'X_fit_' are not a kernel PCA of n_features_in_")
        if self.n_components is not None and q > self.n_components:
            raise ValueError(f"'fit_result_' holds {q} components, over 'n_components'")
        gamma = state.get("gamma_")
        if isinstance(self.gamma, Real) and gamma != self.gamma:
            raise ValueError(f"'gamma_' = {gamma} must be the 'gamma' given, {self.gamma}")
        named = isinstance(self.kernel, str)
        self.kernel_, self.gamma_ = self._resolve_kernel(X, gamma if named else None)
        self.n_features_in_ = d
        if state["feature_names_in_"] is not None:
            self.feature_names_in_ = state["feature_names_in_"]
        if self.n_landmarks is not None:
            self.landmarks_, self.landmark_indices_ = X, state.get("landmark_indices_")
        self._set_fit(fit, X)
        if self.fit_inverse_transform:
            self._fit_inverse_map()

    def _set_fit(self, fit, support):
        self.fit_result_, self.X_fit_, self._solvers = fit, support, {}
        self.eigenvalues_, self.eigenvectors_ = fit.eigenvalues, fit.eigenvectors

    def transform(self, X: MatrixLike) -> TransformOutput:
        r"""Return the centred coordinates of X on the principal axes.

        They are :math:`\beta_k = \langle V_k, \phi(x) - \mu \rangle` (see
        :func:`preimage.kpca.transform_block`).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            The points. With ``kernel="precomputed"``, their kernel rows
            against the training points, of shape (n_samples, n_samples_fit).
            A Dask array gives a Dask array, computed block by block.

        Returns
        -------
        ndarray of shape (n_samples, q)
            The centred coordinates (a Dask array for a Dask X).
        """
        check_is_fitted(self)
        fit = self.fit_result_
        xp = self._namespace(X)
        if xp is not None:
            X = validate_estimator_input(self, X, reset=False)
            blocks = self.kernel_.blocks(X, self.X_fit_, check_input=False)
            return xp.concat([transform_xp(K_rows, fit, xp) for _, K_rows in blocks], axis=0)
        if is_dask_array(X):
            X = validate_dask_input(self, X, reset=False)
            dtype = np.result_type(X.dtype, fit.coef.dtype)
            return map_row_blocks(self.transform, X, n_columns=fit.coef.shape[1], dtype=dtype)
        X = validate_estimator_input(self, X, reset=False, accept_sparse="csr")
        if self.kernel_ is None:
            # Precomputed: the rows k(x, x_i) are given directly.
            return transform_block(X.toarray() if issparse(X) else X, fit)
        out = np.empty((X.shape[0], fit.coef.shape[1]), dtype=np.result_type(X, fit.coef))
        for rows, K_rows in self.kernel_.blocks(X, self.X_fit_, check_input=False, names="'X'"):
            out[rows] = transform_block(K_rows, fit)
        return out

    def expansion_from_components(
        self, Y: ArrayLike, *, add_mean: bool = False, n_components: int | None = None
    ) -> FeatureExpansion:
        r"""Return the feature-space points with coordinates Y, as expansions.

        Parameters
        ----------
        Y : array-like of shape (m, q)
            Centred coordinates, as returned by :meth:`transform` (with
            `n_components` = n: their first n columns).
        add_mean : bool, default=False
            False: the principal part
            :math:`\sum_k (y_k + \langle V_k, \mu \rangle) V_k`, for
            ``Y = transform(x)`` the projection of :math:`\phi(x)` (STPRtool's
            ``kpcarec``). True: :math:`\sum_k y_k V_k + \mu`, the exact
            reconstruction, which Mika et al.'s fixed point targets (their
            footnote 1).
        n_components : int, optional
            Use only the leading :math:`n \le q` components; Y then has n
            columns (one fit serves a sweep over component counts).

        Returns
        -------
        FeatureExpansion
            The m expansions over the uncentred training images, with their
            squared norms in closed form.
        """
        check_is_fitted(self)
        if issparse(self.X_fit_):
            raise ValueError(
                "expansions need dense training points; fit on a dense 'X' "
                "(e.g. X.toarray()) to project or take pre-images"
            )
        fit = self._leading_fit(n_components)
        xp = self._namespace(Y, method="expansion_from_components")
        if xp is not None:
            coef, norm2 = expansion_coef_xp(
                check_xp_2d(Y, "Y", xp, min_samples=0), fit, xp, add_mean=add_mean
            )
            return FeatureExpansion(coef, self.X_fit_, self.kernel_, norm2=norm2)
        Y = check_coordinates(Y, fit.eigenvalues.shape[0])
        support = None if self.kernel_ is None else self.X_fit_
        return coordinates_expansion(Y, fit, support, self.kernel_, add_mean=add_mean)

    def _namespace(self, *arrays, method="transform"):
        """The namespace of `arrays` and of the fit, which must be the same one."""
        return same_namespace(self.X_fit_, *arrays, method=f"{type(self).__name__}.{method}")

    def _leading_fit(self, n_components):
        fit = self.fit_result_
        return fit if n_components is None else leading_components(fit, n_components)

    def project(
        self, X: MatrixLike, *, add_mean: bool = False, n_components: int | None = None
    ) -> FeatureExpansion:
        r"""Project the images of X onto the principal subspace, as expansions.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The points x.
        add_mean : bool, default=False
            False: the principal part
            :math:`\sum_k \langle V_k, \phi(x) \rangle V_k`. True: the exact
            reconstruction :math:`P\tilde\phi(x) + \mu`, which is
            :math:`\phi(x)` itself for a training point when all components
            are kept (see :meth:`expansion_from_components`).
        n_components : int, optional
            Project onto the leading :math:`n \le q` components instead of all
            q.

        Returns
        -------
        FeatureExpansion
            The n_samples expansions over the uncentred training images.
        """
        Y = self.transform(X)
        if n_components is not None:
            Y = Y[:, : self._leading_fit(n_components).eigenvalues.shape[0]]
        return self.expansion_from_components(Y, add_mean=add_mean, n_components=n_components)

    @overload
    def inverse_transform(
        self,
        Y: MatrixLike,
        *,
        method: PreimageMethod | None = ...,
        add_mean: bool = ...,
        x0: MatrixLike | None = ...,
        return_result: Literal[False] = ...,
        **options: Any,
    ) -> MatrixLike: ...
    @overload
    def inverse_transform(
        self,
        Y: MatrixLike,
        *,
        method: PreimageMethod | None = ...,
        add_mean: bool = ...,
        x0: MatrixLike | None = ...,
        return_result: Literal[True],
        **options: Any,
    ) -> PreimageResult: ...

    def inverse_transform(
        self,
        Y: MatrixLike,
        *,
        method: PreimageMethod | None = None,
        add_mean: bool = False,
        x0: MatrixLike | None = None,
        return_result: bool = False,
        **options: Any,
    ) -> MatrixLike | PreimageResult:
        r"""Find pre-images of the feature-space points with coordinates Y.

        Each row y stands for an expansion :math:`\Psi` (see
        :meth:`expansion_from_components`), brought back to input space by
        :math:`z^* = \arg\min_z \|\Psi - \phi(z)\|^2` (Mika et al. 1999,
        eq. 5), or by the learned map.

        Parameters
        ----------
        Y : array of shape (n_samples, q)
            Centred coordinates, as returned by :meth:`transform`.
        method : str, solver, callable or None, default=None
            None is scikit-learn's behaviour: the map learned at fit time
            with ``fit_inverse_transform=True`` (``"learned"`` with
            ``alpha=self.alpha``), a NotFittedError without it. Otherwise any
            method of :func:`preimage.find_preimage`. A name makes a solver
            fitted on this kernel PCA (``"learned"`` maps Y by kernel ridge
            regression on the training coordinates, Bakır et al. 2004;
            ``"closed_form"`` through a matrix of shape (d, q)); methods that
            learn are fitted once per set of options and reused. A solver or
            callable is applied to the expansions Y stands for.
        add_mean : bool, default=False
            Which expansion the coordinates stand for (see
            :meth:`expansion_from_components`); not used by ``"learned"``.
        x0 : array of shape (n_samples, n_features), optional
            Starting points of iterative methods (for denoising, the noisy
            inputs).
        return_result : bool, default=False
            Return the whole :class:`~preimage.PreimageResult` instead of the
            points alone.
        **options
            Parameters of the method; the random restarts follow
            `random_state` unless set here.

        Returns
        -------
        ndarray of shape (n_samples, n_features) or PreimageResult
            The pre-images (a Dask array for a Dask Y), or with
            `return_result` the whole result.
        """
        check_is_fitted(self)
        if method is None:
            if not self.fit_inverse_transform:
                raise NotFittedError(
                    "The fit_inverse_transform parameter was not set to True when "
                    "instantiating and hence the inverse transform is not available. "
                    "Set it for scikit-learn's learned map, or choose a pre-image "
                    "method: inverse_transform(Y, method='fixed_point')"
                )
            method, options = "learned", {"alpha": self.alpha, **options}
        if self.kernel_ is None or issparse(self.X_fit_):
            raise ValueError(
                "inverse_transform needs dense input-space training points; "
                "it is not available with kernel='precomputed' or a sparse "
                "'X'"
            )
        if is_dask_array(Y):
            return self._inverse_transform_blocks(Y, method, add_mean, x0, return_result, options)
        xp = self._namespace(Y, x0, method="inverse_transform")
        Y = check_coordinates(Y, self.eigenvalues_.shape[0]) if xp is None else Y
        if isinstance(method, str):
            return self._solver(method, options).solve_coordinates(
                Y, add_mean=add_mean, x0=x0, return_result=return_result
            )
        expansion = self.expansion_from_components(Y, add_mean=add_mean)
        result = find_preimage(expansion, method=method, x0=x0, **options)
        return result if return_result else result.x

    def _inverse_transform_blocks(self, Y, method, add_mean, x0, return_result, options):
        """inverse_transform of a Dask array Y (and x0), block by block."""
        if return_result:
            raise ValueError(
                "'return_result=True' is not available for a Dask array 'Y'; "
                "compute the blocks you need and pass NumPy arrays"
            )
        if x0 is not None and not is_dask_array(x0):
            raise ValueError(
                "'x0' must be a Dask array with the rows of the Dask array "
                f"'Y', got {type(x0).__name__}"
            )

        # A partial of a bound method, not a closure: the Dask graph then holds
        # this estimator once, under the key its transform's graph uses too.
        block = functools.partial(
            self._inverse_transform_block, method=method, add_mean=add_mean, options=options
        )
        args = () if x0 is None else (x0,)
        dtype = np.result_type(Y.dtype, self.X_fit_.dtype)
        return map_row_blocks(block, Y, *args, n_columns=self.n_features_in_, dtype=dtype)

    def _inverse_transform_block(self, Y_block, x0_block=None, *, method, add_mean, options):
        """inverse_transform of one block of a Dask array (and of x0)."""
        return self.inverse_transform(
            Y_block, method=method, add_mean=add_mean, x0=x0_block, **options
        )

    def _solver(self, method, options):
        """`method` with `options` fitted on this kernel PCA (cached if it learns)."""
        solver = make_solver(method, options, random_state=self.random_state)
        if not solver.learns:
            return solver.fit(self.X_fit_, self.kernel_, kpca=self.fit_result_)
        key = (method, tuple(sorted((k, repr(v)) for k, v in options.items())))
        cache = self.__dict__.setdefault("_solvers", {})
        if key not in cache:
            cache[key] = solver.fit(self.X_fit_, self.kernel_, kpca=self.fit_result_)
        return cache[key]

    @property
    def _n_features_out(self):
        return self.eigenvalues_.shape[0]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = isinstance(self.kernel, str) and self.kernel == "precomputed"
        tags.input_tags.sparse = self.n_landmarks is None and not self.fit_inverse_transform
        tags.transformer_tags.preserves_dtype = ["float64", "float32"]
        tags.array_api_support = runs_on_device(self.kernel, est=self)
        return tags
