"""Leading eigenpairs of kernel matrices (no solver pays for the full O(n^3)
decomposition unless asked to), and the landmark basis of the Nyström methods."""

import numpy as np
from scipy import linalg
from scipy.sparse.linalg import ArpackError, ArpackNoConvergence, LinearOperator, eigsh

from preimage._utils.validation import check_gram, check_random_state
from preimage._utils.warnings import warn
from preimage.exceptions import ConvergenceWarning, NumericalWarning

EIGEN_SOLVERS = ("auto", "dense", "arpack", "randomized")


def flip_signs(vectors):
    """Make the largest-magnitude entry of every column positive (deterministic)."""
    rows = np.argmax(np.abs(vectors), axis=0)
    signs = np.sign(vectors[rows, np.arange(vectors.shape[1])])
    signs[signs == 0] = 1
    return vectors * signs


def full_eigh(K):
    """Every eigenpair of the symmetric K, increasing, by divide and conquer (?syevd)."""
    # SciPy before 1.14 refuses a 1 x 1 matrix for ?syevd (its workspace check).
    return linalg.eigh(K, driver="evd" if K.shape[0] > 1 else None)


def _orthonormalize(Y):
    """An orthonormal basis of the columns of a tall Y by Cholesky QR applied twice
    (Yamamoto et al. 2015; GEMMs only), Householder QR where Y^T Y is singular; Y is
    scaled first where Y^T Y could overflow."""
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
    """Randomized subspace iteration (Halko, Martinsson & Tropp 2011, Alg. 4.4, 5.3):
    ``2 n_iter + 1`` products with K (as scikit-learn's ``randomized_svd``), then
    Rayleigh-Ritz, keeping the eigenvalues largest in magnitude, signs included."""
    n = K.shape[0]
    size = min(n_components + n_oversamples, n)
    Q = rng.standard_normal((n, size)).astype(K.dtype, copy=False)
    for _ in range(2 * n_iter + 1):
        Q = _orthonormalize(K @ Q)
    values, small = np.linalg.eigh(Q.T @ (K @ Q))
    # So that a significant negative eigenvalue is seen and refused, not skipped.
    top = np.argsort(np.abs(values))[::-1][:n_components]
    return values[top], Q @ small[:, top]


#: ``dense`` uses Lanczos from this size, for at most one component in this many.
_LANCZOS_FROM = 1000
_LANCZOS_SHARE = 20
#: From one component in this many on, LAPACK's full ?syevd beats its index-range ?syevr
#: (measured on digit Gram matrices: 0.5-0.7x the time at q = n/10, 4-5x at 3n/4).
_FULL_SHARE = 5


def _index_range_eigh(K, n_components):
    """The top eigenpairs by LAPACK: ?syevr for a few, ?syevd from one in _FULL_SHARE on."""
    n = K.shape[0]
    if _FULL_SHARE * n_components < n:
        values, vectors = linalg.eigh(K, subset_by_index=(n - n_components, n - 1))
        # ?syevr can return fewer eigenpairs than asked for when the top eigenvalue is
        # highly degenerate (an identity Gram matrix centred): then take them all.
        if values.shape[0] == n_components:
            return values, vectors
    values, vectors = full_eigh(K)
    return values[n - n_components :], vectors[:, n - n_components :]


def _symmetric_operator(K):
    """``v -> Kv`` by BLAS's ?symv over K's lower triangle (half the memory ?gemv reads,
    in SciPy's own BLAS) for a float K; K itself otherwise."""
    if K.dtype not in (np.float32, np.float64):
        return K
    At = K.T if K.flags.c_contiguous else np.asfortranarray(K)  # K = K^T, no copy
    (symv,) = linalg.get_blas_funcs(("symv",), (At,))
    return LinearOperator(
        K.shape, matvec=lambda v: symv(1.0, At, np.ravel(v), lower=1), dtype=K.dtype
    )


def _lanczos_eigh(K, n_components):
    """The top eigenpairs by ARPACK to machine precision (``tol=0``) from a fixed start
    vector; LAPACK where ARPACK fails."""
    v0 = np.random.default_rng(0).uniform(-1, 1, K.shape[0]).astype(K.dtype)
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
    """The `n_components` largest eigenpairs of the symmetric `K`, decreasing, each
    eigenvector's largest entry positive.

    `solver`: ``auto`` is scikit-learn's rule (ARPACK for n > 200 and fewer than 10
    components, else ``dense``). ``dense`` is exact: Lanczos to machine precision for
    q <= n/20 of n >= 1,000 (2-4x faster than LAPACK there), else LAPACK (and wherever
    ARPACK fails). ``arpack`` takes `tol` and `max_iter`. ``randomized`` is approximate
    (about 1e-3 relative on digits); `iterated_power` counts as in scikit-learn ("auto":
    7 when n_components < 0.1 n, else 4). `random_state` seeds ARPACK and randomized.
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
            values, vectors = eigsh(K, n_components, which="LA", tol=tol, maxiter=max_iter, v0=v0)
        except (ArpackError, ArpackNoConvergence) as exc:
            # A zero matrix or no convergence within max_iter: LAPACK gives the same.
            slow = isinstance(exc, ArpackNoConvergence)
            category = ConvergenceWarning if slow else NumericalWarning
            warn(f"ARPACK failed ({exc}); the dense solver was used instead", category)
            values, vectors = _index_range_eigh(K, n_components)
    else:
        if iterated_power == "auto":
            iterated_power = 7 if n_components < 0.1 * n else 4
        values, vectors = _randomized_eigh(K, n_components, iterated_power, rng)
    order = np.argsort(values)[::-1]
    return values[order], flip_signs(vectors[:, order])


def _cholesky_basis(K, eps):
    """``W = R^-1`` for ``K = R^T R`` (``W^T K W = I``, the eigen-basis up to a rotation,
    at a fraction of ``eigh``'s cost) when LAPACK's condition estimate (?pocon) is 100
    times below ``1/(m eps)``; else None."""
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
    """``W`` (m x r) with ``W^T K_mm W = I_r`` and ``W W^T = K_mm^+``: an orthonormal basis
    of the landmarks' span in feature space (Williams & Seeger 2001).

    ``R^-1`` of Cholesky when K_mm is well conditioned, else ``U L^-1/2`` over the
    eigenvalues above ``m eps l_max`` (the others dropped, with a NumericalWarning if
    `warn_dropped`); the two differ by a rotation no Nyström quantity depends on. With
    `check_input`, K_mm is checked and one without a positive eigenvalue refused.
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
