"""Benchmark: one exact solve against a compiled yardstick, the compiled kernel on and off.

The yardstick is an exact solver in C of the set of bets the public Rust analyser macaujack
solves (main bets, Player/Banker/Either Pair, Perfect Pair 25/200, Dragon Bonus both sides),
kept outside the project as measuring equipment: give its source with ``--yardstick PATH``
(``exact_side.c``); it is built here with gcc into a temporary folder and loaded with ctypes.
Without it, the rows print the engine's own times only.

One solve is what the yardstick does: from a shoe's 52 suited counts to every bet's exact
statistics -- here ``Pricer(Shoe.from_suited_counts(counts)).summaries(bets)``, a new shoe each
time (so nothing of the shoe is reused), on ``--shoes`` depleted 8-deck shoes in turn.  Its
CPU time (this thread's clock, as the yardstick's) is taken in ``--rounds`` rounds; each round
times, one after the other, the yardstick, the engine with its compiled kernel and the engine
on its pure path (``PUNTO_BANCO_KERNEL=off``).  The machine's speed drifts from second to
second, so each round's ratios compare runs made side by side: the figures are the medians of
the rounds and their spread (lowest and highest).  Before timing, the engine's EVs are checked
equal to the yardstick's on every shoe.

``--startup`` also times the whole ``punto-banco analyze`` process against ``python -c "import
numpy"`` in a regular install of this checkout (as ``bench_card_bets.py`` does), with the
kernel and without it, and ``--baseline PATH`` the same of another checkout (say the main
branch's), 15 rounds in turns.  One BLAS thread throughout.

    .venv/bin/python benchmarks/bench_kernel.py --yardstick ../shared/bench/exact_side.c [--startup]
"""

from __future__ import annotations

import argparse
import ctypes
import os
import statistics
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

import _timing  # noqa: F401  # first: one BLAS thread before numpy loads
from bench_card_bets import depleted_shoes, installed_python, timed

from analyzer import Pricer, Shoe, find_bet
from analyzer.engine import evaluate, native

ROOT = Path(__file__).resolve().parent.parent
#: The yardstick's bets, in the order of its results.
MACAUJACK = (
    "banker",
    "player",
    "tie",
    "player-pair",
    "banker-pair",
    "either-pair",
    "perfect-pair:25/200",
    "dragon-bonus-player",
    "dragon-bonus-banker",
)
MAIN = MACAUJACK[:3]


class Yardstick:
    """The yardstick's shared library: ``solve`` one shoe, ``per_solve`` CPU seconds."""

    def __init__(self, source: Path, folder: Path) -> None:
        library = folder / "libexact_side.so"
        subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-o", str(library), str(source)], check=True)
        self.lib = ctypes.CDLL(str(library))
        self.lib.init()
        self.lib.bench.restype = ctypes.c_double
        self.lib.bench.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_void_p]
        self.sink = ctypes.c_int64(0)

    def solve(self, counts: list[int]) -> list[Fraction]:
        out = (ctypes.c_int64 * 18)()
        self.lib.solve((ctypes.c_int * 52)(*counts), out)
        return [Fraction(out[k], out[9 + k]) for k in range(9)]

    def per_solve(self, shoes: list[list[int]], passes: int) -> float:
        flat = (ctypes.c_int * (52 * len(shoes)))(*[x for s in shoes for x in s])
        return float(self.lib.bench(flat, len(shoes), passes, ctypes.byref(self.sink)))


def switch(setting: str) -> None:
    """The kernel on (``auto``) or off, and no shoe remembered."""
    os.environ[native.ENV] = setting
    native.reset()
    evaluate._SHOES.clear()
    evaluate._LAST.clear()


def solve_time(shoes: list[list[int]], bets: list[object], passes: int) -> float:
    """CPU seconds (this thread) per solve, over ``passes`` passes over the shoes."""
    start = time.thread_time()
    for _ in range(passes):
        for counts in shoes:
            Pricer(Shoe.from_suited_counts(counts)).summaries(bets)  # type: ignore[arg-type]
    return (time.thread_time() - start) / (passes * len(shoes))


def spread(values: list[float], scale: float = 1.0, digits: int = 3) -> str:
    """``median (lowest-highest)``."""
    return (f"{statistics.median(values) * scale:.{digits}f} "
            f"({min(values) * scale:.{digits}f}-{max(values) * scale:.{digits}f})")


def solves(args: argparse.Namespace) -> None:
    shoes = [row.tolist() for row in depleted_shoes(args.shoes)]
    sets = {"macaujack's set": [find_bet(n) for n in MACAUJACK], "main bets": [find_bet(n) for n in MAIN]}
    with tempfile.TemporaryDirectory() as tmp:
        yard = Yardstick(Path(args.yardstick), Path(tmp)) if args.yardstick else None
        if yard is not None:  # the same numbers first
            summaries = [Pricer(Shoe.from_suited_counts(c)).summaries(sets["macaujack's set"]) for c in shoes]
            for counts, ours in zip(shoes, summaries, strict=True):
                if yard.solve(counts) != [s.ev for s in ours]:
                    raise SystemExit(f"the engine and the yardstick disagree on the shoe {counts}")
        for setting in ("auto", "off"):  # warm: tables loaded, plans built
            switch(setting)
            for bets in sets.values():
                solve_time(shoes, bets, 2)
        times: dict[str, list[float]] = {"yardstick": []}
        for _ in range(args.rounds):
            if yard is not None:
                times["yardstick"].append(yard.per_solve(shoes, 20))
            for setting in ("auto", "off"):
                switch(setting)
                for name, bets in sets.items():
                    times.setdefault(f"{name}, {setting}", []).append(solve_time(shoes, bets, args.passes))
        switch("auto")
    kernel = "compiled kernel" if native.built() else "kernel NOT BUILT: the pure path twice"
    print(f"One solve, {args.shoes} depleted suited 8-deck shoes, {args.rounds} rounds: CPU ms per solve, "
          f"median (lowest-highest); {kernel}")
    print("| what | ms per solve | / yardstick |\n|---|---|---|")
    if yard is not None:
        print(f"| yardstick (exact C, macaujack's set) | {spread(times['yardstick'], 1e3, 4)} | 1 |")
    for key, values in times.items():
        if key == "yardstick":
            continue
        name, setting = key.rsplit(", ", 1)
        path = "kernel" if setting == "auto" else "pure path"
        ratio = "-"
        if yard is not None:
            ratio = spread([v / y for v, y in zip(values, times["yardstick"], strict=True)], 1, 2) + "x"
        print(f"| {name}, {path} | {spread(values, 1e3, 4)} | {ratio} |")


def startup(args: argparse.Namespace) -> None:
    """``analyze`` against ``import numpy``, whole processes in turns (CPU seconds)."""
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"this checkout": ROOT}
        if args.baseline:
            trees["baseline"] = Path(args.baseline).resolve()
        runs: dict[str, tuple[list[str], dict[str, str]]] = {}
        for label, tree in trees.items():
            python = str(_installed(tree, Path(tmp) / label.replace(" ", "-")))
            runs[f"{label}: numpy"] = ([python, "-c", "import numpy"], {})
            runs[f"{label}: analyze"] = ([python, "-m", "analyzer", "analyze"], {})
            if label == "this checkout":
                runs[f"{label}: analyze, kernel off"] = (
                    [python, "-m", "analyzer", "analyze"], {native.ENV: "off"}
                )
        times: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(15):
            for name, (argv, env) in runs.items():
                times[name].append(timed(argv, {"OPENBLAS_NUM_THREADS": "1", **env}, 1)[0])
    print("\n`punto-banco analyze`, a regular install, warm: CPU ms of the whole process, median "
          "(lowest-highest) of 15 rounds in turns; / `python -c \"import numpy\"` there, the median of "
          "each round's ratio")
    print("| what | CPU ms | / numpy |\n|---|---|---|")
    for name, values in times.items():
        label = name.split(":")[0]
        numpy = times[f"{label}: numpy"]
        ratios = [v / n for v, n in zip(values, numpy, strict=True)]
        print(f"| {name} | {spread(values, 1e3, 1)} | {spread(ratios, 1, 3)}x |")


def _installed(tree: Path, folder: Path) -> Path:
    """A regular install of the checkout ``tree`` (built from a copy: the tree is not written)."""
    folder.mkdir(parents=True)
    copy = folder / "src"
    if (tree / ".git").exists():
        archive = subprocess.run(["git", "-C", str(tree), "archive", "HEAD"], check=True, capture_output=True)
        copy.mkdir()
        subprocess.run(["tar", "-x", "-C", str(copy)], input=archive.stdout, check=True)
        for path in ("analyzer", "setup.py", "pyproject.toml"):  # uncommitted work as it stands
            source = tree / path
            if source.is_dir():
                subprocess.run(["cp", "-r", f"{source}/.", str(copy / path)], check=True)
            elif source.exists():
                subprocess.run(["cp", str(source), str(copy / path)], check=True)
    else:
        subprocess.run(["cp", "-r", str(tree), str(copy)], check=True)
    for built in copy.rglob("*.so"):
        built.unlink()  # built again by the install, as a user's would be
    return _python_for(copy, folder)


def _python_for(source: Path, folder: Path) -> Path:
    import bench_card_bets

    saved = bench_card_bets.ROOT
    bench_card_bets.ROOT = source
    try:
        return installed_python(folder)
    finally:
        bench_card_bets.ROOT = saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--yardstick", help="the yardstick's C source (exact_side.c), built here with gcc")
    parser.add_argument("--shoes", type=int, default=20, help="depleted 8-deck shoes solved in turn")
    parser.add_argument("--rounds", type=int, default=15, help="rounds of timings, interleaved")
    parser.add_argument("--passes", type=int, default=5, help="passes over the shoes per timing")
    parser.add_argument("--startup", action="store_true", help="also time `analyze` against `import numpy`")
    parser.add_argument("--baseline", help="with --startup: another checkout to time the same way")
    args = parser.parse_args()
    print(f"(python {sys.version.split()[0]}; kernel {'built' if native.built() else 'not built'})")
    solves(args)
    if args.startup:
        startup(args)


if __name__ == "__main__":
    main()
