"""The runners of ``punto-banco`` for the tests: in this process (:func:`invoke`, the ``cli``
fixture of ``conftest.py``; a module that needs it outside a test imports it) and as a child
process (:func:`run_process`, for signals and pipes), and :func:`one_error_line`, the check that
a failed command printed one line."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner, Result

from analyzer.cli import main

ROOT = Path(__file__).resolve().parent.parent

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


def one_error_line(result: Result) -> str:
    """The single line a failed command printed (asserting there is exactly one, no traceback)."""
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output[-2000:]
    assert "Traceback" not in result.output
    return lines[0]


#: ``python -m analyzer`` with SIGINT, SIGTERM and SIGHUP at their defaults: the command keeps a
#: signal its parent ignores ignored (``nohup``), so a test run under nohup, or from a worker
#: that ignores one, must not hand that on to the command it signals.
_ANALYZER_WITH_DEFAULT_SIGNALS = (
    "import runpy, signal, sys\n"
    "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
    "for name in ('SIGTERM', 'SIGHUP'):\n"
    "    signal.signal(getattr(signal, name), signal.SIG_DFL)\n"
    "sys.argv[0] = 'punto-banco'\n"
    "runpy.run_module('analyzer', run_name='__main__', alter_sys=True)\n"
)


def run_process(*args: str, env: dict[str, str] | None = None, **popen: object) -> subprocess.Popen[bytes]:
    """``python -m analyzer ARGS`` as a child process (for signals and pipes), its signals at
    their defaults, in the repository's folder; standard output and error are pipes unless
    ``stdout`` / ``stderr`` say otherwise (the other ``popen`` arguments go to ``Popen``)."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.Popen([sys.executable, "-c", _ANALYZER_WITH_DEFAULT_SIGNALS, *args], cwd=ROOT,
                            env=full_env, stdout=popen.pop("stdout", subprocess.PIPE),
                            stderr=popen.pop("stderr", subprocess.PIPE), **popen)
