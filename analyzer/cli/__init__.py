"""The ``punto-banco`` command line: parse, call the library, print (the only click import).

Library errors become one-line messages with exit code 2; no command leaves a partial file.
How a process ends (exit codes, signals, a closed pipe) is :mod:`analyzer.cli.process`; the
options and helpers every command shares are :mod:`analyzer.cli.common`; the commands live in
:mod:`~analyzer.cli.shoe_commands`, :mod:`~analyzer.cli.check_commands`,
:mod:`~analyzer.cli.study_commands`, :mod:`~analyzer.cli.study`, :mod:`~analyzer.cli.batch_commands`,
:mod:`~analyzer.cli.report_commands`, :mod:`~analyzer.cli.vectors_commands`,
:mod:`~analyzer.cli.engine_commands`, :mod:`~analyzer.cli.game_commands` and
:mod:`~analyzer.cli.web_commands`.
"""

from __future__ import annotations

import click

from analyzer import __version__
from analyzer.cli.common import (  # noqa: F401 - the command line's public helpers
    OneLineErrors,
    UsageProblem,
    WholeNumber,
    build_shoe,
    emit,
    guard,
    meta,
    output_options,
    rules_option,
    shoe_options,
)
from analyzer.cli.process import DEBUG_ENV
from analyzer.limits import MAX_BETS_ENV, MAX_FILE_ENV, MAX_LINE_ENV

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
  {"PUNTO_BANCO_MAX_RECORDS":<28} compile budget: most records one bet's table may settle
  {"PUNTO_BANCO_CACHE_DIR":<28} the table cache's folder ("off": no disk cache)
  {"PUNTO_BANCO_CACHE_MAX_BYTES":<28} most bytes the table cache's folder holds
  {"PUNTO_BANCO_SHIPPED_TABLES":<28} "off": ignore the tables shipped with the package
"""


@click.group(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]}, epilog=EPILOG)
@click.version_option(__version__, prog_name="punto-banco")
@click.option("--debug", is_flag=True, help=f"Print the traceback of an internal error (also {DEBUG_ENV}=1).")
def main(debug: bool) -> None:
    """Exact combinatorial analyser for Punto Banco (baccarat).

    Every probability is exact: the analyser counts every ordered way the coup can be dealt
    from the shoe, with integer weights, under the tableau in use (standard, or --rules).
    """
    if debug:
        OneLineErrors.debug = True


#: Each command and the module that defines it: a command's module is imported only when the
#: command runs (click's lazy loading of subcommands), so ``punto-banco analyze`` loads what
#: analyze needs and no more (a test holds this map to the modules' commands).
COMMANDS: dict[str, str] = {
    "analyze": "shoe_commands",
    "bets": "shoe_commands",
    "deal": "shoe_commands",
    "rules": "shoe_commands",
    "tables": "shoe_commands",
    "verify": "check_commands",
    "conform": "check_commands",
    "symbolic": "study_commands",
    "eor": "study_commands",
    "peek": "study_commands",
    "study": "study",
    "batch": "batch_commands",
    "report": "report_commands",
    "vectors": "vectors_commands",
    "serve": "web_commands",
    "probe": "engine_commands",
    "mutants": "engine_commands",
    "chemin-de-fer": "game_commands",
    "baccara-banque": "game_commands",
}
#: The modules that define commands.
COMMAND_MODULES = tuple(dict.fromkeys(COMMANDS.values()))
OneLineErrors.lazy_commands = COMMANDS


def all_commands() -> dict[str, click.Command]:
    """Every command, its module imported (for help listings, documentation and tests)."""
    ctx = click.Context(main)
    out = {}
    for name in main.list_commands(ctx):
        command = main.get_command(ctx, name)
        if command is not None:
            out[name] = command
    return out
