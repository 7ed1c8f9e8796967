"""The game-math report (``punto-banco report``): its numbers are the engine's Fractions, the
workbook keeps integers as numbers and fractions as text, the HTML page loads nothing from
elsewhere, and bad input is one line with exit code 2."""

import re
from fractions import Fraction

import pytest

from analyzer import Shoe, find_bet, price
from analyzer.core.exact import fraction_text
from analyzer.engine.pricing import pay_for_edge
from analyzer.errors import BetError, FormatError, PlotUnavailableError, ShoeError
from analyzer.output import report as rep
from analyzer.output.report import CHART_FLAT, render_html, render_markdown
from analyzer.studies import report_data
from analyzer.studies.eor import effects_of_removal
from analyzer.studies.report_data import game_math_report
from analyzer.studies.symbolic import bet_forms, pay_form

EDGE = Fraction(1, 100)


@pytest.fixture(scope="module")
def doc():
    bets = [find_bet("banker"), find_bet("tie"), find_bet("dragon-7")]
    return report_data.game_math_report(bets, [1, 8], target_edge=EDGE)


@pytest.fixture()
def run(cli):
    def invoke(*args, code=0):
        result = cli(*args)
        assert result.exit_code == code, result.output
        return result.output if code == 2 else result.stdout

    return invoke


def test_figures_are_the_engines_fractions(doc):
    for section in doc.bets:
        bet = section.bet
        for f in section.figures:
            shoe = Shoe.standard(f.decks)
            want = price(bet, shoe)
            got = f.summary
            assert (got.ev, got.variance, got.house_edge, got.hit_frequency) == (
                want.ev,
                want.variance,
                want.house_edge,
                want.hit_frequency,
            )
            assert [(e.event, e.count, e.probability) for e in got.events] == [
                (e.event, e.count, e.probability) for e in want.events
            ]
            assert f.fair_pay == pay_for_edge(bet, shoe, Fraction(0))
            assert f.target_pay == pay_for_edge(bet, shoe, EDGE)
            assert section.forms.house_edge(f.decks) == want.house_edge
            assert section.fair_pay_form is not None and section.fair_pay_form(f.decks) == f.fair_pay
            assert section.target_pay_form is not None and section.target_pay_form(f.decks) == f.target_pay
        assert section.forms.house_edge.limit() == bet_forms(bet).house_edge.limit()
        assert section.fair_pay_form.limit() == pay_form(bet).limit()
    eor = effects_of_removal(Shoe.standard(8), [s.bet for s in doc.bets], by="rank", depth=1)
    assert doc.eor_decks == 8
    assert [s.eor.eor for s in doc.bets] == [b.eor for b in eor.bets]


def test_markdown_shows_every_part(doc):
    text = rep.render_markdown(doc)
    banker = doc.bets[0]
    for decks in (1, 8):
        assert f"events, {Shoe.standard(decks).describe()}" in text
    assert fraction_text(banker.figures[1].summary.ev) in text
    assert "1.0579057842%" in text  # the Banker's 8-deck house edge (RULES.md)
    assert fraction_text(banker.figures[1].fair_pay) in text
    assert "effect of removing one card" in text and "closed forms in the number of decks" in text
    assert f"f(d) = {banker.forms.house_edge.text()}" in text
    assert fraction_text(banker.forms.house_edge.limit()) in text
    assert text.count("**Rules.**") == 3 and text.count("**Source.**") == 3


def test_xlsx_keeps_integers_as_numbers_and_fractions_as_text(doc, tmp_path):
    openpyxl = pytest.importorskip("openpyxl")
    path = tmp_path / "r.xlsx"
    path.write_bytes(rep.render_xlsx(doc))
    wb = openpyxl.load_workbook(path)
    assert tuple(wb.sheetnames) == rep.XLSX_SHEETS
    summary = wb["Summary"]
    head = [c.value for c in summary[1]]
    rows = [dict(zip(head, (c.value for c in r), strict=True)) for r in summary.iter_rows(min_row=2)]
    got = {(r["Bet name"], r["Decks"]): r for r in rows}
    for section in doc.bets:
        for f in section.figures:
            row = got[(section.bet.name, f.decks)]
            s = f.summary
            assert isinstance(row["Decks"], int) and isinstance(row["Combinations (N!/(N-6)!)"], int)
            assert row["Combinations (N!/(N-6)!)"] == s.denominator
            assert row["House edge (exact)"] == fraction_text(s.house_edge)
            assert Fraction(row["House edge (exact)"]) == s.house_edge
            assert isinstance(row["House edge"], float)
            assert row["House edge"] == pytest.approx(float(s.house_edge), rel=1e-14)
            assert Fraction(row["Fair pay (exact)"]) == f.fair_pay
            assert Fraction(row["Pay for target edge (exact)"]) == f.target_pay
    events = wb["Events"]
    head = [c.value for c in events[1]]
    for r in events.iter_rows(min_row=2, values_only=True):
        row = dict(zip(head, r, strict=True))
        assert isinstance(row["Combinations"], int) and isinstance(row["Out of"], int)
        assert isinstance(row["Probability (exact)"], str) and isinstance(row["Probability"], float)
        assert Fraction(row["Combinations"], row["Out of"]) == Fraction(row["Probability (exact)"])
    eor = wb["EOR"]
    assert eor.max_row == 1 + 13 * len(doc.bets)
    assert len(wb["EOR charts"]._charts) == len(doc.bets)
    # every text cell is a string cell, never a formula
    for ws in wb.worksheets:
        for r in ws.iter_rows():
            for c in r:
                assert c.data_type != "f"


def test_xlsx_text_never_becomes_a_formula(tmp_path):
    openpyxl = pytest.importorskip("openpyxl")
    bet_file = tmp_path / "b.toml"
    bet_file.write_text(
        '[[bet]]\nname = "x"\ntitle = "=HYPERLINK(1)"\nsource = "+1"\n'
        '[[bet.pay]]\nevent = "Tie"\nwhen = { winner = "tie" }\npays = 8\n',
        encoding="utf-8",
    )
    from analyzer.bets.files import load_bets

    bets = load_bets(str(bet_file))
    path = tmp_path / "r.xlsx"
    path.write_bytes(rep.render_xlsx(report_data.game_math_report(bets, [8])))
    ws = openpyxl.load_workbook(path)["Report"]
    values = [c for r in ws.iter_rows() for c in r if c.value == "=HYPERLINK(1)"]
    assert values and all(c.data_type == "s" for c in values)


def test_html_is_self_contained(doc):
    page = rep.render_html(doc)
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "<script" not in page and "<link" not in page and "@import" not in page and "url(" not in page
    sources = re.findall(r'\b(?:src|href)="([^"]*)"', page)
    assert sources and all(s.startswith(("data:image/png;base64,", "#")) for s in sources)
    assert page.count("data:image/png;base64,") == len(doc.bets)


def test_without_matplotlib_the_report_says_so(doc, monkeypatch):
    def missing(*args, **kwargs):
        raise PlotUnavailableError("no matplotlib")

    monkeypatch.setattr(rep, "eor_image", missing)
    page = rep.render_html(doc)
    assert "data:image" not in page and page.count("The EOR chart needs matplotlib") == len(doc.bets)
    files = rep.report_files(doc, "markdown", "/tmp/never-written.md")
    assert list(files) == ["/tmp/never-written.md"]
    assert "The EOR chart needs matplotlib" in str(files["/tmp/never-written.md"])


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda: report_data.game_math_report([], [8]), BetError),
        (lambda: report_data.game_math_report(["tie"], [8]), BetError),
        (lambda: report_data.game_math_report([find_bet("tie"), find_bet("tie")], [8]), BetError),
        (lambda: report_data.game_math_report([find_bet("tie")], []), ShoeError),
        (lambda: report_data.game_math_report([find_bet("tie")], [0]), ShoeError),
        (lambda: report_data.game_math_report([find_bet("tie")], [8, 8]), ShoeError),
        (lambda: report_data.game_math_report([find_bet("tie")], [8], target_edge=0.01), BetError),
    ],
)
def test_library_errors(call, error):
    with pytest.raises(error):
        call()


def test_report_files_errors(doc):
    with pytest.raises(FormatError):
        rep.report_files(doc, "pdf", None)
    with pytest.raises(FormatError):
        rep.report_files(doc, "xlsx", None)
    with pytest.raises(FormatError):
        rep.render_markdown(doc, digits=-1)


# -- the command --------------------------------------------------------------------------------


def test_cli_markdown_to_standard_output(run):
    text = run("report", "--bet", "tie", "--decks", "1,8", "--count-shoes", "0")
    tie8 = price(find_bet("tie"), Shoe.standard(8))
    assert text.startswith("# Game-math report: Tie") and "<!--" not in text  # provenance shown, not hidden
    assert fraction_text(tie8.ev) in text and "house edge of 1%" in text
    assert "EOR chart: not in this output" in text


def test_cli_writes_each_format(run, tmp_path):
    openpyxl = pytest.importorskip("openpyxl")
    xlsx = tmp_path / "lab.xlsx"
    assert run("report", "--bet", "banker", "--bet", "tie", "--decks", "1-8", "-o", str(xlsx)) == ""
    wb = openpyxl.load_workbook(xlsx)
    decks = [r[2] for r in wb["Summary"].iter_rows(min_row=2, values_only=True)]
    assert decks == list(range(1, 9)) * 2
    page = tmp_path / "lab.html"
    run("report", "--bet", "tie", "-o", str(page))
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    md = tmp_path / "lab.md"
    run("report", "--bet", "tie", "--bet", "dragon-7", "-o", str(md))
    text = md.read_text(encoding="utf-8")
    assert "![Effects of removal: Tie (8 to 1)](lab-eor-1.png)" in text
    assert (tmp_path / "lab-eor-1.png").read_bytes().startswith(b"\x89PNG")
    assert (tmp_path / "lab-eor-2.png").exists()
    forced = tmp_path / "lab.txt"
    run("report", "--bet", "tie", "--format", "html", "-o", str(forced))
    assert "<html" in forced.read_text(encoding="utf-8")


def test_cli_bet_file(run, tmp_path):
    from pathlib import Path

    examples = Path(__file__).resolve().parent.parent / "examples"
    out = tmp_path / "r.md"
    run("report", "--bet-file", str(examples / "bets.toml"), "-o", str(out))
    assert "## 1." in out.read_text(encoding="utf-8")
    msg = run("report", "--bet-file", str(examples / "bets.toml"), "-o", str(examples / "bets.toml"), code=2)
    assert len(msg.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "args, words",
    [
        ([], "name the bets"),
        (["--bet", "nosuchbet"], "nosuchbet"),
        (["--bet", "tie", "--format", "xlsx"], "-o FILE.xlsx"),
        (["--bet", "tie", "--target-edge", "abc"], "abc"),
        (["--bet", "tie", "--rules", "nosuchrules"], "nosuchrules"),
        (["--bet", "tie", "--bet", "tie"], "twice"),
        (["--bet", "tie", "--format", "pdf"], "pdf"),
        (["--bet", "tie", "--decks", "2-1"], "larger"),
    ],
)
def test_cli_bad_input_is_one_line_exit_2(run, tmp_path, args, words):
    out = run("report", *args, code=2)
    assert len(out.strip().splitlines()) == 1 and words in out, out


def test_cli_no_partial_file(run, tmp_path):
    target = tmp_path / "r.xlsx"
    run("report", "--bet", "tie", "--bet", "nosuchbet", "-o", str(target), code=2)
    assert not target.exists() and list(tmp_path.iterdir()) == []
    missing = tmp_path / "nofolder" / "r.html"
    out = run("report", "--bet", "tie", "-o", str(missing), code=2)
    assert "does not exist" in out and list(tmp_path.iterdir()) == []


def test_a_bet_whose_effects_of_removal_are_all_zero_gets_a_sentence_not_an_empty_chart():
    # pair bets on a full standard shoe: every rank plays the same part, every EOR is exactly 0
    report = game_math_report([find_bet("player-pair"), find_bet("tie")], [8])
    assert all(e == 0 for e in report.bets[0].eor.eor) and any(e != 0 for e in report.bets[1].eor.eor)
    page = render_html(report)
    assert page.count(CHART_FLAT) == 1 and page.count("<img") <= 1
    assert render_markdown(report, charts={1: "x.png"}).count(CHART_FLAT) == 1
