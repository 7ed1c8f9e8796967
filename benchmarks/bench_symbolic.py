"""Benchmark: closed forms in the number of decks for the whole catalogue (target: at most 30 s).

Times, in one fresh process, each step of ``analyzer.studies.symbolic`` for every catalogue bet and every
engine table: compiling the dealing tree (the engine's step; its on-disk cache is switched off
unless ``--warm``), interpolating the count polynomials (8 engine evaluations per table), the
rational functions of every bet (EV, house edge, per resolved bet, variance, fair pays), and
factoring and printing them as the Markdown and LaTeX files of ``results/``.  Then the same
again in the same process, to show what the in-process caches save.  Prints figures; not a test.

    .venv/bin/python benchmarks/bench_symbolic.py [--warm]
"""

from __future__ import annotations

import argparse
import os
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--warm", action="store_true", help="allow the engine's on-disk table cache")
    args = parser.parse_args()
    if not args.warm:
        os.environ["PUNTO_BANCO_CACHE_DIR"] = "off"

    start = time.perf_counter()
    from analyzer.bets.catalogue import catalogue_bets
    from analyzer.core.tableau import STANDARD
    from analyzer.engine.lookup import compile_table
    from analyzer.engine.pricing import ANALYSIS_READS
    from analyzer.output.symbolic_tables import render_sections
    from analyzer.studies.symbolic import (
        ENGINE_TABLES,
        bet_sections,
        engine_sections,
        symbolic_distribution,
    )

    steps: list[tuple[str, float]] = []

    def step(name: str, t0: float) -> float:
        now = time.perf_counter()
        steps.append((name, now - t0))
        return now

    t = step("import (sympy included)", start)
    compile_table(STANDARD, ANALYSIS_READS)
    t = step("compile the dealing tree (value level)" + (" [disk cache allowed]" if args.warm else ""), t)
    symbolic_distribution()
    t = step("count polynomials (interpolate d = 1..7, check d = 8)", t)
    bets = catalogue_bets()
    sections = engine_sections(ENGINE_TABLES) + bet_sections(bets)
    forms = sum(len(s.forms) for s in sections)
    t = step(f"rational functions: {len(bets)} bets, {forms} closed forms", t)
    size = sum(len(render_sections(sections, fmt, 10)) for fmt in ("markdown", "latex"))
    t = step(f"factor and print (Markdown + LaTeX, {size:,} characters)", t)
    total = t - start

    t = time.perf_counter()
    sections = engine_sections(ENGINE_TABLES) + bet_sections(catalogue_bets())
    for fmt in ("markdown", "latex"):
        render_sections(sections, fmt, 10)
    again = time.perf_counter() - t

    width = max(len(name) for name, _ in steps)
    for name, secs in steps:
        print(f"{name:<{width}}  {secs:7.2f} s")
    print(f"{'total, whole catalogue, fresh process':<{width}}  {total:7.2f} s  (target: <= 30 s)")
    print(f"{'again in the same process (cached)':<{width}}  {again:7.2f} s")


if __name__ == "__main__":
    main()
