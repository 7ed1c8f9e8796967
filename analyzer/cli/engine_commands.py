"""The commands that meet other engines: ``probe`` (the oracle deals an engine the cards) and
``mutants`` (the catalogue of engine bugs, each an engine you can probe or deal a log with)."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from fractions import Fraction
from typing import Any

import click

from analyzer.cli.common import (
    UsageProblem,
    WholeNumber,
    bet_choice,
    bet_inputs,
    bet_options,
    bets_named,
    build_shoe,
    command_line,
    dash_is_stdout,
    emit,
    guard,
    meta,
    rules_inputs,
    rules_option,
    shoe_options,
    tableau_of,
)
from analyzer.cli.process import echo
from analyzer.text import json_text, printable


def _timeout(text: str) -> float:
    from analyzer.checks.power import parse_fraction_option  # lazy: start-up time

    value = parse_fraction_option(text, "--timeout", Fraction(0), None)
    if value > 3600:
        raise UsageProblem(f"bad --timeout {text!r}: at most 3600 seconds")
    return float(value)  # a float: the clock's own unit, never an exact figure


@click.command(context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False})
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED, metavar="-- COMMAND [ARGS]...")
@bet_options(
    "A bet to place on every stack (repeatable; default banker, player and tie); its paying "
    "events get stacks of their own.",
    "Place every bet of this TOML file (repeatable).",
)
@rules_option
@click.option(
    "--coups",
    type=WholeNumber(0, 10_000_000),
    default=1000,
    show_default=True,
    help="Stacks to deal in all: the decision cells and the bets' events first, then seeded random "
    "coups up to this number.",
)
@click.option("--seed", type=WholeNumber(0), default=1, show_default=True, help="Seed of the stacks.")
@click.option(
    "--timeout",
    default="5",
    show_default=True,
    metavar="SECONDS",
    help="Longest wait for each answer; silence past it is a finding.",
)
@click.option(
    "--paid",
    "paid_means",
    type=click.Choice(["net", "returned"]),
    default="net",
    show_default=True,
    help="What the engine's settled amounts mean: net win, or the amount returned.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "jsonl"]),
    default="text",
    show_default=True,
    help="Report as text lines or JSON Lines records.",
)
@click.option(
    "--max-report",
    type=WholeNumber(0),
    default=5,
    show_default=True,
    help="Failing stacks listed in a text report (0: all kept); every one is counted.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, writable=True, allow_dash=True),
    default=None,
    callback=dash_is_stdout,
    help="Write the report to this file (atomically); '-': standard output.",
)
@guard
def probe(
    command: tuple[str, ...],
    bet_specs: tuple[str, ...],
    bet_files: tuple[str, ...],
    rules: str,
    coups: int,
    seed: int,
    timeout: str,
    paid_means: str,
    fmt: str,
    max_report: int,
    output: str | None,
) -> None:
    """Deal another engine the cards: start COMMAND, write it one JSON request per line (a
    stacked shoe's top cards and the stakes), read back each coup it dealt as a hand-log record,
    and check it as verify does.

    The stacks cover every decision cell of the tableau, both naturals, each bet's paying
    events, then seeded random coups (consecutive ones share a shoe id).  A failing stack is
    shrunk to the shortest one that still fails; the report leads with the known engine bugs
    that explain the findings (docs/checks.md, "The probe").  An engine that answers
    malformed records, a wrong id, or nothing within --timeout is a finding.  Exit code 0:
    every coup conforms; 1: a finding; 2: bad options or a command that cannot be started.
    """
    from analyzer.checks.probe import (  # lazy: start-up time
        DEFAULT_BETS,
        Probe,
        ProcessEngine,
        plan_stream,
        report_lines,
        report_records,
        summary_line,
    )

    args = list(command)
    if args and args[0] == "--":
        args = args[1:]
    if not args:
        raise UsageProblem("no engine command: give it after --, e.g. punto-banco probe -- python3 engine.py")
    inputs = [*bet_inputs(bet_specs, bet_files), *rules_inputs(rules)]
    tableau = tableau_of(rules)
    wait = _timeout(timeout)
    named = bets_named(bet_specs, bet_files)
    choice = bet_choice(bet_specs, bet_files) if named else bet_choice(DEFAULT_BETS, ())
    if output is not None:
        from analyzer.output.files import refuse_inputs  # lazy: start-up time

        # never write over the engine's own files either (its script, its data)
        refuse_inputs([output], [*inputs, *(a for a in args if os.path.isfile(a))])
    stacks = plan_stream(list(choice.bets), tableau=tableau, coups=coups, seed=seed)
    engine = ProcessEngine(args, wait)
    result = Probe(
        engine, tableau=tableau, returned=paid_means == "returned", file_bets=choice.file_bets
    ).run(stacks, planned=len(stacks))
    shown = " ".join(args)
    if fmt == "jsonl":
        records = report_records(result, shown, tableau)
        text = "".join(json_text(json.dumps(r, ensure_ascii=False)) + "\n" for r in records)
        emit(text, output)
        echo(printable(summary_line(result)), err=True)
    else:
        lines = report_lines(result, shown, tableau, max_report)
        emit("".join(printable(line) + "\n" for line in lines), output)
    if not result.passed:
        sys.exit(1)


@click.command()
@click.option(
    "--serve",
    "serve_name",
    metavar="NAME",
    help="Answer the probe's requests on standard input as this engine "
    "(`punto-banco probe -- punto-banco mutants --serve NAME`).",
)
@click.option("--log", "log_name", metavar="NAME", help="Write a hand log (JSON Lines) dealt by this engine.")
@click.option(
    "--power",
    is_flag=True,
    help="Measure the coups each check (verify, conform, the decision cells, the probe, the vectors) "
    "needs to catch each bug (a few minutes; results/mutants.md holds it).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "markdown", "csv", "json"]),
    default="text",
    show_default=True,
    help="With --power: the table's format.",
)
@click.option("--coups", type=WholeNumber(1, 10_000_000), default=1000, show_default=True,
              help="With --log: coups in the log.")
@click.option(
    "--seed", type=WholeNumber(0), default=1, show_default=True, help="With --log: the shuffle's seed."
)
@click.option("--cut", type=WholeNumber(0), default=14, show_default=True,
              help="With --log: cards left when the cut card comes out (a new shoe then).")
@shoe_options
@bet_options(
    "With --log: a bet settled on every coup, stake 10 (repeatable).",
    "With --log: settle every bet of this TOML file (repeatable).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, writable=True, allow_dash=True),
    default=None,
    callback=dash_is_stdout,
    help="With --log or --power: write to this file (atomically); '-': standard output.",
)
@guard
def mutants(
    serve_name: str | None,
    log_name: str | None,
    power: bool,
    fmt: str,
    coups: int,
    seed: int,
    cut: int,
    decks: int | None,
    shoe_text: str | None,
    remove: str | None,
    bet_specs: tuple[str, ...],
    bet_files: tuple[str, ...],
    rules: str,
    output: str | None,
) -> None:
    """The catalogue of engine bugs the oracle knows and diagnoses: each a baccarat engine with
    one bug (the third-card rule read from the wrong input, totals not reduced modulo 10, a
    natural not checked, state carried between coups, a misvalued card, a pair bet that ignores
    three-card hands, a rounded commission, a refilled shoe, each rule variant).

    Without options, lists them.  --serve NAME runs one as an engine for `punto-banco probe`;
    --log NAME writes a hand log it dealt (to try verify and conform on a known bug); --power
    measures the coups each check needs to catch each bug."""
    from analyzer.checks.mutants import CORRECT, KINDS, MUTANTS, deal_log, find_mutant  # lazy: start-up time
    from analyzer.output.files import open_atomic, refuse_inputs  # lazy: start-up time

    if sum((serve_name is not None, log_name is not None, power)) > 1:
        raise UsageProblem("give one of --serve, --log and --power")
    if log_name is None and (decks is not None or shoe_text is not None or remove is not None):
        # only a dealt log has a shoe: the list, --power (8 decks) and --serve would ignore it
        raise UsageProblem(
            "--decks, --shoe and --remove choose the shoe a log is dealt from: give them with --log"
        )
    inputs = [*bet_inputs(bet_specs, bet_files), *rules_inputs(rules)]
    refuse_inputs([output], inputs)
    # the output is opened first: a path that cannot be written is refused before the work
    sink: Any = open_atomic(output) if output is not None else contextlib.nullcontext(sys.stdout)
    if power:
        from analyzer.checks.mutant_power import measure_all  # lazy: start-up time
        from analyzer.core.shoe import Shoe  # lazy: start-up time
        from analyzer.output.check_tables import mutant_power_table  # lazy: start-up time
        from analyzer.output.render import context_of, render  # lazy: start-up time

        shoe = Shoe.standard(8)
        with sink as fh:
            table = mutant_power_table(measure_all())
            fh.write(render([table], fmt, 10, meta(command_line(), shoe), context=context_of(shoe, None)))
        return
    tableau = tableau_of(rules)
    if serve_name is not None:
        from analyzer.checks.probe import serve  # lazy: start-up time

        serve(find_mutant(serve_name), sys.stdin, sys.stdout, tableau)
        return
    if log_name is not None:
        mutant = find_mutant(log_name)
        choice = bet_choice(bet_specs, bet_files)
        stakes = {bet.name: Fraction(10) for bet in choice.bets}
        shoe = build_shoe(decks, shoe_text, remove)
        records = deal_log(
            mutant, coups, seed=seed, shoe=shoe, tableau=tableau, stakes=stakes, cut=cut or None,
            file_bets=choice.file_bets,
        )
        with sink as fh:  # streamed: a log of ten million coups holds one coup at a time
            for record in records:
                fh.write(json.dumps(record) + "\n")
        return
    width = max(len(m.name) for m in (CORRECT, *MUTANTS))
    for kind, what in KINDS.items():
        echo(f"{what}:")
        for m in MUTANTS:
            if m.kind == kind:
                echo(printable(f"  {m.name:<{width}}  {m.cause}"))
