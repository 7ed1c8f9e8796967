"""The ``report`` command: the game-math report of bets, for a test lab (Markdown, HTML, xlsx)."""

from __future__ import annotations

from pathlib import Path

import click

from analyzer.cli.common import (
    INPUTS,
    DeckCounts,
    UsageProblem,
    WholeNumber,
    bet_inputs,
    bet_module_option,
    bets_named,
    command_line,
    emit,
    guard,
    output_options,
    rules_option,
    tableau_of,
)
from analyzer.limits import MAX_BETS_ENV, MAX_BETS_PER_FILE

#: The report format an output file's extension implies (lower case).
EXTENSION_FORMATS = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".html": "html",
    ".htm": "html",
    ".xlsx": "xlsx",
}


def report_format(fmt: str | None, output: str | None) -> str:
    """The format of ``report``: ``--format`` when given, else the one ``-o``'s extension
    implies (:data:`EXTENSION_FORMATS`), else Markdown (standard output, or a file whose
    extension names no report format, such as ``/dev/stdout``).

    Raises:
        UsageProblem: xlsx without an output file.
    """
    if fmt is None:
        fmt = EXTENSION_FORMATS.get(Path(output).suffix.lower(), "markdown") if output else "markdown"
    if fmt == "xlsx" and output is None:
        raise UsageProblem("--format xlsx writes a binary workbook: give the file with -o FILE.xlsx")
    return fmt


@click.command()
@click.option(
    "--bet",
    "bet_specs",
    multiple=True,
    metavar="NAME[:PARAM]|FILE:NAME",
    help="A bet to report on (repeatable): a catalogue bet, e.g. banker, tie:9, dragon-7, or "
    "FILE:NAME, the bet NAME of a TOML bet file.",
)
@click.option(
    "--bet-file",
    "bet_files",
    multiple=True,
    type=click.Path(dir_okay=False),
    help="Report on every bet of this TOML bet file (repeatable).",
)
@bet_module_option
@click.option(
    "--decks",
    type=DeckCounts(),
    default="8",
    show_default=True,
    help="Standard shoes to report on: one count, a list (1,6,8) or a range (1-8).",
)
@rules_option
@click.option(
    "--target-edge",
    default="1",
    show_default=True,
    metavar="PERCENT",
    help="Also solve each adjustable pay for this house edge (percent), besides the fair pay.",
)
@click.option(
    "--eor-decks",
    type=WholeNumber(1),
    default=None,
    help="The shoe of the effects of removal (default: the largest of --decks).",
)
@output_options(
    formats=("markdown", "html", "xlsx"),  # output.report.REPORT_FORMATS, not imported at start-up
    default=None,
    format_help="Report format (default: from -o's extension .md / .html / .xlsx; else Markdown).",
    digits_help="Decimals shown, rounded exactly (never through a float); xlsx shows at most 15.",
    output_help="Write to this file (atomically; required for xlsx). A Markdown report gets its EOR "
    "charts as new PNG files beside it (FILE-eor-1.png, ...); if one of those names exists "
    "(a file or a link), the command refuses before it starts and writes nothing.",
    raw_csv=False,
)
@click.option(
    "--max-bets",
    type=WholeNumber(1),
    default=MAX_BETS_PER_FILE,
    show_default=True,
    metavar="N",
    envvar=MAX_BETS_ENV,
    show_envvar=True,
    help="Most bets read from one --bet-file.",
)
@guard
def report(
    bet_specs: tuple[str, ...],
    bet_files: tuple[str, ...],
    decks: tuple[int, ...],
    rules: str,
    target_edge: str,
    eor_decks: int | None,
    fmt: str | None,
    digits: int,
    output: str | None,
    max_bets: int,
) -> None:
    """The game-math report a bet's designer sends to a test lab: for each bet, its rules and
    source, the pay table, the events table (pays, combinations, probability, return) for each
    deck count, house edge, SD, hit frequency, the fair pay and the pay for a target house
    edge, the effects of removal with a chart (needs matplotlib: the 'plot' extra), and the
    closed forms in the number of decks with their limits.

    Formats: Markdown, one self-contained HTML page (charts embedded), or an xlsx workbook
    (needs openpyxl: the 'report' extra), e.g.
    ``punto-banco report --bet banker --bet tie --decks 1-8 -o report.xlsx``.
    """
    from analyzer.bets.main import parse_amount  # lazy: start-up time
    from analyzer.output.bet_tables import choose_bets  # lazy: start-up time
    from analyzer.output.files import refuse_existing, refuse_inputs, write_files  # lazy: start-up time
    from analyzer.output.render import provenance  # lazy: start-up time
    from analyzer.output.report import chart_paths, decks_text, report_files  # lazy: start-up time
    from analyzer.studies.report_data import game_math_report  # lazy: start-up time

    if not bets_named(bet_specs, bet_files):
        raise UsageProblem(
            "name the bets to report on: --bet NAME (repeatable), --bet-file FILE or --bet-module MODULE:NAME"
        )
    chosen_format = report_format(fmt, output)
    tableau = tableau_of(rules)
    inputs = [*bet_inputs(bet_specs, bet_files), *INPUTS]
    refuse_inputs([output], inputs)
    edge = parse_amount(target_edge, "--target-edge") / 100
    bets = choose_bets(bet_specs, bet_files, max_bets=max_bets)
    charts = chart_paths(chosen_format, output, len(bets))
    refuse_existing(charts)  # files the user did not name are created, never replaced: check now
    info = provenance(command_line(), f"standard shoes of {decks_text(decks)}", tableau.describe())
    doc = game_math_report(bets, decks, target_edge=edge, eor_decks=eor_decks, tableau=tableau, meta=info)
    files = report_files(doc, chosen_format, output, digits)
    if output is None:
        text = files.pop("")
        assert isinstance(text, str)
        emit(text, None)
        return
    refuse_inputs(list(files), inputs)
    # the report (named by the user) and its charts (created new): all or nothing
    write_files({Path(k): v for k, v in files.items()}, new=[Path(c) for c in charts])
