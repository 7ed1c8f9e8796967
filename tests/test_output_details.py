"""Small things users saw in the output (issue 18, "smaller things"): each test fails on the
old behaviour."""

from __future__ import annotations

from click.testing import CliRunner

from analyzer import find_bet
from analyzer.cli import main
from analyzer.output.report import CHART_FLAT, render_html, render_markdown
from analyzer.studies.report_data import game_math_report


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_deal_names_the_missing_card_by_its_place_not_as_a_rank():
    # "the sequence has no card 5" read as "no card of rank 5"
    result = invoke("deal", "3", "2", "3", "2")  # Player stands on 6, the Banker on 4 must draw
    assert result.exit_code == 2
    assert "the Banker draws on 4 but the sequence has no 5th card" in result.output
    result = invoke("deal", "2", "4", "3", "10")  # the Player on 5 must draw
    assert "no 5th card" in result.output
    result = invoke("deal", "2", "4", "3", "10", "6")  # ... then the Banker on 4 against a 6
    assert "the Banker draws on 4 but the sequence has no 6th card" in result.output


def test_deal_shows_money_as_a_decimal_when_it_is_exact():
    out = invoke("deal", "2", "4", "3", "10", "6", "A", "--bet", "banker", "--stake", "10").output
    assert "net +9.5" in out and "net +19/2" not in out
    out = invoke("deal", "2", "4", "3", "10", "6", "A", "--bet", "banker", "--stake", "2.5").output
    assert "(stake 2.5 each)" in out and "net +2.375" in out
    out = invoke("deal", "2", "4", "3", "10", "6", "A", "--bet", "banker", "--stake", "1/3").output
    assert "net +19/60" in out  # no terminating decimal: the exact fraction


def test_eor_footnote_follows_digits():
    out = invoke("eor", "--bet", "banker", "--table", "eor", "--digits", "6").output
    assert "EV per unit staked on the full shoe: -0.010579;" in out


def test_eor_builds_only_the_tables_it_prints(monkeypatch):
    import analyzer.studies.eor as eor

    depths: list[int] = []
    real = eor.effects_of_removal

    def spy(*args, **kwargs):
        depths.append(kwargs["depth"])
        return real(*args, **kwargs)

    monkeypatch.setattr(eor, "effects_of_removal", spy)
    assert invoke("eor", "--bet", "tie", "--table", "summary").exit_code == 0
    assert invoke("eor", "--bet", "tie", "--table", "summary,depletion", "--depth", "3").exit_code == 0
    assert depths == [1, 3]


def test_a_deck_sweep_prints_a_shared_footnote_once():
    out = invoke("analyze", "--decks", "1-8", "--table", "outcomes").output
    assert out.count("Counts are ordered 6-card sequences") == 1


def test_a_bet_whose_effects_of_removal_are_all_zero_gets_a_sentence_not_an_empty_chart():
    # pair bets on a full standard shoe: every rank plays the same part, every EOR is exactly 0
    report = game_math_report([find_bet("player-pair"), find_bet("tie")], [8])
    assert all(e == 0 for e in report.bets[0].eor.eor) and any(e != 0 for e in report.bets[1].eor.eor)
    page = render_html(report)
    assert page.count(CHART_FLAT) == 1 and page.count("<img") <= 1
    assert render_markdown(report, charts={1: "x.png"}).count(CHART_FLAT) == 1


def test_conform_says_how_many_categories_have_low_expected_counts():
    # a 5-coup log: every family has categories expected below 5; the note counts them, and
    # does not list every one in one line
    out = invoke("conform", "examples/hands.jsonl").output
    (line,) = [ln for ln in out.splitlines() if "Expected count below 5" in ln]
    assert line.startswith("Expected count below 5 in ") and " categories (" in line
    assert len(line) < 400


def test_conform_on_a_small_log_prints_a_short_summary_first():
    out = invoke("conform", "examples/hands.jsonl").output
    body = out.split("\n\n", 1)[1]  # after the provenance header
    assert body.startswith("Summary (a small sample)")
    for line in ("Coups            5", "Families tested  7: 7 pass, 0 fail", "Overall          CONFORMS"):
        assert line in out
    assert "128 categories expect fewer than 5 coups" in out
    # data formats keep the per-category table first, the summary last
    import json

    tables = json.loads(invoke("conform", "examples/hands.jsonl", "--format", "json").stdout)["tables"]
    assert tables[0]["name"] == "conform-categories"
    assert tables[-1]["name"] == "conform-summary"
    # a large sample gets no such summary
    assert "Summary (a small sample)" not in invoke("conform", "examples/observed.json").output
