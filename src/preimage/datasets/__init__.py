"""Data sets for pre-image experiments.

Synthetic sets from the pre-image literature (Mika et al. 1999; Schölkopf et
al. 1999; Bakır et al. 2004; Honeine & Richard 2011; Vijayakumar & Wu 1999),
real handwritten digits scaled to [0, 1], each with its class label, and the
noise models used to corrupt them.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
