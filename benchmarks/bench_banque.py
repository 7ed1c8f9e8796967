"""Benchmark: baccara banque solved at every stake of the study grid (target: one stake in
seconds, the study in minutes on the 2-core machine).

Each stake theta = 1/10 ... 9/10 is solved in a fresh process, as a user runs
``punto-banco baccara-banque --theta THETA`` (the game's payoff forms built, then the Nash,
independent and correlated cooperative solutions, each verified by exact best responses: a
failure stops the run).  Prints the CPU seconds and peak memory of each stake, then their
median and spread; not a test.

    .venv/bin/python benchmarks/bench_banque.py [--repeat 1]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from fractions import Fraction

_CHILD = """
import json, resource, sys, time
from fractions import Fraction
from analyzer.games.banque_solve import solve_banque
cpu = time.process_time()
solution = solve_banque(Fraction(sys.argv[1]))
assert solution.verified, sys.argv[1]
print(json.dumps({"cpu": time.process_time() - cpu,
                  "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--repeat", type=int, default=1, help="fresh processes per stake")
    args = parser.parse_args()
    cpus: list[float] = []
    peaks: list[float] = []
    for k in range(1, 10):
        theta = str(Fraction(k, 10))
        for _ in range(args.repeat):
            out = subprocess.run([sys.executable, "-c", _CHILD, theta], check=True,
                                 capture_output=True, text=True).stdout
            row = json.loads(out)
            cpus.append(row["cpu"])
            peaks.append(row["peak_mib"])
            print(f"theta = {theta:<5} {row['cpu']:7.2f} s CPU {row['peak_mib']:8.1f} MiB peak", flush=True)
    print(f"median {statistics.median(cpus):.2f} s CPU (spread {min(cpus):.2f}-{max(cpus):.2f}); "
          f"peak memory {max(peaks):.1f} MiB; the nine stakes {sum(cpus):.1f} s CPU in all")


if __name__ == "__main__":
    main()
