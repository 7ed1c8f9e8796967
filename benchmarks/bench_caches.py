"""Benchmark: a bet looked up (or read) afresh for every solve against the same bet kept.

As a user runs it: CPU time of this process, default BLAS threads, the tables loaded first; a
different depleted suited 8-deck shoe every solve (``Shoe`` objects built beforehand).  Five
rows, each a ratio "afresh / kept" measured in the same round, the two in turns (which goes
first alternates), on shoes neither saw before:

* ``price(find_bet("dragon-7"), shoe)`` in a loop, against ``price(bet, shoe)`` with the bet
  found once;
* the JSON service's five bets (dragon-7, panda-8, tie, player-pair, dragon-bonus-player)
  through one ``Pricer`` per shoe: ``find_bet`` of each name per shoe, against the list kept;
* ``main_bets()`` called every solve, against one list kept;
* a bet file's text read again every solve (``parse_bets``, as the service reads a request's
  ``bet_file``), against the bets of one reading;
* new file bets every solve (each a reading under another label: new objects, new conditions,
  made before the clock, so the row measures the engine alone), against one reading.

The engine keys its settlements by the bet's value (``Bet.fingerprint``), so the target is at
most 1.1 for each row.  Prints each round's ratios, then per row the medians (and the spread,
lowest-highest) of both times and of the ratio.

    .venv/bin/python benchmarks/bench_caches.py [--rounds 9] [--shoes 200]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable

from analyzer import Pricer, Shoe, find_bet, main_bets, price
from analyzer.bets.files import parse_bets

BETS = ["dragon-7", "panda-8", "tie", "player-pair", "dragon-bonus-player"]
BET_FILE = """
[[bet]]
name = "my-dragon"
[[bet.pay]]
event = "Banker wins with 3-card 7"
when = { winner = "banker", banker_total = 7, banker_cards = 3 }
pays = 40

[[bet]]
name = "pair-and-win"
[[bet.pay]]
event = "Player pair and Player wins"
when = { winner = "player", player_first_two = { pair = true } }
pays = 15
"""


def depleted(rng: random.Random, dealt: int) -> Shoe:
    """An 8-deck suited shoe with ``dealt`` random cards removed."""
    counts = [8] * 52
    for card in rng.sample(range(416), dealt):
        counts[card // 8] -= 1
    return Shoe.from_suited_counts(counts)


def shoes(seed: int, count: int) -> list[Shoe]:
    rng = random.Random(seed)
    return [depleted(rng, rng.randrange(20, 300)) for _ in range(count)]


def cpu(solve: Solve, on: list[Shoe], made: list[object]) -> float:
    """CPU seconds per solve of ``solve`` over the shoes ``on`` (the i-th given ``made[i]``)."""
    began = time.process_time()
    for shoe, given in zip(on, made, strict=True):
        solve(shoe, given)
    return (time.process_time() - began) / len(on)


Solve = Callable[[Shoe, object], object]


def rows() -> list[tuple[str, Solve, Solve, Callable[[int], object]]]:
    """(name, afresh, kept, made) of each row: ``afresh(shoe, made)`` and ``kept(shoe, made)``
    solve, ``made(i)`` makes what a solve of the afresh kind is given (before the clock)."""
    dragon = find_bet("dragon-7")
    five = [find_bet(n) for n in BETS]
    main = main_bets()
    read = parse_bets(BET_FILE)

    def nothing(_: int) -> None:
        return None

    return [
        ("price(find_bet('dragon-7'), shoe)", lambda s, _: price(find_bet("dragon-7"), s),
         lambda s, _: price(dragon, s), nothing),
        ("the service's five bets by name, one Pricer",
         lambda s, _: Pricer(s).summaries([find_bet(n) for n in BETS]),
         lambda s, _: Pricer(s).summaries(five), nothing),
        ("main_bets() every solve",
         lambda s, _: Pricer(s).summaries(main_bets()),
         lambda s, _: Pricer(s).summaries(main), nothing),
        ("a bet file's text read every solve", lambda s, _: Pricer(s).summaries(parse_bets(BET_FILE)),
         lambda s, _: Pricer(s).summaries(read), nothing),
        ("new file bets every solve, made before the clock", lambda s, made: Pricer(s).summaries(made),
         lambda s, _: Pricer(s).summaries(read), lambda i: parse_bets(BET_FILE, f"reading {i}")),
    ]


def spread(values: list[float], scale: float, unit: str) -> str:
    low, mid, high = (x * scale for x in (min(values), statistics.median(values), max(values)))
    return f"{mid:.3f}{unit} ({low:.3f}-{high:.3f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--shoes", type=int, default=200, help="solves of each kind a round")
    args = parser.parse_args()

    table = rows()
    warm = shoes(0, 20)
    for _, afresh, kept, make in table:  # tables loaded, the code warm
        for i, shoe in enumerate(warm):
            afresh(shoe, make(10**6 + i))
            kept(shoe, None)
    results: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name, _, _, _ in table}
    print(f"{args.shoes} solves of each kind a round, a different shoe each")
    for r in range(args.rounds):
        line = []
        for k, (name, afresh, kept, make) in enumerate(table):
            one, other = shoes(1000 * r + 10 * k + 1, args.shoes), shoes(1000 * r + 10 * k + 2, args.shoes)
            made = [make(args.shoes * (r * len(table) + k) + i) for i in range(args.shoes)]
            nothing = [None] * args.shoes
            if r % 2:
                fresh_cpu, kept_cpu = cpu(afresh, one, made), cpu(kept, other, nothing)
            else:
                kept_cpu, fresh_cpu = cpu(kept, one, nothing), cpu(afresh, other, made)
            results[name][0].append(fresh_cpu)
            results[name][1].append(kept_cpu)
            line.append(f"{fresh_cpu / kept_cpu:.3f}")
        print(f"round {r + 1}: afresh / kept = {', '.join(line)}")
    for name, (fresh, kept) in results.items():
        ratios = [f / k for f, k in zip(fresh, kept, strict=True)]
        print(f"{name}: afresh {spread(fresh, 1e3, ' ms')}, kept {spread(kept, 1e3, ' ms')}, "
              f"ratio {spread(ratios, 1, '')} (target: at most 1.1)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
