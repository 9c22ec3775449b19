"""scikit-learn estimators: thin shells over the functions of the package."""

from ._kernel_pca import KernelPCA

__all__ = ["KernelPCA"]
