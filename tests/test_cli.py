"""The command line: output, formats, exit codes, no partial files; its options (numbers in ASCII
digits only, a single-value option given twice, ``--remove``, ``bets --list``) refused in one
line."""

import json
from fractions import Fraction
from pathlib import Path

import click
import pytest
from clirun import one_error_line

from analyzer.cli import all_commands, main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def test_every_command_has_help(cli):
    assert isinstance(main, click.Group)
    for name in all_commands():
        result = cli(name, "--help")
        assert result.exit_code == 0 and "Usage" in result.output, name
        assert all_commands()[name].help, name


def test_analyze_default_prints_the_8_deck_tables(cli):
    result = cli("analyze")
    assert result.exit_code == 0
    assert "2,292,252,566,437,888" in result.output  # Banker count (RULES.md)
    assert "1.0579057842%" in result.output           # Banker house edge


def test_analyze_json_keeps_exact_values(cli):
    result = cli("analyze", "--decks", "6", "--table", "outcomes,bets", "--format", "json")
    doc = json.loads(result.output)
    rows = {r["event"]: r for r in doc["tables"][0]["rows"]}
    assert rows["Banker"]["count"] == 403_095_751_234_560  # RULES.md, 6 decks
    assert Fraction(rows["Tie"]["probability"]) == Fraction(83_552_962_932_288, 878_869_206_895_680)
    bets = {r["bet"]: r for r in doc["tables"][1]["rows"]}
    assert "sd_squared" in bets["Player"] and "/" in bets["Player"]["ev"]
    assert doc["meta"]["shoe"] == "6 decks (312 cards)"


@pytest.mark.parametrize("fmt, marker", [("markdown", "|"), ("csv", ","), ("latex", "\\toprule"),
                                         ("html", "<table>"), ("text", "----")])
def test_formats(cli, fmt, marker):
    result = cli("analyze", "--table", "all", "--format", fmt, "--digits", "4")
    assert result.exit_code == 0 and marker in result.output


def test_digits_round_exactly(cli):
    # Banker probability 8954111587648/19524993263685 = 0.45859742262...
    out = cli("analyze", "--table", "outcomes", "--digits", "3").output
    assert "0.459" in out


def test_short_shoe_reports_run_out(cli):
    result = cli("analyze", "--shoe", "A=4")
    assert "Shoe runs out" in result.output and "Permutations" not in result.output


def test_deal(cli):
    result = cli("deal", "2", "4", "3", "10", "6", "A")
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
def test_bad_input_is_one_line_exit_2(cli, args, message):
    result = cli(*args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output
    assert len([line for line in result.output.splitlines() if line.strip()]) <= 3


def test_no_partial_output_file(cli, tmp_path):
    out = tmp_path / "table.md"
    result = cli("analyze", "--shoe", "8=2,K=-1", "-o", str(out))
    assert result.exit_code == 2 and not out.exists()
    assert list(tmp_path.iterdir()) == []
    ok = cli("analyze", "--decks", "1", "-o", str(out))
    assert ok.exit_code == 0 and "Outcomes: 1 deck" in out.read_text()


def test_bet_file_errors_name_file_bet_and_key(cli, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[[bet]]\nname = "x"\n[[bet.pay]]\nwhen = { colour = "red" }\npays = 3\n')
    result = cli("bets", "--bet-file", str(bad))
    assert result.exit_code == 2
    assert "bad.toml" in result.output and "'x'" in result.output and "'colour'" in result.output


def test_python_dash_m(tmp_path):
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "analyzer", "deal", "9", "2", "K", "3"],
                          capture_output=True, text=True, check=True)
    assert "natural 9" in done.stdout


# -- a single-value option given twice (issue 13, item 2) --------------------------------------


def _single_value_options():
    for name, command in sorted(all_commands().items()):
        for param in command.params:
            if isinstance(param, click.Option) and not (param.multiple or param.count or param.is_eager):
                yield name, param


@pytest.mark.parametrize(
    "name, param", list(_single_value_options()), ids=lambda x: x if isinstance(x, str) else x.name
)
def test_every_single_value_option_given_twice_is_an_error(cli, name, param):
    """Every command, every option that keeps one value: the second would silently replace the
    first, so it is refused in one line naming the option, exit code 2 (checked before the
    values are read: any value will do)."""
    first = param.opts[-1]
    args = [first, (param.secondary_opts or [first])[0]] if param.is_flag else [first, "1", first, "2"]
    result = cli(name, *args)
    assert result.exit_code == 2, (name, args, result.output)
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "given twice" in lines[0], result.output
    assert all(opt in lines[0] for opt in param.opts), lines[0]


@pytest.mark.parametrize("args, named", [
    (["analyze", "--decks=8", "--decks", "6"], "--decks"),
    (["analyze", "-o", "a.md", "-ob.md"], "-o/--output"),
    (["analyze", "--format", "csv", "--format=json"], "--format"),
    (["bets", "--rules", "standard", "--bet", "tie", "--rules", "standard"], "--rules"),
    (["analyze", "--shoe", "A=8", "--shoe", "A=9"], "--shoe"),
    (["analyze", "--remove", "5", "--remove", "9"], "--remove"),
    (["verify", "log.csv", "--progress", "--no-progress"], "--progress/--no-progress"),
    (["study", "--decks", "8", "--decks", "6"], "--decks"),
    (["--debug", "--debug", "analyze"], "--debug"),
])
def test_option_given_twice_in_any_spelling(cli, args, named):
    result = cli(*args)
    assert result.exit_code == 2, result.output
    assert f"option {named} is given twice" in result.output
    assert len([line for line in result.output.splitlines() if line.strip()]) == 1


def test_repeatable_options_stay_repeatable(cli):
    result = cli("bets", "--bet", "banker", "--bet", "tie:9", "--format", "json")
    assert result.exit_code == 0
    assert len(json.loads(result.output)["tables"][0]["rows"]) == 2
    assert cli("deal", "2", "4", "3", "10", "6", "A", "--bet", "banker", "--bet", "player").exit_code == 0


def test_remove_counts_on_the_command_line(cli):
    """--remove 5=20,9=10 is the shoe --shoe names with those counts taken off."""
    counts = ["32"] * 13
    counts[4], counts[8] = "12", "22"
    by_remove = cli("analyze", "--remove", "5=20,9=10", "--table", "outcomes", "--format", "json").output
    by_shoe = cli("analyze", "--shoe", ",".join(counts), "--table", "outcomes", "--format", "json").output
    assert json.loads(by_remove)["tables"] == json.loads(by_shoe)["tables"]
    assert cli("analyze", "--remove", "5,5,9", "--table", "outcomes").exit_code == 0  # the old form


@pytest.mark.parametrize("remove, words", [
    ("5=0", "removes no card"),
    ("5=40", "cannot remove 40 of 5"),
    ("K 5=2", "not both"),
    ("5=2,5=1", "twice"),
])
def test_bad_remove_counts_are_one_line_exit_2(cli, remove, words):
    result = cli("analyze", "--remove", remove)
    assert result.exit_code == 2 and words in result.output, result.output
    assert len([line for line in result.output.splitlines() if line.strip()]) == 1


@pytest.mark.parametrize("args, line", [
    (["analyze", "--decks", "2", "--shoe", "A=9"], "Error: give --decks or --shoe, not both"),
    (["bets", "--decks", "1,6", "--shoe", "A=9"], "Error: give --decks or --shoe, not both"),
    (["analyze", "--decks", "1-3", "--remove", "K"],
     "Error: --remove takes cards out of one shoe: give one --decks value with it"),
    (["eor", "--bet", "tie", "--remove", " , "],
     "Error: --remove ' , ' names no card: give the cards to take out, e.g. --remove 'K 5h'"),
    (["peek", "--remove", "5=0"],
     "Error: --remove '5=0' removes no card: give a count above 0, e.g. --remove 5=20"),
    (["bets", "--remove", ",", "--rules", "nonesuch"],  # the shoe is read first, as it always was
     "Error: --remove ',' names no card: give the cards to take out, e.g. --remove 'K 5h'"),
    (["mutants", "--log", "no-commission", "--remove", ","],
     "Error: --remove ',' names no card: give the cards to take out, e.g. --remove 'K 5h'"),
])
def test_every_command_reads_its_shoe_with_the_same_one_line_errors(cli, args, line):
    # one reader of shoes for every command (analyzer.core.inputs), its messages naming options
    result = cli(*args)
    assert result.exit_code == 2 and result.output.strip().splitlines() == [line], result.output


def test_every_command_is_loaded_lazily_from_its_module():
    # analyzer.cli.COMMANDS maps each command to the module that defines it, so a command's
    # module is imported only when it runs; the map must name every command of every module
    import importlib

    import click

    from analyzer.cli import COMMAND_MODULES, COMMANDS

    found = {}
    for name in COMMAND_MODULES:
        module = importlib.import_module(f"analyzer.cli.{name}")
        for value in vars(module).values():
            callback = getattr(getattr(value, "callback", None), "__module__", "")
            if isinstance(value, click.Command) and callback == module.__name__:
                found[value.name] = name
    assert found == COMMANDS


def test_a_command_loads_only_its_own_module():
    import subprocess
    import sys

    code = ("import sys; from analyzer.cli import main; "
            "main(['rules', '--list'], standalone_mode=False); "
            "print(sorted(m for m in sys.modules if m.startswith('analyzer.cli.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = done.stdout.strip().splitlines()[-1]
    assert "shoe_commands" in loaded and "study_commands" not in loaded and "web_commands" not in loaded


def test_usage_errors_are_one_line(cli):
    for args in (
        ["analyze", "--decks", "0"],
        ["analyze", "--format", "JSON"],
        ["deal"],
        ["analyze", "--digits", "-1"],
    ):
        result = cli(*args)
        lines = [line for line in result.output.splitlines() if line.strip()]
        assert result.exit_code == 2 and len(lines) == 1 and lines[0].startswith("Error:"), args


@pytest.mark.parametrize("command", ["analyze", "bets", "eor", "conform", "verify"])
def test_every_command_that_writes_csv_takes_raw_csv(cli, command):
    text = cli(command, "--help").output
    assert "--raw-csv" in text


@pytest.mark.parametrize("args", [
    ("analyze", "--decks", "８"), ("analyze", "--decks", "1_000"), ("analyze", "--decks", "٨"),
    ("analyze", "--digits", "４"), ("verify", "examples/hands.csv", "--max-report", "1_0"),
    ("eor", "--depth", "２"), ("eor", "--max-tag", "3_0"), ("bets", "--decks", "+8"),
])
def test_every_number_option_takes_ascii_digits_only(cli, args, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = cli(*args)
    assert result.exit_code == 2
    assert "digits 0-9" in one_error_line(result)


def test_decks_and_shoe_read_numbers_alike(cli):
    assert cli("analyze", "--table", "outcomes", "--decks", "1").output.count("52 cards") >= 1
    for bad in ("８", "1_0"):
        assert cli("analyze", "--shoe", f"A={bad}").exit_code == cli("analyze", "--decks", bad).exit_code == 2


@pytest.mark.parametrize("remove", [" ", ",", " , ", ""])
def test_removing_nothing_is_an_error(cli, remove):
    for command in (("analyze",), ("conform", str(EXAMPLES / "observed.json"))):
        result = cli(*command, "--remove", remove)
        assert result.exit_code == 2
        assert "--remove" in one_error_line(result)


def test_list_with_bets_is_a_usage_error(cli):
    assert cli("bets", "--list").exit_code == 0
    for extra in (("--bet", "nosuch"), ("--bet", "banker"), ("--all",), ("--bet-file", "x.toml")):
        result = cli("bets", "--list", *extra)
        assert result.exit_code == 2
        assert "--list" in one_error_line(result)


@pytest.mark.parametrize("args, words", [
    (("--pays", "30,ten"), "bad pay in --pays 'ten'"),
    (("--pays", "0"), "winning pays only"),
    (("--pays", ""), "empty --pays"),
    (("--pays", "9", "--bet", "tie"), "--pays chooses the bets by their pays and takes no --bet"),
    (("--pays", "9", "--all", "--fair-pay"), "takes no --all, --fair-pay"),
    (("--with-params",), "--with-params widens a search by pays"),
    (("--list", "--pays", "9"), "--list prints the catalogue and takes no --pays"),
])
def test_bets_pays_refuses_bad_input_in_one_line(cli, args, words, tmp_path):
    target = tmp_path / "out.json"
    result = cli("bets", *args, "-o", str(target))
    assert result.exit_code == 2
    assert words in one_error_line(result)
    assert not target.exists()
