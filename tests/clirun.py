"""The one in-process runner of ``punto-banco`` for the tests (the ``cli`` fixture of
``conftest.py``; a module that needs it outside a test imports :func:`invoke`)."""

from __future__ import annotations

from collections.abc import Callable

from click.testing import CliRunner, Result

from analyzer.cli import main

#: A command line run in-process: ``cli("analyze", "--decks", 1)`` -> ``click.testing.Result``.
Cli = Callable[..., Result]


def invoke(
    *args: object,
    env: dict[str, str | None] | None = None,
    input: str | bytes | None = None,
    catch_exceptions: bool = False,
) -> Result:
    """Run ``punto-banco ARGS`` in this process (each argument as ``str``), as a user would type
    it (``prog_name`` is ``punto-banco``).

    ``result.output`` holds standard output and error as a terminal shows them;
    ``result.stdout`` and ``result.stderr`` each stream alone.  An exception the command does not
    turn into an exit code propagates, so a crash fails the test with its traceback
    (``catch_exceptions=True``: exit code 1, as click's runner does by default).  ``env`` adds
    to (``None`` values remove from) the environment while the command runs; ``input`` is
    standard input."""
    return CliRunner().invoke(
        main,
        [str(a) for a in args],
        env=env,
        input=input,
        catch_exceptions=catch_exceptions,
        prog_name="punto-banco",
    )
