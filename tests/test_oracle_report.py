"""A failed ``analyzer.testing`` assertion reads as a few lines naming the rule broken.

The oracle's own frames are hidden from pytest (``__tracebackhide__``): a failure shows the
caller's line and the message, not the oracle's source and docstrings (about 119 lines before).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

FAILING = textwrap.dedent(
    """
    from analyzer.testing import assert_coup, assert_payout


    def test_banker_draw():
        assert_coup("2 K 3 3 8 4", banker="K 3 4")


    def test_banker_pay():
        assert_payout("banker", "3 6 4 2", 10, "10")
    """
)


def _report(tmp_path: Path) -> str:
    (tmp_path / "test_engine.py").write_text(FAILING, encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "test_engine.py"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert out.returncode == 1, out.stdout + out.stderr
    return out.stdout


def _section(report: str, name: str) -> list[str]:
    """The lines of one test's failure section (from its ``___ name ___`` banner to the next)."""
    lines = report.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip("_ ") == name)
    end = next(
        (i for i in range(start + 1, len(lines)) if lines[i].startswith(("___", "===="))),
        len(lines),
    )
    return lines[start:end]


def test_a_failed_assertion_is_short_and_names_the_rule(tmp_path):
    report = _report(tmp_path)
    coup = _section(report, "test_banker_draw")
    pay = _section(report, "test_banker_pay")
    for section in (coup, pay):
        assert len(section) <= 12, "\n".join(section)
        text = "\n".join(section)
        assert "def assert_" not in text and "Raises:" not in text  # no oracle source or docstring
        assert "oracle.py" not in text
    assert any("Banker on 3 must stand when the Player's third card is 8" in line for line in coup)
    assert any("pays 19/20 per unit staked" in line for line in pay)
    # The caller's line is what points at the failure.
    assert any('assert_coup("2 K 3 3 8 4", banker="K 3 4")' in line for line in coup)
