"""What every ``punto-banco`` command shares: the option sets (shoe, rules, output, limits),
turning library errors into one-line messages, the shoe from the options, safe output."""

from __future__ import annotations

import contextlib
import errno
import functools
import gc
import importlib
import shlex
import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar, TypeVar, overload

import click

from analyzer.cli.process import (
    DEBUG_ENV,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_PIPE,
    EXIT_USAGE,
    Ended,
    ascii_fallback,
    closed_streams,
    echo,
    env_flag,
    say,
    signal_received,
    signals_raise,
    silence_stdout,
)
from analyzer.core.exact import MAX_NUMBER_CHARS, whole_number
from analyzer.errors import AnalyzerError, ShoeError
from analyzer.limits import (
    LIMIT_CEILING,
    MAX_BETS_PER_FILE,
    MAX_FILE_BYTES,
    MAX_FILE_ENV,
    MAX_LINE_CHARS,
    MAX_LINE_ENV,
)
from analyzer.text import printable, shortened

FuncT = TypeVar("FuncT", bound=Callable[..., Any])


#: What click raises for a group called without a command (8.2 and later: the floor in
#: pyproject.toml; 8.1 printed the help to standard output and exited 0).
_NO_ARGS = click.exceptions.NoArgsIsHelpError


class OneLineErrors(click.Group):
    """The command group: every way a command can end is one line (or none) and one exit code
    (see :mod:`analyzer.cli.process`): usage and library errors 2, an internal error 70 (the
    traceback only with ``--debug`` or ``PUNTO_BANCO_DEBUG=1``), an interrupt 130, SIGTERM /
    SIGHUP 128 + the signal, a closed standard output 141, quietly."""

    #: Set by ``--debug`` (and ``PUNTO_BANCO_DEBUG``) for the run in progress.
    debug = False

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        run = super().main
        if not standalone_mode:
            return run(args, prog_name, complete_var, standalone_mode=False, **extra)
        OneLineErrors.debug = env_flag(DEBUG_ENV)
        closed_streams()
        with signals_raise(), ascii_fallback(), one_line_warnings():
            code = self._run(run, args, prog_name, complete_var, **extra)
        # the process ends: the interpreter's collections at shutdown need not visit every
        # object the command built (a third of a quick command's exit cost); exit handlers run
        gc.freeze()
        sys.exit(code)

    @staticmethod
    def _run(run: Callable[..., Any], *args: Any, **extra: Any) -> int:
        """Run the command; return its exit code, having said (at most) one line."""
        INPUTS.clear()
        try:
            try:
                code = run(*args, standalone_mode=False, **extra)
            except SystemExit as exc:  # a command's own exit code (1: a finding)
                code = exc.code
            flush_stdout()
        except _NO_ARGS as exc:  # the program alone, no command: its help, as --help prints it
            say(exc.format_message().rstrip())
            return EXIT_USAGE
        except click.ClickException as exc:
            hint = ""
            if isinstance(exc, click.UsageError) and exc.ctx is not None:
                hint = f" (see '{exc.ctx.command_path} --help')"
            say(shortened(printable(f"Error: {exc.format_message()}{hint}")))
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
            signum = signal_received()
            if signum is not None:  # the signal ended the run; a library masked its exception
                say("interrupted" if 128 + signum == EXIT_INTERRUPTED else f"ended by {Ended(signum).name}")
                return 128 + signum
            if OneLineErrors.debug:
                import traceback  # lazy: only for --debug, after an internal error

                with contextlib.suppress(OSError, ValueError):
                    traceback.print_exception(exc, file=sys.stderr)
            words = printable(str(exc))
            words = words if len(words) <= 300 else words[:297] + "..."
            say(
                f"internal error: {type(exc).__name__}{': ' + words if words else ''}; rerun with --debug "
                f"or {DEBUG_ENV}=1 for the traceback"
            )
            return EXIT_INTERNAL
        return code if isinstance(code, int) else 0

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """As click's, refusing a single-value option of the group given twice."""
        if not ctx.resilient_parsing:
            refuse_repeats(self, ctx, args)
        return super().parse_args(ctx, args)

    #: command name -> the module of :mod:`analyzer.cli` that defines it (see
    #: :data:`analyzer.cli.COMMANDS`), imported on first use.
    lazy_commands: ClassVar[dict[str, str]] = {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command, loaded or not, in alphabetical order."""
        return sorted({*super().list_commands(ctx), *self.lazy_commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command ``cmd_name``, importing its module the first time it is asked for."""
        if cmd_name not in self.commands and cmd_name in self.lazy_commands:
            module = importlib.import_module(f"analyzer.cli.{self.lazy_commands[cmd_name]}")
            for value in vars(module).values():
                if isinstance(value, click.Command) and value.name in self.lazy_commands:
                    self.add_command(value)
        return super().get_command(ctx, cmd_name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """As click's, refusing a single-value option of the command given twice (every
        command of the group, whoever wrote it: see :func:`refuse_repeats`)."""
        name, command, rest = super().resolve_command(ctx, args)
        if command is not None and not ctx.resilient_parsing:
            refuse_repeats(command, click.Context(command, info_name=name, parent=ctx), rest)
        return name, command, rest

    def make_context(
        self, info_name: str | None, args: list[str], parent: click.Context | None = None, **extra: Any
    ) -> click.Context:
        """As click's, but a closed standard output (help printed into ``| head``) ends with exit
        code 141 (click itself would exit 1)."""
        try:
            return super().make_context(info_name, args, parent, **extra)
        except BrokenPipeError:
            silence_stdout()
            raise click.exceptions.Exit(EXIT_PIPE) from None
        except OSError as exc:  # help or version printed into a full disk (> /dev/full)
            raise stdout_failed(exc) from None

    def invoke(self, ctx: click.Context) -> Any:
        """As click's, with a closed standard output ending as in :meth:`make_context`, and a
        command's help printed into a full disk (``analyze --help > /dev/full``) exit code 2.
        (A command's own errors are turned into one line by :func:`guard` before this.)"""
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            silence_stdout()
            raise click.exceptions.Exit(EXIT_PIPE) from None
        except OSError as exc:
            if exc.filename is None and exc.errno in _WRITE_FAILURES:
                raise stdout_failed(exc) from None
            raise


#: The errors of a write into a full or failing device: standard output cannot be written.
_WRITE_FAILURES = frozenset(
    getattr(errno, name) for name in ("ENOSPC", "EDQUOT", "EFBIG", "EIO") if hasattr(errno, name)
)


def flush_stdout() -> None:
    """Flush standard output at the end of a command.

    Raises:
        BrokenPipeError: the reader went away.  UsageProblem: it cannot be written (a full
            disk, ``> /dev/full``): exit code 2, as for any output that cannot be written.
    """
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise stdout_failed(exc) from None


def stdout_failed(exc: OSError) -> click.ClickException:
    """The one-line error for an ``OSError`` while click or the final flush wrote standard
    output (an error naming a file came from elsewhere and says so); standard output is then
    pointed at the null device, so the flush at exit cannot fail again."""
    if exc.filename is not None:
        return UsageProblem(f"{exc.filename}: {exc.strerror or exc}")
    silence_stdout()
    return UsageProblem(f"cannot write standard output: {exc.strerror or exc}")


@contextlib.contextmanager
def one_line_warnings() -> Any:
    """While the block runs, a warning (say, the cache folder refused) is one line on standard
    error, ``warning: ...``, not Python's two-line format naming a source line."""

    def show(message: Any, *_: Any, **__: Any) -> None:
        say(printable(f"warning: {message}"))

    before = warnings.showwarning
    warnings.showwarning = show
    try:
        yield
    finally:
        warnings.showwarning = before


def refuse_repeats(command: click.Command, ctx: click.Context, args: Sequence[str]) -> None:
    """Refuse a single-value option given twice on ``command``'s line ``args`` (``--decks 8
    --decks 6``, ``-o a -o b``, ``--format csv --format json``, a flag and its ``--no-`` form):
    click would keep the last value silently.  Options declared ``multiple=True`` (``--bet``,
    ``--bet-file``, ``--family``), counting options and eager ones (``--help``, ``--version``)
    may repeat.  ``args`` are parsed with the command's own parser, so ``--decks=8``, a short
    option glued to its value (``-ofile``) and a value that looks like an option count as click
    counts them; a line the parser cannot read is left for click to report.

    Raises:
        click.UsageError: the first option given twice, named in the message (exit code 2).
    """
    try:
        _, _, order = command.make_parser(ctx).parse_args(args=list(args))
    except click.UsageError:
        return  # the real parse reports it, as click words it
    seen: set[str] = set()
    for param in order:
        if not isinstance(param, click.Option) or param.multiple or param.count or param.is_eager:
            continue
        key = param.name or "/".join(param.opts)
        if key in seen:
            names = "/".join(param.opts + param.secondary_opts)
            raise click.UsageError(
                f"option {names} is given twice: give it once",
                ctx=ctx,
            )
        seen.add(key)


class UsageProblem(click.ClickException):
    """A bad input reported as one line, exit code 2."""

    exit_code = EXIT_USAGE

    def show(self, file: Any = None) -> None:
        say(shortened(printable(f"Error: {self.format_message()}")))


def guard(func: FuncT) -> FuncT:
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
            if exc.filename is None and exc.errno in _WRITE_FAILURES:  # streaming into a full disk
                raise stdout_failed(exc) from None
            raise UsageProblem(f"{exc.filename or ''}: {exc.strerror or exc}".strip(": ")) from None

    return wrapper  # type: ignore[return-value]


class WholeNumber(click.IntRange):
    """A whole number from ``minimum`` to ``maximum`` (if given; ``minimum=None``: any sign),
    read as every number of the tool is read (:func:`analyzer.core.exact.whole_number`: ASCII
    digits only, so ``８``, ``1_000`` and ``+8`` are errors in every integer option, as in
    ``--shoe``, where click's ``int()`` would accept them); the range is checked and shown in
    the help as click's ``IntRange`` does.  Digits beyond any range are said to be too large."""

    def __init__(self, minimum: int | None = 0, maximum: int | None = None) -> None:
        super().__init__(min=minimum, max=maximum)
        self.signed = minimum is None or minimum < 0

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """``value`` as an int in range, or a usage error naming it."""
        number = whole_number(value, signed=self.signed)
        if number is None:
            text = value.strip() if isinstance(value, str) else ""
            digits = text[1:] if self.signed and text[:1] in ("+", "-") else text
            if len(text) > MAX_NUMBER_CHARS and digits.isascii() and digits.isdigit():
                shown = f"{text[:12]}...{text[-6:]} ({len(digits):,} digits)"
                bound = f"at most {self.max:,}" if self.max is not None else "a number of fewer digits"
                self.fail(f"{shown} is too large: give {bound}", param, ctx)
            self.fail(f"{value!r} is not a whole number (digits 0-9)", param, ctx)
        return super().convert(number, param, ctx)


#: Most deck counts in one sweep (``--decks 1-100``): each is a full analysis.
MAX_SWEEP = 100


def deck_counts(text: str) -> tuple[int, ...]:
    """The deck counts of a ``--decks`` value: one whole number (``8``), a comma-separated list
    (``1,6,8``), a range ``A-B`` (``1-8``: 1, 2, ..., 8), or lists of both (``1-4,6,8``); every
    number read by :func:`~analyzer.core.exact.whole_number`, each >= 1, each count once, at
    most :data:`MAX_SWEEP` of them, in the order given.

    >>> deck_counts("8"), deck_counts("1,6,8"), deck_counts("1-3,8")
    ((8,), (1, 6, 8), (1, 2, 3, 8))

    Raises:
        ShoeError: the text is not such a list; the message says what is wrong.
    """
    out: list[int] = []
    items = text.split(",")
    if not text.strip() or any(not item.strip() for item in items):
        raise ShoeError(f"{text!r} is not a deck count, list or range (e.g. 8, 1,6,8 or 1-8)")
    for item in items:
        if "-" in item.strip()[1:]:
            low_text, _, high_text = item.strip().partition("-")
            low, high = whole_number(low_text), whole_number(high_text)
            if low is None or high is None or not low_text.strip() or not high_text.strip():
                raise ShoeError(f"bad range {item.strip()!r}: give two whole numbers (digits 0-9), e.g. 1-8")
            if low > high:
                raise ShoeError(f"bad range {item.strip()!r}: the first number is larger than the second")
            if low < 1:
                raise ShoeError(f"bad range {item.strip()!r}: a shoe has 1 deck or more")
            if high - low + 1 + len(out) > MAX_SWEEP:
                raise ShoeError(f"{text!r} gives more than {MAX_SWEEP} deck counts: give fewer")
            numbers = list(range(low, high + 1))
        else:
            number = whole_number(item)
            if number is None:
                raise ShoeError(f"{item.strip()!r} is not a whole number (digits 0-9)")
            if number < 1:
                raise ShoeError(f"{number} decks: a shoe has 1 deck or more")
            numbers = [number]
        for n in numbers:
            if n in out:
                raise ShoeError(f"{n} decks given twice in {text!r}: give each deck count once")
            out.append(n)
    if len(out) > MAX_SWEEP:
        raise ShoeError(f"{text!r} gives more than {MAX_SWEEP} deck counts: give fewer")
    return tuple(out)


class DeckCounts(click.ParamType):  # type: ignore[type-arg,unused-ignore]
    """A ``--decks`` sweep: one deck count, a list or a range (:func:`deck_counts`), converted
    to a tuple of ints; a bad value is a usage error (one line, exit code 2)."""

    name = "N|LIST|A-B"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """``value`` as a tuple of deck counts, or a usage error naming the problem."""
        if isinstance(value, tuple):
            return value
        try:
            return deck_counts(str(value))
        except ShoeError as exc:
            self.fail(str(exc), param, ctx)


#: ``--scheduler-timeout`` of the commands that run on a Dask cluster (``study``, ``batch``).
scheduler_timeout_option = click.option(
    "--scheduler-timeout",
    type=click.FloatRange(min=0, min_open=True, max=86_400),
    default=30.0,
    show_default=True,
    metavar="SECONDS",
    help="How long to wait for the Dask scheduler's answer and for its first worker.",
)


def limit_options(counts_files: bool) -> Callable[[FuncT], FuncT]:
    """--max-line-length (and, with ``counts_files``, --max-file-size): the bounds of the shared
    reader (:mod:`analyzer.checks.logs`), each also set by its environment variable."""

    def decorate(func: FuncT) -> FuncT:
        if counts_files:
            func = click.option(
                "--max-file-size",
                "max_bytes",
                type=WholeNumber(1, LIMIT_CEILING),
                default=MAX_FILE_BYTES,
                metavar="BYTES",
                envvar=MAX_FILE_ENV,
                show_envvar=True,
                show_default=True,
                help="Largest counts file read (a larger one is an error naming the file and the limit).",
            )(func)
        return click.option(
            "--max-line-length",
            "max_line",
            type=WholeNumber(1, LIMIT_CEILING),
            default=MAX_LINE_CHARS,
            metavar="CHARS",
            envvar=MAX_LINE_ENV,
            show_envvar=True,
            show_default=True,
            help="Longest line read from a log (a longer one is an error naming the file and the limit).",
        )(func)

    return decorate


def _shoe_options(decks_help: str, sweep: bool = False) -> Callable[[FuncT], FuncT]:
    """--decks / --shoe / --remove, with ``decks_help`` for --decks (with ``sweep``, --decks
    takes a list or range of deck counts: :class:`DeckCounts`)."""

    def decorate(func: FuncT) -> FuncT:
        func = rules_option(func)
        func = click.option(
            "--remove",
            "remove",
            default=None,
            metavar="CARDS",
            help="Cards to take out of the shoe: cards, e.g. 'K 5h 5 A' (suit optional), or counts "
            "as --shoe reads them, RANK=COUNT pairs, e.g. 5=20,9=10 (or Kh=2 with a suit).",
        )(func)
        func = click.option(
            "--shoe",
            "shoe_text",
            default=None,
            metavar="COUNTS",
            help="Shoe as 13 counts A,2,...,9,10,J,Q,K (e.g. 32,32,...), as RANK=COUNT "
            "pairs (e.g. 8=2,K=3), or with suits: 52 counts or pairs such as Kh=2.",
        )(func)
        func = click.option(
            "--decks", type=DeckCounts() if sweep else WholeNumber(1), default=None, help=decks_help
        )(func)
        return func

    return decorate


#: How --bet reads FILE:NAME, said once in every command's help.
FILE_SPEC_HELP = (
    "FILE:NAME picks the bet NAME of a bet file (FILE ends with .toml or holds a '/'; "
    "write ./FILE:NAME for another file name)."
)


def _module_bets(ctx: click.Context, _: click.Parameter, value: tuple[str, ...]) -> tuple[str, ...]:
    """--bet-module's callback: the Python bets named, for this command only (imported when the
    command first asks for its bets, so a bad one is the command's one error line)."""
    ctx.meta["bet_modules"] = value
    if value:
        from analyzer.bets.choice import name_module_bets  # lazy: start-up time

        name_module_bets(value, chosen=True)
        ctx.call_on_close(lambda: name_module_bets((), chosen=False))
    return value


def bets_named(specs: Sequence[str], files: Sequence[str]) -> bool:
    """Whether the command line names bets: --bet, --bet-file or --bet-module."""
    return bool(specs or files or click.get_current_context().meta.get("bet_modules"))


#: --bet-module's help, the same in every command.
BET_MODULE_HELP = (
    "A bet written in Python, MODULE:NAME: the Bet bound to NAME in the module (imported as "
    "Python finds it; its code runs), chosen as --bet-file's bets are (repeatable)."
)


def bet_module_option(func: FuncT) -> FuncT:
    """--bet-module MODULE:NAME (repeatable): a Python bet (:func:`analyzer.bets.choice.bet_from_module`)."""
    return click.option(
        "--bet-module",
        multiple=True,
        metavar="MODULE:NAME",
        expose_value=False,
        callback=_module_bets,
        help=BET_MODULE_HELP,
    )(func)


def bet_options(bet_help: str, file_help: str) -> Callable[[FuncT], FuncT]:
    """--bet SPEC, --bet-file FILE and --bet-module MODULE:NAME (each repeatable), with each
    command's own help: a spec is ``NAME[:PARAM]`` (the catalogue) or ``FILE:NAME`` (one bet of
    a file, read as :func:`analyzer.bets.choice.split_file_spec` reads it)."""

    def decorate(func: FuncT) -> FuncT:
        func = bet_module_option(func)
        func = click.option(
            "--bet-file",
            "bet_files",
            multiple=True,
            type=click.Path(dir_okay=False),
            metavar="FILE",
            help=file_help,
        )(func)
        return click.option(
            "--bet",
            "bet_specs",
            multiple=True,
            metavar="NAME[:PARAM]|FILE:NAME",
            help=f"{bet_help} {FILE_SPEC_HELP}",
        )(func)

    return decorate


def bet_choice(
    specs: Sequence[str], files: Sequence[str], *, all_bets: bool = False, max_bets: int | None = None
) -> Any:
    """The :class:`analyzer.bets.choice.Choice` of --bet / --bet-file (and --all)."""
    from analyzer.bets.choice import choose  # lazy: start-up time

    return choose(specs, files, all_bets=all_bets, max_bets=max_bets or MAX_BETS_PER_FILE)


#: Every file the running command reads (rules, bet files, logs): :func:`emit` refuses to write
#: onto any of them, whichever option named it.  Reset at the start of each run.
INPUTS: list[str] = []


def note_inputs(paths: Sequence[str]) -> list[str]:
    """Remember ``paths`` as inputs of the running command (see :data:`INPUTS`); returns them."""
    INPUTS.extend(str(p) for p in paths)
    return list(paths)


def bet_inputs(specs: Sequence[str], files: Sequence[str]) -> list[str]:
    """The files a command reads bets from (--bet-file, and the FILE of each --bet FILE:NAME):
    inputs that no output may overwrite (remembered in :data:`INPUTS`)."""
    from analyzer.bets.choice import split_file_spec  # lazy: start-up time

    picked = [split_file_spec(s) for s in specs]
    return note_inputs([*files, *(p[0] for p in picked if p is not None)])


def rules_option(func: FuncT) -> FuncT:
    """--rules NAME|FILE: the tableau (a registered rule set or a TOML rules file)."""
    return click.option(
        "--rules",
        "rules",
        default="standard",
        show_default=True,
        metavar="NAME|FILE",
        help="The tableau: a rule set by name (see 'punto-banco rules --list') or a TOML rules file.",
    )(func)


def rules_inputs(*specs: str) -> list[str]:
    """The rules files among ``specs`` (--rules, --against, --compare's comma-separated names):
    inputs that no output may overwrite (remembered in :data:`INPUTS`)."""
    from analyzer.core.inputs import names_a_file  # lazy: start-up time

    names = [n.strip() for spec in specs for n in spec.split(",") if n.strip()]
    return note_inputs([n for n in names if names_a_file(n)])


@functools.cache
def spelling() -> Any:
    """How the command line calls each input of :mod:`analyzer.core.inputs` in its messages:
    its options (a :class:`~analyzer.core.inputs.Spelling`)."""
    from analyzer.core.inputs import Spelling  # lazy: start-up time

    return Spelling(
        decks="--decks",
        counts="--shoe",
        seen="--remove",
        remove="--remove",
        rules="--rules",
        rules_text="--rules",
        examples_as_options=True,
    )


def tableau_of(rules: str) -> Any:
    """The tableau chosen by --rules, a registered name or a rules file
    (:func:`analyzer.core.inputs.read_rules`; a file is remembered as an input, :data:`INPUTS`)."""
    from analyzer.core.inputs import RulesSpec, read_rules  # lazy: start-up time

    tableau, rules_file, _ = read_rules(RulesSpec(name=rules, files=True), spelling())
    if rules_file is not None:
        note_inputs([rules_file])
    return tableau


#: --decks / --shoe / --remove for commands that analyse a shoe (8 decks by default).
shoe_options = _shoe_options("Standard shoe of N 52-card decks (default 8).")
#: The same with --decks a sweep (analyze, bets): one table with a row per deck count.
sweep_shoe_options = _shoe_options(
    "Standard shoe of N 52-card decks (default 8); a list (1,6,8) or a range (1-8) gives one "
    "table with rows for each deck count.",
    sweep=True,
)
#: The same for `verify`, where a shoe is optional and turns on the shoe check.
shoe_check_options = _shoe_options(
    "Check every card against a standard shoe of N decks (default: no shoe check)."
)


#: --raw-csv, on every command that writes CSV.
raw_csv_option = click.option(
    "--raw-csv",
    is_flag=True,
    help="CSV cells exactly as computed: do not prefix a text cell starting with = + - @ with a single "
    "quote (the guard against spreadsheet formulas; numbers are never changed).",
)


@overload
def output_options(func: FuncT) -> FuncT: ...


@overload
def output_options(
    func: None = None,
    *,
    formats: Sequence[str] | None = None,
    default: str | None = "text",
    format_help: str = ...,
    digits: click.ParamType[Any] | None = None,
    digits_default: int = 10,
    digits_help: str = ...,
    output_help: str = ...,
    raw_csv: bool = True,
) -> Callable[[FuncT], FuncT]: ...


def output_options(
    func: FuncT | None = None,
    *,
    formats: Sequence[str] | None = None,
    default: str | None = "text",
    format_help: str = "Output format; JSON keeps every exact value.",
    digits: click.ParamType[Any] | None = None,
    digits_default: int = 10,
    digits_help: str = "Decimals shown, rounded exactly (never through a float).",
    output_help: str = "Write to this file (atomically) instead of standard output.",
    raw_csv: bool = True,
) -> Any:
    """--format / --digits / -o, --output (and --raw-csv), the options of every command that
    writes tables, in that order.  ``@output_options`` gives the table formats of
    :func:`analyzer.output.render.render`; a command that writes other formats names them
    (``@output_options(formats=..., ...)``): its formats and their default (``None``: no
    default shown), the type, default and help of --digits (default: a whole number 0..1000),
    the help of -o, and whether it writes CSV that --raw-csv leaves unguarded.
    """

    def decorate(command: FuncT) -> FuncT:
        if raw_csv:
            command = raw_csv_option(command)
        command = click.option(
            "-o",
            "--output",
            type=click.Path(dir_okay=False, writable=True, allow_dash=True),
            default=None,
            callback=dash_is_stdout,
            help=f"{output_help} '-': standard output.",
        )(command)
        command = click.option(
            "--digits",
            type=WholeNumber(0, 1000) if digits is None else digits,
            default=digits_default,
            show_default=True,
            help=digits_help,
        )(command)
        if formats is None:
            from analyzer.output.render import FORMATS  # lazy: render imports tabulate (start-up time)

            choices: Sequence[str] = FORMATS
        else:
            choices = formats
        return click.option(
            "--format",
            "fmt",
            type=click.Choice(list(choices)),
            default=default,
            show_default=default is not None,
            help=format_help,
        )(command)

    return decorate if func is None else decorate(func)


def build_shoe(decks: int | None, shoe_text: str | None, remove: str | None) -> Any:
    """The shoe chosen by --decks / --shoe / --remove (default: 8 decks), read by
    :func:`analyzer.core.inputs.read_shoes`.

    Raises:
        ShoeError: as :func:`~analyzer.core.inputs.read_shoes` (one line, exit code 2).
    """
    return build_shoes(None if decks is None else (decks,), shoe_text, remove)[0]


def build_shoes(decks: tuple[int, ...] | None, shoe_text: str | None, remove: str | None) -> list[Any]:
    """The shoes of a sweep's options (:data:`sweep_shoe_options`): one per deck count, or the
    one shoe of ``--shoe`` (default: 8 decks), read by :func:`analyzer.core.inputs.read_shoes`.

    Raises:
        ShoeError: ``--decks`` and ``--shoe`` both given; ``--remove`` with several deck
            counts (cards are removed from one shoe); as :func:`~analyzer.core.inputs.read_shoes`.
    """
    from analyzer.core.inputs import ShoeSpec, read_shoes  # lazy: start-up time

    shoes, _ = read_shoes(ShoeSpec(decks=decks, counts=shoe_text, remove=remove), spelling())
    return list(shoes)


def shoes_and_tableau(
    decks: tuple[int, ...] | None, shoe_text: str | None, remove: str | None, rules: str
) -> tuple[list[Any], Any]:
    """The shoes of a sweep's options (as :func:`build_shoes`), then the tableau of --rules (as
    :func:`tableau_of`), read by :func:`analyzer.core.inputs.read_inputs` in that order.

    Raises:
        ShoeError, CardError, RulesError: as :func:`~analyzer.core.inputs.read_inputs`.
    """
    from analyzer.core.inputs import RulesSpec, ShoeSpec, read_inputs  # lazy: start-up time

    shoe = ShoeSpec(decks=decks, counts=shoe_text, remove=remove)
    read = read_inputs(shoe, RulesSpec(name=rules, files=True), spelling(), shoe_first=True)
    if read.rules_file is not None:
        note_inputs([read.rules_file])
    return list(read.shoes), read.tableau


def decks_label(shoes: Sequence[Any]) -> str:
    """How a sweep's shoes are named in titles: ``"1, 6, 8 decks"``."""
    return ", ".join(str(s.decks) for s in shoes) + " decks"


def sweep_tables(shoes: Sequence[Any], tableau: Any, build: Callable[[Any], Sequence[Any]]) -> list[Any]:
    """The tables ``build(shoe)`` gives for each shoe; for several shoes, stacked into one table
    per name with a row per deck count (:func:`analyzer.output.render.stack_tables`)."""
    from analyzer.output.render import context_of, stack_tables  # lazy: start-up time

    if len(shoes) == 1:
        return list(build(shoes[0]))
    runs = [(context_of(shoe, tableau), build(shoe)) for shoe in shoes]
    return stack_tables(runs, decks_label(shoes))


def sweep_meta(shoes: Sequence[Any], tableau: Any) -> dict[str, object]:
    """:func:`meta` of a sweep: the shoe field names every deck count."""
    info = meta(command_line(), shoes[0], tableau)
    if len(shoes) > 1:
        info["shoe"] = f"standard shoes of {decks_label(shoes)}"
    return info


def dash_is_stdout(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``-o -`` names standard output, as in other Unix tools (not a file called ``-``)."""
    return None if value == "-" else value


def folder_not_dash(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A folder option refuses ``-``: standard output is one stream, not a folder (and a
    folder called ``-`` would surprise whoever meant ``-o -`` as elsewhere)."""
    if value == "-":
        raise click.BadParameter("'-' (standard output) cannot hold a folder of files; name a folder")
    return value


def emit(text: str, output: str | None) -> None:
    """Print, or write ``output`` atomically (a temporary file renamed into place)."""
    if output is not None or INPUTS:  # printing with nothing read has nothing to refuse
        from analyzer.output.files import refuse_inputs  # lazy: start-up time

        refuse_inputs([output], INPUTS)  # also standard output redirected onto an input
    if output is None:
        echo(text, nl=False)
        return
    write_atomic(Path(output), text)


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (see :func:`analyzer.output.files.write_files`)."""
    from analyzer.output.files import write_files  # lazy: start-up time

    write_files({path: text})


def meta(command: str, shoe: Any, tableau: Any = None, **inputs: str) -> dict[str, object]:
    """What produced a table: tool and version, the command, its ``inputs`` (e.g. ``log``: how
    a hand log was read), the rules, the shoe."""
    from analyzer.output.render import provenance  # lazy: start-up time

    return provenance(command, shoe.describe(), tableau.describe() if tableau is not None else None, **inputs)


def command_line() -> str:
    return "punto-banco " + " ".join(shlex.quote(a) for a in sys.argv[1:])


def table_names_of(text: str, known: Sequence[str]) -> list[str]:
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    if names == ["all"]:
        return list(known)
    bad = [n for n in names if n not in known]
    if bad or not names:
        raise UsageProblem(f"bad --table {text!r}: use {', '.join(known)} or all (comma-separated)")
    return names
