"""What the game-math report says, gathered and exact: for each bet and each number of decks,
its :class:`~analyzer.engine.pricing.BetSummary` (house edge per coup and per resolved bet, hit
frequency, variance), the fair pay and the pay for a target house edge
(:func:`~analyzer.engine.pricing.pay_for_edge`); one run of the effects of removal
(:mod:`analyzer.studies.eor`) on one shoe; and the closed forms in the number of decks d
(:func:`analyzer.studies.symbolic.bet_forms`, ``pay_form``).  Rendered by
:mod:`analyzer.output.report` (Markdown, HTML, xlsx)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from analyzer.bets.model import Bet
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import STANDARD, Tableau
from analyzer.engine.pricing import BetSummary, Pricer, pay_for_edge
from analyzer.errors import BetError, RulesError, ShoeError
from analyzer.studies.eor import BetEOR, EORReport, effects_of_removal
from analyzer.studies.symbolic import BetForms, RationalFunction, bet_forms, pay_form


@dataclass(frozen=True)
class DeckFigures:
    """One bet on the standard shoe of ``decks`` decks: its exact :class:`BetSummary`, the fair
    pay of its adjustable line and the pay giving the report's target house edge (``None``
    when the bet has no single adjustable pay, or no positive pay gives that edge)."""

    decks: int
    summary: BetSummary
    fair_pay: Fraction | None
    target_pay: Fraction | None


@dataclass(frozen=True)
class BetSection:
    """Everything the report says about one bet.

    ``figures`` follow the report's deck counts; ``eor`` is the bet's effects of removal on the
    report's EOR shoe; ``forms`` its closed forms in d; ``fair_pay_form`` / ``target_pay_form``
    the pay of its adjustable line for a zero / the target house edge as functions of d
    (``None`` when it has no single adjustable pay, or no target was asked).
    """

    bet: Bet
    figures: tuple[DeckFigures, ...]
    eor: BetEOR
    forms: BetForms
    fair_pay_form: RationalFunction | None
    target_pay_form: RationalFunction | None


@dataclass(frozen=True)
class GameMathReport:
    """The report: one :class:`BetSection` per bet, for standard shoes of ``decks`` decks
    (in the order given), under ``tableau``; the effects of removal on ``eor_decks`` decks;
    ``target_edge`` the house edge (a fraction: 1/100 is 1%) the target pays are solved for,
    or ``None``; ``meta`` what produced it (tool, version, command, rules), as the caller
    gave it (empty: the renderings say the tool and its version)."""

    bets: tuple[BetSection, ...]
    decks: tuple[int, ...]
    eor_decks: int
    eor: EORReport
    target_edge: Fraction | None
    tableau: Tableau
    meta: Mapping[str, object]


def _deck_counts(decks: object) -> tuple[int, ...]:
    if isinstance(decks, str | bytes) or not isinstance(decks, Sequence):
        raise ShoeError(f"bad deck counts {decks!r}: give a list of whole numbers >= 1, e.g. [1, 6, 8]")
    out: list[int] = []
    for d in decks:
        if isinstance(d, bool) or not isinstance(d, int) or d < 1:
            raise ShoeError(f"bad number of decks {d!r}: use whole numbers >= 1")
        if d in out:
            raise ShoeError(f"{d} decks given twice: give each deck count once")
        out.append(d)
    if not out:
        raise ShoeError("no deck count given: give one or more, e.g. [8] or [1, 6, 8]")
    return tuple(out)


def _chosen_bets(bets: object) -> tuple[Bet, ...]:
    if isinstance(bets, str | bytes) or not isinstance(bets, Sequence):
        raise BetError(f"bad bets {bets!r}: give a list of Bet objects, e.g. [find_bet('dragon-7')]")
    chosen = tuple(bets)
    if not chosen:
        raise BetError("a report needs one or more bets")
    seen: set[str] = set()
    for b in chosen:
        if not isinstance(b, Bet):
            raise BetError(f"bad bet {b!r}: give a Bet, e.g. find_bet('dragon-7')")
        if b.name in seen:
            raise BetError(f"bet {b.name!r} is chosen twice: give each bet once, with a distinct name")
        seen.add(b.name)
    return chosen


def _pay(bet: Bet, shoe: Shoe, edge: Fraction, tableau: Tableau) -> Fraction | None:
    if bet.adjustable is None or bet.payout_function is not None:
        return None
    try:
        pay = pay_for_edge(bet, shoe, edge, tableau)
    except BetError:  # the adjustable line's event cannot happen on this shoe
        return None
    return pay if pay > 0 else None


def _pay_form(bet: Bet, edge: Fraction, tableau: Tableau) -> RationalFunction | None:
    if bet.adjustable is None or bet.payout_function is not None:
        return None
    try:
        return pay_form(bet, edge, tableau)
    except BetError:
        return None


def game_math_report(
    bets: Sequence[Bet],
    decks: Sequence[int],
    *,
    target_edge: Fraction | int | None = None,
    eor_decks: int | None = None,
    tableau: Tableau = STANDARD,
    meta: Mapping[str, object] | None = None,
) -> GameMathReport:
    """The game-math report of ``bets`` on the standard shoes of ``decks`` decks.

    Args:
        bets: the bets (catalogue bets, bets from files, any :class:`Bet`), distinct names.
        decks: deck counts, whole numbers >= 1, each once (e.g. ``[1, 6, 8]``).
        target_edge: a house edge per coup (an exact fraction: ``Fraction(1, 100)`` is 1%) to
            solve each adjustable pay for, besides the fair pay; ``None`` for the fair pay only.
        eor_decks: the shoe of the effects of removal (default: the largest of ``decks``).
        tableau: the rules.
        meta: what produced the report (default: none recorded; the renderings then name the
            tool, its version, the rules and the shoes).

    Returns:
        :class:`GameMathReport`, exact throughout.

    Raises:
        BetError: no bets, a bet that is not a Bet, a name given twice, a target edge that is
            not an exact number.
        ShoeError: no deck count, a count that is not a whole number >= 1, or one given twice.
        RulesError: ``tableau`` is not a Tableau.

    >>> from analyzer.bets.catalogue import find_bet
    >>> r = game_math_report([find_bet("tie")], [8])
    >>> r.bets[0].figures[0].summary.house_edge == r.bets[0].forms.house_edge(8)
    True
    """
    chosen = _chosen_bets(bets)
    counts = _deck_counts(decks)
    if target_edge is not None and (
        isinstance(target_edge, bool) or not isinstance(target_edge, int | Fraction)
    ):
        raise BetError(f"bad target edge {target_edge!r}: give an exact int or Fraction (1/100 for 1%)")
    edge = None if target_edge is None else Fraction(target_edge)
    at = max(counts) if eor_decks is None else _deck_counts([eor_decks])[0]
    if not isinstance(tableau, Tableau):
        raise RulesError(f"bad rules {tableau!r}: give a Tableau, e.g. analyzer.STANDARD")
    per_deck: list[list[DeckFigures]] = [[] for _ in chosen]
    for d in counts:
        shoe = Shoe.standard(d)
        for i, s in enumerate(Pricer(shoe, tableau).summaries(chosen)):
            per_deck[i].append(
                DeckFigures(
                    d,
                    s,
                    _pay(s.bet, shoe, Fraction(0), tableau),
                    None if edge is None else _pay(s.bet, shoe, edge, tableau),
                )
            )
    eor = effects_of_removal(Shoe.standard(at), chosen, by="rank", depth=1, tableau=tableau)
    sections = tuple(
        BetSection(
            bet,
            tuple(per_deck[i]),
            eor.bets[i],
            bet_forms(bet, tableau),
            _pay_form(bet, Fraction(0), tableau),
            None if edge is None else _pay_form(bet, edge, tableau),
        )
        for i, bet in enumerate(chosen)
    )
    return GameMathReport(sections, counts, at, eor, edge, tableau, dict(meta) if meta is not None else {})


__all__ = ["BetSection", "DeckFigures", "GameMathReport", "game_math_report"]
