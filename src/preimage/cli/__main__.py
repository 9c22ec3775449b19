"""``python -m preimage.cli``: the command line, as the ``preimage`` command runs it."""

from preimage.cli._main import main

main()
