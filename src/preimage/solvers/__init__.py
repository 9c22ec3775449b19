"""Pre-image methods: from feature-space expansions back to input space.

Every method is a solver with one interface (:class:`PreimageSolver`: fit on
what it needs, solve expansions from optional starts, and solve kernel PCA
coordinates, by a fast path where one exists), registered once in
:data:`PREIMAGE_METHODS`. What a method needs is said by its solver's
class attributes, which :func:`make_solver` reads: :func:`find_preimage` and
every estimator dispatch on ``method=`` through it. The algorithms themselves
are functions or small classes in modules of their own, named for the method.
The names are imported at their first use; :data:`PREIMAGE_METHODS` knows
its names without importing the solvers.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
