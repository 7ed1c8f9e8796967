"""The ``vectors`` command: a language-neutral test-vector kit for engines in other languages
(the kit itself: :mod:`analyzer.output.vectors`)."""

from __future__ import annotations

import click

from analyzer.cli.common import (
    UsageProblem,
    WholeNumber,
    bet_choice,
    bet_inputs,
    bet_options,
    bets_named,
    folder_not_dash,
    guard,
    rules_option,
    tableau_of,
)
from analyzer.cli.process import echo
from analyzer.output.vectors import DEFAULT_COUPS, DEFAULT_SEED, FORMATS, MAX_COUPS
from analyzer.text import printable


@click.command()
@click.option(
    "-o",
    "--out",
    "out_dir",
    required=True,
    type=click.Path(file_okay=False),
    callback=folder_not_dash,
    metavar="DIR",
    help="A new (or empty) folder to write the kit into; a folder holding a previous kit is replaced "
    "whole, anything else is refused.",
)
@rules_option
@click.option(
    "--seed",
    type=WholeNumber(0),
    default=DEFAULT_SEED,
    show_default=True,
    help="Seed of the settlement coups (the generator is in MANIFEST.json).",
)
@click.option(
    "--coups",
    type=WholeNumber(1, MAX_COUPS),
    default=DEFAULT_COUPS,
    show_default=True,
    help="Number of seeded suited coups in the settlement files.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(tuple(FORMATS)),
    default="both",
    show_default=True,
    help="Write JSON Lines, CSV, or both.",
)
@bet_options(
    "Settle and price only this bet (repeatable); default: every catalogue bet, which compiles for "
    "1.5 to 2.5 minutes the first time (then the table cache serves it).",
    "Settle and price every bet of this TOML file (repeatable).",
)
@click.option(
    "--coverage/--no-coverage",
    default=True,
    show_default=True,
    help="Add coverage coups: every event of a bet possible on 8 decks, in every class of the deal "
    "(naturals, who drew) and of the card patterns the bet reads (pairs, suits, colours).",
)
@click.option(
    "--keyed",
    is_flag=True,
    help="Write the JSON Lines records of coups and settlements as objects with named fields "
    "(a settlement reads like a hand-log record) instead of arrays and nested results.",
)
@guard
def vectors(
    out_dir: str,
    rules: str,
    seed: int,
    coups: int,
    fmt: str,
    bet_specs: tuple[str, ...],
    bet_files: tuple[str, ...],
    coverage: bool,
    keyed: bool,
) -> None:
    """Write test vectors for baccarat engines in other languages into the folder DIR: every
    value-level coup of the dealing tree (coups), every bet settled on seeded suited coups
    (settlements), the exact probability tables for 1 to 8 decks (probabilities), as JSON
    Lines and CSV, with schema.json and MANIFEST.json (version, rules, seed, SHA-256 per file).
    After the seeded coups, coverage coups settle every event of every bet in every class of
    the deal and of the cards the bet reads.

    The same options write byte-identical files.  All or nothing: the kit is built in memory,
    written into a sibling folder and renamed into place."""
    from analyzer.bets.catalogue import catalogue_bets  # lazy: start-up time
    from analyzer.checks.vector_kit import kit_data  # lazy: start-up time
    from analyzer.output.vectors import (  # lazy: start-up time
        KitOptions,
        check_folder,
        kit_files,
        kit_names,
        write_kit,
    )

    if not out_dir.strip():
        raise UsageProblem("empty --out: give a new folder, e.g. -o vectors/")
    if keyed and "jsonl" not in FORMATS[fmt]:
        raise UsageProblem("--keyed changes the JSON Lines records: use --format jsonl or both")
    bet_inputs(bet_specs, bet_files)  # files the kit reads: never overwritten
    check_folder(out_dir, kit_names(FORMATS[fmt]))  # before the build, which takes seconds
    tableau = tableau_of(rules)
    chosen = bet_choice(bet_specs, bet_files).bets
    bets = tuple(chosen) if bets_named(bet_specs, bet_files) else tuple(catalogue_bets())
    spec = tableau.name if rules.strip().lower().replace("_", "-") == tableau.name else rules
    modules = tuple(click.get_current_context().meta.get("bet_modules", ()))
    options = KitOptions(
        tableau, bets, seed, coups, FORMATS[fmt], spec, bet_specs, coverage, bet_files, keyed, modules
    )
    kit = kit_data(tableau, bets, seed, coups, coverage)  # the coups dealt, the bets settled and priced
    files = kit_files(kit, options)  # then only written
    write_kit(out_dir, files)
    total = sum(len(data) for data in files.values())
    echo(printable(f"wrote {len(files)} files ({total:,} bytes) to {out_dir}"))
    for name, data in files.items():
        echo(f"  {name:<20} {len(data):>12,} bytes")
