"""Hastie–Stuetzle principal curves, the baseline of the `toy-2d` reproduction:
exact cases (a line is its own principal curve, the smoother reproduces lines,
projection on a polyline against a dense sampling of it), the fitted curve
against a known arc, and the decrease of the mean squared distance."""

import numpy as np
import pytest

from reproductions._principal_curves import (
    principal_curve,
    project_to_polyline,
    running_line_smooth,
)


def _arc(n, rng, noise=0.0):
    """n points on the upper unit half circle, uniform in angle, with
    Gaussian noise of standard deviation `noise` in each coordinate."""
    t = np.sort(rng.uniform(0.0, np.pi, n))
    return np.c_[np.cos(t), np.sin(t)] + noise * rng.standard_normal((n, 2))


def _distance_to_unit_circle(Z):
    return np.abs(np.hypot(Z[:, 0], Z[:, 1]) - 1.0)


def test_projection_on_polyline_matches_a_dense_sampling_of_it():
    rng = np.random.default_rng(0)
    V = np.cumsum(rng.standard_normal((6, 2)), axis=0)
    X = 3 * rng.standard_normal((50, 2))
    P, s = project_to_polyline(X, V)
    # Independent computation: 20,001 points along each segment.
    t = np.linspace(0.0, 1.0, 20001)
    dense = np.concatenate([a + t[:, None] * (b - a) for a, b in zip(V[:-1], V[1:])])
    seg = np.linalg.norm(np.diff(V, axis=0), axis=1)
    arc = np.concatenate([c + t * L for c, L in zip(np.r_[0, np.cumsum(seg)[:-1]], seg)])
    nearest = np.argmin(((X[:, None] - dense[None]) ** 2).sum(-1), axis=1)
    d_exact = np.linalg.norm(X - P, axis=1)
    d_dense = np.linalg.norm(X - dense[nearest], axis=1)
    assert np.all(d_exact <= d_dense + 1e-12)
    assert np.allclose(d_exact, d_dense, atol=1e-3)
    assert np.allclose(s, arc[nearest], atol=1e-2)


def test_smoother_reproduces_a_line_exactly():
    rng = np.random.default_rng(1)
    index = rng.uniform(0, 5, 40)
    Y = np.c_[2 * index - 1, -0.5 * index + 3]
    for span in (0.05, 0.3, 1.0):
        assert np.allclose(running_line_smooth(index, Y, span), Y, atol=1e-10)


def test_points_on_a_line_are_their_own_principal_curve():
    t = np.random.default_rng(2).uniform(-1, 1, 30)
    X = np.c_[1 + 2 * t, 3 - t]
    r = principal_curve(X, span=0.2)
    assert np.allclose(r.projections, X, atol=1e-10)
    assert r.converged and r.distance2[-1] < 1e-20
    # The index is the arc length from the first end.
    assert np.allclose(r.index, np.sqrt(5) * (t - t.min()), atol=1e-10)


def test_noiseless_arc_is_recovered_and_the_distance_decreases():
    X = _arc(100, np.random.default_rng(3))
    r = principal_curve(X, span=0.1)
    assert r.converged
    # Every vertex within 0.01 of the unit circle; the curve spans the arc.
    assert _distance_to_unit_circle(r.vertices).max() < 0.01
    assert np.linalg.norm(r.vertices[[0, -1]] - X[[0, -1]], axis=1).max() < 0.05
    d2 = np.array(r.distance2)
    assert np.all(np.diff(d2) <= 1e-12)
    assert d2[-1] < 1e-4 * d2[0]


def test_noisy_arc_with_annealing_stays_near_the_true_curve():
    rng = np.random.default_rng(4)
    X = _arc(200, rng, noise=0.05)
    r = principal_curve(X, span=[0.5, 0.25, 0.1], tol=1e-3, max_iter=50)
    # Away from its ends (the outer 5 % of the points on each side) the curve
    # runs within 0.05 of the arc (the noise's standard deviation), on average
    # within 0.025; its ends follow the outermost noisy points, within 3 sd.
    d = _distance_to_unit_circle(r.vertices)
    assert d[10:-10].max() < 0.05 and d.mean() < 0.025
    assert d.max() < 0.15
    # From the principal-component line down to at least as close to the
    # data as the arc the data were drawn from.
    assert r.distance2[-1] < 0.05 * r.distance2[0]
    assert r.distance2[-1] <= np.mean(_distance_to_unit_circle(X) ** 2)
    # Each projection is the nearest point of the final curve.
    gap = np.linalg.norm(X - r.projections, axis=1)
    to_vertices = np.linalg.norm(X[:, None] - r.vertices[None], axis=2).min(axis=1)
    assert np.all(gap <= to_vertices + 1e-12)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(X=np.zeros((2, 2))), "'X'"),
        (dict(X=np.zeros(5)), "'X'"),
        (dict(X=np.eye(5), span=0.0), "'span'"),
        (dict(X=np.eye(5), span=[0.5, 1.5]), "'span'"),
        (dict(X=np.eye(5), span=[]), "'span'"),
    ],
)
def test_invalid_arguments_are_named(kwargs, match):
    X = kwargs.pop("X")
    with pytest.raises(ValueError, match=match):
        principal_curve(X, **kwargs)
