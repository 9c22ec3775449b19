"""One entry point for every reduced-set method."""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType
from typing import Any

from .._expansion import FeatureExpansion
from ._construction import construct
from ._result import ReducedSetResult
from ._selection import select_kpca, select_l1

__all__ = ["REDUCED_SET_METHODS", "reduce_expansion"]

#: Every reduced-set method, by name: the function that implements it.
REDUCED_SET_METHODS: MappingProxyType[str, Callable[..., ReducedSetResult]]
REDUCED_SET_METHODS = MappingProxyType(
    {"construction": construct, "selection_kpca": select_kpca, "selection_l1": select_l1}
)


def reduce_expansion(
    expansion: FeatureExpansion,
    n_vectors: int | None,
    method: str = "construction",
    **options: Any,
) -> ReducedSetResult:
    """Approximate feature-space expansions by fewer vectors.

    Replaces each ``Ψ_k = Σ_{i≤n} α_ki φ(x_i)`` by ``Σ_{j≤p} β_kj φ(z_j)``
    with p = `n_vectors` ≪ n, minimising ``ρ_k = ‖Ψ_k − Σ_j β_kj φ(z_j)‖²``
    (Schölkopf et al. 1999, Sec. V).

    Parameters
    ----------
    expansion : FeatureExpansion
        The m expansions (an SVM's weight vector, kernel PCA axes, ...).
    n_vectors : int
        Vectors per expansion with ``shared=False`` (the default of the
        methods: the result then carries up to m × `n_vectors` vectors), in
        all with ``shared=True`` (one set for the m expansions; the default
        of :func:`~preimage.reduce_svm`, :func:`~preimage.reduce_kernel_pca`
        and the reduced estimators).
    method : {"construction", "selection_kpca", "selection_l1"}
        * ``"construction"`` — new vectors as pre-images of the residual
          (:func:`construct`);
        * ``"selection_kpca"`` — keep support points, removing one at a time
          by the kernel PCA criterion (:func:`select_kpca`);
        * ``"selection_l1"`` — keep the support points an ℓ1 penalty keeps
          (:func:`select_l1`).
    **options
        Passed to the method (``shared``, ``n_starts``, ``phase2``, ...);
        ``random_state`` is used by construction and ignored by the
        (deterministic) selection methods.

    Returns
    -------
    ReducedSetResult

    Examples
    --------
    >>> import numpy as np
    >>> from preimage import FeatureExpansion
    >>> from preimage.kernels import GaussianKernel
    >>> from preimage.reduced_set import reduce_expansion
    >>> X = np.array([[0.0], [0.0], [3.0]])            # a duplicated point
    >>> psi = FeatureExpansion([1.0, 1.0, -0.5], X, GaussianKernel(gamma=1.0))
    >>> rs = reduce_expansion(psi, 2, method="selection_kpca")
    >>> rs.coef.round(6), float(rs.error[0]) < 1e-12
    (array([[ 2. , -0.5]]), True)
    """
    if not isinstance(method, str) or method not in REDUCED_SET_METHODS:
        raise ValueError(
            f"Unknown reduced-set method {method!r}; 'method' must be one of "
            f"{list(REDUCED_SET_METHODS)}"
        )
    if method != "construction":
        options.pop("random_state", None)  # selection is deterministic
    return REDUCED_SET_METHODS[method](expansion, n_vectors, **options)
