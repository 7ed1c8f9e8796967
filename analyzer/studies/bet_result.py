"""What ``punto-banco bets`` says, computed once and frozen: the bets chosen, priced and, when
asked, their pays solved for a house edge (the library side of the command and of the web
service's price route; :mod:`analyzer.output.bet_tables` only turns these results into tables).

* :func:`bet_result`: the chosen bets (:func:`choose_bets`) priced on one shoe
  (:class:`~analyzer.engine.pricing.BetSummary`), the suited bets ``--all`` cannot price on a
  shoe without suits, and the pays solved for a fair bet or a target house edge, from the
  priced events (:mod:`analyzer.studies.ladder`, never priced again): of each bet's adjustable
  line, of the line whose event is ``adjust``, or of every win scaled by one factor (``scale``),
  each exact pay with the practical pays nearest it.  A :class:`BetsResult`.
* :func:`pays_result`: the catalogue bets whose pay table is a list of pays
  (:func:`~analyzer.bets.choice.find_by_pays`), priced.  A :class:`PaysResult`.
* :func:`catalogue_rows`: the catalogue as records (each entry's bet, provenance and pay-table
  names), for ``bets --list``.

Every number is exact (``Fraction``); nothing is rounded here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from analyzer.bets.catalogue import (
    CATALOGUE,
    Entry,
    PayTableName,
    Provenance,
    find_bet,
    main_bets,
    pay_table_names,
    provenance,
)
from analyzer.bets.choice import Choice, PayFinding, PayMatch, choose, find_by_pays
from analyzer.bets.main import parse_amount
from analyzer.bets.model import Bet
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import STANDARD, Tableau
from analyzer.engine.pricing import BetSummary, PracticalPay, Pricer
from analyzer.errors import BetError
from analyzer.limits import MAX_BETS_PER_FILE
from analyzer.studies.ladder import (
    ScaledLadder,
    ladder_lines,
    line_terms,
    near_pays,
    pay_for_line,
    scale_for_edge,
)

#: How the pays are solved for a house edge: each bet's adjustable line, the line named by
#: ``adjust``, or every winning pay scaled by one factor.
Ladder = Literal["adjustable", "line", "scale"]


def choose_bets(
    specs: Sequence[str],
    files: Sequence[str],
    all_bets: bool = False,
    max_bets: int = MAX_BETS_PER_FILE,
    texts: Sequence[tuple[str, str]] = (),
) -> list[Bet]:
    """Bets named on the command line (:func:`analyzer.bets.choice.choose`: catalogue specs and
    ``FILE:NAME`` picks, then every bet of each file, at most ``max_bets`` per file, then every
    bet of each bet file given as ``(label, text)`` in ``texts``); the main bets when nothing is
    named; the whole catalogue first with ``all_bets``.

    Raises:
        BetError: an unknown name, bad parameter, missing or malformed file, a file of too many
            bets, a file bet on a catalogue name, a bet chosen twice.
    """
    return list(choose(specs, files, all_bets=all_bets, max_bets=max_bets, texts=texts).bets) or main_bets()


@dataclass(frozen=True)
class SolvedLine:
    """One bet's pay line solved for the result's house edge.

    Attributes:
        bet: the bet.
        line: the index of the pay line solved for in ``bet.lines``.
        pay: the exact pay (per unit staked, "X to 1") of that line giving the house edge;
            ``None`` when no positive pay gives it or the line's event cannot happen on the shoe.
        near: the practical pays nearest ``pay`` on either side, "X to 1" and "X for 1", each
            with its exact house edge (:func:`analyzer.studies.ladder.near_pays`); empty when
            ``pay`` is ``None``.
    """

    bet: Bet
    line: int
    pay: Fraction | None
    near: tuple[PracticalPay, ...]

    @property
    def event(self) -> str:
        """The solved line's event, as the bet names it."""
        return self.bet.lines[self.line].event

    @property
    def pays_now(self) -> Fraction:
        """The solved line's pay as the bet has it now."""
        return self.bet.lines[self.line].pays


@dataclass(frozen=True)
class BetsResult:
    """The bets of ``punto-banco bets`` on one shoe, priced, with their pays solved when asked.

    Attributes:
        shoe: the shoe priced on.
        tableau: the rules.
        summaries: each priced bet's exact summary, in the order chosen.
        not_priced: the names of the suited bets ``--all`` left out on a shoe without suits.
        events: whether each bet's events table is asked for.
        house_edge: the house edge per coup the pays are solved for (a fraction: 1/100 is 1%;
            0 for the fair pay), or ``None`` when no pay is solved for.
        ladder: how the pays are solved (:data:`Ladder`), ``None`` with no ``house_edge``.
        adjust: the event of the line solved for under ``"line"``, else ``None``.
        solved: under ``"adjustable"`` and ``"line"``, each bet's solved line in order.
        scaled: under ``"scale"``, each bet's ladder (:class:`~analyzer.studies.ladder.ScaledLadder`).
        unsolved: the titles of the bets with nothing to solve: no single adjustable pay line
            (``"adjustable"``), no line ``adjust`` (``"line"``), no winning line that can happen
            or no positive factor (``"scale"``).
    """

    shoe: Shoe
    tableau: Tableau
    summaries: tuple[BetSummary, ...]
    not_priced: tuple[str, ...] = ()
    events: bool = False
    house_edge: Fraction | None = None
    ladder: Ladder | None = None
    adjust: str | None = None
    solved: tuple[SolvedLine, ...] = ()
    scaled: tuple[ScaledLadder, ...] = ()
    unsolved: tuple[str, ...] = ()


def bet_result(
    shoe: Shoe,
    specs: Sequence[str],
    files: Sequence[str],
    *,
    all_bets: bool = False,
    events: bool = False,
    fair_pay: bool = False,
    target_edge: str | Fraction | int | None = None,
    tableau: Tableau = STANDARD,
    max_bets: int = MAX_BETS_PER_FILE,
    texts: Sequence[tuple[str, str]] = (),
    adjust: str | None = None,
    scale: bool = False,
    choice: Choice | None = None,
) -> BetsResult:
    """The chosen bets (as :func:`choose_bets` reads ``specs``, ``files`` and ``texts``) priced
    on ``shoe`` under ``tableau``; with ``fair_pay`` or ``target_edge`` (percent, exact: text
    such as ``"1.5"`` or ``"3/2"``, a ``Fraction`` or an ``int``; a float is refused, not being
    exact), the pays giving a zero or that house edge, solved from the priced events: of each
    bet's adjustable line, of the line whose event is ``adjust``, or (``scale``) of every
    winning line times one factor.  ``choice``: those bets already chosen (as
    :func:`~analyzer.bets.choice.choose` chose them from the same arguments), not chosen again.
    With ``all_bets`` on a shoe without suits, the suited bets not named otherwise are left out
    (``not_priced``).

    Raises:
        BetError: as :func:`choose_bets`; a bad ``target_edge``; ``adjust`` names no line of any
            chosen bet; a named suited bet on a shoe without suits (from the pricing).
    """
    if isinstance(target_edge, float):
        raise BetError(
            f"bad target_edge {target_edge!r}: give it exactly, as text ('1.5') or a Fraction; "
            "a float is not exact"
        )
    if choice is None:
        choice = choose(specs, files, all_bets=all_bets, max_bets=max_bets, texts=texts)
    bets = list(choice.bets) or main_bets()
    skipped: list[str] = []
    if all_bets and shoe.suited is None:
        # --all on a shoe without suits: price everything that can be priced, say what cannot.
        named = {b.name for b in choice.named}
        skipped = [b.name for b in bets if b.reads.needs_suits and b.name not in named]
        bets = [b for b in bets if b.name not in skipped]
    summaries = tuple(Pricer(shoe, tableau).summaries(bets))
    result = BetsResult(shoe, tableau, summaries, tuple(skipped), events)
    if not (fair_pay or target_edge is not None):
        return result
    edge = Fraction(0) if target_edge is None else parse_amount(target_edge, "--target-edge") / 100
    if adjust is not None:
        solved, unsolved = _line_solutions(summaries, adjust, edge)
        return _replace(result, edge, "line", adjust, solved=solved, unsolved=unsolved)
    if scale:
        scaled, unsolved = _scaled(summaries, edge)
        return _replace(result, edge, "scale", None, scaled=scaled, unsolved=unsolved)
    solved, unsolved = _adjustable_solutions(summaries, edge)
    return _replace(result, edge, "adjustable", None, solved=solved, unsolved=unsolved)


def _replace(
    result: BetsResult,
    edge: Fraction,
    ladder: Ladder,
    adjust: str | None,
    *,
    solved: tuple[SolvedLine, ...] = (),
    scaled: tuple[ScaledLadder, ...] = (),
    unsolved: tuple[str, ...] = (),
) -> BetsResult:
    return BetsResult(
        result.shoe, result.tableau, result.summaries, result.not_priced, result.events,
        edge, ladder, adjust, solved, scaled, unsolved,
    )


def solve_line(summary: BetSummary, line: int, house_edge: Fraction) -> SolvedLine:
    """Pay line ``line`` of the priced bet solved for ``house_edge``, with the practical pays
    nearest the solution (:func:`analyzer.studies.ladder.pay_for_line`, ``near_pays``); a line
    whose event cannot happen, or for which no positive pay gives that edge, has pay ``None``."""
    try:
        q, rest = line_terms(summary, line)
    except BetError:  # the line's event cannot happen on this shoe
        return SolvedLine(summary.bet, line, None, ())
    solved = pay_for_line(summary, line, house_edge)
    if solved <= 0:  # no winning pay gives that edge
        return SolvedLine(summary.bet, line, None, ())
    return SolvedLine(summary.bet, line, solved, near_pays(solved, q, rest))


def _adjustable_solutions(
    summaries: Sequence[BetSummary], house_edge: Fraction
) -> tuple[tuple[SolvedLine, ...], tuple[str, ...]]:
    """Each bet's one adjustable line solved; the titles of the bets without one (several
    pays, or a payout function)."""
    solved: list[SolvedLine] = []
    unsolved: list[str] = []
    for summary in summaries:
        bet = summary.bet
        if bet.adjustable is None or bet.payout_function is not None:
            unsolved.append(bet.title)
            continue
        solved.append(solve_line(summary, bet.adjustable, house_edge))
    return tuple(solved), tuple(unsolved)


def _line_solutions(
    summaries: Sequence[BetSummary], event: str, house_edge: Fraction
) -> tuple[tuple[SolvedLine, ...], tuple[str, ...]]:
    """Each bet's line ``event`` solved; the titles of the bets without it.

    Raises:
        BetError: no bet has the line (:func:`analyzer.studies.ladder.ladder_lines`).
    """
    solved: list[SolvedLine] = []
    unsolved: list[str] = []
    for summary, index in ladder_lines(summaries, event):
        if index is None:
            unsolved.append(summary.bet.title)
        else:
            solved.append(solve_line(summary, index, house_edge))
    return tuple(solved), tuple(unsolved)


def _scaled(
    summaries: Sequence[BetSummary], house_edge: Fraction
) -> tuple[tuple[ScaledLadder, ...], tuple[str, ...]]:
    """Each bet's ladder scaled to ``house_edge``; the titles of the bets it cannot be solved
    for (a payout function, no winning line that can happen, no positive factor)."""
    ladders: list[ScaledLadder] = []
    unsolved: list[str] = []
    for summary in summaries:
        try:
            ladders.append(scale_for_edge(summary, house_edge))
        except BetError:
            unsolved.append(summary.bet.title)
    return tuple(ladders), tuple(unsolved)


@dataclass(frozen=True)
class PaysResult:
    """The catalogue bets found by their pays (``punto-banco bets --pays``), priced.

    Attributes:
        shoe: the shoe priced on.
        tableau: the rules.
        finding: what :func:`~analyzer.bets.choice.find_by_pays` found (the pays searched for,
            every match, the parameter matches not listed).
        matches: the matches priced, in the finding's order (the suited ones left out on a
            shoe without suits).
        summaries: each priced match's exact summary, in the order of ``matches``.
        not_priced: the names of the suited bets left out on a shoe without suits.
        events: whether each bet's events table is asked for.
    """

    shoe: Shoe
    tableau: Tableau
    finding: PayFinding
    matches: tuple[PayMatch, ...]
    summaries: tuple[BetSummary, ...]
    not_priced: tuple[str, ...] = ()
    events: bool = False


def pays_result(
    shoe: Shoe,
    pays: str | Sequence[Fraction],
    *,
    with_params: bool = False,
    events: bool = False,
    tableau: Tableau = STANDARD,
    finding: PayFinding | None = None,
) -> PaysResult:
    """The catalogue bets whose pay table is ``pays`` (:func:`analyzer.bets.choice.find_by_pays`:
    the published tables, with ``with_params`` also the bets whose parameter gives those pays,
    else the nearest tables), priced on ``shoe``.  A suited bet on a shoe without suits is not
    priced (named in ``not_priced``).  ``finding``: those bets already found
    (``find_by_pays(pays, with_params=with_params)``), not searched again.

    Raises:
        BetError: bad pays (:func:`analyzer.bets.choice.parse_pays`).
    """
    if finding is None:
        finding = find_by_pays(pays, with_params=with_params)
    matches = list(finding.matches)
    skipped: list[str] = []
    if shoe.suited is None:
        skipped = [m.bet.name for m in matches if m.bet.reads.needs_suits]
        matches = [m for m in matches if not m.bet.reads.needs_suits]
    summaries = Pricer(shoe, tableau).summaries([m.bet for m in matches])
    return PaysResult(shoe, tableau, finding, tuple(matches), tuple(summaries), tuple(skipped), events)


@dataclass(frozen=True)
class CatalogueRow:
    """One catalogue entry as ``bets --list`` shows it: the entry, its bet with the default
    parameter (``egalite`` at 5), the bet's provenance (``None`` when it has none) and the
    names sources give its pay tables."""

    entry: Entry
    bet: Bet
    provenance: Provenance | None
    pay_table_names: tuple[PayTableName, ...]


def catalogue_rows() -> tuple[CatalogueRow, ...]:
    """Every catalogue entry, in catalogue order, as a :class:`CatalogueRow`."""
    rows = []
    for e in CATALOGUE:
        bet = find_bet(e.name if e.name != "egalite" else "egalite:5")
        rows.append(CatalogueRow(e, bet, provenance(bet), tuple(pay_table_names(e.name))))
    return tuple(rows)


__all__ = [
    "BetsResult",
    "CatalogueRow",
    "Ladder",
    "PaysResult",
    "SolvedLine",
    "bet_result",
    "catalogue_rows",
    "choose_bets",
    "pays_result",
    "solve_line",
]
