"""Pre-images for kernel methods: from kernel feature spaces back to input space.

The package's namespace holds the estimators, the pre-image solvers, the
settings, the model files and the warnings and errors of the library; each class
and function is documented in the subpackage that defines it.

The names below are imported at their first use (``preimage.KernelPCA``,
``from preimage import find_preimage``): ``import preimage`` itself loads
none of NumPy, SciPy or scikit-learn (``lazy_loader`` reads the names and
where they live from ``__init__.pyi``, which type checkers read too).
"""

import lazy_loader

from ._version import __version__

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
__all__ += ["__version__"]
