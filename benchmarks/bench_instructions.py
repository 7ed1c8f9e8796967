"""Benchmark: machine instructions per solve, counted by valgrind's callgrind (needs valgrind).

A count of instructions does not drift with a shared machine's speed (its CPU times vary by a
third from one run to the next), so it tells whether a change to the pricing path made it
cheaper.  The solve is ``bench_card_bets.py``'s: main bets, the pairs, Perfect Pair and Dragon
Bonus both sides priced on a new depleted suited 8-deck shoe, one ``price`` call each (or one
``Pricer``).  Each figure is (instructions of 400 solves - of 200 solves) / 200, so that the
start-up and the one-time building of plans cancel.  ``--batch``: the instructions per shoe of
``batch_ev`` over the whole catalogue on depleted 8-deck shoes (``bench_card_bets.py``'s batch),
(instructions of 640 shoes - of 64) / 576.

    python benchmarks/bench_instructions.py [--pricer | --batch]
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

SOLVES = """
import sys
from analyzer import Pricer, Shoe, find_bet, price
names = ["banker", "player", "tie", "player-pair", "banker-pair", "perfect-pair",
         "dragon-bonus-player", "dragon-bonus-banker"]
bets = [find_bet(n) for n in names]
removed = ["As", "5h", "Kd", "9c", "2h", "Qs", "7d", "3s"]
for shoe in [Shoe.standard(8).remove(c) for c in ("As 5h Kd", "9c 9c 2h Qs", "Kh 7d 7d 3s 4c")]:
    for b in bets:
        price(b, shoe)
for i in range(int(sys.argv[1])):
    shoe = Shoe.standard(8).remove(removed[: 1 + i % 7] + ["Kh"] * (i % 5))
    if sys.argv[2] == "pricer":
        Pricer(shoe).summaries(bets)
    else:
        for b in bets:
            price(b, shoe)
"""
BATCH = """
import sys
sys.path.insert(0, "benchmarks")
from bench_card_bets import depleted_shoes
from analyzer import catalogue_bets
from analyzer.engine.batch import batch_ev
bets = catalogue_bets()
shoes = depleted_shoes(int(sys.argv[1]))
batch_ev(shoes[:8], bets)
batch_ev(shoes, bets)
"""
ROOT = Path(__file__).resolve().parent.parent


def instructions(solves: int, mode: str) -> int:
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c",
         BATCH if mode == "batch" else SOLVES, str(solves), mode],
        capture_output=True, text=True, check=True, cwd=ROOT,
        env={**os.environ, "OPENBLAS_NUM_THREADS": "1"},
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"no instruction count in valgrind's output: {done.stderr[-300:]}")
    return int(found.group(1))


def main() -> None:
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    if "--batch" in sys.argv:
        per = (instructions(640, "batch") - instructions(64, "batch")) / 576
        print(f"batch_ev, whole catalogue, per depleted 8-deck shoe: {per / 1e6:.2f} million instructions")
        return
    mode = "pricer" if "--pricer" in sys.argv else "price"
    per = (instructions(400, mode) - instructions(200, mode)) / 200
    how = "one `Pricer`" if mode == "pricer" else "one `price` each"
    print(f"main + pairs + Perfect Pair + Dragon Bonus, per solve ({how}): {per / 1e6:.2f} million "
          "instructions")


if __name__ == "__main__":
    main()
