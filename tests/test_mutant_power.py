"""The power of each check against each engine bug (analyzer.checks.mutant_power): the counts are
what the checks themselves find, the table says them, and results/mutants.md holds them (the whole
catalogue is measured in the slow lane, by the staleness test of results/)."""

from __future__ import annotations

from analyzer.checks.mutant_power import (
    Catch,
    cells_catch,
    conform_catch,
    diagnosed_as,
    measure,
    probe_catch,
    vectors_catch,
    verify_catch,
)
from analyzer.checks.mutants import CORRECT, find_mutant
from analyzer.output.check_tables import mutant_power_table


def test_a_correct_engine_is_caught_by_no_check():
    assert verify_catch(CORRECT, bound=300).coups is None
    assert conform_catch(CORRECT, bound=400).coups is None
    assert cells_catch(CORRECT).coups is None
    assert probe_catch(CORRECT, bound=150).coups is None
    coups, settlements = vectors_catch(CORRECT)
    assert (coups.coups, settlements.coups) == (None, None)
    assert coups.bound == 339_400


def test_a_misvalued_ace_is_caught_at_once_by_every_check():
    power = measure(find_mutant("ace-high"), bound=400)
    assert power.diagnosed == "ace-high"
    for catch in (power.verify, power.cells, power.probe, power.coup_vectors, power.settlement_vectors):
        assert catch.coups is not None and catch.coups <= 10
    assert power.conform.coups == 100  # the first size conform is run at


def test_a_pair_bug_is_out_of_reach_of_the_value_coups_and_of_the_decision_cells():
    mutant = find_mutant("pairs-on-two-card-hands")
    coups, settlements = vectors_catch(mutant)
    assert coups.coups is None  # point values only: no pair, no bet
    assert settlements.coups is not None
    assert cells_catch(mutant).coups is None
    assert probe_catch(mutant).coups is not None


def test_a_refilled_shoe_shows_only_to_the_shoe_check():
    mutant = find_mutant("shoe-refilled")
    assert verify_catch(mutant, bound=3000).coups is not None
    assert probe_catch(mutant, bound=200).coups is None
    assert diagnosed_as(mutant, coups=3000) == "shoe-refilled"


def test_catches_say_what_they_counted():
    assert Catch(12, 5, 5, 100).text() == "12"
    assert Catch(12, 4, 5, 100).text() == "12 (4 of 5 runs)"
    assert Catch(None, 0, 5, 20_000).text() == "not within 20,000"
    assert Catch(None, 2, 5, 20_000).text() == "not within 20,000 (2 of 5 runs caught it)"


def test_the_table_names_each_bug_and_its_sentence():
    power = measure(find_mutant("tie-loses-main-bets"), bound=600)
    table = mutant_power_table([power])
    (row,) = table.rows
    assert row[0] == "tie-loses-main-bets"
    assert row[2] == find_mutant("tie-loses-main-bets").cause
    assert row[3] == "yes"
