"""Kernel PCA in the array namespace of its input and on its device (array API
dispatch): the fit, projections and expansions of :mod:`preimage.kpca._fit` and
:mod:`preimage.kpca._projections`, from array API functions only."""

import numpy as np

from preimage._utils.warnings import warn
from preimage._utils.xp import to_numpy
from preimage.exceptions import ConvergenceWarning
from preimage.kernels import KERNELS, Kernel
from preimage.kpca._guards import check_psd_eigenvalues, drop_rounding_level, rounding_floor
from preimage.kpca._result import KernelPCAResult

#: The pre-image methods that run on the device of their input.
DEVICE_METHODS = ("fixed_point", "closed_form", "learned")


def runs_on_device(kernel, method="fixed_point", est=None):
    """Whether kernel PCA with `kernel` (a name or a Kernel), the pre-image `method` (a
    name or a solver) and the landmarks and correction of the estimator `est` have a
    device path (array API dispatch): Nyström with uniform or k-means landmarks, and a
    denoiser's learned map over all points only."""
    kind = KERNELS[kernel] if isinstance(kernel, str) and kernel in KERNELS else type(kernel)
    name, landmarks = getattr(method, "name", method), getattr(est, "n_landmarks", None)
    numeric = isinstance(kind, type) and issubclass(kind, Kernel)
    return bool(
        numeric
        and kind._xp_block is not Kernel._xp_block
        and name in DEVICE_METHODS
        and getattr(est, "correction", None) is None
        and (landmarks is None or getattr(est, "landmarks", None) != "leverage")
        and not (landmarks is not None and name == "learned" and hasattr(est, "method"))
    )


#: The largest relative eigen-residual ``‖Kv − λv‖ / λ₁`` the block solver accepts.
EIGEN_TOL = {32: 1e-4, 64: 1e-11}
#: The block solver runs from this size, for at most one component in ten.
_BLOCK_FROM = 2000


def _flip_signs(V, xp):
    """Each column's largest-magnitude entry made positive (as the NumPy path)."""
    n, q = V.shape
    rows = xp.argmax(xp.abs(V), axis=0)
    flat = xp.reshape(xp.permute_dims(V, (1, 0)), (-1,))
    top = xp.take(flat, rows + xp.arange(q, device=rows.device) * n)
    return V * (1 - 2 * xp.astype(top < 0, V.dtype))[None, :]


def subspace_eigh(K, q, xp, *, tol=None, max_iter=300):
    r"""The q leading eigenpairs of a symmetric K by subspace iteration with Rayleigh-Ritz.

    With an orthonormal basis Q of b = 2q + 10 columns, each step forms
    :math:`KQ` (one matrix product), solves the b × b problem
    :math:`Q^\top K Q\, s = \lambda s` and takes :math:`V = QS`; it stops when
    every kept pair has :math:`\|Kv - \lambda v\| \le \mathrm{tol}\, |\lambda_1|`
    (`EIGEN_TOL` by precision), else goes on from an orthonormal basis of
    :math:`KV` (Saad 2011, Alg. 5.3). Returns the values (decreasing), the vectors
    and the largest relative residual; after `max_iter` steps, LAPACK's dense
    solver with a ConvergenceWarning.
    """
    n = K.shape[0]
    tol = EIGEN_TOL[xp.finfo(K.dtype).bits] if tol is None else tol
    start = np.random.default_rng(0).standard_normal((n, min(2 * q + 10, n)))
    Q = xp.linalg.qr(xp.asarray(start, dtype=K.dtype, device=K.device))[0]
    for _ in range(max_iter):
        KQ = K @ Q
        values, S = xp.linalg.eigh(Q.T @ KQ)
        values, S = xp.flip(values), xp.flip(S, axis=1)
        V, KV = Q @ S, KQ @ S
        R = KV[:, :q] - V[:, :q] * values[None, :q]
        residual = float(xp.max(xp.linalg.vector_norm(R, axis=0))) / float(xp.abs(values[0]))
        if residual <= tol:
            return values[:q], V[:, :q], residual
        Q = xp.linalg.qr(KV)[0]
    warn(
        f"subspace iteration reached a relative eigen-residual of {residual:.2g} (above "
        f"{tol:g}) in {max_iter} steps; the dense solver was used instead",
        ConvergenceWarning,
    )
    values, V = xp.linalg.eigh(K)
    return xp.flip(values[n - q :]), xp.flip(V[:, n - q :], axis=1), 0.0


def top_eigh_xp(K, q, xp):
    """The q leading eigenpairs of the symmetric K, decreasing, signs as the NumPy path:
    LAPACK's dense ``eigh`` below 2,000 points or for more than one component in ten,
    else :func:`subspace_eigh`."""
    n = K.shape[0]
    if n < _BLOCK_FROM or 10 * q > n:
        values, V = xp.linalg.eigh(K)
        values, V = xp.flip(values[n - q :]), xp.flip(V[:, n - q :], axis=1)
    else:
        values, V, _ = subspace_eigh(K, q, xp)
    return values, _flip_signs(V, xp)


def fit_kernel_pca_xp(K, n_components, xp, *, remove_zero_eig=False, names="'X'"):
    """:func:`~preimage.kpca.fit_kernel_pca` of a symmetric Gram matrix the library built,
    in its namespace: the eigenvalues are checked on the host (q numbers)."""
    n, dtype = K.shape[0], K.dtype
    floor = rounding_floor(
        float(xp.max(xp.abs(K))), n, np.float32 if dtype == xp.float32 else float
    )
    col_mean = xp.mean(K, axis=0)
    grand = xp.mean(col_mean)
    # K is symmetric: its row means are its column means.
    Kc = K - col_mean[None, :] - col_mean[:, None] + grand
    q = n if n_components is None else n_components
    values, vectors = top_eigh_xp(Kc, q, xp)
    del Kc
    host = check_psd_eigenvalues(to_numpy(values), floor=floor, names=names)
    n_kept = None if remove_zero_eig else n_components
    host, _, nonzero = drop_rounding_level(host, np.zeros((1, q)), n_kept, floor=floor)
    # The eigenvalues decrease: those kept, and those above rounding level, lead.
    vectors = vectors[:, : host.shape[0]]
    scale = np.where(nonzero, 1 / np.sqrt(np.where(nonzero, host, 1.0)), 0.0)
    alphas = vectors * xp.asarray(scale, dtype=dtype, device=K.device)[None, :]
    alphas = alphas - xp.mean(alphas, axis=0, keepdims=True)
    values = xp.asarray(np.where(nonzero, host, 0.0), dtype=dtype, device=K.device)
    mean_coef = xp.full(n, 1.0 / n, dtype=dtype, device=K.device)
    mean_coords = col_mean @ alphas
    return KernelPCAResult(values, vectors, alphas, col_mean, float(grand), mean_coords, mean_coef)


def transform_xp(K_x, fit, xp):
    """:func:`~preimage.kpca.transform_block` in the namespace of the kernel rows."""
    if fit.K_col_mean is None:
        return K_x @ fit.coef - fit.mean_coords[None, :]
    centred = K_x - fit.K_col_mean[None, :] - xp.mean(K_x, axis=1, keepdims=True) + fit.K_mean
    return centred @ fit.coef


def expansion_coef_xp(Y, fit, xp, *, add_mean=False):
    """:func:`~preimage.kpca.expansion_coef` in the namespace of the coordinates."""
    Y = Y * xp.astype(fit.eigenvalues > 0, Y.dtype)[None, :]
    if add_mean:
        coef = Y @ fit.coef.T + fit.mean_coef[None, :]
        norm2 = xp.sum(Y * Y, axis=1) + 2 * (Y @ fit.mean_coords) + fit.K_mean
        return coef, norm2
    Yc = Y + fit.mean_coords[None, :]
    return Yc @ fit.coef.T, xp.sum(Yc * Yc, axis=1)
