"""Benchmark: the catalogue batch as a user runs it (issue 30, item 4): CPU seconds and peak
memory of whole processes, in the default environment (no ``OPENBLAS_NUM_THREADS`` or
``OMP_NUM_THREADS``: whatever threads the BLAS library starts), the tables loaded in the same
process.

* ``batch_ev``: ``python -c`` loading N depleted 8-deck suited shoes (a ``.npy`` file made
  beforehand) and pricing the whole catalogue on them, imports and table loading included.
* ``punto-banco batch SHOES.csv --all -o OUT``: the command, reading the shoes' CSV and writing
  every row (N x 80 of them), in CSV and in Parquet.
* the same process pricing one shoe: what loading costs (imports, tables, plans).
* ``batch_ev`` on the pure path (``PUNTO_BANCO_KERNEL=off``: numpy evaluates the label parts
  and the value weights), in the same rounds: the ratio of its CPU time to the compiled
  kernel's is taken round by round (runs made side by side), then its median and range.

Each process is measured by its own resource usage (``os.wait4``: user + system CPU, peak
resident memory); the runs of each size are interleaved, and the figures are the median and the
range over ``--rounds`` rounds.  ``--baseline PATH`` also times ``batch_ev`` from another
checkout of the package (``PYTHONPATH=PATH``), in the same rounds.  Prints a Markdown table;
not a test.

    .venv/bin/python benchmarks/bench_batch.py [--rounds 5] [--sizes 2000,20000] [--baseline PATH]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

#: Removed from the children's environment: a user's shell does not set them (the kernel's
#: switch too: its default, ``auto``, is what a user runs).
THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "PUNTO_BANCO_KERNEL")
#: The compiled kernel's switch (analyzer.engine.native.ENV): ``off`` for the pure path.
KERNEL = "PUNTO_BANCO_KERNEL"
BATCH_EV = """
import sys
import numpy as np
from analyzer import catalogue_bets
from analyzer.engine.batch import batch_ev
batch_ev(np.load(sys.argv[1]), catalogue_bets())
"""


def depleted_shoes(count: int, seed: int = 1) -> np.ndarray:
    """``count`` 8-deck shoes with 0..312 random cards dealt, as (count, 52) rank-and-suit counts
    (``bench_card_bets.py``'s shoes)."""
    rng = np.random.default_rng(seed)
    out = np.full((count, 52), 8, dtype=np.int64)
    for i in range(count):
        dealt = rng.integers(0, 313)
        cards = rng.choice(416, size=dealt, replace=False) // 8
        np.subtract.at(out[i], cards, 1)
    return out


def measure(args: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """(CPU seconds, peak MB) of one child process, in the user's environment, run in ``cwd``
    (not this checkout: ``--baseline``'s package must be the one imported)."""
    base = {k: v for k, v in os.environ.items() if k not in THREAD_VARIABLES}
    child = subprocess.Popen(args, env={**base, **env}, cwd=cwd, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(args)} failed")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def summary(values: list[float], fmt: str = "{:.2f}") -> str:
    """The median and, when the runs differ, their range."""
    med = fmt.format(statistics.median(values))
    low, high = fmt.format(min(values)), fmt.format(max(values))
    return med if low == high else f"{med} ({low}–{high})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sizes", default="2000,20000")
    parser.add_argument("--baseline", default=None, help="another checkout's root, for batch_ev")
    opts = parser.parse_args()
    sizes = [int(x) for x in opts.sizes.split(",")]
    python = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for n in sizes:
            shoes = depleted_shoes(n)
            np.save(folder / f"shoes{n}.npy", shoes)
            with (folder / f"shoes{n}.csv").open("w") as fh:
                for row in shoes:
                    fh.write(",".join(map(str, row)) + "\n")
        np.save(folder / "one.npy", depleted_shoes(1))
        runs: dict[str, tuple[list[str], dict[str, str]]] = {
            "load": ([python, "-c", BATCH_EV, str(folder / "one.npy")], {}),
        }
        for n in sizes:
            runs[f"batch_ev {n}"] = ([python, "-c", BATCH_EV, str(folder / f"shoes{n}.npy")], {})
            runs[f"batch_ev, the pure path {n}"] = (
                [python, "-c", BATCH_EV, str(folder / f"shoes{n}.npy")],
                {KERNEL: "off"},
            )
            if opts.baseline:
                runs[f"baseline {n}"] = (
                    [python, "-c", BATCH_EV, str(folder / f"shoes{n}.npy")],
                    {"PYTHONPATH": opts.baseline},
                )
            for fmt in ("csv", "parquet"):
                runs[f"command {fmt} {n}"] = (
                    [python, "-m", "analyzer", "batch", str(folder / f"shoes{n}.csv"), "--all",
                     "--format", fmt, "-o", str(folder / f"out.{fmt}")],
                    {},
                )
        cpu: dict[str, list[float]] = {k: [] for k in runs}
        peak: dict[str, list[float]] = {k: [] for k in runs}
        for _ in range(opts.rounds):
            for name, (args, env) in runs.items():
                c, p = measure(args, env, folder)
                cpu[name].append(c)
                peak[name].append(p)
    print(f"{opts.rounds} rounds, load average {os.getloadavg()[0]:.1f} at the end; {kernel_state()}\n")
    print("| what | shoes | CPU s | shoes / CPU-s | peak MB |\n|---|---|---|---|---|")
    for name in runs:
        n = 1 if name == "load" else int(name.rsplit(" ", 1)[1])
        rates = [n / c for c in cpu[name]]
        label = {"load": "one shoe (imports, tables, plans)"}.get(name, name.rsplit(" ", 1)[0])
        print(
            f"| {label} | {n:,} | {summary(cpu[name])} | "
            f"{summary(rates, '{:,.0f}') if n > 1 else '–'} | {summary(peak[name], '{:.0f}')} |"
        )
    print("\n| the pure path / the kernel, CPU time in one round | shoes | median (range) |\n|---|---|---|")
    for n in sizes:
        pure, compiled = cpu[f"batch_ev, the pure path {n}"], cpu[f"batch_ev {n}"]
        ratios = [p / c for p, c in zip(pure, compiled, strict=True)]
        print(f"| batch_ev | {n:,} | {summary(ratios)}× |")


def kernel_state() -> str:
    """Whether this checkout's compiled kernel is built (else both rows are the pure path)."""
    probe = [sys.executable, "-c", "from analyzer.engine import native; print(native.built())"]
    built = subprocess.run(probe, capture_output=True, text=True, check=True).stdout.strip() == "True"
    return "the compiled kernel built" if built else "NO compiled kernel: both paths are the pure one"


if __name__ == "__main__":
    main()
