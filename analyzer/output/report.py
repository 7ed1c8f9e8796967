"""The game-math report: the document a bet's designer sends to a test lab, rendered.

:func:`analyzer.studies.report_data.game_math_report` gathers, for each bet and each number of
decks, everything a lab checks: the bet's rules and source, its pay table, the events table
(pays, combinations, probability, return), the house edge (per coup and per resolved bet), hit
frequency, variance and standard deviation, the fair pay and the pay for a target house edge;
the effects of removal (:mod:`analyzer.studies.eor`) on one shoe, with a chart; and the closed
forms in the number of decks d with their limits (:func:`analyzer.studies.symbolic.bet_forms`).
This module renders that :class:`~analyzer.studies.report_data.GameMathReport`.

Every figure is exact (``int`` or ``Fraction``); decimals appear only when the report is
rendered.  Three renderings:

* :func:`render_markdown`: Markdown; the EOR charts are separate PNG files that the report
  links to (:func:`report_files` names them beside the report file);
* :func:`render_html`: one self-contained page, the charts embedded as ``data:`` URI PNGs,
  no external resource (no stylesheet, script, font or image from elsewhere);
* :func:`render_xlsx`: a workbook (needs openpyxl, the ``report`` extra) of tidy sheets:
  exact integers as numbers (as text past 2**53, where a spreadsheet's numbers stop being
  exact), each exact fraction as text beside its decimal (the nearest double), percentages
  as numbers formatted as percent, and native bar charts of the EORs.

The charts of the Markdown and HTML reports need matplotlib (the ``plot`` extra); without it
the report says so where the chart would be, and is otherwise complete.
"""

from __future__ import annotations

import base64
import dataclasses
import io
import os
import urllib.parse
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from analyzer.bets.model import Bet
from analyzer.core.exact import fraction_text, sqrt_decimal
from analyzer.core.shoe import Shoe
from analyzer.errors import FormatError, PlotUnavailableError
from analyzer.output.charts import eor_image
from analyzer.output.eor_tables import removal_table, tags_text
from analyzer.output.render import Cell, Column, Table, comment, provenance, render
from analyzer.output.tables import provenance_notes
from analyzer.studies.report_data import BetSection, DeckFigures, GameMathReport
from analyzer.studies.symbolic import RationalFunction
from analyzer.text import html_text, markdown_text, printable

#: The formats :func:`render_report` writes.
REPORT_FORMATS = ("markdown", "html", "xlsx")
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


def report_meta(report: GameMathReport) -> Mapping[str, object]:
    """What produced the report, for its header: :attr:`GameMathReport.meta`, or by default the
    tool, its version, the rules and the shoes."""
    if report.meta:
        return report.meta
    shoes = f"standard shoes of {decks_text(report.decks)}"
    return provenance("analyzer.output.report", shoes, report.tableau.describe())


def _edge_words(edge: Fraction) -> str:
    return f"house edge of {fraction_text(edge * 100)}%"


def _title(report: GameMathReport) -> str:
    names = ", ".join(s.bet.title for s in report.bets)
    return f"Game-math report: {names}"


def decks_text(decks: Sequence[int]) -> str:
    """Deck counts in words: ``"1, 6, 8 decks"``, ``"1 deck"``."""
    return ", ".join(str(d) for d in decks) + (" decks" if len(decks) > 1 or decks[0] > 1 else " deck")


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


def summary_table(report: GameMathReport, section: BetSection) -> Table:
    """One row per deck count: EV, house edge (exact and in percent), resolved house edge, hit
    frequency, variance, SD, fair pay and the pay for the target edge."""
    edge = report.target_edge
    cols = [
        Column("Decks", "count", "decks"),
        Column("EV", "fraction", "ev"),
        Column("House edge", "percent", "house_edge"),
        Column("House edge (resolved)", "percent", "house_edge_resolved"),
        Column("Hit frequency", "decimal", "hit_frequency"),
        Column("Variance", "both", "variance"),
        Column("SD", "sqrt", "sd"),
        Column("Fair pay", "both", "fair_pay"),
    ]
    if edge is not None:
        cols.append(Column(f"Pay for {_edge_words(edge)}", "both", "target_pay"))
    rows: list[tuple[Cell, ...]] = []
    for f in section.figures:
        s = f.summary
        row: list[Cell] = [
            f.decks,
            s.ev,
            s.house_edge,
            s.house_edge_resolved,
            s.hit_frequency,
            s.variance,
            s.variance,
            f.fair_pay,
        ]
        if edge is not None:
            row.append(f.target_pay)
        rows.append(tuple(row))
    notes = [
        "EV and house edge per unit staked per coup; '(resolved)' excludes pushes ('-': the bet "
        "cannot push); SD per unit staked.",
    ]
    if section.bet.adjustable is None or section.bet.payout_function is not None:
        notes.append("'-' in the pay columns: this bet has no single adjustable pay to solve for.")
    else:
        line = section.bet.lines[section.bet.adjustable]
        notes.append(
            f"Pays solved for the line '{line.event}' (now {fraction_text(line.pays)}); '-': no "
            "positive pay gives that house edge, or the event cannot happen on that shoe."
        )
    return Table(
        f"summary:{section.bet.name}",
        f"{section.bet.title}: house edge by number of decks",
        tuple(cols),
        tuple(rows),
        tuple(notes),
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


def _forms(section: BetSection, report: GameMathReport) -> list[tuple[str, RationalFunction]]:
    f = section.forms
    out: list[tuple[str, RationalFunction]] = [("House edge", f.house_edge)]
    if f.house_edge_resolved is not None:
        out.append(("House edge (resolved)", f.house_edge_resolved))
    out += [("Hit frequency", f.hit_frequency), ("Variance", f.variance)]
    if section.fair_pay_form is not None:
        out.append(("Fair pay", section.fair_pay_form))
    if section.target_pay_form is not None and report.target_edge is not None:
        out.append((f"Pay for {_edge_words(report.target_edge)}", section.target_pay_form))
    return out


def forms_table(report: GameMathReport, section: BetSection) -> Table:
    """The closed forms of the bet in the number of decks d: each quantity's infinite-deck
    limit and its 1/d correction (the formulas themselves are :func:`_forms`'s functions)."""
    rows = tuple((label, fn.limit(), fn.correction()) for label, fn in _forms(section, report))
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
    """The tables of one bet's section, in order: pay table, summary by decks, the events table
    of each deck count, EOR table (its notes' EV to ``digits`` decimals), closed forms."""
    return [
        pay_table(section),
        summary_table(report, section),
        *(events_table(f) for f in section.figures),
        eor_table(report, section, digits),
        forms_table(report, section),
    ]


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
    """The report as Markdown.  ``charts`` maps a bet's index to the file name of its chart
    (linked as an image); for a bet without one, the report says ``missing`` (default: that
    the charts are files beside a report written to a file).

    Raises:
        FormatError: ``digits`` is not a whole number from 0 to 1000.
    """
    _check_digits(digits)
    note = CHART_ELSEWHERE if missing is None else missing
    parts = [
        comment("markdown", [f"{k}: {v}" for k, v in report_meta(report).items()]),
        f"# {markdown_text(_title(report))}",
        markdown_text(_intro(report)),
        markdown_text(CONVENTIONS),
        "\n".join(
            f"{i}. {markdown_text(s.bet.title)} (`{_code(s.bet.name)}`)" for i, s in enumerate(report.bets, 1)
        ),
    ]
    for i, section in enumerate(report.bets):
        bet = section.bet
        parts.append(
            f"## {i + 1}. {markdown_text(bet.title)}\n\n**Rules.** {markdown_text(bet_rules(section))}"
            + "".join(f"\n\n**{markdown_text(n.split(': ', 1)[0])}.** {markdown_text(n.split(': ', 1)[1])}"
                      for n in _provenance(bet))
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
            f"- **{markdown_text(label)}**: `f(d) = {fn.text()}`" for label, fn in _forms(section, report)
        )
        parts.append(render([tables[-1]], "markdown", digits).rstrip() + "\n\n" + formulas)
    return "\n\n".join(parts) + "\n"


def _provenance(bet: Bet) -> tuple[str, ...]:
    """The report's "Source: ..." and "Grade: ..." lines of a bet (:func:`provenance_notes`);
    a bet without a source says so."""
    notes = provenance_notes(bet)
    return notes if any(n.startswith("Source: ") for n in notes) else ("Source: not given", *notes)


def _code(text: str) -> str:
    """Text for a Markdown code span (a backtick would end it)."""
    return printable(text).replace("`", "'")


def _intro(report: GameMathReport) -> str:
    target = (
        ""
        if report.target_edge is None
        else f" Pays are solved for a fair bet and for a {_edge_words(report.target_edge)}."
    )
    return (
        f"Standard shoes of {decks_text(report.decks)} (52 cards per deck, 4 suits), rules: "
        f"{report.tableau.describe()}. Effects of removal on {Shoe.standard(report.eor_decks).describe()}."
        + target
    )


def _check_digits(digits: object) -> None:
    if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= 1000:
        raise FormatError(f"bad number of digits {digits!r}: use a whole number from 0 to 1000")


# -- HTML -------------------------------------------------------------------------------------

_CSS = """
body { font-family: sans-serif; margin: 2em auto; max-width: 80em; line-height: 1.4; color: #111; }
table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 0.9em; max-width: 100%; }
th, td { border: 1px solid #bbb; padding: 0.2em 0.5em; }
td { overflow-wrap: anywhere; }
th { background: #eee; }
code { font-size: 0.9em; word-break: break-all; }
.note { color: #555; font-style: italic; }
img { max-width: 100%; }
""".strip()


def render_html(report: GameMathReport, digits: int = 10, charts: bool = True) -> str:
    """The report as one self-contained HTML page: styles inline, each EOR chart embedded as a
    ``data:`` URI PNG (with ``charts`` and matplotlib; otherwise a line says why there is none),
    nothing loaded from elsewhere.  Every text from a bet (titles, rules, sources) is escaped.

    Raises:
        FormatError: ``digits`` is not a whole number from 0 to 1000.
    """
    _check_digits(digits)
    body = [
        f"<h1>{html_text(_title(report))}</h1>",
        f"<p>{html_text(_intro(report))}</p>",
        f"<p>{html_text(CONVENTIONS)}</p>",
        "<ol>"
        + "".join(
            f'<li><a href="#bet-{i}">{html_text(s.bet.title)}</a> '
            f"(<code>{html_text(s.bet.name)}</code>)</li>"
            for i, s in enumerate(report.bets, 1)
        )
        + "</ol>",
    ]
    for i, section in enumerate(report.bets):
        bet = section.bet
        body.append(f'<h2 id="bet-{i + 1}">{i + 1}. {html_text(bet.title)}</h2>')
        body.append(f"<p><strong>Rules.</strong> {html_text(bet_rules(section))}</p>")
        for note in _provenance(bet):
            label, text = note.split(": ", 1)
            body.append(f"<p><strong>{html_text(label)}.</strong> {html_text(text)}</p>")
        tables = report_tables(report, section, digits)
        body.append(render(tables[:-1], "html", digits).strip())
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
        body.append(render([tables[-1]], "html", digits).strip())
        body.append(
            "<ul>"
            + "".join(
                f"<li><strong>{html_text(label)}</strong>: <code>f(d) = {html_text(fn.text())}</code></li>"
                for label, fn in _forms(section, report)
            )
            + "</ul>"
        )
    head = (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html_text(_title(report))}</title>\n<style>\n{_CSS}\n</style>\n</head>\n"
    )
    meta = comment("html", [f"{k}: {v}" for k, v in report_meta(report).items()])
    return head + "<body>\n" + meta + "\n" + "\n".join(body) + "\n</body>\n</html>\n"


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
        """Write one cell: ``kind`` is text, int, exact (fraction text), decimal, percent."""
        if value is None:
            self.text(col, "-")
        elif kind == "text":
            self.text(col, str(value))
        elif kind == "int":
            assert isinstance(value, int)
            self.integer(col, value)
        elif kind == "exact":
            assert isinstance(value, Fraction | int)
            self.text(col, fraction_text(Fraction(value)))
        elif kind in ("decimal", "percent"):
            assert isinstance(value, Fraction | int)
            self.number(col, Fraction(value), kind == "percent")
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
XLSX_SHEETS = ("Report", "Summary", "Events", "EOR", "Closed forms", "EOR charts")


def render_xlsx(report: GameMathReport, digits: int = 10) -> bytes:
    """The report as an .xlsx workbook (the bytes of the file).  Sheets (:data:`XLSX_SHEETS`):
    Report (what produced it, the bets' rules and sources), Summary (a row per bet and deck
    count), Events (a row per bet, deck count and event), EOR (a row per bet and rank), Closed
    forms (a row per bet and quantity), EOR charts (a native bar chart per bet, drawn from the
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
    about.header(["#", "Bet name", "Bet", "Rules", "Source", "Reads suits"])
    for i, s in enumerate(report.bets, 1):
        about.line(
            [
                ("int", i),
                ("text", s.bet.name),
                ("text", s.bet.title),
                ("text", bet_rules(s)),
                ("text", s.bet.source or "not given"),
                ("text", "yes" if s.bet.reads.needs_suits else "no"),
            ]
        )
    about.ws.freeze_panes = None
    about.widths([22, 24, 40, 80, 60, 12])

    summary = _Sheet(wb.create_sheet("Summary"), digits)
    summary.header(
        [
            "Bet name", "Bet", "Decks", "Cards", "Combinations (N!/(N-6)!)",
            "EV (exact)", "EV", "House edge (exact)", "House edge",
            "House edge resolved (exact)", "House edge resolved",
            "Hit frequency (exact)", "Hit frequency", "Variance (exact)", "Variance", "SD",
            "Fair pay (exact)", "Fair pay", "Pay for target edge (exact)", "Pay for target edge",
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
                    *_both(m.house_edge_resolved, percent=True),
                    *_both(m.hit_frequency),
                    *_both(m.variance),
                    ("sd", m.variance),
                    *_both(f.fair_pay),
                    *_both(f.target_pay),
                ]
            )
    summary.widths([22, 30, 7, 7, 22] + [18] * 15)

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
            forms.line(
                [
                    ("text", s.bet.name),
                    ("text", label),
                    ("text", fn.text()),
                    *_both(fn.limit()),
                    *_both(fn.correction()),
                ]
            )
    forms.widths([22, 28, 90, 30, 16, 30, 16])

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
        FormatError: an unknown format, bad ``digits``, or xlsx without an output file.
        FormatError: xlsx without openpyxl.
    """
    if not isinstance(fmt, str) or fmt not in REPORT_FORMATS:
        raise FormatError(f"unknown report format {fmt!r}: use {', '.join(REPORT_FORMATS)}")
    key = "" if output is None else output
    if fmt == "xlsx":
        if output is None:
            raise FormatError("--format xlsx writes a binary workbook: give the file with -o FILE.xlsx")
        return {key: render_xlsx(report, digits)}
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
