"""Kernel PCA estimator whose projections are feature-space expansions."""

from __future__ import annotations

from collections.abc import Callable
from numbers import Integral, Real
from typing import Any, Literal, Self

import numpy as np
from scipy.sparse import issparse
from sklearn.base import (
    BaseEstimator,
    ClassNamePrefixFeaturesOutMixin,
    TransformerMixin,
    _fit_context,
)
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from preimage._utils.blocks import is_dask_array, map_row_blocks
from preimage._utils.eigen import EIGEN_SOLVERS
from preimage._utils.memory import check_dense
from preimage._utils.typing import MatrixLike, RandomStateLike, TransformOutput
from preimage._utils.validation import checked_gram, validate_dask_input, validate_estimator_input
from preimage.kernels import KERNELS, Kernel, make_sklearn_kernel
from preimage.kpca._constraints import KERNEL_CONSTRAINTS, LANDMARK_CONSTRAINTS
from preimage.kpca._estimator_preimages import KernelPCAPreimagesMixin
from preimage.kpca._fit import fit_kernel_pca, refuse_no_component, transform_block
from preimage.kpca._nystroem import fit_nystroem_kpca, select_landmarks

__all__ = ["KernelPCA"]


class KernelPCA(
    KernelPCAPreimagesMixin, ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator
):
    r"""Kernel principal component analysis with projections as expansions.

    Performs PCA of the centred images :math:`\tilde\phi(x_i) = \phi(x_i) -
    \mu` through the centred Gram matrix (Schölkopf, Smola & Müller 1998).
    Besides the usual coordinates, it returns projections as
    :class:`~preimage.FeatureExpansion` objects over the uncentred training
    images, ready for any pre-image method.

    A drop-in for :class:`sklearn.decomposition.KernelPCA`: the same
    parameters with the same defaults and meaning, the same fitted attributes,
    errors and numbers (to rounding), plus pre-images by any method
    (``inverse_transform(Y, method=...)``), projections as expansions
    (:meth:`project`) and Nyström landmarks (`n_landmarks`).

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
        callable on pairs of samples. For the papers' Gaussian kernel PCA pass
        ``kernel="rbf", gamma="total_variance"`` (or use
        :class:`~preimage.KernelPCADenoiser`, whose defaults they are).
    gamma : float, "total_variance" or None, default=None
        Kernel width of rbf, laplacian, poly and sigmoid kernels. None is
        scikit-learn's ``1/n_features``; ``"total_variance"`` the papers'
        :math:`1 / (2 \sigma^2_{\mathrm{total}})`, with
        :math:`\sigma^2_{\mathrm{total}}` the total variance of the training
        data (Mika et al. 1999). Stored as ``gamma_``.
    degree : int, default=3
        Degree of the polynomial kernel.
    coef0 : float, default=1
        Constant of the polynomial and sigmoid kernels.
    kernel_params : dict, default=None
        Extra parameters of a callable kernel or a kernel class (the sine
        kernel's order N: ``{"order": N}``).
    alpha : float, default=1.0
        Ridge of the learned inverse map (``fit_inverse_transform=True``).
    fit_inverse_transform : bool, default=False
        Learn the inverse map at fit time (Bakır et al. 2004: kernel ridge
        regression of the training points on their coordinates, with the
        forward kernel), used by ``inverse_transform(Y)`` without a method.
        Any pre-image method is available without it through
        ``inverse_transform(Y, method=...)``.
    eigen_solver : {"auto", "dense", "arpack", "randomized"}, default="auto"
        Solver of the leading eigenpairs; none computes more than q of them.
        ``"auto"`` is scikit-learn's rule (ARPACK for fewer than 10
        components of more than 200 points, else dense) and exact to LAPACK
        accuracy; ``"dense"`` is the exact answer, computed by Lanczos
        iterated to machine precision where q is at most n/20 of
        :math:`n \ge 1000` points (faster there than LAPACK, and equal to it
        to rounding), by LAPACK otherwise (see
        :func:`preimage._utils.eigen.top_eigh`); ``"randomized"`` is faster for a
        few components of many points and approximate.
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
        the random restarts of ``inverse_transform`` (fixed point, gradient)
        unless given there.
    copy_X : bool, default=True
        Store a copy of the training data (the expansions' support).
    n_jobs : int, default=None
        Parallel jobs of the kernel evaluations that go through
        ``sklearn.metrics.pairwise.pairwise_kernels`` (callable and
        cosine kernels, sparse input); the library's own kernel blocks use
        the BLAS threads.
    n_landmarks : int, default=None
        None: exact kernel PCA on the Gram matrix of shape (n, n). An int m:
        Nyström kernel PCA (:mod:`preimage.nystroem`) on the projections of
        the :math:`\phi(x_i)` onto the span of m landmarks, in
        :math:`O(nmd + nm^2 + m^3)` time and :math:`O(nd + m^2)` memory; the
        axes and every projection are expansions over the landmarks, so every
        pre-image method works on them. With all training points as landmarks
        it is exact kernel PCA.
    landmarks : {"uniform", "kmeans", "leverage"}, default="uniform"
        How the m landmarks are chosen (see
        :func:`preimage.kpca.select_landmarks`); drawn with `random_state`.

    Attributes
    ----------
    eigenvalues_ : ndarray of shape (q,)
        Eigenvalues :math:`\lambda_k` of the centred Gram matrix, decreasing.
    eigenvectors_ : ndarray of shape (n_samples, q), or None
        Its unit eigenvectors :math:`u_k` (None for a Nyström fit, which keeps
        no n-sized state).
    dual_coef_ : ndarray of shape (n_samples, n_features)
        Coefficients of the learned inverse map (``fit_inverse_transform``).
    X_transformed_fit_ : ndarray of shape (n_samples, q)
        The training coordinates it maps from (``fit_inverse_transform``).
    expansion_coef_ : ndarray of shape (n_support, q)
        The unit principal axes are :math:`V_k = \sum_i \alpha_{ki}
        \phi(s_i)` over the support s (``X_fit_``); for exact kernel PCA
        :math:`\alpha_k = u_k / \sqrt{\lambda_k}`.
    X_fit_ : ndarray of shape (n_support, n_features)
        The support of every expansion: the training data, or with
        `n_landmarks` the landmarks; for a precomputed kernel, the training
        Gram matrix.
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
    KernelPCADenoiser : Denoising by kernel PCA and a pre-image.
    preimage.kpca.fit_kernel_pca : The function that fits exact kernel PCA.
    preimage.kpca.fit_nystroem_kpca : The function that fits Nyström
        kernel PCA.

    Notes
    -----
    With :math:`H = I - \mathbf{1}\mathbf{1}^\top / n`, the fit solves

    .. math::

        HKH\, u_k = \lambda_k u_k, \qquad
        \alpha_k = \frac{u_k}{\sqrt{\lambda_k}}, \qquad
        V_k = \sum_i \alpha_{ki} \phi(x_i),

    and ``transform`` gives the centred coordinates
    :math:`\beta_k = \langle V_k, \phi(x) - \mu \rangle =
    \alpha_k^\top \tilde k_x`, with :math:`\tilde k_x = H(k_x -
    K\mathbf{1}/n)` the centred kernel row of x.

    ``project(X)`` gives, as an expansion over the uncentred
    :math:`\phi(x_i)`, either the principal part
    :math:`\sum_k \langle V_k, \phi(x) \rangle V_k` (default, STPRtool's
    form) or the exact reconstruction :math:`P\tilde\phi(x) + \mu`
    (``add_mean=True``), which with all components kept is :math:`\phi(x)`
    itself for every training point. Mika et al. (1999) state their fixed
    point for centred data and, for uncentred data, apply it to
    :math:`P\tilde\phi(x) + \mu` (their footnote 1).

    ``transform``, ``inverse_transform`` and (with `n_landmarks`) ``fit``
    accept Dask arrays: transforms run block-wise and return Dask arrays;
    the Nyström fit reduces :math:`K_{nm}` block by block. Kernel rows of a
    NumPy input are evaluated in chunks of scikit-learn's ``working_memory``
    (``sklearn.config_context(working_memory=MiB)``).

    Exact kernel PCA needs the Gram matrix of shape (n, n) and the
    eigensolver's copy of it; beyond the memory budget
    (``preimage.set_config(memory_budget=...)``) ``fit`` raises
    :class:`~preimage.MemoryBudgetError` before allocating them, suggesting
    `n_landmarks`. A Nyström fit holds a few matrices of shape (m, m),
    checked against the same budget.

    References
    ----------
    B. Schölkopf, A. Smola, K.-R. Müller. Nonlinear component analysis as a
    kernel eigenvalue problem. Neural Computation 10(5), 1998.

    S. Mika, B. Schölkopf, A. Smola, K.-R. Müller, M. Scholz, G. Rätsch. Kernel
    PCA and de-noising in feature spaces. NIPS 11, 1999 (Sec. 2: eqs. (1)-(4)
    and footnote 1; Sec. 4: the width, twice the data's average variance in
    each dimension).

    G. H. Bakır, J. Weston, B. Schölkopf. Learning to find pre-images. NIPS 16,
    2004 (Sec. 3.1, eq. (6): the learned inverse map).

    C. K. I. Williams, M. Seeger. Using the Nyström method to speed up kernel
    machines. NIPS 13, 2001.

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

    _parameter_constraints: dict = {
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

    def __init__(
        self,
        n_components: int | None = None,
        *,
        kernel: str | Kernel | Callable[..., float] = "linear",
        gamma: float | Literal["total_variance"] | None = None,
        degree: int = 3,
        coef0: float = 1,
        kernel_params: dict[str, Any] | None = None,
        alpha: float = 1.0,
        fit_inverse_transform: bool = False,
        eigen_solver: str = "auto",
        tol: float = 0,
        max_iter: int | None = None,
        iterated_power: int | Literal["auto"] = "auto",
        remove_zero_eig: bool = False,
        random_state: RandomStateLike = None,
        copy_X: bool = True,
        n_jobs: int | None = None,
        n_landmarks: int | None = None,
        landmarks: str = "uniform",
    ) -> None:
        self.n_components = n_components
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.kernel_params = kernel_params
        self.alpha = alpha
        self.fit_inverse_transform = fit_inverse_transform
        self.eigen_solver = eigen_solver
        self.tol = tol
        self.max_iter = max_iter
        self.iterated_power = iterated_power
        self.remove_zero_eig = remove_zero_eig
        self.random_state = random_state
        self.copy_X = copy_X
        self.n_jobs = n_jobs
        self.n_landmarks = n_landmarks
        self.landmarks = landmarks

    # -- fitting -------------------------------------------------------------
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
        self._fit(X)
        return self

    @_fit_context(prefer_skip_nested_validation=True)
    def fit_transform(self, X: MatrixLike, y: object = None) -> TransformOutput:
        r"""Fit kernel PCA on X and return the training coordinates.

        For exact kernel PCA they are :math:`u_k \sqrt{\lambda_k}`, without a
        second kernel evaluation; for a Nyström fit, which keeps no n-sized
        state, they are ``transform(X)``.

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
        return self.eigenvectors_ * np.sqrt(self.eigenvalues_)

    def _fit(self, X):
        if self.fit_inverse_transform and self.kernel == "precomputed":
            raise ValueError("Cannot fit_inverse_transform with a precomputed kernel.")
        if is_dask_array(X):
            if self.n_landmarks is None:
                raise ValueError(
                    "'X' is a Dask array, but exact kernel PCA needs the n × n Gram "
                    "matrix in memory; set 'n_landmarks' for the Nyström fit, which "
                    "reduces a Dask array block by block"
                )
            X = validate_dask_input(self, X, reset=True)
        else:
            X = validate_estimator_input(
                self,
                X,
                reset=True,
                accept_sparse="csr",
                copy=self.copy_X and self.n_landmarks is None,
            )
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
            self.kernel_ = None
            self.gamma_ = 1.0 / X.shape[1] if self.gamma is None else self.gamma
            # The given Gram matrix and the eigensolver's centred copy of it.
            check_dense(
                (n, n), X.dtype, f"the {n} x {n} Gram matrix of exact kernel PCA", copies=2
            )
            self._fit_gram(X.toarray() if issparse(X) else X, X, copy=True)
        else:
            self.kernel_, self.gamma_ = self._resolve_kernel(X)
            # The Gram matrix, then the eigensolver's working copy of it.
            self._fit_gram(
                checked_gram(self.kernel_, X, "Gram matrix of exact kernel PCA", copies=2),
                X,
                copy=False,
            )
        if self.fit_inverse_transform:
            if issparse(X):
                raise TypeError(
                    "sparse 'X' is not supported with fit_inverse_transform=True "
                    "(the learned map needs dense training points); pass "
                    "X.toarray()"
                )
            learned = self._solver("learned", {"alpha": self.alpha})
            self.dual_coef_, self.X_transformed_fit_ = learned.dual_coef_, learned.coordinates_
        return self

    def _resolve_kernel(self, X):
        return make_sklearn_kernel(
            self.kernel,
            gamma=self.gamma,
            degree=self.degree,
            coef0=self.coef0,
            kernel_params=self.kernel_params,
            n_jobs=self.n_jobs,
            X=X,
        )

    def _fit_gram(self, K, support, *, copy):
        q = None if self.n_components is None else min(self.n_components, K.shape[0])
        fit = fit_kernel_pca(
            K,
            q,
            eigen_solver=self.eigen_solver,
            tol=self.tol,
            max_iter=self.max_iter,
            iterated_power=self.iterated_power,
            random_state=self.random_state,
            copy=copy,
            remove_zero_eig=self.remove_zero_eig,
            warn_rank=False,
            names="'X'",
        )
        self._set_fit(fit, support)

    def _fit_nystroem(self, X):
        if self.kernel == "precomputed" or issparse(X):
            raise ValueError(
                "'n_landmarks' needs the kernel as a function of dense input "
                "points; it is not available with kernel='precomputed' or a "
                "sparse 'X'"
            )
        self.kernel_, self.gamma_ = self._resolve_kernel(X)
        landmarks, index = select_landmarks(
            X,
            self.n_landmarks,
            self.kernel_,
            method=self.landmarks,
            random_state=self.random_state,
        )
        fit = refuse_no_component(
            fit_nystroem_kpca(self.kernel_, X, landmarks, self.n_components), self.gamma_
        )
        self.landmarks_, self.landmark_indices_ = landmarks, index
        self._set_fit(fit, landmarks)

    def _set_fit(self, fit, support):
        self.fit_result_ = fit
        self._solvers = {}
        self.eigenvalues_ = fit.eigenvalues
        self.eigenvectors_ = fit.eigenvectors
        self.expansion_coef_ = fit.alphas
        self.X_fit_ = support

    # -- coordinates ---------------------------------------------------------
    def transform(self, X: MatrixLike) -> TransformOutput:
        r"""Return the centred coordinates of X on the principal axes.

        The coordinates are :math:`\beta_k = \langle V_k, \phi(x) - \mu
        \rangle`, computed from the kernel rows of X against the support
        (see :func:`preimage.kpca.transform_block`).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            The points. With ``kernel="precomputed"``, the kernel rows
            :math:`k(x, x_i)` against the training points, of shape
            (n_samples, n_samples_fit). A Dask array gives a Dask array,
            computed block by block.

        Returns
        -------
        ndarray of shape (n_samples, q)
            The centred coordinates (a Dask array for a Dask X).
        """
        check_is_fitted(self)
        fit = self.fit_result_
        if is_dask_array(X):
            X = validate_dask_input(self, X, reset=False)
            return map_row_blocks(
                self.transform,
                X,
                n_columns=fit.alphas.shape[1],
                dtype=np.result_type(X.dtype, fit.alphas.dtype),
            )
        X = validate_estimator_input(self, X, reset=False, accept_sparse="csr")
        if self.kernel_ is None:
            X = X.toarray() if issparse(X) else X
            return transform_block(X, fit)  # precomputed: rows k(x, x_i) given directly
        out = np.empty((X.shape[0], fit.alphas.shape[1]), dtype=np.result_type(X, fit.alphas))
        for rows, K_rows in self.kernel_.blocks(X, self.X_fit_, check_input=False, names="'X'"):
            out[rows] = transform_block(K_rows, fit)
        return out

    # -- scikit-learn plumbing -----------------------------------------------
    @property
    def _n_features_out(self):
        return self.eigenvalues_.shape[0]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = isinstance(self.kernel, str) and self.kernel == "precomputed"
        tags.input_tags.sparse = self.n_landmarks is None and not self.fit_inverse_transform
        tags.transformer_tags.preserves_dtype = ["float64", "float32"]
        return tags
