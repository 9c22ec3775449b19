r"""Reduced sets: approximate kernel expansions by fewer vectors.

An expansion :math:`\Psi = \sum_{i=1}^n \alpha_i \phi(x_i)`, such as the
weight vector of a kernel SVM or a kernel PCA axis, costs n kernel values at
every point it is evaluated. A reduced set replaces it by
:math:`\Psi' = \sum_{j=1}^p \beta_j \phi(z_j)` with :math:`p \ll n`,
minimising :math:`\|\Psi - \Psi'\|^2` (Schölkopf et al. 1999, Sec. V; Burges
1996): by selection among the expansion's own points, or by construction of
new ones as pre-images.

Beside the methods (:data:`REDUCED_SET_METHODS`, one entry point
:func:`reduce_expansion`) sit what reads the expansions out of trained models
(:func:`svm_expansion` for scikit-learn's SVMs, :func:`kernel_pca_expansion`
for kernel PCA) and the decisions of reduced machines: thresholds recomputed
on the training set and one-vs-one votes. The scikit-learn estimators that
hold a reduced model are in :mod:`preimage.estimators`.
"""

from .._lazy import lazy_exports

# For static type checkers (any TYPE_CHECKING is true to them); at run time
# lazy_exports reads these imports and makes each at the name's first use.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._coefficients import approximation_error, optimal_coefficients
    from ._construction import construct
    from ._kernel_pca import kernel_pca_expansion
    from ._registry import REDUCED_SET_METHODS, reduce_expansion
    from ._result import ReducedSetResult
    from ._selection import select_kpca, select_l1
    from ._sklearn_svm import SVMExpansion, kernel_from_sklearn, svm_expansion, svm_kernel
    from ._thresholds import classification_threshold, epsilon_insensitive_threshold
    from ._votes import ovo_to_ovr_decision, ovo_votes

__getattr__, __dir__ = lazy_exports(__name__, __file__)

__all__ = [
    "REDUCED_SET_METHODS",
    "ReducedSetResult",
    "SVMExpansion",
    "approximation_error",
    "classification_threshold",
    "construct",
    "epsilon_insensitive_threshold",
    "kernel_from_sklearn",
    "kernel_pca_expansion",
    "optimal_coefficients",
    "ovo_to_ovr_decision",
    "ovo_votes",
    "reduce_expansion",
    "select_kpca",
    "select_l1",
    "svm_expansion",
    "svm_kernel",
]
