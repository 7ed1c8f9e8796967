"""The diagnosis (analyzer.checks.diagnose): every mutant's own log is diagnosed as that mutant,
with every finding explained and no contradiction; a correct log has no cause; two bugs give two
causes; hands-only logs and the shoe are diagnosed too."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from analyzer.checks import diagnose as diagnose_module
from analyzer.checks.diagnose import Diagnoser, claims_of, diagnose
from analyzer.checks.handlog import read_records
from analyzer.checks.mutants import CORRECT, MUTANTS, Mutant, deal_log, find_mutant
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import BANKER_DRAWS_ON_6_AGAINST_5

#: A Banker stake of 25 tells every commission error apart: 23.75 due, 23 rounded down, 24 to the
#: nearest unit, 25 with no commission.
STAKES = {"banker": Fraction(25), "player": Fraction(10), "tie": Fraction(1), "player-pair": Fraction(1)}
#: Mutants whose log the diagnosis cannot see without a field the hand-log reader does not read
#: (none: it reads the natural claim too), or without the shoe (the shoe mutants: their own test
#: below).
_NOT_IN_LOGS: set[str] = set()


def log_of(name: str, coups: int = 1000, seed: int = 5, *, hands_only: bool = False) -> list[str]:
    lines = []
    for record in deal_log(find_mutant(name), coups, seed=seed, stakes=STAKES):
        if hands_only:
            record.pop("cards")
        lines.append(json.dumps(record))
    return lines


def diagnosis(lines: list[str], shoe: Shoe | None = None):
    return diagnose(read_records(lines, "jsonl"), shoe=shoe)


@pytest.mark.parametrize(
    "name", [m.name for m in MUTANTS if m.kind != "shoe" and m.name not in _NOT_IN_LOGS]
)
def test_each_mutant_is_diagnosed_from_its_own_log(name):
    found = diagnosis(log_of(name))
    assert found.findings > 0, name
    first = found.causes[0]
    assert first.mutant == name
    assert first.explains == found.findings  # every coup with findings explained
    assert first.contradicts == 0
    assert found.unexplained == 0
    assert first.example is not None and "the engine dealt" in first.example.text()
    assert found.lines()[1].startswith(f"  1. {find_mutant(name).cause}: explains ")


def test_a_correct_log_has_no_finding_and_no_cause():
    found = diagnosis(log_of("correct"), Shoe.standard(8))
    assert (found.findings, found.causes, found.lines()) == (0, (), [])
    assert found.coups == 1000


def test_two_bugs_are_two_causes():
    """An engine with two bugs (the Banker on 6 draws against a 5; pairs on three-card hands
    lose) is diagnosed as both."""
    both = Mutant(
        "two-bugs",
        "settlement",
        "two bugs",
        lambda tableau: find_mutant("pairs-on-two-card-hands").make(BANKER_DRAWS_ON_6_AGAINST_5),
    )
    lines = [json.dumps(r) for r in deal_log(both, 3000, seed=9, stakes=STAKES)]
    found = diagnosis(lines)
    assert {c.mutant for c in found.causes} == {"pairs-on-two-card-hands", "banker-draws-on-6-against-5"}
    assert sum(c.explains for c in found.causes) == found.findings
    assert found.lines()[0] == "diagnosis: 2 causes explain the findings"


def test_a_log_of_hands_only_is_replayed_in_the_orders_the_engine_could_deal():
    found = diagnosis(log_of("stale-third-card", hands_only=True))
    assert found.causes[0].mutant == "stale-third-card"
    assert found.unexplained == 0
    # an engine dealing P P B B writes hands that any order could give: nothing to find
    assert diagnosis(log_of("deals-player-player-banker-banker", hands_only=True)).findings == 0


@pytest.mark.parametrize("name", ["shoe-refilled", "shoe-one-deck-more"])
def test_the_shoe_is_fitted_from_the_counts(name):
    lines = log_of(name, 2000)
    assert diagnosis(lines).findings == 0  # without the shoe nothing is wrong
    found = diagnosis(lines, Shoe.standard(8))
    assert [c.mutant for c in found.causes] == [name]
    assert found.causes[0].explains == found.findings > 0


def test_a_mutant_the_log_contradicts_is_not_a_cause():
    """A log of the Banker on 6 reading the Player's total is contradicted by the mutant that
    reads it on every Banker total (its Banker on 3-5 coups were dealt right)."""
    found = diagnose(read_records(log_of("banker-reads-player-total:6", 4000), "jsonl"))
    ranked = {c.mutant: c for c in found.ranked}
    assert ranked["banker-reads-player-total"].contradicts > 0
    assert ranked["banker-reads-player-total:6"].contradicts == 0
    assert [c.mutant for c in found.causes] == ["banker-reads-player-total:6"]


def test_findings_no_mutant_explains_are_counted_as_such():
    lines = log_of("correct", 50)
    record = json.loads(lines[10])
    record["player_total"] = 12 if record["player_total"] != 12 else 13
    lines[10] = json.dumps(record)
    found = diagnosis(lines)
    assert (found.findings, found.unexplained, found.causes) == (1, 1, ())
    assert found.lines()[0].startswith("diagnosis: no known engine bug explains the 1 coup with findings")


def test_memory_is_bounded_by_the_sets_of_explaining_mutants(monkeypatch):
    monkeypatch.setattr(diagnose_module, "MAX_SIGNATURES", 1)
    found = diagnosis(log_of("pairs-on-two-card-hands", 800) + log_of("ace-high", 200, seed=3))
    assert found.causes[0].mutant in ("pairs-on-two-card-hands", "ace-high")
    assert found.unexplained > 0  # the second set of explaining mutants no longer fits


def test_returned_amounts_are_compared_as_returned():
    lines = []
    for line in log_of("correct", 200):
        record = json.loads(line)
        for bet in record["bets"].values():
            bet["paid"] = str(Fraction(bet["paid"]) + Fraction(bet["stake"]))
        lines.append(json.dumps(record))
    assert diagnose(read_records(lines, "jsonl"), returned=True).findings == 0
    assert diagnose(read_records(lines, "jsonl")).findings > 0


def test_claims_of_reads_what_a_record_claims():
    (rec,) = read_records(['{"cards": "2 4 3 10 6 A", "winner": "banker", "player_total": 1}'], "jsonl")
    claims = claims_of(rec)
    assert claims is not None
    assert set(claims.fields) == {"cards", "winner", "player_total"}
    assert [str(c) for c in claims.player] == ["2", "3", "6"]
    (marker,) = read_records(['{"new_shoe": true}'], "jsonl")
    assert claims_of(marker) is None


def test_the_diagnoser_watches_a_stream_without_changing_it():
    records = list(read_records(log_of("ace-high", 300), "jsonl"))
    diagnoser = Diagnoser()
    assert list(diagnoser.watch(iter(records))) == records
    assert diagnoser.result().causes[0].mutant == "ace-high"
    assert CORRECT.name == "correct"


def test_a_claim_of_a_natural_on_either_side_is_compared_as_such():
    # the log's natural true / false: whether either side has one, not which
    lines = []
    for line in log_of("correct", coups=300):
        record = json.loads(line)
        record["natural"] = record["natural"] != "none"
        lines.append(json.dumps(record))
    assert any('"natural": true' in line for line in lines)
    assert diagnosis(lines).findings == 0
    # one claim of a natural where there is none is one finding
    first = next(i for i, line in enumerate(lines) if '"natural": false' in line)
    lines[first] = lines[first].replace('"natural": false', '"natural": true')
    assert diagnosis(lines).findings == 1


def test_a_cell_decided_the_other_way_is_named_when_no_catalogue_bug_explains_it():
    """An engine whose Banker on 5 also draws against a Player third card of 3 (no catalogue bug
    does) is diagnosed as that one cell decided the other way."""
    from dataclasses import replace

    from analyzer.checks.mutants import Dealer
    from analyzer.core.tableau import STANDARD

    table = list(STANDARD.banker_draws_on_third)
    table[5] = table[5] | {3}
    rules = replace(STANDARD, name="engine", banker_draws_on_third=tuple(table))
    engine = Mutant("engine", "tableau", "its own", lambda tableau: Dealer(rules))
    lines = [json.dumps(r) for r in deal_log(engine, 3000, seed=3, stakes=STAKES)]
    found = diagnosis(lines)
    (cause,) = found.causes
    assert cause.mutant == "cell:banker-5-3"
    said = "Banker on 5 draws when the Player's third card is 3 (the standard rules say otherwise)"
    assert cause.sentence == said
    assert (cause.explains, cause.contradicts, found.unexplained) == (found.findings, 0, 0)


def test_a_bug_no_coup_contradicts_goes_before_a_partial_fit():
    # two one-off mistakes in two cells: each one-cell fit explains its coup, no coup against it
    from pathlib import Path

    text = (Path(__file__).parent.parent / "examples" / "hands.csv").read_text(encoding="utf-8")
    found = diagnose(read_records(text, "csv"))
    assert [c.contradicts for c in found.causes] == [0, 0]
    assert all(c.explains == 1 for c in found.causes)


def test_at_one_stake_a_pay_error_is_named_with_a_caveat():
    lines = []
    for record in deal_log(find_mutant("no-commission"), 400, seed=2, stakes={"banker": Fraction(10)}):
        lines.append(json.dumps(record))
    (cause,) = diagnosis(lines).causes
    assert cause.one_stake == 10
    assert "every bet it explains was staked 10" in cause.text(1)


def test_each_record_with_findings_is_counted_once_with_the_shoe():
    records = []
    for record in deal_log(find_mutant("banker-draws-twice"), 1500, seed=3, stakes=STAKES):
        record.pop("shoe")  # one shoe in all: it overflows, beside the redraws
        records.append(json.dumps(record))
    found = diagnosis(records, Shoe.standard(8))
    assert found.findings <= found.coups == 1500
    assert {c.mutant for c in found.causes} >= {"banker-draws-twice"}


def test_a_log_judged_by_other_rules_names_the_rules_the_engine_follows():
    from analyzer.core.tableau import find_tableau

    rules = find_tableau("banker-stands-on-6")
    found = diagnose(read_records(log_of("correct", 3000), "jsonl"), rules)
    (cause,) = found.causes
    assert cause.mutant == "standard"
    assert cause.sentence.endswith("(the banker-stands-on-6 rules say otherwise)")


def test_a_record_that_is_no_coup_is_explained_by_no_bug():
    (rec,) = read_records(["cards,winner\n", "7 7 7,player\n"], "csv")
    found = diagnose([rec])
    assert (found.findings, found.causes, found.unexplained) == (1, (), 1)
