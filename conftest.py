"""What every test session shares, whatever it collects (tests, doctests, the README).

* **A private cache folder per session.**  The disk cache of compiled tables
  (``PUNTO_BANCO_CACHE_DIR``) points at a new temporary folder: a run never reads a table that
  another checkout or an earlier run left in the user's cache, and never leaves one there.  The
  session that starts first (a plain run, or the pytest-xdist controller) makes the folder; the
  xdist workers it starts inherit the environment, so they share it (the cache writes
  atomically) and a table one worker compiled is loaded by the other.  The session that made
  the folder removes it when it ends and restores the variable.
* **The web service's modules left out of the doctests** where the web extra is not installed
  (the tests of an extra skip with the reason: ``tests/extras.py``).
* **A hypothesis profile for loaded machines**: no per-example deadline and no "too slow"
  health check, which fail a correct test when other work shares the CPU.

The shared fixtures of the tests live in ``tests/conftest.py``.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import tempfile

import pytest
from hypothesis import HealthCheck, settings

CACHE_ENV = "PUNTO_BANCO_CACHE_DIR"
#: Set by the session that made the private cache folder; a worker seeing it reuses the folder.
SESSION_CACHE = "PUNTO_BANCO_TEST_SESSION_CACHE"
#: (folder, the variable's value before) of the session that made the folder.
_MADE: list[tuple[str, str | None]] = []

def _web_extra_missing() -> bool:
    try:
        return any(importlib.util.find_spec(m) is None for m in ("fastapi", "uvicorn", "httptools"))
    except ImportError:
        return True


#: Without the web extra the service's modules cannot be imported for their doctests; their tests
#: skip with the reason (tests/extras.py).
collect_ignore_glob = ["analyzer/web/*.py"] if _web_extra_missing() else []

settings.register_profile("punto-banco", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("punto-banco")


def pytest_configure(config: pytest.Config) -> None:
    if os.environ.get(SESSION_CACHE):
        return  # an xdist worker: the controller's folder, inherited
    folder = tempfile.mkdtemp(prefix="punto-banco-test-cache-")
    _MADE.append((folder, os.environ.get(CACHE_ENV)))
    os.environ[SESSION_CACHE] = os.environ[CACHE_ENV] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    while _MADE:
        folder, before = _MADE.pop()
        shutil.rmtree(folder, ignore_errors=True)
        os.environ.pop(SESSION_CACHE, None)
        if before is None:
            os.environ.pop(CACHE_ENV, None)
        else:
            os.environ[CACHE_ENV] = before
