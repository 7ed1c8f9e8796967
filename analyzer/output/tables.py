"""Build the printable tables (:class:`~analyzer.output.render.Table`) from exact results."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from analyzer.bets.model import Bet
from analyzer.core.exact import fraction_text, round_fraction
from analyzer.engine.pricing import RUN_OUT, Analysis, BetSummary
from analyzer.output.render import Cell, Column, Table

if TYPE_CHECKING:
    from analyzer.bets.catalogue import Provenance

TABLE_NAMES = ("outcomes", "bets", "totals", "cards", "naturals")


def _count_note(analysis: Analysis) -> tuple[str, ...]:
    d = analysis.distribution
    if d.complete:
        # the same words for every shoe, so a deck sweep prints it once (the Total row has the number)
        return (
            "Counts are ordered 6-card sequences (coups ending early are padded); the total is "
            "N!/(N-6)! for a shoe of N cards.",
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


def bets_table(summaries: Sequence[BetSummary], title: str, *, grades: bool = False) -> Table:
    """One row per bet: pays, EV, house edge (per coup and per resolved bet), hit frequency, SD;
    the bet's machine name (``banker:4``, :attr:`~analyzer.bets.model.Bet.name`) as the
    data-only ``bet_name``.  With ``grades``, also each bet's provenance grade (shown), and as
    data its source, the published figure and the golden test that pins it
    (:func:`~analyzer.bets.catalogue.provenance`), with a note under the table for every row
    whose EV is positive or whose house edge is above 50%, saying why."""
    cols = [
        Column("Bet", "text", "bet"),
        Column("Bet name", "text", "bet_name", data_only=True),
        Column("Pays", "text", "pays"),
        Column("EV per unit", "decimal", "ev"),
        Column("House edge", "percent", "house_edge"),
        Column("House edge (resolved)", "percent", "house_edge_resolved"),
        Column("Hit frequency", "decimal", "hit_frequency"),
        Column("Variance", "decimal", "variance"),
        Column("SD", "sqrt", "sd"),
    ]
    if grades:
        cols += [
            Column("Grade", "text", "grade_label"),
            Column("Grade (machine)", "text", "grade", data_only=True),
            Column("Published figure", "text", "published_figure", data_only=True),
            Column("Source", "text", "source", data_only=True),
            Column("Golden test", "text", "golden_test", data_only=True),
        ]
    rows: list[tuple[Cell, ...]] = []
    for s in summaries:
        row: tuple[Cell, ...] = (
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
        if grades:
            p = _provenance(s.bet)
            row += (
                GRADE_SHORT[p.grade.value] if p else "user-defined",
                p.grade.value if p else "user-defined",
                p.figure or None if p else None,
                p.source if p else s.bet.source or None,
                p.test or None if p else None,
            )
        rows.append(row)
    notes: tuple[str, ...] = (
        "EV and house edge per unit staked per coup; '(resolved)' excludes pushes; SD per unit staked.",
    )
    if grades:
        notes += (_grade_legend(summaries), *odd_row_notes(summaries))
    return Table("bets", title, tuple(cols), tuple(rows), notes)


#: The grades as the bets table shows them, by :class:`~analyzer.bets.catalogue.Grade` value
#: (values, not members: the catalogue loads only when a table shows grades).
GRADE_SHORT: dict[str, str] = {
    "reproduced": "reproduced",
    "rules-only": "rules only",
    "our-reading": "our reading",
    "weak-source": "weak source",
}


def _provenance(bet: Bet) -> Provenance | None:
    from analyzer.bets.catalogue import provenance  # lazy: analyze shows no grades

    return provenance(bet)


def _grade_legend(summaries: Sequence[BetSummary]) -> str:
    from analyzer.bets.catalogue import Grade  # lazy: as in _provenance

    shown = {p.grade for p in (_provenance(s.bet) for s in summaries) if p is not None}
    parts = [f"'{GRADE_SHORT[g.value]}' {g.label}" for g in Grade if g in shown]
    if any(_provenance(s.bet) is None for s in summaries):
        parts.append("'user-defined' a bet from a file or a function")
    return ("Grade (what the figures rest on; bets --list gives each source and figure): "
            + "; ".join(parts) + ".")


def odd_row_notes(summaries: Sequence[BetSummary]) -> tuple[str, ...]:
    """A note for each bet whose EV is positive (a player edge) or whose house edge is above
    50%, saying why when the catalogue knows (its provenance's caveat)."""
    notes: list[str] = []
    for s in summaries:
        if s.ev > 0:
            what = f"EV is positive (a player edge of {round_fraction(100 * s.ev, 2)}%)"
        elif s.house_edge > Fraction(1, 2):
            what = f"the house edge, {round_fraction(100 * s.house_edge, 2)}%, is above 50%"
        else:
            continue
        p = _provenance(s.bet)
        if s.hit_frequency == 0 and not any(e.pays > 0 for e in s.events):
            why = "no line of its pay table pays a win as given (a progressive's meters are 0 unless given)"
        elif s.hit_frequency == 0:  # e.g. two identical cards, which a one-deck shoe cannot deal
            why = "none of its winning events can happen on this shoe"
        elif p is not None and p.caveat:
            why = p.caveat
        else:
            why = "a user-defined bet" if p is None else "no source says why"
        notes.append(f"{s.bet.title}: {what}: {why}.")
    return tuple(notes)


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
        provenance_notes(summary.bet),
    )


def provenance_notes(bet: Bet) -> tuple[str, ...]:
    """What a bet's figures rest on, for the notes under its tables: its source (the
    catalogue's provenance source, else the bet's own) and, for a catalogue bet, its grade with
    the published figure it reproduces or the caveat of a reading."""
    p = _provenance(bet)
    source = p.source if p is not None else bet.source
    notes = [f"Source: {source}"] if source else []
    if p is not None:
        detail = f": {p.figure}, pinned by {p.test}" if p.figure else (f": {p.caveat}" if p.caveat else "")
        notes.append(f"Grade: {p.grade.label}{detail}.")
    return tuple(notes)


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
