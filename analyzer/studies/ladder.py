"""A pay ladder priced to a target house edge: one chosen line adjusted, or every win scaled.

A bet's EV per unit staked is linear in the pay of any one of its lines and in a common factor
on all its wins, so both questions are solved exactly from one priced :class:`BetSummary`
(its events' exact probabilities), without walking the dealing tree again:

* **one line** ``x`` (the line whose event is ``event``): EV(x) = q x + r, with q the line's
  probability and r the EV of the rest, so x = (-edge - r) / q;
* **every win scaled** by ``k``: EV(k) = k W + L, with W = sum of p_i pays_i over the winning
  lines and L the EV of the pushes and losses, so k = (-edge - L) / W.

Beside each exact pay stand the nearest practical pays (the grid of
:data:`analyzer.engine.pricing.PRACTICAL_STEPS`), each with its exact house edge.  Source of the
linearity: the definition of EV, a sum over events of probability x pays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from analyzer.engine.pricing import PAY_FORMS, PRACTICAL_STEPS, BetSummary, PracticalPay, practical_step
from analyzer.errors import BetError


def _line_probability(summary: BetSummary, event: str) -> Fraction:
    return sum((r.probability for r in summary.events if r.event == event), Fraction(0))


def find_line(summary: BetSummary, event: str) -> int | None:
    """The index of the bet's pay line whose event is ``event`` (compared case-insensitively,
    runs of spaces as one), or ``None`` when it has none (a payout function has no pay lines)."""
    bet = summary.bet
    if bet.payout_function is not None:
        return None
    wanted = " ".join(event.split()).casefold()
    for i, line in enumerate(bet.lines):
        if " ".join(line.event.split()).casefold() == wanted:
            return i
    return None


def line_terms(summary: BetSummary, line: int) -> tuple[Fraction, Fraction]:
    """(q, r) with EV(x) = q x + r for the pay x of pay line ``line`` (exact).

    Raises:
        BetError: the line's event cannot happen on this shoe (q = 0).
    """
    bet = summary.bet
    event = bet.lines[line].event
    q = _line_probability(summary, event)
    if q == 0:
        raise BetError(f"the event {event!r} of bet {bet.name!r} cannot happen on this shoe")
    return q, summary.ev - q * bet.lines[line].pays


def pay_for_line(summary: BetSummary, line: int, house_edge: Fraction) -> Fraction:
    """The pay of pay line ``line`` that gives ``house_edge`` per coup (0: fair), exactly.

    Raises:
        BetError: as :func:`line_terms`.

    >>> from analyzer import Shoe, find_bet, price
    >>> s = price(find_bet("dragon-bonus-player"), Shoe.standard(8))
    >>> pay_for_line(s, find_line(s, "Non-natural win by 9"), Fraction(0)) > 30
    True
    """
    q, rest = line_terms(summary, line)
    return (-house_edge - rest) / q


def near_pays(target: Fraction, q: Fraction, rest: Fraction) -> tuple[PracticalPay, ...]:
    """The practical pays nearest ``target`` on either side, quoted "X to 1" and "X for 1",
    each with its exact house edge -(q pays + rest); a pay that is no win (0 or less) is left out
    (as :func:`analyzer.engine.pricing.practical_pays` lists them)."""
    out: list[PracticalPay] = []
    for form in PAY_FORMS:
        quoted = target + (1 if form == "for" else 0)
        step = practical_step(quoted) if quoted > 0 else PRACTICAL_STEPS[0][1]
        low = (quoted // step) * step
        high = -((-quoted) // step) * step
        sides = [("exact", low)] if low == high else [("below", low), ("above", high)]
        for side, value in sides:
            pays = value - (1 if form == "for" else 0)
            if pays > 0:
                out.append(PracticalPay(form, side, value, pays, -(q * pays + rest)))
    return tuple(out)


@dataclass(frozen=True)
class ScaledLadder:
    """Every winning pay of a bet times one factor, for a target house edge.

    Attributes:
        summary: the bet as priced now.
        factor: the exact factor k on every winning pay (pushes and losses unchanged).
        lines: per winning line: (event, pays now, probability, exact scaled pay k x pays,
            practical pay below, practical pay above); the practical pays are "X to 1" on the
            grid, ``None`` where none is a win.
        edges: the exact house edge of the whole ladder with every line at its practical pay
            ``"below"``, ``"nearest"`` and ``"above"`` (the nearest: the closer of the two;
            below on a tie).
    """

    summary: BetSummary
    factor: Fraction
    lines: tuple[tuple[str, Fraction, Fraction, Fraction, Fraction | None, Fraction | None], ...]
    edges: dict[str, Fraction]


def _grid(target: Fraction) -> tuple[Fraction | None, Fraction | None]:
    """The practical "X to 1" pays on the grid at or below and at or above ``target`` (> 0)."""
    step = practical_step(target)
    low = (target // step) * step
    high = -((-target) // step) * step
    return (low if low > 0 else None), high


def scale_for_edge(summary: BetSummary, house_edge: Fraction) -> ScaledLadder:
    """The factor on every winning pay of the bet that gives ``house_edge`` per coup, with each
    line's scaled pay and its nearest practical pays, and the ladder's exact edges at those.

    Raises:
        BetError: a payout function, or no winning line can happen on this shoe.

    >>> from analyzer import Shoe, find_bet, price
    >>> ladder = scale_for_edge(price(find_bet("tie"), Shoe.standard(8)), Fraction(0))
    >>> ladder.factor == ladder.lines[0][3] / 8
    True
    """
    bet = summary.bet
    if bet.payout_function is not None:
        raise BetError(f"bet {bet.name!r} is a payout function: it has no pay lines to scale")
    wins = [(ln.event, ln.pays, _line_probability(summary, ln.event)) for ln in bet.lines if ln.pays > 0]
    w = sum((p * pays for _, pays, p in wins), Fraction(0))
    if w == 0:
        raise BetError(f"no winning line of bet {bet.name!r} can happen on this shoe")
    rest = summary.ev - w
    factor = (-house_edge - rest) / w
    if factor <= 0:
        raise BetError(f"no positive factor on the pays of bet {bet.name!r} gives that house edge")
    lines = []
    for event, pays, p in wins:
        scaled = factor * pays
        low, high = _grid(scaled)
        lines.append((event, pays, p, scaled, low, high))
    edges: dict[str, Fraction] = {}
    for side in ("below", "nearest", "above"):
        ev = rest
        for _, _, p, scaled, low, high in lines:
            if side == "nearest":
                chosen = low if low is not None and (high is None or scaled - low <= high - scaled) else high
            else:
                chosen = low if side == "below" else high
            ev += p * (chosen if chosen is not None else 0)
        edges[side] = -ev
    return ScaledLadder(summary, factor, tuple(lines), edges)


def ladder_lines(summaries: Sequence[BetSummary], event: str) -> list[tuple[BetSummary, int | None]]:
    """Each priced bet with the index of its line ``event`` (``None`` when it has none).

    Raises:
        BetError: no bet has a line ``event`` (the message lists the events of the first bet).
    """
    found = [(s, find_line(s, event)) for s in summaries]
    if all(i is None for _, i in found):
        first = summaries[0].bet
        events = ", ".join(repr(ln.event) for ln in first.lines)
        raise BetError(f"no bet has a pay line {event!r}; the lines of {first.name!r} are {events}")
    return found
