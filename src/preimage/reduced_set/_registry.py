"""One entry point for every reduced-set method."""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType
from typing import Any

from preimage.kernels._expansion import FeatureExpansion
from preimage.reduced_set._construction import construct
from preimage.reduced_set._result import ReducedSetResult
from preimage.reduced_set._selection import select_kpca, select_l1

#: Every reduced-set method, by name: the function that implements it.
REDUCED_SET_METHODS: MappingProxyType[str, Callable[..., ReducedSetResult]] = MappingProxyType(
    {"construction": construct, "selection_kpca": select_kpca, "selection_l1": select_l1}
)


def reduce_expansion(
    expansion: FeatureExpansion,
    n_vectors: int | None,
    method: str = "construction",
    **options: Any,
) -> ReducedSetResult:
    r"""Approximate feature-space expansions by fewer vectors.

    Replaces each :math:`\Psi_k = \sum_{i=1}^n \alpha_{ki} \phi(x_i)` by
    :math:`\Psi'_k = \sum_{j=1}^p \beta_{kj} \phi(z_j)` with p = `n_vectors`
    much smaller than n, minimising

    .. math:: \rho_k = \|\Psi_k - \Psi'_k\|^2

    by one of the methods of :data:`REDUCED_SET_METHODS`.

    Parameters
    ----------
    expansion : FeatureExpansion
        The m expansions (an SVM's weight vector, kernel PCA axes, ...).
    n_vectors : int or None
        Vectors per expansion with ``shared=False`` (the methods' default), in
        all with ``shared=True``. None only for ``"selection_l1"`` given a
        ``penalty``.
    method : {"construction", "selection_kpca", "selection_l1"}, default="construction"
        New vectors as pre-images of the residual (:func:`construct`), or
        support points kept by kernel PCA (:func:`select_kpca`) or an
        :math:`\ell_1` penalty (:func:`select_l1`).
    **options
        Passed to the method (``shared``, ``n_starts``, ...); ``random_state``
        is ignored by the (deterministic) selections.

    Returns
    -------
    ReducedSetResult
        The reduced-set vectors, their coefficients and the errors.

    References
    ----------
    Schölkopf et al. (1999), Sec. V. Burges (1996).

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
