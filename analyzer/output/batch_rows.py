"""A batch's exact EVs as data: CSV, JSON Lines or Parquet, one row per shoe and bet, written a
chunk of shoes at a time (``punto-banco batch``).

Each row: ``row`` (the shoe's row in the file of shoes, 1 for the first), ``bet_name`` (what
``--bet`` takes), ``ev`` (the exact EV per unit staked, ``"p/q"`` in lowest terms, or ``"p"``),
``ev_decimal`` (the EV rounded exactly to ``--digits`` decimals, half to even, never through a
float), ``rules`` and ``rules_fingerprint`` (docs/output.md's conventions: in JSON a number with
every digit, in CSV a cell as ``bets --format csv`` writes it).  Rows come shoe by shoe, each
shoe's bets in the order chosen.  CSV has a header line and nothing else; a text cell starting
with ``=``, ``+``, ``-`` or ``@`` gets a leading quote unless ``raw_csv``.  Parquet (the
``parquet`` extra: pyarrow, imported only here) has the same columns: ``row`` int64,
``bet_name``, ``rules`` and ``rules_fingerprint`` dictionary-encoded strings, ``ev`` a string,
``ev_decimal`` a ``decimal128(38, digits)``.

:func:`chunk_rows` prices and formats one chunk of shoes: it is the task a worker runs, so the
rows are built where the EVs are (and are the same bytes wherever that is).
"""

from __future__ import annotations

import csv
import io
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from math import gcd
from typing import Any, BinaryIO

from analyzer.errors import FormatError
from analyzer.studies.batch_run import BatchSpec, PricedChunk, ShoeChunk, price_chunk
from analyzer.text import csv_cell, json_text

#: The formats a batch writes.
BATCH_FORMATS = ("csv", "jsonl", "parquet")
#: The columns of every format, in order.
COLUMNS = ("row", "bet_name", "ev", "ev_decimal", "rules", "rules_fingerprint")
#: The most decimals (Parquet's decimal128 keeps 38 digits: 8 or more before the point).
MAX_DIGITS = 30
#: Parquet's decimals: 38 digits in all.
PARQUET_PRECISION = 38
#: How a missing pyarrow is reported.
NO_PYARROW = "--format parquet needs pyarrow: pip install 'punto-banco-analyzer[parquet]'"


@dataclass(frozen=True)
class BatchJob:
    """What a worker needs to price and format a chunk: the bets and rules (``spec``), the
    format, the decimals, and whether CSV text cells are left unguarded.

    Raises:
        FormatError: an unknown format, or ``digits`` outside 0..:data:`MAX_DIGITS`.
    """

    spec: BatchSpec
    fmt: str = "csv"
    digits: int = 10
    raw_csv: bool = False

    def __post_init__(self) -> None:
        if self.fmt not in BATCH_FORMATS:
            raise FormatError(f"bad batch format {self.fmt!r}: use {', '.join(BATCH_FORMATS)}")
        digits = self.digits
        if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= MAX_DIGITS:
            raise FormatError(f"bad digits {self.digits!r}: use a whole number from 0 to {MAX_DIGITS}")


@dataclass(frozen=True)
class RowsChunk:
    """The rows of a chunk of shoes: ``text`` (CSV or JSON Lines), or for Parquet ``columns``:
    the row numbers, each row's bet (an index into the bets), the exact EVs' text and the EVs
    rounded, as whole numbers of 10**-digits.  ``shoes`` and ``end`` are the chunk's."""

    shoes: int
    end: int
    text: str = ""
    columns: tuple[list[int], list[int], list[str], list[int]] | None = None


def _csv_field(text: str, raw: bool) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="").writerow([text if raw else csv_cell(text)])
    return buf.getvalue()


def header(job: BatchJob) -> str:
    """What a file of ``job``'s format starts with: CSV's header line (else nothing)."""
    return ",".join(COLUMNS) + "\n" if job.fmt == "csv" else ""


def decimal_text(scaled: int, digits: int) -> str:
    """``scaled`` / 10**``digits`` as decimal text with every digit (as ``f"{Decimal:f}"``).

    >>> decimal_text(-105790578, 10), decimal_text(5, 0), decimal_text(-5, 2), decimal_text(0, 3)
    ('-0.0105790578', '5', '-0.05', '0.000')
    """
    if not digits:
        return str(scaled)
    sign = "-" if scaled < 0 else ""
    text = str(-scaled if scaled < 0 else scaled).rjust(digits + 1, "0")
    return f"{sign}{text[:-digits]}.{text[-digits:]}"


def exact_values(numerator: int, denominator: int, digits: int) -> tuple[str, int]:
    """The fraction ``numerator / denominator`` (``denominator`` > 0) as ``"p/q"`` in lowest
    terms (``"p"`` when whole) and rounded to ``digits`` decimals, half to even, as a whole
    number of 10**-digits.

    >>> exact_values(-6, 8, 2), exact_values(1, 8, 2), exact_values(3, 8, 2), exact_values(4, 2, 1)
    (('-3/4', -75), ('1/8', 12), ('3/8', 38), ('2', 20))
    """
    g = gcd(numerator, denominator)
    p, q = numerator // g, denominator // g
    scaled, rest = divmod(p * 10**digits, q)
    rest *= 2
    if rest > q or (rest == q and scaled & 1):
        scaled += 1
    return (f"{p}/{q}" if q != 1 else str(p)), scaled


def _cells(priced: PricedChunk, digits: int, text: bool) -> tuple[list[str], list[Any]]:
    """Every EV of ``priced``, shoe after shoe and bet after bet: its exact text and its
    rounding (text with ``text``, else a whole number of 10**-digits): :func:`exact_values` and
    :func:`decimal_text`, written out in one loop (a million of them cost a second)."""
    exact: list[str] = []
    rounded: list[Any] = []
    power = 10**digits
    scales = priced.scales
    for row, whole in zip(priced.numerators.tolist(), priced.denominators, strict=True):
        for numerator, scale in zip(row, scales, strict=True):
            p, q = numerator, scale * whole
            g = gcd(p, q)
            if g != 1:
                p //= g
                q //= g
            scaled, rest = divmod(p * power, q)
            rest += rest
            if rest > q or (rest == q and scaled & 1):
                scaled += 1
            exact.append(f"{p}/{q}" if q != 1 else str(p))
            if not text:
                rounded.append(scaled)
            elif not digits:
                rounded.append(str(scaled))
            elif scaled < 0:
                t = str(-scaled).rjust(digits + 1, "0")
                rounded.append(f"-{t[:-digits]}.{t[-digits:]}")
            else:
                t = str(scaled).rjust(digits + 1, "0")
                rounded.append(f"{t[:-digits]}.{t[-digits:]}")
    return exact, rounded


def rows_of(job: BatchJob, priced: PricedChunk) -> RowsChunk:
    """The rows of a priced chunk in ``job``'s format (module docstring)."""
    names = job.spec.names
    bets = len(names)
    shoes = len(priced.denominators)
    tableau = job.spec.tableau
    exact, rounded = _cells(priced, job.digits, job.fmt != "parquet")
    if job.fmt == "parquet":
        rows = [priced.first + i for i in range(shoes) for _ in range(bets)]
        return RowsChunk(shoes, priced.end, columns=(rows, list(range(bets)) * shoes, exact, rounded))
    if job.fmt == "csv":
        heads = [f",{_csv_field(n, job.raw_csv)}," for n in names]
        middle = ","
        tail = f",{_csv_field(tableau.name, job.raw_csv)},{_csv_field(tableau.fingerprint, job.raw_csv)}\n"
        starts = [str(priced.first + i) for i in range(shoes)]
    else:
        heads = [f', "bet_name": {json_text(json.dumps(n, ensure_ascii=False))}, "ev": "' for n in names]
        middle = '", "ev_decimal": '
        tail = (
            f', "rules": {json_text(json.dumps(tableau.name, ensure_ascii=False))}, '
            f'"rules_fingerprint": {json.dumps(tableau.fingerprint)}}}\n'
        )
        starts = [f'{{"row": {priced.first + i}' for i in range(shoes)]
    out: list[str] = []
    k = 0
    for start in starts:
        for head in heads:
            out.append(f"{start}{head}{exact[k]}{middle}{rounded[k]}{tail}")
            k += 1
    return RowsChunk(shoes, priced.end, text="".join(out))


def chunk_rows(job: BatchJob, chunk: ShoeChunk) -> RowsChunk:
    """The rows of ``chunk``'s shoes: priced (:func:`~analyzer.studies.batch_run.price_chunk`)
    and formatted (:func:`rows_of`).  The task of a worker process or a Dask worker."""
    return rows_of(job, price_chunk(job.spec, chunk))


def check_parquet() -> None:
    """Refuse ``--format parquet`` without pyarrow, in one line, before any work.

    Raises:
        FormatError: pyarrow is not installed.
    """
    try:
        import pyarrow.parquet  # type: ignore[import-untyped,import-not-found,unused-ignore]  # noqa: F401  # lazy: the parquet extra
    except ImportError:
        raise FormatError(NO_PYARROW) from None


class ParquetRows:
    """A Parquet file written a chunk of rows at a time (one row group each) into ``sink`` (a
    binary file); :meth:`close` writes its footer.

    Raises:
        FormatError: pyarrow is not installed; a rounded EV too large for the decimal column.
    """

    def __init__(self, sink: BinaryIO, job: BatchJob) -> None:
        try:
            import pyarrow as pa  # type: ignore[import-untyped,import-not-found,unused-ignore]  # lazy: the parquet extra
            import pyarrow.parquet as pq  # type: ignore[import-untyped,import-not-found,unused-ignore]  # lazy: as above
        except ImportError:
            raise FormatError(NO_PYARROW) from None
        self._pa = pa
        self.job = job
        self.names = pa.array(job.spec.names, pa.string())
        self.rules = pa.array([job.spec.tableau.name, job.spec.tableau.fingerprint], pa.string())
        self.decimal = pa.decimal128(PARQUET_PRECISION, job.digits)
        text = pa.dictionary(pa.int32(), pa.string())
        self.schema = pa.schema(
            [
                ("row", pa.int64()),
                ("bet_name", text),
                ("ev", pa.string()),
                ("ev_decimal", self.decimal),
                ("rules", text),
                ("rules_fingerprint", text),
            ]
        )
        self.writer = pq.ParquetWriter(sink, self.schema)

    def _decimals(self, scaled: Sequence[int], rows: Sequence[int], bets: Sequence[int]) -> Any:
        pa = self._pa
        import numpy as np

        bound = 10**PARQUET_PRECISION
        top = max((abs(x) for x in scaled), default=0)
        if top >= bound:
            at = next(k for k, x in enumerate(scaled) if abs(x) >= bound)
            raise FormatError(
                f"row {rows[at]}: the EV of {self.job.spec.names[bets[at]]} has more digits than "
                f"Parquet's decimal({PARQUET_PRECISION}, {self.job.digits}) holds: give fewer --digits"
            )
        if top < 2**63 and sys.byteorder == "little":  # 128-bit two's complement, little-endian
            low = np.asarray(scaled, dtype=np.int64)
            words = np.empty((len(low), 2), dtype=np.int64)
            words[:, 0] = low
            words[:, 1] = low >> 63
            return pa.Array.from_buffers(self.decimal, len(low), [None, pa.py_buffer(words)])
        digits = self.job.digits
        return pa.array([Decimal(f"{x}E-{digits}") for x in scaled], self.decimal)  # exact: no context

    def write(self, chunk: RowsChunk) -> None:
        """Write ``chunk``'s rows (a row group)."""
        if chunk.columns is None or not chunk.columns[0]:
            return
        pa = self._pa
        rows, bets, evs, scaled = chunk.columns
        n = len(rows)
        zeros = pa.array([0] * n, pa.int32())
        batch = pa.RecordBatch.from_arrays(
            [
                pa.array(rows, pa.int64()),
                pa.DictionaryArray.from_arrays(pa.array(bets, pa.int32()), self.names),
                pa.array(evs, pa.string()),
                self._decimals(scaled, rows, bets),
                pa.DictionaryArray.from_arrays(zeros, self.rules.slice(0, 1)),
                pa.DictionaryArray.from_arrays(zeros, self.rules.slice(1, 1)),
            ],
            schema=self.schema,
        )
        self.writer.write_batch(batch)

    def close(self) -> None:
        """Write the footer (the file is whole only then)."""
        self.writer.close()


__all__ = [
    "BATCH_FORMATS",
    "COLUMNS",
    "MAX_DIGITS",
    "BatchJob",
    "ParquetRows",
    "RowsChunk",
    "check_parquet",
    "chunk_rows",
    "decimal_text",
    "exact_values",
    "header",
    "rows_of",
]
