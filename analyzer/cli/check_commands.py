"""The commands that check another implementation: ``verify`` (hand logs), ``conform`` (frequencies)."""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any

import click

from analyzer.cli.common import (
    WholeNumber,
    build_shoe,
    command_line,
    emit,
    guard,
    limit_options,
    meta,
    output_options,
    raw_csv_option,
    removed,
    shoe_check_options,
    shoe_options,
    tableau_of,
)
from analyzer.cli.process import echo
from analyzer.text import printable


@click.command()
@click.argument("log", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--log-format",
    type=click.Choice(["csv", "jsonl"]),
    default=None,
    help="Format of LOG (default: from its extension, .csv or .jsonl/.ndjson).",
)
@shoe_check_options
@click.option(
    "--paid",
    "paid_means",
    type=click.Choice(["net", "returned"]),
    default="net",
    show_default=True,
    help="What a settled amount means: net win (0 push, -stake loss) or the amount returned.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "jsonl", "csv"]),
    default="text",
    show_default=True,
    help="Format of the discrepancy report.",
)
@click.option(
    "--max-report",
    type=WholeNumber(0),
    default=0,
    show_default=True,
    help="Report at most N discrepancies (0: all); all are counted.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write the report to this file (atomically) instead of standard output.",
)
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Progress bar on standard error (default: when it is a terminal).",
)
@raw_csv_option
@limit_options(counts_files=False)
@guard
def verify(
    log: str,
    log_format: str | None,
    decks: int | None,
    shoe_text: str | None,
    remove: str | None,
    rules: str,
    paid_means: str,
    fmt: str,
    max_report: int,
    output: str | None,
    progress: bool | None,
    raw_csv: bool,
    max_line: int,
) -> None:
    """Check a hand log from another implementation against the tableau and the pay tables.

    LOG is CSV or JSON Lines, one coup per record: the cards in dealing order and/or the hands,
    and optionally the claimed totals, winner and settled bets (README, "Hand-log format").  Each
    discrepancy names its record, line, field, the expected and claimed values and the rule.
    With --decks or --shoe, also checks that the shoe could still hold every card dealt.
    Exit code 0: every coup conforms; 1: discrepancies; 2: unreadable input.
    """
    from analyzer.checks.verify import (
        MAX_IGNORED,
        Verifier,
        detect_format,
        open_log,
        read_records,
        report_header,
        report_line,
        summary_text,
    )
    from analyzer.output.files import open_atomic, refuse_inputs
    from analyzer.output.render import context_of

    refuse_inputs([output], [log])
    checked = decks is not None or shoe_text is not None or remove is not None
    tableau = tableau_of(rules)
    shoe = build_shoe(decks, shoe_text, remove) if checked else None
    verifier = Verifier(shoe, paid_means, tableau=tableau)
    # what the log was checked against, on every data row (the shoe only when it was checked)
    context: dict[str, object] = (
        dict(context_of(shoe, tableau))
        if shoe is not None
        else {"rules": tableau.name, "rules_fingerprint": tableau.fingerprint}
    )
    log_fmt = detect_format(log, log_format)
    ignored: list[str] = []
    stream: Any = contextlib.nullcontext(sys.stdin) if log == "-" else open_log(log)
    sink_context: Any = open_atomic(output) if output is not None else contextlib.nullcontext(sys.stdout)
    with sink_context as sink, stream as lines:
        size = 0 if log == "-" else os.path.getsize(log)
        show = (sys.stderr.isatty() if progress is None else progress) and size > 0
        bar_context: Any = (
            click.progressbar(length=size, label="verifying", file=sys.stderr) if show else _no_bar()
        )
        with bar_context as bar:
            sink.write(report_header(fmt, context))
            shown = 0
            records = read_records(
                lines,
                log_fmt,
                bar.update if show else None,
                ignored,
                name="standard input" if log == "-" else log,
                max_line=max_line,
            )
            for found in verifier.run(records):
                if not max_report or shown < max_report:
                    sink.write(report_line(found, fmt, raw_csv, context))
                    shown += 1
        summary = summary_text(verifier)
        if max_report and verifier.discrepancies > shown:
            summary += f" (first {shown:,} reported)"
        if fmt == "text":
            sink.write(summary + "\n")
        else:
            echo(summary, err=True)
    if ignored:
        more = " (and more)" if len(ignored) >= MAX_IGNORED else ""
        echo(printable(f"note: ignored unknown fields: {', '.join(ignored)}{more}"), err=True)
    if verifier.discrepancies:
        sys.exit(1)


class _no_bar:  # noqa: N801 - used like click.progressbar
    """A do-nothing stand-in for click.progressbar."""

    def __enter__(self) -> _no_bar:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, n: int) -> None:
        """Ignore progress."""


@click.command()
@click.argument("observed", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--observed-format",
    type=click.Choice(["json", "csv", "log-csv", "log-jsonl"]),
    default=None,
    help="Counts as JSON or CSV, or a hand log to tally (default: from the extension).",
)
@shoe_options
@click.option(
    "--alpha",
    default="0.01",
    show_default=True,
    metavar="LEVEL",
    help="Significance level (Bonferroni-corrected over the families tested).",
)
@click.option(
    "--family",
    "families",
    multiple=True,
    metavar="NAME",
    help="Test only this family (repeatable): winner, player_total, banker_total, cards, natural, bet:NAME.",
)
@click.option(
    "--bet",
    "bet_specs",
    multiple=True,
    metavar="NAME[:PARAM]",
    help="With a hand log: also tally this catalogue bet's win/push/loss (repeatable).",
)
@click.option(
    "--cut-card/--no-cut-card",
    "cut_card",
    default=None,
    help="Whether coups were dealt through shoes with a cut card (adds the cut-card note).",
)
@output_options
@limit_options(counts_files=True)
@guard
def conform(
    observed: str,
    observed_format: str | None,
    decks: int | None,
    shoe_text: str | None,
    remove: str | None,
    rules: str,
    alpha: str,
    families: tuple[str, ...],
    bet_specs: tuple[str, ...],
    cut_card: bool | None,
    fmt: str,
    digits: int,
    output: str | None,
    raw_csv: bool,
    max_line: int,
    max_bytes: int,
) -> None:
    """Test an implementation's simulated outcome counts against the exact probabilities.

    OBSERVED holds counts per family (winner, player_total, banker_total, cards, natural,
    bet:NAME) as JSON or CSV, or is a hand log whose coups are tallied.  Prints the exact
    expected probabilities beside the observed frequencies, standardised residuals, and a
    chi-square test per family with its p-value and verdict.  Exit code 0: conforms; 1: does
    not; 2: unreadable input.
    """
    from analyzer.checks.conform import conform as run
    from analyzer.checks.conform import conformance_tables, parse_alpha, read_observed
    from analyzer.core.shoe import Shoe
    from analyzer.output.files import refuse_inputs
    from analyzer.output.render import context_of, render

    refuse_inputs([output], [observed])
    level = parse_alpha(alpha)
    tableau = tableau_of(rules)
    counts = read_observed(
        observed, observed_format, bet_specs, max_line=max_line, max_bytes=max_bytes, tableau=tableau
    )
    if decks is None and shoe_text is None and (counts.decks is not None or counts.shoe is not None):
        shoe = Shoe.parse(counts.shoe) if counts.shoe is not None else Shoe.standard(counts.decks or 8)
        shoe = removed(shoe, remove)
    else:
        shoe = build_shoe(decks, shoe_text, remove)
    if cut_card is not None:
        counts.cut_card = cut_card
    result = run(counts, shoe, level, list(families) or None, tableau=tableau)
    tables = conformance_tables(result)
    info = meta(command_line(), shoe, tableau)
    emit(render(tables, fmt, digits, info, raw_csv=raw_csv, context=context_of(shoe, tableau)), output)
    if not result.passed:
        sys.exit(1)
