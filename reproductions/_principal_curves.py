"""Principal curves (Hastie & Stuetzle 1989), the baseline of Mika et al.
(1999), Fig. 1.

A principal curve is a smooth curve f(λ) through the middle of the data that
is *self-consistent*: every point of the curve is the mean of the data that
project onto it,

    f(λ) = E[X | λ_f(X) = λ],    λ_f(x) = argmin_λ ‖x − f(λ)‖²,

so that the only straight principal curves are the principal-component lines.
Hastie & Stuetzle find one by alternating two steps, starting from the first
principal-component line f⁰(λ) = x̄ + λ a (λ_i the scores on a):

* *expectation*: each coordinate of the curve is the scatterplot smooth of
  that coordinate of the data against the indices, f_j(λ_i) = S[x_·j | λ](λ_i);
  the smoother here is the locally weighted running line of their paper
  (a least-squares line through the ⌈s n⌉ points nearest in λ, weighted by the
  tricube of the distance in λ, evaluated at λ_i), of span s;
* *projection*: the curve is the polyline through the points f(λ_i) in the
  order of λ; each data point is projected to the nearest point of it, and its
  new index λ_i is the arc length of that point along the polyline (so the
  curve stays parameterised by arc length).

The mean squared distance D² = (1/n) Σ ‖x_i − f(λ_i)‖² is computed after each
projection; the iteration stops when its relative change falls below `tol`.
Mika et al. anneal the smoothing parameter during the iteration: `span` may be
a decreasing sequence of spans, each iterated to convergence from the curve of
the one before. The denoised version of a point is its projection on the
final curve.

References
----------
T. Hastie and W. Stuetzle, "Principal curves", JASA 84:502–516, 1989.
S. Mika et al., "Kernel PCA and de-noising in feature spaces", NIPS 11, 1999.
"""

from dataclasses import dataclass, field

import numpy as np

__all__ = ["PrincipalCurveResult", "principal_curve", "project_to_polyline"]


@dataclass
class PrincipalCurveResult:
    """A fitted principal curve.

    Attributes
    ----------
    vertices : ndarray of shape (n_samples, n_features)
        The curve: a polyline through the smoothed points, in the order of λ.
    index : ndarray of shape (n_samples,)
        λ_i, the arc length along `vertices` of the projection of each point.
    projections : ndarray of shape (n_samples, n_features)
        f(λ_i), the nearest point of the curve to each point (the denoised data).
    distance2 : list of float
        The mean squared distance D² after each projection step, the first
        one to the principal-component line.
    n_iter : int
        Number of expectation-projection steps, over all spans.
    converged : bool
        Whether the last span met `tol` before `max_iter`.
    """

    vertices: np.ndarray
    index: np.ndarray
    projections: np.ndarray
    distance2: list = field(default_factory=list)
    n_iter: int = 0
    converged: bool = False


def project_to_polyline(X, vertices):
    """Nearest points of a polyline to the rows of X, and their arc lengths.

    Each point x is projected to every segment [v_k, v_{k+1}],
    t = clip((x − v_k)·(v_{k+1} − v_k) / ‖v_{k+1} − v_k‖², 0, 1), and the
    nearest of those projections is kept (the first, at ties).

    Returns
    -------
    projections : ndarray of shape (n_samples, n_features)
    arc_length : ndarray of shape (n_samples,)
        The distance along the polyline from ``vertices[0]`` to each projection.

    Examples
    --------
    >>> P, s = project_to_polyline([[0.5, 0.2], [3.0, 0.0]], [[0, 0], [1, 0], [1, 1]])
    >>> P.tolist(), s.tolist()
    ([[0.5, 0.0], [1.0, 0.0]], [0.5, 1.0])
    """
    X = np.asarray(X, dtype=float)
    V = np.asarray(vertices, dtype=float)
    if len(V) == 1:
        return np.repeat(V, len(X), axis=0), np.zeros(len(X))
    start, step = V[:-1], np.diff(V, axis=0)
    length2 = np.einsum("kj,kj->k", step, step)
    seg_len = np.sqrt(length2)
    # t[i, k]: position of x_i's projection on segment k (0 for a zero-length one).
    dot = np.einsum("ikj,kj->ik", X[:, None, :] - start[None], step)
    t = np.clip(np.divide(dot, length2, out=np.zeros_like(dot), where=length2 > 0), 0.0, 1.0)
    points = start[None] + t[..., None] * step[None]
    k = np.argmin(((X[:, None, :] - points) ** 2).sum(-1), axis=1)
    rows = np.arange(len(X))
    arc = np.concatenate([[0.0], np.cumsum(seg_len)])
    return points[rows, k], arc[k] + t[rows, k] * seg_len[k]


def running_line_smooth(index, Y, span):
    """Locally weighted running-line smooth of the columns of Y against `index`.

    At each λ_i: the k = max(3, ⌈span · n⌉) points nearest in λ, weights
    w_j = (1 − (|λ_j − λ_i| / h_i)³)³ with h_i just beyond the k-th distance,
    and the weighted least-squares line through them, evaluated at λ_i (a
    weighted mean where the neighbours share one λ). Lines are reproduced
    exactly.
    """
    index = np.asarray(index, dtype=float)
    Y = np.asarray(Y, dtype=float)
    n = len(index)
    k = min(n, max(3, int(np.ceil(span * n))))
    D = np.abs(index[:, None] - index[None, :])
    h = np.partition(D, k - 1, axis=1)[:, k - 1]
    h = np.where(h > 0, h * (1 + 1e-9), 1.0)
    W = np.clip(1.0 - (D / h[:, None]) ** 3, 0.0, None) ** 3
    W /= W.sum(axis=1, keepdims=True)
    mean_l = W @ index
    centred = index[None, :] - mean_l[:, None]  # λ_j − λ̄_i
    var_l = np.einsum("ij,ij->i", W, centred**2)
    mean_y = W @ Y
    cov = np.einsum("ij,ij,jd->id", W, centred, Y)
    slope = np.divide(cov, var_l[:, None], out=np.zeros_like(cov), where=var_l[:, None] > 1e-12)
    return mean_y + slope * (index - mean_l)[:, None]


def principal_curve(X, *, span=0.3, tol=1e-4, max_iter=100):
    """Fit a Hastie–Stuetzle principal curve to the rows of X.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    span : float in (0, 1], or a sequence of them
        The smoother's span, the fraction of the points in each local line.
        A sequence is an annealing schedule: the curve is iterated to
        convergence at each span in turn.
    tol : float
        Stop a span when |D²_old − D²_new| ≤ tol · D²_old (or the change is
        at the rounding level of the data's variance).
    max_iter : int
        Most expectation-projection steps per span.

    Returns
    -------
    PrincipalCurveResult

    Examples
    --------
    Points on a line are their own principal curve:

    >>> X = np.c_[np.linspace(0, 1, 11), 2 * np.linspace(0, 1, 11)]
    >>> r = principal_curve(X)
    >>> bool(np.allclose(r.projections, X)), r.distance2[-1] < 1e-20
    (True, True)
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or len(X) < 3:
        raise ValueError(f"'X' must be a 2-D array of at least 3 rows, got shape {X.shape}")
    spans = [float(span)] if np.ndim(span) == 0 else [float(s) for s in span]
    if not spans or not all(0 < s <= 1 for s in spans):
        raise ValueError(f"'span' must be in (0, 1] (or a sequence of such), got {span!r}")
    # f⁰: the first principal-component line, λ_i the scores on it.
    mean = X.mean(axis=0)
    _, _, Vt = np.linalg.svd(X - mean, full_matrices=False)
    index = (X - mean) @ Vt[0]
    projections = mean + index[:, None] * Vt[0]
    vertices = projections[np.argsort(index, kind="stable")]
    index = index - index.min()
    distance2 = [float(((X - projections) ** 2).sum(1).mean())]
    # Changes at the rounding level of the data count as none.
    floor = np.finfo(float).eps * float(((X - mean) ** 2).sum(1).mean())
    n_iter, converged = 0, False
    for s in spans:
        converged = False
        for _ in range(max_iter):
            order = np.argsort(index, kind="stable")
            vertices = running_line_smooth(index[order], X[order], s)
            projections, index = project_to_polyline(X, vertices)
            d2 = float(((X - projections) ** 2).sum(1).mean())
            n_iter += 1
            change = abs(distance2[-1] - d2)
            distance2.append(d2)
            if change <= tol * distance2[-2] + floor:
                converged = True
                break
    return PrincipalCurveResult(vertices, index, projections, distance2, n_iter, converged)
