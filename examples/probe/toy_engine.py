"""A small baccarat engine written without the analyser, for the probe's examples and tests.

Its bugs are planted on demand: the environment variable TOY_BUG (or the first command-line
argument) names one of
  banker-6-by-total   Banker on 6 draws by the Player's final total (6 or 7), not its third card
  no-banker-natural   a Banker natural does not stop the Player drawing
  pair-two-cards      Player Pair pays only when the Player's hand has two cards
  commission-down     a Banker win after 5% commission is rounded down to a whole unit
  stale-third         a side that stands keeps the previous coup's third card in its row
"""

import os
import sys
from fractions import Fraction

BUG = os.environ.get("TOY_BUG") or (sys.argv[1] if len(sys.argv) > 1 else "")
VALUE = {"A": 1, "T": 0, "1": 0, "J": 0, "Q": 0, "K": 0}  # "10" starts with "1"
BANKER_DRAWS = {3: set(range(10)) - {8}, 4: set(range(2, 8)), 5: set(range(4, 8)), 6: {6, 7}}
last = {"player": None, "banker": None}


def value(card):
    return VALUE.get(card[0], int(card[0]) if card[0].isdigit() else 0)


def total(hand):
    return sum(value(c) for c in hand) % 10


def deal(cards):
    """The coup dealt from the top of a shoe: the hands, totals and winner."""
    shoe = iter(cards)
    p1, b1, p2, b2 = (next(shoe) for _ in range(4))
    player, banker = [p1, p2], [b1, b2]
    natural = total(player) >= 8 or (total(banker) >= 8 and BUG != "no-banker-natural")
    if not natural and total(player) <= 5:
        player.append(next(shoe))
    b = total(banker)
    if not natural:
        if len(player) == 2:
            draws = b <= 5
        elif b == 6 and BUG == "banker-6-by-total":
            draws = total(player) in (6, 7)
        else:
            draws = b <= 2 or (b in BANKER_DRAWS and value(player[2]) in BANKER_DRAWS[b])
        if draws:
            banker.append(next(shoe))
    pt, bt = total(player), total(banker)
    shown = {"player": player, "banker": banker}
    if BUG == "stale-third":
        for side, hand in shown.items():
            if len(hand) == 2 and last[side]:
                shown[side] = hand + [last[side]]
            last[side] = hand[2] if len(hand) == 3 else last[side]
    winner = "player" if pt > bt else "banker" if bt > pt else "tie"
    return {"player": shown["player"], "banker": shown["banker"], "player_total": pt,
            "banker_total": bt, "winner": winner, "_hands": (player, banker)}


def settle(bet, coup, stake):
    """The net win of a bet on the coup (exact)."""
    stake, winner = Fraction(stake), coup["winner"]
    if bet in ("banker", "player"):
        if winner == "tie":
            return Fraction(0)
        if winner != bet:
            return -stake
        win = stake * Fraction(19, 20) if bet == "banker" else stake
        return Fraction(int(win)) if BUG == "commission-down" else win
    if bet == "tie":
        return 8 * stake if winner == "tie" else -stake
    if bet == "player-pair":
        player = coup["_hands"][0]
        pair = player[0][:-1] == player[1][:-1] and (BUG != "pair-two-cards" or len(player) == 2)
        return 11 * stake if pair else -stake
    raise ValueError(f"unknown bet {bet}")
