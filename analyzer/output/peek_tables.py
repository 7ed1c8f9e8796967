"""Partial information as tables (:class:`~analyzer.output.render.Table`): from a
:class:`~analyzer.studies.peek.PeekResult`, the patterns seen with each bet's EV and the best
bet, the edges of the bettor's strategies and the house's expected loss; from a
:class:`~analyzer.studies.peek.SortSearch`, the two-group sorts ranked by edge.  Every value is
exact (JSON gives ``"p/q"`` beside the exactly rounded decimal)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from analyzer.output.render import Cell, Column, Table
from analyzer.studies.peek import HouseExposure, PeekResult, SortingExposure, SortSearch

#: The kinds of table :func:`peek_tables` builds, in order.
PEEK_TABLES = ("patterns", "summary", "house")

_SLOT_TITLES = {
    "burn": "Burn card", "P1": "P1", "B1": "B1", "P2": "P2", "B2": "B2", "P3": "P3", "B3": "B3",
    "C5": "5th card", "C6": "6th card",
}


def _what(result: PeekResult) -> str:
    return f"{result.seen.text} seen, classes {result.classes.text}, {result.shoe.describe()}"


def peek_tables(
    result: PeekResult,
    exposure: Sequence[HouseExposure] = (),
    which: Sequence[str] = PEEK_TABLES,
) -> list[Table]:
    """The tables named in ``which`` (:data:`PEEK_TABLES`): ``patterns`` (a row per pattern:
    the class of each card seen, its probability, each bet's EV given it, the best bet and its
    EV), ``summary`` (the edge per coup of betting the best bet always, only when positive, and
    of each bet with nothing seen) and ``house`` (``exposure``: the house's expected loss per
    coup, shoe and hour)."""
    out: list[Table] = []
    if "patterns" in which:
        out.append(patterns_table(result))
    if "summary" in which:
        out.append(summary_table(result))
    if "house" in which and exposure:
        out.append(house_table(result, exposure))
    return out


def patterns_table(result: PeekResult) -> Table:
    """A row per pattern seen: the class per slot, probability, each bet's EV, the best bet."""
    slots = tuple(Column(_SLOT_TITLES[s], "text", f"seen_{s.lower()}") for s in result.seen.slots)
    evs = tuple(Column(f"EV {b.title}", "percent", f"ev_{b.name}") for b in result.bets)
    rows: list[tuple[Cell, ...]] = []
    for r in result.rows:
        best = result.bets[r.best]
        rows.append((
            *r.pattern, r.probability, *r.evs, best.title, best.name, r.best_ev,
            "yes" if r.best_ev > 0 else "no",
        ))
    return Table(
        "peek-patterns",
        f"What the bettor sees: {_what(result)}",
        (
            *slots,
            Column("Probability", "percent", "probability"),
            *evs,
            Column("Best bet", "text", "best_bet"),
            Column("Best bet name", "text", "best_bet_name", data_only=True),
            Column("Best EV", "percent", "best_ev"),
            Column("Bets", "text", "bets"),
        ),
        tuple(rows),
        (
            "Probability: of seeing the pattern on a coup (per coup dealt).  EV: the bet's exact "
            "expected win per unit staked given the pattern (+ favours the bettor).  Best bet: the "
            "highest EV of the bets named; Bets: whether that EV is positive.  'none': a third card "
            "not dealt.",
        ),
    )


def summary_table(result: PeekResult) -> Table:
    """The edge per coup dealt of each strategy: the best bet always, the best bet when its EV
    is positive, and each bet on every coup with nothing seen."""
    seen = result.seen_probability
    rows: list[tuple[Cell, ...]] = [
        ("Best bet on every coup", result.edge, seen, result.edge / seen),
        ("Best bet when its EV > 0", result.edge_when_positive, result.bet_frequency, result.edge_per_bet),
    ]
    for bet, ev in zip(result.bets, result.unconditioned, strict=True):
        rows.append((f"{bet.title}, nothing seen", ev, Fraction(1), ev))
    return Table(
        "peek-summary",
        f"The bettor's edge: {_what(result)}",
        (
            Column("Strategy", "text", "strategy"),
            Column("Edge per coup dealt", "percent", "edge"),
            Column("Coups bet", "percent", "bet_frequency"),
            Column("Edge per unit bet", "percent", "edge_per_bet"),
        ),
        tuple(rows),
        (
            "Edge: the bettor's expected win per unit staked (+ against the house).  Jacobson's "
            "one-card figure (6.765%, 8 decks, 6-9 seen at P1) is the best of Player and Banker "
            "on every coup; his four-card figures (20.928% for 6-9, 30.291% for the best sort) "
            "bet only when the EV is positive.  The patterns' EVs weighted by their probabilities "
            "give each bet's EV with nothing seen, exactly.",
        ),
    )


def house_table(result: PeekResult, exposure: Sequence[HouseExposure]) -> Table:
    """The house's expected loss, in units, per coup, shoe and hour, for each strategy."""
    rows = tuple(
        (e.strategy, e.stake, e.per_coup, e.hands_per_shoe, e.per_shoe, e.hands_per_hour, e.per_hour)
        for e in exposure
    )
    return Table(
        "peek-house",
        f"The house's side: {_what(result)}",
        (
            Column("Bettor bets", "text", "strategy"),
            Column("Stake per coup", "decimal", "stake"),
            Column("Loss per coup", "decimal", "loss_per_coup"),
            Column("Coups per shoe", "count", "hands_per_shoe"),
            Column("Loss per shoe", "decimal", "loss_per_shoe"),
            Column("Coups per hour", "count", "hands_per_hour"),
            Column("Loss per hour", "decimal", "loss_per_hour"),
        ),
        rows,
        (
            "The house's expected loss (units staked) to a bettor who sees this: the edge per coup "
            "dealt times the stake, times the coups per shoe or per hour; every coup is priced as "
            "a shoe's first (the shoe's drift is not modelled).",
        ),
    )


def search_table(search: SortSearch, top: int = 10) -> Table:
    """The two-group sorts ranked, best for the bettor first (``top`` rows; 0: all)."""
    rows: list[tuple[Cell, ...]] = []
    chosen = search.rows if top == 0 else search.rows[:top]
    for i, r in enumerate(chosen, 1):
        labels = r.classes.labels
        rows.append((i, labels[1], labels[0], r.edge, r.edge_when_positive, r.bet_frequency))
    unit = "point values" if search.by == "value" else "ranks"
    bets = ", ".join(b.title for b in search.bets)
    return Table(
        "peek-search",
        f"Two-group sorts of the {unit}, {search.seen.text} seen, best of {bets}: {search.shoe.describe()}",
        (
            Column("Rank", "count", "rank"),
            Column("Group", "text", "group"),
            Column("Rest", "text", "rest"),
            Column("Edge, best bet always", "percent", "edge"),
            Column("Edge, best bet when > 0", "percent", "edge_when_positive"),
            Column("Coups bet", "percent", "bet_frequency"),
        ),
        tuple(rows),
        (
            f"{len(search.rows):,} sorts searched, ranked by the edge per coup dealt betting the "
            "best bet only when it is positive (then by the edge betting always).  The sort at the "
            "top is the one a casino must guard against most.",
        ),
    )


def exposure_tables(exposure: SortingExposure) -> list[Table]:
    """A bet's exposure to edge sorting: its summary rows (:attr:`SortingExposure.summary`, the
    rows the game-math report's edge-sorting section shows: the best sort per number of cards
    seen, the edge per coup dealt betting the bet only when positive, how often, the edge per
    unit bet), then each sort's patterns table."""
    rows: list[tuple[Cell, ...]] = [
        (s.cards_seen, s.group, s.rest, s.edge_when_positive, s.bet_frequency, s.edge_per_bet)
        for s in exposure.summary
    ]
    summary = Table(
        "peek-exposure",
        f"Exposure of {exposure.bet.title} to edge sorting: {exposure.shoe.describe()}",
        (
            Column("Cards seen", "text", "seen"),
            Column("Best sort: group", "text", "group"),
            Column("Rest", "text", "rest"),
            Column("Edge per coup dealt", "percent", "edge_when_positive"),
            Column("Coups bet", "percent", "bet_frequency"),
            Column("Edge per unit bet", "percent", "edge_per_bet"),
        ),
        tuple(rows),
        (
            f"The best of {exposure.searched:,} two-group sorts of the point values for a bettor who "
            "sees the class of the cards (their backs) before betting, and bets only when the bet's "
            "exact EV given what he saw is positive: the house's expected loss per coup dealt.",
        ),
    )
    return [summary, patterns_table(exposure.one_card), patterns_table(exposure.four_card)]
