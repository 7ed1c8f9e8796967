"""Text that reaches a terminal or a page is escaped once, by its output kind (analyzer/text.py,
analyzer/output/render.py): a rules file's title, a bet's title, event and source, the command
line, a hand log's ids and field names.  No control character acts on a terminal, no HTML or
link from a file takes effect in Markdown or HTML, no CSV cell runs in a spreadsheet, a header
comment cannot be closed early, and JSON is valid UTF-8 that strict parsers accept.  Each test
here failed before its fix.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import unicodedata
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from clirun import one_error_line

from analyzer.core.tableau import STANDARD, parse_tableau
from analyzer.errors import FormatError
from analyzer.output.render import Column, Table, render, stack_tables, table_of
from analyzer.text import html_text, json_text, markdown_text

ROOT = Path(__file__).resolve().parent.parent
#: Every kind of trouble at once: an ANSI colour and a terminal-title escape, CR, a bell, a
#: right-to-left override, a line separator, DEL, raw HTML and a Markdown link.
EVIL = (
    "\x1b[31mred\r\x07 \u202etxt\u2028 \x7f <script>alert(1)</script> "
    "<img src=x onerror=alert(2)> [a](javascript:x)"
)
#: What a rules file or a bet file can hold (TOML escapes).
EVIL_TOML = (
    r"\u001b[31mred\r\u0007 \u202etxt\u2028 \u007f <script>alert(1)</script> "
    r"<img src=x onerror=alert(2)> [a](javascript:x)"
)
_BIDI = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def unsafe(text: str) -> list[str]:
    """The characters of ``text`` that act on a terminal: controls other than newline, line and
    paragraph separators, bidirectional formatting, lone surrogates."""
    return [
        ch
        for ch in text
        if (unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp") and ch != "\n") or ch in _BIDI
    ]


def outside_fences(text: str) -> str:
    """``text`` without its fenced Markdown code blocks (their content is shown verbatim)."""
    return re.sub(r"^(`{3,})[^\n`]*\n.*?^\1[ \t]*$", "", text, flags=re.M | re.S)


def live_markup(text: str) -> list[str]:
    """HTML tags and Markdown links that a Markdown renderer would obey (not backslash-escaped),
    after the header comment (``<!-- ... -->``, which nothing inside can end early) and outside
    fenced code blocks (shown verbatim: a report quotes a bet file's entry in one)."""
    text = text.split("-->", 1)[1] if text.startswith("<!--") else text
    text = outside_fences(text)
    return re.findall(r"(?<!\\)<(?:script|img)|(?<!\\)\[a(?<!\\)\]\(", text)


# -- the one escaping per kind -------------------------------------------------------------------


def test_markdown_text_shows_markup_and_keeps_plain_text_plain():
    out = markdown_text(EVIL)
    assert not unsafe(out) and not live_markup(out)
    plain = "Player \\ Banker: player_pair, 19/20, 1.0579%"
    assert markdown_text(plain) == plain
    assert markdown_text("a|b") == "a\\|b"


def test_html_text_is_entities_and_printable():
    out = html_text(EVIL)
    assert not unsafe(out) and "<" not in out and "&lt;script&gt;" in out


def test_json_text_writes_what_strict_parsers_accept():
    text = json_text(json.dumps({"command": "x\udcff\u202e\u2028\x7f"}, ensure_ascii=False))
    text.encode("utf-8")  # no lone surrogate left to encode
    assert not re.search(r"(?<!\\)\\u[dD][89a-fA-F]", text)  # nor a surrogate escape
    assert not unsafe(text)
    assert json.loads(text) == {"command": "x\\udcff\u202e\u2028\x7f"}


# -- render: every format for people ---------------------------------------------------------------


def _evil_table() -> Table:
    columns = (Column(f"Head {EVIL}"), Column("N", "count"))
    return Table("t", f"Title {EVIL}", columns, ((EVIL, 3),), (f"Note {EVIL}",))


@pytest.mark.parametrize("fmt", ["text", "markdown", "html", "latex"])
def test_every_format_for_people_escapes_titles_cells_headers_and_notes(fmt):
    out = render([_evil_table()], fmt, meta={"command": f"punto-banco {EVIL}"})
    assert not unsafe(out), [hex(ord(c)) for c in unsafe(out)]
    page = out.split("-->", 1)[-1]  # the header is an HTML comment, which nothing ends early
    if fmt == "markdown":
        assert not live_markup(page)
    if fmt == "html":
        assert "<script" not in page and "<img" not in page
    if fmt == "latex":  # every line of the title and note stays inside its comment
        assert all(not line.startswith(("Title", "Note")) for line in out.splitlines())
    assert out.count("31mred") >= 4  # the text is still there, shown


def test_the_json_of_a_table_is_strict_utf8():
    out = render([_evil_table()], "json", meta={"command": "punto-banco -o x\udcff.json"})
    out.encode("utf-8")
    assert json.loads(out)["meta"]["command"] == "punto-banco -o x\\udcff.json"


# -- the commands ------------------------------------------------------------------------------------


@pytest.fixture()
def evil_rules(tmp_path: Path) -> Path:
    path = tmp_path / "evil.toml"
    text = STANDARD.to_toml().replace('name = "standard"', 'name = "evil"')
    text = re.sub(r"(?m)^title = .*$", lambda _: f'title = "{EVIL_TOML}"', text)
    text = re.sub(r"(?m)^source = .*$", lambda _: f'source = "{EVIL_TOML}"', text)
    path.write_text(text)
    return path


def test_rules_file_prints_its_title_and_source_escaped(cli, evil_rules):
    result = cli("rules", str(evil_rules))
    assert result.exit_code == 0, result.output
    assert not unsafe(result.output), [hex(ord(c)) for c in unsafe(result.output)]
    assert "\\x1b[31mred" in result.output


def test_rules_toml_is_escaped_and_reads_back_the_same(cli, evil_rules):
    result = cli("rules", str(evil_rules), "--toml")
    assert result.exit_code == 0 and not unsafe(result.output)
    back = parse_tableau(result.output, "round trip")
    assert back == parse_tableau(evil_rules.read_text(), "evil") and "\u202e" in back.title


def test_conform_table_titles_escape_the_rules_title(cli, evil_rules, tmp_path):
    counts = tmp_path / "counts.json"
    counts.write_text('{"winner": {"banker": 5, "player": 4, "tie": 1}}')
    for fmt in ("text", "markdown", "html"):
        args = ("--rules", str(evil_rules), "--family", "winner", "--format", fmt)
        result = cli("conform", str(counts), *args)
        assert result.exit_code in (0, 1), result.output
        assert "red" in result.output and not unsafe(result.output), fmt
        page = result.output.split("-->", 1)[-1]
        if fmt == "markdown":
            assert not live_markup(page)
        if fmt == "html":
            assert not re.findall("<(?:script|img)", page)


@pytest.fixture()
def evil_bets(tmp_path: Path) -> Path:
    path = tmp_path / "evil.toml"
    path.write_text(
        '[[bet]]\nname = "xss"\ntitle = "<script>alert(1)</script> [a](javascript:x)"\n'
        'source = "<img src=x onerror=alert(3)> | a cell"\n[[bet.pay]]\n'
        'event = "<img src=x onerror=alert(4)>"\nwhen = { winner = "tie" }\npays = 8\n'
    )
    return path


@pytest.mark.parametrize("fmt", ["markdown", "html"])
def test_bets_pages_show_html_from_a_bet_file_as_text(cli, evil_bets, fmt):
    result = cli("bets", "--bet-file", str(evil_bets), "--events", "--format", fmt)
    assert result.exit_code == 0, result.output
    out = result.output.split("-->", 1)[-1]
    if fmt == "markdown":
        assert not live_markup(out)
    assert "<script" not in out.replace("\\<script", "") and "<img" not in out.replace("\\<img", "")
    assert "alert(1)" in out and "alert(3)" in out and "alert(4)" in out


def test_the_report_shows_html_from_a_bet_file_as_text(cli, evil_bets):
    result = cli("report", "--bet-file", str(evil_bets), "--decks", "1", "--format", "markdown")
    assert result.exit_code == 0, result.output
    shown = outside_fences(result.output)
    assert not live_markup(shown) and "<img" not in shown.replace("\\<img", "")
    assert "```toml\n[[bet]]" in result.output  # the entry as written, quoted verbatim


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _strict_json(data: bytes) -> object:
    """What a strict parser reads: UTF-8, and no string holding a lone surrogate."""
    doc = json.loads(data.decode("utf-8"))
    assert not [s for s in _strings(doc) if unsafe(s)]
    return doc


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    # a file name that is not UTF-8 reaches the command line as a lone surrogate (argv bytes)
    argv = [sys.executable.encode(), b"-c", b"from analyzer.cli import main; main()", *args]
    return subprocess.run(argv, capture_output=True, cwd=cwd, timeout=300)


def test_json_output_names_a_non_utf8_argument_in_valid_utf8(tmp_path):
    rules = tmp_path / "r\udcff.toml"
    rules.write_text(STANDARD.to_toml())
    rules_arg = (b"--rules", b"r\xff.toml")
    done = _run(b"analyze", b"--table", b"outcomes", b"--format", b"json", *rules_arg, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "r\\udcff.toml" in _strict_json(done.stdout)["meta"]["command"]  # type: ignore[index]
    study = _run(b"study", b"--bet", b"tie", b"--shoes", b"2", b"--format", b"json", *rules_arg, cwd=tmp_path)
    assert study.returncode == 0, study.stderr
    assert "r\\udcff.toml" in _strict_json(study.stdout)["meta"]["command"]  # type: ignore[index]


def test_vectors_name_a_non_utf8_rules_file_in_valid_utf8(tmp_path):
    (tmp_path / "r\udcff.toml").write_text(STANDARD.to_toml())
    done = _run(
        b"vectors",
        b"-o",
        b"kit",
        b"--rules",
        b"r\xff.toml",
        b"--bet",
        b"tie",
        b"--coups",
        b"5",
        b"--format",
        b"jsonl",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr  # was an internal error: UnicodeEncodeError
    manifest = _strict_json((tmp_path / "kit" / "MANIFEST.json").read_bytes())
    assert "r\\udcff.toml" in manifest["regenerate"]  # type: ignore[index]


def test_the_folder_a_command_wrote_is_named_escaped(cli, tmp_path):
    out = tmp_path / "\x1b[31mkit"
    result = cli("vectors", "-o", str(out), "--bet", "tie", "--coups", "5", "--format", "jsonl")
    assert result.exit_code == 0, result.output
    assert not unsafe(result.output) and "\\x1b[31mkit" in result.output
    assert (out / "MANIFEST.json").exists()


# -- text from a hand log, a bet file or the command line ----------------------------------------


SURROGATE_ID = '{"cards": "2 K 3 3 9", "id": "\\ud800"}\n'


FORGED_ID = '{"cards": "2 K 3 3 9", "id": "c1\\u001b[31m\\r\\nrecord 99 (line 99): forged"}\n'


@pytest.mark.parametrize("fmt", ["text", "jsonl", "csv"])
def test_a_lone_surrogate_in_an_id_is_escaped_in_every_format(cli, tmp_path, fmt):
    log = tmp_path / "odd.jsonl"
    log.write_text(SURROGATE_ID)
    result = cli("verify", str(log), "--format", fmt)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "\\ud800" in result.output
    out = tmp_path / f"report.{fmt}"
    result = cli("verify", str(log), "--format", fmt, "-o", str(out))
    assert result.exit_code == 1 and "\\ud800" in out.read_text(encoding="utf-8")


def test_control_characters_from_a_log_are_escaped_in_text_reports(cli, tmp_path):
    log = tmp_path / "forged.jsonl"
    log.write_text(FORGED_ID + '{"cards": "2 4 3 10 6 A", "\\u001b]0;title\\u0007": 1}\n')
    for fmt in ("text", "csv"):
        result = cli("verify", str(log), "--format", fmt)
        assert result.exit_code == 1
        assert "\x1b" not in result.output and "\r" not in result.output and "\x07" not in result.output
        assert "c1\\x1b[31m\\r\\nrecord 99 (line 99): forged" in result.output
        body = [line for line in result.output.splitlines() if "record 99" in line]
        # the forged record is part of a real line (a finding, the diagnosis' example), never a
        # line of its own
        assert body and all("c1\\x1b[31m\\r\\nrecord 99 (line 99): forged" in line for line in body)
    note = "note: ignored unknown fields, so not checked (--map names a field's column): "
    assert note + "\\x1b]0;title\\x07" in result.output


def test_error_lines_escape_what_they_echo(cli, tmp_path):
    bad = tmp_path / "bad\x1b[2Jname.csv"
    result = cli("verify", str(bad))
    assert result.exit_code == 2
    assert "\x1b" not in result.output and "bad\\x1b[2Jname.csv" in one_error_line(result)


def _hostile_bet_file(tmp_path: Path) -> Path:
    path = tmp_path / "hostile.toml"
    path.write_text(
        '[[bet]]\nname = "hostile"\ntitle = "=HYPERLINK(\\"http://x.example\\",\\"click\\")"\n'
        '[[bet.pay]]\nevent = "@SUM(1+1)"\nwhen = { winner = "tie" }\npays = 8\n'
    )
    return path


def test_csv_cells_that_a_spreadsheet_would_run_are_neutralised(cli, tmp_path):
    bets = _hostile_bet_file(tmp_path)
    out = cli("bets", "--bet-file", str(bets), "--events", "--format", "csv").output
    assert "'=HYPERLINK" in out and "'@SUM(1+1)" in out
    assert ",-0.1435962878," in out  # a negative number is data: never quoted
    raw = cli("bets", "--bet-file", str(bets), "--events", "--format", "csv", "--raw-csv").output
    assert '"=HYPERLINK' in raw and "'=" not in raw and "'@" not in raw
    log = tmp_path / "inject.jsonl"
    log.write_text('{"cards": "2 K 3 3 9", "id": "=cmd|\' /C calc\'!A0"}\n')
    report = cli("verify", str(log), "--format", "csv").output
    assert "'=cmd|" in report
    assert "'=cmd" not in cli("verify", str(log), "--format", "csv", "--raw-csv").output


@pytest.mark.parametrize("fmt", ["markdown", "html"])
def test_header_comments_cannot_be_closed_early(fmt):
    from analyzer.output.render import render

    text = render([], fmt, 4, {"command": "punto-banco x --> a --!> b <!-- c"})
    inner = text.split("<!--", 1)[1].rsplit("-->", 1)[0]
    assert "-->" not in inner and "--!>" not in inner and "<!--" not in inner


def test_unpadded_markdown_is_the_same_table_without_alignment_spaces():
    # The committed results/ are written unpadded, so a changed value changes one line.
    from fractions import Fraction

    table = Table(
        "t",
        "A title",
        (Column("Bet"), Column("Probability", "both")),
        (("tie", Fraction(1, 3)), ("a|b", Fraction(-2, 7))),
    )
    padded = render([table], "markdown", 4)
    plain = render([table], "markdown", 4, padded=False)
    lines = plain.splitlines()
    assert lines[2:] == [
        "| Bet | Probability | Probability (decimal) |",
        "|:---|---:|---:|",
        "| tie | 1/3 | 0.3333 |",
        "| a\\|b | -2/7 | -0.2857 |",
    ]

    def cells(text: str) -> list[list[str]]:
        rows = [ln for ln in text.splitlines() if ln.startswith("|") and not set(ln) <= set("|:- ")]
        return [[c.strip() for c in re.split(r"(?<!\\)\|", r)[1:-1]] for r in rows]

    assert cells(plain) == cells(padded)
    assert render([table], "html", 4, padded=False) == render([table], "html", 4)


# -- a column's value getter ------------------------------------------------------------------------


def test_a_table_of_records_takes_each_cell_from_its_columns_getter():
    records = [{"name": "tie", "pays": Fraction(8)}, {"name": "banker", "pays": Fraction(19, 20)}]
    cols = (
        Column("Bet", get=lambda r: r["name"].title()),
        Column("Pays", "fraction", "pays", get=lambda r: r["pays"]),
        Column("Bet name", "text", "bet_name", data_only=True, get=lambda r: r["name"]),
    )
    table = table_of("t", "T", cols, records, ["a note"])
    assert table.rows == (("Tie", Fraction(8), "tie"), ("Banker", Fraction(19, 20), "banker"))
    assert (table.columns, table.notes) == (cols, ("a note",))
    assert json.loads(render([table], "json"))["tables"][0]["rows"][1]["pays"] == "19/20"
    # the getter is no part of a column's identity: two runs' columns stack as one
    same = [Column(c.header, c.style, c.key, c.data_only, get=str) for c in cols]
    again = table_of("t", "T", same, records)
    assert again.columns == cols
    runs = [({"decks": 1, "shoe": "1 deck"}, [table]), ({"decks": 2, "shoe": "2 decks"}, [again])]
    assert len(stack_tables(runs, "1, 2 decks")[0].rows) == 4


def test_a_column_without_a_getter_is_refused_by_name():
    with pytest.raises(FormatError, match="column 'Pays' of table 't' has no value getter"):
        table_of("t", "T", (Column("Bet", get=str), Column("Pays")), ["x"])


def test_a_number_column_is_one_data_field():
    # an exact text column beside an already rounded number: JSON rows and the CSV header have
    # exactly the table's columns, a missing value included; a fraction there is rounded
    table = Table("t", "T", (Column("X", "text", "x"), Column("X (decimal)", "number", "x_decimal")),
                  (("sqrt(2)", Decimal("1.41")), (None, None), (Fraction(1, 3), Fraction(1, 3))))
    doc = json.loads(render([table], "json", 4), parse_float=Decimal)["tables"][0]
    assert all(list(row) == doc["columns"] == ["x", "x_decimal"] for row in doc["rows"])
    assert [r["x_decimal"] for r in doc["rows"]] == [Decimal("1.41"), None, Decimal("0.3333")]
    assert render([table], "csv", 4).splitlines()[0] == "table,x,x_decimal"
    assert "0.3333" in render([table], "text", 4)
