"""The code stays ruff- and mypy --strict-clean (the project's standard), checked in CI."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tool(name: str) -> list[str]:
    if shutil.which(name) is None and not (Path(sys.executable).parent / name).exists():
        pytest.skip(f"{name} is not installed (pip install '.[test]')")
    exe = Path(sys.executable).parent / name
    return [str(exe) if exe.exists() else name]


def test_ruff():
    done = subprocess.run(
        [*_tool("ruff"), "check", "analyzer", "tests", "benchmarks"], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout[-3000:]


@pytest.mark.slow
def test_mypy_strict():
    done = subprocess.run([*_tool("mypy"), "--strict", "analyzer"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:]
