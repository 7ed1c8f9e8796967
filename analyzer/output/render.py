"""Exact values to text, and tables out through tabulate (the project's only tabulate import).

A :class:`Table` holds exact cells (``int``, ``Fraction``, ``Decimal``, ``str`` or ``None``)
and a style per column; it is rendered as text, Markdown, CSV, JSON, LaTeX or HTML.  Values
are formatted to strings *before* tabulate sees them (with ``disable_numparse=True``), so
nothing is re-rounded through a float.  JSON keeps every exact value: integers as integers,
fractions as ``"p/q"`` strings, each next to its decimal.
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Literal

from tabulate import tabulate

from analyzer.core.exact import fraction_text, round_fraction, sqrt_decimal
from analyzer.errors import FormatError
from analyzer.text import csv_cell, json_text, printable

Cell = int | Fraction | Decimal | str | None
#: How a column shows its values: plain text, an integer count, an exact fraction p/q, a
#: decimal, a percentage, both fraction and decimal, or the square root of a fraction (SD).
Style = Literal["text", "count", "fraction", "decimal", "percent", "both", "sqrt"]
FORMATS = ("text", "markdown", "csv", "json", "latex", "html")
_TABLEFMT = {"text": "simple", "markdown": "pipe", "latex": "latex_booktabs", "html": "html"}


@dataclass(frozen=True)
class Column:
    """A column: its header, display style, and JSON key."""

    header: str
    style: Style = "text"
    key: str = ""

    @property
    def json_key(self) -> str:
        """Key used in JSON output (defaults to the header in snake case)."""
        if self.key:
            return self.key
        out = "".join(ch if ch.isalnum() else "_" for ch in self.header.lower())
        return "_".join(p for p in out.split("_") if p)


@dataclass(frozen=True)
class Table:
    """A titled table of exact cells, one style per column; ``notes`` print under it."""

    name: str
    title: str
    columns: tuple[Column, ...]
    rows: tuple[tuple[Cell, ...], ...]
    notes: tuple[str, ...] = field(default=())


def decimal_text(x: Fraction, digits: int) -> str:
    """``x`` rounded exactly to ``digits`` decimals.

    >>> decimal_text(Fraction(1, 3), 5)
    '0.33333'
    """
    return f"{round_fraction(x, digits):f}"


def percent_text(x: Fraction, digits: int) -> str:
    """``x`` as a percentage, rounded exactly to ``digits`` decimals, with a ``%`` sign.

    >>> percent_text(Fraction(1, 8), 3)
    '12.500%'
    """
    return f"{round_fraction(x * 100, digits):f}%"


def _display(cell: Cell, style: Style, digits: int, grouped: bool) -> list[str]:
    if cell is None:
        return ["-", "-"] if style == "both" else ["-"]
    if isinstance(cell, Fraction | int) and not isinstance(cell, bool):
        x = Fraction(cell)
        if style == "count":
            assert isinstance(cell, int)
            return [f"{cell:,}" if grouped else str(cell)]
        if style == "fraction":
            return [fraction_text(x)]
        if style == "decimal":
            return [decimal_text(x, digits)]
        if style == "percent":
            return [percent_text(x, digits)]
        if style == "both":
            return [fraction_text(x), decimal_text(x, digits)]
        if style == "sqrt":
            return [f"{sqrt_decimal(x, digits):f}"]
    return [str(cell)]


def _headers(table: Table) -> list[str]:
    out: list[str] = []
    for col in table.columns:
        if col.style == "both":
            out += [col.header, f"{col.header} (decimal)"]
        else:
            out.append(col.header)
    return out


def _aligns(table: Table) -> tuple[str, ...]:
    """Text columns align left, numbers right."""
    out: list[str] = []
    for col in table.columns:
        out += ["right"] * (2 if col.style == "both" else 1) if col.style != "text" else ["left"]
    return tuple(out)


def _display_rows(table: Table, digits: int, grouped: bool) -> list[list[str]]:
    return [
        [
            text
            for cell, col in zip(row, table.columns, strict=True)
            for text in _display(cell, col.style, digits, grouped)
        ]
        for row in table.rows
    ]


def _csv_rows(table: Table, digits: int) -> list[list[str]]:
    """The display rows, each text cell guarded (:func:`analyzer.text.csv_cell`); cells computed
    from numbers, and the ``-`` of a missing value, are left as they are."""
    out = []
    for row in table.rows:
        cells: list[str] = []
        for cell, col in zip(row, table.columns, strict=True):
            shown = _display(cell, col.style, digits, grouped=False)
            cells += [csv_cell(s) for s in shown] if isinstance(cell, str) else shown
        out.append(cells)
    return out


def _json_row(table: Table, row: Sequence[Cell], digits: int) -> dict[str, object]:
    out: dict[str, object] = {}
    for cell, col in zip(row, table.columns, strict=True):
        key = col.json_key
        if cell is None:
            out[key] = None
        elif isinstance(cell, bool | str) or (col.style == "count" and isinstance(cell, int)):
            out[key] = cell
        elif isinstance(cell, Fraction | int):
            x = Fraction(cell)
            if col.style == "sqrt":
                out[f"{key}_variance"] = fraction_text(x)
                out[f"{key}_decimal"] = f"{sqrt_decimal(x, digits):f}"
            else:
                out[key] = fraction_text(x)
                out[f"{key}_decimal"] = decimal_text(x, digits)
                if col.style == "percent":
                    out[f"{key}_percent"] = decimal_text(x * 100, digits)
        else:
            out[key] = str(cell)
    return out


def render(
    tables: Sequence[Table],
    fmt: str,
    digits: int = 10,
    meta: dict[str, object] | None = None,
    *,
    raw_csv: bool = False,
) -> str:
    """Render tables in ``fmt`` (one of ``FORMATS``); ``meta`` (what produced them) heads the
    output: as a comment in text/Markdown/LaTeX/HTML, a ``meta`` object in JSON.

    CSV guards spreadsheets unless ``raw_csv``: a text cell that starts with ``=``, ``+``, ``-``
    or ``@`` gets a leading single quote (:func:`analyzer.text.csv_cell`); a cell computed from
    a number (``-0.0105790578``) is data and is never changed.  Comments in Markdown and HTML
    cannot be closed early by ``-->`` or ``--!>`` in the command line.

    Raises:
        FormatError: unknown format, or ``digits`` not a whole number >= 0.
    """
    if not isinstance(fmt, str) or fmt not in FORMATS:
        raise FormatError(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
    if isinstance(digits, bool) or not isinstance(digits, int) or digits < 0:
        raise FormatError(f"bad --digits {digits!r}: use a whole number, 0 or more")
    if fmt == "json":
        doc = {
            "meta": meta or {},
            "tables": [
                {
                    "name": t.name,
                    "title": t.title,
                    "columns": [c.json_key for c in t.columns],
                    "rows": [_json_row(t, r, digits) for r in t.rows],
                    "notes": list(t.notes),
                }
                for t in tables
            ],
        }
        return json_text(json.dumps(doc, indent=2, ensure_ascii=False)) + "\n"
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        for i, t in enumerate(tables):
            if i:
                writer.writerow([])
            writer.writerow([f"# {t.title}"])
            writer.writerow(_headers(t))
            writer.writerows(_display_rows(t, digits, grouped=False) if raw_csv else _csv_rows(t, digits))
        return buf.getvalue()
    parts: list[str] = []
    header = _meta_lines(meta)
    if header:
        parts.append(comment(fmt, header))
    for t in tables:
        rows = _display_rows(t, digits, grouped=True)
        if fmt == "markdown":  # a '|' in a cell would end the cell
            rows = [[cell.replace("|", "\\|") for cell in row] for row in rows]
        body = tabulate(
            rows,
            headers=_headers(t),
            tablefmt=_TABLEFMT[fmt],
            disable_numparse=True,
            colalign=_aligns(t),
        )
        headings = {
            "markdown": f"### {t.title}",
            "html": f"<h3>{html.escape(t.title)}</h3>",
            "latex": f"% {t.title}",
        }
        title = headings.get(fmt, t.title)
        notes = [_note(fmt, n) for n in t.notes]
        parts.append("\n".join([title, "", body, *(["", *notes] if notes else [])]))
    return "\n\n".join(parts) + "\n"


def provenance(command: str, shoe: str, rules: str | None = None, **extra: str) -> dict[str, object]:
    """What produced a table, for its header: tool and version, the command, the rules (as
    :meth:`~analyzer.core.tableau.Tableau.describe` names them; default the standard tableau),
    the shoe (as described), and any ``extra`` fields."""
    from analyzer import __version__
    from analyzer.core.tableau import STANDARD

    return {
        "generated_by": f"punto-banco-analyzer {__version__}",
        "command": command,
        **extra,
        "rules": rules or STANDARD.describe(),
        "shoe": shoe,
    }


def _meta_lines(meta: dict[str, object] | None) -> list[str]:
    return [f"{k}: {v}" for k, v in (meta or {}).items()]


_COMMENT_BREAKERS = re.compile(r"--!?>|<!--")


def comment(fmt: str, lines: Sequence[str]) -> str:
    """``lines`` as a comment of ``fmt``: ``% ...`` (LaTeX), ``<!-- ... -->`` (Markdown, HTML;
    a ``-->``, ``--!>`` or ``<!--`` inside is broken up with a space, so it cannot end the
    comment early or open another), else ``# ...``.  Control characters are escaped.

    >>> print(comment("html", ["a --!> b"]))
    <!--
    a - -!> b
    -->
    """
    lines = [printable(line) for line in lines]
    if fmt == "latex":
        return "\n".join(f"% {line}" for line in lines)
    if fmt in ("markdown", "html"):
        return (
            "<!--\n"
            + "\n".join(
                _COMMENT_BREAKERS.sub(lambda m: m.group()[0] + " " + m.group()[1:], line) for line in lines
            )
            + "\n-->"
        )
    return "\n".join(f"# {line}" for line in lines)


def _note(fmt: str, text: str) -> str:
    if fmt == "latex":
        return f"% {text}"
    if fmt == "html":
        return f"<p>{html.escape(text)}</p>"
    return text
