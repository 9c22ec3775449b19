"""``python -m preimage.cli``: the command line, as the ``preimage`` command runs it."""

from preimage.cli._main import main

if __name__ == "__main__":
    main()
