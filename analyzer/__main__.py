"""``python -m analyzer``: the same as the ``punto-banco`` command."""

from analyzer.cli import main

main()
