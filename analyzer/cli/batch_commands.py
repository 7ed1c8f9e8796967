"""``punto-banco batch``: exact EVs of many shoes from a file, streamed to CSV, JSON Lines or
Parquet (a thin wrapper over :mod:`analyzer.studies.batch_run` and
:mod:`analyzer.output.batch_rows`)."""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Iterator
from typing import Any

import click

from analyzer.cli.common import (
    UsageProblem,
    WholeNumber,
    bet_inputs,
    bet_options,
    guard,
    limit_options,
    note_inputs,
    output_options,
    rules_inputs,
    rules_option,
    scheduler_timeout_option,
    tableau_of,
)


@click.command("batch")
@click.argument("shoes_file", metavar="SHOES", type=click.Path(dir_okay=False, allow_dash=True))
@bet_options(
    "A bet (repeatable): a catalogue bet, e.g. banker, tie:9, dragon-7 (default: the main bets).",
    "Every bet of this TOML file of user-defined bets (repeatable).",
)
@click.option("--all", "all_bets", is_flag=True, help="Every catalogue bet.")
@rules_option
@click.option(
    "--input-format",
    type=click.Choice(["csv", "jsonl"]),
    default=None,
    help="How SHOES is written (default: jsonl for a .jsonl or .ndjson file, else csv).",
)
@output_options(
    formats=("csv", "jsonl", "parquet"),  # output.batch_rows.BATCH_FORMATS (a test holds them equal)
    default="csv",
    format_help="Output format: CSV, JSON Lines, or Parquet (needs -o and the 'parquet' extra).",
    digits=WholeNumber(0, 30),
    digits_help="Decimals of ev_decimal, rounded exactly (never through a float).",
    output_help="Write to this file (atomically: nothing is left of it if the batch fails) instead "
    "of standard output.",
)
@limit_options(counts_files=False)
@click.option(
    "--workers",
    default="1",
    show_default=True,
    metavar="N|auto",
    help="Local processes (auto: the cores that are free); at most the usable cores (2 on one core).",
)
@click.option(
    "--scheduler",
    default=None,
    metavar="ADDRESS",
    help="Run on this Dask distributed scheduler (e.g. tcp://10.0.0.5:8786; the 'cluster' extra): "
    "the same output, byte for byte.",
)
@scheduler_timeout_option
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Progress bar on standard error (default: when it is a terminal).",
)
@guard
def batch(
    shoes_file: str,
    bet_specs: tuple[str, ...],
    bet_files: tuple[str, ...],
    all_bets: bool,
    rules: str,
    input_format: str | None,
    fmt: str,
    digits: int,
    output: str | None,
    raw_csv: bool,
    max_line: int,
    workers: str,
    scheduler: str | None,
    scheduler_timeout: float,
    progress: bool | None,
) -> None:
    """The exact EV of each bet on each shoe of SHOES: a CSV file of 13 rank counts (A, 2, ...,
    10, J, Q, K) or 52 suited counts (As, Ah, Ad, Ac, 2s, ...) a row, with or without a header
    naming them, or JSON Lines of arrays of counts ('-': standard input).  One output row per
    shoe and bet: row, bet_name, ev (exact, p/q), ev_decimal, rules, rules_fingerprint.  Streamed
    in fixed memory.  Example: ``punto-banco batch shoes.csv --all -o evs.csv``."""
    from analyzer.checks.logs import open_log  # lazy: start-up time
    from analyzer.output.batch_rows import (  # lazy: start-up time (numpy)
        BatchJob,
        ParquetRows,
        check_parquet,
        chunk_rows,
        header,
    )
    from analyzer.output.files import (  # lazy: start-up time
        check_targets,
        open_atomic,
        open_atomic_binary,
        refuse_inputs,
    )
    from analyzer.studies.batch_run import (  # lazy: start-up time (numpy)
        BatchSpec,
        bet_sources,
        chunk_size,
        read_chunks,
        run_batch,
        shoe_format,
    )

    from_stdin = shoes_file == "-"
    inputs = [*bet_inputs(bet_specs, bet_files), *rules_inputs(rules)]
    if not from_stdin:
        inputs += note_inputs([shoes_file])
    refuse_inputs([output], inputs)
    if fmt == "parquet":
        if output is None:
            raise UsageProblem("--format parquet writes a file: give -o FILE.parquet")
        check_parquet()
    if output is not None:
        check_targets([output])  # before the shoes are read
    spec = BatchSpec(bet_sources(bet_specs, bet_files, all_bets=all_bets), tableau_of(rules))
    job = BatchJob(spec, fmt, digits, raw_csv)
    name = "standard input" if from_stdin else shoes_file
    source: Any = contextlib.nullcontext(sys.stdin) if from_stdin else open_log(shoes_file)
    with source as stream:
        chunks = read_chunks(
            stream,
            shoe_format(shoes_file if not from_stdin else "", input_format),
            shoes=chunk_size(len(spec.bets)),
            name=name,
            max_line=max_line,
            suits_for=spec.suits_for,
        )
        results = run_batch(
            chunk_rows, job, chunks, workers=workers, scheduler=scheduler, timeout=scheduler_timeout
        )
        show = sys.stderr.isatty() if progress is None else progress
        with contextlib.closing(results), _progress(show, _size(stream)) as step:  # type: ignore[type-var]
            if fmt == "parquet":
                assert output is not None
                with open_atomic_binary(output) as sink:
                    parquet = ParquetRows(sink, job)
                    for rows in results:
                        parquet.write(rows)
                        step(rows)
                    parquet.close()
                return
            sink_context: Any = contextlib.nullcontext(sys.stdout) if output is None else open_atomic(output)
            with sink_context as sink:
                start = header(job)  # written with the first rows: a bad first row prints nothing
                for rows in results:
                    sink.write(start + rows.text)
                    start = ""
                    step(rows)
                sink.write(start)


def _size(stream: Any) -> int | None:
    """The size of a regular file being read (``None`` for a pipe, a terminal, standard input
    that is not a file): the progress bar's length, in characters read."""
    try:
        info = os.fstat(stream.fileno())
    except (AttributeError, OSError, ValueError):
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) and info.st_size else None


def _unsized() -> Iterator[int]:
    """Nothing, of no known length (a progress bar over it counts, showing no percentage)."""
    yield from ()


@contextlib.contextmanager
def _progress(show: bool, size: int | None) -> Any:
    """A function to call with each chunk's rows: a progress bar on standard error when
    ``show`` (through the file when its ``size`` is known, else the shoes done)."""
    if not show:
        yield lambda rows: None
        return
    if size is None:
        with click.progressbar(_unsized(), label="shoes priced", show_pos=True, file=sys.stderr) as count:
            yield lambda rows: count.update(rows.shoes)
        return
    with click.progressbar(length=size, label="pricing shoes", file=sys.stderr) as bar:
        done = [0]

        def step(rows: Any) -> None:
            now = min(rows.end, size)
            bar.update(now - done[0])
            done[0] = now

        yield step
