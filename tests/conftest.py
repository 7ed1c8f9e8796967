"""Shared fixtures of the tests (the session-wide set-up, a private cache folder and the
hypothesis profile, is in the repository's ``conftest.py``).

Lanes: plain ``pytest`` runs the fast lane (``-m "not slow"`` in ``pyproject.toml``'s addopts),
``pytest -m slow`` the exhaustive rest.  A test moves from one lane to the other by adding or
removing its ``@pytest.mark.slow``.

Files: the tests of a module or command are in ``test_<module>.py``, or, for a module tested
through another, in the files ``test_layout.TESTED_IN`` names (``test_layout.py`` holds every module
to one or the other); helpers that several files use are fixtures here or modules beside the
tests (``clirun.py``, ``bruteforce.py``, ``extras.py``, ...).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

# The brute-force reference and the other helper modules live beside the tests.
sys.path.insert(0, str(Path(__file__).parent))

from clirun import Cli, invoke
from extras import missing


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Skip, with the reason, a test marked ``extra(...)`` whose extra is not installed
    (:mod:`extras`)."""
    for mark in item.iter_markers("extra"):
        reason = missing(*mark.args)
        if reason:
            pytest.skip(reason)


@pytest.fixture(scope="session")
def cli() -> Cli:
    """``punto-banco`` in-process (:func:`clirun.invoke`): ``result = cli("bets", "--bet", "tie")``;
    ``result.output`` is what a terminal shows, ``result.stdout`` standard output alone."""
    return invoke


@pytest.fixture(scope="session")
def session_cache() -> Path:
    """This test session's private cache folder of compiled tables (shared by its xdist workers;
    see the repository's ``conftest.py``)."""
    folder = os.environ.get("PUNTO_BANCO_CACHE_DIR")
    assert folder, "the session's conftest.py sets PUNTO_BANCO_CACHE_DIR"
    return Path(folder)


@pytest.fixture
def kernel(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], None]]:
    """``kernel(setting)``: switch the compiled kernel (``PUNTO_BANCO_KERNEL``: ``on``, required;
    ``off``) for what follows, pricing included, and forget the shoes evaluated so far, so that
    the next pricing evaluates again; the session's setting comes back after the test."""
    from analyzer.engine import evaluate, native

    before = os.environ.get(native.ENV)

    def use(setting: str) -> None:
        monkeypatch.setenv(native.ENV, setting)
        native.reset()
        evaluate._SHOES.clear()
        evaluate._LAST.clear()

    yield use
    if before is None:
        os.environ.pop(native.ENV, None)
    else:
        os.environ[native.ENV] = before
    native.reset()
    evaluate._SHOES.clear()
    evaluate._LAST.clear()
