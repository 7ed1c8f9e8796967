"""The closed forms in the number of decks (:mod:`analyzer.studies.symbolic`) as a report: text,
Markdown, LaTeX or JSON (the formulas, then a table per section of limits, 1/d corrections and
values), the crossings table, and the closed-form files of ``results/``."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Literal

from analyzer.bets.catalogue import catalogue_bets, main_bets
from analyzer.bets.choice import NO_FILE_BETS, FileBets
from analyzer.bets.model import Bet
from analyzer.checks.logs import show
from analyzer.core.exact import fraction_text, round_fraction
from analyzer.core.tableau import STANDARD, Tableau
from analyzer.errors import SymbolicError
from analyzer.output.render import Cell, Column, Table, comment, json_document, render, table_documents
from analyzer.studies.symbolic import (
    ENGINE_TABLES,
    IMPOSSIBLE_PAY_NOTE,
    QUANTITIES,
    SHOWN_DECKS,
    ClosedForm,
    Crossing,
    Section,
    bet_sections,
    closed_forms,
    engine_sections,
)
from analyzer.text import json_text


def _summary_table(section: Section, digits: int, decks: Sequence[int]) -> Table:
    style: Literal["percent", "decimal"] = "percent" if section.percent else "decimal"
    cols = (
        Column("Quantity", "text", "quantity"),
        Column("Infinite deck", "fraction", "limit"),
        Column("Infinite deck (decimal)", style, "limit_shown"),
        Column("1/d coefficient c", style, "correction"),
        *(Column(f"d = {d}", style, f"d{d}") for d in decks),
    )
    rows: tuple[tuple[Cell, ...], ...] = tuple(
        (
            f.label,
            f.shown_limit,
            f.shown_limit,
            None if f.shown_limit is None else f.correction,
            *(f.shown_at(d) for d in decks),
        )
        for f in section.forms
    )
    notes: tuple[str, ...] = (
        "f(d) = f(∞) + c/d + O(1/d²)." + (" Values in percent." if section.percent else ""),
    )
    if any(cell is None for row in rows for cell in row):
        notes += (IMPOSSIBLE_PAY_NOTE,)
    name = section.title.lower().replace(" ", "-")
    return Table(name, f"{section.title}: limits and values", cols, rows, notes)


def _latex_escape(text: str) -> str:
    out = []
    for ch in text:
        if ch in "&%$#_{}":
            out.append("\\" + ch)
        elif ch == "~":
            out.append(r"\textasciitilde{}")
        elif ch == "^":
            out.append(r"\textasciicircum{}")
        elif ch == "\\":
            out.append(r"\textbackslash{}")
        else:
            out.append(ch)
    return "".join(out)


def _form_json(f: ClosedForm, digits: int, decks: Sequence[int]) -> dict[str, object]:
    """One form as JSON data: exact values as ``"p/q"`` strings, each ``*_decimal`` beside them
    a ``Decimal`` (written as a JSON number, rounded exactly to ``digits``)."""
    fn = f.function
    limit = f.shown_limit
    values = {str(d): f.shown_at(d) for d in decks}
    extra: dict[str, object] = {}
    if limit is None or None in values.values():
        extra["note"] = IMPOSSIBLE_PAY_NOTE
    return {
        "key": f.key,
        "label": f.label,
        "kind": f.kind,
        "formula": fn.text(),
        "latex": fn.latex(),
        "numerator": [str(c) for c in fn.num],
        "denominator": [str(c) for c in fn.den],
        "numerator_factored": fn.numerator_text(),
        "denominator_factored": fn.denominator_text(),
        "limit": None if limit is None else fraction_text(limit),
        "limit_decimal": None if limit is None else round_fraction(limit, digits),
        "correction": None if limit is None else fraction_text(f.correction),
        "correction_decimal": None if limit is None else round_fraction(f.correction, digits),
        "values": {d: None if v is None else fraction_text(v) for d, v in values.items()},
        **extra,
    }


INTRO = (
    "Closed forms in the number of decks d (a standard shoe of 52d cards, d >= 1): each "
    "quantity is an exact rational function f(d), numerator and denominator factored. "
    "f(∞) is the infinite-deck value; c is the leading correction in f(d) = f(∞) + c/d + O(1/d²). "
    "Probabilities per coup; EV and house edge per unit staked per coup."
)


def render_sections(
    sections: Sequence[Section],
    fmt: str,
    digits: int = 10,
    meta: dict[str, object] | None = None,
    decks: Sequence[int] = SHOWN_DECKS,
    extra: Sequence[Table] = (),
    padded: bool = True,
) -> str:
    """The sections as a report in ``fmt`` (text, markdown, latex or json): the formulas, then a
    table per section of limits, 1/d corrections and values at ``decks``; then the ``extra``
    report tables (:class:`~analyzer.output.render.Table`).  Deterministic.  ``padded`` as in
    :func:`~analyzer.output.render.render`.

    Raises:
        AnalyzerError: unknown format or negative ``digits``.
    """
    if not isinstance(fmt, str) or fmt not in ("text", "markdown", "latex", "json"):
        raise SymbolicError(f"unknown format {show(fmt)}: use text, markdown, latex or json")
    _check_digits(digits)
    for d in decks:
        if isinstance(d, bool) or not isinstance(d, int) or d < 1:
            raise SymbolicError(f"bad number of decks {show(d)}: use whole numbers >= 1")
    if fmt == "json":
        doc = {
            "meta": meta or {},
            "intro": INTRO,
            "sections": [
                {"title": s.title, "forms": [_form_json(f, digits, decks) for f in s.forms]} for s in sections
            ],
        }
        if extra:
            doc["tables"] = table_documents(extra, digits)
        return json_text(json_document(doc)) + "\n"
    parts: list[str] = []
    if meta:
        parts.append(comment(fmt, [f"{k}: {v}" for k, v in meta.items()]))
    intro = textwrap.fill(INTRO, 100)
    parts.append(
        _latex_escape(intro).replace("∞", r"$\infty$").replace("1/d²", r"1/d$^2$")
        if fmt == "latex"
        else intro
    )
    for s in sections:
        block: list[str] = []
        if fmt == "markdown":
            block += [f"## {s.title}", ""]
            block += [f"- **{f.label}**: `f(d) = {f.function.text()}`" for f in s.forms]
        elif fmt == "latex":
            block += [f"\\subsection*{{{_latex_escape(s.title)}}}", ""]
            for f in s.forms:
                block += [f"{_latex_escape(f.label)}:", f"\\[ f(d) = {f.function.latex()} \\]", ""]
        else:
            block += [s.title, "=" * len(s.title)]
            block += [f"{f.label}:\n  f(d) = {f.function.text()}" for f in s.forms]
        table = render([_summary_table(s, digits, decks)], fmt, digits, padded=padded)
        parts.append("\n".join(block).rstrip() + "\n\n" + table.rstrip())
    if extra:
        parts.append(render(extra, fmt, digits, padded=padded).rstrip())
    return "\n\n".join(parts) + "\n"


def _check_digits(digits: object) -> None:
    if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= 1000:
        raise SymbolicError(f"bad number of digits {show(digits)}: use a whole number from 0 to 1000")


def crossing_table(rows: Sequence[Crossing]) -> Table:
    """The crossings (:func:`analyzer.studies.symbolic.find_crossings`) as a table: for each bet and
    house-edge level, the house edge on 1 deck and on an infinite shoe, and the smallest number
    of decks at which the house edge crosses the level ("never" when it does not)."""
    cells: tuple[tuple[Cell, ...], ...] = tuple(
        (
            r.bet.title,
            r.level,
            r.at_one_deck,
            r.limit,
            r.direction,
            "never" if r.decks is None else str(r.decks),
            r.at_decks,
        )
        for r in rows
    )
    cols = (
        Column("Bet", "text", "bet"),
        Column("Level", "percent", "level"),
        Column("House edge, 1 deck", "percent", "house_edge_1"),
        Column("House edge, infinite deck", "percent", "house_edge_limit"),
        Column("Direction", "text", "direction"),
        Column("Smallest d", "text", "decks"),
        Column("House edge at that d", "percent", "house_edge_at"),
    )
    notes = (
        "Smallest whole d >= 1 at which the house edge per coup reaches the level from the side "
        "it starts on at 1 deck; exact (root isolation of the rational inequality, "
        "then exact evaluation at the candidate d).",
    )
    return Table("crossings", "Decks at which the house edge crosses a level", cols, cells, notes)


SYMBOLIC_FORMATS = ("text", "markdown", "latex", "json")


def symbolic_report(
    bet_specs: Sequence[str | Bet] = (),
    *,
    all_bets: bool = False,
    tables: Sequence[str] = ("outcomes",),
    quantities: Sequence[str] = QUANTITIES,
    target_edge: Fraction | None = None,
    crossings: Sequence[Fraction] = (),
    fmt: str = "text",
    digits: int = 10,
    meta: dict[str, object] | None = None,
    tableau: Tableau = STANDARD,
    file_bets: FileBets = NO_FILE_BETS,
) -> str:
    """What ``punto-banco symbolic`` prints: :func:`analyzer.studies.symbolic.closed_forms` of the
    same arguments, rendered in ``fmt`` (:data:`SYMBOLIC_FORMATS`) with ``digits`` decimals.

    Raises:
        BetError: an unknown bet or bad parameter.
        AnalyzerError: an unknown format, ``digits`` outside 0..1000, or what
            :func:`~analyzer.studies.symbolic.closed_forms` refuses.
    """
    if not isinstance(fmt, str) or fmt not in SYMBOLIC_FORMATS:
        raise SymbolicError(f"unknown format {show(fmt)}: use {', '.join(SYMBOLIC_FORMATS)}")
    _check_digits(digits)
    report = closed_forms(
        bet_specs,
        all_bets=all_bets,
        tables=tables,
        quantities=quantities,
        target_edge=target_edge,
        crossings=crossings,
        tableau=tableau,
        file_bets=file_bets,
    )
    extra = [crossing_table(report.crossings)] if report.crossings else []
    return render_sections(report.sections, fmt, digits, meta, extra=extra)


def result_files(meta: Callable[[str], dict[str, object]]) -> dict[str, str]:
    """The closed-form files of ``results/`` (name -> content, deterministic):
    ``symbolic-main`` (every engine table and the main bets) and ``symbolic-catalogue`` (every
    catalogue bet), each in Markdown and LaTeX; ``meta(command)`` heads each file."""
    files: dict[str, str] = {}
    groups = {
        "main": ("--table all", engine_sections(ENGINE_TABLES) + bet_sections(main_bets())),
        "catalogue": ("--table none --all", bet_sections(catalogue_bets())),
    }
    for name, (args, sections) in groups.items():
        for ext, fmt in (("md", "markdown"), ("tex", "latex")):
            command = f"punto-banco symbolic {args} --format {fmt}"
            files[f"symbolic-{name}.{ext}"] = render_sections(sections, fmt, 10, meta(command), padded=False)
    return files


__all__ = [
    "INTRO",
    "SYMBOLIC_FORMATS",
    "crossing_table",
    "render_sections",
    "result_files",
    "symbolic_report",
]
