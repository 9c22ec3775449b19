"""Reduced-set selection: keep a subset of the expansion's own points."""

from __future__ import annotations

import numpy as np
from scipy.linalg import eigh
from sklearn.linear_model import Lasso, MultiTaskLasso, lasso_path

from preimage._utils.typing import ArrayLike
from preimage._utils.validation import check_positive
from preimage.kernels._expansion import FeatureExpansion
from preimage.reduced_set._coefficients import check_reduction, combine, groups, rho, support_gram
from preimage.reduced_set._result import ReducedSetResult


def _eigh(K):
    """Eigendecomposition of a symmetric matrix, also of an empty one."""
    return eigh(K) if K.shape[0] else (np.zeros(0), np.zeros((0, 0)))


def _pinv_eigh(eigh, C):
    """``K⁺ C`` from ``eigh = (w, U)``, ``K = U diag(w) Uᵀ``, with scipy's pinvh cutoff."""
    w, U = eigh
    keep = np.abs(w) > w.size * np.finfo(float).eps * np.abs(w).max(initial=0)
    with np.errstate(over="ignore", invalid="ignore"):  # refused by the caller
        return U[:, keep] @ ((U[:, keep].T @ C) / w[keep, None])


def _kpca_path(K, A, S, n_keep):
    """Remove points of S one at a time by the kernel PCA criterion: removing x_i
    along an eigenvector γ (eigenvalue λ) of ``K_SS`` costs ``Σ_k (β_ki / γ_i)² λ``;
    one eigendecomposition per step serves the costs and the refit."""
    with np.errstate(over="ignore", invalid="ignore"):  # refused by the caller
        norm2 = np.einsum("ki,ij,kj->k", A, K, A)
        C_all = K @ A.T  # ⟨φ(x_i), Ψ_k⟩
    removed, counts, errors = [], [], []
    while True:
        K_SS = K[np.ix_(S, S)]
        w, U = _eigh(K_SS)
        # Before any removal the original coefficients are optimal (a refit adds rounding).
        B = A[:, S] if not removed else _pinv_eigh((w, U), C_all[S]).T
        err = rho(norm2, B, K_SS, C_all[S])
        counts.append(S.size)
        errors.append(err)
        if S.size <= n_keep:
            return S, B, err, counts[::-1], errors[::-1], removed  # by increasing count
        used = (B**2).sum(axis=0)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            cost = used[:, None] / U**2 * np.maximum(w, 0.0)[None, :]
        cost[used == 0, :] = 0.0  # an unused point is free to remove
        cost[~np.isfinite(cost)] = np.inf
        i = np.unravel_index(np.argmin(cost), cost.shape)[0]
        removed.append(int(S[i]))
        S = np.delete(S, i)


def select_kpca(
    expansion: FeatureExpansion, n_vectors: int, *, shared: bool = False
) -> ReducedSetResult:
    r"""Select a reduced set among the support points by kernel PCA.

    If :math:`\gamma` is a unit eigenvector of the Gram matrix K with
    eigenvalue :math:`\lambda`, then
    :math:`\|\sum_i \gamma_i \phi(x_i)\|^2 = \gamma^\top K \gamma = \lambda`;
    removing :math:`x_n` by :math:`\beta \leftarrow \beta - (\beta_n / \gamma_n) \gamma`
    costs

    .. math:: \Big(\frac{\beta_n}{\gamma_n}\Big)^2 \lambda,

    zero along the null space of K. The point and eigenvector of least cost
    are removed, the rest refitted (:func:`optimal_coefficients`), until
    `n_vectors` points remain.

    Parameters
    ----------
    expansion : FeatureExpansion
        The m expansions to approximate.
    n_vectors : int
        Points to keep: per expansion (up to ``m * n_vectors`` distinct points
        in all), or in all when `shared`.
    shared : bool, default=False
        One subset for all m expansions (the costs summed); otherwise one
        each, a point kept by several counted once.

    Returns
    -------
    ReducedSetResult
        ``support_indices``: the kept rows of ``expansion.support``;
        ``info["removal_order"]``: per group, the removed rows in order.

    References
    ----------
    Schölkopf et al. (1999), Sec. V-C.1, Sec. V-B, Prop. 4.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage import FeatureExpansion
    >>> from preimage.kernels import GaussianKernel
    >>> from preimage.reduced_set import select_kpca
    >>> X = np.array([[0.0], [0.0], [3.0]])
    >>> psi = FeatureExpansion([1.0, 1.0, -0.5], X, GaussianKernel(gamma=1.0))
    >>> rs = select_kpca(psi, 2)
    >>> rs.support_indices, rs.coef.round(6), float(rs.error[0]) < 1e-12
    (array([1, 2]), array([[ 2. , -0.5]]), True)
    """
    expansion, n_vectors = check_reduction(expansion, n_vectors, shared)
    K = support_gram(expansion)
    parts, order = [], []
    for rows, A, S in groups(expansion, shared):
        S, B, err, counts, errors, removed = _kpca_path(K, A, S, n_vectors)
        parts.append((rows, None, B, err, counts, errors, S))
        order.append(np.array(removed, dtype=int))
    return combine(expansion, parts, "selection_kpca", {"removal_order": order, "shared": shared})


def _l1_weights(weights, A, S):
    if isinstance(weights, str):
        if weights == "uniform" or (weights == "inverse" and S.size == 0):
            return np.ones(S.size)
        if weights == "inverse":
            size = np.abs(A[:, S]).max(axis=0)
            # A weight beyond the float range is the largest float (it keeps the point out).
            with np.errstate(over="ignore"):
                return np.minimum(np.sum(size / size.size) / size, np.finfo(float).max)
        raise ValueError(f"'weights' must be 'uniform', 'inverse' or an array, got {weights!r}")
    try:
        c = np.asarray(weights, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(
            f"'weights' must be 'uniform', 'inverse' or an array of positive "
            f"numbers, got {weights!r}"
        ) from None
    if c.shape != (A.shape[1],) or not np.isfinite(c).all() or (c <= 0).any():
        raise ValueError(
            f"'weights' must be positive and finite, one per support point "
            f"({A.shape[1]}), got shape {c.shape}"
        )
    return c[S]


def _l1_subset(K, A, S, n_keep, penalty, c):
    """The points kept by the ℓ1 problem: with ``K_SS = LᵀL`` and ``w_i = c_i β_i``,
    a (multi-task) Lasso with design ``L diag(1/c)`` and target ``Lα``."""
    if S.size == 0 or (penalty is None and n_keep >= S.size):
        return S, 0.0
    w, U = _eigh(K[np.ix_(S, S)])
    L = np.sqrt(np.maximum(w, 0.0))[:, None] * U.T
    Y = L @ A[:, S].T  # (s, m)
    D = L / c[None, :]
    s = S.size
    y = Y[:, 0] if Y.shape[1] == 1 else Y
    if penalty is not None:
        model = (Lasso if y.ndim == 1 else MultiTaskLasso)(
            alpha=penalty / (2 * s), fit_intercept=False, max_iter=20_000
        )
        W = np.atleast_2d(model.fit(D, y).coef_)  # (m, s)
        return S[np.abs(W).max(axis=0) > 0], penalty
    # The path from the smallest penalty that zeroes every point down five decades, in
    # warm-started pieces, stopped at the first that keeps n_keep points.
    alpha_max = np.linalg.norm(D.T @ Y, axis=1).max() / s
    if not alpha_max > 0:  # Ψ = 0 in feature space: nothing to keep
        return S[:0], 0.0
    grid = np.geomspace(alpha_max, alpha_max * 1e-5, 200)
    coef_init = None
    for piece in np.array_split(grid, 20):
        alphas, coefs, _ = lasso_path(D, y, alphas=piece, coef_init=coef_init, max_iter=20_000)
        coef_init = coefs[..., -1]
        coefs = coefs.reshape(-1, s, alphas.size)  # (m, s, n_alphas)
        size = np.abs(coefs).max(axis=0)  # (s, n_alphas)
        reached = np.flatnonzero((size > 0).sum(axis=0) >= n_keep)
        if reached.size:
            break
    t = reached[0] if reached.size else alphas.size - 1
    # At the first penalty reaching n_keep points, keep the n_keep largest.
    keep = np.argsort(-size[:, t], kind="stable")[:n_keep]
    keep = keep[size[keep, t] > 0]
    return S[np.sort(keep)], float(alphas[t] * 2 * s)


def select_l1(
    expansion: FeatureExpansion,
    n_vectors: int | None = None,
    *,
    penalty: float | None = None,
    weights: str | ArrayLike = "uniform",
    shared: bool = False,
) -> ReducedSetResult:
    r"""Select a reduced set among the support points by an :math:`\ell_1` penalty.

    .. math::
        \min_\beta \; \Big\|\sum_i (\alpha_i - \beta_i) \phi(x_i)\Big\|^2
        + \lambda \sum_i c_i |\beta_i|

    The points with non-zero :math:`\beta_i` are kept and refitted
    (:func:`optimal_coefficients`); solved as a Lasso after :math:`K = L^\top L`.

    Parameters
    ----------
    expansion : FeatureExpansion
        The m expansions to approximate.
    n_vectors : int, optional
        Points to keep (per expansion, or in all when `shared`): the largest
        penalty on the path that keeps this many (ties to the largest
        coefficients). Give this or `penalty`.
    penalty : float, optional
        The penalty :math:`\lambda > 0` itself.
    weights : {"uniform", "inverse"} or array-like of shape (n,), default="uniform"
        The weights :math:`c_i`: 1, or :math:`c_i = \bar a / a_i` with
        :math:`a_i = \max_k |\alpha_{ki}|` and :math:`\bar a` its mean (small
        coefficients shrunk harder), or positive weights, one per point.
    shared : bool, default=False
        One subset for all m expansions with the group penalty
        :math:`\lambda \sum_i c_i \|(\beta_{1i}, \dots, \beta_{mi})\|_2`
        (a multi-task Lasso; the paper's is
        :math:`\lambda \sum_i c_i \max_k |\beta_{ki}|`).

    Returns
    -------
    ReducedSetResult
        ``info["penalty"]`` holds the :math:`\lambda` used, per group.

    References
    ----------
    Schölkopf et al. (1999), Sec. V-C.2, Sec. V-C.3.

    Examples
    --------
    >>> import numpy as np
    >>> from preimage import FeatureExpansion
    >>> from preimage.kernels import GaussianKernel
    >>> from preimage.reduced_set import select_l1
    >>> X = np.array([[0.0], [0.0], [3.0]])
    >>> psi = FeatureExpansion([1.0, 1.0, -0.5], X, GaussianKernel(gamma=1.0))
    >>> rs = select_l1(psi, 2)
    >>> rs.support_indices, rs.coef.round(6), float(rs.error[0]) < 1e-12
    (array([0, 2]), array([[ 2. , -0.5]]), True)
    """
    if (n_vectors is None) == (penalty is None):
        raise ValueError("give exactly one of 'n_vectors' and 'penalty'")
    penalty = None if penalty is None else check_positive(penalty, "penalty")
    expansion, n_keep = check_reduction(expansion, 1 if n_vectors is None else n_vectors, shared)
    K = support_gram(expansion)
    parts, penalties = [], []
    for rows, A, S in groups(expansion, shared):
        kept, lam = _l1_subset(K, A, S, n_keep, penalty, _l1_weights(weights, A, S))
        penalties.append(lam)
        K_kk = K[np.ix_(kept, kept)]
        with np.errstate(over="ignore", invalid="ignore"):  # refused by combine
            C = K[kept] @ A.T
        B = A[:, kept] if kept.size == S.size else _pinv_eigh(_eigh(K_kk), C).T
        err = rho(expansion.norm2()[rows], B, K_kk, C)
        parts.append((rows, None, B, err, [kept.size], [err], kept))
    info = {"penalty": np.array(penalties), "weights": weights, "shared": shared}
    return combine(expansion, parts, "selection_l1", info)
