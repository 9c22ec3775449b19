"""The command line: ``preimage demo``, ``fit``, ``denoise`` and ``info``.

``preimage --help`` lists the commands and ``preimage COMMAND --help`` their
options; :func:`main` is the entry point.
"""

from preimage.cli._main import main

__all__ = ["main"]
