"""Benchmark: machine instructions per solve, counted by valgrind's callgrind (needs valgrind).

A count of instructions does not drift with a shared machine's speed (its CPU times vary by a
third from one run to the next), so it tells whether a change to the pricing path made it
cheaper.  The solve is ``bench_card_bets.py``'s: main bets, the pairs, Perfect Pair and Dragon
Bonus both sides priced on a new depleted suited 8-deck shoe, one ``price`` call each (or one
``Pricer``).  Each figure is (instructions of 400 solves - of 200 solves) / 200, so that the
start-up and the one-time building of plans cancel.  ``--batch``: the instructions per shoe of
``batch_ev`` over the whole catalogue on depleted 8-deck shoes (``bench_card_bets.py``'s batch),
(instructions of 640 shoes - of 64) / 576.

``--solves``: one solve as ``bench_kernel.py`` times it (a shoe from its 52 counts, then
``Pricer(shoe).summaries(bets)``) of macaujack's set and of the main bets, with the compiled
kernel and on the pure path (``PUNTO_BANCO_KERNEL=off``), (instructions of 300 solves - of 100)
/ 200; with ``--yardstick PATH`` (its C source, ``exact_side.c``), the yardstick's own solve of
the same shoes beside them.  ``--kernel off`` runs the other modes on the pure path.

    python benchmarks/bench_instructions.py [--pricer | --batch | --solves [--yardstick PATH]] [--kernel off]
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
SET_SOLVES = """
import sys
sys.path.insert(0, "benchmarks")
from bench_card_bets import depleted_shoes
from bench_kernel import MACAUJACK, MAIN
from analyzer import Pricer, Shoe, find_bet
bets = [find_bet(n) for n in (MACAUJACK if sys.argv[2] == "macaujack" else MAIN)]
shoes = [row.tolist() for row in depleted_shoes(20)]
for counts in shoes[:4]:
    Pricer(Shoe.from_suited_counts(counts)).summaries(bets)
for i in range(int(sys.argv[1])):
    Pricer(Shoe.from_suited_counts(shoes[i % 20])).summaries(bets)
"""
YARDSTICK = """
import ctypes, sys
sys.path.insert(0, "benchmarks")
from bench_card_bets import depleted_shoes
lib = ctypes.CDLL(sys.argv[2])
lib.init()
shoes = [row.tolist() for row in depleted_shoes(20)]
flat = (ctypes.c_int * (52 * 20))(*[x for s in shoes for x in s])
sink = ctypes.c_int64(0)
lib.bench.restype = ctypes.c_double
lib.bench(flat, 20, int(sys.argv[1]) // 20, ctypes.byref(sink))
"""
ROOT = Path(__file__).resolve().parent.parent


def instructions(solves: int, mode: str, script: str | None = None, kernel: str = "auto") -> int:
    code = script if script is not None else BATCH if mode == "batch" else SOLVES
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c",
         code, str(solves), mode],
        capture_output=True, text=True, check=True, cwd=ROOT,
        env={**os.environ, "OPENBLAS_NUM_THREADS": "1", "PUNTO_BANCO_KERNEL": kernel},
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"no instruction count in valgrind's output: {done.stderr[-300:]}")
    return int(found.group(1))


def solves() -> None:
    """Instructions per solve of macaujack's set and the main bets, kernel on and off, and of
    the yardstick when given."""
    rows: dict[str, float] = {}
    if "--yardstick" in sys.argv:
        import tempfile

        source = Path(sys.argv[sys.argv.index("--yardstick") + 1]).resolve()
        with tempfile.TemporaryDirectory() as tmp:
            library = str(Path(tmp) / "libexact_side.so")
            subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-o", library, str(source)], check=True)
            rows["yardstick (exact C, macaujack's set)"] = (
                instructions(2000, library, YARDSTICK) - instructions(200, library, YARDSTICK)
            ) / 1800
    for name in ("macaujack", "main"):
        for kernel in ("auto", "off"):
            many, few = (instructions(n, name, SET_SOLVES, kernel) for n in (300, 100))
            per = (many - few) / 200
            what = "macaujack's set" if name == "macaujack" else "main bets"
            rows[f"{what}, {'kernel' if kernel == 'auto' else 'pure path'}"] = per
    yard = rows.get("yardstick (exact C, macaujack's set)")
    print("| one solve (a new shoe from 52 counts) | million instructions | / yardstick |\n|---|---|---|")
    for what, per in rows.items():
        ratio = f"{per / yard:.2f}x" if yard else "-"
        print(f"| {what} | {per / 1e6:.3f} | {ratio} |")


def main() -> None:
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    kernel = sys.argv[sys.argv.index("--kernel") + 1] if "--kernel" in sys.argv else "auto"
    if "--solves" in sys.argv:
        solves()
        return
    if "--batch" in sys.argv:
        per = (instructions(640, "batch", kernel=kernel) - instructions(64, "batch", kernel=kernel)) / 576
        print(f"batch_ev, whole catalogue, per depleted 8-deck shoe: {per / 1e6:.2f} million instructions")
        return
    mode = "pricer" if "--pricer" in sys.argv else "price"
    per = (instructions(400, mode, kernel=kernel) - instructions(200, mode, kernel=kernel)) / 200
    how = "one `Pricer`" if mode == "pricer" else "one `price` each"
    print(f"main + pairs + Perfect Pair + Dragon Bonus, per solve ({how}, kernel {kernel}): {per / 1e6:.2f} "
          "million instructions")


if __name__ == "__main__":
    main()
