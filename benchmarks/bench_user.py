"""Benchmark: the speed a user feels, against the targets of the rule-set and card-bet issues.

Prints medians (one BLAS thread):

* a warm ``punto-banco analyze`` (tables in the disk cache): CPU time of the whole process,
  beside a bare ``python -c "import numpy"`` (target: no more);
* the first ``punto-banco analyze`` after install, with an empty cache folder (target: 0.5 s);
* the main-bet solve of a depleted 8-deck shoe in process (target: 0.2 ms);
* main bets + Player, Banker and Either Pair + suited Perfect Pair + Dragon Bonus on both
  sides, on a depleted suited 8-deck shoe (target: 0.4 ms per solve after the compile);
* the cold compile of each catalogue bet, alone, in a fresh process without a disk cache
  (target: 3 s each; ``--skip-compiles`` leaves it out, it takes minutes);
* the whole catalogue on one depleted shoe, warm (target: 50 ms).

Prints figures; not a test.

    .venv/bin/python benchmarks/bench_user.py [--skip-compiles]
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _timing import median_seconds, ms

from analyzer import Pricer, Shoe, catalogue_bets, main_bets
from analyzer.bets.catalogue import find_bet

PAIR_SET = (
    "banker",
    "player",
    "tie",
    "player-pair",
    "banker-pair",
    "either-pair",
    "perfect-pair",
    "dragon-bonus-player",
    "dragon-bonus-banker",
)


def user_env(extra: dict[str, str]) -> dict[str, str]:
    """The environment of a user's shell: bytecode caches written (as pip installs a package),
    plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, **extra}


def child_cpu(argv: list[str], env: dict[str, str], repeat: int) -> tuple[float, float]:
    """Median (CPU seconds, wall seconds) of running ``argv`` as a fresh process."""
    cpus, walls = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(argv, env=user_env(env), check=True, stdout=subprocess.DEVNULL)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return statistics.median(cpus), statistics.median(walls)


def depleted(seed: int, dealt: int = 150) -> Shoe:
    """An 8-deck suited shoe with ``dealt`` random cards removed."""
    import random

    rng = random.Random(seed)
    counts = [8] * 52
    for card in rng.sample(range(416), dealt):
        counts[card // 8] -= 1
    return Shoe.from_suited_counts(counts)


def solve_time(names: tuple[str, ...] | None, shoes: list[Shoe]) -> float:
    bets = main_bets() if names is None else [find_bet(n) for n in names]
    Pricer(shoes[0]).summaries(bets)  # compile
    it = iter(shoes * 1000)
    return median_seconds(lambda: Pricer(next(it)).summaries(bets), repeat=201, warmup=5)


def main() -> None:
    cli = shutil.which("punto-banco") or str(Path(sys.executable).with_name("punto-banco"))
    with tempfile.TemporaryDirectory() as folder:
        env = {"PUNTO_BANCO_CACHE_DIR": folder}
        first_cpu, first_wall = child_cpu([cli, "analyze"], env, repeat=1)
        cpu, wall = child_cpu([cli, "analyze"], env, repeat=9)
    numpy_cpu, numpy_wall = child_cpu([sys.executable, "-c", "import numpy"], {}, repeat=9)
    print(
        f"first punto-banco analyze, empty cache: {first_wall:.3f} s wall, "
        f"{first_cpu:.3f} s CPU (target 0.5 s)"
    )
    print(
        f"warm punto-banco analyze: {cpu:.3f} s CPU, {wall:.3f} s wall; "
        f"python -c 'import numpy': {numpy_cpu:.3f} s CPU, {numpy_wall:.3f} s wall (target: no more)"
    )

    shoes = [depleted(seed) for seed in range(50)]
    print(f"main-bet solve, depleted 8-deck shoe (median): {ms(solve_time(None, shoes))} (target 0.2 ms)")
    print(
        f"main + pairs + Perfect Pair + Dragon Bonus both sides, depleted suited 8-deck shoe (median): "
        f"{ms(solve_time(PAIR_SET, shoes))} (target 0.4 ms)"
    )

    bets = catalogue_bets()
    Pricer(shoes[0]).summaries(bets)
    it = iter(shoes * 100)
    t = median_seconds(lambda: Pricer(next(it)).summaries(bets), repeat=21)
    print(f"whole catalogue ({len(bets)} bets), depleted 8-deck shoe, warm (median): {ms(t)} (target 50 ms)")

    if "--skip-compiles" in sys.argv:
        return
    code = (
        "import sys, time; from analyzer import Pricer, Shoe; from analyzer.bets.catalogue import find_bet; "
        "b = find_bet(sys.argv[1]); t = time.perf_counter(); Pricer(Shoe.standard(8)).summaries([b]); "
        "print(time.perf_counter() - t)"
    )
    slow = []
    first = {b.name.partition(":")[0]: b.name for b in reversed(bets)}  # one spec per catalogue entry
    for name in reversed(first.values()):
        done = subprocess.run(
            [sys.executable, "-c", code, name],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PUNTO_BANCO_CACHE_DIR": "off"},
        )
        seconds = float(done.stdout.split()[-1])
        print(f"  cold compile + first price, {name}: {seconds:.2f} s")
        if seconds > 3:
            slow.append(name)
    print(f"cold compiles over 3 s: {', '.join(slow) or 'none'}")


if __name__ == "__main__":
    main()
