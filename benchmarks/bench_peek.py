"""Benchmark: partial information (``punto-banco peek``; targets: one-card and four-card analyses
in seconds, the search over two-group sorts under a minute).

Each case runs in a fresh process (the walk of the dealing tree is cached in memory, so a first
run pays for it), and the script prints, per case: CPU seconds, wall seconds and the peak
resident memory of that process (``ru_maxrss``).  Then the same cases again in one process, to
show what the walk's cache saves.  Prints figures; not a test.

    .venv/bin/python benchmarks/bench_peek.py
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

CASES = {
    "one card, 6-9, Player/Banker": "peek(SHOE, 'P1', '6-9', [P, B])",
    "four cards, 6-9, Player/Banker/Tie": "peek(SHOE, 'first:4', '6-9', [P, B, T])",
    "P1 B1 P3 B3, A-3/4-7/8-K, 5 bets": "peek(SHOE, 'P1,B1,P3,B3', 'A-3/4-7/8-K', [P, B, T, D7, P8])",
    "burn card and P1, colour": "peek(SHOE, 'burn,P1', 'colour', [P, B])",
    "search, one card, 511 value sorts": "search_sorts(SHOE, 'P1', [P, B])",
    "search, four cards, 511 value sorts": "search_sorts(SHOE, 'first:4', [P, B, T])",
    "search, one card, 4,095 rank sorts": "search_sorts(SHOE, 'P1', [P, B], by='rank')",
    "search, four cards, 4,095 rank sorts": "search_sorts(SHOE, 'first:4', [P, B, T], by='rank')",
    "a bet's exposure (report section)": "sorting_exposure(B)",
}

SETUP = """
import json, resource, time
from analyzer import Shoe, find_bet
from analyzer.studies.peek import peek, search_sorts, sorting_exposure
SHOE = Shoe.standard(8)
P, B, T, D7, P8 = (find_bet(n) for n in ("player", "banker", "tie", "dragon-7", "panda-8"))
"""

RUN = """
wall, cpu = time.perf_counter(), time.process_time()
{call}
out = {{"cpu": time.process_time() - cpu, "wall": time.perf_counter() - wall,
       "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}
print(json.dumps(out))
"""


def main() -> None:
    print(f"{'case':40} {'CPU s':>8} {'wall s':>8} {'peak MiB':>9}   (fresh process each)")
    for name, call in CASES.items():
        code = SETUP + RUN.format(call=call)
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        got = json.loads(done.stdout.strip().splitlines()[-1])
        print(f"{name:40} {got['cpu']:8.2f} {got['wall']:8.2f} {got['peak_mib']:9.1f}")
    print()
    print("the same cases again in one process, the walk cached (CPU seconds):")
    namespace: dict[str, object] = {}
    exec(SETUP, namespace)
    for name, call in CASES.items():
        exec(call, namespace)  # warm the walk
        cpu = time.process_time()
        exec(call, namespace)
        print(f"  {name:40} {time.process_time() - cpu:8.2f}")


if __name__ == "__main__":
    main()
