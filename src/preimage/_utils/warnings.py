"""Warnings that point at the user's line, however deep in the library they arise."""

import sys
import warnings

#: Packages whose frames stand between the user and the library: this one,
#: and scikit-learn, whose ``fit`` wrappers call the estimators' ``fit``.
_LIBRARY_PACKAGES = ("preimage", "sklearn")


def warn(message, category):
    """:func:`warnings.warn` attributed to the first frame outside the library (whatever
    the call path, where a fixed ``stacklevel`` fits one only)."""
    frame, level = sys._getframe(1), 1
    while frame is not None and _in_library(frame):
        frame = frame.f_back
        level += 1
    warnings.warn(message, category, stacklevel=level + 1)


def _in_library(frame):
    module = frame.f_globals.get("__name__") or ""
    return module.split(".", 1)[0] in _LIBRARY_PACKAGES
