"""Catalogue tie bets built in Python: Égalité (its parameter is a set of tie totals and a pay)
and sheet 000's Tie staked with Player or Banker."""

from __future__ import annotations

from analyzer.bets.families.params import (
    F,
    T,
)
from analyzer.bets.main import banker, player, tie
from analyzer.bets.main import winning_pay as _pay
from analyzer.bets.model import Bet, PayLine, combine
from analyzer.core.exact import fraction_text
from analyzer.core.reads import Reads
from analyzer.errors import BetError

WINNER_TOTALS = Reads.of(["player_total", "banker_total"])
#: Égalité pays per tie total (RULES.md, "Égalité").
EGALITE_PAYS: dict[int, int] = {0: 150, 1: 215, 2: 225, 3: 200, 4: 120, 5: 110, 6: 45, 7: 45, 8: 80, 9: 80}
#: tie totals -> pays.
EGALITE_GROUPS: dict[str, int] = {"0": 160, "1-3": 70, "4-5": 60, "6-7": 22, "8-9": 40}


def egalite(param: str | None) -> Bet:
    """Égalité: a tie on the named total(s).  ``PARAM`` is a total ``0``..``9``, or several
    (``0-2``, ``8,9``) for a grouped tie bet; pays per RULES.md for one total.  A group pays
    ``TOTALS@PAY`` (e.g. ``8,9@40``)."""
    if param is None:
        raise BetError("egalite needs a tie total: egalite:0 .. egalite:9, or a group such as egalite:8,9@40")
    spec, _, pay_text = param.partition("@")
    totals = _parse_totals(spec)
    if len(totals) == 1 and not pay_text:
        pays = F(EGALITE_PAYS[totals[0]])
    elif not pay_text:
        raise BetError(f"egalite group {spec!r} needs its pay: e.g. egalite:{spec}@40")
    else:
        pays = _pay(pay_text, 1)
    label = ",".join(map(str, totals))
    return Bet(
        f"egalite:{label}" + (f"@{pay_text}" if pay_text else ""),
        f"Égalité {spec.strip()} ({fraction_text(pays)} to 1)",
        (PayLine(f"Tie on {label}", lambda c: c.winner is T and c.player_total in totals, pays),),
        reads=WINNER_TOTALS,
        source="RULES.md, Égalité",
        adjustable=0,
    )


def _parse_totals(spec: str) -> list[int]:
    out: set[int] = set()
    for part in spec.split(","):
        lo, dash, hi = part.strip().partition("-")
        if not all(x.strip().isdigit() and x.isascii() for x in ([lo, hi] if dash else [lo])):
            raise BetError(f"bad tie total {part!r}: use totals 0-9, e.g. 5, 0-2 or 8,9")
        a = int(lo)
        b = int(hi) if dash else a
        if not (0 <= a <= b <= 9):
            raise BetError(f"bad tie total {part!r}: use totals 0-9, e.g. 5, 0-2 or 8,9")
        out.update(range(a, b + 1))
    return sorted(out)



def tie_and_player(param: str | None) -> Bet:
    """Sheet 000's Tie (pay ``param``, default 8) and Player staked together, priced as one."""
    return combine([tie(param), player(None)])


def tie_and_banker(param: str | None) -> Bet:
    """Sheet 000's Tie (pay ``param``, default 8) and Banker staked together, priced as one."""
    return combine([tie(param), banker(None)])
