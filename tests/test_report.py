"""The game-math report (``punto-banco report``): its numbers are the engine's Fractions, the
workbook keeps integers as numbers and fractions as text, the HTML page loads nothing from
elsewhere, and bad input is one line with exit code 2."""

import dataclasses
import itertools
import re
from fractions import Fraction

import pytest
from webserver import wait_gone

from analyzer import Shoe, find_bet, price
from analyzer.core.exact import fraction_text
from analyzer.engine.pricing import pay_for_edge
from analyzer.errors import BetError, FormatError, PlotUnavailableError, ShoeError
from analyzer.output import report as rep
from analyzer.output.render import decimal_text
from analyzer.output.report import CHART_FLAT, render_html, render_markdown
from analyzer.studies import report_data
from analyzer.studies.eor import effects_of_removal
from analyzer.studies.report_data import game_math_report
from analyzer.studies.symbolic import bet_forms, pay_form
from analyzer.text import markdown_text

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
            assert Fraction(row["RTP (exact)"]) == 1 + s.ev
            assert row["Largest win (to 1)"] == fraction_text(f.largest_win)
            assert row["Volatility index 95%"] == pytest.approx(1.959964 * float(s.variance) ** 0.5, rel=1e-6)
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


@pytest.mark.extra("plot")  # the charts are drawn with matplotlib
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
        (["--bet", "tie", "--format", "pdf", "-o", "y.md"], "contradicts"),
        (["--bet", "tie", "--format", "markdown", "-o", "y.HTML"], "contradicts"),
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


# -- the par sheet ------------------------------------------------------------------------------


def test_z_levels_are_the_normal_quantiles():
    from statistics import NormalDist

    for level, z in report_data.Z_LEVELS:
        assert abs(float(z) - NormalDist().inv_cdf(0.5 + level / 200)) < 1e-14


def test_par_sheet_figures_follow_from_the_exact_summary(doc):
    from analyzer.core.exact import sqrt_decimal

    for section in doc.bets:
        table = rep.par_sheet_table(doc, section, 10)
        rows = {row[0]: row[1:] for row in table.rows}
        for col, f in enumerate(section.figures):
            s = f.summary
            assert f.rtp == 1 - s.house_edge
            resolved = s.house_edge_resolved
            assert f.element_of_risk == (s.house_edge if resolved is None else resolved)
            wins = [e.pays for e in s.events if e.count and e.pays > 0]
            assert f.largest_win == max(wins)
            assert rows["RTP (theoretical return)"][col] == rep.percent_text(f.rtp, 10)
            for level, z in report_data.Z_LEVELS:
                vi = sqrt_decimal(z * z * s.variance, 10)
                assert rows[f"Volatility index, {level}%"][col] == f"{vi:f}"
                assert abs(float(vi) - float(z) * float(s.variance) ** 0.5) < 1e-9


def test_the_house_win_rate_band_narrows_as_one_over_root_n(doc):
    section = doc.bets[1]  # Tie
    table = rep.band_table(doc, section, 12)
    assert [r[1] for r in table.rows] == [*report_data.BAND_HANDS] * len(doc.decks)
    for row in table.rows:
        f = next(f for f in section.figures if f.decks == row[0])
        edge, sd = float(f.summary.house_edge), float(f.summary.variance) ** 0.5
        for i, (_, z) in enumerate(report_data.Z_LEVELS):
            low, high = (float(x.rstrip("%")) / 100 for x in row[3 + 2 * i : 5 + 2 * i])
            half = float(z) * sd / row[1] ** 0.5
            assert abs(low - (edge - half)) < 1e-12 and abs(high - (edge + half)) < 1e-12


def test_percentages_are_decimals_and_a_rounded_one_gives_its_fraction():
    assert rep.percent_words(Fraction(1, 40)) == ("2.5%", None)
    assert rep.percent_words(Fraction(1, 100)) == ("1%", None)
    text, note = rep.percent_words(Fraction(1, 300), 6)
    assert text == "0.333333%" and note is not None and "1/3%" in note
    report = game_math_report([find_bet("tie")], [8], target_edge=Fraction(1, 300))
    page = render_markdown(report)
    assert "house edge of 0.3333333333%" in page and "exactly 1/3%" in page


def test_cli_target_edge_heading_says_the_decimal(run):
    text = run("report", "--bet", "tie", "--target-edge", "2.5", "--count-shoes", "0")
    assert "house edge of 2.5%" in text and "5/2%" not in text


def test_provenance_is_shown_with_date_fingerprint_and_bet_file_digest(run, tmp_path, monkeypatch):
    import hashlib
    from pathlib import Path

    bets = Path(__file__).resolve().parent.parent / "examples" / "bets.toml"
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764892800")  # 2025-12-05 00:00 UTC
    page = tmp_path / "r.html"
    args = ("report", "--bet-file", str(bets), "--decks", "8", "--count-shoes", "0", "-o", str(page))
    run(*args)
    html = page.read_text(encoding="utf-8")
    digest = hashlib.sha256(bets.read_bytes()).hexdigest()
    from analyzer import STANDARD, __version__

    visible = html.split("<body>", 1)[1]
    for shown in ("2025-12-05", __version__, STANDARD.fingerprint, digest, "<td class=\"text\">Command</td>",
                  "Player draws on: 0, 1, 2, 3, 4, 5"):  # fmt: skip
        assert shown in visible
    assert "<!--" not in html
    # and in the running heads of every printed page (CSS margin boxes)
    style = html.split("<style>", 1)[1].split("</style>", 1)[0]
    for box in ("@top-left", "@bottom-left", "@bottom-right"):
        assert box in style
    assert rep._css_string(digest).strip('"') in style and "counter(pages)" in style
    # the same command on the same SOURCE_DATE_EPOCH: the same bytes
    first = html
    page.unlink()
    run(*args)
    assert page.read_text(encoding="utf-8") == first


def test_report_date_honours_source_date_epoch():
    assert rep.report_date({"SOURCE_DATE_EPOCH": "86400"}) == "1970-01-02"
    assert len(rep.report_date({})) == 10
    for bad in ("-1", "x", "1e9"):
        with pytest.raises(FormatError):
            rep.report_date({"SOURCE_DATE_EPOCH": bad})


def test_css_strings_cannot_break_out():
    text = '"; } body { display: none } </style><script>x</script>\\\n'
    css = rep._css_string(text)
    assert css.startswith('"') and css.endswith('"') and '"' not in css[1:-1]
    assert "<" not in css and "\\\n" not in css and "}" not in css


def test_numbers_never_wrap_in_the_html(doc):
    page = render_html(doc, charts=False)
    assert "break-all" not in page  # text may wrap anywhere, a number never
    wrapping = re.findall(r"([^{}]*)\{[^}]*overflow-wrap: anywhere", page)
    assert wrapping and all(".num" not in selector for selector in wrapping)
    assert re.search(r"\.num \{[^}]*white-space: nowrap", page)
    assert re.search(r"\.table-wrap \{[^}]*overflow-x: auto", page)
    cells = re.findall(r'<td class="(num|text)">([^<]*)</td>', page)
    numeric = [c for k, c in cells if k == "num"]
    fair = fraction_text(doc.bets[1].figures[1].fair_pay)
    assert fair in numeric  # a long exact fraction is a number's cell
    assert all(not re.fullmatch(r"-?[\d,]+(/\d+|\.\d+%?)", c) for k, c in cells if k == "text")


# -- pays solved for any line, or every win scaled ---------------------------------------------------


def test_adjust_solves_a_line_of_a_multi_line_bet():
    from analyzer.studies.ladder import find_line, pay_for_line

    bet = find_bet("dragon-bonus-player")
    report = game_math_report([bet, find_bet("tie")], [1, 8], target_edge=Fraction(1, 40),
                              adjust="Non-natural win by 9")  # fmt: skip
    section = report.bets[0]
    line = find_line(section.figures[0].summary, "Non-natural win by 9")
    assert section.solved_line == line is not None
    for f in section.figures:
        assert f.target_pay == pay_for_line(f.summary, line, Fraction(1, 40))
        assert f.fair_pay == pay_for_line(f.summary, line, Fraction(0))
        assert section.target_pay_form is not None and section.target_pay_form(f.decks) == f.target_pay
        # the solved pay gives the target edge when priced again
        lines = list(bet.lines)
        lines[line] = dataclasses.replace(lines[line], pays=f.target_pay)
        repriced = price(dataclasses.replace(bet, lines=tuple(lines)), Shoe.standard(f.decks))
        assert repriced.house_edge == Fraction(1, 40)
    assert report.bets[1].solved_line is None  # the Tie has no such line
    text = render_markdown(report)
    assert "Pay for a house edge of 2.5% (to 1)" in text and "the line 'Non-natural win by 9'" in text
    assert "No pay solved: this bet has no pay line 'Non-natural win by 9' (--adjust)." in text  # the Tie


def test_scale_solves_one_factor_on_every_win():
    from analyzer.studies.ladder import scale_for_edge

    bet = find_bet("dragon-bonus-player")
    report = game_math_report([bet], [8], target_edge=Fraction(1, 40), scale=True)
    f = report.bets[0].figures[0]
    assert f.target_ladder is not None and f.fair_ladder is not None
    assert f.target_ladder.factor == scale_for_edge(f.summary, Fraction(1, 40)).factor
    scaled = tuple(dataclasses.replace(ln, pays=ln.pays * f.target_ladder.factor) if ln.pays > 0 else ln
                   for ln in bet.lines)  # fmt: skip
    assert price(dataclasses.replace(bet, lines=scaled), Shoe.standard(8)).house_edge == Fraction(1, 40)
    text = render_markdown(report)
    assert "Factor for a house edge of 2.5%" in text and "Every win scaled for a house edge of 2.5%" in text


def test_cli_adjust_and_scale(run):
    text = run("report", "--bet", "dragon-bonus-player", "--adjust", "Non-natural win by 9",
               "--target-edge", "2.5", "--count-shoes", "0")  # fmt: skip
    assert "Pay for a house edge of 2.5% (to 1)" in text and "No pay solved" not in text
    scaled = run("report", "--bet", "dragon-bonus-player", "--scale", "--count-shoes", "0")
    assert "Fair factor on every win" in scaled
    for args, words in (
        (["--adjust", "No such line"], "no bet has a pay line"),
        (["--adjust", "Natural win", "--scale"], "give one of them"),
        (["--adjust", " "], "empty --adjust"),
    ):
        out = run("report", "--bet", "dragon-bonus-player", *args, code=2)
        assert len(out.strip().splitlines()) == 1 and words in out, out


# -- the counting exposure -------------------------------------------------------------------------


def test_counting_exposure_is_the_studys_figures_with_seed_and_shoes():
    from analyzer.studies.study import run_study

    bets = [find_bet("dragon-7"), find_bet("player-pair")]
    report = game_math_report(bets, [8], count_shoes=60, count_seed=7)
    (section,) = report.exposures
    assert section.key == "counting"
    assert ("seed", "7") in section.settings and ("shoes", "60") in section.settings
    d7 = report.bets[0].eor
    threshold = report_data._linear_threshold(d7, 8)
    want = run_study([bets[0]], shoes=60, seed=7, strategies=["perfect", "count"], decks=8,
                     tags=list(d7.system.tags), bet_when=f"tc>={threshold}")  # fmt: skip
    rows = [r for r in section.rows if r.bet == "dragon-7"]
    assert [dict(r.figures)["Units won per shoe"] for r in rows] == [r.units_per_shoe for r in want.results]
    pair = [r for r in section.rows if r.bet == "player-pair"]
    assert pair[0].figures and "every effect of removal is 0" in pair[1].note  # no count for a flat EOR
    text = render_markdown(report)
    assert "## Counting exposure" in text and "60 shoes dealt from seed 7" in text and " ± " in text
    assert not game_math_report(bets, [8]).exposures  # none unless asked


def test_linear_threshold_is_where_the_linear_estimate_turns_even():
    report = game_math_report([find_bet("dragon-7")], [8])
    b = report.bets[0].eor
    t = report_data._linear_threshold(b, 8)
    u = max(abs(e) for e in b.eor if e is not None) / b.system.max_tag
    assert b.ev + u * 8 * t >= 0 > b.ev + u * 8 * (t - 1)


def test_counting_settings_are_checked():
    with pytest.raises(Exception, match="counting shoes"):
        game_math_report([find_bet("tie")], [8], count_shoes=-1)
    with pytest.raises(Exception, match="counting seed"):
        game_math_report([find_bet("tie")], [8], count_shoes=5, count_seed=-2)


def test_the_sorting_exposure_is_peeks_best_sorts_and_says_why_a_bet_is_not_analysed():
    from analyzer.studies.peek import sorting_exposure

    bets = [find_bet("dragon-7"), find_bet("player-pair")]
    report = game_math_report(bets, [8], sorting=True)
    (section,) = report.exposures
    assert section.key == "sorting"
    want = sorting_exposure(bets[0], Shoe.standard(8))
    rows = [r for r in section.rows if r.bet == "dragon-7"]
    assert [dict(r.figures)["Edge per coup dealt (%)"] for r in rows] == [
        want.one_card.edge_when_positive * 100,
        want.four_card.edge_when_positive * 100,
    ]
    assert [dict(r.figures)["Bets per 100 coups"] for r in rows] == [
        want.one_card.bet_frequency * 100,
        want.four_card.bet_frequency * 100,
    ]
    assert [r.play for r in rows] == [  # the study's summary rows (peek's exposure table shows them too)
        f"sees the {s.cards_seen} sorted {s.rest} against {s.group}; bets when positive" for s in want.summary
    ]
    (pair,) = [r for r in section.rows if r.bet == "player-pair"]
    assert not pair.figures and "reads the ranks or suits" in pair.note
    text = render_markdown(report)
    assert "## Exposure to partial information (edge sorting)" in text
    assert decimal_text(want.four_card.edge_when_positive * 100, 4) in text  # exact, rounded once
    assert not game_math_report(bets[:1], [8]).exposures  # none unless asked


def test_the_command_adds_the_sorting_exposure_unless_told_not_to(cli):
    on = cli("report", "--bet", "tie", "--decks", "8", "--count-shoes", "0")
    off = cli("report", "--bet", "tie", "--decks", "8", "--count-shoes", "0", "--no-sorting")
    assert on.exit_code == off.exit_code == 0, on.output + off.output
    assert "## Exposure to partial information" in on.stdout
    assert "Exposure to partial information" not in off.stdout.split("## Glossary")[0]


def test_exposures_are_a_list_of_sections_rendered_alike(doc):
    from analyzer.studies.moments import Estimate

    extra = report_data.ExposureSection(
        "peek", "Partial-information exposure", "A later study.", (("seed", "1"),),
        (report_data.ExposureRow("tie", "peek", (("Units won per shoe", Estimate(0.5, 0.1)),)),),
    )  # fmt: skip
    report = dataclasses.replace(doc, exposures=(extra,))
    for page in (render_markdown(report), render_html(report, charts=False)):
        assert "Partial-information exposure" in page and "0.5000 ± 0.1000" in page


def test_pdf_without_chromium_is_one_line_and_no_file(run, tmp_path, monkeypatch):
    monkeypatch.setenv(rep.CHROMIUM_ENV, str(tmp_path / "no-such-chromium"))
    target = tmp_path / "lab.pdf"
    out = run("report", "--bet", "tie", "--count-shoes", "0", "-o", str(target), code=2)
    assert len(out.strip().splitlines()) == 1 and "Chromium" in out and rep.CHROMIUM_ENV in out
    assert not target.exists()
    out = run("report", "--bet", "tie", "--format", "pdf", code=2)
    assert "-o FILE.pdf" in out


BET_FILE = """# a comment before the bets
[[bet]]
name = "tiger-six"
title = "Banker three-card six"
[[bet.pay]]
event = "Win"
when = { winner = "banker", banker_total = 6, banker_cards = 3 }
pays = 40

[[bet]]   # second
name = "nat-tie"
[[bet.pay]]
event = "Natural tie"
when = { winner = "tie", natural = true }
pays = 30
"""


def test_a_file_bet_shows_its_entry_as_written_in_every_format(run, tmp_path):
    openpyxl = pytest.importorskip("openpyxl")
    bets = tmp_path / "b.toml"
    bets.write_text(BET_FILE, encoding="utf-8")
    entries = dict(report_data.bet_file_entries(BET_FILE))
    tiger = entries["tiger-six"]
    assert tiger.startswith('[[bet]]\nname = "tiger-six"') and "pays = 40" in tiger
    assert entries["nat-tie"].startswith("[[bet]]   # second") and "tiger" not in entries["nat-tie"]
    condition = 'when = { winner = "banker", banker_total = 6, banker_cards = 3 }'
    base = ("report", "--bet-file", str(bets), "--bet", "tie", "--count-shoes", "0", "--no-sorting")
    md = run(*base)
    assert condition in md and "```toml\n[[bet]]   # second" in md
    page = tmp_path / "r.html"
    run(*base, "-o", str(page))
    assert "banker_total = 6, banker_cards = 3" in page.read_text(encoding="utf-8")
    book = tmp_path / "r.xlsx"
    run(*base, "-o", str(book))
    cells = [c for row in openpyxl.load_workbook(book)["Report"].iter_rows(values_only=True) for c in row]
    assert any(isinstance(c, str) and condition in c and "\n" in c for c in cells)
    tie = find_bet("tie")
    assert f"**Rules.** {tie.rules or rep.rules_from_pay_table(tie)}" in md  # a catalogue bet: its rules


def test_a_definition_cannot_end_its_markdown_block():
    text = '[[bet]]\nname = "x"\ntitle = "a ```` b"\n[[bet.pay]]\nwhen = { winner = "tie" }\npays = 8\n'
    block = rep._fenced(text, "toml")
    assert block.startswith("`````toml\n") and block.endswith("\n`````")
    inline = 'bet = [{ name = "x", pay = [{ when = { winner = "tie" }, pays = 8 }] }]\n'
    assert '"name": "x"' in dict(report_data.bet_file_entries(inline))["x"]


@pytest.mark.parametrize("edge", ["-1e30", "1e30", "150", "100", "-100"])
def test_cli_target_edge_out_of_range_is_refused(run, edge):
    out = run("report", "--bet", "tie", "--count-shoes", "0", "--target-edge", edge, code=2)
    assert len(out.strip().splitlines()) == 1 and "--target-edge" in out and "below 100" in out


def test_library_target_edge_out_of_range_is_refused():
    for edge in (Fraction(1), Fraction(-1), Fraction(3, 2)):
        with pytest.raises(BetError, match="target edge"):
            game_math_report([find_bet("tie")], [8], target_edge=edge)


def test_an_unreachable_target_has_no_pay_in_the_closed_forms_either():
    report = game_math_report([find_bet("tie")], [1, 8], target_edge=Fraction(95, 100))
    section = report.bets[0]
    assert all(f.target_pay is None for f in section.figures)
    forms = rep.forms_table(report, section)
    target = [r for r in forms.rows if str(r[0]).startswith("Pay for")]
    assert target == [(f"Pay for a house edge of 95%: {rep.NO_PAY_FORM}", None, None)]
    for page in (render_markdown(report), render_html(report, charts=False)):
        assert rep.NO_PAY_FORM.replace("'", "") in page.replace("&#x27;", "").replace("'", "")
        assert "f(d) = -" not in page


def _fake_printer(tmp_path, tail):
    script = tmp_path / "fake-chromium"
    pids = tmp_path / "children"
    script.write_text(f"#!/bin/sh\nsleep 300 &\necho $! > {pids}.tmp\nmv {pids}.tmp {pids}\n{tail}\n")
    script.chmod(0o755)
    return script, pids


@pytest.mark.parametrize(
    "timeout, tail, words", [(300, "exit 3", "exit code 3"), (1, "exec sleep 300", "took over")]
)
def test_pdf_printer_and_every_process_it_started_are_killed(
    doc, tmp_path, monkeypatch, timeout, tail, words
):
    script, pids = _fake_printer(tmp_path, tail)
    monkeypatch.setenv(rep.CHROMIUM_ENV, str(script))
    monkeypatch.setattr(rep, "PDF_TIMEOUT", timeout)
    with pytest.raises(FormatError, match=words):
        rep.render_pdf(doc, charts=False)
    if timeout > 1:
        assert pids.exists()  # the printer ended after starting its child
    if pids.exists():  # under the short timeout the printer may be killed before it starts one
        # SIGKILL is sent; wait on the process's exit itself (its pidfd), not on a clock
        assert wait_gone([int(pids.read_text())]) == [], "a process outlived the printer"


def test_a_count_that_never_bets_says_so(monkeypatch):
    from analyzer.studies.moments import Estimate

    bets = [find_bet("tie")]
    eor = effects_of_removal(Shoe.standard(8), bets, by="rank", depth=1)
    monkeypatch.setattr(report_data, "_linear_threshold", lambda b, decks: 201)
    section = report_data.counting_exposure(bets, eor, shoes=2, seed=1)
    count = [r for r in section.rows if r.play.startswith("count")]
    assert len(count) == 1 and dict(count[0].figures)["Bets per 100 coups"].value == 0
    assert "never" in count[0].note and "tc>=201" in count[0].note
    assert [r.note for r in section.rows if r.play == "perfect play"] == [""]
    assert report_data._never_bets([0] * 12 + [-1], 1, Estimate(0.0, 0.0)).startswith(
        "the count never bets: no tag is above 0"
    )
    assert report_data._never_bets([1] * 13, 1, Estimate(0.5, 0.1)) == ""


def test_an_estimate_is_never_printed_as_negative_zero():
    from analyzer.studies.moments import Estimate

    assert rep._estimate_text(Estimate(-0.00001, 0.00009)) == "0.0000 ± 0.0001"
    assert rep._estimate_text(Estimate(-0.5, 0.1)) == "-0.5000 ± 0.1000"


def test_contents_follow_the_sections_as_printed_one_heading_each(doc):
    report = dataclasses.replace(
        doc,
        exposures=(report_data.ExposureSection("counting", "Counting exposure", "m", (), ()),),
    )
    want = rep.contents_entries(report)
    assert want[0] == "Rules of play" and want[-2:] == ["Counting exposure", "Glossary"]
    md = render_markdown(report)
    headings = re.findall(r"^(#+) (.*)$", md, re.M)
    levels = [len(h) for h, _ in headings]
    assert levels[0] == 1 and all(b - a <= 1 for a, b in itertools.pairwise(levels))  # no level skipped
    assert len({t for _, t in headings}) == len(headings)  # one heading per section
    after = md.split("**Contents**", 1)[1]
    assert [t for h, t in re.findall(r"^(#+) (.*)$", after, re.M) if h == "##"] == [
        re.sub(r" \(\S+\)$", "", e) for e in want
    ]
    listed = re.findall(r"^- (.*)$", after.split("\n\n## ", 1)[0], re.M)
    assert [x.replace("\\.", ".").replace("\\", "") for x in listed] == [markdown_text(e) for e in want]
    page = render_html(report, charts=False)
    heads = re.findall(r"<h([1-3])[^>]*>([^<]*)</h\1>", page)
    assert len({t for _, t in heads}) == len(heads)
    ids = re.findall(r'<h2 id="([^"]+)">', page)
    links = re.findall(r'<li><a href="#([^"]+)">', page)
    assert links == ids and len(ids) == len(want)


@pytest.mark.parametrize(
    "bets, words",
    [
        (["perfect-pair"], "No pay is solved: no bet has a single adjustable pay line"),
        (["tie", "perfect-pair"], "Pays are solved for 1 of the 2 bets for a fair bet and for a house edge"),
        (["tie"], "Pays are solved for a fair bet and for a house edge of 1% (each bet's adjustable line)"),
    ],
)
def test_the_intro_says_what_was_solved(bets, words):
    report = game_math_report([find_bet(b) for b in bets], [1], target_edge=EDGE)
    assert words in rep._intro(report)
    if bets == ["perfect-pair"]:
        assert "Pays are solved" not in render_markdown(report)


def test_the_scaled_ladder_notes_name_no_option_report_lacks():
    report = game_math_report([find_bet("dragon-7")], [1], target_edge=EDGE, scale=True)
    notes = [n for t in rep.ladder_tables(report, report.bets[0]) for n in t.notes]
    assert notes and not any("grid of --fair-pay" in n for n in notes)
    assert any(rep.FAIR_PAY_GRID in n for n in notes)


def test_a_bet_that_cannot_push_shows_its_house_edge_per_resolved_hand(doc):
    dragon = doc.bets[2]  # Dragon 7: wins or loses, never pushes
    for f in dragon.figures:
        assert f.summary.pushes == 0 and f.summary.house_edge_resolved is None
        assert f.house_edge_resolved == f.summary.house_edge == f.element_of_risk
    par = rep.par_sheet_table(doc, dragon)
    row = next(r for r in par.rows if r[0] == "House edge per resolved hand")
    assert row[1:] == tuple(rep.percent_text(f.summary.house_edge, 10) for f in dragon.figures)
    exact = rep.exact_table(doc, dragon)
    assert all(r[2] is not None for r in exact.rows if r[1] == "House edge per resolved hand")
    banker = doc.bets[0].figures[0]  # a bet that pushes (on a tie) keeps the engine's figure
    assert banker.house_edge_resolved == banker.summary.house_edge_resolved != banker.summary.house_edge
