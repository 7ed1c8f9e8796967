"""``output/check_tables``: a conformance result as tables, in every format.

The results are built by hand (a failing and a passing family, a void one, decision cells with a
broken and a mixed cell, claims with a wrong field), so each part of the report is pinned without
a log: void families get no statistics and say why, the claims by field point to verify, a cell
with both draws and stands is named, ``failing_only`` keeps the failing parts and the notes still
count everything, and JSON and CSV keep the exact values as strings.
"""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction

import pytest

from analyzer.checks.conform import (
    ClaimCheck,
    ClaimRow,
    Conformance,
    PowerRow,
    VoidFamily,
    expected,
    fit_family,
)
from analyzer.checks.decisions import DecisionLog, check_decisions
from analyzer.checks.verify import Discrepancy
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import STANDARD
from analyzer.engine.pricing import Pricer
from analyzer.output.check_tables import (
    claims_verdict,
    conformance_tables,
    decisions_table,
    overall_text,
    small_sample_summary,
)
from analyzer.output.render import render

SHOE = Shoe.standard(8)
ALPHA = Fraction(1, 100)


def _decisions():
    """1,000 coups: Banker on 6 against a 4 drew 3 times and stood 7 (mixed), Banker on 6 against
    a 5 drew twice (always, and wrongly), the rest by the rules."""
    log = DecisionLog()
    line = 0

    def add(key, n):
        nonlocal line
        for _ in range(n):
            line += 1
            log.add(key, line)

    add((8, 3, None, None), 400)  # a natural
    add((3, 6, 4, 7), 3)  # Banker on 6, Player's third card 4: drew (wrong)
    add((3, 6, 4, None), 7)  # ... and stood
    add((2, 6, 5, 1), 2)  # Banker on 6 against a 5: drew (wrong)
    add((7, 7, None, None), 588)
    return check_decisions(log, STANDARD)


def _claims(wrong: int) -> ClaimCheck:
    rule = "Player Pair, stake 1: no pair: the stake is lost"
    first = Discrepancy(7, 7, "bet:player-pair", "-1 net", "11 net", rule)
    return ClaimCheck(
        (
            ClaimRow("winner", 1000, 0),
            ClaimRow("bet:player-pair", 1000, wrong, (7, 9) if wrong else (), first if wrong else None),
        )
    )


def _result(claims: ClaimCheck | None = None, failing: bool = True) -> Conformance:
    pricer = Pricer(SHOE)
    level = ALPHA / 2
    winner = expected("winner", pricer)
    counts = (
        {"banker": 700, "player": 200, "tie": 100} if failing else {"banker": 459, "player": 446, "tie": 95}
    )
    bad = fit_family("winner", counts, winner, 1000, level)
    naturals = {"none": 657, "player": 154, "banker": 153, "both": 36}
    good = fit_family("natural", naturals, expected("natural", pricer), 1000, level)
    faults = (("a Banker hand of 4 cards", 42),)
    void = VoidFamily("cards", 1000, 42, faults, (3, 5, 8, 13, 21), "a coup dealt within the rules")
    power = (
        PowerRow("winner", "w = 0.01", 2, 0.01, 174_267, 1000, 0.01),
        PowerRow("natural", "w = 0.01", 3, 0.01, 190_000, 1000, 0.01),
        PowerRow("decisions", "any one cell changed", None, None, 515, 1000, 0.9, "worst case"),
    )
    return Conformance(SHOE, ALPHA, (bad, good), False, _decisions(), power, void=(void,), claims=claims)


def _text(tables) -> str:
    return render(tables, "text")


def test_a_void_family_gets_no_statistics_and_says_why():
    result = _result()
    assert result.level == ALPHA / 2  # Bonferroni over the two families tested, not the void one
    text = _text(conformance_tables(result))
    row = next(line for line in text.splitlines() if line.startswith("cards "))
    assert "VOID: 42 of 1,000 coups left out (a Banker hand of 4 cards: 42)" in row
    assert "PASS" not in row and "FAIL" not in row
    assert (
        "VOID (no verdict): cards: 42 of 1,000 coups left out, dealt outside the rules (a Banker hand "
        "of 4 cards: 42; lines 3, 5, 8, 13, 21 and more; verify names each fault).  This family needs a "
        "coup dealt within the rules; the coups left out are not a random subset, so a frequency test "
        "on the rest would be biased, and none is made."
    ) in text
    assert "Bonferroni-corrected over 2 families tested: a family fails when p < 0.005." in text
    # no category rows for it: nothing is compared with the exact probabilities
    categories = text[: text.index("Goodness of fit")]
    assert "\ncards " not in categories
    doc = json.loads(render(conformance_tables(result), "json"))
    tests = next(t for t in doc["tables"] if t["name"] == "conform-tests")["rows"]
    void = next(r for r in tests if r["family"] == "cards")
    assert void["chi_square"] is None and void["p_value_float"] is None and void["left_out"] == 42
    tested = next(r for r in tests if r["family"] == "winner")
    assert tested["left_out"] == 0 and tested["chi_square"] == str(result.results[0].chi_square)


def test_json_and_csv_keep_exact_values_as_strings():
    result = _result(_claims(412))
    doc = json.loads(render(conformance_tables(result), "json"))
    first = doc["tables"][0]["rows"][0]
    assert (first["family"], first["category"]) == ("winner", "banker")
    assert Fraction(first["probability"]) == expected("winner", Pricer(SHOE))["banker"]
    assert "/" in first["probability"]
    rows = list(csv.DictReader(io.StringIO(render(conformance_tables(result), "csv"))))
    pair = next(r for r in rows if r["table"] == "conform-claims" and r["claim"] == "bet:player-pair")
    assert (pair["checked"], pair["wrong"], pair["first_line"]) == ("1000", "412", "7")
    # text from the log: a cell a spreadsheet would run as a formula is guarded (--raw-csv: not)
    assert (pair["first_expected"], pair["first_claimed"]) == ("'-1 net", "11 net")
    prob = next(r for r in rows if r["table"] == "conform-categories")["probability"]
    assert Fraction(prob) == expected("winner", Pricer(SHOE))["banker"]


def test_the_claims_are_shown_by_field_and_point_to_verify():
    result = _result(_claims(412))
    assert not result.passed
    text = _text(conformance_tables(result))
    table = text[text.index("Claims of the log, checked as verify checks them") :]
    pair = next(line for line in table.splitlines() if line.startswith("bet:player-pair"))
    assert "412" in pair and "lines 7, 9 and more" in pair
    assert "FAIL: 412 of 1,000 settlements wrong; verify lists each" in pair
    assert "expected -1 net, claimed 11 net -- Player Pair, stake 1: no pair: the stake is lost" in pair
    assert (
        "Claims: FAIL: 412 of 2,000 claims wrong: bet:player-pair: 412 of 1,000 settlements wrong; "
        "first on line 7 (expected -1 net, claimed 11 net); run verify on the log to list each wrong claim."
    ) in text
    for fmt in ("markdown", "html", "latex"):
        assert "bet:player-pair" in render(conformance_tables(result), fmt)
    # right claims: the verdict counts them; none: it says they were not checked, and why
    assert claims_verdict(_claims(0)) == "ok: all 2,000 right"
    assert claims_verdict(None) == "not checked: counts make no claims"
    assert claims_verdict(ClaimCheck(())) == "not checked: the log claims no totals, winner or settled bets"
    fair = _result(None, failing=False)
    verdict = overall_text(Conformance(SHOE, ALPHA, fair.results, False, void=fair.void))
    assert verdict == "CONFORMS (1 family void, not tested; claims not checked)"


def test_a_cell_with_draws_and_stands_is_named_in_the_table_and_the_summary():
    check = _decisions()
    table = decisions_table(check)
    rows = {row[0]: row for row in table.rows}
    mixed = rows["Banker on 6, Player's third card 4"]
    assert mixed[2:5] == (3, 7, 3) and mixed[-1] == "FAIL: decided by something else than the cell"
    assert rows["Banker on 6, Player's third card 5"][-1] == "FAIL"
    note = (
        "Banker on 6, Player's third card 4: drew on 3 coups and stood on 7: decided by something else "
        "than the cell (the engine's rule there reads more, such as the Player's total or cards)"
    )
    assert note + "." in table.notes
    assert note in _text(conformance_tables(_result()))  # the summary under the tests names it too


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_failing_only_keeps_the_failing_parts_and_counts_everything(fmt):
    result = _result(_claims(412))
    full = conformance_tables(result)
    short = conformance_tables(result, failing_only=True)
    by_name = {t.name: t for t in short}
    assert [r[0] for r in by_name["conform-categories"].rows] == ["winner"] * 3
    assert [r[0] for r in by_name["conform-tests"].rows] == ["winner", "cards"]  # failing, void
    assert [r[0] for r in by_name["conform-claims"].rows] == ["bet:player-pair"]
    assert [r[0] for r in by_name["conform-decisions"].rows] == [
        "Banker on 6, Player's third card 4",
        "Banker on 6, Player's third card 5",
    ]
    assert {r[0] for r in by_name["conform-power"].rows} == {"winner", "decisions"}
    # the notes still count everything
    full_tests = next(t for t in full if t.name == "conform-tests")
    for note in full_tests.notes:
        assert note in by_name["conform-tests"].notes
    assert (
        "Only the failing and void families are shown (failing only): of 2 families tested, 1 pass and "
        "1 fail; 1 void."
    ) in by_name["conform-tests"].notes
    out = render(short, fmt)
    assert "Overall: DOES NOT CONFORM (1 family void, not tested)." in out
    assert "natural" not in render(short[:1], fmt)  # the passing family's categories are not shown


def test_failing_only_with_nothing_failing_keeps_the_tests_and_their_notes():
    result = _result(_claims(0), failing=False)
    result = Conformance(result.shoe, result.alpha, result.results, False, None, claims=result.claims)
    short = conformance_tables(result, failing_only=True)
    assert [t.name for t in short] == ["conform-tests"]
    assert short[0].rows == () and "Overall: CONFORMS." in short[0].notes


def test_the_small_sample_summary_counts_void_families_and_claims():
    result = _result(_claims(412))
    probs = expected("winner", Pricer(SHOE))
    five = fit_family("winner", {"banker": 3, "player": 1, "tie": 1}, probs, 5, ALPHA)
    low = Conformance(
        result.shoe,
        result.alpha,
        (five,),
        False,
        result.decisions,
        void=result.void,
        claims=result.claims,
    )
    summary = small_sample_summary(low)
    assert summary is not None
    rows = dict(summary.rows)  # type: ignore[arg-type]
    assert rows["Families tested"] == "1: 1 pass, 0 fail; 1 void (cards)"
    assert rows["Decision cells"] == "FAIL: 5 coups against the tableau"
    assert rows["Claims"] == "FAIL: 412 of 2,000 wrong (bet:player-pair)"
    assert rows["Overall"] == "DOES NOT CONFORM (1 family void, not tested)"
