"""The command line: output, formats, exit codes, no partial files."""

import json
from fractions import Fraction

import click
import pytest
from click.testing import CliRunner

from analyzer.cli import main


@pytest.fixture()
def run():
    runner = CliRunner()

    def invoke(*args):
        return runner.invoke(main, list(args), catch_exceptions=False)

    return invoke


def test_every_command_has_help(run):
    assert isinstance(main, click.Group)
    for name in main.commands:
        result = run(name, "--help")
        assert result.exit_code == 0 and "Usage" in result.output, name
        assert main.commands[name].help, name


def test_analyze_default_prints_the_8_deck_tables(run):
    result = run("analyze")
    assert result.exit_code == 0
    assert "2,292,252,566,437,888" in result.output  # Banker count (RULES.md)
    assert "1.0579057842%" in result.output           # Banker house edge


def test_analyze_json_keeps_exact_values(run):
    result = run("analyze", "--decks", "6", "--table", "outcomes,bets", "--format", "json")
    doc = json.loads(result.output)
    rows = {r["event"]: r for r in doc["tables"][0]["rows"]}
    assert rows["Banker"]["count"] == 403_095_751_234_560  # RULES.md, 6 decks
    assert Fraction(rows["Tie"]["probability"]) == Fraction(83_552_962_932_288, 878_869_206_895_680)
    bets = {r["bet"]: r for r in doc["tables"][1]["rows"]}
    assert "sd_variance" in bets["Player"] and "/" in bets["Player"]["ev"]
    assert doc["meta"]["shoe"] == "6 decks (312 cards)"


@pytest.mark.parametrize("fmt, marker", [("markdown", "|"), ("csv", ","), ("latex", "\\toprule"),
                                         ("html", "<table>"), ("text", "----")])
def test_formats(run, fmt, marker):
    result = run("analyze", "--table", "all", "--format", fmt, "--digits", "4")
    assert result.exit_code == 0 and marker in result.output


def test_digits_round_exactly(run):
    # Banker probability 8954111587648/19524993263685 = 0.45859742262...
    out = run("analyze", "--table", "outcomes", "--digits", "3").output
    assert "0.459" in out


def test_short_shoe_reports_run_out(run):
    result = run("analyze", "--shoe", "A=4")
    assert "Shoe runs out" in result.output and "Permutations" not in result.output


def test_deal(run):
    result = run("deal", "2", "4", "3", "10", "6", "A")
    assert result.output.splitlines()[0] == "Player 2 3 6 (1), Banker 4 10 A (5): Banker wins"
    assert "Banker on 4 must draw when the Player's third card is 6" in result.output


@pytest.mark.parametrize("args, message", [
    (["analyze", "--decks", "0"], "0"),
    (["analyze", "--shoe", "8=2,K=-1"], "-1"),
    (["analyze", "--shoe", "8=2,Z=3"], "'Z'"),
    (["analyze", "--remove", "Kx"], "'Kx'"),
    (["analyze", "--decks", "1", "--remove", "Kh Kh"], "no Kh"),
    (["analyze", "--decks", "2", "--shoe", "A=9"], "not both"),
    (["analyze", "--table", "everything"], "everything"),
    (["analyze", "--format", "pdf"], "pdf"),
    (["deal", "2", "4", "3"], "at least 4"),
    (["deal", "2", "4", "3", "1"], "'1'"),
    (["bets", "--bet", "nope"], "nope"),
    (["bets", "--bet-file", "missing.toml"], "missing.toml"),
    (["bets", "--shoe", "A=8,K=8", "--bet", "perfect-pair"], "suits"),
])
def test_bad_input_is_one_line_exit_2(args, message):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output
    assert len([line for line in result.output.splitlines() if line.strip()]) <= 3


def test_no_partial_output_file(tmp_path):
    out = tmp_path / "table.md"
    result = CliRunner().invoke(main, ["analyze", "--shoe", "8=2,K=-1", "-o", str(out)])
    assert result.exit_code == 2 and not out.exists()
    assert list(tmp_path.iterdir()) == []
    ok = CliRunner().invoke(main, ["analyze", "--decks", "1", "-o", str(out)])
    assert ok.exit_code == 0 and "Outcomes: 1 deck" in out.read_text()


def test_bet_file_errors_name_file_bet_and_key(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[[bet]]\nname = "x"\n[[bet.pay]]\nwhen = { colour = "red" }\npays = 3\n')
    result = CliRunner().invoke(main, ["bets", "--bet-file", str(bad)])
    assert result.exit_code == 2
    assert "bad.toml" in result.output and "'x'" in result.output and "'colour'" in result.output


def test_python_dash_m(tmp_path):
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "analyzer", "deal", "9", "2", "K", "3"],
                          capture_output=True, text=True, check=True)
    assert "natural 9" in done.stdout
