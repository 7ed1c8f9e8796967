"""The one reader of hand logs and count files (``analyzer.checks.logs``), shared by verify, conform,
the oracle and the closed forms: no helper copied between them, one behaviour for each thing;
reads bounded in line length and file size (by option or environment), standard input too."""

from __future__ import annotations

import ast
import io
from collections import defaultdict
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from clirun import one_error_line
from deadline import deadline

from analyzer.checks import logs
from analyzer.core.coup import Winner
from analyzer.errors import LogError, ObservedError

ROOT = Path(__file__).resolve().parent.parent
CHECKING_MODULES = [*sorted((ROOT / "analyzer" / "checks").glob("*.py")),
                    ROOT / "analyzer" / "studies" / "symbolic.py"]


def test_no_helper_is_defined_in_two_checking_modules():
    where: dict[str, list[str]] = defaultdict(list)
    for path in CHECKING_MODULES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:  # module level: functions, classes and constants of the module
            if isinstance(node, ast.FunctionDef | ast.ClassDef):
                where[node.name].append(path.name)
    copies = {name: files for name, files in where.items() if len(files) > 1}
    assert copies == {}


@pytest.mark.parametrize("module", ["verify", "conform", "oracle"])
def test_the_checking_modules_use_the_shared_reader(module):
    text = (ROOT / "analyzer" / "checks" / f"{module}.py").read_text(encoding="utf-8")
    assert "from analyzer.checks.logs import" in text


def test_show_cuts_long_values_and_never_prints_a_huge_number():
    assert logs.show("x" * 100) == repr("x" * 100)[:37] + "..."
    assert logs.show(10**500).startswith("<a whole number of about 501 digits")
    assert logs.show(Fraction(10**500, 3)) == "<a fraction with terms of more than 40 digits>"
    assert logs.show(Decimal("1.5")) == "1.5"
    assert logs.show("\x1b[2J\ud800") == repr("\x1b[2J\ud800")


def test_json_loads_rejects_repeated_keys_in_the_callers_error():
    with pytest.raises(LogError, match="line 3: the key 'a' is given twice"):
        logs.json_loads('{"a": 1, "a": 2}', LogError, line=3)
    with pytest.raises(ObservedError, match="the key 'a' is given twice"):
        logs.json_loads('{"a": 1, "a": 2}', ObservedError)
    assert logs.json_loads('{"n": 1.50, "k": 7}', LogError, line=1) == {"n": Decimal("1.50"), "k": 7}
    with pytest.raises(ObservedError, match="line 2: not JSON"):
        logs.json_loads('{\n"a": }', ObservedError)


@pytest.mark.parametrize(("text", "winner"), [
    ("Banker", Winner.BANKER), (" b ", Winner.BANKER), ("banco", Winner.BANKER), ("punto", Winner.PLAYER),
    ("P", Winner.PLAYER), ("tie", Winner.TIE), ("égalité", Winner.TIE), ("egalite", Winner.TIE),
    ("standoff", Winner.TIE), (Winner.TIE, Winner.TIE), ("nobody", None), (3, None),
])
def test_one_table_of_winner_names(text, winner):
    assert logs.winner_of(text) is winner


@pytest.mark.parametrize(("value", "signed", "expected"), [
    ("12", False, 12), (" 7 ", False, 7), (0, False, 0), ("-1", True, -1), ("+3", True, 3),
    ("-1", False, None), ("８", False, None), ("1_000", False, None), ("1.0", False, None),
    ("", False, None), (True, False, None), (-2, False, None), ("9" * 81, False, None),
    (10**400, False, None), (Decimal(3), False, None),
])
def test_whole_numbers_are_ascii_digits_only(value, signed, expected):
    assert logs.whole_number(value, signed=signed) == expected


def test_lines_are_counted_bom_stripped_and_bounded():
    lines = list(logs.text_lines(io.StringIO("\ufeffa,b\n1,2\n"), LogError))
    assert lines == ["a,b\n", "1,2\n"]
    with pytest.raises(LogError, match=r"x\.csv: line 2 is longer than the limit of 10 characters"):
        list(logs.text_lines(io.StringIO("short\n" + "y" * 11 + "\n"), LogError, name="x.csv", max_line=10))
    # exactly at the limit is fine, whatever the line ending
    assert len(list(logs.text_lines(io.StringIO("y" * 10 + "\r\n" + "z" * 10), LogError, max_line=10))) == 2


def test_csv_rows_carry_the_line_they_start_on():
    rows = list(logs.csv_rows(io.StringIO('a,b\n"x\ny",2\n\n3,4\n', newline=""), LogError))
    assert rows == [(1, ["a", "b"]), (2, ["x\ny", "2"]), (4, []), (5, ["3", "4"])]


def test_read_bounded_refuses_a_large_file(tmp_path):
    big = tmp_path / "big.json"
    big.write_text("{}" + " " * 100)
    with pytest.raises(ObservedError, match=r"big\.json: larger than the limit of 50 bytes"):
        logs.read_bounded(big, ObservedError, max_bytes=50)
    small = tmp_path / "small.json"
    small.write_bytes(b"\xef\xbb\xbf{}")
    assert logs.read_bounded(small, ObservedError) == "{}"


# -- bounded reads through the commands ----------------------------------------------------------


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
def test_verify_and_conform_stop_on_an_endless_line(cli, zero_links, args):
    args = tuple(str(zero_links.get(a, a)) for a in args)
    with deadline(20):
        result = cli(*args)
    line = one_error_line(result)
    assert result.exit_code == 2
    assert args[1] in line and "longer than the limit of 1,000,000 characters" in line


def test_conform_stops_on_an_endless_counts_file(cli, zero_links):
    with deadline(20):
        result = cli("conform", str(zero_links["zero.json"]))
    line = one_error_line(result)
    assert result.exit_code == 2
    assert "zero.json" in line and "larger than the limit of 1,000,000 bytes" in line


@pytest.mark.slow
def test_the_limits_are_adjustable_by_option_and_environment(cli, tmp_path):
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


def test_the_limits_are_documented_in_help(cli):
    for command in ("verify", "conform"):
        text = cli(command, "--help").output
        assert "--max-line-length" in text and "PUNTO_BANCO_MAX_LINE_LENGTH" in text
    assert "PUNTO_BANCO_MAX_FILE_SIZE" in cli("conform", "--help").output
    manual = (ROOT / "docs" / "output.md").read_text(encoding="utf-8")
    for name in ("PUNTO_BANCO_MAX_LINE_LENGTH", "PUNTO_BANCO_MAX_FILE_SIZE", "--max-line-length"):
        assert name in manual


def test_reading_stdin_is_bounded_too(cli):
    result = cli("verify", "-", "--log-format", "jsonl", "--max-line-length", "50",
                 input='{"cards": "2 4 3 10 6 A", "id": "' + "x" * 100 + '"}\n')
    assert result.exit_code == 2
    assert "standard input: line 1 is longer than the limit of 50 characters" in one_error_line(result)
