"""The tableau against RULES.md and the printed Table of Play of rule sheet 004."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from analyzer.core.cards import RANKS, SUITS, Card, hand_total
from analyzer.core.coup import Winner, resolve
from analyzer.core.tableau import banker_draws, player_draws
from analyzer.errors import CoupError

# RULES.md, "Tableau", step 4: Banker total -> Player third-card values on which the Banker draws.
RULES_MD_BANKER = {
    0: set(range(10)),
    1: set(range(10)),
    2: set(range(10)),
    3: {0, 1, 2, 3, 4, 5, 6, 7, 9},
    4: {2, 3, 4, 5, 6, 7},
    5: {4, 5, 6, 7},
    6: {6, 7},
    7: set(),
}


def test_player_rule():
    # RULES.md step 2: draws on 0-5, stands on 6-7.
    assert [t for t in range(8) if player_draws(t)] == [0, 1, 2, 3, 4, 5]


def test_banker_when_player_stood():
    # RULES.md step 3: draws on 0-5, stands on 6-7.
    assert [t for t in range(8) if banker_draws(t, None)] == [0, 1, 2, 3, 4, 5]


@pytest.mark.parametrize("total", range(8))
def test_banker_when_player_drew(total):
    assert {v for v in range(10) if banker_draws(total, v)} == RULES_MD_BANKER[total]


def test_sheet_004_table_of_play():
    # Sheet 004 prints "10" for a third card of point value 0 (RULES.md).
    printed = {3: "1, 2, 3, 4, 5, 6, 7, 9, 10", 4: "2, 3, 4, 5, 6, 7", 5: "4, 5, 6, 7", 6: "6, 7"}
    for total, text in printed.items():
        values = {int(x) % 10 for x in text.split(", ")}
        assert {v for v in range(10) if banker_draws(total, v)} == values


@pytest.mark.parametrize("bad", [-1, 10, 3.0, None])
def test_bad_totals(bad):
    with pytest.raises(ValueError, match="0-9"):
        player_draws(bad)


def test_sheet_004_worked_coup():
    # Sheet 004: Player 2+3 = 5 draws a 6 (total 1); Banker 4+10 = 4 draws an Ace (total 5): "Bank wins".
    coup = resolve("2 4 3 10 6 A")
    assert [str(c) for c in coup.player] == ["2", "3", "6"]
    assert [str(c) for c in coup.banker] == ["4", "10", "A"]
    assert (coup.player_total, coup.banker_total, coup.winner) == (1, 5, Winner.BANKER)
    assert coup.cards_used == 6


def test_naturals_stop_the_coup():
    coup = resolve("9 2 K 3 5 5")  # Player 9 natural; Banker 5 must not draw
    assert coup.player_natural and coup.cards_used == 4 and coup.winner is Winner.PLAYER


def test_too_few_cards():
    with pytest.raises(CoupError, match="at least 4"):
        resolve("2 4 3")
    with pytest.raises(CoupError, match="5th card"):
        resolve("2 4 3 10")


cards = st.builds(Card, st.sampled_from(RANKS), st.sampled_from(SUITS))


@given(st.lists(cards, min_size=6, max_size=6))
def test_resolve_follows_the_tableau_functions(seq):
    coup = resolve(seq)
    p2 = hand_total([c.point for c in seq[0:3:2]])
    b2 = hand_total([c.point for c in seq[1:4:2]])
    natural = p2 >= 8 or b2 >= 8
    assert coup.natural == natural
    p_draws = not natural and player_draws(p2)
    assert coup.player_drew == p_draws
    third = seq[4].point if p_draws else None
    assert coup.banker_drew == (not natural and banker_draws(b2, third))
    assert coup.cards_used == 4 + p_draws + coup.banker_drew
