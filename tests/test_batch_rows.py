"""A batch's exact EVs as CSV, JSON Lines and Parquet rows (``analyzer.output.batch_rows``)."""

import csv
import dataclasses
import io
import json
import random
import sys
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer import Shoe, price
from analyzer.core.exact import fraction_text, round_fraction
from analyzer.core.tableau import STANDARD
from analyzer.errors import FormatError
from analyzer.output.batch_rows import (
    COLUMNS,
    MAX_DIGITS,
    BatchJob,
    ParquetRows,
    check_parquet,
    chunk_rows,
    decimal_text,
    exact_values,
    header,
)
from analyzer.studies.batch_run import BatchSpec, bet_sources, read_chunks

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


@given(st.integers(-(10**30), 10**30), st.integers(1, 10**30), st.integers(0, MAX_DIGITS))
@settings(max_examples=300, deadline=None)
def test_exact_values_are_the_fraction_and_its_exact_rounding(numerator, denominator, digits):
    x = Fraction(numerator, denominator)
    exact, scaled = exact_values(numerator, denominator, digits)
    assert exact == fraction_text(x)
    assert decimal_text(scaled, digits) == f"{round_fraction(x, digits):f}"


@given(
    st.lists(st.lists(st.integers(-(10**24), 10**24), min_size=3, max_size=3), min_size=1, max_size=4),
    st.lists(st.integers(1, 10**12), min_size=4, max_size=4),
    st.lists(st.integers(1, 40), min_size=3, max_size=3),
    st.integers(0, MAX_DIGITS),
)
@settings(max_examples=200, deadline=None)
def test_the_rows_cells_are_the_exact_values(numerators, denominators, scales, digits):
    """The rows' loop (written out for speed) gives what exact_values and decimal_text give:
    every EV numerator / (scale x denominator), its exact text and its exact rounding."""
    import numpy as np

    from analyzer.output.batch_rows import _cells
    from analyzer.studies.batch_run import PricedChunk

    shoes = len(numerators)
    evs = np.asarray(numerators, dtype=object)
    priced = PricedChunk(1, evs, tuple(scales), tuple(denominators[:shoes]), 0)
    exact, text = _cells(priced, digits, True)
    _, scaled = _cells(priced, digits, False)
    k = 0
    for i in range(shoes):
        for j in range(3):
            x = Fraction(numerators[i][j], scales[j] * denominators[i])
            assert exact[k] == fraction_text(x)
            assert text[k] == f"{round_fraction(x, digits):f}" == decimal_text(scaled[k], digits)
            k += 1


def test_halves_round_to_even():
    assert [exact_values(n, 8, 2)[1] for n in (1, 3, -1, -3, 4)] == [12, 38, -12, -38, 50]
    assert [exact_values(n, 2, 0)[1] for n in (1, 3, 5, -1, -3)] == [0, 2, 2, 0, -2]


def _chunk(rows):
    (chunk,) = read_chunks(io.StringIO("\n".join(",".join(map(str, r)) for r in rows)), shoes=64)
    return chunk


def _shoes(n, seed=3):
    rng = random.Random(seed)
    return [[max(0, 8 - rng.randrange(0, 3)) for _ in range(52)] for _ in range(n)]


BETS = ["banker", "tie:9", "perfect-pair", "dragon-bonus-player"]


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_rows_are_the_exact_evs_of_each_shoe_and_bet(fmt):
    rows = _shoes(3)
    spec = BatchSpec(bet_sources(BETS))
    out = header(BatchJob(spec, fmt, 6)) + chunk_rows(BatchJob(spec, fmt, 6), _chunk(rows)).text
    if fmt == "csv":
        records = list(csv.DictReader(io.StringIO(out)))
        assert out.splitlines()[0] == ",".join(COLUMNS)
    else:
        records = [json.loads(line, parse_float=Decimal) for line in out.splitlines()]
        assert all(list(r) == list(COLUMNS) for r in records)
    assert len(records) == len(rows) * len(BETS)
    expected = [(i, b) for i in range(len(rows)) for b in spec.built()]
    for record, (i, bet) in zip(records, expected, strict=True):
        ev = price(bet, Shoe.from_suited_counts(rows[i])).ev
        assert int(record["row"]) == i + 1 and record["bet_name"] == bet.name
        assert Fraction(record["ev"]) == ev and record["ev"] == fraction_text(ev)
        assert Decimal(str(record["ev_decimal"])) == round_fraction(ev, 6)
        assert (record["rules"], record["rules_fingerprint"]) == ("standard", STANDARD.fingerprint)


def test_text_cells_are_escaped_for_csv_and_json():
    odd = dataclasses.replace(STANDARD, name='=odd,"rules"\u202e')
    spec = BatchSpec(bet_sources(["banker"]), odd)
    chunk = _chunk([[8] * 52])
    guarded = chunk_rows(BatchJob(spec, "csv", 4), chunk).text
    raw = chunk_rows(BatchJob(spec, "csv", 4, raw_csv=True), chunk).text
    assert next(csv.reader(io.StringIO(guarded)))[4] == "'" + odd.name
    assert next(csv.reader(io.StringIO(raw)))[4] == odd.name
    line = chunk_rows(BatchJob(spec, "jsonl", 4), chunk).text
    assert "\\u202e" in line and json.loads(line)["rules"] == odd.name


def test_bad_jobs_are_refused():
    spec = BatchSpec(bet_sources(["banker"]))
    for fmt, digits in (("xml", 4), ("csv", -1), ("csv", MAX_DIGITS + 1), ("csv", True)):
        with pytest.raises(FormatError):
            BatchJob(spec, fmt, digits)


def _parquet(rows, bets, digits=10):
    spec = BatchSpec(bet_sources(bets))
    job = BatchJob(spec, "parquet", digits)
    sink = io.BytesIO()
    writer = ParquetRows(sink, job)
    text = "\n".join(",".join(map(str, r)) for r in rows)
    for chunk in read_chunks(io.StringIO(text), shoes=2):  # two chunks, two row groups
        writer.write(chunk_rows(job, chunk))
    writer.close()
    return spec, pq.read_table(io.BytesIO(sink.getvalue()))


def test_parquet_has_the_same_columns_and_exact_values():
    rows = _shoes(3, seed=5)
    spec, table = _parquet(rows, BETS)
    assert table.column_names == list(COLUMNS)
    assert table.schema.field("ev_decimal").type == pa.decimal128(38, 10)
    data = table.to_pylist()
    assert len(data) == len(rows) * len(BETS)
    for record, (i, bet) in zip(data, [(i, b) for i in range(len(rows)) for b in spec.built()], strict=True):
        ev = price(bet, Shoe.from_suited_counts(rows[i])).ev
        assert (record["row"], record["bet_name"], record["ev"]) == (i + 1, bet.name, fraction_text(ev))
        assert record["ev_decimal"] == round_fraction(ev, 10)
        assert (record["rules"], record["rules_fingerprint"]) == ("standard", STANDARD.fingerprint)


def test_parquet_decimals_beyond_int64_and_beyond_38_digits():
    rows = _shoes(3, seed=6)
    big = "tie:" + str(10**12)  # an EV of about 10**11: 10**41 units of 10**-30
    _, table = _parquet(rows, ["banker", "tie:100000000"], digits=MAX_DIGITS)
    ev = price(bet_sources(["tie:100000000"])[0].build(), Shoe.from_suited_counts(rows[0])).ev
    assert table.to_pylist()[1]["ev_decimal"] == round_fraction(ev, MAX_DIGITS)  # past 2**63 units
    with pytest.raises(FormatError, match=r"row 1: the EV of tie:1000000000000 has more digits than"):
        _parquet(rows, [big], digits=MAX_DIGITS)


def test_parquet_without_pyarrow_is_one_clear_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    with pytest.raises(FormatError, match=r"needs pyarrow: pip install 'punto-banco-analyzer\[parquet\]'"):
        check_parquet()
    with pytest.raises(FormatError, match="needs pyarrow"):
        ParquetRows(io.BytesIO(), BatchJob(BatchSpec(bet_sources(["banker"])), "parquet"))
