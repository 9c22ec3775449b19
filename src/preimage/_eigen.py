"""Leading eigenpairs of a symmetric kernel matrix.

Only the q leading eigenpairs are ever needed, so no solver pays for the full
O(n³) decomposition unless asked to: ``dense`` computes just the requested
index range (LAPACK's MRRR driver), ``arpack`` is Lanczos, ``randomized`` the
Halko–Martinsson–Tropp range finder.
"""

import numpy as np
from scipy import linalg
from scipy.sparse.linalg import eigsh

from ._validation import check_random_state

__all__ = ["EIGEN_SOLVERS", "top_eigh"]

EIGEN_SOLVERS = ("auto", "dense", "arpack", "randomized")


def _flip_signs(vectors):
    """Make the largest-magnitude entry of every column positive (deterministic)."""
    rows = np.argmax(np.abs(vectors), axis=0)
    signs = np.sign(vectors[rows, np.arange(vectors.shape[1])])
    signs[signs == 0] = 1
    return vectors * signs


def top_eigh(K, n_components, *, solver="auto", tol=0.0, max_iter=None,
             iterated_power="auto", random_state=None):
    """The `n_components` largest eigenpairs of the symmetric matrix `K`.

    Parameters
    ----------
    K : array of shape (n, n)
        Symmetric matrix.
    n_components : int
        Number of eigenpairs, 1 <= n_components <= n.
    solver : {"auto", "dense", "arpack", "randomized"}
        ``auto`` takes ARPACK when n > 200 and fewer than 10 components are
        wanted (scikit-learn's rule), ``randomized`` when n > 500 and
        n_components < n/10, else ``dense``.
    tol, max_iter : ARPACK's tolerance and iteration limit.
    iterated_power : int or "auto"
        Power iterations of the randomized solver ("auto": 7 when
        n_components < 0.1 n, else 4, as in scikit-learn).
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
        if n > 200 and n_components < 10:
            solver = "arpack"
        elif n > 500 and n_components < n // 10:
            solver = "randomized"
        else:
            solver = "dense"
    if solver == "arpack" and n_components >= n:
        solver = "dense"  # Lanczos needs k < n
    rng = check_random_state(random_state)

    if solver == "dense":
        values, vectors = linalg.eigh(K, subset_by_index=(n - n_components, n - 1))
    elif solver == "arpack":
        v0 = rng.uniform(-1, 1, n)
        values, vectors = eigsh(K, k=n_components, which="LA", tol=tol,
                                maxiter=max_iter, v0=v0)
    else:
        from sklearn.utils.extmath import randomized_svd

        if iterated_power == "auto":
            iterated_power = 7 if n_components < 0.1 * n else 4
        U, _, _ = randomized_svd(K, n_components, n_iter=iterated_power,
                                 random_state=int(rng.integers(2**31 - 1)))
        # For a PSD matrix singular values are eigenvalues; the Rayleigh quotient
        # also gives the right sign for an indefinite one (sigmoid kernels).
        values = np.einsum("ij,ij->j", U, K @ U)
        vectors = U
    order = np.argsort(values)[::-1]
    return values[order], _flip_signs(vectors[:, order])
