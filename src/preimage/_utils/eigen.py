"""Eigen-solvers for kernel matrices: leading eigenpairs, and the landmark basis.

Only the q leading eigenpairs are ever needed, so no solver pays for the full
O(n³) decomposition unless asked to: ``dense`` computes just the requested
index range (LAPACK's MRRR driver), ``arpack`` is Lanczos, ``randomized`` the
Halko–Martinsson–Tropp range finder.

:func:`landmark_basis` turns the Gram matrix of m landmarks into an
orthonormal basis of their span in feature space, the step every Nyström
method starts from (Nyström kernel PCA, the learned map over landmarks).
"""

import numpy as np
from scipy import linalg
from scipy.sparse.linalg import ArpackError, ArpackNoConvergence, LinearOperator, eigsh

from preimage._utils.validation import check_gram, check_random_state
from preimage._utils.warnings import warn
from preimage.exceptions import ConvergenceWarning, NumericalWarning

__all__ = ["EIGEN_SOLVERS", "flip_signs", "full_eigh", "landmark_basis", "top_eigh"]

EIGEN_SOLVERS = ("auto", "dense", "arpack", "randomized")


def flip_signs(vectors):
    """Make the largest-magnitude entry of every column positive (deterministic)."""
    rows = np.argmax(np.abs(vectors), axis=0)
    signs = np.sign(vectors[rows, np.arange(vectors.shape[1])])
    signs[signs == 0] = 1
    return vectors * signs


def full_eigh(K):
    """Every eigenpair of the symmetric K, in increasing order (as
    :func:`scipy.linalg.eigh`), by divide and conquer (LAPACK's ?syevd)."""
    # SciPy before 1.14 refuses a 1 x 1 matrix for ?syevd (its workspace
    # check); the default driver decomposes it as exactly.
    return linalg.eigh(K, driver="evd" if K.shape[0] > 1 else None)


def _orthonormalize(Y):
    """An orthonormal basis of the columns of a tall Y (n × l).

    Cholesky QR applied twice (Yamamoto et al. 2015): ``R = chol(YᵀY)``,
    ``Q = YR⁻¹``, all GEMMs on l × l factors, an order of magnitude faster
    than Householder QR for l ≪ n; the second pass restores orthogonality to
    working precision. Where YᵀY is not numerically positive definite
    (condition number of Y beyond 1/√eps) Householder QR is used instead.
    Where YᵀY could overflow (entries beyond ``sqrt(max_float / n)``, float32
    included), Y is first scaled to entries of at most 1 (the span is the
    same).
    """
    scale = max(float(Y.max()), -float(Y.min())) if Y.size else 0.0
    if scale * scale * Y.shape[0] >= float(np.finfo(Y.dtype).max):
        Y = Y / np.asarray(scale, dtype=Y.dtype)
    try:
        for _ in range(2):
            R = np.linalg.cholesky(Y.T @ Y)
            Y = Y @ np.linalg.inv(R).T
        return Y
    except np.linalg.LinAlgError:
        return np.linalg.qr(Y)[0]


def _randomized_eigh(K, n_components, n_iter, rng, n_oversamples=10):
    """Leading eigenpairs of a symmetric K by randomized subspace iteration
    (Halko, Martinsson & Tropp 2011, Alg. 4.4 and 5.3).

    A Gaussian test matrix Ω (n × l, l = q + 10) is multiplied by K
    ``2 n_iter + 1`` times — as many products as scikit-learn's
    ``randomized_svd`` with ``n_iter`` power iterations, each of which applies
    K and Kᵀ — with an orthonormalisation after each, and the Rayleigh–Ritz
    step ``eigh(QᵀKQ)`` gives eigenvalues with their signs (an indefinite
    sigmoid Gram matrix included). Every step is a NumPy GEMM or LAPACK call:
    alternating with SciPy's separate OpenBLAS would make the two libraries'
    idle threads compete for the cores after each switch.
    """
    n = K.shape[0]
    size = min(n_components + n_oversamples, n)
    Q = rng.standard_normal((n, size)).astype(K.dtype, copy=False)
    for _ in range(2 * n_iter + 1):
        Q = _orthonormalize(K @ Q)
    values, small = np.linalg.eigh(Q.T @ (K @ Q))
    # The range finder captures the largest eigenvalues in magnitude; keep
    # those (scikit-learn's ``selection="module"``), so that a significant
    # negative one is seen and refused rather than silently skipped.
    top = np.argsort(np.abs(values))[::-1][:n_components]
    return values[top], Q @ small[:, top]


#: Lanczos (ARPACK) replaces LAPACK for ``dense`` from this matrix size, for
#: at most one component in this many (see :func:`top_eigh`).
_LANCZOS_FROM = 1000
_LANCZOS_SHARE = 20
#: From one component in this many on, LAPACK's full divide and conquer
#: (?syevd) is faster than its index-range driver (?syevr), whose cost grows
#: with the number of eigenvectors asked for: on centred digit Gram matrices
#: (n = 1,333 and 2,000, float64 and float32, 2 threads) the index range took
#: 0.5-0.7× the time of the full decomposition at q = n/10, 0.9-1.0× at n/5,
#: 1.4-1.6× at n/3, 2.5× at n/2 and 4-5× at 3n/4, with the same eigenvalues to
#: rounding.
_FULL_SHARE = 5


def _index_range_eigh(K, n_components):
    """The top eigenpairs by LAPACK: the index-range driver (?syevr) for a few
    of them, the full divide and conquer (?syevd) from one in
    ``_FULL_SHARE`` on, where it is the faster."""
    n = K.shape[0]
    if _FULL_SHARE * n_components >= n:
        values, vectors = full_eigh(K)
        return values[n - n_components :], vectors[:, n - n_components :]
    values, vectors = linalg.eigh(K, subset_by_index=(n - n_components, n - 1))
    if values.shape[0] < n_components:
        # LAPACK's index-range driver (?syevr) can return fewer eigenpairs
        # than asked for when the top eigenvalue is highly degenerate
        # (K = I − 11ᵀ/n, an identity Gram matrix centred): take them all.
        values, vectors = full_eigh(K)
        values, vectors = values[n - n_components :], vectors[:, n - n_components :]
    return values, vectors


def _symmetric_operator(K):
    """The product ``v ↦ Kv`` of a symmetric float K by BLAS's symmetric
    matrix-vector product (?symv, over K's lower triangle), K itself for any
    other dtype.

    Each Lanczos step is one product with K, bound by reading K from memory:
    ?symv reads one triangle, half the matrix a general product (?gemv)
    reads, and runs in the BLAS that SciPy's ARPACK itself calls, so that the
    iteration does not alternate between NumPy's and SciPy's separate
    OpenBLAS thread pools. The result is the same product to rounding.
    """
    if K.dtype not in (np.float32, np.float64):
        return K
    # K is symmetric: its transpose is the Fortran-ordered array BLAS works
    # in, with no copy.
    At = K.T if K.flags.c_contiguous else np.asfortranarray(K)
    (symv,) = linalg.get_blas_funcs(("symv",), (At,))
    return LinearOperator(
        K.shape, matvec=lambda v: symv(1.0, At, np.ravel(v), lower=1), dtype=K.dtype
    )


def _lanczos_eigh(K, n_components):
    """The top eigenpairs by implicitly restarted Lanczos (ARPACK) converged
    to machine precision (``tol=0``: residuals ``‖Kv − λv‖`` at the rounding
    level of ``‖K‖``), from a fixed start vector so that the answer does not
    depend on any random state; LAPACK's index-range driver where ARPACK does
    not converge or fails."""
    n = K.shape[0]
    v0 = np.random.default_rng(0).uniform(-1, 1, n).astype(K.dtype)
    try:
        return eigsh(_symmetric_operator(K), k=n_components, which="LA", tol=0, v0=v0)
    except (ArpackError, ArpackNoConvergence):
        return _index_range_eigh(K, n_components)


def top_eigh(
    K,
    n_components,
    *,
    solver="auto",
    tol=0.0,
    max_iter=None,
    iterated_power="auto",
    random_state=None,
):
    """The `n_components` largest eigenpairs of the symmetric matrix `K`.

    Parameters
    ----------
    K : array of shape (n, n)
        Symmetric matrix.
    n_components : int
        Number of eigenpairs, 1 <= n_components <= n.
    solver : {"auto", "dense", "arpack", "randomized"}
        ``auto`` is scikit-learn's rule: ARPACK when n > 200 and fewer than
        10 components are wanted, else ``dense``; both reach LAPACK accuracy.
        ``dense`` is the exact answer by the faster exact method for the
        shape: Lanczos (ARPACK) iterated to machine precision (``tol=0``,
        from a fixed start vector) when q is at most n/20 of an n ≥ 1,000
        matrix, where it needs only matrix-vector products and is about 2×
        (n = 1,000 and 2,000) to 4× (n = 5,000) faster than LAPACK's
        reduction of the whole matrix to tridiagonal form (measured on digit
        Gram matrices; at q = n/10 LAPACK is faster);
        LAPACK otherwise, and wherever ARPACK fails: its index-range driver
        (MRRR) for fewer than n/5 components, its full divide and conquer
        from n/5 on (faster there: at q = 3n/4 the index range costs 4-5×
        the whole decomposition). Both agree to rounding (eigenvalues ~1e-15, eigenvectors
        ~1e-13 relative on digits, signs fixed alike).
        ``randomized`` (by name only) is faster for a few components of a
        large matrix and approximate: its eigenpairs differ from the dense
        ones by about 1e-3 relative on digits, and it keeps the eigenvalues
        largest in magnitude.
    tol, max_iter : ARPACK's tolerance and iteration limit.
    iterated_power : int or "auto"
        Power iterations of the randomized solver, counted as in
        scikit-learn (each applies K twice; "auto": 7 when
        n_components < 0.1 n, else 4).
    random_state : None, int or Generator
        Start vector of ARPACK, test matrix of the randomized solver.

    Returns
    -------
    eigenvalues : array of shape (n_components,)
        In decreasing order.
    eigenvectors : array of shape (n, n_components)
        Orthonormal columns, signs fixed so that each column's largest entry
        is positive.
    """
    n = K.shape[0]
    if solver not in EIGEN_SOLVERS:
        raise ValueError(f"'eigen_solver' must be one of {EIGEN_SOLVERS}, got {solver!r}")
    if solver == "auto":
        solver = "arpack" if n > 200 and n_components < 10 else "dense"
    if solver == "arpack" and n_components >= n:
        solver = "dense"  # Lanczos needs k < n
    rng = check_random_state(random_state)

    if solver == "dense" and n >= _LANCZOS_FROM and _LANCZOS_SHARE * n_components <= n:
        values, vectors = _lanczos_eigh(K, n_components)
    elif solver == "dense":
        values, vectors = _index_range_eigh(K, n_components)
    elif solver == "arpack":
        v0 = rng.uniform(-1, 1, n)
        try:
            values, vectors = eigsh(
                K, k=n_components, which="LA", tol=tol, maxiter=max_iter, v0=v0
            )
        except (ArpackError, ArpackNoConvergence) as exc:
            # A zero matrix (ARPACK's "starting vector is zero") or no
            # convergence within max_iter: LAPACK gives the same eigenpairs.
            category = (
                ConvergenceWarning if isinstance(exc, ArpackNoConvergence) else NumericalWarning
            )
            warn(f"ARPACK failed ({exc}); the dense solver was used instead", category)
            values, vectors = _index_range_eigh(K, n_components)
    else:
        if iterated_power == "auto":
            iterated_power = 7 if n_components < 0.1 * n else 4
        values, vectors = _randomized_eigh(K, n_components, iterated_power, rng)
    order = np.argsort(values)[::-1]
    return values[order], flip_signs(vectors[:, order])


def _cholesky_basis(K, eps):
    """``R⁻¹`` for ``K = RᵀR`` when K is well conditioned, else None.

    Then ``W = R⁻¹`` (upper triangular) has ``WᵀKW = I`` and ``WWᵀ = K⁻¹``:
    the eigen-basis ``UΛ^{-1/2}`` up to a rotation ``Q`` (``R⁻¹ = UΛ^{-1/2}Q``),
    which no Nyström quantity depends on, at a fraction of the cost of ``eigh``
    (a Cholesky factorisation and a triangular inverse, m³/3 flops each).
    Used only when LAPACK's estimate of the condition number of K from its
    factor (``?pocon``, 1-norm), is 100 times below ``1/(m · eps)``, the level at which
    the eigen-basis starts dropping directions; otherwise (and when the
    factorisation fails) None.
    """
    m = K.shape[0]
    R, info = linalg.lapack.dpotrf(K, lower=0, clean=1)
    if info != 0:
        return None
    rcond, info = linalg.lapack.dpocon(R, np.abs(K).sum(axis=0).max(), uplo="U")
    if info != 0 or not rcond > 0 or 1.0 / rcond >= 1e-2 / (m * eps):
        return None
    W, info = linalg.lapack.dtrtri(R, lower=0)
    return W if info == 0 and np.isfinite(W).all() else None


def landmark_basis(K_mm, *, warn_dropped=True, check_input=True):
    """``W`` (m × r) with ``WᵀK_mmW = I_r`` and ``WWᵀ = K_mm⁺``.

    The vectors ``e_l = Σ_j W_jl φ(z_j)`` are an orthonormal basis of the span
    of the landmarks' images (Williams & Seeger 2001). When K_mm is well
    conditioned, ``W = R⁻¹`` from its Cholesky factorisation ``K_mm = RᵀR``
    (r = m; see :func:`_cholesky_basis`); otherwise, with ``K_mm = UΛUᵀ``,
    ``W = UΛ^{-1/2}`` over the r eigenvalues kept. The two differ by a
    rotation of the basis, which leaves every Nyström quantity (projections,
    kernel PCA axes, the learned map) unchanged.

    Eigenvalues of K_mm below ``m · eps · λ_max`` (eps of K_mm's dtype;
    duplicated or nearly dependent landmarks) are dropped, with a
    NumericalWarning if `warn_dropped`: their directions carry no
    feature-space information that the kernel values resolve.

    With `check_input` K_mm is validated as a symmetric Gram matrix and one
    without a positive eigenvalue is refused; without it (the library's own
    calls) W then has no column.
    """
    if check_input:
        K_mm = check_gram(K_mm, "K_mm", symmetric=True)[0]
    eps = np.finfo(K_mm.dtype).eps if K_mm.dtype.kind == "f" else np.finfo(float).eps
    K64 = np.asarray(K_mm, dtype=np.float64)
    if K64.shape[0] > 1 and np.isfinite(K64).all():
        W = _cholesky_basis(K64, eps)
        if W is not None:
            return W
    values, vectors = linalg.eigh(K64)
    m = values.shape[0]
    top = max(float(values[-1]), 0.0)
    keep = values > m * eps * top if top > 0 else np.zeros(m, bool)
    if check_input and not keep.any():
        raise ValueError(
            "'K_mm' has no positive eigenvalue: the kernel maps every "
            "landmark to the origin of feature space"
        )
    if warn_dropped and keep.any() and not keep.all():
        warn(
            f"the {m} landmarks span only {int(keep.sum())} feature-space directions "
            "(duplicated or nearly dependent landmarks); the other directions were "
            "dropped",
            NumericalWarning,
        )
    return vectors[:, keep] / np.sqrt(values[keep])
