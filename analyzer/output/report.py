"""The game-math report: the document a bet's designer sends to a test lab, rendered.

:func:`analyzer.studies.report_data.game_math_report` gathers, for each bet and each number of
decks, everything a lab checks (a par sheet): the bet's rules and source, its pay table, the
par sheet (house edge per hand and per resolved hand, RTP, element of risk, hit frequency, SD,
volatility index, largest win, solved pays), the house's win-rate band after N hands, the exact
values, the events table (pays, combinations, probability, return); the effects of removal
(:mod:`analyzer.studies.eor`) on one shoe, with a chart; the closed forms in the number of
decks d with their limits (:func:`analyzer.studies.symbolic.bet_forms`); the exposure sections
(the counting exposure); a glossary.  Its provenance (version, date, command, rules by name and
fingerprint, shoes, bet files' SHA-256) is shown first, and printed on every page.  This module
renders that :class:`~analyzer.studies.report_data.GameMathReport`.

Every figure is exact (``int`` or ``Fraction``); decimals appear only when the report is
rendered (a square root, such as SD, rounded exactly from the exact variance).  Four renderings:

* :func:`render_markdown`: Markdown; the EOR charts are separate PNG files that the report
  links to (:func:`report_files` names them beside the report file);
* :func:`render_html`: one self-contained page, the charts embedded as ``data:`` URI PNGs,
  no external resource (no stylesheet, script, font or image from elsewhere);
* :func:`render_xlsx`: a workbook (needs openpyxl, the ``report`` extra) of tidy sheets:
  exact integers as numbers (as text past 2**53, where a spreadsheet's numbers stop being
  exact), each exact fraction as text beside its decimal (the nearest double), percentages
  as numbers formatted as percent, and native bar charts of the EORs;
* :func:`render_pdf`: the HTML page printed by headless Chromium (A4 landscape; the provenance
  on every page in its margins; numbers never wrapped).

The charts of the Markdown and HTML reports need matplotlib (the ``plot`` extra); without it
the report says so where the chart would be, and is otherwise complete.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import datetime
import io
import os
import re
import shutil
import signal
import subprocess
import tempfile
import urllib.parse
from collections.abc import Mapping, Sequence
from decimal import Decimal, localcontext
from fractions import Fraction
from pathlib import Path
from typing import Any

from analyzer.bets.model import Bet
from analyzer.core.exact import fraction_text, sqrt_decimal, whole_number
from analyzer.core.shoe import Shoe
from analyzer.errors import FormatError, PlotUnavailableError
from analyzer.output.bet_tables import scaled_ladder_tables
from analyzer.output.charts import eor_image
from analyzer.output.eor_tables import removal_table, tags_text
from analyzer.output.render import (
    Cell,
    Column,
    Table,
    decimal_text,
    html_table,
    percent_text,
    percent_words,
    provenance,
    render,
)
from analyzer.output.tables import provenance_notes
from analyzer.studies.ladder import ScaledLadder
from analyzer.studies.moments import Estimate
from analyzer.studies.report_data import (
    BAND_HANDS,
    Z_LEVELS,
    BetSection,
    DeckFigures,
    ExposureSection,
    GameMathReport,
)
from analyzer.studies.symbolic import RationalFunction
from analyzer.text import html_text, markdown_text, printable

#: The formats :func:`report_files` writes.
REPORT_FORMATS = ("markdown", "html", "xlsx", "pdf")
#: The largest ``SOURCE_DATE_EPOCH`` a report's date takes (the year 9999).
MAX_EPOCH = 253402300799
#: Largest integer a spreadsheet (IEEE double) holds exactly; larger integers are written as text.
EXACT_NUMBER_LIMIT = 2**53
#: Most decimals a spreadsheet cell's number format shows (doubles carry about 15-17 digits).
XLSX_MAX_DECIMALS = 15
CHART_MISSING = (
    "The EOR chart needs matplotlib, which is not installed: "
    "pip install 'punto-banco-analyzer[plot]' (the tables above are complete without it)."
)
#: Said instead of a chart for a bet whose effects of removal are all exactly 0 (pair bets on a
#: full standard shoe): the chart would be empty.
CHART_FLAT = (
    "No EOR chart: every effect of removal of this bet is exactly 0 on this shoe (each card plays "
    "the same part), so there is nothing to draw, and no count of single cards helps it off the top."
)
CHART_ELSEWHERE = (
    "EOR chart: not in this output (a Markdown report written to a file with -o gets its charts "
    "as PNG files beside it; --format html embeds them)."
)
#: Said before a bet's entry in its bet file (:attr:`BetSection.definition`).
DEFINITION_WORDS = (
    "The bet's entry in its bet file, as written: the conditions of each pay line "
    "(first that holds settles) and its pays."
)
CONVENTIONS = (
    "Counts are ordered 6-card sequences of the shoe's physical cards: a coup that ends after 4 "
    "or 5 cards is padded with the cards that would come next, so every count of a d-deck shoe "
    "shares the denominator N!/(N-6)! (N = 52d cards). Pays, EV and house edge are per unit "
    "staked per coup (a push returns the stake: pays 0; a loss pays -1); 'resolved' excludes "
    "pushes. Every figure is exact; decimals are rounded exactly from the fractions, never "
    "through a float. SD is the square root of the exact variance, rounded exactly."
)


# -- words ------------------------------------------------------------------------------------


def _pays_words(pays: Fraction) -> str:
    if pays > 0:
        return f"pays {fraction_text(pays)} to 1"
    if pays == 0:
        return "pushes (the stake is returned)"
    return "loses the stake" if pays == -1 else f"loses {fraction_text(-pays)} of the stake"


def rules_from_pay_table(bet: Bet) -> str:
    """The rules of a bet without :attr:`Bet.rules`, in words from its pay table (first
    matching line settles), e.g. ``"Tie: pays 8 to 1. Otherwise (Player or Banker wins): loses
    the stake."``."""
    if bet.payout_function is not None:
        return "Settled by a payout function over the coup record; its events are listed below as priced."
    parts = [f"{line.event}: {_pays_words(line.pays)}." for line in bet.lines]
    parts.append(f"Otherwise ({bet.otherwise_event}): {_pays_words(bet.otherwise)}.")
    return " ".join(parts)


def bet_rules(section: BetSection) -> str:
    """The bet's rules: :attr:`Bet.rules`, or sentences made from its pay table."""
    return section.bet.rules or rules_from_pay_table(section.bet)


def report_date(environ: Mapping[str, str] | None = None) -> str:
    """The report's date, ``YYYY-MM-DD`` (UTC): the day of ``SOURCE_DATE_EPOCH`` (seconds since
    1970, as reproducible builds set it) when that is set, else today.

    Raises:
        FormatError: ``SOURCE_DATE_EPOCH`` is not a whole number of seconds >= 0.

    >>> report_date({"SOURCE_DATE_EPOCH": "0"})
    '1970-01-01'
    """
    env = os.environ if environ is None else environ
    raw = env.get("SOURCE_DATE_EPOCH")
    if raw is None or raw == "":
        return datetime.datetime.now(datetime.UTC).date().isoformat()
    seconds = whole_number(raw.strip())
    if seconds is None or seconds > MAX_EPOCH:
        raise FormatError(
            f"bad SOURCE_DATE_EPOCH {printable(raw)[:40]!r}: use whole seconds since 1970, >= 0"
        )
    return datetime.datetime.fromtimestamp(seconds, datetime.UTC).date().isoformat()


def report_meta(report: GameMathReport) -> Mapping[str, object]:
    """What produced the report, for its header: :attr:`GameMathReport.meta`, or by default the
    tool, its version, the date (:func:`report_date`), the rules, their fingerprint and the
    shoes."""
    if report.meta:
        return report.meta
    shoes = f"standard shoes of {decks_text(report.decks)}"
    return provenance(
        "analyzer.output.report",
        shoes,
        report.tableau.describe(),
        date=report_date(),
        rules_fingerprint=report.tableau.fingerprint,
    )


#: How the report labels the fields of its provenance (:func:`report_meta`); others show their key.
PROVENANCE_LABELS = {
    "generated_by": "Produced by",
    "date": "Date",
    "command": "Command",
    "rules": "Rules",
    "rules_fingerprint": "Rules fingerprint",
    "shoe": "Shoes",
    "bet_files": "Bet files (SHA-256)",
}


def provenance_rows(report: GameMathReport) -> list[tuple[str, str]]:
    """The report's provenance as (label, text) rows, as every rendering shows it on screen
    and on paper: :func:`report_meta` with :data:`PROVENANCE_LABELS`."""
    return [(PROVENANCE_LABELS.get(str(k), str(k)), str(v)) for k, v in report_meta(report).items()]


def running_heads(report: GameMathReport) -> tuple[str, str]:
    """The two lines printed on every page of the PDF (and of a printed HTML page): what
    produced the report (tool and version, date, command) and what it is about (rules by name
    and fingerprint, shoes, the bet files' SHA-256)."""
    meta = {str(k): str(v) for k, v in report_meta(report).items()}
    top = " · ".join(
        [meta.get("generated_by", "punto-banco-analyzer")]
        + [
            f"{label.lower()} {meta[k]}"
            for k, label in (("date", "Date"), ("command", "Command"))
            if k in meta
        ]
    )
    bottom = [f"rules: {report.tableau.title} (fingerprint {report.tableau.fingerprint})"]
    bottom.append(f"shoes: {meta.get('shoe', 'standard shoes of ' + decks_text(report.decks))}")
    bottom.append(f"bet files SHA-256: {meta.get('bet_files', 'none (catalogue bets)')}")
    return top, " · ".join(bottom)


def _edge_words(edge: Fraction, digits: int = 10) -> str:
    if edge == 0:
        return "fair bet (house edge 0%)"
    return f"house edge of {percent_words(edge, digits)[0]}"


def _title(report: GameMathReport) -> str:
    names = ", ".join(s.bet.title for s in report.bets)
    return f"Game-math report: {names}"


def decks_text(decks: Sequence[int]) -> str:
    """Deck counts in words: ``"1, 6, 8 decks"``, ``"1 deck"``."""
    return ", ".join(str(d) for d in decks) + (" decks" if len(decks) > 1 or decks[0] > 1 else " deck")


def _solved_words(report: GameMathReport, section: BetSection) -> str | None:
    """What the pay columns solve for, in words (``None``: nothing to solve for)."""
    bet = section.bet
    if report.scale:
        return "every winning pay times one factor" if bet.payout_function is None else None
    if section.solved_line is None:
        return None
    line = bet.lines[section.solved_line]
    return f"the pay of the line '{line.event}' (now {fraction_text(line.pays)} to 1)"


# -- tables -----------------------------------------------------------------------------------


def pay_table(section: BetSection) -> Table:
    """The bet's pay table: each line's event and pays per unit (first match settles)."""
    bet = section.bet
    rows: list[tuple[Cell, ...]]
    if bet.payout_function is not None:
        first = section.figures[0].summary
        rows = [(r.event, r.pays) for r in first.events]
        notes: tuple[str, ...] = ("A payout function: the events are those priced on the first shoe.",)
    else:
        rows = [(line.event, line.pays) for line in bet.lines]
        rows.append((f"Otherwise ({bet.otherwise_event})", bet.otherwise))
        notes = ("Lines are tried in order; the first that holds settles the coup.",)
    return Table(
        f"pays:{bet.name}",
        f"{bet.title}: pay table",
        (Column("Event", "text", "event"), Column("Pays", "fraction", "pays")),
        tuple(rows),
        notes,
    )


def _pct(x: Fraction | None, digits: int) -> str:
    return "-" if x is None else percent_text(x, digits)


def _dec(x: Fraction | None, digits: int) -> str:
    return "-" if x is None else decimal_text(x, digits)


def _factor(ladder: ScaledLadder | None) -> Fraction | None:
    return None if ladder is None else ladder.factor


def _root(x: Fraction, digits: int) -> str:
    return f"{sqrt_decimal(x, digits):f}"


def par_sheet_table(report: GameMathReport, section: BetSection, digits: int = 10) -> Table:
    """The par sheet of one bet: a row per figure, a column per deck count, in decimals
    (percentages as percent): house edge per hand and per resolved hand, RTP (theoretical
    return), element of risk, hit frequency, SD, the volatility index at each level of
    :data:`~analyzer.studies.report_data.Z_LEVELS` (z x SD), the largest single win, and the
    solved pays (fair and for the target edge).  The exact values are in
    :func:`exact_table`."""
    figs = section.figures
    edge = report.target_edge
    rows: list[tuple[Cell, ...]] = [
        ("House edge per hand", *(_pct(f.summary.house_edge, digits) for f in figs)),
        ("House edge per resolved hand", *(_pct(f.house_edge_resolved, digits) for f in figs)),
        ("RTP (theoretical return)", *(_pct(f.rtp, digits) for f in figs)),
        ("Element of risk", *(_pct(f.element_of_risk, digits) for f in figs)),
        ("Hit frequency", *(_pct(f.summary.hit_frequency, digits) for f in figs)),
        ("Standard deviation (SD)", *(_root(f.summary.variance, digits) for f in figs)),
    ]
    for level, z in Z_LEVELS:
        rows.append(
            (f"Volatility index, {level}%", *(_root(z * z * f.summary.variance, digits) for f in figs))
        )
    rows.append(
        (
            "Largest single win (to 1)",
            *("-" if f.largest_win is None else fraction_text(f.largest_win) for f in figs),
        )
    )
    if report.scale and section.bet.payout_function is None:
        rows.append(
            (
                "Fair factor on every win",
                *(_dec(_factor(f.fair_ladder), digits) for f in figs),
            )
        )
        if edge is not None:
            rows.append(
                (
                    f"Factor for a {_edge_words(edge, digits)}",
                    *(_dec(_factor(f.target_ladder), digits) for f in figs),
                )
            )
    elif section.solved_line is not None:
        rows.append(("Fair pay (to 1)", *(_dec(f.fair_pay, digits) for f in figs)))
        if edge is not None:
            rows.append(
                (f"Pay for a {_edge_words(edge, digits)} (to 1)", *(_dec(f.target_pay, digits) for f in figs))
            )
    notes = [
        "House edge, RTP and element of risk per unit staked; a bet that cannot push resolves every hand, "
        "so its house edge per resolved hand and its element of risk are its house edge per hand. "
        "SD per unit staked, rounded exactly from the exact "
        "variance; the volatility index is z x SD (z = "
        + ", ".join(f"{decimal_text(z, 3)} at {level}%" for level, z in Z_LEVELS)
        + "). Exact fractions: the exact values table.",
    ]
    solved = _solved_words(report, section)
    if solved is None:
        if section.bet.payout_function is not None:
            why = "a payout function has no pay lines to solve for."
        elif report.adjust is not None:
            why = f"this bet has no pay line '{report.adjust}' (--adjust)."
        else:
            why = ("this bet has no single adjustable pay line; --adjust EVENT solves any one line, --scale "
                   "every win by one factor.")  # fmt: skip
        notes.append(f"No pay solved: {why}")
    else:
        notes.append(
            f"Pays solved for {solved}; '-': no positive pay gives that house edge, or its event "
            "cannot happen on that shoe."
        )
    return Table(
        f"par:{section.bet.name}",
        f"{section.bet.title}: par sheet",
        (
            Column("Figure", "text", "figure"),
            *(Column(decks_text([f.decks]), "decimal", f"d{f.decks}") for f in figs),
        ),
        tuple(rows),
        tuple(notes),
    )


def band_table(report: GameMathReport, section: BetSection, digits: int = 10) -> Table:
    """The house's win rate after N hands (N in :data:`~analyzer.studies.report_data.BAND_HANDS`)
    per deck count: the house edge and, at each level of
    :data:`~analyzer.studies.report_data.Z_LEVELS`, the band house edge +- z x SD / sqrt(N) in
    which the house's win per unit staked falls with that confidence (normal approximation)."""
    cols = [
        Column("Decks", "count", "decks"),
        Column("Hands", "count", "hands"),
        Column("House edge", "decimal", "house_edge"),
    ]
    for level, _ in Z_LEVELS:
        cols += [
            Column(f"{level}% low", "decimal", f"low_{level}"),
            Column(f"{level}% high", "decimal", f"high_{level}"),
        ]
    rows: list[tuple[Cell, ...]] = []
    for f in section.figures:
        s = f.summary
        for n in BAND_HANDS:
            row: list[Cell] = [f.decks, n, percent_text(s.house_edge, digits)]
            for _, z in Z_LEVELS:
                row += [
                    _band_end(s.house_edge, z * z * s.variance / n, -1, digits),
                    _band_end(s.house_edge, z * z * s.variance / n, 1, digits),
                ]
            rows.append(tuple(row))
    return Table(
        f"band:{section.bet.name}",
        f"{section.bet.title}: the house's win rate after N hands",
        tuple(cols),
        tuple(rows),
        (
            "Per unit staked, in percent: after that many hands the house's win, divided by the amount "
            "staked, "
            "lies between low and high with that confidence (house edge +- z x SD / sqrt(N), normal "
            "approximation; rough for a rarely winning bet over few hands). A negative figure is a player "
            "win.",
        ),
    )


def _band_end(edge: Fraction, square: Fraction, sign: int, digits: int) -> str:
    """edge + sign x sqrt(square), in percent, rounded to ``digits`` decimals (the root taken to
    ``digits`` + 10 decimals first, so the rounding is exact but on a tie at that depth)."""
    root = sqrt_decimal(square * 10000, digits + 10)
    with localcontext() as ctx:
        ctx.prec = 200
        value = Decimal(edge.numerator * 100) / Decimal(edge.denominator) + sign * root
        return f"{value.quantize(Decimal(1).scaleb(-digits)):f}%"


def exact_table(report: GameMathReport, section: BetSection) -> Table:
    """The exact values behind the par sheet: per deck count, EV, house edge (per hand and per
    resolved hand), hit frequency, variance and the solved pays or factors, each an exact
    fraction beside its decimal."""
    edge = report.target_edge
    rows: list[tuple[Cell, ...]] = []
    for f in section.figures:
        s = f.summary
        items: list[tuple[str, Fraction | None]] = [
            ("EV per unit staked", s.ev),
            ("House edge per hand", s.house_edge),
            ("House edge per resolved hand", f.house_edge_resolved),
            ("RTP (theoretical return)", f.rtp),
            ("Hit frequency", s.hit_frequency),
            ("Variance", s.variance),
        ]
        if report.scale and section.bet.payout_function is None:
            items.append(("Fair factor on every win", _factor(f.fair_ladder)))
            if edge is not None:
                items.append(
                    (f"Factor for a {_edge_words(edge)}", _factor(f.target_ladder))
                )
        elif section.solved_line is not None:
            items.append(("Fair pay", f.fair_pay))
            if edge is not None:
                items.append((f"Pay for a {_edge_words(edge)}", f.target_pay))
        rows += [(f.decks, label, value) for label, value in items]
    return Table(
        f"exact:{section.bet.name}",
        f"{section.bet.title}: exact values",
        (
            Column("Decks", "count", "decks"),
            Column("Quantity", "text", "quantity"),
            Column("Exact", "both", "value"),
        ),
        tuple(rows),
        ("Fractions of a unit staked (not percent); the decimal is rounded exactly from the fraction.",),
    )


def events_table(figures: DeckFigures) -> Table:
    """The events of one bet on one shoe as casinos publish them: pays, combinations (ordered
    6-card sequences), exact probability, return (probability x pays)."""
    s = figures.summary
    shoe = Shoe.standard(figures.decks)
    cols = (
        Column("Event", "text", "event"),
        Column("Pays", "fraction", "pays"),
        Column("Combinations", "count", "combinations"),
        Column("Probability", "both", "probability"),
        Column("Return", "both", "return"),
    )
    rows: list[tuple[Cell, ...]] = [(r.event, r.pays, r.count, r.probability, r.ret) for r in s.events]
    rows.append(("Total", None, s.denominator, Fraction(1), s.ev))
    return Table(
        f"events:{s.bet.name}:{figures.decks}",
        f"{s.bet.title}: events, {shoe.describe()}",
        cols,
        tuple(rows),
        (
            f"Combinations out of {s.denominator:,} = N!/(N-6)! for N = {shoe.size}; "
            "the total return is the EV.",
        ),
    )


#: The report's words for the grid of practical pays (``bets --scale`` names its own option).
FAIR_PAY_GRID = "grid of the practical pays of 'punto-banco bets --fair-pay'"


def ladder_tables(report: GameMathReport, section: BetSection) -> list[Table]:
    """Under ``scale``: for each deck count, every winning line's scaled pay for the target
    edge (or the fair one) with its practical pays, and the ladder's exact house edge at them
    (the tables of ``bets --scale``, :func:`analyzer.output.bet_tables.scaled_ladder_tables`, of
    the ladders :mod:`analyzer.studies.report_data` solved);
    else none."""
    if not report.scale or section.bet.payout_function is not None:
        return []
    edge = Fraction(0) if report.target_edge is None else report.target_edge
    out: list[Table] = []
    for f in section.figures:
        solved = f.fair_ladder if report.target_edge is None else f.target_ladder
        ladders, unsolved = ((solved,), ()) if solved is not None else ((), (section.bet.title,))
        lines, ladder = scaled_ladder_tables(Shoe.standard(f.decks).describe(), ladders, edge, unsolved)
        out += [
            dataclasses.replace(
                t,
                name=f"{t.name}:{section.bet.name}:{f.decks}",
                notes=tuple(n.replace("grid of --fair-pay", FAIR_PAY_GRID) for n in t.notes),
            )
            for t in (lines, ladder)
        ]
    return out


def eor_table(report: GameMathReport, section: BetSection, digits: int = 10) -> Table:
    """The bet's effect of removing one card of each rank from the EOR shoe: the table of
    ``eor --table eor`` (:func:`analyzer.output.eor_tables.removal_table`), with the suggested
    count and its betting correlation beside the sum check."""
    b = section.eor
    table = removal_table(report.eor, b, digits, exact=True)
    bc = b.system.betting_correlation(6)
    count = (
        f"Suggested count (tags proportional to the EORs, largest {b.system.max_tag}): "
        f"{tags_text(b.system.tags)}; betting correlation {'-' if bc is None else f'{bc:f}'}."
    )
    return dataclasses.replace(table, notes=(*table.notes, count))


#: Said in the closed forms for a solved pay that no positive pay gives (as the par sheet's '-').
NO_PAY_FORM = "no positive pay gives it on these shoes (the par sheet's '-')"


def _pay_shown(fn: RationalFunction | None, pays: Sequence[Fraction | None]) -> RationalFunction | None:
    """A solved pay's closed form, or ``None`` where the par sheet has no pay at any deck count
    (no positive pay gives that edge, or the line's event cannot happen): a negative pay is no
    bet's pay."""
    return None if fn is None or all(p is None for p in pays) else fn


def _forms(section: BetSection, report: GameMathReport) -> list[tuple[str, RationalFunction | None]]:
    """The closed forms shown for ``section``, as (label, f); f is ``None`` for a solved pay that
    no positive pay gives (:data:`NO_PAY_FORM`)."""
    f = section.forms
    out: list[tuple[str, RationalFunction | None]] = [("House edge", f.house_edge)]
    if f.house_edge_resolved is not None:
        out.append(("House edge (resolved)", f.house_edge_resolved))
    out += [("Hit frequency", f.hit_frequency), ("Variance", f.variance)]
    if section.solved_line is None or report.scale:
        return out
    out.append(("Fair pay", _pay_shown(section.fair_pay_form, [x.fair_pay for x in section.figures])))
    if report.target_edge is not None:
        out.append(
            (
                f"Pay for a {_edge_words(report.target_edge)}",
                _pay_shown(section.target_pay_form, [x.target_pay for x in section.figures]),
            )
        )
    return out


def _limit(fn: RationalFunction | None, pay: bool) -> Fraction | None:
    """f's infinite-deck value; ``None`` for no form, or a pay that is not positive there."""
    if fn is None:
        return None
    value = fn.limit()
    return None if pay and value <= 0 else value


def forms_table(report: GameMathReport, section: BetSection) -> Table:
    """The closed forms of the bet in the number of decks d: each quantity's infinite-deck
    limit and its 1/d correction (the formulas themselves are :func:`_forms`'s functions)."""
    rows = tuple(
        (f"{label}: {NO_PAY_FORM}", None, None)
        if fn is None
        else (label, _limit(fn, label.startswith(("Fair pay", "Pay for"))), fn.correction())
        for label, fn in _forms(section, report)
    )
    return Table(
        f"forms:{section.bet.name}",
        f"{section.bet.title}: closed forms in the number of decks d",
        (
            Column("Quantity", "text", "quantity"),
            Column("Infinite deck", "both", "limit"),
            Column("1/d coefficient c", "both", "correction"),
        ),
        rows,
        (
            "f(d) = f(inf) + c/d + O(1/d^2); each f(d) is an exact rational function of d, valid "
            "for every standard shoe of d >= 1 decks (52d cards).",
        ),
    )


def report_tables(report: GameMathReport, section: BetSection, digits: int = 10) -> list[Table]:
    """The tables of one bet's section, in order: pay table, par sheet, the house's win-rate
    band, the exact values, the scaled ladders (with ``scale``), the events table of each deck
    count, EOR table (its notes' EV to ``digits`` decimals), closed forms."""
    return [
        pay_table(section),
        par_sheet_table(report, section, digits),
        band_table(report, section, digits),
        exact_table(report, section),
        *ladder_tables(report, section),
        *(events_table(f) for f in section.figures),
        eor_table(report, section, digits),
        forms_table(report, section),
    ]


def _estimate_text(e: Estimate | Fraction | None) -> str:
    """An estimate and its standard error as the report prints them: ``0.6716 ± 0.0326``; an
    exact figure rounded exactly: ``6.7647``."""
    if e is None:
        return "-"
    if isinstance(e, Fraction):
        return decimal_text(e, 4)
    return f"{_four(e.value)} ± {_four(e.se)}"


def _four(x: float) -> str:
    """A float estimate to 4 decimals, never ``-0.0000`` (a negative too small to show is 0)."""
    text = f"{x:.4f}"
    return text[1:] if text == "-0.0000" else text


def exposure_table(section: ExposureSection) -> Table:
    """One exposure section (:class:`~analyzer.studies.report_data.ExposureSection`) as a table:
    a row per bet and way of play, a column per figure (estimate +- standard error), and a note
    column for a row without figures."""
    labels: list[str] = []
    for row in section.rows:
        for label, _ in row.figures:
            if label not in labels:
                labels.append(label)
    cols = (
        Column("Bet", "text", "bet"),
        Column("Play", "text", "play"),
        *(Column(label, "decimal", f"f{i}") for i, label in enumerate(labels)),
        Column("Note", "text", "note"),
    )
    rows = []
    for row in section.rows:
        have = dict(row.figures)
        rows.append(
            (row.bet, row.play, *(_estimate_text(have.get(label)) for label in labels), row.note or "")
        )
    return Table(f"exposure:{section.key}", section.title, cols, tuple(rows), section.notes)


#: The glossary of the report: each figure explained in words, for a reader without the tool.
GLOSSARY: tuple[tuple[str, str], ...] = (
    (
        "Coup / hand",
        "One deal of Punto Banco: two or three cards to the Player and to the Banker under the "
        "drawing rules stated above. A side bet is settled on one coup.",
    ),
    (
        "Combinations",
        "How many ordered sequences of six physical cards from the shoe give the event. Every "
        "coup is decided by at most six cards; a coup that uses four or five is counted with the cards that "
        "would come next, so every event of a shoe of N cards is out of N x (N-1) x ... x (N-5).",
    ),
    ("Probability", "Combinations divided by that total: exact fractions, shown also as decimals."),
    (
        "Pays",
        "What one unit staked wins when the event happens, 'to 1' (the stake is kept as well); "
        "-1 is the loss of the stake; 0 is a push (the stake is returned).",
    ),
    ("Return", "Probability x pays, per event; their sum is the EV, the expected win per unit staked."),
    (
        "House edge per hand",
        "The expected loss of one unit staked on one coup (= -EV), pushes counted as "
        "hands. The casino's long-run share of the money bet.",
    ),
    ("House edge per resolved hand", "The same per bet that does not push: house edge / P(no push)."),
    (
        "RTP (theoretical return)",
        "Return to player: the share of the money staked that the bet pays back over "
        "the long run, stakes included: 100% - house edge per hand.",
    ),
    (
        "Element of risk",
        "The expected loss over the average amount at risk. Here the stake is one unit and "
        "never raised, and a push risks nothing, so it equals the house edge per resolved hand.",
    ),
    ("Hit frequency", "The probability that the bet wins (pays more than 0) on a coup."),
    (
        "Standard deviation (SD)",
        "The spread of the result of one unit bet around the EV, per unit staked: the "
        "square root of the exact variance.",
    ),
    (
        "Volatility index (VI)",
        "z x SD, with z the standard normal quantile of the confidence level (1.645 at "
        "90%, 1.960 at 95%, 2.576 at 99%). After N hands of one unit, the player's total result lies within "
        "N x EV +- VI x sqrt(N) units with that confidence (normal approximation).",
    ),
    (
        "The house's win rate after N hands",
        "The house's win divided by the money staked after N hands: its "
        "band is house edge +- z x SD / sqrt(N). It narrows as N grows; a negative bound is a player win.",
    ),
    ("Largest single win", "The most that one unit staked can win on one coup ('to 1')."),
    (
        "Fair pay / pay for a target house edge",
        "The pay of the solved line (the bet's adjustable line, or the "
        "line named with --adjust) at which the house edge is 0, or the target; solved exactly, the other "
        "pays "
        "unchanged. With --scale, the factor on every winning pay instead.",
    ),
    (
        "Effect of removal (EOR)",
        "The change in the bet's EV when one card of a rank leaves the shoe: what a "
        "card counter tracks. The suggested count gives each rank a whole-number tag proportional to its "
        "EOR; "
        "its betting correlation (-1 to 1) says how well the tags follow the EORs.",
    ),
    (
        "Closed forms",
        "Each figure as an exact rational function of the number of decks d: its value for an "
        "infinite shoe and its 1/d correction.",
    ),
    (
        "Counting exposure",
        "Seeded simulated shoes, each bet priced exactly before every coup on the cards not "
        "yet seen. Perfect play bets whenever that EV is positive: the most any counter could win. The count "
        "bets when the true count of the suggested tags reaches its threshold. Figures are per shoe or per "
        "100 "
        "coups, each +- its standard error; the seed makes the run repeatable.",
    ),
    (
        "Exposure to partial information (edge sorting)",
        "What a bettor gains by telling two groups of cards apart before they are dealt (card backs "
        "printed unevenly, as in the Crockfords and Borgata cases): for the worst two-group split of the "
        "point values, seeing the first card or the first four cards of a coup, betting only when the "
        "bet's exact EV given what he saw is positive. Exact figures: how often he bets, and his "
        "expected win per coup dealt and per unit bet.",
    ),
)


def glossary_table() -> Table:
    """:data:`GLOSSARY` as a table (term, meaning)."""
    return Table(
        "glossary",
        "Glossary",
        (Column("Term", "text", "term"), Column("Meaning", "text", "meaning")),
        GLOSSARY,
    )


def provenance_table(report: GameMathReport) -> Table:
    """The provenance as a table (:func:`provenance_rows`), shown first on screen and on paper."""
    return Table(
        "provenance",
        "About this report",
        (Column("Field", "text", "field"), Column("Value", "text", "value")),
        tuple(provenance_rows(report)),
    )


def drawing_rules(report: GameMathReport) -> list[str]:
    """The drawing rules of the report's tableau in words (its Table of Play), with its
    fingerprint."""
    return [*report.tableau.table_of_play(), f"Rules fingerprint: {report.tableau.fingerprint}"]


def _percent_notes(report: GameMathReport, digits: int) -> list[str]:
    if report.target_edge is None:
        return []
    note = percent_words(report.target_edge, digits)[1]
    return [] if note is None else [f"The target house edge {note}"]


# -- charts -----------------------------------------------------------------------------------


def flat_eor(report: GameMathReport, index: int) -> bool:
    """True when every effect of removal of bet ``index`` is exactly 0 (its chart would be empty:
    the report says :data:`CHART_FLAT` instead)."""
    return all(e is None or e == 0 for e in report.bets[index].eor.eor)


def chart_png(report: GameMathReport, index: int) -> bytes | None:
    """The EOR bar chart of bet ``index`` as PNG bytes, or ``None`` when matplotlib is not
    installed (the report then says so)."""
    one = dataclasses.replace(report.eor, bets=(report.bets[index].eor,))
    try:
        return eor_image(one, "chart.png")
    except PlotUnavailableError:
        return None


def chart_name(output: str | Path, index: int) -> str:
    """The file name of bet ``index``'s chart beside a Markdown report ``output``
    (``report.md`` -> ``report-eor-1.png``; bets are numbered from 1)."""
    return f"{Path(output).stem}-eor-{index + 1}.png"  # ".md" -> ".md-eor-1.png", never "-eor-1.png"


# -- Markdown ---------------------------------------------------------------------------------


def render_markdown(
    report: GameMathReport,
    digits: int = 10,
    charts: Mapping[int, str] | None = None,
    missing: str | None = None,
) -> str:
    """The report as Markdown: its provenance first (a table, visible), the drawing rules, a
    section per bet, the exposure sections, the glossary.  ``charts`` maps a bet's index to the
    file name of its chart (linked as an image); for a bet without one, the report says
    ``missing`` (default: that the charts are files beside a report written to a file).

    Raises:
        FormatError: ``digits`` is not a whole number from 0 to 1000.
    """
    _check_digits(digits)
    note = CHART_ELSEWHERE if missing is None else missing
    parts = [
        f"# {markdown_text(_title(report))}",
        "## " + render([provenance_table(report)], "markdown", digits).rstrip().removeprefix("### "),
        markdown_text(_intro(report, digits)),
        *(markdown_text(n) for n in _percent_notes(report, digits)),
        markdown_text(CONVENTIONS),
        "**Contents**\n\n"
        + "\n".join(f"- {_list_text(e)}" for e in contents_entries(report)),
        "## Rules of play\n\n```text\n" + "\n".join(printable(x) for x in drawing_rules(report)) + "\n```",
    ]
    for i, section in enumerate(report.bets):
        bet = section.bet
        parts.append(
            f"## {i + 1}. {markdown_text(bet.title)}\n\n**Rules.** {markdown_text(bet_rules(section))}"
            + "".join(
                f"\n\n**{markdown_text(n.split(': ', 1)[0])}.** {markdown_text(n.split(': ', 1)[1])}"
                for n in _provenance(bet)
            )
            + (
                f"\n\n**Definition.** {DEFINITION_WORDS}\n\n{_fenced(section.definition, 'toml')}"
                if section.definition
                else ""
            )
        )
        tables = report_tables(report, section, digits)
        parts.append(render(tables[:-1], "markdown", digits).rstrip())
        if flat_eor(report, i):
            parts.append(f"*{markdown_text(CHART_FLAT)}*")
        elif charts is not None and i in charts:
            link = urllib.parse.quote(charts[i], errors="surrogateescape")  # a space would end it
            parts.append(f"![Effects of removal: {markdown_text(bet.title)}]({link})")
        else:
            parts.append(f"*{markdown_text(note)}*")
        formulas = "\n".join(
            f"- **{markdown_text(label)}**: "
            + (markdown_text(NO_PAY_FORM) if fn is None else f"`f(d) = {fn.text()}`")
            for label, fn in _forms(section, report)
        )
        parts.append(render([tables[-1]], "markdown", digits).rstrip() + "\n\n" + formulas)
    for exposure in report.exposures:
        parts.append(f"## {markdown_text(exposure.title)}\n\n{markdown_text(exposure.method)}")
        parts.append("\n".join(f"- **{markdown_text(k)}**: {markdown_text(v)}" for k, v in exposure.settings))
        parts.append(_untitled(render([exposure_table(exposure)], "markdown", digits).rstrip(), "### "))
    parts.append(
        "## Glossary\n\n" + "\n".join(f"- **{markdown_text(t)}**: {markdown_text(m)}" for t, m in GLOSSARY)
    )
    return "\n\n".join(parts) + "\n"


def _provenance(bet: Bet) -> tuple[str, ...]:
    """The report's "Source: ..." and "Grade: ..." lines of a bet (:func:`provenance_notes`);
    a bet without a source says so."""
    notes = provenance_notes(bet)
    return notes if any(n.startswith("Source: ") for n in notes) else ("Source: not given", *notes)


def contents_entries(report: GameMathReport) -> list[str]:
    """The report's contents, in the order its sections (level-2 headings) are printed after
    the list: the rules of play, each bet (``"1. Title (name)"``), the exposure sections, the
    glossary."""
    bets = [f"{i}. {s.bet.title} ({s.bet.name})" for i, s in enumerate(report.bets, 1)]
    return ["Rules of play", *bets, *(e.title for e in report.exposures), "Glossary"]


def _list_text(entry: str) -> str:
    """A contents entry as Markdown list text: ``1. Title`` must not start a nested list."""
    return re.sub(r"^(\d+)\. ", r"\1\\. ", markdown_text(entry))


def _untitled(fragment: str, heading: str) -> str:
    """A rendered table without its title heading (its first line, starting ``heading``): for a
    table that is its section's only table, under the section's own heading."""
    first, _, rest = fragment.partition("\n")
    return rest.lstrip("\n") if first.startswith(heading) else fragment


def _fenced(text: str, language: str) -> str:
    """``text`` as a fenced Markdown code block, its fence longer than any run of backticks in
    it (so nothing in the text can end it)."""
    runs = [len(m) for m in re.findall(r"`+", text)]
    fence = "`" * max(3, max(runs, default=0) + 1)
    body = "\n".join(printable(line) for line in text.splitlines())
    return f"{fence}{language}\n{body}\n{fence}"


def _code(text: str) -> str:
    """Text for a Markdown code span (a backtick would end it)."""
    return printable(text).replace("`", "'")


def _solved_intro(report: GameMathReport, digits: int = 10) -> str:
    """What the report solves pays for, in words matching the par sheets: the fair pay and the
    pay for the target edge of the bets that have a line solved for (or a factor under
    ``scale``), or that no pay is solved, and why."""
    if report.scale:
        solved = [s for s in report.bets if s.bet.payout_function is None]
    else:
        solved = [s for s in report.bets if s.solved_line is not None]
    target = "" if report.target_edge is None else f" and for a {_edge_words(report.target_edge, digits)}"
    if not solved:
        why = (
            f"no bet has a pay line '{report.adjust}' (--adjust)"
            if report.adjust is not None
            else "no bet has pay lines to scale"
            if report.scale
            else "no bet has a single adjustable pay line (--adjust EVENT solves any one line, --scale every "
            "win by one factor)"
        )
        return f" No pay is solved: {why}."
    how = (
        "every winning pay scaled by one factor"
        if report.scale
        else f"the line '{report.adjust}'"
        if report.adjust is not None
        else "each bet's adjustable line"
    )
    which = "" if len(solved) == len(report.bets) else f" for {len(solved)} of the {len(report.bets)} bets"
    return f" Pays are solved{which} for a fair bet{target} ({how}); each par sheet says what it solves."


def _intro(report: GameMathReport, digits: int = 10) -> str:
    return (
        f"Standard shoes of {decks_text(report.decks)} (52 cards per deck, 4 suits), rules: "
        f"{report.tableau.describe()}. Effects of removal on {Shoe.standard(report.eor_decks).describe()}."
        + _solved_intro(report, digits)
        + " Every figure is explained in words in the glossary at the end."
    )


def _check_digits(digits: object) -> None:
    if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= 1000:
        raise FormatError(f"bad number of digits {digits!r}: use a whole number from 0 to 1000")


# -- HTML -------------------------------------------------------------------------------------

_CSS = """
body { font-family: sans-serif; margin: 2em auto; max-width: 80em; padding: 0 1em; line-height: 1.4;
  color: #111; }
.table-wrap { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 0.9em; }
th, td { border: 1px solid #bbb; padding: 0.2em 0.5em; vertical-align: top; }
th { background: #eee; }
.num { white-space: nowrap; text-align: right; font-variant-numeric: tabular-nums; }
h1, h2, h3, th.text, td.text { overflow-wrap: anywhere; }
.provenance td { font-family: monospace; }
pre { font-size: 0.9em; background: #f6f6f6; padding: 0.5em; overflow-x: auto; }
code { font-size: 0.9em; white-space: normal; overflow-wrap: anywhere; }
p, li { overflow-wrap: anywhere; }
pre.definition { white-space: pre-wrap; overflow-wrap: anywhere; }
.note { color: #555; font-style: italic; }
img { max-width: 100%; }
""".strip()


def _print_css(report: GameMathReport) -> str:
    """The page rules of a printed report (and of the PDF): A4 landscape, the running heads on
    every page in its margins (:func:`running_heads`) with the page number, smaller type so that
    a wide table fits the page with every number on one line."""
    top, bottom = running_heads(report)
    box = "font-family: sans-serif; font-size: 6.5pt; color: #333;"
    return (
        "@page { size: A4 landscape; margin: 17mm 10mm 17mm 10mm;\n"
        f"  @top-left {{ content: {_css_string(top)}; {box} vertical-align: bottom; width: 277mm; }}\n"
        f"  @bottom-left {{ content: {_css_string(bottom)}; {box} vertical-align: top; width: 245mm; }}\n"
        '  @bottom-right { content: "page " counter(page) " of " counter(pages); '
        f"{box} vertical-align: top; text-align: right; white-space: nowrap; width: 22mm; }}\n"
        "}\n"
        "@media print {\n"
        "  body { margin: 0; max-width: none; padding: 0; font-size: 8pt; }\n"
        "  table { font-size: 7pt; }\n"
        "  .table-wrap { overflow: visible; }\n"
        "  pre { overflow: visible; white-space: pre-wrap; }\n"
        "  h2 { break-before: page; }\n"
        "  h1 + h2 { break-before: avoid; }\n"
        "  h3 { break-after: avoid; }\n"
        "  tr, img { break-inside: avoid; }\n"
        "  thead { display: table-header-group; }\n"
        "}"
    )


def _css_string(text: str) -> str:
    """``text`` as a CSS string literal: every character but letters, digits, space and plain
    punctuation written as a hex escape, so no quote, backslash, newline or ``</style>`` can end
    it early."""
    safe = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,:;()=+-_/#%[]")
    return '"' + "".join(ch if ch in safe else f"\\{ord(ch):06x}" for ch in printable(text)) + '"'


def render_html(report: GameMathReport, digits: int = 10, charts: bool = True) -> str:
    """The report as one self-contained HTML page: styles inline, each EOR chart embedded as a
    ``data:`` URI PNG (with ``charts`` and matplotlib; otherwise a line says why there is none),
    nothing loaded from elsewhere.  Every text from a bet (titles, rules, sources) is escaped.
    Numbers never wrap (``white-space: nowrap``); text (headings, paragraphs, text cells) may
    break anywhere, so a long unbroken word from a bet file never widens the page; a wide
    table scrolls on screen; printed, the
    pages are A4 landscape in smaller type with the provenance on every page
    (:func:`running_heads`) and at the top.

    Raises:
        FormatError: ``digits`` is not a whole number from 0 to 1000.
    """
    _check_digits(digits)
    anchors = ["rules-of-play", *(f"bet-{i}" for i in range(1, len(report.bets) + 1))]
    anchors += [e.key for e in report.exposures] + ["glossary"]
    contents = [
        f'<li><a href="#{html_text(a)}">{html_text(entry)}</a></li>'
        for a, entry in zip(anchors, contents_entries(report), strict=True)
    ]
    body = [
        f"<h1>{html_text(_title(report))}</h1>",
        "<h2>About this report</h2>",
        '<div class="provenance">'
        + _untitled(html_table(provenance_table(report), digits), "<h3>")
        + "</div>",
        f"<p>{html_text(_intro(report, digits))}</p>",
        *(f'<p class="note">{html_text(n)}</p>' for n in _percent_notes(report, digits)),
        f"<p>{html_text(CONVENTIONS)}</p>",
        '<p><strong>Contents</strong></p><ul class="contents">' + "".join(contents) + "</ul>",
        '<h2 id="rules-of-play">Rules of play</h2>',
        "<pre>" + "\n".join(html_text(line) for line in drawing_rules(report)) + "</pre>",
    ]
    for i, section in enumerate(report.bets):
        bet = section.bet
        body.append(f'<h2 id="bet-{i + 1}">{i + 1}. {html_text(bet.title)}</h2>')
        body.append(f"<p><strong>Rules.</strong> {html_text(bet_rules(section))}</p>")
        for note in _provenance(bet):
            label, text = note.split(": ", 1)
            body.append(f"<p><strong>{html_text(label)}.</strong> {html_text(text)}</p>")
        if section.definition:
            body.append(f"<p><strong>Definition.</strong> {html_text(DEFINITION_WORDS)}</p>")
            body.append(
                '<pre class="definition">'
                + "\n".join(html_text(line) for line in section.definition.splitlines())
                + "</pre>"
            )
        tables = report_tables(report, section, digits)
        body += [html_table(t, digits) for t in tables[:-1]]
        flat = flat_eor(report, i)
        png = chart_png(report, i) if charts and not flat else None
        if flat:
            body.append(f'<p class="note">{html_text(CHART_FLAT)}</p>')
        elif png is not None:
            data = base64.b64encode(png).decode("ascii")
            body.append(
                f'<p><img alt="Effects of removal: {html_text(bet.title)}" '
                f'src="data:image/png;base64,{data}"></p>'
            )
        else:
            why = CHART_MISSING if charts else "EOR chart left out."
            body.append(f'<p class="note">{html_text(why)}</p>')
        body.append(html_table(tables[-1], digits))
        body.append(
            "<ul>"
            + "".join(
                f"<li><strong>{html_text(label)}</strong>: "
                + (html_text(NO_PAY_FORM) if fn is None else f"<code>f(d) = {html_text(fn.text())}</code>")
                + "</li>"
                for label, fn in _forms(section, report)
            )
            + "</ul>"
        )
    for exposure in report.exposures:
        body.append(f'<h2 id="{html_text(exposure.key)}">{html_text(exposure.title)}</h2>')
        body.append(f"<p>{html_text(exposure.method)}</p>")
        body.append(
            "<ul>"
            + "".join(
                f"<li><strong>{html_text(k)}</strong>: {html_text(v)}</li>" for k, v in exposure.settings
            )
            + "</ul>"
        )
        body.append(_untitled(html_table(exposure_table(exposure), digits), "<h3>"))
    body.append('<h2 id="glossary">Glossary</h2>')
    body.append(_untitled(html_table(glossary_table(), digits), "<h3>"))
    head = (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html_text(_title(report))}</title>\n<style>\n{_CSS}\n{_print_css(report)}\n</style>\n</head>\n"
    )
    return head + "<body>\n" + "\n".join(body) + "\n</body>\n</html>\n"


# -- PDF --------------------------------------------------------------------------------------

#: The environment variable naming the Chromium (or Chrome) program that prints the PDF.
CHROMIUM_ENV = "PUNTO_BANCO_CHROMIUM"
#: Programs looked for, in order, when :data:`CHROMIUM_ENV` is not set.
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
#: Seconds Chromium may take to print one report; then it and every process it started are
#: killed (:func:`_print_with`).
PDF_TIMEOUT: float = 180


def chromium_program() -> str | None:
    """The Chromium that prints the PDF: :data:`CHROMIUM_ENV` when set, else the first of
    :data:`CHROMIUM_NAMES` on the PATH; ``None`` when there is none."""
    named = os.environ.get(CHROMIUM_ENV)
    if named:
        return shutil.which(named)
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def _print_with(args: Sequence[str], program: str) -> int:
    """Run the printer ``args`` in a session (process group) of its own and return its exit
    code; the whole group (Chromium's renderer and helper processes too) is killed when it
    takes over :data:`PDF_TIMEOUT` seconds, on any error, and after it ends (nothing it started
    outlives the report).

    Raises:
        FormatError: it could not start, or took too long.
    """
    try:
        proc = subprocess.Popen(
            args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,
        )  # fmt: skip
    except OSError as err:
        raise FormatError(f"Chromium ({program}) could not start: {err.strerror or err}") from None
    try:
        return proc.wait(timeout=PDF_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise FormatError(f"Chromium took over {PDF_TIMEOUT} s to print the PDF; nothing written") from None
    finally:
        with contextlib.suppress(ProcessLookupError, PermissionError):  # the group has ended
            os.killpg(proc.pid, signal.SIGKILL)  # the group's id is the leader's pid
        proc.wait()


def render_pdf(report: GameMathReport, digits: int = 10, charts: bool = True) -> bytes:
    """The report as PDF: the HTML page (:func:`render_html`) printed by headless Chromium, A4
    landscape, the provenance (tool, version, date, command, rules and their fingerprint,
    shoes, bet files' SHA-256) on every page, numbers never wrapped.

    Raises:
        FormatError: no Chromium (install it, e.g. ``apt-get install chromium``, or name it in
            ``PUNTO_BANCO_CHROMIUM``), it failed, or it took over :data:`PDF_TIMEOUT` seconds;
            bad ``digits``.
    """
    page = render_html(report, digits, charts)
    program = chromium_program()
    if program is None:
        raise FormatError(
            "--format pdf prints the HTML report with Chromium, which was not found: install it "
            f"(apt-get install chromium) or name the program in {CHROMIUM_ENV}"
        )
    with tempfile.TemporaryDirectory(prefix="punto-banco-pdf-") as tmp:
        src, out = Path(tmp) / "report.html", Path(tmp) / "report.pdf"
        src.write_text(page, encoding="utf-8")
        args = [
            program,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-extensions",
            "--no-pdf-header-footer",
            f"--user-data-dir={Path(tmp) / 'profile'}",
            f"--print-to-pdf={out}",
            src.as_uri(),
        ]
        code = _print_with(args, program)
        if code != 0 or not out.exists() or not out.read_bytes().startswith(b"%PDF"):
            raise FormatError(f"Chromium ({program}) did not print the PDF (exit code {code})")
        return out.read_bytes()


# -- xlsx -------------------------------------------------------------------------------------


def _xlsx_text(text: str) -> str:
    return printable(text)


class _Sheet:
    """Rows written to an openpyxl worksheet with exact cells: each column has a kind."""

    def __init__(self, ws: Any, digits: int) -> None:
        self.ws = ws
        self.row = 1
        shown = min(max(digits, 1), XLSX_MAX_DECIMALS)
        self.decimal_format = "0." + "0" * shown
        self.percent_format = "0." + "0" * shown + "%"

    def text(self, col: int, value: str) -> None:
        cell = self.ws.cell(row=self.row, column=col, value=_xlsx_text(value))
        cell.data_type = "s"  # never a formula, whatever the text starts with

    def integer(self, col: int, value: int) -> None:
        if abs(value) < EXACT_NUMBER_LIMIT:
            self.ws.cell(row=self.row, column=col, value=value)
        else:
            self.text(col, str(value))

    def number(self, col: int, value: Fraction, percent: bool = False) -> None:
        cell = self.ws.cell(row=self.row, column=col, value=float(value))
        cell.number_format = self.percent_format if percent else self.decimal_format

    def put(self, col: int, kind: str, value: object) -> None:
        """Write one cell: ``kind`` is text, lines (text of several lines), int, exact (fraction
        text), decimal, percent, sd (the
        square root of an exact fraction), float (an estimate, already a float)."""
        if value is None:
            self.text(col, "-")
        elif kind == "text":
            self.text(col, str(value))
        elif kind == "lines":  # text of several lines, each made printable, kept on its line
            cell = self.ws.cell(
                row=self.row, column=col, value="\n".join(_xlsx_text(x) for x in str(value).splitlines())
            )
            cell.data_type = "s"
        elif kind == "int":
            assert isinstance(value, int)
            self.integer(col, value)
        elif kind == "exact":
            assert isinstance(value, Fraction | int)
            self.text(col, fraction_text(Fraction(value)))
        elif kind in ("decimal", "percent"):
            assert isinstance(value, Fraction | int)
            self.number(col, Fraction(value), kind == "percent")
        elif kind == "float":
            assert isinstance(value, float)
            cell = self.ws.cell(row=self.row, column=col, value=value)
            cell.number_format = "0.0000"
        elif kind == "sd":
            assert isinstance(value, Fraction)
            cell = self.ws.cell(row=self.row, column=col, value=float(sqrt_decimal(value, XLSX_MAX_DECIMALS)))
            cell.number_format = self.decimal_format
        else:  # pragma: no cover - a programming error
            raise FormatError(f"unknown cell kind {kind!r}")

    def header(self, names: Sequence[str]) -> None:
        from openpyxl.styles import Font  # type: ignore[import-untyped,unused-ignore]

        for c, name in enumerate(names, 1):
            self.text(c, name)
            self.ws.cell(row=self.row, column=c).font = Font(bold=True)
        self.ws.freeze_panes = self.ws.cell(row=self.row + 1, column=1)
        self.row += 1

    def line(self, cells: Sequence[tuple[str, object]]) -> None:
        for c, (kind, value) in enumerate(cells, 1):
            self.put(c, kind, value)
        self.row += 1

    def widths(self, widths: Sequence[int]) -> None:
        from openpyxl.utils import get_column_letter  # type: ignore[import-untyped,unused-ignore]

        for c, w in enumerate(widths, 1):
            self.ws.column_dimensions[get_column_letter(c)].width = w


def _both(value: Fraction | int | None, percent: bool = False) -> list[tuple[str, object]]:
    return [("exact", value), ("percent" if percent else "decimal", value)]


#: The sheets of the workbook, in order.
XLSX_SHEETS = ("Report", "Summary", "Events", "EOR", "Closed forms", "Exposure", "EOR charts")


def render_xlsx(report: GameMathReport, digits: int = 10) -> bytes:
    """The report as an .xlsx workbook (the bytes of the file).  Sheets (:data:`XLSX_SHEETS`):
    Report (what produced it, the bets' rules and sources), Summary (a row per bet and deck
    count: the par sheet), Events (a row per bet, deck count and event), EOR (a row per bet and rank), Closed
    forms (a row per bet and quantity), Exposure (the exposure sections: a row per bet, play and
    figure, estimate and standard error), EOR charts (a native bar chart per bet, drawn from the
    EOR sheet).  An exact fraction is text ("p/q") beside its decimal (the nearest double); an
    integer is a number (text from 2**53 on); text never becomes a formula.

    Raises:
        FormatError: openpyxl is not installed (pip install 'punto-banco-analyzer[report]'), or
            ``digits`` is not a whole number from 0 to 1000.
    """
    _check_digits(digits)
    try:
        from openpyxl import Workbook  # type: ignore[import-untyped,unused-ignore]
        from openpyxl.chart import BarChart, Reference  # type: ignore[import-untyped,unused-ignore]
    except ImportError:
        raise FormatError(
            "--format xlsx needs openpyxl: pip install 'punto-banco-analyzer[report]'"
        ) from None
    wb = Workbook()
    about = _Sheet(wb.active, digits)
    about.ws.title = "Report"
    about.text(1, _title(report))
    about.row += 2
    for k, v in report_meta(report).items():
        about.line([("text", str(k)), ("text", str(v))])
    about.line([("text", "decks"), ("text", ", ".join(map(str, report.decks)))])
    about.line([("text", "eor shoe"), ("text", Shoe.standard(report.eor_decks).describe())])
    if report.target_edge is not None:
        about.line([("text", "target house edge"), *_both(report.target_edge, percent=True)])
    about.row += 1
    about.text(1, CONVENTIONS)
    about.row += 2
    about.header(
        ["#", "Bet name", "Bet", "Rules", "Source", "Reads suits", "Definition (bet file, as written)"]
    )
    for i, s in enumerate(report.bets, 1):
        about.line(
            [
                ("int", i),
                ("text", s.bet.name),
                ("text", s.bet.title),
                ("text", bet_rules(s)),
                ("text", s.bet.source or "not given"),
                ("text", "yes" if s.bet.reads.needs_suits else "no"),
                ("lines", s.definition or "-"),
            ]
        )
    about.ws.freeze_panes = None
    about.widths([22, 24, 40, 80, 60, 12, 80])

    summary = _Sheet(wb.create_sheet("Summary"), digits)
    summary.header(
        [
            "Bet name", "Bet", "Decks", "Cards", "Combinations (N!/(N-6)!)",
            "EV (exact)", "EV", "House edge (exact)", "House edge",
            "House edge resolved (exact)", "House edge resolved",
            "Hit frequency (exact)", "Hit frequency", "Variance (exact)", "Variance", "SD",
            "Fair pay (exact)", "Fair pay", "Pay for target edge (exact)", "Pay for target edge",
            "RTP (exact)", "RTP", "Element of risk", "Largest win (to 1)",
            *(f"Volatility index {level}%" for level, _ in Z_LEVELS),
        ]
    )  # fmt: skip
    for s in report.bets:
        for f in s.figures:
            m = f.summary
            summary.line(
                [
                    ("text", s.bet.name),
                    ("text", s.bet.title),
                    ("int", f.decks),
                    ("int", 52 * f.decks),
                    ("int", m.denominator),
                    *_both(m.ev),
                    *_both(m.house_edge, percent=True),
                    *_both(f.house_edge_resolved, percent=True),
                    *_both(m.hit_frequency),
                    *_both(m.variance),
                    ("sd", m.variance),
                    *_both(f.fair_pay if not report.scale else _factor(f.fair_ladder)),
                    *_both(f.target_pay if not report.scale else _factor(f.target_ladder)),
                    *_both(f.rtp, percent=True),
                    ("percent", f.element_of_risk),
                    ("exact", f.largest_win),
                    *(("sd", z * z * m.variance) for _, z in Z_LEVELS),
                ]
            )
    summary.widths([22, 30, 7, 7, 22] + [18] * 24)

    events = _Sheet(wb.create_sheet("Events"), digits)
    events.header(
        [
            "Bet name", "Decks", "Event", "Pays (exact)", "Pays", "Combinations", "Out of",
            "Probability (exact)", "Probability", "Return (exact)", "Return",
        ]
    )  # fmt: skip
    for s in report.bets:
        for f in s.figures:
            for r in f.summary.events:
                events.line(
                    [
                        ("text", s.bet.name),
                        ("int", f.decks),
                        ("text", r.event),
                        *_both(r.pays),
                        ("int", r.count),
                        ("int", r.denominator),
                        *_both(r.probability),
                        *_both(r.ret),
                    ]
                )
    events.widths([22, 7, 40, 10, 10, 22, 22, 36, 14, 36, 14])

    eor = _Sheet(wb.create_sheet("EOR"), digits)
    eor.header(
        [
            "Bet name", "Decks", "Rank", "Cards", "EV after removal (exact)", "EV after removal",
            "EOR (exact)", "EOR", "Change in house edge", "Tag",
        ]
    )  # fmt: skip
    spans: list[tuple[int, int]] = []
    for s in report.bets:
        first = eor.row
        for g, c, after, e, t in zip(
            report.eor.groups, report.eor.counts, s.eor.removed_ev, s.eor.eor, s.eor.system.tags, strict=True
        ):
            eor.line(
                [
                    ("text", s.bet.name),
                    ("int", report.eor_decks),
                    ("text", g.label),
                    ("int", c),
                    *_both(after),
                    *_both(e),
                    ("percent", None if e is None else -e),
                    ("int", t),
                ]
            )
        spans.append((first, eor.row - 1))
    eor.widths([22, 7, 6, 7, 40, 16, 40, 16, 20, 6])

    forms = _Sheet(wb.create_sheet("Closed forms"), digits)
    forms.header(
        ["Bet name", "Quantity", "f(d)", "Infinite deck (exact)", "Infinite deck", "1/d coefficient (exact)",
         "1/d coefficient"]
    )  # fmt: skip
    for s in report.bets:
        for label, fn in _forms(s, report):
            pay = label.startswith(("Fair pay", "Pay for"))
            forms.line(
                [
                    ("text", s.bet.name),
                    ("text", label),
                    ("text", NO_PAY_FORM if fn is None else fn.text()),
                    *_both(_limit(fn, pay)),
                    *_both(None if fn is None else fn.correction()),
                ]
            )
    forms.widths([22, 28, 90, 30, 16, 30, 16])

    exposure = _Sheet(wb.create_sheet("Exposure"), digits)
    if not report.exposures:
        exposure.text(
            1, "No exposure study was asked for (--count-shoes N: counting; --sorting: edge sorting)."
        )
    for section in report.exposures:
        exposure.text(1, section.title)
        exposure.row += 1
        exposure.text(1, section.method)
        exposure.row += 1
        for k, v in section.settings:
            exposure.line([("text", k), ("text", v)])
        exposure.header(["Bet name", "Play", "Figure", "Estimate", "Standard error", "Note"])
        for row in section.rows:
            for label, est in row.figures or (("-", None),):
                if isinstance(est, Fraction):  # an exact figure: no standard error
                    cells = [("decimal", est), ("text", "exact")]
                else:
                    value, se = (None, None) if est is None else (est.value, est.se)
                    cells = [("float", value), ("float", se)]
                exposure.line([("text", row.bet), ("text", row.play), ("text", label),
                               *cells, ("text", row.note)])  # fmt: skip
        exposure.row += 1
    exposure.ws.freeze_panes = None
    exposure.widths([22, 50, 26, 14, 14, 40])

    charts = wb.create_sheet("EOR charts")
    for i, (s, (first, last)) in enumerate(zip(report.bets, spans, strict=True)):
        if flat_eor(report, i):
            charts.cell(row=1 + 17 * i, column=1, value=_xlsx_text(f"{s.bet.title}: {CHART_FLAT}"))
            continue
        chart = BarChart()
        chart.type = "col"
        chart.title = _xlsx_text(f"{s.bet.title}: change in house edge when one card leaves")
        chart.y_axis.title = "change in house edge"
        chart.x_axis.title = "rank removed"
        chart.y_axis.number_format = "0.000%"
        chart.legend = None
        chart.add_data(Reference(eor.ws, min_col=9, min_row=first, max_row=last), titles_from_data=False)
        chart.set_categories(Reference(eor.ws, min_col=3, min_row=first, max_row=last))
        chart.width, chart.height = 24, 8
        charts.add_chart(chart, f"A{1 + 17 * i}")
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


# -- files ------------------------------------------------------------------------------------


def _regular_target(output: str) -> bool:
    """True when ``output`` names a regular file (new or existing), not a descriptor, device or
    pipe: only beside such a file can chart files go."""
    if output.startswith(("/dev/", "/proc/")):
        return False
    real = Path(os.path.realpath(output))
    return not real.exists() or real.is_file()


def chart_paths(fmt: str, output: str | None, count: int) -> list[str]:
    """The chart files that :func:`report_files` writes beside a report of ``count`` bets in
    ``fmt`` to ``output``: one PNG per bet (:func:`chart_name`) for a Markdown report written to
    a regular file, else none.  These are files the user did not name: the command line creates
    them new and refuses to replace any (:func:`analyzer.output.files.refuse_existing`)."""
    if fmt != "markdown" or output is None or not _regular_target(output):
        return []
    return [str(Path(output).with_name(chart_name(output, i))) for i in range(count)]


def report_files(
    report: GameMathReport, fmt: str, output: str | None, digits: int = 10
) -> dict[str, str | bytes]:
    """What to write for ``report`` in ``fmt`` (:data:`REPORT_FORMATS`): path -> content.
    ``output`` is the report's path, or ``None`` for standard output (then the one key is
    ``""``).  A Markdown report written to a regular file gets one PNG chart per bet beside it
    (:func:`chart_paths`; none without matplotlib, and the report says so).

    Raises:
        FormatError: an unknown format, bad ``digits``, or xlsx or PDF without an output file;
            xlsx without openpyxl; PDF without Chromium (:func:`render_pdf`).
    """
    if not isinstance(fmt, str) or fmt not in REPORT_FORMATS:
        raise FormatError(f"unknown report format {fmt!r}: use {', '.join(REPORT_FORMATS)}")
    key = "" if output is None else output
    if fmt in ("xlsx", "pdf"):
        if output is None:
            what = "a binary workbook" if fmt == "xlsx" else "a PDF document"
            raise FormatError(f"--format {fmt} writes {what}: give the file with -o FILE.{fmt}")
        return {key: render_xlsx(report, digits) if fmt == "xlsx" else render_pdf(report, digits)}
    if fmt == "html":
        return {key: render_html(report, digits)}
    files: dict[str, str | bytes] = {}
    names: dict[int, str] = {}
    missing = None
    for i, path in enumerate(chart_paths(fmt, output, len(report.bets))):
        if flat_eor(report, i):
            continue  # nothing to draw: the report says so
        png = chart_png(report, i)
        if png is None:
            missing = CHART_MISSING
            names.clear()
            files.clear()
            break
        names[i] = Path(path).name
        files[path] = png
    return {key: render_markdown(report, digits, names, missing), **files}
