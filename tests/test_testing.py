"""``analyzer.testing``: the oracle other projects import into their test suites."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from analyzer.core.cards import Card, hand_total, parse_cards
from analyzer.core.coup import Winner, resolve
from analyzer.core.shoe import Shoe
from analyzer.errors import AnalyzerError, CoupError
from analyzer.testing import (
    OracleError,
    OracleTypeError,
    assert_coup,
    assert_payout,
    card_sequences,
    coups,
    dealing_order,
    expected_probabilities,
    house_edge,
    probability,
    shoes,
)

# RULES.md, "Counting conventions" (Wizard of Odds): 8 and 6 decks, Banker / Player / Tie / total.
PUBLISHED = {
    8: (2292252566437888, 2230518282592256, 475627426473216, 4998398275503360),
    6: (403095751234560, 392220492728832, 83552962932288, 878869206895680),
}


def test_imports_without_click_tabulate_sympy_or_hypothesis():
    code = (
        "import sys, analyzer.testing\n"
        "bad = [m for m in ('click', 'tabulate', 'sympy', 'hypothesis') if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root)
    assert out.stdout.strip() == ""


@pytest.mark.parametrize("decks", [8, 6])
def test_expected_probabilities_match_the_published_counts(decks):
    banker, player, tie, total = PUBLISHED[decks]
    assert expected_probabilities(decks) == {
        "banker": Fraction(banker, total), "player": Fraction(player, total), "tie": Fraction(tie, total)}
    assert expected_probabilities(Shoe.standard(decks)) == expected_probabilities(decks)


def test_short_shoe_can_run_out():
    probs = expected_probabilities(Shoe.parse("A=2,K=2,5=1"))
    assert sum(probs.values()) < 1


def test_probability_and_house_edge():
    # RULES.md: 8 decks, Banker house edge 1.0579%, Tie 14.3596% (rounded to 4 decimals).
    assert round(house_edge("banker") * 100, 4) == Fraction(10579, 10000)
    assert round(house_edge("tie", 8) * 100, 4) == Fraction(143596, 10000)
    assert probability(lambda f: f.winner is Winner.TIE, 8) == expected_probabilities(8)["tie"]


# -- assert_coup ---------------------------------------------------------------------------------


def test_assert_coup_accepts_the_reference():
    coup = assert_coup("2 4 3 10 6 A", player="2 3 6", banker=["4", "10", "A"], player_total=1,
                       banker_total=5, winner="banker", player_draws=True, banker_draws=True, natural=False)
    assert coup.winner is Winner.BANKER


@pytest.mark.parametrize(("cards", "claims", "rule"), [
    ("2 K 3 3 8 4", {"banker": "K 3 4"}, "Banker on 3 must stand when the Player's third card is 8"),
    ("2 K 3 3 9 4", {"banker_draws": False}, "Banker on 3 must draw when the Player's third card is 9"),
    ("2 A 3 3 K 6", {"banker_draws": True}, "Banker on 4 must stand when the Player's third card is 0"),
    ("2 K 3 5 4 4", {"banker_draws": False}, "Banker on 5 must draw when the Player's third card is 4"),
    ("2 K 3 6 5 4", {"banker_draws": True}, "Banker on 6 must stand when the Player's third card is 5"),
    ("K K 6 7 2", {"player_draws": True}, "Player on 6 must stand"),
    ("3 K 5 5 2", {"banker_draws": True}, "Player has a natural 8: both hands stand"),
    ("10 K 6 Q 9", {"player_total": 16}, "A = 1, 2-9 face value, 10/J/Q/K = 0"),
    ("9 5 K 2", {"winner": "tie"}, "the higher total wins and equal totals tie: Player 9, Banker 7"),
    ("9 5 K 2", {"natural": False}, "Player has a natural 9: both hands stand"),
    ("7 5 K 2", {"natural": True}, "a natural is 8 or 9 on a side's first two cards"),
])
def test_assert_coup_explains_the_broken_rule(cards, claims, rule):
    with pytest.raises(AssertionError) as info:
        assert_coup(cards, **claims)
    message = str(info.value)
    headline = message.splitlines()[0]  # what pytest's summary line shows: the rule broken
    assert rule in headline and headline.endswith(f" -- coup {cards}")
    assert "reference: " in message and len(message.splitlines()) == 3


def test_assert_coup_rejects_contradictory_or_short_input():
    with pytest.raises(ValueError, match="contradicts"):
        assert_coup("2 4 3 10 6 A", player="2 3 6", player_draws=False)
    with pytest.raises(CoupError):
        assert_coup("2 4 3")
    with pytest.raises(CoupError):
        assert_coup("2 4 3 10", player_draws=True, banker_draws=True)


# -- assert_payout --------------------------------------------------------------------------------


def test_assert_payout():
    assert assert_payout("banker", "3 6 4 2", 10, "9.5") == Fraction(19, 2)
    assert assert_payout("banker", "3 6 4 2", 10, "19.5", returned=True) == Fraction(39, 2)
    assert assert_payout("player", "5 7 2 K", 10, 0) == 0  # a tie pushes the Player bet
    with pytest.raises(AssertionError, match="Banker wins: pays 19/20 per unit staked"):
        assert_payout("banker", "3 6 4 2", 10, 10)
    with pytest.raises(AssertionError, match="Banker wins with 6: pays 1/2"):
        assert_payout("punto-2000", "2 K 2 6 A", 10, 10)
    with pytest.raises(AssertionError, match="Tie \\(push\\): a push"):
        assert_payout("banker", "5 7 2 K", 10, -10)
    with pytest.raises(TypeError, match="float"):
        assert_payout("banker", "3 6 4 2", 10, 9.5)  # type: ignore[arg-type]


# -- strategies ----------------------------------------------------------------------------------


@given(shoes())
def test_shoes_hold_enough_cards(shoe):
    assert shoe.size >= 6


@given(st.data())
@settings(suppress_health_check=[HealthCheck.too_slow])
def test_card_sequences_come_from_the_shoe(data):
    shoe = data.draw(shoes(1, 2))
    cards = data.draw(card_sequences(shoe))
    assert len(cards) == 6
    counts = [0] * 13
    for c in cards:
        counts[c.rank.index] += 1
    assert all(n <= have for n, have in zip(counts, shoe.counts, strict=True))
    if shoe.suited is not None:
        assert all(c.suit is not None for c in cards)
        for c in set(cards):
            assert cards.count(c) <= shoe.suited[4 * c.rank.index + c.suit.index]


@given(coups(8))
def test_reference_coups_pass_their_own_check(coup):
    cards = dealing_order(coup)
    assert assert_coup(cards, player=coup.player, banker=coup.banker, player_total=coup.player_total,
                       banker_total=coup.banker_total, winner=coup.winner, natural=coup.natural) == coup


def _player_draws_on_six(cards: list[Card]) -> tuple[Card, ...]:
    """A buggy engine's Player hand: draws on 0-6 instead of 0-5."""
    p2 = hand_total([cards[0].point, cards[2].point])
    b2 = hand_total([cards[1].point, cards[3].point])
    natural = p2 >= 8 or b2 >= 8
    return (cards[0], cards[2], cards[4]) if not natural and p2 <= 6 else (cards[0], cards[2])


def test_hypothesis_finds_a_buggy_engine():
    def wrong(cards: list[Card]) -> bool:
        try:
            assert_coup(cards, player=_player_draws_on_six(cards))
        except AssertionError:
            return True
        return False

    found = find(card_sequences(8), wrong)
    p2 = hand_total([found[0].point, found[2].point])
    assert p2 == 6
    with pytest.raises(AssertionError, match="Player on 6 must stand"):
        assert_coup(found, player=_player_draws_on_six(found))


def test_dealing_order_round_trip():
    cards = parse_cards("2 4 3 10 6 A")
    assert dealing_order(resolve(cards)) == cards


# -- bad input (QA report: H3/H4, M10) -------------------------------------------------------------




@pytest.mark.parametrize("amount", ["1e999999999", "1e-999999999", "1e5000", "1" * 5001])
def test_huge_amount_text_is_rejected_quickly(amount):
    def stop(*_: object) -> None:
        raise TimeoutError("took more than 10 s")
    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(10)
    try:
        with pytest.raises(OracleError, match="bad paid"):
            assert_payout("banker", "3 6 4 2", 10, amount)
        with pytest.raises(OracleError, match="bad stake"):
            assert_payout("banker", "3 6 4 2", amount, 10)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def test_huge_exact_amounts_are_rejected():
    with pytest.raises(OracleError, match="at most 80 digits"):
        assert_payout("banker", "3 6 4 2", 10, 10**5000)


def test_float_amount_is_an_analyzer_error_and_a_type_error():
    with pytest.raises(OracleTypeError) as info:
        assert_payout("banker", "3 6 4 2", 10, 9.5)
    assert isinstance(info.value, AnalyzerError) and isinstance(info.value, TypeError)


def test_out_of_range_totals_are_claims_that_fail():
    with pytest.raises(AssertionError, match="player_total: expected 1, claimed 11"):
        assert_coup("2 4 3 10 6 A", player_total=11)
    with pytest.raises(AssertionError, match="banker_total: expected 5, claimed -5"):
        assert_coup("2 4 3 10 6 A", banker_total=-5)


@pytest.mark.parametrize("call", [
    lambda: expected_probabilities(None),
    lambda: expected_probabilities("8"),
    lambda: expected_probabilities(8.0),
    lambda: expected_probabilities(0),
    lambda: probability(None),
    lambda: probability(lambda f: True, 8, reads="card"),
    lambda: house_edge(None),
    lambda: house_edge(5),
    lambda: dealing_order(None),
    lambda: dealing_order("2 4 3 10 6 A"),
    lambda: assert_coup(None),
    lambda: assert_coup(5),
    lambda: assert_coup(b"2 4 3 10 6 A"),
    lambda: assert_coup([2, 4, 3, 10]),
    lambda: assert_coup("2 4 3 10 6 A", player=7),
    lambda: assert_coup("2 4 3 10 6 A", winner=5),
    lambda: assert_coup("2 4 3 10 6 A", winner="dealer"),
    lambda: assert_coup("2 4 3 10 6 A", player_total="1"),
    lambda: assert_coup("2 4 3 10 6 A", player_total=1.0),
    lambda: assert_coup("2 4 3 10 6 A", player_draws="yes"),
    lambda: assert_coup("2 4 3 10 6 A", natural=0),
    lambda: assert_coup("2 4 3 10 6 A", player="2 3", player_draws=True),
    lambda: assert_payout(None, "3 6 4 2", 10, 9),
    lambda: assert_payout("banker", "3 6 4 2", None, 9),
    lambda: assert_payout("banker", "3 6 4 2", 0, 0),
    lambda: assert_payout("banker", "3 6 4 2", 10, "abc"),
    lambda: assert_payout("banker", "3 6 4 2", 10, "9.5", returned="no"),
    lambda: shoes("1"),
    lambda: shoes(2, 1),
    lambda: card_sequences(size="6"),
    lambda: card_sequences(size=7),
    lambda: card_sequences("8"),
])
def test_wrong_arguments_raise_analyzer_errors(call):
    with pytest.raises(AnalyzerError):
        call()


def test_the_oracle_takes_bets_from_files_and_their_names_in_scope():
    """Issue 13: a Bet from ``load_bets`` / ``parse_bets`` is taken as it is; given as
    ``bets=`` its name is known too, else it is not."""
    from analyzer.bets.files import parse_bets
    from analyzer.errors import BetError

    (mine,) = parse_bets('[[bet]]\nname = "tie-pays-9"\n[[bet.pay]]\nwhen = { winner = "tie" }\npays = 9\n')
    assert house_edge(mine, 8) == house_edge("tie:9", 8)
    assert assert_payout(mine, "K 10 9 9", 10, 90) == 90
    assert house_edge("tie-pays-9", 6, bets=[mine]) == house_edge("tie:9", 6)
    with pytest.raises(AssertionError):
        assert_payout("tie-pays-9", "K 10 9 9", 10, 80, bets=[mine])
    with pytest.raises(BetError, match="unknown bet 'tie-pays-9'"):
        house_edge("tie-pays-9", 8)


# -- decision-cell coverage: a one-cell tableau bug is found reliably ----------------------------------


def test_decision_cells_pass_through_every_cell_of_the_table_of_play():
    from hypothesis import given, settings

    from analyzer.checks.oracle import DECISION_CELLS, decision_cells

    seen: set = set()
    naturals: set = set()

    @settings(max_examples=5, database=None, suppress_health_check=list(HealthCheck))
    @given(decision_cells(1))
    def check(coups):
        assert len(coups) == len(DECISION_CELLS) == 91
        for cards, (kind, banker, third) in zip(coups, DECISION_CELLS, strict=True):
            coup = resolve(cards)
            assert len(cards) == 6 and all(c.suit is not None for c in cards)
            assert max(cards.count(c) for c in cards) <= 1  # one deck: each card once
            if kind.startswith("natural"):
                side = kind.removeprefix("natural-")
                assert coup.naturals == side
                naturals.add(side)
                continue
            assert not coup.natural and coup.banker_two_card_total == banker
            assert coup.player_third == third  # None: the Player stood
            seen.add((banker, third))
            seen.add(("player", coup.player_two_card_total))

    check()
    assert naturals == {"player", "banker", "both"}
    assert seen >= {(b, v) for b in range(8) for v in (None, *range(10))}
    assert {p for k, p in seen if k == "player"} == set(range(8))


def _buggy_play(cards):
    """The manual's oracle example engine (docs/checks.md) with one cell wrong: the Banker draws
    on 6 against a 5."""
    from test_oracle_example import BANKER_DRAWS, play

    saved = BANKER_DRAWS[6]
    BANKER_DRAWS[6] = "567"
    try:
        return play(cards)
    finally:
        BANKER_DRAWS[6] = saved


@pytest.mark.parametrize("seed", range(6))
def test_decision_cells_find_a_one_cell_bug_at_every_seed(seed):
    # with card_sequences(8) and the default settings this bug was caught in 1 of 6 seeds
    from hypothesis import Phase, given, settings
    from hypothesis import seed as hypothesis_seed

    from analyzer.checks.oracle import decision_cells

    @hypothesis_seed(seed)
    @settings(database=None, max_examples=3, suppress_health_check=list(HealthCheck), phases=[Phase.generate])
    @given(decision_cells(8))
    def engine_test(coups):
        for cards in coups:
            assert_coup(cards, **_buggy_play([str(c) for c in cards]))

    with pytest.raises(AssertionError, match="Banker on 6 must stand when the Player's third card is 5"):
        engine_test()


# -- a failing hypothesis test reports short: the rule first, examples as card text -------------------


def _failure(test) -> tuple[str, list[str]]:
    """Run a failing hypothesis test: (its AssertionError's text, hypothesis's notes)."""
    with pytest.raises(AssertionError) as info:
        test()
    return str(info.value), list(getattr(info.value, "__notes__", []))


def test_a_failing_payout_test_names_the_pay_line_first_and_the_cards_as_text():
    from hypothesis import Phase, settings

    @settings(database=None, phases=[Phase.generate, Phase.shrink])
    @given(card_sequences(8))
    def engine_test(cards):
        assert_payout("banker", cards, 10, 10)  # a buggy engine: pays a Banker win in full, and every tie

    message, notes = _failure(engine_test)
    headline, *rest = message.splitlines()
    assert headline.startswith("Banker (5% commission), stake 10: ") and " -- coup " in headline
    assert len(rest) == 2 and rest[1].startswith("  reference: ")
    example = next(n for n in notes if "cards=" in n)
    shown = example.split("cards=", 1)[1].split(")", 1)[0] + ")"
    assert shown.startswith("Cards('") and "Rank." not in "".join(notes)
    from analyzer.testing import Cards

    assert isinstance(eval(shown, {"Cards": Cards}), Cards)  # the repr evaluates back to the cards
    assert sum(n.count("\n") + 1 for n in notes) <= 6


def test_a_failing_decision_cell_test_prints_one_call_not_91_coups():
    from hypothesis import Phase, settings

    from analyzer.testing import cell_coups, decision_cells

    @settings(database=None, phases=[Phase.generate, Phase.shrink])
    @given(decision_cells(8))
    def engine_test(coups):
        for cards in coups:
            assert_coup(cards, **_buggy_play([str(c) for c in cards]))

    message, notes = _failure(engine_test)
    rule = "Banker on 6 must stand when the Player's third card is 5"
    assert message.splitlines()[0].startswith(f"{rule} -- coup ")
    text = "\n".join(notes)
    call = re.search(r"coups=(cell_coups\(decks=8, seed=\d+\))", text)
    assert call is not None and text.count("\n") <= 4, text
    again = eval(call.group(1), {"cell_coups": cell_coups})  # the printed call deals the same coups
    with pytest.raises(AssertionError, match="Banker on 6 must stand"):
        for cards in again:
            assert_coup(cards, **_buggy_play([str(c) for c in cards]))


def test_a_coup_with_several_broken_rules_says_how_many_more():
    with pytest.raises(AssertionError) as info:
        assert_coup("2 K 3 3 8 4", banker="K 3 4", player_total=5, winner="player")
    headline, *rest = str(info.value).splitlines()
    rule = "Banker on 3 must stand when the Player's third card is 8"
    assert headline == f"{rule} (and 2 more rules broken) -- coup 2 K 3 3 8 4"
    assert len(rest) == 4 and all(" -- " in line for line in rest[1:3])
