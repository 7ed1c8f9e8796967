"""Benchmark: the compile, the disk cache, and the exact analysis of a shoe after it.

Prints: the value-level compile of the standard tableau (fresh process, no disk cache), its
load from the disk cache, and the median ``analyze`` of 1, 8 and 10,000 decks (flat in the
number of decks).  Prints figures; not a test.

    .venv/bin/python benchmarks/bench_engine.py
"""

from __future__ import annotations

import tempfile

from _timing import fresh_process_seconds, median_seconds, ms

from analyzer import Shoe, analyze

COMPILE = (
    "import time; t = time.perf_counter(); "
    "from analyzer.core.tableau import STANDARD; from analyzer.engine.pricing import ANALYSIS_READS; "
    "from analyzer.engine.lookup import compile_table; "
    "compile_table(STANDARD, ANALYSIS_READS); print(time.perf_counter() - t)"
)


def main() -> None:
    cold = fresh_process_seconds(COMPILE, repeat=3, env={"PUNTO_BANCO_CACHE_DIR": "off"})
    with tempfile.TemporaryDirectory() as folder:
        env = {"PUNTO_BANCO_CACHE_DIR": folder}
        fresh_process_seconds(COMPILE, repeat=1, env=env)  # writes the cache
        warm = fresh_process_seconds(COMPILE, repeat=3, env=env)
    print(f"compile, value level (fresh process, no cache): {cold:.3f} s")
    print(f"compile, value level (fresh process, from the disk cache): {warm:.3f} s")
    analyze(Shoe.standard(8))
    for decks in (1, 8, 10_000):
        shoe = Shoe.standard(decks)
        print(f"analyze, {decks} decks (median): {ms(median_seconds(lambda s=shoe: analyze(s)))}")


if __name__ == "__main__":
    main()
