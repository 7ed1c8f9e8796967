"""The one reader of hand logs and count files (``analyzer.checks.logs``), shared by verify, conform,
the oracle and the closed forms: no helper copied between them, one behaviour for each thing."""

from __future__ import annotations

import ast
import io
from collections import defaultdict
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

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
