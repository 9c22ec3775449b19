"""Data sets for pre-image experiments.

Synthetic sets of the pre-image literature, handwritten digits scaled to
[0, 1], and the noise models that corrupt them.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
