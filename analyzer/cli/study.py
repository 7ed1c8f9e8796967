"""``punto-banco study``: the shoe-walk study on the command line (a thin wrapper over
:func:`analyzer.studies.study.run_study`)."""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from analyzer.cli.common import (
    UsageProblem,
    WholeNumber,
    bet_inputs,
    bet_options,
    bets_named,
    command_line,
    emit,
    guard,
    output_options,
    rules_inputs,
    rules_option,
    scheduler_timeout_option,
    table_names_of,
    tableau_of,
)


@click.command("study")
@bet_options(
    "A bet to study (repeatable): any catalogue bet (dragon-7, panda-8, tie:9, ...), the "
    "multi-coup banker-streak[:1-4], or a bet of a file.",
    "Every bet of this TOML file, to study (repeatable).",
)
@click.option("--shoes", type=click.IntRange(min=1), default=10_000, show_default=True, help="Shoes to deal.")
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Seed: shoe i is the same for a seed whatever the partitioning.",
)
@click.option(
    "--strategy",
    "strategies",
    multiple=True,
    type=click.Choice(["perfect", "count", "flat"]),
    help="perfect (bet when the exact EV > --min-edge), count (--tags, --bet-when) or flat "
    "(every coup); repeatable (default: perfect).",
)
@click.option(
    "--min-edge",
    default="0",
    show_default=True,
    metavar="EDGE",
    help="Perfect play bets when the exact EV exceeds this (units, e.g. 0.01, or 1%).",
)
@click.option(
    "--tags",
    default=None,
    metavar="TAGS",
    help="Count tags: 10 (A,2,...,9,T) or 13 (A,2,...,9,10,J,Q,K), e.g. 0,0,0,-1,-1,-1,-1,2,2,0.",
)
@click.option(
    "--bet-when",
    default=None,
    metavar="TRIGGER",
    help="Count trigger: rc>=N (running count) or tc>=X (true count = rc / decks remaining).",
)
@click.option(
    "--true-count",
    "true_count",
    multiple=True,
    metavar="CONVENTION",
    help="How a tc trigger's true count is kept: exact (default: unseen cards / 52, unrounded), "
    "floor, truncate, round, half-deck or whole-deck (decks remaining to the nearest half or whole "
    "deck), or an estimate and a rounding joined by '+' (half-deck+floor); repeatable, each a row "
    "of its own, with the exact convention's row beside.",
)
@click.option(
    "--initial-count",
    type=WholeNumber(None),
    default=0,
    show_default=True,
    help="Running count at the start of each shoe (before the shown card).",
)
@click.option("--decks", type=click.IntRange(min=1), default=8, show_default=True, help="Decks in the shoe.")
@click.option(
    "--cut-card", type=click.IntRange(min=0), default=14, show_default=True, help="Cards behind the cut card."
)
@click.option(
    "--burn",
    type=click.Choice(["standard", "none"]),
    default="standard",
    show_default=True,
    help="standard: show the first card, burn as many as its value (10/J/Q/K: 10) unseen.",
)
@click.option(
    "--end-rule",
    type=click.Choice(["jacobson", "wizard"]),
    default="jacobson",
    show_default=True,
    help="jacobson: after the cut card, finish the coup and deal one more (cut card first: that "
    "coup and one more); wizard: the same, but cut card first: only that coup.",
)
@rules_option
@click.option(
    "--depth-bin",
    type=click.IntRange(min=1),
    default=26,
    show_default=True,
    help="Cards per row of the EV-by-depth table.",
)
@click.option(
    "--block",
    type=click.IntRange(min=1),
    default=1000,
    show_default=True,
    help="Shoes per block of work (a setting: results depend on it, never on the workers).",
)
@click.option(
    "--workers",
    default="auto",
    show_default=True,
    metavar="N|auto",
    help="Local processes; auto: the cores that are free (usable cores less the load average, at "
    "least 1). At most the usable cores (2 on one core).",
)
@click.option(
    "--scheduler",
    default=None,
    metavar="ADDRESS",
    help="Run on this Dask distributed scheduler (e.g. tcp://10.0.0.5:8786; the 'cluster' extra).",
)
@scheduler_timeout_option
@click.option(
    "--table",
    "table_names",
    default="all",
    show_default=True,
    metavar="NAMES",
    help="Tables: results, depth, cut-card, or all (comma-separated).",
)
@click.option(
    "--plot",
    "plot_file",
    default=None,
    metavar="FILE.png|svg|pdf",
    help="Also draw the EV and P(EV > 0) by depth (needs matplotlib: the 'plot' extra); written "
    "with -o all or nothing.",
)
@output_options(
    formats=("text", "markdown", "csv", "json"),
    format_help='Output format; JSON gives {"results": [...]} with every estimate.',
    digits=click.IntRange(min=0, max=12),
    digits_default=4,
    digits_help="Decimals shown in text tables.",
    raw_csv=False,
)
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Progress bar on standard error (default: when it is a terminal).",
)
@guard
def study(
    bet_specs: tuple[str, ...],
    bet_files: tuple[str, ...],
    shoes: int,
    seed: int,
    strategies: tuple[str, ...],
    min_edge: str,
    tags: str | None,
    bet_when: str | None,
    initial_count: int,
    true_count: tuple[str, ...],
    decks: int,
    cut_card: int,
    burn: str,
    end_rule: str,
    rules: str,
    depth_bin: int,
    block: int,
    workers: str,
    scheduler: str | None,
    scheduler_timeout: float,
    table_names: str,
    plot_file: str | None,
    fmt: str,
    digits: int,
    output: str | None,
    progress: bool | None,
) -> None:
    """Walk real shoes and price every bet before every coup exactly: what card counting (or
    computer-perfect play) is worth, with standard errors, the EV by depth and the cut-card
    effect.  Example: ``punto-banco study --bet dragon-7 --shoes 100000 --strategy perfect``."""
    from analyzer.output.charts import plot_format, study_image  # lazy: start-up time
    from analyzer.output.files import check_targets, refuse_inputs, write_files  # lazy: start-up time
    from analyzer.output.render import provenance, render  # lazy: start-up time
    from analyzer.output.study_tables import (  # lazy: start-up time
        STUDY_TABLES,
        study_csv,
        study_json,
        study_tables,
    )
    from analyzer.studies.study import execute as run  # lazy: start-up time
    from analyzer.studies.study import make_spec  # lazy: start-up time

    refuse_inputs([output, plot_file], [*bet_inputs(bet_specs, bet_files), *rules_inputs(rules)])
    names = table_names_of(table_names, STUDY_TABLES)
    same = (
        plot_file is not None
        and output is not None
        and os.path.realpath(plot_file) == os.path.realpath(output)
    )
    if same:
        raise UsageProblem(f"--plot and -o name the same file {plot_file!r}: give two files")
    if plot_file is not None:
        plot_format(plot_file)
    check_targets([p for p in (output, plot_file) if p is not None])  # before the shoes are dealt
    spec = make_spec(
        bet_specs or (() if bets_named(bet_specs, bet_files) else ("dragon-7",)),
        bet_files=bet_files,
        shoes=shoes,
        seed=seed,
        strategies=strategies or ("perfect",),
        decks=decks,
        cut_card=cut_card,
        burn=burn,
        end_rule=end_rule,
        tableau=tableau_of(rules),
        min_edge=min_edge,
        tags=tags,
        bet_when=bet_when,
        initial_count=initial_count,
        true_count=true_count,
        depth_bin=depth_bin,
        block=block,
    )
    show = sys.stderr.isatty() if progress is None else progress
    if show:
        with click.progressbar(length=shoes, label="dealing shoes", file=sys.stderr) as bar:
            seen = [0]

            def step(done: int, total: int) -> None:
                bar.update(done - seen[0])
                seen[0] = done

            result = run(
                spec, workers=workers, scheduler=scheduler, progress=step, scheduler_timeout=scheduler_timeout
            )
    else:
        result = run(spec, workers=workers, scheduler=scheduler, scheduler_timeout=scheduler_timeout)
    meta: dict[str, Any] = provenance(
        command_line(), f"{decks} decks ({52 * decks} cards)", spec.dealing.tableau.describe()
    )
    if fmt == "json":
        text = study_json(result, meta)
    elif fmt == "csv":
        text = study_csv(result)
    else:
        text = render(study_tables(result, names, digits), fmt, digits, meta)
    if plot_file is None:
        emit(text, output)
        return
    # the plot and -o are written together, all or nothing (a bad -o leaves no plot behind)
    write_files({plot_file: study_image(result, plot_file), **({output: text} if output is not None else {})})
    if output is None:
        emit(text, None)
