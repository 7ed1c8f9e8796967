"""Benchmark: the shoe-walk study's speed against issue 12's targets.

Prints medians (one BLAS thread per process):

* the float64 EV kernel for one side bet (Dragon 7) on real shoe states: coups per second per
  core (target: at least 100,000);
* the whole study (deal, EV before every coup, perfect play, realised results, statistics) per
  core: coups per second;
* 20,000 shoes of perfect play on Dragon 7 with 1 worker, with 2 worker processes and with
  ``workers="auto"`` (the free cores), each with the time that projects for 1,000,000 8-deck
  shoes (target: at most 10 minutes); the usable cores and the load average are printed with
  each, since workers on busy cores compete with the work already there; ``--full`` runs the
  1,000,000 shoes themselves (2 workers).

Prints figures; not a test.

    .venv/bin/python benchmarks/bench_study.py [--full]
"""

from __future__ import annotations

import os
import sys
import time

from _timing import median_seconds, rate

from analyzer.bets.catalogue import find_bet
from analyzer.engine.kernel import kernels_for
from analyzer.studies.dealing import Dealing, deal
from analyzer.studies.study import make_spec, run_block, run_study
from analyzer.studies.workers import free_cores, usable_cores


def main() -> None:
    dealt = deal(Dealing(), 2026, 0, 250)
    states = dealt.unseen[dealt.physical >= 6].astype("int64")
    kernel = kernels_for([find_bet("dragon-7")])[0][0]
    seconds = median_seconds(lambda: kernel.evs(states), repeat=9)
    print(f"EV kernel, Dragon 7, {len(states):,} coups of 250 real shoes (median): "
          f"{rate(len(states), seconds)}")
    spec = make_spec(["dragon-7"], shoes=9000, seed=2026, strategies=["perfect"])
    run_block(spec, 0)
    blocks = iter(range(1, 9))
    coups = 0

    def one_block() -> None:
        nonlocal coups
        coups = run_block(spec, next(blocks)).coups_dealt

    seconds = median_seconds(one_block, repeat=7, warmup=1)
    print(f"whole study, perfect play on Dragon 7, blocks of 1,000 shoes (median): {rate(coups, seconds)}")
    shoes = 1_000_000 if "--full" in sys.argv else 20_000
    for workers in ((2,) if "--full" in sys.argv else (1, 2, "auto")):
        load = os.getloadavg()[0]
        chosen = free_cores() if workers == "auto" else workers
        start = time.perf_counter()
        run_study(["dragon-7"], shoes=shoes, seed=2026, strategies=["perfect"], workers=workers)
        wall = time.perf_counter() - start
        print(
            f"{shoes:,} shoes of perfect play on Dragon 7, workers={workers} ({chosen} processes; "
            f"{usable_cores()} usable cores, load average {load:.2f} before): {wall:.1f} s "
            f"(projects to {wall * 1_000_000 / shoes / 60:.1f} minutes for 1,000,000 shoes; target 10)"
        )


if __name__ == "__main__":
    main()
