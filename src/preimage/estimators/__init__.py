"""Estimators with scikit-learn's interface: thin shells over the functions of the package.

Each estimator is a scikit-learn transformer, regressor or classifier
class whose ``__init__`` only stores its parameters and whose ``fit``
validates them and the data, then calls the functions on arrays of the
package: :mod:`preimage.kpca` and :mod:`preimage.nystroem` for kernel PCA
(:class:`KernelPCA`, :class:`KernelPCADenoiser`,
:class:`KernelPCADenoiserCV`), :mod:`preimage.solvers` for the pre-images,
:mod:`preimage.reduced_set` for the reduced sets (:class:`ReducedKernelPCA`,
:class:`ReducedSVC`, :class:`ReducedSVR`, and the functions
:func:`reduce_kernel_pca` and :func:`reduce_svm`), :mod:`preimage.kde` for kernel
dependency estimation (:class:`KernelDependencyEstimator`) and
:mod:`preimage.sparse_regression` for the sparse regressors
(:class:`SequentialSVR`, :class:`WienerRegressor`). The estimators follow
scikit-learn's conventions (parameters checked at ``fit``, fitted
attributes ending in ``_``) and pass its estimator checks. Every name is also
importable from :mod:`preimage` itself (``from preimage import KernelPCA``).
"""

from .._lazy import lazy_exports

# For static type checkers (any TYPE_CHECKING is true to them); at run time
# lazy_exports reads these imports and makes each at the name's first use.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._denoiser import KernelPCADenoiser
    from ._denoiser_cv import KernelPCADenoiserCV
    from ._kde import KernelDependencyEstimator
    from ._kernel_pca import KernelPCA
    from ._reduced_kpca import ReducedKernelPCA, reduce_kernel_pca
    from ._reduced_svm import ReducedSVC, ReducedSVR, reduce_svm
    from ._sparse_regression import SequentialSVR, WienerRegressor

__getattr__, __dir__ = lazy_exports(__name__, __file__)

__all__ = [
    "KernelDependencyEstimator",
    "KernelPCA",
    "KernelPCADenoiser",
    "KernelPCADenoiserCV",
    "ReducedKernelPCA",
    "ReducedSVC",
    "ReducedSVR",
    "SequentialSVR",
    "WienerRegressor",
    "reduce_kernel_pca",
    "reduce_svm",
]
