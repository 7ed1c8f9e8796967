"""Replay the settlement vectors of punto-banco-analyzer against a baccarat engine.

    punto-banco vectors -o vectors --keyed
    python examples/vectors/check_settlements.py vectors

The engine under test here is a small stand-in written for this file, to show the loader works:
replace ``deal`` and ``settle`` with calls into your own engine.  It offers three bets; the loader
checks those on every coup (the seeded ones, then the coverage coups, which settle every event
of every bet in every class: a pair on a side that drew, each deal, each suit pattern) and skips
the bets the engine does not offer.  Exit code 0: every coup agrees; 1: the differences are
listed, each with its coup and, for a coverage coup, the class it was kept for.
"""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from typing import Any

# ---- the engine under test (yours would be imported) ---------------------------------------------

POINTS = {"A": 1, "T": 0, "J": 0, "Q": 0, "K": 0} | {str(n): n for n in range(2, 10)}
BANKER_DRAWS = {3: "012345679", 4: "234567", 5: "4567", 6: "67"}  # Player's third card values


def deal(cards: list[str]) -> dict[str, Any]:
    """Cards such as '8s' in dealing order -> the coup: hands, totals, who drew, the winner."""
    value = [POINTS[c[0]] for c in cards]
    player, banker = [0, 2], [1, 3]

    def total(hand: list[int]) -> int:
        return sum(value[i] for i in hand) % 10

    if max(total(player), total(banker)) < 8:
        if total(player) <= 5:
            player.append(4)
        third = str(value[4]) if len(player) == 3 else None
        b = total(banker)
        if b <= 2 or (b <= 5 if third is None else third in BANKER_DRAWS.get(b, "")):
            banker.append(len(player) + 2)
    p, b = total(player), total(banker)
    return {
        "player": [cards[i] for i in player],
        "banker": [cards[i] for i in banker],
        "player_total": p,
        "banker_total": b,
        "player_draws": len(player) == 3,
        "banker_draws": len(banker) == 3,
        "winner": "player" if p > b else "banker" if b > p else "tie",
    }


def settle(bet: str, coup: dict[str, Any]) -> Fraction | None:
    """Net result per unit staked of ``bet`` on ``coup``; None for a bet the engine does not offer."""
    hand = coup["player"]
    if bet == "banker":
        return {"banker": Fraction(19, 20), "tie": Fraction(0)}.get(str(coup["winner"]), Fraction(-1))
    if bet == "player-pair":  # the Player's first two cards are a pair
        return Fraction(11) if hand[0][0] == hand[1][0] else Fraction(-1)
    if bet == "big":  # five or six cards dealt
        return Fraction(27, 50) if len(hand) + len(coup["banker"]) > 4 else Fraction(-1)
    return None


# ---- the loader: every settlement coup, against the engine ---------------------------------------


def replay(path: str) -> list[str]:
    """Every difference between the engine and settlements.jsonl (keyed or not), as lines."""
    failures = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            keyed = "bets" in rec  # `vectors --keyed`; else the positional records
            cards = rec["cards"] + rec["spare"] if keyed else rec["cards"]
            nets = rec["bets"] if keyed else {b: r["net"] for b, r in rec["results"].items()}
            mine = deal(cards)
            where = f"coup {rec['coup']} ({rec['kind']}) {' '.join(cards)}"
            used = len(mine["player"]) + len(mine["banker"])
            if used != rec["cards_used"]:
                failures.append(f"{where}: the engine used {used} cards, expected {rec['cards_used']}")
            if keyed:  # compare who drew, not only the totals and the winner
                for field in ("player_draws", "banker_draws", "player_total", "banker_total", "winner"):
                    if mine[field] != rec[field]:
                        failures.append(f"{where}: {field} {mine[field]}, expected {rec[field]}")
            for bet, expected in nets.items():
                paid = settle(bet, mine)
                if paid is not None and paid != Fraction(expected):
                    why = "".join(f" [{case}]" for case in rec["covers"].get(bet, ()))
                    failures.append(f"{where}: {bet} paid {paid}, expected {expected}{why}")
    return failures


if __name__ == "__main__":
    found = replay(f"{sys.argv[1] if len(sys.argv) > 1 else 'vectors'}/settlements.jsonl")
    print("\n".join(found[:20]) or "every settlement coup agrees")
    sys.exit(1 if found else 0)
