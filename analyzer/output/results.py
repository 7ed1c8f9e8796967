"""The committed tables in ``results/``: what ``punto-banco tables`` writes, built in memory."""

from __future__ import annotations

from analyzer.core.shoe import Shoe
from analyzer.engine.pricing import analyze
from analyzer.output.bet_tables import bet_tables
from analyzer.output.render import context_of, provenance, render
from analyzer.output.tables import TABLE_NAMES, analysis_tables
from analyzer.studies.bet_result import bet_result

ANALYSIS_DECKS = (1, 2, 4, 6, 8)
CATALOGUE_DECKS = (1, 6, 8)
FORMATS = {"md": "markdown", "json": "json"}
DIGITS = 10
#: The engine bugs and the coups each check needs to catch each (:func:`mutant_files`).
MUTANT_FILES = ("mutants.md", "mutants.json")
#: The files of :func:`analyzer.output.symbolic_tables.result_files`.
SYMBOLIC_FILES = ("symbolic-main.md", "symbolic-main.tex", "symbolic-catalogue.md", "symbolic-catalogue.tex")


def _meta(command: str, shoe: Shoe) -> dict[str, object]:
    return provenance(command, shoe.describe(), regenerate_with="punto-banco tables --out results/")


def file_names() -> frozenset[str]:
    """The name of every file :func:`generate` makes, known without building any (``tables``
    refuses a folder it may not write before the minutes the build takes)."""
    analysis = {f"analysis-{d}-decks.{ext}" for d in ANALYSIS_DECKS for ext in FORMATS}
    catalogue = {f"bets-{d}-decks.{ext}" for d in CATALOGUE_DECKS for ext in FORMATS}
    return frozenset(analysis | catalogue | set(SYMBOLIC_FILES) | set(MUTANT_FILES))


def generate() -> dict[str, str]:
    """File name -> content of every file in ``results/`` (deterministic: no dates); the JSON
    rows carry their shoe and rules as the commands' do (:func:`~analyzer.output.render.context_of`).
    The names are :func:`file_names`."""
    return {**analysis_files(), **catalogue_files(), **symbolic_files(), **mutant_files()}


def analysis_files() -> dict[str, str]:
    """``analysis-D-decks.md`` / ``.json``: every analysis table of ``analyze`` for each of
    :data:`ANALYSIS_DECKS` (quick: the value-level table alone)."""
    files: dict[str, str] = {}
    for decks in ANALYSIS_DECKS:
        shoe = Shoe.standard(decks)
        tables = analysis_tables(analyze(shoe), TABLE_NAMES)
        for ext, fmt in FORMATS.items():
            command = f"punto-banco analyze --decks {decks} --table all --format {fmt}"
            files[f"analysis-{decks}-decks.{ext}"] = render(
                tables, fmt, DIGITS, _meta(command, shoe), context=context_of(shoe, None), padded=False
            )
    return files


def catalogue_files() -> dict[str, str]:
    """``bets-D-decks.md`` / ``.json``: every catalogue bet with its events and fair pays for
    each of :data:`CATALOGUE_DECKS` (slow: every card-level table of the catalogue)."""
    files: dict[str, str] = {}
    for decks in CATALOGUE_DECKS:
        shoe = Shoe.standard(decks)
        tables = bet_tables(bet_result(shoe, (), (), all_bets=True, events=True, fair_pay=True))
        for ext, fmt in FORMATS.items():
            command = f"punto-banco bets --decks {decks} --all --events --fair-pay --format {fmt}"
            files[f"bets-{decks}-decks.{ext}"] = render(
                tables, fmt, DIGITS, _meta(command, shoe), context=context_of(shoe, None), padded=False
            )
    return files


def symbolic_files() -> dict[str, str]:
    """The closed forms in the number of decks, :data:`SYMBOLIC_FILES` (sympy, loaded only here)."""
    from analyzer.output.symbolic_tables import result_files  # lazy: sympy, for these files only
    from analyzer.studies.symbolic import STANDARD_SHOE  # lazy: as above

    return result_files(lambda command: {**_meta(command, Shoe.standard(1)), "shoe": STANDARD_SHOE})


def mutant_files() -> dict[str, str]:
    """``mutants.md`` / ``.json``: every engine bug of the catalogue, its diagnosis sentence and
    the coups each check needs to catch it (slow: a few minutes of seeded logs, probes and
    replays, :mod:`analyzer.checks.mutant_power`)."""
    from analyzer.checks.mutant_power import measure_all  # lazy: the checks, for these files only
    from analyzer.output.check_tables import mutant_power_table  # lazy: as above

    table = mutant_power_table(measure_all())
    shoe = Shoe.standard(8)
    files: dict[str, str] = {}
    for ext, fmt in FORMATS.items():
        files[f"mutants.{ext}"] = render(
            [table],
            fmt,
            DIGITS,
            _meta(f"punto-banco mutants --power --format {fmt}", shoe),
            context=context_of(shoe, None),
            padded=False,
        )
    return files
