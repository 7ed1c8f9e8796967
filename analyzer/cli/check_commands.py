"""The commands that check another implementation: ``verify`` (hand logs), ``conform`` (frequencies)."""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
from fractions import Fraction
from typing import Any

import click

from analyzer.cli.common import (
    UsageProblem,
    WholeNumber,
    bet_choice,
    bet_inputs,
    bet_options,
    build_shoe,
    command_line,
    dash_is_stdout,
    emit,
    guard,
    limit_options,
    meta,
    output_options,
    raw_csv_option,
    rules_inputs,
    shoe_check_options,
    shoe_options,
    tableau_of,
)
from analyzer.cli.process import echo
from analyzer.errors import AnalyzerError, ShoeError
from analyzer.text import printable

#: --map, on verify and conform: how a foreign hand log is written.
map_option = click.option(
    "--map",
    "map_file",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE.toml",
    help="How a hand log from another engine is written: its column names, winner and natural "
    "values, card tokens, dealing order, point values only (docs/checks.md, 'Logs written by "
    "other engines').",
)


@click.command()
@click.argument("log", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--log-format",
    type=click.Choice(["csv", "jsonl"]),
    default=None,
    help="Format of LOG (default: from its extension, .csv or .jsonl/.ndjson, else the map's format).",
)
@map_option
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
    type=click.Path(dir_okay=False, writable=True, allow_dash=True),
    default=None,
    callback=dash_is_stdout,
    help="Write the report to this file (atomically) instead of standard output; '-': standard output.",
)
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Progress bar on standard error (default: when it is a terminal).",
)
@bet_options(
    "A bet the log may name in its bet:NAME columns or bets objects (repeatable); catalogue bets "
    "are always known.",
    "Every bet of this TOML file: the log may name them (repeatable).",
)
@click.option(
    "--diagnose/--no-diagnose",
    default=True,
    show_default=True,
    help="Lead the report with the known engine bugs that explain the findings (each coup replayed "
    "through the catalogue of bugs; --no-diagnose streams the findings as they are met).",
)
@raw_csv_option
@limit_options(counts_files=False)
@guard
def verify(
    log: str,
    log_format: str | None,
    map_file: str | None,
    decks: int | None,
    shoe_text: str | None,
    remove: str | None,
    rules: str,
    paid_means: str,
    fmt: str,
    max_report: int,
    output: str | None,
    progress: bool | None,
    bet_specs: tuple[str, ...],
    bet_files: tuple[str, ...],
    diagnose: bool,
    raw_csv: bool,
    max_line: int,
) -> None:
    """Check a hand log from another implementation against the tableau and the pay tables.

    LOG is CSV or JSON Lines, one coup per record: the cards in dealing order and/or the hands,
    and optionally the claimed totals, winner, naturals and settled bets (docs/checks.md,
    "Hand-log format"): of catalogue bets, or of bets from files given with --bet-file or --bet
    FILE:NAME.  A log written otherwise is read through --map.  The report's first line says
    how the log was read; each discrepancy names its record, line, field, the expected and
    claimed values and the rule.  With --decks or --shoe, also checks that the shoe could still
    hold every card dealt.  The text report leads with the known engine bugs that explain the
    findings (docs/engines.md, "The diagnosis"; standard error with --format jsonl/csv).  Exit
    code 0: every coup conforms; 1: discrepancies; 2: unreadable input.
    """
    from analyzer.checks.diagnose import Diagnoser  # lazy: start-up time
    from analyzer.checks.handlog import MAX_IGNORED, detect_format, read_records  # lazy: start-up time
    from analyzer.checks.logmap import NO_MAP, load_map  # lazy: start-up time
    from analyzer.checks.verify import (  # lazy: start-up time
        Verifier,
        open_log,
        report_header,
        report_line,
        summary_text,
    )
    from analyzer.output.files import open_atomic, refuse_inputs  # lazy: start-up time
    from analyzer.output.render import context_of  # lazy: start-up time

    maps = [map_file] if map_file is not None else []
    refuse_inputs([output], [log, *bet_inputs(bet_specs, bet_files), *rules_inputs(rules), *maps])
    log_map = load_map(map_file) if map_file is not None else NO_MAP
    file_bets = bet_choice(bet_specs, bet_files).file_bets
    checked = decks is not None or shoe_text is not None or remove is not None
    tableau = tableau_of(rules)
    shoe = build_shoe(decks, shoe_text, remove) if checked else None
    verifier = Verifier(shoe, paid_means, tableau=tableau)
    diagnoser = Diagnoser(tableau, shoe, returned=paid_means == "returned") if diagnose else None
    # what the log was checked against, on every data row (the shoe only when it was checked)
    context: dict[str, object] = (
        dict(context_of(shoe, tableau))
        if shoe is not None
        else {"rules": tableau.name, "rules_fingerprint": tableau.fingerprint}
    )
    log_fmt = detect_format(log, log_format, log_map)
    ignored: list[str] = []
    stream: Any = contextlib.nullcontext(sys.stdin) if log == "-" else open_log(log)
    sink_context: Any = open_atomic(output) if output is not None else contextlib.nullcontext(sys.stdout)
    # with a diagnosis, a text report's findings wait on disk (memory stays flat) for the causes
    # that lead the report, known only at the end of the log
    spool: Any = (
        tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES, mode="w+", encoding="utf-8")  # noqa: SIM115
        if diagnoser is not None and fmt == "text"
        else contextlib.nullcontext(None)
    )
    with sink_context as sink, stream as lines, spool as waiting:
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
                file_bets=file_bets,
                log_map=log_map,
            )
            told: list[str] = []

            def tell() -> None:
                """The report's first line, once: how the log was read (said before the first
                finding or the summary, so an unreadable log stops with its one error line)."""
                if not told:
                    told.append(records.described)
                    if fmt == "text":
                        sink.write(told[0] + "\n")
                    else:
                        echo(told[0], err=True)

            hook = diagnoser.after if diagnoser is not None else None
            try:
                for found in verifier.run(records, after=hook):
                    if waiting is None:
                        tell()
                    if not max_report or shown < max_report:
                        (waiting or sink).write(report_line(found, fmt, raw_csv, context))
                        shown += 1
            except AnalyzerError:
                if waiting is not None and shown:  # what was verified before the bad line
                    tell()
                    waiting.seek(0)
                    shutil.copyfileobj(waiting, sink)
                raise
        tell()
        # the causes quote the log's own text (ids, cards): made safe to show, as findings are
        causes = [printable(line) for line in diagnoser.result().lines()] if diagnoser is not None else []
        if waiting is not None:
            sink.writelines(line + "\n" for line in causes)
            waiting.seek(0)
            shutil.copyfileobj(waiting, sink)
        else:
            for line in causes:
                echo(line, err=True)
        summary = summary_text(verifier)
        if max_report and verifier.discrepancies > shown:
            summary += f" (first {shown:,} reported)"
        if fmt == "text":
            sink.write(summary + "\n")
        else:
            echo(summary, err=True)
    if records.described != told[0]:  # read otherwise after the first line was said
        echo(f"note: by the end of the log: {records.described}", err=True)
    if ignored:
        more = " (and more)" if len(ignored) >= MAX_IGNORED else ""
        echo(
            printable(
                f"note: ignored unknown fields, so not checked (--map names a field's column): "
                f"{', '.join(ignored)}{more}"
            ),
            err=True,
        )
    if verifier.discrepancies:
        sys.exit(1)


def _compared(specs: tuple[str, ...]) -> tuple[list[Any], list[str]]:
    """The tableaux and the engine bugs --compare names (comma-separated, repeatable): a
    registered rule set or a rules file is a tableau, else a name of the bug catalogue (not a
    bug of the shoe, which shows over a shoe's coups, not in a coup); ``all``: every registered
    tableau and every bug of the coups that is not one of them."""
    from analyzer.checks.mutants import MUTANTS, find_mutant  # lazy: start-up time
    from analyzer.core.tableau import TABLEAUX  # lazy: start-up time
    from analyzer.errors import MutantError  # lazy: start-up time

    names = [name.strip() for spec in specs for name in spec.split(",") if name.strip()]
    if specs and not names:
        raise UsageProblem(
            f"--compare {specs[0]!r} names no tableau or engine bug: give names or files, comma-separated"
        )
    tableaux: list[Any] = []
    bugs: list[str] = []
    for name in names:
        if name.lower() == "all":
            tableaux += [t for t in TABLEAUX.values() if t not in tableaux]
            bugs += [m.name for m in MUTANTS if m.name not in TABLEAUX and m.kind != "shoe"]
            continue
        key = name.lower().replace("_", "-")
        if key in TABLEAUX or key.endswith(".toml") or "/" in key or os.path.exists(name):
            tableaux.append(tableau_of(name))
            continue
        if key == "correct":
            raise UsageProblem(
                "--compare 'correct': the engine without a bug is the rules themselves: name the rule "
                "set (e.g. standard)"
            )
        try:
            bug = find_mutant(name)
        except MutantError:
            raise UsageProblem(
                f"--compare {name!r} names no tableau, rules file or engine bug: known rule sets are "
                f"{', '.join(TABLEAUX)}; `punto-banco mutants` lists the bugs"
            ) from None
        if bug.kind == "shoe":
            raise UsageProblem(
                f"--compare {name!r}: a bug of the shoe, not of the coups: verify --decks N (or --shoe) "
                "checks every shoe's cards and names it"
            )
        bugs.append(bug.name)
    return tableaux, list(dict.fromkeys(bugs))


#: The findings of a text report held in memory while the log is read; past it, on disk.
SPOOL_BYTES = 1_000_000


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
@map_option
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
    help="Test only this family (repeatable): winner, player_total, banker_total, cards, natural, "
    "player_cell, banker_cell, bet:NAME.",
)
@bet_options(
    "With a hand log: also tally this bet's win/push/loss (repeatable), a catalogue bet or a bet of a file.",
    "The bets of this TOML file (repeatable): tallied from a hand log; counts may name them as "
    "bet:NAME families, and so may --family.",
)
@click.option(
    "--cut-card/--no-cut-card",
    "cut_card",
    default=None,
    help="Whether coups were dealt through shoes with a cut card (adds the cut-card note).",
)
@click.option(
    "--against",
    "against",
    multiple=True,
    metavar="NAME|FILE",
    help="Power against this alternative tableau (repeatable): the coups each test needs to detect it.",
)
@click.option(
    "--effect",
    default="0.01",
    show_default=True,
    metavar="W",
    help="Without --against: the effect size (Cohen's w) the power table is computed for.",
)
@click.option(
    "--power",
    "target_power",
    default="0.9",
    show_default=True,
    metavar="LEVEL",
    help="The power aimed at in the power table (e.g. 0.9, 90%).",
)
@click.option(
    "--compare",
    "compare",
    multiple=True,
    metavar="NAME|FILE,...",
    help="With a hand log: rank these tableaux and engine bugs (punto-banco mutants) by how well the "
    "log fits them (comma-separated, repeatable; 'all': every registered tableau and bug).",
)
@click.option(
    "--paid",
    "paid_means",
    type=click.Choice(["net", "returned"]),
    default="net",
    show_default=True,
    help="With a hand log: what a settled amount claimed means, as for verify.",
)
@click.option(
    "--failing-only",
    is_flag=True,
    default=False,
    help="Show only the failing and void families, the failing decision cells and the wrong claims "
    "(the summary still counts everything).",
)
@output_options
@limit_options(counts_files=True)
@guard
def conform(
    observed: str,
    observed_format: str | None,
    map_file: str | None,
    decks: int | None,
    shoe_text: str | None,
    remove: str | None,
    rules: str,
    alpha: str,
    families: tuple[str, ...],
    bet_specs: tuple[str, ...],
    bet_files: tuple[str, ...],
    cut_card: bool | None,
    against: tuple[str, ...],
    effect: str,
    target_power: str,
    compare: tuple[str, ...],
    paid_means: str,
    failing_only: bool,
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
    chi-square test per family with its p-value and verdict.  A hand log is also checked
    cell by cell against the tableau: one coup the tableau would have dealt otherwise fails at
    once.  The power table gives the coups each test needs to detect an alternative tableau
    (--against) or an effect size (--effect).  --compare ranks tableaux by how well the log
    fits them.  A hand log's claims (totals, winner, naturals, settled bets) are checked as verify
    checks them: one wrong claim fails at once.  A family that would have to leave out coups
    dealt outside the rules is VOID (no verdict on a biased subset).  A hand log written
    otherwise is read through --map; the report's header says how it was read.  Exit code 0:
    conforms (to --rules); 1: does not; 2: unreadable input.
    """
    from analyzer.checks.compare import rank_tableaux  # lazy: start-up time
    from analyzer.checks.conform import conform as run  # lazy: start-up time
    from analyzer.checks.conform import observed_kind, parse_alpha, read_observed  # lazy: start-up time
    from analyzer.checks.logmap import NO_MAP, load_map  # lazy: start-up time
    from analyzer.checks.power import parse_fraction_option  # lazy: start-up time
    from analyzer.output.check_tables import (  # lazy: start-up time
        bug_ranking_table,
        conformance_tables,
        ranking_table,
    )
    from analyzer.output.files import refuse_inputs  # lazy: start-up time
    from analyzer.output.render import context_of, render  # lazy: start-up time

    refuse_inputs(
        [output],
        [
            observed,
            *bet_inputs(bet_specs, bet_files),
            *rules_inputs(rules, *against, *compare),
            *([map_file] if map_file is not None else []),
        ],
    )
    log_map = load_map(map_file) if map_file is not None else NO_MAP
    level = parse_alpha(alpha)
    tableau = tableau_of(rules)
    alternatives = [tableau_of(a) for a in against]
    w = parse_fraction_option(effect, "--effect", Fraction(0), None)
    aim = parse_fraction_option(target_power, "--power", Fraction(0), Fraction(1))
    ranked, bugs = _compared(compare)
    kind = observed_kind(observed, observed_format, log_map)
    choice = bet_choice(bet_specs, bet_files)
    # A hand log tallies every bet chosen; counts name their bets (--bet is refused there).
    tallied = choice.bets if kind.startswith("log-") else bet_specs
    # the counts carry the bets from files their bet:NAME families name (conform tests those)
    counts = read_observed(
        observed,
        kind,
        tallied,
        max_line=max_line,
        max_bytes=max_bytes,
        tableau=tableau,
        file_bets=choice.file_bets,
        log_map=log_map,
        paid_means=paid_means,
        exact_fits=bool(bugs),
    )
    if decks is None and shoe_text is None and (counts.decks is not None or counts.shoe is not None):
        # the counts file's shoe, read as --shoe / --decks would be, its errors naming the file
        try:
            shoe = build_shoe(None if counts.shoe is not None else counts.decks or None, counts.shoe, remove)
        except ShoeError as exc:
            field = "shoe" if counts.shoe is not None else "decks"
            raise ShoeError(f"{observed}: {field}: {exc}") from None
    else:
        shoe = build_shoe(decks, shoe_text, remove)
    if cut_card is not None:
        counts.cut_card = cut_card
    if (ranked or bugs) and counts.decisions is None:
        raise UsageProblem("--compare needs a hand log (the coups' cards): OBSERVED is a counts file")
    result = run(
        counts,
        shoe,
        level,
        list(families) or None,
        tableau=tableau,
        against=alternatives,
        effect=w,
        power=aim,
    )
    tables = conformance_tables(result, summary_first=fmt not in ("json", "csv"), failing_only=failing_only)
    if ranked:
        assert counts.decisions is not None
        tables.append(ranking_table(rank_tableaux(counts.decisions, shoe, ranked), shoe))
    if bugs:
        tables.append(bug_ranking_table([f for f in counts.fits if f.mutant in bugs]))
    # the inputs: a hand log says how it was read
    info = meta(command_line(), shoe, tableau, **({"log": counts.described} if counts.described else {}))
    emit(render(tables, fmt, digits, info, raw_csv=raw_csv, context=context_of(shoe, tableau)), output)
    if not result.passed:
        sys.exit(1)
