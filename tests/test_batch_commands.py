"""``punto-banco batch``: exact EVs of the shoes of a file, as a user runs it
(``analyzer.cli.batch_commands``)."""

import csv
import io
import json
import os
import random
import subprocess
import sys
from fractions import Fraction

import pytest
from clirun import one_error_line

from analyzer import Shoe, price
from analyzer.cli.batch_commands import batch
from analyzer.output.batch_rows import BATCH_FORMATS
from analyzer.studies.batch_run import BatchSpec, bet_sources

BETS = ["banker", "tie:9", "perfect-pair", "dragon-bonus-player", "lucky-6"]


def _shoes(n, seed=1, width=52):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        counts = [8] * 52
        for _ in range(rng.randrange(0, 300)):
            i = rng.randrange(52)
            counts[i] -= counts[i] > 0
        out.append(counts if width == 52 else [sum(counts[4 * r : 4 * r + 4]) for r in range(13)])
    return out


def _write(path, rows, header=None):
    lines = ([header] if header else []) + [",".join(map(str, r)) for r in rows]
    path.write_text("\n".join(lines) + "\n")
    return path


def _bet_args(bets):
    return [a for b in bets for a in ("--bet", b)]


def test_the_formats_are_the_output_layers():
    fmt = next(p for p in batch.params if p.name == "fmt")
    assert tuple(fmt.type.choices) == BATCH_FORMATS


def test_batch_rows_are_price_of_each_shoe(cli, tmp_path):
    rows = _shoes(6)
    shoes = _write(tmp_path / "shoes.csv", rows)
    res = cli("batch", shoes, *_bet_args(BETS), "--digits", "8")
    assert res.exit_code == 0, res.output
    records = list(csv.DictReader(io.StringIO(res.stdout)))
    bets = BatchSpec(bet_sources(BETS)).built()
    assert len(records) == len(rows) * len(bets)
    for k, record in enumerate(records):
        i, bet = divmod(k, len(bets))[0], bets[k % len(bets)]
        ev = price(bet, Shoe.from_suited_counts(rows[i])).ev
        assert (int(record["row"]), record["bet_name"]) == (i + 1, bet.name)
        assert Fraction(record["ev"]) == ev
        assert abs(Fraction(record["ev_decimal"]) - ev) <= Fraction(1, 2 * 10**8)


def test_json_lines_in_and_out_and_standard_input(cli, tmp_path):
    rows = _shoes(4, seed=2, width=13)
    text = "\n".join(json.dumps(r) for r in rows) + "\n"
    (tmp_path / "shoes.jsonl").write_text(text)
    from_file = cli("batch", tmp_path / "shoes.jsonl", "--bet", "dragon-7", "--format", "jsonl")
    from_stdin = cli("batch", "-", "--input-format", "jsonl", "--bet", "dragon-7", "--format", "jsonl",
                     input=text)
    assert from_file.exit_code == 0 and from_file.stdout == from_stdin.stdout
    records = [json.loads(line) for line in from_file.stdout.splitlines()]
    assert [Fraction(r["ev"]) for r in records] == [
        price(BatchSpec(bet_sources(["dragon-7"])).built()[0], Shoe(tuple(r))).ev for r in rows]


def test_the_default_bets_and_the_whole_catalogue(cli, tmp_path):
    shoes = _write(tmp_path / "shoes.csv", _shoes(2, seed=3))
    main = cli("batch", shoes)
    names = [r["bet_name"] for r in csv.DictReader(io.StringIO(main.stdout))]
    assert names == ["banker", "player", "tie"] * 2
    every = cli("batch", shoes, "--all", "--digits", "0")
    names = BatchSpec(bet_sources(all_bets=True)).names
    assert [r["bet_name"] for r in csv.DictReader(io.StringIO(every.stdout))] == list(names) * 2


def test_output_file_is_atomic_and_parquet_needs_a_file(cli, tmp_path):
    shoes = _write(tmp_path / "shoes.csv", _shoes(3))
    out = tmp_path / "evs.csv"
    res = cli("batch", shoes, "--bet", "banker", "-o", out)
    assert res.exit_code == 0 and res.stdout == ""
    assert out.read_text().startswith("row,bet_name,ev,ev_decimal,rules,rules_fingerprint\n")
    line = one_error_line(cli("batch", shoes, "--format", "parquet"))
    assert "--format parquet writes a file: give -o FILE.parquet" in line
    pq = pytest.importorskip("pyarrow.parquet")
    res = cli("batch", shoes, "--bet", "banker", "--format", "parquet", "-o", tmp_path / "evs.parquet")
    assert res.exit_code == 0, res.output
    table = pq.read_table(tmp_path / "evs.parquet").to_pylist()
    assert [r["ev"] for r in table] == [r["ev"] for r in csv.DictReader(out.open())]
    assert one_error_line(cli("batch", shoes, "--format", "parquet", "-o", "/dev/stdout")).startswith(
        "Error: cannot write '/dev/stdout': binary output is written to a regular file")


def test_a_bad_row_past_the_first_chunk_leaves_no_file(cli, tmp_path):
    rows = _shoes(250, seed=4)  # the catalogue: chunks of 192 shoes, the first written before row 230
    rows[229][5] = "x5"
    shoes = _write(tmp_path / "shoes.csv", rows)
    out = tmp_path / "evs.csv"
    out.write_text("old\n")
    res = cli("batch", shoes, "--all", "-o", out)
    assert res.exit_code == 2
    assert one_error_line(res) == (
        f"Error: {shoes}, row 230 (line 230): column 6: 'x5' is not a count (a whole number >= 0, "
        "digits 0-9, at most 80 of them)")
    assert out.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["evs.csv", "shoes.csv"]  # no temporary file


@pytest.mark.parametrize(
    ("content", "args", "words"),
    [
        ("32,32\n", [], "shoes.csv, line 1: a row of 2 columns"),
        (",".join(["32"] * 13) + "\n", ["--bet", "perfect-pair"], "the bet perfect-pair reads suits"),
        (",".join(["32"] * 13) + "\n1,2\n", [],
         "shoes.csv, row 2 (line 2): 2 counts where the rows before hold 13"),
        ("A,B" + ",2" * 11 + "\n", [], "the header's column 2 'B' is not a rank"),
        (",".join(["32"] * 13) + "\n", ["--bet", "no-such-bet"], "no-such-bet"),
        (",".join(["32"] * 13) + "\n", ["--workers", "99"], "bad workers 99"),
        (",".join(["32"] * 13) + "\n", ["--digits", "31"], "31"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(cli, tmp_path, content, args, words):
    (tmp_path / "shoes.csv").write_text(content)
    res = cli("batch", tmp_path / "shoes.csv", *args)
    assert res.exit_code == 2
    assert words in one_error_line(res)
    assert res.stdout == ""


def test_missing_file_and_output_onto_the_input(cli, tmp_path):
    assert "no-such.csv" in one_error_line(cli("batch", tmp_path / "no-such.csv"))
    shoes = _write(tmp_path / "shoes.csv", _shoes(1))
    line = one_error_line(cli("batch", shoes, "-o", shoes))
    assert "input" in line and shoes.read_text().count("\n") == 1


def test_progress_bar_on_standard_error(cli, tmp_path):
    shoes = _write(tmp_path / "shoes.csv", _shoes(2))
    res = cli("batch", shoes, "--progress")
    assert "pricing shoes" in res.stderr and res.stdout.startswith("row,")
    piped = cli("batch", "-", "--progress", input=shoes.read_text())
    assert "shoes priced" in piped.stderr and piped.stdout == res.stdout
    assert cli("batch", shoes).stderr == ""  # not a terminal: no bar unless asked


def test_two_workers_and_a_dask_cluster_give_the_same_bytes(cli, tmp_path):
    distributed = pytest.importorskip("distributed")
    rows = _shoes(200, seed=5)
    shoes = _write(tmp_path / "shoes.csv", rows)
    args = ["batch", shoes, "--all", "--format", "jsonl"]  # chunks of 192 shoes: two of them
    one = cli(*args)
    assert one.exit_code == 0, one.output
    two = cli(*args, "--workers", "2")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        dask = cli(*args, "--scheduler", cluster.scheduler_address)
    assert one.stdout == two.stdout == dask.stdout
    assert len(one.stdout.splitlines()) == 200 * len(BatchSpec(bet_sources(all_bets=True)).names)


@pytest.mark.slow
def test_100000_shoes_in_fixed_memory_and_on_dask(cli, tmp_path):
    """The command's peak memory does not grow with the shoes: 100,000 shoes against 10,000,
    each in a child process (its own resource usage), the output written to a file; and the
    100,000 shoes on a Dask LocalCluster give the same file, byte for byte."""

    rows = [",".join(map(str, r)) + "\n" for r in _shoes(50, seed=6)]
    for n in (10_000, 100_000):  # written line by line: this process stays the same size
        with (tmp_path / f"s{n}.csv").open("w") as fh:
            for i in range(n):
                fh.write(rows[i % 50])

    def peak(n):
        child = subprocess.Popen(
            [sys.executable, "-m", "analyzer", "batch", str(tmp_path / f"s{n}.csv"), "--bet", "banker",
             "--bet", "dragon-7", "--bet", "perfect-pair", "-o", str(tmp_path / f"o{n}.csv")],
        )
        _, status, usage = os.wait4(child.pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        with (tmp_path / f"o{n}.csv").open() as fh:
            assert sum(1 for _ in fh) == 3 * n + 1
        return usage.ru_maxrss / 1024  # MB

    small, large = peak(10_000), peak(100_000)
    assert large < small + 16, (small, large)
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        res = cli("batch", tmp_path / "s100000.csv", "--bet", "banker", "--bet", "dragon-7", "--bet",
                  "perfect-pair", "-o", tmp_path / "dask.csv", "--scheduler", cluster.scheduler_address)
    assert res.exit_code == 0, res.output
    assert (tmp_path / "dask.csv").read_bytes() == (tmp_path / "o100000.csv").read_bytes()
