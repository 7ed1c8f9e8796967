"""The committed tables in ``results/``: what ``punto-banco tables`` writes, built in memory."""

from __future__ import annotations

from analyzer.core.shoe import Shoe
from analyzer.engine.pricing import analyze
from analyzer.output.bet_tables import bet_report
from analyzer.output.render import context_of, provenance, render
from analyzer.output.tables import TABLE_NAMES, analysis_tables

ANALYSIS_DECKS = (1, 2, 4, 6, 8)
CATALOGUE_DECKS = (1, 6, 8)
FORMATS = {"md": "markdown", "json": "json"}
DIGITS = 10


def _meta(command: str, shoe: Shoe) -> dict[str, object]:
    return provenance(command, shoe.describe(), regenerate_with="punto-banco tables --out results/")


def generate() -> dict[str, str]:
    """File name -> content of every file in ``results/`` (deterministic: no dates); the JSON
    rows carry their shoe and rules as the commands' do (:func:`~analyzer.output.render.context_of`)."""
    files: dict[str, str] = {}
    for decks in ANALYSIS_DECKS:
        shoe = Shoe.standard(decks)
        tables = analysis_tables(analyze(shoe), TABLE_NAMES)
        for ext, fmt in FORMATS.items():
            command = f"punto-banco analyze --decks {decks} --table all --format {fmt}"
            files[f"analysis-{decks}-decks.{ext}"] = render(
                tables, fmt, DIGITS, _meta(command, shoe), context=context_of(shoe, None)
            )
    for decks in CATALOGUE_DECKS:
        shoe = Shoe.standard(decks)
        tables = bet_report(shoe, (), (), all_bets=True, events=True, fair_pay=True)
        for ext, fmt in FORMATS.items():
            command = f"punto-banco bets --decks {decks} --all --events --fair-pay --format {fmt}"
            files[f"bets-{decks}-decks.{ext}"] = render(
                tables, fmt, DIGITS, _meta(command, shoe), context=context_of(shoe, None)
            )
    files.update(_symbolic_files())
    return files


def _symbolic_files() -> dict[str, str]:
    """The closed forms in the number of decks (sympy, loaded only here)."""
    from analyzer.studies.symbolic import STANDARD_SHOE, result_files

    return result_files(lambda command: {**_meta(command, Shoe.standard(1)), "shoe": STANDARD_SHOE})
