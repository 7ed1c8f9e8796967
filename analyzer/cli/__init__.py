"""The ``punto-banco`` command line: parse, call the library, print (the only click import).

Library errors become one-line messages with exit code 2; no command leaves a partial file.
How a process ends (exit codes, signals, a closed pipe) is :mod:`analyzer.cli.process`.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shlex
import sys
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from analyzer import __version__
from analyzer.bets.files import MAX_BETS_ENV, MAX_BETS_PER_FILE
from analyzer.checks.logs import MAX_FILE_BYTES, MAX_FILE_ENV, MAX_LINE_CHARS, MAX_LINE_ENV, whole_number
from analyzer.cli.process import (
    DEBUG_ENV,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_PIPE,
    EXIT_USAGE,
    Ended,
    ascii_fallback,
    echo,
    env_flag,
    say,
    signals_raise,
    silence_stdout,
)
from analyzer.errors import AnalyzerError
from analyzer.text import printable

FuncT = TypeVar("FuncT", bound=Callable[..., Any])


class OneLineErrors(click.Group):
    """The command group: every way a command can end is one line (or none) and one exit code
    (see :mod:`analyzer.cli.process`): usage and library errors 2, an internal error 70 (the
    traceback only with ``--debug`` or ``PUNTO_BANCO_DEBUG=1``), an interrupt 130, SIGTERM /
    SIGHUP 128 + the signal, a closed standard output 141, quietly."""

    #: Set by ``--debug`` (and ``PUNTO_BANCO_DEBUG``) for the run in progress.
    debug = False

    def main(
        self, args: Sequence[str] | None = None, prog_name: str | None = None,
        complete_var: str | None = None, standalone_mode: bool = True, **extra: Any,
    ) -> Any:
        run = super().main
        if not standalone_mode:
            return run(args, prog_name, complete_var, standalone_mode=False, **extra)
        OneLineErrors.debug = env_flag(DEBUG_ENV)
        with signals_raise(), ascii_fallback():
            code = self._run(run, args, prog_name, complete_var, **extra)
        sys.exit(code)

    @staticmethod
    def _run(run: Callable[..., Any], *args: Any, **extra: Any) -> int:
        """Run the command; return its exit code, having said (at most) one line."""
        try:
            try:
                code = run(*args, standalone_mode=False, **extra)
            except SystemExit as exc:  # a command's own exit code (1: a finding)
                code = exc.code
            sys.stdout.flush()
        except click.ClickException as exc:
            hint = ""
            if isinstance(exc, click.UsageError) and exc.ctx is not None:
                hint = f" (see '{exc.ctx.command_path} --help')"
            say(printable(f"Error: {exc.format_message()}{hint}"))
            return EXIT_USAGE
        except (click.Abort, KeyboardInterrupt):
            say("interrupted")
            return EXIT_INTERRUPTED
        except Ended as exc:
            say(f"ended by {exc.name}")
            return 128 + exc.signum
        except BrokenPipeError:  # the reader went away (`| head`): stop quietly, as Unix tools do
            silence_stdout()
            return EXIT_PIPE
        except Exception as exc:
            if OneLineErrors.debug:
                with contextlib.suppress(OSError, ValueError):
                    traceback.print_exception(exc, file=sys.stderr)
            words = printable(str(exc))
            words = words if len(words) <= 300 else words[:297] + "..."
            say(f"internal error: {type(exc).__name__}{': ' + words if words else ''}; rerun with --debug "
                f"or {DEBUG_ENV}=1 for the traceback")
            return EXIT_INTERNAL
        return code if isinstance(code, int) else 0

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        """As click's, but a closed standard output (help printed into ``| head``) ends with exit
        code 141 (click itself would exit 1)."""
        try:
            return super().make_context(info_name, args, parent, **extra)
        except BrokenPipeError:
            silence_stdout()
            raise click.exceptions.Exit(EXIT_PIPE) from None

    def invoke(self, ctx: click.Context) -> Any:
        """As click's, with a closed standard output ending as in :meth:`make_context`."""
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            silence_stdout()
            raise click.exceptions.Exit(EXIT_PIPE) from None


class UsageProblem(click.ClickException):
    """A bad input reported as one line, exit code 2."""

    exit_code = EXIT_USAGE

    def show(self, file: Any = None) -> None:
        say(printable(f"Error: {self.format_message()}"))


def _guard(func: FuncT) -> FuncT:
    """Turn library errors (bad cards, shoes, bets, files) into exit-code-2 one-liners.  A closed
    standard output (BrokenPipeError) passes through, to end quietly (exit code 141)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except AnalyzerError as exc:
            raise UsageProblem(str(exc)) from None
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise UsageProblem(f"{exc.filename or ''}: {exc.strerror or exc}".strip(": ")) from None

    return wrapper  # type: ignore[return-value]


class WholeNumber(click.IntRange):
    """A whole number from ``minimum`` to ``maximum`` (if given), read as every number of the
    tool is read (:func:`analyzer.checks.logs.whole_number`: ASCII digits only, so ``８``,
    ``1_000`` and ``+8`` are errors in every integer option, as in ``--shoe``, where click's
    ``int()`` would accept them); the range is checked and shown in the help as click's
    ``IntRange`` does."""

    def __init__(self, minimum: int = 0, maximum: int | None = None) -> None:
        super().__init__(min=minimum, max=maximum)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """``value`` as an int in range, or a usage error naming it."""
        number = whole_number(value)
        if number is None:
            self.fail(f"{value!r} is not a whole number (digits 0-9)", param, ctx)
        return super().convert(number, param, ctx)


def limit_options(counts_files: bool) -> Callable[[FuncT], FuncT]:
    """--max-line-length (and, with ``counts_files``, --max-file-size): the bounds of the shared
    reader (:mod:`analyzer.checks.logs`), each also set by its environment variable."""

    def decorate(func: FuncT) -> FuncT:
        if counts_files:
            func = click.option(
                "--max-file-size", "max_bytes", type=WholeNumber(1), default=MAX_FILE_BYTES, metavar="BYTES",
                envvar=MAX_FILE_ENV, show_envvar=True, show_default=True,
                help="Largest counts file read (a larger one is an error naming the file and the limit).",
            )(func)
        return click.option(
            "--max-line-length", "max_line", type=WholeNumber(1), default=MAX_LINE_CHARS, metavar="CHARS",
            envvar=MAX_LINE_ENV, show_envvar=True, show_default=True,
            help="Longest line read from a log (a longer one is an error naming the file and the limit).",
        )(func)

    return decorate


def _shoe_options(decks_help: str) -> Callable[[FuncT], FuncT]:
    """--decks / --shoe / --remove, with ``decks_help`` for --decks."""

    def decorate(func: FuncT) -> FuncT:
        func = rules_option(func)
        func = click.option("--remove", "remove", default=None, metavar="CARDS",
                            help="Cards to take out of the shoe, e.g. 'K 5h 5 A' (suit optional).")(func)
        func = click.option("--shoe", "shoe_text", default=None, metavar="COUNTS",
                            help="Shoe as 13 counts A,2,...,9,10,J,Q,K (e.g. 32,32,...), as RANK=COUNT "
                            "pairs (e.g. 8=2,K=3), or with suits: 52 counts or pairs such as Kh=2.")(func)
        func = click.option("--decks", type=WholeNumber(1), default=None, help=decks_help)(func)
        return func

    return decorate


def rules_option(func: FuncT) -> FuncT:
    """--rules NAME|FILE: the tableau (a registered rule set or a TOML rules file)."""
    return click.option("--rules", "rules", default="standard", show_default=True, metavar="NAME|FILE",
                        help="The tableau: a rule set by name (see 'punto-banco rules --list') or a TOML "
                        "rules file.")(func)


def tableau_of(rules: str) -> Any:
    """The tableau chosen by --rules."""
    from analyzer.core.tableau import find_tableau

    return find_tableau(rules)


#: --decks / --shoe / --remove for commands that analyse a shoe (8 decks by default).
shoe_options = _shoe_options("Standard shoe of N 52-card decks (default 8).")
#: The same for `verify`, where a shoe is optional and turns on the shoe check.
shoe_check_options = _shoe_options(
    "Check every card against a standard shoe of N decks (default: no shoe check)."
)


#: --raw-csv, on every command that writes CSV.
raw_csv_option = click.option(
    "--raw-csv", is_flag=True,
    help="CSV cells exactly as computed: do not prefix a text cell starting with = + - @ with a single "
    "quote (the guard against spreadsheet formulas; numbers are never changed).")


def output_options(func: FuncT) -> FuncT:
    """--format / --digits / --output / --raw-csv."""
    from analyzer.output.render import FORMATS

    func = raw_csv_option(func)
    func = click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), default=None,
                        help="Write to this file (atomically) instead of standard output.")(func)
    func = click.option("--digits", type=WholeNumber(0, 1000), default=10, show_default=True,
                        help="Decimals shown, rounded exactly (never through a float).")(func)
    func = click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
                        help="Output format; JSON keeps every exact value.")(func)
    return func


def build_shoe(decks: int | None, shoe_text: str | None, remove: str | None) -> Any:
    """The shoe chosen by the shared options (default: 8 decks)."""
    from analyzer.core.shoe import Shoe

    if decks is not None and shoe_text is not None:
        raise UsageProblem("give --decks or --shoe, not both")
    shoe = Shoe.parse(shoe_text) if shoe_text is not None else Shoe.standard(decks or 8)
    return removed(shoe, remove)


def removed(shoe: Any, remove: str | None) -> Any:
    """``shoe`` without the cards of ``--remove`` (none when the option is not given).

    Raises:
        UsageProblem: ``--remove`` names no card at all (``' '``, ``','``): removing nothing
            silently would analyse the wrong shoe.
    """
    if remove is None:
        return shoe
    if not remove.replace(",", " ").split():
        raise UsageProblem(f"--remove {remove!r} names no card: give the cards to take out, "
                           "e.g. --remove 'K 5h'")
    return shoe.remove(remove)


def emit(text: str, output: str | None) -> None:
    """Print, or write ``output`` atomically (a temporary file renamed into place)."""
    if output is None:
        echo(text, nl=False)
        return
    write_atomic(Path(output), text)


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (see :func:`analyzer.output.files.write_files`)."""
    from analyzer.output.files import write_files

    write_files({path: text})


def meta(command: str, shoe: Any, tableau: Any = None) -> dict[str, object]:
    """What produced a table: tool and version, the command, the rules, the shoe."""
    from analyzer.output.render import provenance

    return provenance(command, shoe.describe(), tableau.describe() if tableau is not None else None)


def _command_line() -> str:
    return "punto-banco " + " ".join(shlex.quote(a) for a in sys.argv[1:])


EPILOG = f"""\b
Exit codes:
  0    success
  1    a finding: verify found discrepancies, conform found a misfit
  2    bad input or usage (one line naming the problem)
  70   internal error (one line; the traceback with --debug or {DEBUG_ENV}=1)
  130  interrupted (Ctrl-C); 129 / 143: ended by SIGHUP / SIGTERM (128 + signal)
  141  standard output closed (e.g. | head): stops quietly

\b
Environment:
  {DEBUG_ENV + "=1":<28} print the traceback of an internal error
  {MAX_LINE_ENV:<28} longest line read from a log (verify, conform)
  {MAX_FILE_ENV:<28} largest counts file read (conform)
  {MAX_BETS_ENV:<28} most bets read from one bet file (bets)
"""


@click.group(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]}, epilog=EPILOG)
@click.version_option(__version__, prog_name="punto-banco")
@click.option("--debug", is_flag=True, help=f"Print the traceback of an internal error (also {DEBUG_ENV}=1).")
def main(debug: bool) -> None:
    """Exact combinatorial analyser for Punto Banco (baccarat).

    Every probability is exact: the analyser counts every ordered way the coup can be dealt
    from the shoe, with integer weights, under the fixed tableau.
    """
    if debug:
        OneLineErrors.debug = True


@main.command()
@shoe_options
@click.option("--table", "table_names", default="outcomes,bets", show_default=True, metavar="NAMES",
              help="Tables to print, comma-separated: outcomes, bets, totals, cards, naturals, or all.")
@output_options
@_guard
def analyze(decks: int | None, shoe_text: str | None, remove: str | None, rules: str, table_names: str,
            fmt: str, digits: int, output: str | None, raw_csv: bool) -> None:
    """Print the exact outcome and main-bet tables for a shoe (default: 8 decks)."""
    from analyzer.engine.evaluate import one_shot
    from analyzer.engine.pricing import analyze as run
    from analyzer.output.render import render
    from analyzer.output.tables import TABLE_NAMES, analysis_tables

    names = _table_names(table_names, TABLE_NAMES)
    shoe = build_shoe(decks, shoe_text, remove)
    tableau = tableau_of(rules)
    with one_shot():
        tables = analysis_tables(run(shoe, tableau=tableau), names)
    emit(render(tables, fmt, digits, meta(_command_line(), shoe, tableau), raw_csv=raw_csv), output)


def _table_names(text: str, known: Sequence[str]) -> list[str]:
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    if names == ["all"]:
        return list(known)
    bad = [n for n in names if n not in known]
    if bad or not names:
        raise UsageProblem(f"bad --table {text!r}: use {', '.join(known)} or all (comma-separated)")
    return names


@main.command()
@click.argument("cards", nargs=-1, required=True)
@rules_option
@_guard
def deal(cards: tuple[str, ...], rules: str) -> None:
    """Resolve one coup from CARDS in dealing order (Player, Banker, Player, Banker, then third
    cards), e.g. ``punto-banco deal 2 4 3 10 6 A``."""
    from analyzer.core.cards import parse_cards
    from analyzer.core.coup import resolve

    tableau = tableau_of(rules)
    parsed = parse_cards(list(" ".join(cards).replace(",", " ").split()))
    coup = resolve(parsed, tableau)
    echo(coup.announce())
    for line in _deal_story(coup, tableau):
        echo(f"  {line}")
    if len(parsed) > coup.cards_dealt:
        extra = " ".join(str(c) for c in parsed[coup.cards_dealt:])
        echo(f"  (the coup used {coup.cards_dealt} cards; not dealt: {extra})")


def _deal_story(coup: Any, tableau: Any) -> list[str]:
    p2, b2 = coup.player_two_card_total, coup.banker_two_card_total
    player, banker = coup.player, coup.banker
    lines = [f"Player {player[0]} {player[1]} = {p2}; Banker {banker[0]} {banker[1]} = {b2}"]
    if coup.natural:
        lines.append("A natural: both hands stand.")
        return lines
    lines.append(tableau.player_rule_text(p2) + (f": draws {coup.player[2]}" if coup.player_drew else "."))
    lines.append(tableau.banker_rule_text(b2, coup.player_third)
                 + (f": draws {coup.banker[2]}" if coup.banker_drew else "."))
    return lines


@main.command("rules")
@click.argument("spec", required=False, default="standard", metavar="[NAME|FILE]")
@click.option("--toml", "toml_only", is_flag=True, help="Print only the TOML (to save as a rules file).")
@click.option("--list", "list_only", is_flag=True, help="List the registered rule sets and exit.")
@_guard
def rules_command(spec: str, toml_only: bool, list_only: bool) -> None:
    """Print a tableau (default: standard) as the Table of Play and as the TOML rules file that
    --rules reads back."""
    from analyzer.core.tableau import TABLEAUX

    if list_only:
        for name, t in TABLEAUX.items():
            echo(f"{name:<34} {t.title} (fingerprint {t.fingerprint})")
        return
    tableau = tableau_of(spec)
    if toml_only:
        echo(tableau.to_toml(), nl=False)
        return
    echo("\n".join(tableau.table_of_play()))
    echo(f"Fingerprint: {tableau.fingerprint}")
    echo("")
    echo(tableau.to_toml(), nl=False)


@main.command()
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="results", show_default=True,
              help="Folder to write the generated tables into.")
@_guard
def tables(out_dir: str) -> None:
    """Regenerate every committed file in results/: analysis tables for 1, 2, 4, 6, 8 decks and
    the bet catalogue for 1, 6, 8 decks (Markdown and JSON), and the closed forms in the number
    of decks (Markdown and LaTeX).

    All or nothing: the files are written into a sibling folder that is then swapped into
    place.  An existing folder may hold only these files (it is refused otherwise)."""
    from analyzer.errors import OutputError
    from analyzer.output.files import replace_folder
    from analyzer.output.results import generate

    if not out_dir.strip():
        raise OutputError("empty --out: give a folder, e.g. --out results/")
    files = generate()  # everything is built in memory first: no partial output on error
    replace_folder(out_dir, files)  # a sibling folder swapped into place: all or nothing
    echo(f"wrote {len(files)} files to {out_dir}")


@main.command()
@shoe_options
@click.option("--bet", "bet_specs", multiple=True, metavar="NAME[:PARAM]",
              help="A catalogue bet (repeatable), e.g. banker, banker:4, tie:9, dragon-7, egalite:5.")
@click.option("--bet-file", "bet_files", multiple=True, type=click.Path(dir_okay=False),
              help="A TOML file of user-defined bets (repeatable).")
@click.option("--all", "all_bets", is_flag=True, help="Every catalogue bet.")
@click.option("--events", is_flag=True, help="Also print each bet's events table.")
@click.option("--fair-pay", is_flag=True, help="Also print the pay at which each adjustable bet is fair.")
@click.option("--target-edge", default=None, metavar="PERCENT",
              help="Also print the pay giving this house edge, e.g. 1.5 (percent).")
@click.option("--list", "list_only", is_flag=True,
              help="List the catalogue and exit (alone: not with bets, shoes or bet options).")
@click.option("--max-bets", type=WholeNumber(1), default=MAX_BETS_PER_FILE, show_default=True, metavar="N",
              envvar=MAX_BETS_ENV, show_envvar=True,
              help="Most bets read from one --bet-file (a file with more is an error naming the limit).")
@output_options
@_guard
def bets(decks: int | None, shoe_text: str | None, remove: str | None, rules: str, bet_specs: tuple[str, ...],
         bet_files: tuple[str, ...], all_bets: bool, events: bool, fair_pay: bool,
         target_edge: str | None, list_only: bool, max_bets: int, fmt: str, digits: int,
         output: str | None, raw_csv: bool) -> None:
    """Exact house edge, EV, hit frequency and SD of bets (default: the main bets) on a shoe."""
    from analyzer.output.bet_tables import bet_report, catalogue_listing
    from analyzer.output.files import refuse_inputs
    from analyzer.output.render import render

    refuse_inputs([output], bet_files)
    if list_only:
        given = [name for name, value in (
            ("--bet", bet_specs), ("--bet-file", bet_files), ("--all", all_bets), ("--events", events),
            ("--fair-pay", fair_pay), ("--target-edge", target_edge), ("--decks", decks),
            ("--shoe", shoe_text), ("--remove", remove)) if value not in (None, False, ())]
        if given:
            raise UsageProblem(f"--list prints the catalogue and takes no {', '.join(given)}: give --list "
                               "alone, or the bets without --list")
        emit(render([catalogue_listing()], fmt, digits, raw_csv=raw_csv), output)
        return
    from analyzer.engine.evaluate import one_shot

    shoe = build_shoe(decks, shoe_text, remove)
    tableau = tableau_of(rules)
    with one_shot():
        tables = bet_report(shoe, bet_specs, bet_files, all_bets=all_bets, events=events,
                            fair_pay=fair_pay, target_edge=target_edge, tableau=tableau, max_bets=max_bets)
    emit(render(tables, fmt, digits, meta(_command_line(), shoe, tableau), raw_csv=raw_csv), output)


@main.command()
@click.option("--bet", "bet_specs", multiple=True, metavar="NAME[:PARAM]",
              help="A catalogue bet (repeatable), e.g. banker, tie:9, dragon-7 (default: the main bets).")
@click.option("--all", "all_bets", is_flag=True, help="Every catalogue bet.")
@click.option("--table", "table_names", default="outcomes", show_default=True, metavar="NAMES",
              help="Engine tables, comma-separated: outcomes, totals, naturals, cards, all, or none.")
@click.option("--quantity", "quantity_names", default="all", show_default=True, metavar="NAMES",
              help="Bet quantities, comma-separated: house-edge, resolved, ev, variance, pay, or all.")
@click.option("--target-edge", default=None, metavar="PERCENT",
              help="Solve the pays for this house edge (percent) instead of the fair pays.")
@click.option("--crossing", "crossing_levels", multiple=True, metavar="PERCENT",
              help="Smallest number of decks at which each bet's house edge crosses PERCENT (repeatable).")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "latex", "json"]), default="text",
              show_default=True, help="Output format; JSON keeps every exact value and coefficient.")
@click.option("--digits", type=WholeNumber(0, 1000), default=10, show_default=True,
              help="Decimals shown, rounded exactly (never through a float).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write to this file (atomically) instead of standard output.")
@_guard
def symbolic(bet_specs: tuple[str, ...], all_bets: bool, table_names: str, quantity_names: str,
             target_edge: str | None, crossing_levels: tuple[str, ...], fmt: str, digits: int,
             output: str | None) -> None:
    """Closed forms in the number of decks d: each probability, EV, house edge, variance and
    fair pay as an exact rational function of d, with its infinite-deck limit, its 1/d
    correction and its values for the first deck counts."""
    from analyzer.bets.catalogue import parse_amount
    from analyzer.core.shoe import Shoe
    from analyzer.studies.symbolic import ENGINE_TABLES, QUANTITIES, STANDARD_SHOE, symbolic_report

    names = [] if table_names.strip().lower() == "none" else _table_names(table_names, ENGINE_TABLES)
    quantities = [q.strip().lower() for q in quantity_names.split(",") if q.strip()]
    quantities = list(QUANTITIES) if quantities == ["all"] else quantities
    edge = None if target_edge is None else parse_amount(target_edge, "--target-edge") / 100
    levels = [parse_amount(x, "--crossing") / 100 for x in crossing_levels]
    info = {**meta(_command_line(), Shoe.standard(1)), "shoe": STANDARD_SHOE}
    emit(symbolic_report(bet_specs, all_bets=all_bets, tables=names, quantities=quantities,
                         target_edge=edge, crossings=levels, fmt=fmt, digits=digits, meta=info), output)


@main.command()
@click.argument("log", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--log-format", type=click.Choice(["csv", "jsonl"]), default=None,
              help="Format of LOG (default: from its extension, .csv or .jsonl/.ndjson).")
@shoe_check_options
@click.option("--paid", "paid_means", type=click.Choice(["net", "returned"]), default="net",
              show_default=True,
              help="What a settled amount means: net win (0 push, -stake loss) or the amount returned.")
@click.option("--format", "fmt", type=click.Choice(["text", "jsonl", "csv"]), default="text",
              show_default=True, help="Format of the discrepancy report.")
@click.option("--max-report", type=WholeNumber(0), default=0, show_default=True,
              help="Report at most N discrepancies (0: all); all are counted.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write the report to this file (atomically) instead of standard output.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on standard error (default: when it is a terminal).")
@raw_csv_option
@limit_options(counts_files=False)
@_guard
def verify(log: str, log_format: str | None, decks: int | None, shoe_text: str | None, remove: str | None,
           paid_means: str, fmt: str, max_report: int, output: str | None, progress: bool | None,
           raw_csv: bool, max_line: int) -> None:
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

    refuse_inputs([output], [log])
    checked = decks is not None or shoe_text is not None or remove is not None
    verifier = Verifier(build_shoe(decks, shoe_text, remove) if checked else None, paid_means)
    log_fmt = detect_format(log, log_format)
    ignored: list[str] = []
    stream: Any = contextlib.nullcontext(sys.stdin) if log == "-" else open_log(log)
    sink_context: Any = open_atomic(output) if output is not None else contextlib.nullcontext(sys.stdout)
    with sink_context as sink, stream as lines:
        size = 0 if log == "-" else os.path.getsize(log)
        show = (sys.stderr.isatty() if progress is None else progress) and size > 0
        bar_context: Any = (click.progressbar(length=size, label="verifying", file=sys.stderr)
                            if show else _no_bar())
        with bar_context as bar:
            sink.write(report_header(fmt))
            shown = 0
            records = read_records(lines, log_fmt, bar.update if show else None, ignored,
                                   name="standard input" if log == "-" else log, max_line=max_line)
            for found in verifier.run(records):
                if not max_report or shown < max_report:
                    sink.write(report_line(found, fmt, raw_csv))
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


@main.command()
@click.argument("observed", type=click.Path(exists=True, dir_okay=False))
@click.option("--observed-format", type=click.Choice(["json", "csv", "log-csv", "log-jsonl"]), default=None,
              help="Counts as JSON or CSV, or a hand log to tally (default: from the extension).")
@shoe_options
@click.option("--alpha", default="0.01", show_default=True, metavar="LEVEL",
              help="Significance level (Bonferroni-corrected over the families tested).")
@click.option("--family", "families", multiple=True, metavar="NAME",
              help="Test only this family (repeatable): winner, player_total, banker_total, cards, "
              "natural, bet:NAME.")
@click.option("--bet", "bet_specs", multiple=True, metavar="NAME[:PARAM]",
              help="With a hand log: also tally this catalogue bet's win/push/loss (repeatable).")
@click.option("--cut-card/--no-cut-card", "cut_card", default=None,
              help="Whether coups were dealt through shoes with a cut card (adds the cut-card note).")
@output_options
@limit_options(counts_files=True)
@_guard
def conform(observed: str, observed_format: str | None, decks: int | None, shoe_text: str | None,
            remove: str | None, alpha: str, families: tuple[str, ...], bet_specs: tuple[str, ...],
            cut_card: bool | None, fmt: str, digits: int, output: str | None, raw_csv: bool, max_line: int,
            max_bytes: int) -> None:
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
    from analyzer.output.render import render

    refuse_inputs([output], [observed])
    level = parse_alpha(alpha)
    counts = read_observed(observed, observed_format, bet_specs, max_line=max_line, max_bytes=max_bytes)
    if decks is None and shoe_text is None and (counts.decks is not None or counts.shoe is not None):
        shoe = Shoe.parse(counts.shoe) if counts.shoe is not None else Shoe.standard(counts.decks or 8)
        shoe = removed(shoe, remove)
    else:
        shoe = build_shoe(decks, shoe_text, remove)
    if cut_card is not None:
        counts.cut_card = cut_card
    result = run(counts, shoe, level, list(families) or None)
    tables = conformance_tables(result)
    emit(render(tables, fmt, digits, meta(_command_line(), shoe), raw_csv=raw_csv), output)
    if not result.passed:
        sys.exit(1)


@main.command()
@shoe_options
@click.option("--bet", "bet_specs", multiple=True, metavar="NAME[:PARAM]",
              help="A catalogue bet (repeatable); default: the main bets.")
@click.option("--all", "all_bets", is_flag=True, help="Every catalogue bet.")
@click.option("--by", type=click.Choice(["rank", "value"]), default="rank", show_default=True,
              help="Remove one card of each rank (A..K) or of each point value (A..9, 10/J/Q/K).")
@click.option("--depth", type=WholeNumber(1, 13), default=4, show_default=True,
              help="Depletion table: remove k = 1..DEPTH cards of one rank (or value).")
@click.option("--max-tag", type=WholeNumber(1, 20), default=3, show_default=True,
              help="Largest |tag| tried for the suggested count systems.")
@click.option("--table", "table_names", default="all", show_default=True, metavar="NAMES",
              help="Tables to print, comma-separated: summary, eor, depletion, published, or all.")
@click.option("--plot", "plot_file", default=None, metavar="FILE.png|svg",
              help="Also draw the EOR chart (needs matplotlib: the 'plot' extra).")
@output_options
@_guard
def eor(decks: int | None, shoe_text: str | None, remove: str | None, bet_specs: tuple[str, ...],
        all_bets: bool, by: str, depth: int, max_tag: int, table_names: str, plot_file: str | None,
        fmt: str, digits: int, output: str | None, raw_csv: bool) -> None:
    """Effects of removal: the exact change in each bet's EV (and house edge) when one card of
    each rank or value leaves the shoe, the sum check, a suggested count system with its betting
    correlation, and the EV after removing k = 1..DEPTH cards of one rank."""
    from analyzer.output.bet_tables import choose_bets
    from analyzer.output.files import same_file, write_files
    from analyzer.output.render import render
    from analyzer.studies.eor import EOR_TABLES, effects_of_removal, eor_tables, plot_image

    names = _table_names(table_names, EOR_TABLES)
    shoe = build_shoe(decks, shoe_text, remove)
    chosen = choose_bets(bet_specs, (), all_bets)
    report = effects_of_removal(shoe, chosen, by=by, depth=depth, max_tag=max_tag)
    text = render(eor_tables(report, names), fmt, digits, meta(_command_line(), shoe), raw_csv=raw_csv)
    if plot_file is None:
        emit(text, output)
        return
    if output is not None and same_file(plot_file, output):
        raise UsageProblem(f"--plot and -o name the same file {plot_file!r}: give two files")
    image = plot_image(report, plot_file)
    # Both targets are checked before either is written: a bad -o leaves no plot behind.
    write_files({plot_file: image, **({output: text} if output is not None else {})})
    if output is None:
        emit(text, None)


from analyzer.cli.study import study as _study; main.add_command(_study)  # noqa: E402, E702, I001

if __name__ == "__main__":  # pragma: no cover
    main()
