"""Build the printable tables (:class:`~analyzer.output.render.Table`) from exact results."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from analyzer.core.exact import fraction_text
from analyzer.engine.pricing import RUN_OUT, Analysis, BetSummary
from analyzer.output.render import Cell, Column, Table

TABLE_NAMES = ("outcomes", "bets", "totals", "cards", "naturals")


def _count_note(analysis: Analysis) -> tuple[str, ...]:
    d = analysis.distribution
    if d.complete:
        return (
            f"Counts are ordered 6-card sequences (coups ending early are padded); "
            f"total {d.denominator:,} = N!/(N-6)! for N = {analysis.shoe.size}.",
        )
    k = d.sequence_cards
    return (
        f"The shoe holds {analysis.shoe.size} cards (< 6): probabilities come from sequential "
        f"dealing over the {d.denominator:,} orders of {k} cards; 6-card counts are not shown.",
    )


def _event_table(
    analysis: Analysis,
    name: str,
    title: str,
    first: str,
    items: Sequence[tuple[str, int]],
    total: bool = True,
) -> Table:
    d = analysis.denominator
    show_counts = analysis.distribution.complete
    cols = [Column(first, "text", "event")]
    if show_counts:
        cols.append(Column("Permutations", "count", "count"))
    cols.append(Column("Probability", "both", "probability"))
    rows: list[tuple[Cell, ...]] = []
    for label, count in items:
        rows.append((label, *([count] if show_counts else []), Fraction(count, d)))
    if total:
        s = sum(c for _, c in items)
        rows.append(("Total", *([s] if show_counts else []), Fraction(s, d)))
    return Table(name, title, tuple(cols), tuple(rows), _count_note(analysis))


def outcomes_table(analysis: Analysis) -> Table:
    """Banker / Player / Tie (and the run-out event for shoes under 6 cards)."""
    return _event_table(
        analysis,
        "outcomes",
        f"Outcomes: {analysis.shoe.describe()}",
        "Outcome",
        list(analysis.outcome_counts.items()),
    )


def cards_table(analysis: Analysis) -> Table:
    """Coups by number of cards dealt (4, 5, 6)."""
    items = [(f"{n} cards", c) for n, c in analysis.cards_dealt.items()]
    if analysis.distribution.run_out:
        items.append((RUN_OUT, analysis.distribution.run_out))
    return _event_table(
        analysis, "cards", f"Cards dealt per coup: {analysis.shoe.describe()}", "Cards dealt", items
    )


def naturals_table(analysis: Analysis) -> Table:
    """Naturals as a partition (its rows sum to 1): Player only, Banker only, both, neither
    (a coup on which the shoe runs out had no natural)."""
    return _event_table(
        analysis,
        "naturals",
        f"Naturals: {analysis.shoe.describe()}",
        "Event",
        list(analysis.naturals.items()),
    )


def totals_table(analysis: Analysis) -> Table:
    """The 10 x 10 table of final totals: probability that the Player ends on p (row) and the
    Banker on b (column)."""
    d = analysis.denominator
    cols = (
        Column("Player \\ Banker", "text", "player_total"),
        *(Column(str(b), "decimal", f"banker_{b}") for b in range(10)),
    )
    rows: tuple[tuple[Cell, ...], ...] = tuple(
        (str(p), *(Fraction(c, d) for c in analysis.totals[p])) for p in range(10)
    )
    notes: tuple[str, ...] = (
        "Probability per coup of each pair of final totals (Player row, Banker column); "
        "the diagonal is the Tie.",
    )
    if analysis.distribution.run_out:
        notes += (
            f"The rest, {fraction_text(Fraction(analysis.distribution.run_out, d))}, is the "
            "probability that the shoe runs out mid-coup (void).",
        )
    return Table("totals", f"Final totals: {analysis.shoe.describe()}", cols, rows, notes)


def bets_table(summaries: Sequence[BetSummary], title: str) -> Table:
    """One row per bet: pays, EV, house edge (per coup and per resolved bet), hit frequency, SD;
    the bet's machine name (``banker:4``, :attr:`~analyzer.bets.model.Bet.name`) as the
    data-only ``bet_name``."""
    cols = (
        Column("Bet", "text", "bet"),
        Column("Bet name", "text", "bet_name", data_only=True),
        Column("Pays", "text", "pays"),
        Column("EV per unit", "decimal", "ev"),
        Column("House edge", "percent", "house_edge"),
        Column("House edge (resolved)", "percent", "house_edge_resolved"),
        Column("Hit frequency", "decimal", "hit_frequency"),
        Column("Variance", "decimal", "variance"),
        Column("SD", "sqrt", "sd"),
    )
    rows = tuple(
        (
            s.bet.title,
            s.bet.name,
            s.bet.pays_text(),
            s.ev,
            s.house_edge,
            s.house_edge_resolved,
            s.hit_frequency,
            s.variance,
            s.variance,
        )
        for s in summaries
    )
    notes = ("EV and house edge per unit staked per coup; '(resolved)' excludes pushes; SD per unit staked.",)
    return Table("bets", title, cols, rows, notes)


def events_table(summary: BetSummary) -> Table:
    """A bet's events as casinos publish them: event, pays, count, probability, return (and the
    bet's machine name as the data-only ``bet_name``)."""
    cols = [
        Column("Bet name", "text", "bet_name", data_only=True),
        Column("Event", "text", "event"),
        Column("Pays", "fraction", "pays"),
        Column("Count", "count", "count"),
        Column("Probability", "decimal", "probability"),
        Column("Return", "decimal", "return"),
    ]
    name = summary.bet.name
    rows: list[tuple[Cell, ...]] = [
        (name, r.event, r.pays, r.count, r.probability, r.ret) for r in summary.events
    ]
    rows.append(
        (
            name,
            "Total",
            None,
            sum(r.count for r in summary.events),
            sum((r.probability for r in summary.events), Fraction(0)),
            summary.ev,
        )
    )
    return Table(
        f"events:{summary.bet.name}",
        f"{summary.bet.title}: events",
        tuple(cols),
        tuple(rows),
        (f"Source: {summary.bet.source}",) if summary.bet.source else (),
    )


def analysis_tables(analysis: Analysis, which: Sequence[str]) -> list[Table]:
    """The tables named in ``which`` (from ``TABLE_NAMES``), in that order."""
    builders = {
        "outcomes": lambda: outcomes_table(analysis),
        "bets": lambda: bets_table(analysis.bets, f"Main bets: {analysis.shoe.describe()}"),
        "totals": lambda: totals_table(analysis),
        "cards": lambda: cards_table(analysis),
        "naturals": lambda: naturals_table(analysis),
    }
    return [builders[name]() for name in which]
