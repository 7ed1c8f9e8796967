"""Benchmark: the shoe-walk study's speed against issue 12's and issue 30's targets.

Prints medians:

* the float64 EV kernel for one side bet (Dragon 7) and for a card-level bet (a Banker
  three-card flush from a bet file) on real shoe states: coups per second per core (target: at
  least 100,000 for Dragon 7), one BLAS thread;
* the whole study (deal, EV before every coup, perfect play, realised results, statistics) per
  core: coups per second, one BLAS thread;
* 20,000 shoes of perfect play on Dragon 7 with 1 worker, with 2 worker processes and with
  ``workers="auto"`` (the free cores), each with the time that projects for 1,000,000 8-deck
  shoes (target: at most 10 minutes); the usable cores and the load average are printed with
  each, since workers on busy cores compete with the work already there; ``--full`` runs the
  1,000,000 shoes themselves (2 workers);
* the command as a user runs it (issue 30, item 5: a study of a card-level bet within 3x of
  Dragon 7 per shoe): ``punto-banco study --bet-file flush.toml --shoes N`` against
  ``punto-banco study --bet dragon-7 --shoes N``, each a fresh process with the defaults (every
  table, ``--workers auto``, whatever threads the BLAS library starts: no
  ``OPENBLAS_NUM_THREADS`` in its environment), the tables loaded (a first run of each fills a
  cache folder of its own, not counted), CPU time from the process's own resource usage
  (``os.wait4``: user + system, its worker processes included).  The two run in turns, round
  after round (``--rounds``); the figures are medians with their range, and the ratio is taken
  within each round.  ``--command`` prints this part alone.

Prints figures; not a test.

    .venv/bin/python benchmarks/bench_study.py [--full] [--command] [--rounds 5] [--shoes 2000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _timing import median_seconds, rate

from analyzer.bets.catalogue import find_bet
from analyzer.bets.files import parse_bets
from analyzer.engine.kernel import kernels_for
from analyzer.studies.dealing import Dealing, deal
from analyzer.studies.study import make_spec, run_block, run_study
from analyzer.studies.workers import free_cores, usable_cores

#: A card-level bet that reads suits (issue 30: "a Banker three-card flush bet from a bet file").
FLUSH = """[[bet]]
name = "banker-three-card-flush"
title = "Banker three-card flush"
[[bet.pay]]
event = "Banker's three cards of one suit"
when = { banker_hand = { size = 3, flush = true } }
pays = 30
"""
#: Removed from the commands' environment: a user's shell does not set them.
THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
CLI = [sys.executable, "-m", "analyzer"]


def cpu_seconds(args: list[str], env: dict[str, str]) -> float:
    """User + system CPU seconds of one fresh process running ``args`` (its reaped worker
    processes included), in the user's environment plus ``env``."""
    base = {k: v for k, v in os.environ.items() if k not in THREAD_VARIABLES}
    with tempfile.TemporaryFile() as err:
        child = subprocess.Popen(args, env={**base, **env}, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(child.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            raise SystemExit(f"{' '.join(args)} failed: {err.read().decode(errors='replace')[-400:]}")
    return usage.ru_utime + usage.ru_stime


def spread(values: list[float], fmt: str = "{:.2f}") -> str:
    """The median and the range of ``values``."""
    return f"{fmt.format(statistics.median(values))} ({fmt.format(min(values))}–{fmt.format(max(values))})"


def command_figures(rounds: int, shoes: int) -> None:
    """The study command as a user runs it: a Banker three-card flush from a bet file against
    Dragon 7, per shoe, in turns (see the module docstring)."""
    with tempfile.TemporaryDirectory() as folder:
        bets = Path(folder) / "flush.toml"
        bets.write_text(FLUSH)
        env = {"PUNTO_BANCO_CACHE_DIR": str(Path(folder) / "cache")}
        commands = {
            "flush": [*CLI, "study", "--bet-file", str(bets), "--shoes", str(shoes)],
            "dragon-7": [*CLI, "study", "--bet", "dragon-7", "--shoes", str(shoes)],
        }
        for args in commands.values():  # tables loaded: the first runs fill the cache folder
            cpu_seconds(args, env)
        times: dict[str, list[float]] = {name: [] for name in commands}
        ratios = []
        loads = []
        for _ in range(rounds):
            loads.append(os.getloadavg()[0])
            for name, args in commands.items():
                times[name].append(cpu_seconds(args, env))
            ratios.append(times["flush"][-1] / times["dragon-7"][-1])
    print(
        f"\nThe command as a user runs it, {shoes:,} shoes, {rounds} rounds ({usable_cores()} usable "
        f"cores, load average {min(loads):.2f}–{max(loads):.2f} at the rounds' start); CPU seconds, "
        "median (range):\n"
    )
    print("| command | CPU seconds | per shoe | target |\n|---|---|---|---|")
    for name, label in (("flush", "a Banker three-card flush (bet file)"), ("dragon-7", "Dragon 7")):
        per = [1000 * t / shoes for t in times[name]]
        print(f"| `study`, {label} | {spread(times[name])} | {spread(per, '{:.3f}')} ms | |")
    print(f"| flush / Dragon 7, per shoe (in each round) | {spread(ratios)}x | | <= 3x |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="1,000,000 shoes on 2 workers")
    parser.add_argument("--command", action="store_true", help="only the command as a user runs it")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--shoes", type=int, default=2000, help="shoes of the command's runs")
    opts = parser.parse_args()
    if not opts.command:
        in_process(opts.full)
    command_figures(opts.rounds, opts.shoes)


def in_process(full: bool) -> None:
    """The kernel, one block of the study and 20,000 shoes on 1, 2 and auto workers (one BLAS
    thread: see :mod:`_timing`)."""
    dealt = deal(Dealing(), 2026, 0, 250)
    states = dealt.unseen[dealt.physical >= 6].astype("int64")
    (flush,) = parse_bets(FLUSH, "flush.toml")
    for label, bet in (("Dragon 7", find_bet("dragon-7")), ("a Banker three-card flush", flush)):
        kernel = kernels_for([bet])[0][0]
        seconds = median_seconds(lambda k=kernel: k.evs(states), repeat=9)
        per_coup = rate(len(states), seconds)
        print(f"EV kernel, {label}, {len(states):,} coups of 250 real shoes (median): {per_coup}")
    spec = make_spec(["dragon-7"], shoes=9000, seed=2026, strategies=["perfect"])
    run_block(spec, 0)
    blocks = iter(range(1, 9))
    coups = 0

    def one_block() -> None:
        nonlocal coups
        coups = run_block(spec, next(blocks)).coups_dealt

    seconds = median_seconds(one_block, repeat=7, warmup=1)
    print(f"whole study, perfect play on Dragon 7, blocks of 1,000 shoes (median): {rate(coups, seconds)}")
    shoes = 1_000_000 if full else 20_000
    for workers in ((2,) if full else (1, 2, "auto")):
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
