"""Exact values to text, and tables out through tabulate (the project's only tabulate import).

A :class:`Table` holds exact cells (``int``, ``Fraction``, ``Decimal``, ``str`` or ``None``)
and a style per column; it is rendered as text, Markdown, CSV, JSON, LaTeX or HTML.  Values
are formatted to strings *before* tabulate sees them (with ``disable_numparse=True``), so
nothing is re-rounded through a float.

Data formats (JSON and CSV) give each row the same fields (:func:`data_rows`): integers as
integers, each exact fraction as a ``"p/q"`` string beside its exactly rounded decimal (a JSON
number, never formed through a float; ``KEY_decimal``), percentages also as a number of percent
(``KEY_percent``), a missing value as ``null`` (an empty CSV cell).  Data-only columns (a bet's
machine name, the shoe, the rules: :data:`CONTEXT_KEYS`) appear in JSON and CSV, not in the
tables for people.  CSV is one long tidy table: a header row, then every row of every table,
with a ``table`` column naming the table it comes from (:func:`csv_text`).
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction
from typing import Any, Literal

from tabulate import tabulate

from analyzer import __version__
from analyzer.core.exact import fraction_text, round_fraction, sqrt_decimal
from analyzer.core.tableau import STANDARD
from analyzer.errors import FormatError
from analyzer.text import csv_cell, html_text, json_text, markdown_text, printable

Cell = int | Fraction | Decimal | str | None
#: How a column shows its values: plain text, an integer count, an exact fraction p/q, a
#: decimal, a percentage, both fraction and decimal, the square root of a fraction (SD), or a
#: number already rounded exactly (a ``Decimal``: one data field, the number; a fraction in
#: such a column is rounded to ``digits``), for a column whose exact text is a column beside it.
Style = Literal["text", "count", "fraction", "decimal", "percent", "both", "sqrt", "number"]
FORMATS = ("text", "markdown", "csv", "json", "latex", "html")
_TABLEFMT = {"text": "simple", "markdown": "pipe", "latex": "latex_booktabs", "html": "html"}
#: The data-only fields that say where a row's numbers come from: the standard number of decks
#: (``None`` for any other shoe), the shoe as described in headers, the rule set's name and its
#: fingerprint (:attr:`~analyzer.core.tableau.Tableau.fingerprint`).
CONTEXT_KEYS = ("decks", "shoe", "rules", "rules_fingerprint")


@dataclass(frozen=True)
class Column:
    """A column: its header, display style, and JSON key; a ``data_only`` column is written in
    JSON and CSV only (say, a bet's machine name beside the title people read).  ``get``: the
    column's value getter, a callable from a row record (any object a table builder lists) to
    the column's cell, so :func:`table_of` builds the rows and a new column is one line; ``None``
    for a column whose rows are built by hand.  The getter takes no part in comparisons (two
    tables with the same headers, styles and keys have the same columns)."""

    header: str
    style: Style = "text"
    key: str = ""
    data_only: bool = False
    get: Callable[[Any], Cell] | None = field(default=None, compare=False, repr=False)

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

    @property
    def shown(self) -> tuple[int, ...]:
        """Indices of the columns shown to people (not :attr:`Column.data_only`)."""
        return tuple(i for i, c in enumerate(self.columns) if not c.data_only)


def table_of(
    name: str,
    title: str,
    columns: Sequence[Column],
    records: Iterable[Any],
    notes: Sequence[str] = (),
) -> Table:
    """A :class:`Table` of one row per record of ``records``, each cell the value of its
    column's getter (:attr:`Column.get`) on the record, in column order.

    Raises:
        FormatError: a column has no getter.

    >>> cols = (Column("Bet", get=lambda r: r[0]), Column("Pays", "fraction", "pays", get=lambda r: r[1]))
    >>> table_of("t", "T", cols, [("Tie", Fraction(8))]).rows
    (('Tie', Fraction(8, 1)),)
    """
    getters = []
    for column in columns:
        if column.get is None:
            raise FormatError(f"column {column.header!r} of table {name!r} has no value getter")
        getters.append(column.get)
    rows = tuple(tuple(get(record) for get in getters) for record in records)
    return Table(name, title, tuple(columns), rows, tuple(notes))


def with_context(table: Table, context: Mapping[str, Cell]) -> Table:
    """``table`` with a data-only column for each field of ``context`` (e.g. the
    :data:`CONTEXT_KEYS`) that it does not have yet, every cell that value; a whole number (the
    decks) is a count column, anything else text.

    >>> t = with_context(Table("t", "T", (Column("A"),), (("x",),)), {"decks": 8})
    >>> [c.key for c in t.columns], t.rows
    (['', 'decks'], (('x', 8),))
    """
    have = {c.json_key for c in table.columns}
    extra = [(k, v) for k, v in context.items() if k not in have]
    if not extra:
        return table
    cols = tuple(
        Column(
            k, "count" if isinstance(v, int) or (v is None and k == "decks") else "text", k, data_only=True
        )
        for k, v in extra
    )
    values = tuple(v for _, v in extra)
    return replace(table, columns=table.columns + cols, rows=tuple(row + values for row in table.rows))


def context_of(shoe: object, tableau: object) -> dict[str, Cell]:
    """The :data:`CONTEXT_KEYS` of results on ``shoe`` (a :class:`~analyzer.core.shoe.Shoe`)
    under ``tableau`` (a :class:`~analyzer.core.tableau.Tableau`; ``None``: the standard rules):
    ``decks`` (``None`` unless a full standard shoe), ``shoe`` (its description), ``rules``
    (the rule set's registry name) and ``rules_fingerprint``.

    >>> from analyzer.core.shoe import Shoe
    >>> context_of(Shoe.standard(6), None)["decks"], context_of(Shoe.standard(6), None)["rules"]
    (6, 'standard')
    """

    rules = tableau if tableau is not None else STANDARD
    return {
        "decks": getattr(shoe, "decks", None),
        "shoe": str(shoe.describe()),  # type: ignore[attr-defined]
        "rules": str(rules.name),  # type: ignore[attr-defined]
        "rules_fingerprint": str(rules.fingerprint),  # type: ignore[attr-defined]
    }


def stack_tables(runs: Sequence[tuple[Mapping[str, Cell], Sequence[Table]]], label: str) -> list[Table]:
    """A sweep: the tables of several runs (one per shoe, each with its :func:`context_of`)
    stacked into one table per table name, in the order of the first run.  Each stacked table
    starts with a ``Decks`` column (the run's ``decks``) and ends with the run's other context
    fields (those of the first run) as data-only columns; its title has the first run's shoe
    description replaced by ``label`` (e.g. ``"1, 6, 8 decks"``); a note that every run shares
    is kept once, the others once per run, prefixed with that run's shoe.

    Raises:
        FormatError: the runs do not give the same tables with the same columns.

    >>> t = lambda d: Table("t", f"T: {d} decks", (Column("A", "count", "a"),), ((d,),))
    >>> runs = [({"decks": d, "shoe": f"{d} decks"}, [t(d)]) for d in (1, 2)]
    >>> s = stack_tables(runs, "1, 2 decks")
    >>> s[0].title, s[0].rows, [c.key for c in s[0].columns]
    ('T: 1, 2 decks', ((1, 1, '1 decks'), (2, 2, '2 decks')), ['decks', 'a', 'shoe'])
    """
    if not runs:
        return []
    order = [t.name for t in runs[0][1]]
    by_name: dict[str, list[tuple[Mapping[str, Cell], Table]]] = {n: [] for n in order}
    for context, tables in runs:
        if [t.name for t in tables] != order:
            raise FormatError("a sweep's runs give different tables: cannot stack them")
        for t in tables:
            by_name[t.name].append((context, t))
    out: list[Table] = []
    for name in order:
        parts = by_name[name]
        first = parts[0][1]
        if any(t.columns != first.columns for _, t in parts):
            raise FormatError(f"a sweep's runs give table {name!r} with different columns: cannot stack it")
        have = {c.json_key for c in first.columns}
        extra = [k for k in parts[0][0] if k not in have and k != "decks"]
        cols = (
            Column("Decks", "count", "decks"),
            *(c for c in first.columns if c.json_key != "decks"),
            *(Column(k, "text", k, data_only=True) for k in extra),
        )
        keep = [i for i, c in enumerate(first.columns) if c.json_key != "decks"]
        rows: list[tuple[Cell, ...]] = []
        for context, t in parts:
            for row in t.rows:
                rows.append((context.get("decks"), *(row[i] for i in keep), *(context.get(k) for k in extra)))
        shared = [n for n in first.notes if all(n in t.notes for _, t in parts)]
        notes = list(shared)
        for context, t in parts:
            notes += [f"{context.get('shoe')}: {n}" for n in t.notes if n not in shared]
        shoe = parts[0][0].get("shoe")
        title = first.title.replace(str(shoe), label) if isinstance(shoe, str) and shoe else first.title
        out.append(Table(name, title, cols, tuple(rows), tuple(notes)))
    return out


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


def terminating(x: Fraction) -> bool:
    """True when ``x`` has a finite decimal expansion (its denominator is 2^a 5^b)."""
    d = x.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    return d == 1


def percent_words(x: Fraction, digits: int = 10) -> tuple[str, str | None]:
    """``x`` (a fraction: 1/40 is 2.5%) as a percentage in decimals, and a note: exact and
    unpadded when its decimal expansion ends (``"2.5%"``, no note), else rounded exactly to
    ``digits`` decimals with a note giving the exact fraction.

    >>> percent_words(Fraction(1, 40))
    ('2.5%', None)
    >>> percent_words(Fraction(1, 300), 4)
    ('0.3333%', '0.3333% is rounded to 4 decimals; exactly 1/3%.')
    """
    pct = x * 100
    if terminating(pct):
        places = 0
        while (pct * 10**places).denominator != 1:
            places += 1
        return f"{round_fraction(pct, places):f}%", None
    text = f"{round_fraction(pct, digits):f}%"
    return text, f"{text} is rounded to {digits} decimals; exactly {fraction_text(pct)}%."


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
        if style in ("decimal", "number"):
            return [decimal_text(x, digits)]
        if style == "percent":
            return [percent_text(x, digits)]
        if style == "both":
            return [fraction_text(x), decimal_text(x, digits)]
        if style == "sqrt":
            return [f"{sqrt_decimal(x, digits):f}"]
    if isinstance(cell, Decimal) and cell.is_finite():
        return [f"{cell:f}"]
    return [str(cell)]


def _headers(table: Table) -> list[str]:
    out: list[str] = []
    for col in (table.columns[i] for i in table.shown):
        if col.style == "both":
            out += [col.header, f"{col.header} (decimal)"]
        else:
            out.append(col.header)
    return out


def _aligns(table: Table) -> tuple[str, ...]:
    """Text columns align left, numbers right."""
    out: list[str] = []
    for col in (table.columns[i] for i in table.shown):
        out += ["right"] * (2 if col.style == "both" else 1) if col.style != "text" else ["left"]
    return tuple(out)


def _display_rows(table: Table, digits: int, grouped: bool) -> list[list[str]]:
    shown = table.shown
    return [
        [text for i in shown for text in _display(row[i], table.columns[i].style, digits, grouped)]
        for row in table.rows
    ]


class ExactText(str):
    """Text computed from an exact number (``"-19/20"``): data, which the CSV guard against
    spreadsheet formulas leaves as it is (a ``str`` from a table cell is guarded)."""

    __slots__ = ()


def _data_keys(col: Column) -> tuple[str, ...]:
    """The fields a column gives each data row (see :func:`data_rows`)."""
    key = col.json_key
    if col.style in ("text", "count", "number"):
        return (key,)
    if col.style == "sqrt":
        return (f"{key}_squared", f"{key}_decimal")
    if col.style == "percent":
        return (key, f"{key}_decimal", f"{key}_percent")
    return (key, f"{key}_decimal")


def _data_row(
    columns: Sequence[tuple[Column, tuple[str, ...]]], row: Sequence[Cell], digits: int
) -> dict[str, object]:
    out: dict[str, object] = {}
    for cell, (col, keys) in zip(row, columns, strict=True):
        if cell is None:
            out.update(dict.fromkeys(keys))
        elif isinstance(cell, bool | str) or (col.style == "count" and isinstance(cell, int)):
            out[keys[0]] = cell
        elif isinstance(cell, Fraction | int):
            x = cell if type(cell) is Fraction else Fraction(cell)
            if col.style == "sqrt":
                out[keys[0]] = ExactText(fraction_text(x))
                out[keys[1]] = sqrt_decimal(x, digits)
            elif col.style in ("text", "count"):  # a fraction in a text or count column: exact text
                out[keys[0]] = ExactText(fraction_text(x))
            elif col.style == "number":
                out[keys[0]] = round_fraction(x, digits)
            else:
                out[keys[0]] = ExactText(fraction_text(x))
                out[keys[1]] = round_fraction(x, digits)
                if col.style == "percent":
                    out[keys[2]] = round_fraction(x * 100, digits)
        elif isinstance(cell, Decimal) and cell.is_finite():
            out[keys[0]] = cell
        else:
            out[keys[0]] = str(cell)
    return out


def data_rows(
    table: Table, digits: int = 10, context: Mapping[str, Cell] | None = None
) -> list[dict[str, object]]:
    """The rows of ``table`` as data (what JSON and CSV write): one dict per row, the same keys
    in the same order for every row.  A text or count column gives its JSON key; an exact column
    ``KEY`` (a :class:`ExactText` ``"p/q"``) and ``KEY_decimal`` (a ``Decimal`` rounded exactly to
    ``digits``), a percentage also ``KEY_percent`` (in percent), an SD ``KEY_squared`` (its
    exact square, the variance: an SD is not rational) and ``KEY_decimal``; a missing value
    ``None``.  ``context`` adds its fields to tables that lack
    them (see :func:`with_context`).

    Raises:
        FormatError: two columns give the same field (say a ``fraction`` column ``pay`` and a
            ``decimal`` column ``pay_decimal``: use one ``both`` column).

    >>> t = Table("t", "T", (Column("Bet"), Column("Edge", "percent", "edge")), (("tie", Fraction(1, 8)),))
    >>> data_rows(t, 2)
    [{'bet': 'tie', 'edge': '1/8', 'edge_decimal': Decimal('0.12'), 'edge_percent': Decimal('12.50')}]
    """
    if context:
        table = with_context(table, context)
    seen: set[str] = set()
    columns = [(col, _data_keys(col)) for col in table.columns]
    for _, keys in columns:
        for key in keys:
            if key in seen:
                raise FormatError(f"table {table.name!r} gives the data field {key!r} twice")
            seen.add(key)
    return [_data_row(columns, row, digits) for row in table.rows]


def table_documents(
    tables: Sequence[Table], digits: int = 10, context: Mapping[str, Cell] | None = None
) -> list[dict[str, object]]:
    """The tables as JSON writes them (for :func:`json_document`): per table its ``name``,
    ``title``, ``columns`` (data keys), ``rows`` (:func:`data_rows`) and ``notes``."""
    out: list[dict[str, object]] = []
    for t in tables:
        full = with_context(t, context) if context else t
        out.append(
            {
                "name": t.name,
                "title": t.title,
                "columns": [c.json_key for c in full.columns],
                "rows": data_rows(full, digits),
                "notes": list(t.notes),
            }
        )
    return out


#: A string as JSON text, as ``json.dumps(text, ensure_ascii=False)`` writes it (the encoder's
#: own function, compiled where CPython has it).
_json_string: Callable[[str], str] = json.encoder.encode_basestring


def _json_value(value: object, indent: str) -> str:
    """JSON text of ``value`` as ``json.dumps(indent=2, ensure_ascii=False)`` writes it, with a
    ``Decimal`` written as the JSON number it is, digit for digit (never through a float)."""
    if isinstance(value, str):
        return _json_string(value)
    if isinstance(value, Decimal):
        return f"{value:f}"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if type(value) is int:
        return int.__repr__(value)
    if isinstance(value, Mapping) and value:
        inner = indent + "  "
        items = ",\n".join(
            f"{inner}{_json_string(str(k))}: {_json_value(v, inner)}" for k, v in value.items()
        )
        return "{\n" + items + "\n" + indent + "}"
    if isinstance(value, list | tuple) and value:
        inner = indent + "  "
        return "[\n" + ",\n".join(inner + _json_value(v, inner) for v in value) + "\n" + indent + "]"
    return json.dumps(value, ensure_ascii=False)


def _csv_value(value: object, raw: bool) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Decimal):
        return f"{value:f}"
    if isinstance(value, str) and not isinstance(value, ExactText):
        return value if raw else csv_cell(value)
    return str(value)


def json_document(value: object) -> str:
    """``value`` as indented JSON text (as ``json.dumps(indent=2, ensure_ascii=False)`` writes
    it), each ``Decimal`` written as the JSON number it is, digit for digit.

    >>> print(json_document({"p": "1/3", "p_decimal": Decimal("0.3333")}))
    {
      "p": "1/3",
      "p_decimal": 0.3333
    }
    """
    return _json_value(value, "")


def csv_text(
    tables: Sequence[Table],
    digits: int = 10,
    *,
    context: Mapping[str, Cell] | None = None,
    raw_csv: bool = False,
) -> str:
    """``tables`` as one long tidy CSV table that ``pandas.read_csv`` loads as it is: a header,
    then one line per row of every table.  Columns: ``table`` (the table's name), the
    :data:`CONTEXT_KEYS` present, then every other field of :func:`data_rows` in order of first
    appearance; a field a table does not have is an empty cell.  No comment lines; percentages
    are numbers of percent; a missing value is empty.

    Text cells that start with ``=``, ``+``, ``-`` or ``@`` get a leading single quote (unless
    ``raw_csv``, :func:`analyzer.text.csv_cell`); cells computed from numbers never do.
    """
    rows: list[dict[str, object]] = []
    keys: dict[str, None] = {"table": None}
    for t in tables:
        for data in data_rows(t, digits, context):
            rows.append({"table": t.name, **data})
    for k in CONTEXT_KEYS:
        if any(k in r for r in rows):
            keys[k] = None
    for r in rows:
        keys.update(dict.fromkeys(r))
    return long_csv(rows, keys, lambda v: _csv_value(v, raw_csv))


def long_csv(
    rows: Sequence[Mapping[str, object]], keys: Iterable[str], cell: Callable[[object], object]
) -> str:
    """``rows`` as CSV text: a header of ``keys``, then one line per row, each field written as
    ``cell`` of its value (``None`` where a row lacks the key)."""
    import csv  # lazy: only the CSV format needs it

    keys = list(keys)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(keys)
    for r in rows:
        writer.writerow([cell(r.get(k)) for k in keys])
    return buf.getvalue()


def render(
    tables: Sequence[Table],
    fmt: str,
    digits: int = 10,
    meta: dict[str, object] | None = None,
    *,
    raw_csv: bool = False,
    context: Mapping[str, Cell] | None = None,
    padded: bool = True,
) -> str:
    """Render tables in ``fmt`` (one of ``FORMATS``); ``meta`` (what produced them) heads the
    output: as a comment in text/Markdown/LaTeX/HTML, a ``meta`` object in JSON (CSV has no
    header but its column names: every row carries its context instead).  ``context`` (e.g.
    ``{"decks": 8, "shoe": ..., "rules": ..., "rules_fingerprint": ...}``) is added to each JSON
    and CSV row of a table that does not carry those fields itself.

    JSON: ``{"meta": {...}, "tables": [{"name", "title", "columns", "rows", "notes"}]}``, each
    row as :func:`data_rows` gives it (exact values as strings, decimals as JSON numbers).  CSV:
    one long table, see :func:`csv_text`; it guards spreadsheets unless ``raw_csv``: a text cell
    that starts with ``=``, ``+``, ``-`` or ``@`` gets a leading single quote
    (:func:`analyzer.text.csv_cell`); a cell computed from a number (``-0.0105790578``) is data
    and is never changed.  Comments in Markdown and HTML cannot be closed early by ``-->`` or
    ``--!>`` in the command line.  ``padded=False`` writes Markdown tables without aligning
    their columns with spaces (the committed ``results/``: a changed value is a one-line diff,
    not a re-padded column); it renders the same.

    Raises:
        FormatError: unknown format, or ``digits`` not a whole number >= 0.
    """
    if not isinstance(fmt, str) or fmt not in FORMATS:
        raise FormatError(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
    if isinstance(digits, bool) or not isinstance(digits, int) or digits < 0:
        raise FormatError(f"bad --digits {digits!r}: use a whole number, 0 or more")
    if fmt == "json":
        doc = {"meta": meta or {}, "tables": table_documents(tables, digits, context)}
        return json_text(json_document(doc)) + "\n"
    if fmt == "csv":
        return csv_text(tables, digits, context=context, raw_csv=raw_csv)
    parts: list[str] = []
    header = _meta_lines(meta)
    if header:
        parts.append(comment(fmt, header))
    shown = _SHOWN[fmt]  # the one escaping of this format, for every text that reaches the page
    for t in tables:
        rows = [[shown(cell) for cell in row] for row in _display_rows(t, digits, grouped=True)]
        if fmt == "markdown" and not padded:
            body = _unpadded_pipe_table([shown(h) for h in _headers(t)], rows, _aligns(t))
        else:
            body = tabulate(
                rows,
                headers=[shown(h) for h in _headers(t)],
                tablefmt=_TABLEFMT[fmt],  # html and latex_booktabs escape their own markup in cells
                disable_numparse=True,
                colalign=_aligns(t) if rows else None,  # tabulate cannot align the columns of no rows
            )
        headings = {
            "markdown": f"### {markdown_text(t.title)}",
            "html": f"<h3>{html_text(t.title)}</h3>",
            "latex": f"% {printable(t.title)}",
        }
        title = headings.get(fmt, printable(t.title))
        notes = [_note(fmt, n) for n in t.notes]
        parts.append("\n".join([title, "", body, *(["", *notes] if notes else [])]))
    return "\n\n".join(parts) + "\n"


def _unpadded_pipe_table(headers: Sequence[str], rows: Sequence[Sequence[str]], aligns: Sequence[str]) -> str:
    """A Markdown pipe table with one space either side of each cell and no alignment padding
    (cells arrive escaped by :func:`~analyzer.text.markdown_text`)."""
    rule = {"left": ":---", "right": "---:"}

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(cells) + " |"

    return "\n".join([line(headers), "|" + "|".join(rule[a] for a in aligns) + "|", *(line(r) for r in rows)])


def html_table(table: Table, digits: int = 10, *, notes: bool = True) -> str:
    """One table as an HTML fragment for a page that styles it: its title (``<h3>``), a
    ``<div class="table-wrap">`` holding the ``<table>`` (a page lets a wide table scroll in it),
    each number's cell (and header) marked ``class="num"`` (a page keeps a number on one line:
    ``white-space: nowrap``), text cells ``class="text"``; then its notes as ``<p class="note">``
    (unless ``notes`` is false).  Cells are shown as :func:`render` shows them, escaped once.

    >>> t = Table("t", "T", (Column("Bet"), Column("Edge", "percent", "edge")), (("tie", Fraction(1, 8)),))
    >>> 'class="num">12.50%<' in html_table(t, 2)
    True
    """
    kinds = ["num" if a == "right" else "text" for a in _aligns(table)]
    head = "".join(
        f'<th class="{k}">{html_text(h)}</th>' for k, h in zip(kinds, _headers(table), strict=True)
    )
    body = "".join(
        "<tr>"
        + "".join(f'<td class="{k}">{html_text(c)}</td>' for k, c in zip(kinds, row, strict=True))
        + "</tr>"
        for row in _display_rows(table, digits, grouped=True)
    )
    parts = [
        f"<h3>{html_text(table.title)}</h3>",
        '<div class="table-wrap"><table>\n'
        f"<thead><tr>{head}</tr></thead>\n<tbody>{body}</tbody>\n</table></div>",
    ]
    if notes:
        parts += [f'<p class="note">{html_text(n)}</p>' for n in table.notes]
    return "\n".join(parts)


#: How each format for people escapes a table's cells and headers: control characters (ANSI
#: escapes, CR, newlines, bidirectional overrides) never reach a terminal or a page; Markdown
#: markup and HTML in a cell are shown, not obeyed (tabulate escapes HTML and LaTeX cells).
_SHOWN = {"text": printable, "markdown": markdown_text, "html": printable, "latex": printable}


def provenance(command: str, shoe: str, rules: str | None = None, **extra: str) -> dict[str, object]:
    """What produced a table, for its header: tool and version, the command, the rules (as
    :meth:`~analyzer.core.tableau.Tableau.describe` names them; default the standard tableau),
    the shoe (as described), and any ``extra`` fields."""

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
        return f"% {printable(text)}"
    if fmt == "html":
        return f"<p>{html_text(text)}</p>"
    if fmt == "markdown":
        return markdown_text(text)
    return printable(text)
