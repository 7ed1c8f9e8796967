"""Shared fixtures of the tests (the session-wide set-up, a private cache folder and the
hypothesis profile, is in the repository's ``conftest.py``).

Lanes: plain ``pytest`` runs the fast lane (``-m "not slow"`` in ``pyproject.toml``'s addopts),
``pytest -m slow`` the exhaustive rest.  A test moves from one lane to the other by adding or
removing its ``@pytest.mark.slow``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

# The brute-force reference and the other helper modules live beside the tests.
sys.path.insert(0, str(Path(__file__).parent))

from analyzer.cli import main  # noqa: E402

#: A command line run in-process: ``cli("analyze", "--decks", 1)`` -> ``click.testing.Result``.
Cli = Callable[..., Result]


def invoke(
    *args: object,
    env: dict[str, str | None] | None = None,
    input: str | bytes | None = None,
    catch_exceptions: bool = False,
) -> Result:
    """Run ``punto-banco ARGS`` in this process (each argument as ``str``).

    ``result.output`` holds standard output and error as a terminal shows them,
    ``result.stdout`` / ``result.stderr`` each stream alone.  An exception the command does not
    turn into an exit code propagates (``catch_exceptions=True`` turns it into exit code 1, as
    click's runner does by default).  ``env`` adds to (``None`` values remove from) the
    environment while the command runs; ``input`` is standard input."""
    return CliRunner().invoke(
        main,
        [str(a) for a in args],
        env=env,
        input=input,
        catch_exceptions=catch_exceptions,
        prog_name="punto-banco",
    )


@pytest.fixture(scope="session")
def cli() -> Cli:
    """``punto-banco`` in-process (:func:`invoke`): ``result = cli("bets", "--bet", "tie")``."""
    return invoke


@pytest.fixture(scope="session")
def session_cache() -> Path:
    """This test session's private cache folder of compiled tables (shared by its xdist workers;
    see the repository's ``conftest.py``)."""
    folder = os.environ.get("PUNTO_BANCO_CACHE_DIR")
    assert folder, "the session's conftest.py sets PUNTO_BANCO_CACHE_DIR"
    return Path(folder)
