"""`analyzer.checks.coverage`: coups that settle every event of a bet in every class of the deal
and of the cards it reads, each checked on the resolved coup; targets that cannot happen are
proved so; the decision cells of a tableau as concrete coups."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from analyzer.bets.catalogue import catalogue_bets, find_bet
from analyzer.bets.files import load_bets
from analyzer.checks.coverage import (
    DEAL_AXIS,
    DEALS,
    Target,
    axes,
    cell_coups,
    coverage,
    deal_of,
    decision_cells_of,
    event_coups,
    possible_targets,
)
from analyzer.core.coup import resolve
from analyzer.core.reads import BASE_FIELDS, Reads
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import STANDARD, find_tableau
from analyzer.engine.pricing import distribution, price
from analyzer.errors import OracleError

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
#: Value bets, a combined wager, pair, suit and colour bets.
BETS = ("banker", "tie+player", "player-pair", "perfect-pair:2", "fabulous-pair", "all-red", "dragon-7")


def _check_coups(bets, found) -> None:
    """Every coup: 4-6 cards and their spare ones to six, dealable from 8 decks, settling its
    bet at its event and net pay, in its class, as resolve and Bet.settle say."""
    by_name = {b.name: b for b in bets}
    for c in found.coups:
        bet = by_name[c.bet]
        coup = resolve(c.cards)
        assert coup.cards_dealt == len(c.cards) and 4 <= len(c.cards) <= 6
        assert len(c.cards) + len(c.spare) == 6 and resolve([*c.cards, *c.spare]) == coup
        assert max(Counter(map(str, [*c.cards, *c.spare])).values()) <= 8  # an 8-deck shoe deals it
        assert all(card.suit is not None for card in c.cards)
        assert bet.settle(coup) == (c.event, c.net), c
        axis, _, cls = c.case.partition(": ")
        assert {a.name: a.of(coup) for a in axes(bet.reads)}[axis] == cls, c


def test_every_event_of_some_bets_is_reached_in_every_possible_class():
    bets = [find_bet(b) for b in BETS]
    found = coverage(bets)
    assert found.not_found == ()
    _check_coups(bets, found)
    for bet in bets:
        targets = possible_targets(bet)
        reached = {(c.event, c.case) for c in found.coups if c.bet == bet.name}
        assert reached == {(t.event, t.case) for t in targets.possible}
        # every event the bet can settle on 8 decks, and only those, is reached
        events = {e.event for e in price(bet, Shoe.standard(8)).events if e.count}
        assert {e for e, _ in reached} == events


def test_the_classes_are_those_the_bet_reads():
    reached = {(c.bet, c.event, c.case) for c in coverage([find_bet(b) for b in BETS]).coups}
    # a pair on a side that drew a third card, and on one that stood
    assert ("player-pair", "Player pair", "deal: Player drew, Banker drew") in reached
    assert ("player-pair", "Player pair", "deal: Player stood, Banker stood") in reached
    # identical cards (a suited pair) against a pair of another suit, which loses Perfect Pair
    pp = "Player's first two cards"
    assert ("perfect-pair:2", "One side suited pair", f"suits of {pp}: identical cards") in reached
    assert ("perfect-pair:2", "Loss", f"ranks of {pp}: ranks 2") in reached
    assert ("fabulous-pair", "Pair, not suited", f"suits of {pp}: mixed suits") in reached
    # all red, all black and mixed colours
    for cls in ("all red", "all black", "mixed colours"):
        assert any(b == "all-red" and c == f"colours of all cards: {cls}" for b, _, c in reached), cls
    # a value bet is classed by the deal only
    assert {a.name for a in axes(find_bet("banker").reads)} == {DEAL_AXIS}


def test_a_picture_bet_is_classed_by_its_pictures_and_every_class_is_reached():
    from analyzer.bets.files import parse_bets

    (bet,) = parse_bets('[[bet]]\nname = "two-pictures"\n[[bet.pay]]\nevent = "Two pictures"\n'
                        "when = { player_first_two = { pictures = 2 } }\npays = 15\n", "pictures.toml")
    pp = "Player's first two cards"
    by_name = {a.name: a.domain for a in axes(bet.reads)}
    assert by_name == {DEAL_AXIS: DEALS, f"pictures of {pp}": ("pictures 2", "pictures 1", "pictures 0")}
    found = coverage([bet])
    assert found.not_found == ()
    _check_coups([bet], found)
    reached = {(c.event, c.case) for c in found.coups}
    for n in (0, 1):  # a ten is not a picture: one picture and a ten, or two tens, lose
        assert ("Loss", f"pictures of {pp}: pictures {n}") in reached
    assert ("Two pictures", f"pictures of {pp}: pictures 2") in reached
    assert ("Two pictures", f"pictures of {pp}: pictures 1") not in reached


def test_impossible_targets_are_exactly_those_no_coup_reaches():
    # the deal and a value bet's event are both read off a coup's base fields: every record of
    # the 8-deck distribution at those fields says which pairs happen (a path apart from the
    # split table that possible_targets prices)
    records = distribution(Shoe.standard(8), Reads.of(BASE_FIELDS))
    for name in ("banker", "dragon-7", "egalite:5", "dragon-bonus-player", "big"):
        bet = find_bet(name)
        seen = {
            (bet.settle(r)[0], f"{DEAL_AXIS}: {deal_of(r)}")
            for r, n in zip(records.records, records.counts, strict=True)
            if n
        }
        targets = possible_targets(bet)
        assert {(t.event, t.case) for t in targets.possible} == seen, name
        assert {(t.event, t.case) for t in targets.impossible} == {
            (e, f"{DEAL_AXIS}: {d}") for e, _ in targets.events for d in DEALS
        } - seen
    dragon = {(t.event, t.case) for t in possible_targets(find_bet("dragon-7")).impossible}
    assert ("Banker wins with 3-card 7", "deal: Player drew, Banker stood") in dragon  # it must draw
    assert ("Tie on 5", "deal: natural: Player") in {(t.event, t.case) for t in possible_targets(
        find_bet("egalite:5")).impossible}


def test_the_search_is_deterministic_and_says_what_it_did_not_find():
    bet = find_bet("perfect-pair:2")
    first = coverage([bet], seed=5)
    assert coverage([bet], seed=5) == first
    assert coverage([bet], seed=6).coups != first.coups  # the seed matters
    nothing = coverage([bet], tries=0, variants=0)
    assert nothing.coups == () and set(nothing.not_found) == set(possible_targets(bet).possible)
    assert nothing.impossible == possible_targets(bet).impossible
    assert nothing.why(nothing.not_found[0]).startswith("not found within 0 candidates and 0 variants")
    assert nothing.why(nothing.impossible[0]).startswith("impossible: no sequence of six cards")
    assert first.why(Target(*first.coups[0][:3])).startswith("reached by the coup ")
    assert event_coups(bet, seed=5) == first.coups
    with pytest.raises(OracleError, match="twice"):
        coverage([bet, bet])
    with pytest.raises(OracleError, match="bad seed"):
        coverage([bet], seed=-1)


def test_a_bet_from_a_file_is_covered_like_a_catalogue_bet():
    bets = load_bets(str(EXAMPLES / "bets.toml"))
    found = coverage(bets)
    assert found.not_found == () and {c.bet for c in found.coups} == {b.name for b in bets}
    _check_coups(bets, found)
    cases = {c.case for c in found.coups if c.event == "Tie on natural 8 or 9"}
    assert cases == {"deal: natural: both"}  # a tie on naturals needs both sides' natural


@pytest.mark.slow
def test_every_event_of_every_catalogue_bet_is_reached_or_declared():
    bets = list(catalogue_bets())
    found = coverage(bets)
    assert found.not_found == ()  # within the default bounds, every possible target is reached
    _check_coups(bets, found)
    for bet in bets:
        reached = {c.event for c in found.coups if c.bet == bet.name}
        events = {e.event: e.count for e in price(bet, Shoe.standard(8)).events}
        assert reached == {e for e, n in events.items() if n}, bet.name
        impossible = {t.event for t in found.impossible if t.bet == bet.name}
        assert {e for e, n in events.items() if not n} <= impossible


# -- decision cells ----------------------------------------------------------------------------------


@pytest.mark.parametrize("decks", [1, 8])
def test_cell_coups_pass_through_every_cell(decks):
    coups = cell_coups(decks=decks, seed=11)
    cells = decision_cells_of()
    assert len(coups) == len(cells) == 91
    for cards, (kind, banker, third) in zip(coups, cells, strict=True):
        assert len(cards) == 6 and max(Counter(map(str, cards)).values()) <= decks
        coup = resolve(cards)
        if kind.startswith("natural"):
            assert coup.naturals == kind.removeprefix("natural-")
        else:
            assert not coup.natural and coup.banker_two_card_total == banker and coup.player_third == third
    assert cell_coups(decks=decks, seed=11) == coups and cell_coups(decks=decks, seed=12) != coups
    assert repr(coups) == f"cell_coups(decks={decks}, seed=11)"


def test_cell_coups_follow_the_tableau():
    rules = find_tableau("banker-stands-on-6")
    coups = cell_coups(rules, seed=2)
    assert len(coups) == len(decision_cells_of(rules))
    assert repr(coups) == "cell_coups(tableau='banker-stands-on-6', decks=8, seed=2)"
    for cards, (kind, banker, third) in zip(coups, decision_cells_of(rules), strict=True):
        if kind == "banker":
            coup = resolve(cards, rules)
            assert (coup.banker_two_card_total, coup.player_third) == (banker, third)
    assert decision_cells_of(STANDARD)[:3] == tuple((k, None, None) for k in (
        "natural-player", "natural-banker", "natural-both"))
    with pytest.raises(OracleError, match="bad decks"):
        cell_coups(decks=0)
