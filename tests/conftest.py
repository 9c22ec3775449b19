"""Shared, library-independent reference computations for the core tests.

Everything here is written from the mathematics alone (explicit feature maps,
finite differences), never from the library, so that the tests compare the
library against something it could disagree with.
"""

import itertools

import numpy as np
import pytest


def poly2_feature_map(X, gamma=1.0, coef0=1.0):
    """Explicit feature map of ``k(x, y) = (γ⟨x, y⟩ + c)²`` (c ≥ 0).

    ``(γt + c)² = c² + 2cγ Σ x_i y_i + γ² Σ x_i² y_i² + 2γ² Σ_{i<j} x_i x_j y_i y_j``,
    so ``φ(x) = [c, √(2cγ) x_i, γ x_i², √2 γ x_i x_j (i < j)]``; for d = 3 it has
    1 + 3 + 3 + 3 = 10 coordinates.
    """
    X = np.asarray(X, dtype=float)
    n, d = X.shape
    cols = [np.full(n, coef0)]
    cols += [np.sqrt(2 * coef0 * gamma) * X[:, i] for i in range(d)]
    cols += [gamma * X[:, i] ** 2 for i in range(d)]
    cols += [
        np.sqrt(2) * gamma * X[:, i] * X[:, j] for i, j in itertools.combinations(range(d), 2)
    ]
    return np.column_stack(cols)


def central_differences(f, Z, h=1e-6):
    """Central differences of ``f(Z)`` in every coordinate of every row of Z.

    `f` maps an (m, d) array to an array of shape (m,) + S where row j of the
    output depends on row j of Z only. Returns shape (m,) + S + (d,).
    """
    Z = np.asarray(Z, dtype=float)
    out = []
    for c in range(Z.shape[1]):
        step = np.zeros_like(Z)
        step[:, c] = h
        out.append((f(Z + step) - f(Z - step)) / (2 * h))
    return np.stack(out, axis=-1)


def align_signs(A, B):
    """Flip the columns of A to best match B (eigenvectors are defined up to sign)."""
    A = np.asarray(A)
    signs = np.sign(np.einsum("ij,ij->j", A, np.asarray(B, dtype=A.dtype)))
    signs[signs == 0] = 1
    return A * signs


@pytest.fixture(scope="session")
def poly2_map():
    return poly2_feature_map


@pytest.fixture(scope="session")
def fdiff():
    return central_differences


@pytest.fixture(scope="session")
def match_signs():
    return align_signs


@pytest.fixture
def single_blas_thread():
    """One BLAS thread for the test. numpy and scipy ship separate OpenBLAS
    copies whose idle threads spin against each other; L-BFGS-B (scipy)
    interleaved with tiny kernel blocks (numpy) then runs ~17x slower on two
    cores. Results are the same either way; only the run time changes."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1, user_api="blas"):
        yield


# --- Hypothesis: profiles, and a count of the contract cases checked ----------

from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile(
    "default",
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
settings.register_profile(
    "long",
    max_examples=600,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
settings.load_profile("default")


def pytest_terminal_summary(terminalreporter):
    from contract import CASES

    total = sum(CASES.values())
    if total:
        profile = terminalreporter.config.getoption("hypothesis_profile", None) or "default"
        terminalreporter.write_line(
            f"property contract: {total} generated cases checked ("
            + ", ".join(f"{k} {v}" for k, v in CASES.items())
            + f"), Hypothesis profile {profile!r}"
            + (" (more with --hypothesis-profile=long)" if profile != "long" else "")
        )
