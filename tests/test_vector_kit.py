"""The test-vector kit's data (``analyzer.checks.vector_kit``): the coups dealt, the bets settled
and the tables priced, frozen, each held against the analyser's own paths (``resolve``,
``Bet.settle``, ``price``, the golden counts); ``output/vectors`` only writes it."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from analyzer.bets.catalogue import find_bet, golden_counts
from analyzer.checks.coverage import coverage, seeded_coups
from analyzer.checks.vector_kit import (
    MAX_COUPS,
    KitData,
    coverage_coups,
    golden_rows,
    kit_data,
    probability_rows,
    settle_coups,
)
from analyzer.core.coup import resolve
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import STANDARD, find_tableau
from analyzer.engine.pricing import price
from analyzer.errors import CompileBudgetError, OutputError

BETS = (find_bet("banker"), find_bet("tie"), find_bet("perfect-pair"), find_bet("dragon-bonus-player"))
OTHER_RULES = find_tableau("banker-stands-on-6")


def test_each_seeded_coup_is_resolved_and_every_bet_settled_on_it():
    cards = seeded_coups(3, 40)
    settled = settle_coups(cards, BETS, first=5)
    assert [s.number for s in settled] == list(range(5, 45))
    assert {s.kind for s in settled} == {"seeded"} and all(s.covers == () for s in settled)
    for s, six in zip(settled, cards, strict=True):
        coup = resolve(list(six), STANDARD)
        assert s.cards == tuple(six) and s.coup.cards_dealt == coup.cards_dealt
        assert (s.coup.player_total, s.coup.banker_total) == (coup.player_total, coup.banker_total)
        assert [(r.bet, r.event, r.net) for r in s.results] == [(b.name, *b.settle(coup)) for b in BETS]


def test_the_coverage_coups_say_which_classes_they_were_kept_for():
    bets = BETS[1:3]
    found = coverage(bets, seed=2)
    settled = coverage_coups(found, bets, first=7)
    assert len(settled) == len(found.distinct()) and settled[0].number == 7
    assert {s.kind for s in settled} == {"coverage"}
    kept = {(bet, case) for s in settled for bet, cases in s.covers for case in cases}
    assert kept == {(c.bet, c.case) for c in found.coups}
    for s in settled:  # each coup settles each target it covers at the target's event
        events = {r.bet: r.event for r in s.results}
        for c in found.coups:
            if (*c.cards, *c.spare) == s.cards:
                assert events[c.bet] == c.event


def test_the_probability_rows_are_the_priced_counts():
    rows = probability_rows(STANDARD, BETS[:2], decks=(1, 8))
    for d in (1, 8):
        shoe = Shoe.standard(d)
        mine = [r for r in rows if r.decks == d]
        winner = [r for r in mine if r.table == "winner"]
        assert sum(r.count for r in winner) == winner[0].denominator
        assert sum(r.probability for r in mine if r.table == "naturals") == 1
        for bet in BETS[:2]:
            events = [(r.event, r.pays, r.probability) for r in mine if r.bet == bet.name]
            assert events == [(e.event, e.pays, e.probability) for e in price(bet, shoe).events]
    assert {r.rules for r in rows} == {"standard"}


def test_the_golden_rows_are_the_published_counts_of_the_bets_under_standard_rules():
    bets = [find_bet(g.bet) for g in golden_counts()[:2]]
    rows = golden_rows(STANDARD, bets)
    names = {b.name for b in bets}
    wanted = [(g.bet, e, c) for g in golden_counts() if g.bet in names for e, c in g.events.items()]
    assert [(r.bet, r.event, r.count) for r in rows] == wanted and rows
    assert all(r.probability == Fraction(r.count, r.denominator) for r in rows)
    assert golden_rows(OTHER_RULES, bets) == ()


def test_the_kit_data_is_frozen_and_whole():
    data = kit_data(STANDARD, BETS[:2], seed=1, coups=12, with_coverage=False)
    assert isinstance(data, KitData) and data.coverage is None
    assert len(data.coups) == 339_400 and len(data.settlements) == 12
    assert data.settlements == settle_coups(seeded_coups(1, 12), BETS[:2])
    for record in (data, data.settlements[0], data.settlements[0].results[0], data.probabilities[0]):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(record, dataclasses.fields(record)[0].name, None)
    parts = ("bets", "coups", "settlements", "probabilities", "golden")
    assert all(isinstance(getattr(data, name), tuple) for name in parts)


@pytest.mark.parametrize(("seed", "coups", "bets", "words"), [
    (-1, 10, BETS, "bad seed -1"),
    (True, 10, BETS, "bad seed True"),
    (1, 0, BETS, "bad number of coups 0"),
    (1, MAX_COUPS + 1, BETS, "bad number of coups"),
    (1, 10, (), "no bets"),
    (1, 10, (BETS[0], BETS[0]), "'banker' is listed twice"),
])
def test_bad_options_are_one_error_before_anything_is_dealt(seed, coups, bets, words):
    with pytest.raises(OutputError, match=words):
        kit_data(STANDARD, bets, seed, coups)


def test_a_coverage_search_past_the_compile_budget_says_the_kit_can_leave_it_out(monkeypatch):
    import analyzer.checks.vector_kit as kit

    def too_big(bets, tableau, seed):
        raise CompileBudgetError("bet 'cross (by class)': its table needs more than 500,000 settled records")

    monkeypatch.setattr(kit, "coverage", too_big)
    words = r"coverage search: bet 'cross' split by class: .*--no-coverage"
    with pytest.raises(CompileBudgetError, match=words):
        kit_data(STANDARD, BETS, 1, 2)
    assert kit_data(STANDARD, BETS, 1, 2, with_coverage=False).coverage is None
