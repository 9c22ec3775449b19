"""Kernel PCA estimator whose projections are feature-space expansions."""

from numbers import Integral, Real

import numpy as np
from sklearn.base import (
    BaseEstimator,
    ClassNamePrefixFeaturesOutMixin,
    TransformerMixin,
    _fit_context,
)
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from .._blocks import is_dask_array, map_row_blocks
from .._eigen import EIGEN_SOLVERS
from .._memory import check_dense
from .._validation import checked_gram, validate_dask_input, validate_estimator_input
from ..kernels import KERNELS, Kernel, make_kernel
from ..kpca import (check_coordinates, coordinates_expansion, fit_kernel_pca,
                    leading_components, transform_block)
from ..nystroem import fit_nystroem_kpca, select_landmarks
from ..solvers import find_preimage, make_solver
from ._constraints import KERNEL_CONSTRAINTS, LANDMARK_CONSTRAINTS

__all__ = ["KernelPCA"]


class KernelPCA(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Kernel principal component analysis with projections as expansions.

    Performs PCA of the centred images ``φ̃(x_i) = φ(x_i) − μ`` through the
    centred Gram matrix (Schölkopf, Smola & Müller 1998). Besides the usual
    coordinates, it returns projections as :class:`~preimage.FeatureExpansion`
    objects over the uncentred training images, ready for any pre-image method.

    Parameters
    ----------
    n_components : int, default=None
        Number of components q. None keeps all with a non-zero eigenvalue.
        More than the eigenproblem has (n_samples; with `n_landmarks`, the
        landmarks) is refused with a ValueError. Components beyond the rank
        of the centred Gram matrix (duplicated points, a nearly constant
        kernel) keep their place with a zero eigenvalue and zero coordinates,
        with a NumericalWarning; data without any component (identical rows,
        a kernel constant on them) are refused.
    kernel : str, Kernel or callable, default="rbf"
        ``"rbf"`` (or ``"gaussian"``), ``"laplacian"``, ``"poly"``, ``"linear"``,
        ``"sigmoid"``, ``"sine"``, ``"precomputed"``, a kernel object from
        :mod:`preimage.kernels`, or a callable on pairs of samples.
    gamma : float, default=None
        Kernel width. None resolves at fit time (stored as ``gamma_``): for the
        Gaussian kernel to the papers' choice ``1/(2 · total variance)`` of the
        training data (Mika et al. 1999), for others to ``1/n_features``.
    degree : int, default=3
        Degree of the polynomial kernel.
    coef0 : float, default=1
        Constant of the polynomial and sigmoid kernels.
    kernel_params : dict, default=None
        Extra parameters of a callable kernel or a kernel class (the sine
        kernel's order N: ``{"order": N}``).
    eigen_solver : {"auto", "dense", "arpack", "randomized"}, default="auto"
        Solver of the leading eigenpairs; none computes more than q of them.
    tol : float, default=0
        ARPACK tolerance (0: machine precision).
    max_iter : int, default=None
        ARPACK iteration limit.
    iterated_power : int or "auto", default="auto"
        Power iterations of the randomized solver.
    random_state : int, Generator or None, default=None
        Seeds ARPACK's start vector, the randomized solver, the landmarks and
        the random restarts of ``inverse_transform`` (fixed point, gradient)
        unless given there.
    copy_X : bool, default=True
        Store a copy of the training data (the expansions' support).
    n_landmarks : int, default=None
        None: exact kernel PCA on the n × n Gram matrix. An int m: Nyström
        kernel PCA (:mod:`preimage.nystroem`) on the projections of the φ(x_i)
        onto the span of m landmarks, in O(n m d + n m² + m³) time and
        O(n d + m²) memory; the axes and every projection are expansions over
        the landmarks, so every pre-image method works on them. With all
        training points as landmarks it is exact kernel PCA.
    landmarks : {"uniform", "kmeans", "leverage"}, default="uniform"
        How the m landmarks are chosen (see
        :func:`preimage.nystroem.select_landmarks`); drawn with `random_state`.

    Attributes
    ----------
    eigenvalues_ : ndarray of shape (q,)
        Eigenvalues of the centred Gram matrix, decreasing.
    eigenvectors_ : ndarray of shape (n_samples, q), or None
        Its unit eigenvectors u_k (None for a Nyström fit, which keeps no
        n-sized state).
    expansion_coef_ : ndarray of shape (n_support, q)
        The unit principal axes are ``V_k = Σ_i α_ki φ(s_i)`` over the support
        s (``X_fit_``); for exact kernel PCA ``α_k = u_k/√λ_k``.
    X_fit_ : ndarray of shape (n_support, n_features)
        The support of every expansion: the training data, or with
        `n_landmarks` the landmarks; for a precomputed kernel, the training
        Gram matrix.
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

    Notes
    -----
    ``project(X)`` gives, as an expansion over the uncentred φ(x_i), either the
    principal part ``Σ_k ⟨V_k, φ(x)⟩ V_k`` (default, STPRtool's form, on which
    Mika's fixed point was stated) or the exact reconstruction ``Pφ̃(x) + μ``
    (``add_mean=True``), which with all components kept is φ(x) itself for
    every training point.

    ``transform``, ``inverse_transform`` and (with `n_landmarks`) ``fit``
    accept Dask arrays: transforms run block-wise and return Dask arrays;
    the Nyström fit reduces ``K_nm`` block by block. Kernel rows of a NumPy
    input are evaluated in chunks of scikit-learn's ``working_memory``
    (``sklearn.config_context(working_memory=MiB)``).

    Exact kernel PCA needs the n × n Gram matrix and the eigensolver's copy
    of it; beyond the memory budget (``preimage.set_config(memory_budget=...)``)
    ``fit`` raises :class:`~preimage.MemoryBudgetError` before allocating
    them, suggesting `n_landmarks`. A Nyström fit holds a few m × m matrices,
    checked against the same budget.

    References
    ----------
    B. Schölkopf, A. Smola, K.-R. Müller. Nonlinear component analysis as a
    kernel eigenvalue problem. Neural Computation 10, 1998.
    S. Mika et al. Kernel PCA and de-noising in feature spaces. NIPS 11, 1999.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage import KernelPCA
    >>> X = np.random.default_rng(0).normal(size=(30, 3))
    >>> kpca = KernelPCA(n_components=2, gamma=0.5).fit(X)
    >>> kpca.transform(X[:4]).shape
    (4, 2)
    >>> psi = kpca.project(X[:4])
    >>> psi.distance2(X[:4]).shape     # feature-space residual at the inputs
    (4,)
    """

    _parameter_constraints: dict = {
        "n_components": [Interval(Integral, 1, None, closed="left"), None],
        **KERNEL_CONSTRAINTS,
        "kernel": [StrOptions(set(KERNELS) | {"precomputed"}), Kernel, callable],
        "eigen_solver": [StrOptions(set(EIGEN_SOLVERS))],
        "tol": [Interval(Real, 0, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left"), None],
        "iterated_power": [Interval(Integral, 0, None, closed="left"), StrOptions({"auto"})],
        "random_state": ["random_state", np.random.Generator],
        "copy_X": ["boolean"],
        **LANDMARK_CONSTRAINTS,
    }

    def __init__(self, n_components=None, *, kernel="rbf", gamma=None, degree=3,
                 coef0=1, kernel_params=None, eigen_solver="auto", tol=0, max_iter=None,
                 iterated_power="auto", random_state=None, copy_X=True, n_landmarks=None,
                 landmarks="uniform"):
        self.n_components = n_components
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.kernel_params = kernel_params
        self.eigen_solver = eigen_solver
        self.tol = tol
        self.max_iter = max_iter
        self.iterated_power = iterated_power
        self.random_state = random_state
        self.copy_X = copy_X
        self.n_landmarks = n_landmarks
        self.landmarks = landmarks

    # -- fitting -------------------------------------------------------------
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Fit kernel PCA on X (n_samples, n_features), or on a square Gram
        matrix when ``kernel="precomputed"``."""
        self._fit(X)
        return self

    @_fit_context(prefer_skip_nested_validation=True)
    def fit_transform(self, X, y=None):
        """Fit and return the training coordinates: ``u_k √λ_k`` without a
        second kernel evaluation (exact), or ``transform(X)`` (Nyström, which
        keeps no n-sized state)."""
        self._fit(X)
        if self.eigenvectors_ is None:
            return self.transform(X)
        return self.eigenvectors_ * np.sqrt(self.eigenvalues_)

    def _fit(self, X):
        if is_dask_array(X):
            if self.n_landmarks is None:
                raise ValueError(
                    "'X' is a Dask array, but exact kernel PCA needs the n × n Gram "
                    "matrix in memory; set 'n_landmarks' for the Nyström fit, which "
                    "reduces a Dask array block by block")
            X = validate_dask_input(self, X, reset=True)
        else:
            X = validate_estimator_input(self, X, reset=True,
                                         copy=self.copy_X and self.n_landmarks is None)
        n = X.shape[0]
        if n < 2:
            raise ValueError(
                f"'X' has n_samples={n}; kernel PCA needs at least 2 samples "
                "(the centred Gram matrix of one sample is 0)")
        if self.n_components is not None and self.n_components > n:
            raise ValueError(
                f"'n_components' must be <= n_samples={n} (the size of the Gram "
                f"matrix), got {self.n_components}")
        if self.n_landmarks is not None:
            return self._fit_nystroem(X)
        if self.kernel == "precomputed":
            if X.shape[0] != X.shape[1]:
                raise ValueError(
                    f"'X' must be a square Gram matrix with kernel='precomputed', "
                    f"got shape {X.shape}")
            self.kernel_ = None
            self.gamma_ = None
            # The given Gram matrix and the eigensolver's centred copy of it.
            check_dense((n, n), X.dtype, f"the {n} x {n} Gram matrix of exact kernel PCA",
                        copies=2)
            K = X
        else:
            self.kernel_ = make_kernel(self.kernel, gamma=self.gamma, degree=self.degree,
                                       coef0=self.coef0, kernel_params=self.kernel_params,
                                       X=X)
            self.gamma_ = getattr(self.kernel_, "gamma", None)
            # The Gram matrix, then the eigensolver's working copy of it.
            K = checked_gram(self.kernel_, X, "Gram matrix of exact kernel PCA", copies=2)
        fit = fit_kernel_pca(K, self.n_components, eigen_solver=self.eigen_solver,
                             tol=self.tol, max_iter=self.max_iter,
                             iterated_power=self.iterated_power,
                             random_state=self.random_state,
                             copy=self.kernel == "precomputed")
        return self._set_fit(fit, X)

    def _fit_nystroem(self, X):
        if self.kernel == "precomputed":
            raise ValueError("'n_landmarks' needs the kernel as a function of input "
                             "points; it is not available with kernel='precomputed'")
        self.kernel_ = make_kernel(self.kernel, gamma=self.gamma, degree=self.degree,
                                   coef0=self.coef0, kernel_params=self.kernel_params, X=X)
        self.gamma_ = getattr(self.kernel_, "gamma", None)
        landmarks, index = select_landmarks(X, self.n_landmarks, self.kernel_,
                                            method=self.landmarks,
                                            random_state=self.random_state)
        fit = fit_nystroem_kpca(self.kernel_, X, landmarks, self.n_components)
        self.landmarks_, self.landmark_indices_ = landmarks, index
        return self._set_fit(fit, landmarks)

    def _set_fit(self, fit, support):
        if not (fit.eigenvalues > 0).any():
            gamma = ("" if self.gamma_ is None
                     else f", e.g. 'gamma'={self.gamma_:.3g} too small")
            raise ValueError(
                "kernel PCA of 'X' has no component: its centred Gram matrix has no "
                "eigenvalue above rounding level, so all points have one image in "
                f"feature space (identical rows, or a kernel constant on them{gamma}), "
                "or the kernel is indefinite without positive eigenvalue")
        self.fit_result_ = fit
        self._solvers = {}
        self.eigenvalues_ = fit.eigenvalues
        self.eigenvectors_ = fit.eigenvectors
        self.expansion_coef_ = fit.alphas
        self.X_fit_ = support
        return self

    # -- coordinates ---------------------------------------------------------
    def transform(self, X):
        """Centred coordinates ``β_k = ⟨V_k, φ(x) − μ⟩`` of X, shape
        (n_samples, q).

        With ``kernel="precomputed"``, X holds the kernel rows
        ``k(x, x_i)`` against the training points. A Dask array gives a Dask
        array, computed block by block.
        """
        check_is_fitted(self)
        fit = self.fit_result_
        if is_dask_array(X):
            X = validate_dask_input(self, X, reset=False)
            return map_row_blocks(self.transform, X, n_columns=fit.alphas.shape[1],
                                  dtype=np.result_type(X.dtype, fit.alphas.dtype))
        X = validate_estimator_input(self, X, reset=False)
        if self.kernel_ is None:
            return transform_block(X, fit)  # precomputed: rows k(x, x_i) given directly
        out = np.empty((X.shape[0], fit.alphas.shape[1]),
                       dtype=np.result_type(X, fit.alphas))
        for rows, K_rows in self.kernel_.blocks(X, self.X_fit_, check_input=False,
                                                names="'X'"):
            out[rows] = transform_block(K_rows, fit)
        return out

    # -- projections as expansions -------------------------------------------
    def expansion_from_components(self, Y, *, add_mean=False, n_components=None):
        """The feature-space point with coordinates Y, as an expansion.

        Parameters
        ----------
        Y : array of shape (m, q)
            Centred coordinates, as returned by :meth:`transform` (with
            `n_components` = n: their first n columns).
        add_mean : bool, default=False
            False: the principal part ``Σ_k (y_k + ⟨V_k, μ⟩) V_k``, which is
            ``Σ_k ⟨V_k, φ(x)⟩ V_k`` when Y = transform(x): the projection of
            φ(x) itself onto the principal subspace (STPRtool's ``kpcarec``, for
            which Mika's fixed point was stated). True: ``Σ_k y_k V_k + μ``, the
            exact kernel PCA reconstruction with the feature-space mean added
            back. On digits the mean pulls every pre-image toward the average
            digit: denoising MSE 56.1 against 15.4 without it (bundled MNIST,
            Gaussian noise σ = 0.5, 100 components), hence the default.
        n_components : int, optional
            Use only the leading n ≤ q components (the sum over k runs to n);
            Y then has n columns. Kernel PCA with q components contains every
            smaller one, so one fit serves a sweep over component counts.

        Returns
        -------
        FeatureExpansion
            m expansions over the uncentred training images, with their squared
            norms in closed form.
        """
        check_is_fitted(self)
        fit = self._leading_fit(n_components)
        Y = check_coordinates(Y, fit.eigenvalues.shape[0])
        support = None if self.kernel_ is None else self.X_fit_
        return coordinates_expansion(Y, fit, support, self.kernel_, add_mean=add_mean)

    def _leading_fit(self, n_components):
        fit = self.fit_result_
        return fit if n_components is None else leading_components(fit, n_components)

    def project(self, X, *, add_mean=False, n_components=None):
        """The projection of φ(x) onto the first q components, as an expansion.

        ``add_mean=False`` (default) gives the principal part
        ``Σ_k ⟨V_k, φ(x)⟩ V_k``; ``add_mean=True`` the exact kernel PCA
        reconstruction ``Pφ̃(x) + μ``, which is φ(x) itself for a training
        point when all components are kept (see
        :meth:`expansion_from_components`). ``n_components=n`` projects onto
        the leading n ≤ q components instead.
        """
        Y = self.transform(X)
        if n_components is not None:
            Y = Y[:, :self._leading_fit(n_components).eigenvalues.shape[0]]
        return self.expansion_from_components(Y, add_mean=add_mean,
                                              n_components=n_components)

    # -- back to input space -------------------------------------------------
    def inverse_transform(self, Y, *, method="fixed_point", add_mean=False, x0=None,
                          return_result=False, **options):
        """Pre-images of the feature-space points with coordinates Y.

        Parameters
        ----------
        Y : array of shape (n_samples, q)
            Centred coordinates, as returned by :meth:`transform`.
        method : str, solver or callable, default="fixed_point"
            Any method of :func:`preimage.find_preimage`. A name makes a solver
            fitted on this kernel PCA (:meth:`PreimageSolver.solve_coordinates
            <preimage.solvers.PreimageSolver.solve_coordinates>`): ``"learned"``
            maps Y directly with kernel ridge regression fitted on the training
            coordinates (Bakır et al. 2004; with its defaults — the forward
            kernel, ``alpha=1`` — it is scikit-learn's
            ``KernelPCA(fit_inverse_transform=True)``), ``"closed_form"`` maps
            them through a d × q matrix. Methods that learn (``"mds"``,
            ``"closed_form"``, ``"learned"``) are fitted once per set of
            options and reused. A solver or callable is applied to the
            expansions Y stands for.
        add_mean : bool, default=False
            Which expansion the coordinates stand for (see
            :meth:`expansion_from_components`); not used by ``"learned"``.
        x0 : array of shape (n_samples, n_features), optional
            Starting points of iterative methods (for denoising, the noisy
            inputs).
        return_result : bool, default=False
            Return the whole :class:`~preimage.PreimageResult` (residuals,
            iterations, convergence) instead of the points alone.
        **options
            Parameters of the method; the random restarts of the fixed point
            and the gradient method follow `random_state` unless set here.

        Returns
        -------
        X : ndarray of shape (n_samples, n_features), or PreimageResult
        """
        check_is_fitted(self)
        if self.kernel_ is None:
            raise ValueError("inverse_transform needs input-space training points; it is "
                             "not available with kernel='precomputed'")
        if is_dask_array(Y):
            return self._inverse_transform_blocks(Y, method, add_mean, x0, return_result,
                                                  options)
        Y = check_coordinates(Y, self.eigenvalues_.shape[0])
        if isinstance(method, str):
            return self._solver(method, options).solve_coordinates(
                Y, add_mean=add_mean, x0=x0, return_result=return_result)
        result = find_preimage(self.expansion_from_components(Y, add_mean=add_mean),
                               method=method, x0=x0, **options)
        return result if return_result else result.x

    def _inverse_transform_blocks(self, Y, method, add_mean, x0, return_result, options):
        """inverse_transform of a Dask array Y (and x0), block by block."""
        if return_result:
            raise ValueError("'return_result=True' is not available for a Dask array 'Y'; "
                             "compute the blocks you need and pass NumPy arrays")
        if x0 is not None and not is_dask_array(x0):
            raise ValueError("'x0' must be a Dask array with the rows of the Dask array "
                             f"'Y', got {type(x0).__name__}")

        def block(Y_block, x0_block=None):
            return self.inverse_transform(Y_block, method=method, add_mean=add_mean,
                                          x0=x0_block, **options)

        args = () if x0 is None else (x0,)
        return map_row_blocks(block, Y, *args, n_columns=self.n_features_in_,
                              dtype=np.result_type(Y.dtype, self.X_fit_.dtype))

    def _solver(self, method, options):
        """The registered method `method` with `options`, fitted on this kernel
        PCA; kept for reuse when it learns from the training data."""
        solver = make_solver(method, options, random_state=self.random_state)
        if not solver.learns:
            return solver.fit(self.X_fit_, self.kernel_, kpca=self.fit_result_)
        key = (method, tuple(sorted((k, repr(v)) for k, v in options.items())))
        cache = self.__dict__.setdefault("_solvers", {})
        if key not in cache:
            cache[key] = solver.fit(self.X_fit_, self.kernel_, kpca=self.fit_result_)
        return cache[key]

    # -- scikit-learn plumbing -----------------------------------------------
    @property
    def _n_features_out(self):
        return self.eigenvalues_.shape[0]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = isinstance(self.kernel, str) and self.kernel == "precomputed"
        tags.transformer_tags.preserves_dtype = ["float64", "float32"]
        return tags
