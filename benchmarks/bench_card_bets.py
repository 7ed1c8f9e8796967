"""Benchmark: what card-level bets cost, against issue 16's targets (CPU seconds and peak memory).

Each command runs in a fresh process, measured by its own resource usage (``os.wait4``: user +
system CPU seconds to the microsecond, peak resident memory); in-process figures are medians of
repeated runs, one BLAS thread.  "fresh" means no disk cache and the shipped tables ignored
(``PUNTO_BANCO_SHIPPED_TABLES=off``): the whole compile; "shipped" is a first run after install
(no user cache; the tables that ship with the package); "filled" a run after one that filled the
cache.  Prints figures; not a test.

    .venv/bin/python benchmarks/bench_card_bets.py [--quick]
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _timing import median_seconds  # first: it sets one BLAS thread before numpy loads

# isort: split
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "analyzer"]
#: A user bet on the Banker's hand (issue 16: "report on one Banker three-card flush bet").
FLUSH = """[[bet]]
name = "banker-three-card-flush"
title = "Banker three-card flush"
[[bet.pay]]
event = "Banker's three cards of one suit"
when = { banker_hand = { size = 3, flush = true } }
pays = 30
"""
#: A bet file that reads suits, for the study (issue 16: "study of a suit-reading file bet").
SUITED = """[[bet]]
name = "player-suited-first-two"
title = "Player's first two cards suited"
[[bet.pay]]
event = "Player's first two suited"
when = { player_first_two = { suited = true } }
pays = 3
"""


def timed(args: list[str], env: dict[str, str], repeat: int = 3) -> tuple[float, float]:
    """Median (CPU seconds, peak MB) of ``args`` in fresh processes: the child's own resource
    usage (``os.wait4``: user + system CPU to the microsecond, peak resident memory)."""
    cpus, peaks = [], []
    for _ in range(repeat):
        with tempfile.TemporaryFile() as err:
            child = subprocess.Popen(
                args, stdout=subprocess.DEVNULL, stderr=err, env={**os.environ, **env}, cwd=ROOT
            )
            _, status, usage = os.wait4(child.pid, 0)
            child.returncode = os.waitstatus_to_exitcode(status)
            if child.returncode != 0:
                err.seek(0)
                tail = err.read().decode(errors="replace").strip().splitlines()[-2:]
                raise SystemExit(f"{' '.join(args)} failed: {tail}")
        cpus.append(usage.ru_utime + usage.ru_stime)
        peaks.append(usage.ru_maxrss / 1024)  # KB on Linux
    return statistics.median(cpus), statistics.median(peaks)


def fresh(args: list[str], repeat: int = 3) -> tuple[float, float]:
    """``timed`` with an empty cache folder each run and the shipped tables ignored."""
    cpus, peaks = [], []
    for _ in range(repeat):
        folder = tempfile.mkdtemp()
        try:
            c, p = timed(args, {"PUNTO_BANCO_CACHE_DIR": folder, "PUNTO_BANCO_SHIPPED_TABLES": "off"}, 1)
        finally:
            shutil.rmtree(folder)
        cpus.append(c)
        peaks.append(p)
    return statistics.median(cpus), statistics.median(peaks)


def line(what: str, figure: str, goal: str) -> None:
    print(f"| {what} | {figure} | {goal} |", flush=True)


def main() -> None:
    quick = "--quick" in sys.argv
    repeat = 1 if quick else 3
    print("| what | measured (median) | goal |\n|---|---|---|")
    for bet, goal in (
        ("d7p8-progressive", "<= 2 CPU-s, <= 300 MB"),
        ("royal-9", "<= 2 CPU-s"),
        ("lucky-win-player", "<= 1 CPU-s"),
        ("lucky-win-banker", "<= 1 CPU-s"),
        ("super-tie", "<= 1 CPU-s"),
        ("all-red", "<= 1 CPU-s"),
        ("all-black", "<= 1 CPU-s"),
    ):
        cpu, peak = fresh([*CLI, "bets", "--bet", bet], repeat)
        cpu_s, peak_s = timed([*CLI, "bets", "--bet", bet], {"PUNTO_BANCO_CACHE_DIR": "off"}, repeat)
        line(
            f"`bets --bet {bet}`: fresh / shipped",
            f"{cpu:.2f} / {cpu_s:.2f} CPU-s, {peak:.0f} / {peak_s:.0f} MB",
            goal,
        )
    folder = tempfile.mkdtemp()
    try:
        env = {"PUNTO_BANCO_CACHE_DIR": folder, "PUNTO_BANCO_SHIPPED_TABLES": "off"}
        empty, peak = timed([*CLI, "bets", "--all"], env, 1)
        filled, peak_f = timed([*CLI, "bets", "--all"], env, repeat)
        size = sum(p.stat().st_size for p in Path(folder).glob("table-*")) / 1e6
    finally:
        shutil.rmtree(folder)
    shipped, peak_s = timed([*CLI, "bets", "--all"], {"PUNTO_BANCO_CACHE_DIR": "off"}, repeat)
    line(
        "`bets --all`, fresh process: cache filled / empty / shipped tables",
        f"{filled:.2f} / {empty:.2f} / {shipped:.2f} CPU-s; {peak_f:.0f} / {peak:.0f} / {peak_s:.0f} MB",
        "<= 1 / <= 10 CPU-s, <= 300 MB",
    )
    ship = sum(p.stat().st_size for p in (ROOT / "analyzer" / "tables").glob("*.pbt")) / 1e6
    line(
        "disk cache for the whole catalogue (after `bets --all`); shipped tables",
        f"{size:.1f} MB; {ship:.1f} MB",
        "<= 20 MB",
    )
    with tempfile.TemporaryDirectory() as tmp:
        bets = Path(tmp) / "flush.toml"
        bets.write_text(FLUSH)
        cpu, peak = fresh(
            [*CLI, "report", "--bet-file", str(bets), "--decks", "8", "-o", str(Path(tmp) / "r.html")], 1
        )
        line(
            "`report` on one Banker three-card flush bet (fresh)",
            f"{cpu:.2f} CPU-s, {peak:.0f} MB",
            "<= 300 MB",
        )
    cpu, peak = timed([*CLI, "eor", "--all", "--table", "summary"], {"PUNTO_BANCO_CACHE_DIR": "off"}, repeat)
    line(
        "`eor --all --table summary` (shipped tables)",
        f"{cpu:.2f} CPU-s, {peak:.0f} MB",
        "<= 5 CPU-s, <= 500 MB",
    )
    batch_figures(quick)
    study_figures(quick)
    solve_figures()
    startup_figures(repeat)


def depleted_shoes(count: int, seed: int = 1) -> np.ndarray:
    """``count`` 8-deck shoes with 0..312 random cards dealt, as (count, 52) rank-and-suit counts."""
    rng = np.random.default_rng(seed)
    out = np.full((count, 52), 8, dtype=np.int64)
    for i in range(count):
        dealt = rng.integers(0, 313)
        cards = rng.choice(416, size=dealt, replace=False) // 8
        np.subtract.at(out[i], cards, 1)
    return out


def batch_figures(quick: bool) -> None:
    import resource

    from analyzer import catalogue_bets
    from analyzer.engine.batch import batch_ev

    bets = catalogue_bets()
    shoes = depleted_shoes(500 if quick else 2000)
    batch_ev(shoes[:8], bets)  # tables loaded, plans built
    seconds = median_seconds(lambda: batch_ev(shoes, bets), repeat=1 if quick else 3, warmup=0)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    line(
        "batch (`engine.batch.batch_ev`), whole catalogue, depleted 8-deck shoes",
        f"{len(shoes) / seconds.cpu:,.0f} shoes/s/core ({len(shoes):,} shoes; process peak {peak:.0f} MB)",
        ">= 2,000 shoes/s/core; memory bounded",
    )


def study_figures(quick: bool) -> None:
    from analyzer import find_bet
    from analyzer.bets.files import parse_bets
    from analyzer.engine.kernel import kernels_for
    from analyzer.studies.dealing import Dealing, deal

    dealt = deal(Dealing(), 2026, 0, 60 if quick else 250)
    states = dealt.unseen[dealt.physical >= 6].astype("int64")
    (suited,) = parse_bets(SUITED, "suited.toml")
    per = {}
    for name, bet in (("dragon-7", find_bet("dragon-7")), ("suit-reading file bet", suited)):
        kernel = kernels_for([bet])[0][0]
        per[name] = median_seconds(lambda k=kernel: k.evs(states), repeat=5).cpu / len(states)
    ratio = per["suit-reading file bet"] / per["dragon-7"]
    line(
        "study kernel, a suit-reading file bet per coup",
        f"{per['suit-reading file bet'] * 1e6:.2f} us "
        f"({ratio:.1f}x Dragon 7's {per['dragon-7'] * 1e6:.2f} us)",
        "<= 3x Dragon 7 per coup",
    )


def solve_figures() -> None:
    from analyzer import Pricer, Shoe, find_bet, price

    names = [
        "banker",
        "player",
        "tie",
        "player-pair",
        "banker-pair",
        "perfect-pair",
        "dragon-bonus-player",
        "dragon-bonus-banker",
    ]
    bets = [find_bet(n) for n in names]
    shoes = [Shoe.standard(8).remove(cards) for cards in ("As 5h Kd", "9c 9c 2h Qs", "Kh 7d 7d 3s 4c")]
    for shoe in shoes:
        for bet in bets:
            price(bet, shoe)  # tables loaded
    state = {"i": 0}

    def each() -> None:  # a new depleted shoe each solve, as a live shoe gives
        i = state["i"] = state["i"] + 1
        shoe = Shoe.standard(8).remove(
            ["As", "5h", "Kd", "9c", "2h", "Qs", "7d", "3s"][: 1 + i % 7] + ["Kh"] * (i % 5)
        )
        for bet in bets:
            price(bet, shoe)

    def pricer() -> None:
        i = state["i"] = state["i"] + 1
        shoe = Shoe.standard(8).remove(
            ["As", "5h", "Kd", "9c", "2h", "Qs", "7d", "3s"][: 1 + i % 7] + ["Kh"] * (i % 5)
        )
        Pricer(shoe).summaries(bets)

    one = median_seconds(each, repeat=41)
    both = median_seconds(pricer, repeat=41)
    line(
        "main + pairs + Perfect Pair + Dragon Bonus both sides, per solve (depleted suited 8-deck shoe): "
        "one `price` each / one `Pricer`",
        f"{one.cpu * 1e3:.3f} / {both.cpu * 1e3:.3f} ms CPU",
        "<= macaujack (0.20 ms), exact, through `price` as well",
    )


def installed_python(folder: Path) -> Path:
    """A Python that imports the package as a user's ``pip install .`` left it: a regular
    install (a wheel's files, byte-compiled) in a new virtual environment, borrowing this
    environment's dependencies (a ``.pth`` file).  The development environment's editable
    install is not what a user runs: its import hook loads pathlib, re and urllib for every
    process, ``python -c "import numpy"`` included, which hides what the package's own imports
    cost."""
    import site

    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
         "--target", purelib, str(ROOT)],
        check=True, env={**os.environ, "PIP_NO_WARN_SCRIPT_LOCATION": "1"}, cwd=folder,
    )
    subprocess.run([str(python), "-m", "compileall", "-q", purelib], check=True)
    (Path(purelib) / "borrowed-dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    return python


def startup_figures(repeat: int) -> None:
    """The processes in turns, 15 rounds: the machine's speed drifts over seconds, so each
    round's ratios compare runs made side by side, and their median is the figure.  Each
    ``analyze`` is set against ``import numpy`` in its own environment: this development
    environment, and a regular install (:func:`installed_python`)."""
    script = shutil.which("punto-banco") or str(Path(sys.executable).parent / "punto-banco")
    with tempfile.TemporaryDirectory() as tmp:
        installed = str(installed_python(Path(tmp)))
        runs = {
            "numpy": ([sys.executable, "-c", "import numpy"], {}),
            "warm": ([*CLI, "analyze"], {}),
            "first": ([*CLI, "analyze"], {"PUNTO_BANCO_CACHE_DIR": "off"}),
            "script": ([script, "analyze"], {}),
            "installed numpy": ([installed, "-c", "import numpy"], {}),
            "installed warm": ([installed, "-m", "analyzer", "analyze"], {}),
            "installed first": ([installed, "-m", "analyzer", "analyze"], {"PUNTO_BANCO_CACHE_DIR": "off"}),
        }
        times: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(15):
            for name, (args, env) in runs.items():
                times[name].append(timed(args, env, 1)[0])

    def ratio(name: str, numpy: str) -> float:
        return statistics.median(t / n for t, n in zip(times[name], times[numpy], strict=True))

    med = {name: statistics.median(t) for name, t in times.items()}
    line(
        "`analyze`, whole process, development environment (editable install): warm / first run "
        '(no cache: the shipped tables) / the `punto-banco` script; `python -c "import numpy"` '
        "(15 rounds in turns; the median of each round's ratio)",
        f"{med['warm']:.3f} / {med['first']:.3f} / {med['script']:.3f} s; {med['numpy']:.3f} s "
        f"({ratio('warm', 'numpy'):.2f}x / {ratio('first', 'numpy'):.2f}x / {ratio('script', 'numpy'):.2f}x)",
        "<= 1x both",
    )
    line(
        "`analyze`, whole process, a regular install (`pip install .`): warm / first run after "
        'install; `python -c "import numpy"` in the same environment',
        f"{med['installed warm']:.3f} / {med['installed first']:.3f} s; {med['installed numpy']:.3f} s "
        f"({ratio('installed warm', 'installed numpy'):.2f}x / "
        f"{ratio('installed first', 'installed numpy'):.2f}x)",
        "<= 1x both",
    )
    del repeat


if __name__ == "__main__":
    main()
