"""Benchmark: chemin de fer solved for every model on 1-8 decks, with and without a commission
(target: A1 in seconds, everything in minutes on the 2-core machine).

Times, in this one process, building each game (the exact payoffs) and solving it: A1; B2 and
B3 on d = 1..8 decks, each without a commission (B3 with its uniqueness decided by the exact
programs) and with a commission of 5%; every equilibrium is verified by exact best responses as
it is solved (a failure stops the run).  Prints one line per step and the total, wall and CPU
seconds; not a test.

    .venv/bin/python benchmarks/bench_chemin.py [--decks 8]
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--decks", type=int, default=8, help="solve B2 and B3 on 1..DECKS decks")
    args = parser.parse_args()

    from analyzer.games.model import shoe_game, with_replacement
    from analyzer.games.solve import solve

    wall0, cpu0 = time.perf_counter(), time.process_time()
    lines: list[str] = []

    def timed(label: str, func: object) -> None:
        w, c = time.perf_counter(), time.process_time()
        solution = func()  # type: ignore[operator]
        assert solution.verified, label
        wall, cpu = time.perf_counter() - w, time.process_time() - c
        lines.append(f"{label:<44} {wall:8.2f} s wall {cpu:8.2f} s CPU")
        print(lines[-1], flush=True)

    for alpha in (Fraction(0), Fraction(1, 20)):
        timed(f"A1, commission {alpha}", lambda a=alpha: solve(with_replacement(), a))
    for model in ("B2", "B3"):
        for d in range(1, args.decks + 1):
            for alpha in (Fraction(0), Fraction(1, 20)):
                label = f"{model}, {d} deck{'s' if d > 1 else ''}, commission {alpha}"
                timed(label, lambda m=model, k=d, a=alpha: solve(shoe_game(m, k), a))
    print(f"{'total':<44} {time.perf_counter() - wall0:8.2f} s wall {time.process_time() - cpu0:8.2f} s CPU")


if __name__ == "__main__":
    main()
