"""The manual's example of the test oracle (docs/checks.md, "The test oracle"), run as a test.

``play`` and ``settle`` stand in for the engine under test: a small baccarat engine written
independently of the analyser (from RULES.md), which a game developer would import instead.
"""

from decimal import Decimal
from fractions import Fraction

from hypothesis import given

from analyzer.core.exact import round_fraction
from analyzer.testing import assert_coup, assert_payout, card_sequences, decision_cells, house_edge

# ---- the engine under test (yours would be imported) ---------------------------------------------

POINTS = {"A": 1, "10": 0, "J": 0, "Q": 0, "K": 0} | {str(n): n for n in range(2, 10)}
BANKER_DRAWS = {3: "012345679", 4: "234567", 5: "4567", 6: "67"}  # Player's third card values
HELP_SCREEN_BANKER_EDGE = "1.06%"  # what the game's help screen tells players


def play(cards: list[str]) -> dict[str, object]:
    """Deal a coup from card texts such as '10h' or 'K', in dealing order."""
    value = [POINTS[c.rstrip("shdc").upper()] for c in cards]
    player, banker = [0, 2], [1, 3]

    def total(hand: list[int]) -> int:
        return sum(value[i] for i in hand) % 10

    if max(total(player), total(banker)) < 8:
        if total(player) <= 5:
            player.append(4)
        third = str(value[4]) if len(player) == 3 else None
        b = total(banker)
        if b <= 2 or (third is None and b <= 5) or (third is not None and third in BANKER_DRAWS.get(b, "")):
            banker.append(len(player) + 2)
    p, b = total(player), total(banker)
    return {
        "player": [cards[i] for i in player],
        "banker": [cards[i] for i in banker],
        "player_total": p,
        "banker_total": b,
        "winner": "player" if p > b else "banker" if b > p else "tie",
    }


def settle(bet: str, result: dict[str, object], stake: Decimal) -> Decimal:
    """Net amount won on a bet (negative: lost)."""
    if result["winner"] == "tie":
        return stake * 8 if bet == "tie" else Decimal(0)
    if result["winner"] != bet:
        return -stake
    return stake * Decimal("0.95") if bet == "banker" else stake


# ---- the tests -----------------------------------------------------------------------------------


@given(decision_cells(8))
def test_engine_follows_the_tableau_in_every_cell(coups):
    for cards in coups:  # one coup through every cell of the table of play, each example
        result = play([str(c) for c in cards])
        assert_coup(cards, **result)  # AssertionError names the rule broken, e.g. "Player on 6 must stand"


@given(card_sequences(8))
def test_engine_settles_the_main_bets(cards):
    result = play([str(c) for c in cards])
    for bet in ("banker", "player", "tie"):
        assert_payout(bet, cards, stake=10, paid=str(settle(bet, result, Decimal(10))))


def test_help_screen_states_the_exact_house_edge():
    edge = round_fraction(100 * house_edge("banker", 8), 2)
    assert f"{edge}%" == HELP_SCREEN_BANKER_EDGE
    assert house_edge("banker", 8) < Fraction(11, 1000)
