"""The effects of removal as tables (:class:`~analyzer.output.render.Table`): from an
:class:`~analyzer.studies.eor.EORReport`, a summary row per bet, each bet's EOR and depletion
tables, and the published count systems compared; the same tables for ``eor`` and the report."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from analyzer.core.exact import fraction_text, round_fraction
from analyzer.output.render import Cell, Column, Table
from analyzer.studies.eor import BetEOR, EORReport, published_comparison


def tags_text(tags: Sequence[int]) -> str:
    """Tags as text, e.g. ``"0 0 -1 +2"``."""
    return " ".join(f"{t:+d}" if t else "0" for t in tags)


#: The sum check, under the summary and each bet's EOR table.
IDENTITY_NOTE = (
    "Sum check: sum over groups of (cards in the shoe x EOR) = 0 exactly, i.e. the EV after "
    "one random card leaves, averaged over that card, equals the EV (N >= 7)."
)
#: The kinds of table :func:`eor_tables` builds, in order.
EOR_TABLES = ("summary", "eor", "depletion", "published")


def eor_tables(report: EORReport, which: Sequence[str] = EOR_TABLES, digits: int = 6) -> list[Table]:
    """The printable tables of a report, the kinds named in ``which`` (:data:`EOR_TABLES`): a
    summary row per bet, each bet's EOR table and depletion table, and (for Dragon 7 / Panda 8)
    the published count systems compared.  ``digits`` rounds the betting correlations
    (exactly)."""
    tables = _all_tables(report, digits)
    kinds = {"eor-summary": "summary", "eor": "eor", "depletion": "depletion", "published-tags": "published"}
    return [t for t in tables if kinds[t.name.split(":")[0]] in which]


def _all_tables(report: EORReport, digits: int) -> list[Table]:
    labels = [g.label for g in report.groups]
    unit = "rank" if report.by == "rank" else "value"
    identity = IDENTITY_NOTE
    rows: list[tuple[Cell, ...]] = []
    for b in report.bets:
        sysm = b.system
        rows.append(
            (
                b.bet.title,
                b.bet.name,
                b.ev,
                -b.ev,
                b.identity_sum,
                "-" if b.average_removed_ev is None else ("yes" if b.average_removed_ev == b.ev else "NO"),
                tags_text(sysm.tags),
                sysm.max_tag,
                "yes" if sysm.balanced else "no",
                sysm.betting_correlation(digits),
            )
        )
    summary = Table(
        "eor-summary",
        f"Effects of removal by {unit}: {report.shoe.describe()}",
        (
            Column("Bet", "text", "bet"),
            Column("Bet name", "text", "bet_name", data_only=True),
            Column("EV", "both", "ev"),
            Column("House edge", "percent", "house_edge"),
            Column("Sum of count x EOR", "fraction", "identity_sum"),
            Column("Mean EV after one card = EV", "text", "identity_holds"),
            Column(f"Suggested tags ({' '.join(labels)})", "text", "tags"),
            Column("Largest tag", "count", "max_tag"),
            Column("Balanced", "text", "balanced"),
            Column("Betting correlation", "text", "betting_correlation"),
        ),
        tuple(rows),
        (
            identity,
            "Tags are proportional to the EORs (scaled so the largest |tag| is the 'Largest tag', "
            "rounded half to even), chosen for the best betting correlation (count-weighted Pearson "
            "correlation of tags and EORs over the cards of the shoe).",
        ),
    )
    tables: list[Table] = [summary]
    for b in report.bets:
        tables.append(removal_table(report, b, digits))
        drows: list[tuple[Cell, ...]] = []
        for g, e, dep in zip(report.groups, b.eor, b.depletion, strict=False):
            last = dep[-1]
            ratio = None if (e is None or e == 0 or last is None) else last / (report.depth * e)
            drows.append((b.bet.name, g.label, *dep, ratio))
        tables.append(
            Table(
                f"depletion:{b.bet.name}",
                f"{b.bet.title}: change in EV after removing k cards of one {unit}",
                (
                    Column("Bet name", "text", "bet_name", data_only=True),
                    Column(unit.capitalize(), "text", unit),
                    *(Column(f"k={k}", "decimal", f"k{k}") for k in range(1, report.depth + 1)),
                    Column(
                        f"Linearity: change(k={report.depth}) / ({report.depth} x EOR)",
                        "decimal",
                        "linearity",
                    ),
                ),
                tuple(drows),
                (
                    "Exact change in EV per unit staked; a linearity ratio of 1 means k cards move the "
                    "EV k times as much as one.",
                ),
            )
        )
    published = published_comparison(report)
    if published:
        prow = tuple(
            (
                name,
                source,
                tags_text(tags),
                pub.betting_correlation(digits),
                tags_text(der.tags),
                der.betting_correlation(digits),
            )
            for name, source, tags, pub, der in published
        )
        tables.append(
            Table(
                "published-tags",
                "Published count systems against the exact EORs (by value, A 2 3 4 5 6 7 8 9 10/J/Q/K)",
                (
                    Column("Bet", "text", "bet"),
                    Column("Source", "text", "source"),
                    Column("Published tags", "text", "published_tags"),
                    Column("Published betting correlation", "text", "published_bc"),
                    Column("Derived tags", "text", "derived_tags"),
                    Column("Derived betting correlation", "text", "derived_bc"),
                ),
                prow,
                (
                    "Betting correlations computed against this shoe's exact EORs. "
                    "Source of the published tags: E. Jacobson, "
                    "'Co-Card Counting the Dragon and Panda Side Bets in EZ Baccarat', "
                    "https://www.888casino.com/blog/side-bets/co-card-counting-the-dragon-and-panda-side-bets-in-ez-baccarat",
                ),
            )
        )
    return tables


def removal_table(report: EORReport, b: BetEOR, digits: int = 6, exact: bool = False) -> Table:
    """Bet ``b``'s effect of removing one card of each group of ``report`` (``eor:NAME``): the
    cards, the EV after the removal, the EOR, the change in house edge and the tag; ``digits``
    rounds the EV in its note (exactly).  The table of ``eor --table eor`` and of the report,
    which shows the exact fractions too (``exact``: each EOR beside its decimal, the EV as a
    fraction)."""
    unit = "rank" if report.by == "rank" else "value"
    ev = fraction_text(b.ev) if exact else float_free(b.ev, digits)
    rows = tuple(
        (b.bet.name, g.label, c, r, e, None if e is None else -e, t)
        for g, c, r, e, t in zip(
            report.groups, report.counts, b.removed_ev, b.eor, b.system.tags, strict=True
        )
    )
    return Table(
        f"eor:{b.bet.name}",
        f"{b.bet.title}: effect of removing one card ({report.shoe.describe()})",
        (
            Column("Bet name", "text", "bet_name", data_only=True),
            Column(unit.capitalize(), "text", unit),
            Column("Cards", "count", "cards"),
            Column("EV after removal", "decimal", "ev_after"),
            Column("EOR (change in EV)", "both" if exact else "decimal", "eor"),
            Column("Change in house edge", "percent", "house_edge_change"),
            Column("Tag", "count", "tag"),
        ),
        rows,
        (
            f"EV per unit staked on the full shoe: {ev}; "
            "EOR = EV after removal - EV. " + IDENTITY_NOTE,
        ),
    )


def float_free(x: Fraction, digits: int) -> str:
    """``x`` rounded exactly to ``digits`` decimals (no float involved)."""
    return f"{round_fraction(x, digits):f}"


__all__ = ["EOR_TABLES", "IDENTITY_NOTE", "eor_tables", "float_free", "removal_table", "tags_text"]
