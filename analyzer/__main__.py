"""``python -m analyzer`` and the ``punto-banco`` command: the command line, loaded so that a
Ctrl-C while it loads ends as one during a command does (one line, exit code 130), not with a
traceback from inside an import."""

from __future__ import annotations

import sys

#: 128 + SIGINT, as :data:`analyzer.cli.process.EXIT_INTERRUPTED` (not imported: it loads click).
EXIT_INTERRUPTED = 130


def main() -> None:
    """Load the command line and run it (:func:`analyzer.cli.main`).

    Raises:
        SystemExit: always, with the command's exit code (130 when interrupted while loading).
    """
    try:
        from analyzer.cli import main as command_line  # lazy: a Ctrl-C in its imports is caught here

        command_line()
    except KeyboardInterrupt:  # before the command line handles signals itself
        try:
            sys.stderr.write("interrupted\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
        raise SystemExit(EXIT_INTERRUPTED) from None


if __name__ == "__main__":
    main()
