"""No output overwrites an input, whichever option named it: a rules file (--rules, --against,
--compare) and the FILE of --bet FILE:NAME in every command that writes (issue 9, item 6)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.mark.parametrize(
    "command",
    [
        ["analyze", "--rules", "{rules}"],
        ["bets", "--bet", "tie", "--rules", "{rules}"],
        ["eor", "--decks", "1", "--rules", "{rules}"],
        ["symbolic", "--bet", "tie", "--table", "none", "--rules", "{rules}"],
        ["verify", str(EXAMPLES / "hands.csv"), "--rules", "{rules}"],
        ["conform", str(EXAMPLES / "observed.json"), "--family", "winner", "--against", "{rules}"],
        [
            "conform",
            str(EXAMPLES / "hands-banker-draws-on-6-against-5.jsonl"),
            "--family",
            "winner",
            "--compare",
            "standard,{rules}",
        ],
        ["study", "--bet", "dragon-7", "--shoes", "5", "--rules", "{rules}"],
        ["report", "--bet", "tie", "--decks", "1", "--rules", "{rules}"],
    ],
)
def test_an_output_onto_the_rules_file_is_refused(cli, tmp_path, command):
    rules = tmp_path / "mine.toml"
    shutil.copy(EXAMPLES / "rules" / "banker-stands-on-6.toml", rules)
    before = rules.read_bytes()
    args = [a.replace("{rules}", str(rules)) for a in command]
    result = cli(*args, "-o", str(rules))
    assert result.exit_code == 2, result.output
    assert "refusing to write" in result.output
    assert rules.read_bytes() == before


def test_a_report_onto_the_file_of_its_bet_is_refused(cli, tmp_path):
    bets = tmp_path / "mine.toml"
    shutil.copy(EXAMPLES / "bets.toml", bets)
    before = bets.read_bytes()
    result = cli("report", "--bet", f"{bets}:natural-tie", "--decks", "1", "-o", str(bets))
    assert result.exit_code == 2 and "refusing to write" in result.output
    assert bets.read_bytes() == before


def test_a_refused_cache_folder_is_one_warning_line(tmp_path):
    import os
    import subprocess
    import sys

    folder = tmp_path / "shared"
    folder.mkdir()
    folder.chmod(0o777)
    env = {**os.environ, "PUNTO_BANCO_CACHE_DIR": str(folder), "PUNTO_BANCO_SHIPPED_TABLES": "off"}
    done = subprocess.run(
        [sys.executable, "-m", "analyzer", "analyze", "--table", "outcomes"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("warning: not using the table cache folder"), done.stderr


def test_a_malformed_scheduler_address_is_bad_input(cli):
    result = cli("study", "--bet", "dragon-7", "--shoes", "5", "--scheduler", "bogus")
    assert result.exit_code == 2 and "cannot reach the Dask scheduler" in result.output
