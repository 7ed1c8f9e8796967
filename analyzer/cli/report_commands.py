"""The ``report`` command: the game-math report of bets, for a test lab (Markdown, HTML, xlsx, PDF)."""

from __future__ import annotations

import hashlib
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
    ".pdf": "pdf",
}


def report_format(fmt: str | None, output: str | None) -> str:
    """The format of ``report``: ``--format`` when given, else the one ``-o``'s extension
    implies (:data:`EXTENSION_FORMATS`), else Markdown (standard output, or a file whose
    extension names no report format, such as ``/dev/stdout``).

    Raises:
        UsageProblem: xlsx or PDF without an output file; ``--format`` contradicting the
            format ``-o``'s extension names (``--format pdf -o report.md``).
    """
    implied = EXTENSION_FORMATS.get(Path(output).suffix.lower()) if output else None
    if fmt is not None and implied is not None and fmt != implied:
        raise UsageProblem(
            f"--format {fmt} contradicts -o {Path(output or '').name[:60]!r}, a {implied} file name: "
            f"give a .{'md' if fmt == 'markdown' else fmt} file, or drop --format"
        )
    if fmt is None:
        fmt = EXTENSION_FORMATS.get(Path(output).suffix.lower(), "markdown") if output else "markdown"
    if fmt == "xlsx" and output is None:
        raise UsageProblem("--format xlsx writes a binary workbook: give the file with -o FILE.xlsx")
    if fmt == "pdf" and output is None:
        raise UsageProblem("--format pdf writes a PDF document: give the file with -o FILE.pdf")
    return fmt


def bet_file_paths(bet_specs: tuple[str, ...], bet_files: tuple[str, ...]) -> list[str]:
    """The bet files the command reads (``--bet-file FILE`` and ``--bet FILE:NAME``), each once,
    in order."""
    from analyzer.bets.choice import split_file_spec  # lazy: start-up time

    paths = list(bet_files)
    for spec in bet_specs:
        picked = split_file_spec(spec)
        if picked is not None:
            paths.append(picked[0])
    return list(dict.fromkeys(paths))


def bet_file_digests(bet_specs: tuple[str, ...], bet_files: tuple[str, ...]) -> str:
    """The SHA-256 of each bet file the command reads (:func:`bet_file_paths`), as ``"FILE
    sha256:HEX"`` joined by ``"; "``; ``"none (catalogue bets)"`` when there is none.  A file
    that cannot be read is left for the bet reader to report."""
    out: list[str] = []
    for path in bet_file_paths(bet_specs, bet_files):
        try:
            digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
        except OSError:
            continue
        out.append(f"{path} sha256:{digest}")
    return "; ".join(out) if out else "none (catalogue bets)"


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
    help="Also solve each pay for this house edge (percent), besides the fair pay.",
)
@click.option(
    "--adjust",
    metavar="EVENT",
    default=None,
    help="Solve for the pay of this line (its event text, e.g. 'Non-natural win by 9') instead of each "
    "bet's adjustable line; any line of a multi-line bet.",
)
@click.option(
    "--scale",
    is_flag=True,
    help="Solve for one factor on every winning pay of each bet instead (pushes and losses unchanged).",
)
@click.option(
    "--count-shoes",
    type=WholeNumber(0),
    default=200,
    show_default=True,
    metavar="N",
    help="Shoes of the counting exposure (a seeded shoe walk of perfect play and the EOR count, as "
    "'study' runs it, on the EOR shoe); 0 leaves the section out.",
)
@click.option(
    "--sorting/--no-sorting",
    default=True,
    show_default=True,
    help="The exposure to partial information: the best one-card and four-card edge sorts "
    "against each bet ('peek'; a few seconds a bet).",
)
@click.option(
    "--count-seed",
    type=WholeNumber(0),
    default=0,
    show_default=True,
    metavar="SEED",
    help="Seed of the counting exposure's shoes (printed in the report).",
)
@click.option(
    "--eor-decks",
    type=WholeNumber(1),
    default=None,
    help="The shoe of the effects of removal (default: the largest of --decks).",
)
@output_options(
    formats=("markdown", "html", "xlsx", "pdf"),  # output.report.REPORT_FORMATS, not imported at start-up
    default=None,
    format_help="Report format (default: from -o's extension .md / .html / .xlsx / .pdf; else Markdown).",
    digits_help="Decimals shown, rounded exactly (never through a float); xlsx shows at most 15.",
    output_help="Write to this file (atomically; required for xlsx and pdf). A Markdown report gets its EOR "
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
    adjust: str | None,
    scale: bool,
    count_shoes: int,
    sorting: bool,
    count_seed: int,
    eor_decks: int | None,
    fmt: str | None,
    digits: int,
    output: str | None,
    max_bets: int,
) -> None:
    """The game-math report a bet's designer sends to a test lab (a par sheet): what produced it
    (version, date, command, rules and their fingerprint, shoes, bet files' SHA-256), the
    drawing rules; for each bet its rules and source, the pay table, the par sheet per deck
    count (house edge per hand and per resolved hand, RTP, element of risk, hit frequency, SD,
    volatility index, largest win, the fair pay and the pay for a target house edge), the
    house's win-rate band after 100 to 1,000,000 hands, the exact values, the events table
    (pays, combinations, probability, return), the effects of removal with a chart (needs
    matplotlib: the 'plot' extra) and the closed forms in the number of decks; the counting
    exposure (a seeded shoe walk); a glossary.

    Formats: Markdown, one self-contained HTML page (charts embedded), an xlsx workbook (needs
    openpyxl: the 'report' extra), or PDF (printed by Chromium), e.g.
    ``punto-banco report --bet banker --bet tie --decks 1-8 -o report.pdf``.
    The date is today's (UTC), or that of SOURCE_DATE_EPOCH when set.
    """
    from analyzer.bets.main import parse_amount  # lazy: start-up time
    from analyzer.output.files import refuse_existing, refuse_inputs, write_files  # lazy: start-up time
    from analyzer.output.render import provenance  # lazy: start-up time
    from analyzer.output.report import (  # lazy: start-up time
        chart_paths,
        decks_text,
        report_date,  # lazy: start-up time
        report_files,
    )
    from analyzer.studies.bet_result import choose_bets  # lazy: start-up time
    from analyzer.studies.report_data import file_definitions, game_math_report  # lazy: start-up time

    if not bets_named(bet_specs, bet_files):
        raise UsageProblem(
            "name the bets to report on: --bet NAME (repeatable), --bet-file FILE or --bet-module MODULE:NAME"
        )
    chosen_format = report_format(fmt, output)
    tableau = tableau_of(rules)
    inputs = [*bet_inputs(bet_specs, bet_files), *INPUTS]
    refuse_inputs([output], inputs)
    edge = parse_amount(target_edge, "--target-edge") / 100
    if not -1 < edge < 1:
        raise UsageProblem(
            f"bad --target-edge {target_edge.strip()[:40]}: "
            "a house edge is a percentage above -100 and below 100"
        )
    if adjust is not None and scale:
        raise UsageProblem("--adjust and --scale are two ways to price a ladder: give one of them")
    if adjust is not None and not adjust.strip():
        raise UsageProblem("empty --adjust: give the event text of a pay line, e.g. 'Non-natural win by 9'")
    date = report_date()
    bets = choose_bets(bet_specs, bet_files, max_bets=max_bets)
    charts = chart_paths(chosen_format, output, len(bets))
    refuse_existing(charts)  # files the user did not name are created, never replaced: check now
    info = provenance(
        command_line(),
        f"standard shoes of {decks_text(decks)}",
        tableau.describe(),
        date=date,
        rules_fingerprint=tableau.fingerprint,
    )
    info["bet_files"] = bet_file_digests(bet_specs, bet_files)
    doc = game_math_report(
        bets,
        decks,
        target_edge=edge,
        eor_decks=eor_decks,
        tableau=tableau,
        meta=info,
        adjust=adjust,
        scale=scale,
        count_shoes=count_shoes,
        count_seed=count_seed,
        sorting=sorting,
        definitions=file_definitions(bet_file_paths(bet_specs, bet_files)),
    )
    files = report_files(doc, chosen_format, output, digits)
    if output is None:
        text = files.pop("")
        assert isinstance(text, str)
        emit(text, None)
        return
    refuse_inputs(list(files), inputs)
    # the report (named by the user) and its charts (created new): all or nothing
    write_files({Path(k): v for k, v in files.items()}, new=[Path(c) for c in charts])
