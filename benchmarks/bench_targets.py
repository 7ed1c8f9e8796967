"""Benchmark: every speed target, medians, one BLAS thread (per core).

Targets on the 2-core reference machine, after the one-time compile:
  main-bet analysis, 8 decks <= 2 ms; whole catalogue, 8 decks <= 10 ms; EOR table
  13 ranks x whole catalogue <= 100 ms; batch >= 10,000 depleted 8-deck shoes/s/core (main bets)
  and >= 2,000 (whole catalogue); flat from 1 to 10,000 decks; ``import analyzer`` <= 150 ms;
  compile <= 2 s or loaded from the disk cache; and the straightforward recursive enumeration
  (``baseline.py``) timed beside the engine, as a ratio.
Prints figures; not a test.

    .venv/bin/python benchmarks/bench_targets.py [--shoes 10000]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from typing import Any

from _timing import fresh_process_seconds, median_seconds, ms, rate
from baseline import recursive_counts

from analyzer import Pricer, Shoe, analyze, catalogue_bets, main_bets
from analyzer.engine.batch import batch_ev
from analyzer.studies.eor import effects_of_removal

IMPORT = "import time; t = time.perf_counter(); import analyzer; print(time.perf_counter() - t)"
COMPILE_ALL = (
    "import time; t = time.perf_counter(); "
    "from analyzer import Pricer, Shoe, catalogue_bets; "
    "Pricer(Shoe.standard(8)).summaries(catalogue_bets()); print(time.perf_counter() - t)"
)


def depleted_shoes(count: int, seed: int = 1) -> Any:
    """``count`` 8-deck shoes with 0..312 random cards dealt, as (count, 52) rank-and-suit counts."""
    import numpy as np  # after _timing has set one BLAS thread

    rng = np.random.default_rng(seed)
    out = np.full((count, 52), 8, dtype=np.int64)
    for i in range(count):
        dealt = rng.integers(0, 313)
        cards = rng.choice(416, size=dealt, replace=False) // 8
        np.subtract.at(out[i], cards, 1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=10_000, help="depleted shoes in the batch run")
    args = parser.parse_args()

    print(f"import analyzer (fresh process, median): {ms(fresh_process_seconds(IMPORT, repeat=7))}")
    cold = fresh_process_seconds(COMPILE_ALL, repeat=1, env={"PUNTO_BANCO_CACHE_DIR": "off"})
    with tempfile.TemporaryDirectory() as folder:
        env = {"PUNTO_BANCO_CACHE_DIR": folder}
        fresh_process_seconds(COMPILE_ALL, repeat=1, env=env)
        warm = fresh_process_seconds(COMPILE_ALL, repeat=3, env=env)
    print(f"compile for the whole catalogue + first pricing (no cache): {cold:.3f} s")
    print(f"the same, tables loaded from the disk cache: {warm:.3f} s")

    eight = Shoe.standard(8)
    t_analyze = median_seconds(lambda: analyze(eight))
    print(f"analyze, 8 decks (median): {ms(t_analyze)}")
    for decks in (1, 10_000):
        shoe = Shoe.standard(decks)
        print(f"analyze, {decks} decks (median): {ms(median_seconds(lambda s=shoe: analyze(s)))}")

    start = time.perf_counter()
    base = recursive_counts(list(eight.point_counts))
    t_base = time.perf_counter() - start
    a = analyze(eight)
    assert base[:3] == (a.outcome_counts["Banker"], a.outcome_counts["Player"], a.outcome_counts["Tie"])
    print(f"baseline recursive enumeration, 8 decks: {ms(t_base)}; "
          f"ratio baseline / analyze = {t_base / t_analyze:,.0f}x (same counts)")

    bets = catalogue_bets()
    print(f"whole catalogue ({len(bets)} bets), 8 decks (median): "
          f"{ms(median_seconds(lambda: Pricer(eight).summaries(bets)))}")
    print(f"EOR table, 13 ranks x whole catalogue, 8 decks (median): "
          f"{ms(median_seconds(lambda: effects_of_removal(eight, bets, depth=1), repeat=7))}")

    shoes = depleted_shoes(args.shoes)
    mains = main_bets()
    batch_ev(shoes[:64, :].reshape(-1, 13, 4).sum(axis=2), mains)
    rank_counts = shoes.reshape(-1, 13, 4).sum(axis=2)
    t_main = median_seconds(lambda: batch_ev(rank_counts, mains), repeat=3, warmup=0)
    print(f"batch, main bets, depleted 8-deck shoes (one core): {rate(args.shoes, t_main)}")
    few = shoes[: max(args.shoes // 5, 1)]
    batch_ev(few[:64], bets)
    t_cat = median_seconds(lambda: batch_ev(few, bets), repeat=3, warmup=0)
    print(f"batch, whole catalogue, depleted 8-deck shoes (one core): {rate(len(few), t_cat)}")
    # the batch result is the scalar result, bit for bit (spot check)
    check = batch_ev(few[:3], bets)
    for i in range(3):
        shoe = Shoe.from_suited_counts(int(x) for x in few[i])
        assert [check.ev(i, j) for j in range(len(bets))] == [s.ev for s in Pricer(shoe).summaries(bets)]


if __name__ == "__main__":
    main()
