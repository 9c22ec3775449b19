"""Figures for kernel PCA and pre-images (matplotlib, imported lazily).

matplotlib is imported by the first figure drawn, which says how to install
it when it is missing; the user's backend is never switched.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
