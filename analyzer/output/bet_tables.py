"""The tables of ``punto-banco bets`` (and of the web service's price route), rendered from the
frozen results of :mod:`analyzer.studies.bet_result`: nothing is chosen, priced or solved here.

:func:`bet_tables` renders a :class:`~analyzer.studies.bet_result.BetsResult` (the bets table,
each bet's events table, the solved pays), :func:`pays_tables` a
:class:`~analyzer.studies.bet_result.PaysResult` (``bets --pays``) and :func:`catalogue_listing`
the catalogue (``bets --list``).  Each table's columns carry their value getters
(:attr:`analyzer.output.render.Column.get`), one line a column.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from analyzer.bets.choice import MatchKind, PayMatch, pays_text, winning_pays
from analyzer.bets.model import Bet
from analyzer.core.exact import fraction_text
from analyzer.engine.pricing import PRACTICAL_STEPS, PracticalPay
from analyzer.output.render import Cell, Column, Table, percent_words, table_of
from analyzer.output.tables import GRADE_SHORT, bets_table, events_table
from analyzer.studies.bet_result import BetsResult, CatalogueRow, PaysResult, SolvedLine
from analyzer.studies.ladder import ScaledLadder

#: The note of a table that leaves out the suited bets a shoe without suits cannot price.
NOT_PRICED = (
    "Not priced: {} (suited bets need the suits of the cards, which this shoe does not give; use "
    "--decks, remove cards with their suits, or give counts per rank and suit)."
)


def bet_tables(result: BetsResult) -> list[Table]:
    """The summary table of the priced bets, then (``result.events``) each bet's events table,
    then the solved pays: under ``"adjustable"`` and ``"line"`` the ``pays`` table and the
    ``practical-pays`` table (:func:`pay_table`, :func:`practical_pay_table`), under
    ``"scale"`` the ``scaled-pays`` and ``scaled-ladders`` tables
    (:func:`scaled_ladder_tables`)."""
    shoe = result.shoe.describe()
    summary = bets_table(result.summaries, f"Bets: {shoe}", grades=True)
    if result.not_priced:
        summary = dataclasses.replace(
            summary, notes=(*summary.notes, NOT_PRICED.format(", ".join(result.not_priced)))
        )
    tables = [summary]
    if result.events:
        tables += [events_table(s) for s in result.summaries]
    if result.house_edge is None:
        return tables
    edge = result.house_edge
    if result.ladder == "scale":
        return tables + scaled_ladder_tables(shoe, result.scaled, edge, result.unsolved)
    pays = pay_table(shoe, result.solved, edge)
    if result.unsolved:
        why = (
            f"no pay line {result.adjust!r}"
            if result.ladder == "line"
            else "no single adjustable pay line: several pays, or a payout function"
        )
        unsolved = ", ".join(result.unsolved)
        pays = dataclasses.replace(pays, notes=(*pays.notes, f"Not listed ({why}): {unsolved}."))
    return [*tables, pays, practical_pay_table(shoe, result.solved, edge)]


#: How many of the parameter matches not listed a note names.
NAMED_UNLISTED = 5


def pays_tables(result: PaysResult) -> list[Table]:
    """The catalogue bets found by their pays: one ``pay-match`` table (the match, the bet's
    name with its parameter, its title, its winning pays and, for a near table, the pays that
    differ; then the columns of the bets table with grades), then (``result.events``) each
    bet's events table.  The suited bets not priced are named in a note."""
    finding = result.finding
    wanted = pays_text(finding.pays)
    title = f"Catalogue bets paying {wanted}: {result.shoe.describe()}"
    base = bets_table(result.summaries, title, grades=True)
    # a row: the match, and the bets table's row of its bet (its columns after the bet's names)
    columns = (
        Column("Match", "text", "match", get=lambda r: r[0].kind.label),
        Column("Match (machine)", "text", "match_kind", data_only=True, get=lambda r: r[0].kind.value),
        Column("Name", "text", "bet_name", get=lambda r: r[0].bet.name),
        Column("Bet", "text", "bet", get=lambda r: r[1][0]),
        Column("Pay table", "text", "pay_table", get=lambda r: pays_text(winning_pays(r[0].bet))),
        Column("Differs (bet / list)", "text", "differs", get=lambda r: _differs(r[0])),
        Column("Lines differing", "count", "lines_differing", data_only=True, get=lambda r: r[0].differs),
        *(dataclasses.replace(c, get=_cell_of_row(i)) for i, c in enumerate(base.columns) if i >= 3),
    )
    records = list(zip(result.matches, base.rows, strict=True))
    notes = _match_notes(finding.matches, wanted, finding.exact)
    if finding.unlisted:
        named = ", ".join(finding.unlisted[:NAMED_UNLISTED])
        more = ", ..." if len(finding.unlisted) > NAMED_UNLISTED else ""
        notes.append(f"{len(finding.unlisted)} catalogue bets pay {wanted} with their parameter set "
                     f"({named}{more}): add --with-params to list them.")
    if result.not_priced:
        notes.append(NOT_PRICED.format(", ".join(result.not_priced)))
    if records:
        notes += base.notes
    tables = [table_of("pay-match", base.title, columns, records, notes)]
    if result.events:
        tables += [events_table(s) for s in result.summaries]
    return tables


def _cell_of_row(index: int) -> Callable[[tuple[PayMatch, tuple[Cell, ...]]], Cell]:
    """The getter of a bets-table column in a ``pay-match`` row: cell ``index`` of the row."""
    return lambda r: r[1][index]


def _differs(match: PayMatch) -> str | None:
    """A near table's differing pays, ``"6, 1 / 4, 2"`` (the bet's, then the list's; ``-`` for
    none on a side); ``None`` for an exact match."""
    if match.kind is not MatchKind.NEAR:
        return None
    return f"{pays_text(match.bet_only) or '-'} / {pays_text(match.list_only) or '-'}"


def _match_notes(matches: Sequence[PayMatch], wanted: str, exact: bool) -> list[str]:
    """The notes that say how the rows match the list of pays ``wanted``."""
    meaning = {
        MatchKind.EXACT: "the bet's winning pays, one per winning line, are the list",
        MatchKind.DISTINCT: "the list names each different winning pay of the bet once (the bet pays some "
                            "of them on more than one line)",
        MatchKind.PARAMETER: "the bet with its parameter set to give those pays",
        MatchKind.NEAR: "the bet's pay table is near the list, not equal to it",
    }
    if not matches:
        return [f"No catalogue pay table is {wanted}, and none shares a pay with it."]
    shown = {m.kind for m in matches}
    notes = ["Match: " + "; ".join(f"'{k.label}' {meaning[k]}" for k in MatchKind if k in shown) + ".  "
             "Pays are wins per unit staked ('to 1'), largest first; pushes and losses are not listed."]
    if not exact:
        notes.append(f"No catalogue pay table is {wanted}: the nearest are shown, fewest lines differing "
                     "first (a pay changed, or a line one side lacks); they are near, not equal.")
    return notes


def _quoted(pays: Fraction | None) -> str | None:
    """A practical pay on the grid as it is quoted, e.g. ``"6.5 to 1"`` (``None`` for none)."""
    return None if pays is None else PracticalPay("to", "exact", pays, pays, Fraction(0)).text


def _target_words(house_edge: Fraction) -> str:
    if house_edge == 0:
        return "fair bet (house edge 0)"
    return f"house edge of {percent_words(house_edge)[0]}"


def _bet_columns(bet_of: Callable[[Any], Bet]) -> tuple[Column, Column]:
    """The first two columns of a table of solved pays: the bet's title, and its machine name
    as the data-only ``bet_name`` (``bet_of``: a row record's bet)."""
    return (
        Column("Bet", "text", "bet", get=lambda r: bet_of(r).title),
        Column("Bet name", "text", "bet_name", data_only=True, get=lambda r: bet_of(r).name),
    )


#: A row of the practical-pays table: the solved line, and one of its practical pays (or none).
NearRow = tuple[SolvedLine, PracticalPay | None]


def _practical(get: Callable[[PracticalPay], Cell]) -> Callable[[NearRow], Cell]:
    """A cell of a practical pay's row: ``get`` of its pay, ``None`` on a row without one."""
    return lambda r: None if r[1] is None else get(r[1])


def scaled_ladder_tables(
    shoe: str, ladders: Sequence[ScaledLadder], house_edge: Fraction, unsolved: Sequence[str] = ()
) -> list[Table]:
    """The ``scaled-pays`` table (for each ladder: the one factor on every winning pay that
    gives ``house_edge``; each line's scaled pay with the practical pays "X to 1" on either
    side) and the ``scaled-ladders`` table (the ladder's exact house edge with every line at
    its practical pay below, nearest and above), on the shoe described as ``shoe``; the titles
    of ``unsolved`` bets are named in a note (:func:`analyzer.studies.ladder.scale_for_edge`)."""
    lines = [(ladder, line) for ladder in ladders for line in ladder.lines]
    what = _target_words(house_edge)
    notes: tuple[str, ...] = (
        "Every winning pay times one factor; pushes and losses unchanged.  Practical pays 'X to 1' on the "
        "grid of --fair-pay; '-': no practical pay on that side is a win.",
    )
    if unsolved:
        notes += (f"Not listed (no winning pay line, or none can happen here): {', '.join(unsolved)}.",)
    lines_table = table_of(
        "scaled-pays",
        f"Every win scaled for a {what}: {shoe}",
        (
            *_bet_columns(lambda r: r[0].summary.bet),
            Column("Line", "text", "line", get=lambda r: r[1][0]),
            Column("Pays now", "fraction", "pays_now", get=lambda r: r[1][1]),
            Column("Scaled pay", "both", "pay", get=lambda r: r[1][3]),
            Column("Practical below", "text", "practical_below", get=lambda r: _quoted(r[1][4])),
            Column("Practical above", "text", "practical_above", get=lambda r: _quoted(r[1][5])),
        ),
        lines,
        notes,
    )
    ladders_table = table_of(
        "scaled-ladders",
        f"The scaled ladder's house edge: {shoe}",
        (
            *_bet_columns(lambda r: r.summary.bet),
            Column("Factor", "both", "factor", get=lambda r: r.factor),
            Column("House edge now", "percent", "house_edge_now", get=lambda r: r.summary.house_edge),
            Column("Every line below", "percent", "house_edge_below", get=lambda r: r.edges["below"]),
            Column("Every line nearest", "percent", "house_edge_nearest", get=lambda r: r.edges["nearest"]),
            Column("Every line above", "percent", "house_edge_above", get=lambda r: r.edges["above"]),
        ),
        ladders,
        ("House edge per coup with every winning line at its practical pay below, nearest or above the "
         "scaled pay (exact); a negative house edge is a player advantage.",),
    )
    return [lines_table, ladders_table]


def pay_table(shoe: str, solved: Sequence[SolvedLine], house_edge: Fraction) -> Table:
    """The ``pays`` table: for each solved line, the exact pay giving ``house_edge`` per coup
    ('-' where none does), on the shoe described as ``shoe`` (the bet's machine name as the
    data-only ``bet_name``)."""
    what = _target_words(house_edge)
    cols = (
        *_bet_columns(lambda r: r.bet),
        Column("Adjustable line", "text", "line", get=lambda r: r.event),
        Column("Pays now", "fraction", "pays_now", get=lambda r: r.pays_now),
        Column("Pay for target", "both", "pay", get=lambda r: r.pay),
    )
    notes = ("'-': no positive pay gives that house edge, or the event cannot happen on this shoe.",)
    return table_of("pays", f"Pays for a {what}: {shoe}", cols, solved, notes)


def practical_pay_table(shoe: str, solved: Sequence[SolvedLine], house_edge: Fraction) -> Table:
    """The ``practical-pays`` table: for each solved line, the practical pays nearest the pay
    giving ``house_edge``, below and above it, quoted "X to 1" and "X for 1", each with its
    exact house edge (one row of '-' where there is none), on the shoe described as ``shoe``;
    the bet's machine name as the data-only ``bet_name``."""
    rows: list[NearRow] = []
    for s in solved:
        rows += [(s, p) for p in s.near] or [(s, None)]
    percent = fraction_text(house_edge * 100)
    what = "the fair pay" if house_edge == 0 else f"the pay for a house edge of {percent}%"
    steps = ", ".join(
        f"below {fraction_text(limit)} in steps of {fraction_text(step)}"
        if limit is not None
        else f"then steps of {fraction_text(step)}"
        for limit, step in PRACTICAL_STEPS
    )
    cols = (
        *_bet_columns(lambda r: r[0].bet),
        Column("Practical pay", "text", "pay", get=_practical(lambda p: p.text)),
        Column("Side of target", "text", "side", get=_practical(lambda p: p.side)),
        Column("Net win per unit", "fraction", "net_pay", get=_practical(lambda p: p.pays)),
        Column("House edge", "percent", "house_edge", get=_practical(lambda p: p.house_edge)),
    )
    notes = (
        "'X to 1' wins X per unit staked; 'X for 1' returns X, the stake included (a win of X - 1).",
        f"Practical pays: the quoted number X on a grid ({steps}); the nearest on each side of "
        "the target in each form.  A negative house edge is a player advantage.",
        "'-': no positive pay gives that house edge, or the event cannot happen on this shoe.",
    )
    return table_of("practical-pays", f"Practical pays nearest {what}: {shoe}", cols, rows, notes)


def _or_none(text: str) -> str | None:
    return text or None


def catalogue_listing(rows: Sequence[CatalogueRow]) -> Table:
    """The catalogue as a table (``rows``: :func:`analyzer.studies.bet_result.catalogue_rows`):
    name, aliases, parameter, the names sources give its pay tables
    (``ALIAS=PARAM``: :data:`~analyzer.bets.catalogue.PAY_TABLE_NAMES`), what it is, and the
    provenance grade of its default parameters; as data (JSON, CSV) also the bet's title,
    rules in words, source, published figure, golden test, its published parameters with their
    grades and figures (``variants``: ``PARAM: grade (figure)``, ``;``-separated) and the
    source of each pay-table name (``pay_table_name_sources``: ``ALIAS=PARAM: source``,
    ``;``-separated)."""
    cols = (
        Column("Name", "text", "name", get=lambda r: r.entry.name),
        Column("Aliases", "text", "aliases", get=lambda r: ", ".join(r.entry.aliases) or "-"),
        Column("Parameter (NAME:PARAM)", "text", "parameter", get=lambda r: r.entry.param or "-"),
        Column("Pay-table names (NAME:ALIAS)", "text", "pay_table_names",
               get=lambda r: ", ".join(f"{n.alias}={n.param}" for n in r.pay_table_names) or "-"),
        Column("Bet", "text", "bet", get=lambda r: r.entry.summary),
        Column("Grade", "text", "grade_label",
               get=lambda r: GRADE_SHORT[r.provenance.grade.value] if r.provenance else "-"),
        Column("Title", "text", "title", data_only=True, get=lambda r: r.bet.title),
        Column("Rules", "text", "rules", data_only=True, get=lambda r: r.bet.rules or r.entry.summary),
        Column("Source", "text", "source", data_only=True,
               get=lambda r: (r.provenance.source if r.provenance else r.bet.source) or None),
        Column("Grade (machine)", "text", "grade", data_only=True,
               get=lambda r: r.provenance.grade.value if r.provenance else None),
        Column("Published figure", "text", "published_figure", data_only=True,
               get=lambda r: _or_none(r.provenance.figure) if r.provenance else None),
        Column("Golden test", "text", "golden_test", data_only=True,
               get=lambda r: _or_none(r.provenance.test) if r.provenance else None),
        Column("Caveat", "text", "caveat", data_only=True,
               get=lambda r: _or_none(r.provenance.caveat) if r.provenance else None),
        Column("Published parameters", "text", "variants", data_only=True,
               get=lambda r: _variants(r) or None),
        Column("Pay-table name sources", "text", "pay_table_name_sources", data_only=True,
               get=lambda r: "; ".join(f"{n.alias}={n.param}: {n.source}" for n in r.pay_table_names)
               or None),
    )
    return table_of(
        "catalogue",
        "Bet catalogue",
        cols,
        rows,
        ("Use --bet NAME or --bet NAME:PARAM, e.g. --bet banker:4 --bet tie:9 --bet egalite:5; a pay-table "
         "name stands for its parameter (--bet lucky-6:macau is lucky-6:1).  --pays LIST finds a bet by its "
         "pays.",
         "Grade of the default parameters: 'reproduced' a published figure is reproduced exactly (a golden "
         "test pins it); 'rules only' the rules are published, no figure; 'our reading' our reading of an "
         "unpublished or ambiguous rule; 'weak source' the rules come from a secondary page only.  "
         "--format json gives each bet's rules, source, figure and published parameters."),
    )


def _variants(row: CatalogueRow) -> str:
    """The entry's published parameters with their grades and figures, ``;``-separated."""
    e = row.entry
    return "; ".join(
        f"{e.name}:{key}: {v.grade.label}" + (f" ({v.figure})" if v.figure else "")
        for key, v in e.provenance.items()
        if key
    )


__all__ = [
    "NAMED_UNLISTED",
    "bet_tables",
    "catalogue_listing",
    "pay_table",
    "pays_tables",
    "practical_pay_table",
    "scaled_ladder_tables",
]
