"""Benchmark: the JSON service's CPU per price request against the pricing it serves.

Starts ``punto-banco serve --port 0`` (its default 2 workers) and sends ``POST /api/v1/price``
requests one at a time on a keep-alive connection, as the live-shoe page does after a card:
the five light bets of ``bench_web.py`` (dragon-7, panda-8, tie, player-pair,
dragon-bonus-player) on an 8-deck shoe less a prefix of a seeded shuffled shoe, every request
a different shoe.  The service's CPU is the server's and its workers' (user + system, from
/proc, ten-millisecond ticks: a round is long enough for them to count).

"Pricing alone" is what the request asks, done in this process as a user of the library does
it: the shoe from the seen cards and one ``Pricer`` over the five bets, found once
(``Pricer(Shoe.standard(8).remove(parse_cards(seen))).summaries(bets)``), default BLAS threads,
tables loaded, on the same requests' shoes (CPU time of this process); and, for scale, the
``Pricer`` alone on shoes built beforehand.  (The bets found once: ``bench_caches.py`` measures
what finding them again costs.)

Each round sends ``--requests`` requests and prices as many shoes alone, in turns, so that a
slower spell of the shared machine weighs on both; prints each round, then the medians and
the spread (lowest-highest) of the service's CPU per request, of the pricing's, and of their
ratio (target: at most 2).

    .venv/bin/python benchmarks/bench_service.py [--rounds 7] [--requests 300] [--workers 2]
"""

from __future__ import annotations

import argparse
import http.client
import json
import signal
import statistics
import sys
import time

from bench_web import BETS, cpu_and_peak, shoe_order, start_server, tree

from analyzer import Pricer, Shoe, find_bet
from analyzer.core.cards import parse_cards


def bodies(round_no: int, count: int) -> list[list[str]]:
    """The seen cards of ``count`` requests: prefixes of shoes seeded by the round, each of
    10 to 380 cards, no two alike."""
    out: list[list[str]] = []
    seed = 1000 * round_no
    while len(out) < count:
        cards = shoe_order(seed)
        out += [cards[:n] for n in range(10, 380, 7)][: count - len(out)]
        seed += 1
    return out


def serve_round(connection: http.client.HTTPConnection, seen: list[list[str]]) -> None:
    for cards in seen:
        body = json.dumps({"shoe": {"decks": 8, "seen": cards}, "bets": BETS}).encode()
        connection.request("POST", "/api/v1/price", body, {"content-type": "application/json"})
        response = connection.getresponse()
        text = response.read()
        if response.status != 200 or b'"ev"' not in text:
            raise SystemExit(f"the service answered {response.status}: {text[:200]!r}")


def price_round(seen: list[list[str]]) -> tuple[float, float]:
    """CPU seconds of pricing the requests' shoes in this process: from the cards, and (on
    other shoes of as many cards, built before the clock) the ``Pricer`` alone."""
    bets = [find_bet(n) for n in BETS]
    began = time.process_time()
    for cards in seen:
        Pricer(Shoe.standard(8).remove(parse_cards(cards))).summaries(bets)
    alone = time.process_time() - began
    shoes = [Shoe.standard(8).remove(parse_cards(cards[::-1])) for cards in seen]
    began = time.process_time()
    for shoe in shoes:
        Pricer(shoe).summaries(bets)
    return alone, time.process_time() - began


def spread(values: list[float], scale: float = 1e3, unit: str = " ms") -> str:
    low, mid, high = (x * scale for x in (min(values), statistics.median(values), max(values)))
    return f"{mid:.3f}{unit} ({low:.3f}-{high:.3f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--requests", type=int, default=300, help="requests per round")
    parser.add_argument("--workers", type=int, default=2, help="the server's worker processes")
    args = parser.parse_args()

    price_round(bodies(99, 40))  # tables loaded, as in the server's warm workers
    pricer: list[float] = []
    proc, host, port = start_server(args.workers, timeout=120)
    served: list[float] = []
    worked: list[float] = []
    alone: list[float] = []
    try:
        connection = http.client.HTTPConnection(host, port, timeout=60)
        serve_round(connection, bodies(98, 8 * args.workers))  # every worker warm
        pids = tree(proc.pid)
        print(f"{args.requests} price requests a round, one at a time; server workers {args.workers}")
        print("round  service CPU/request (server + workers)  pricing alone  ratio")
        for r in range(args.rounds):
            seen = bodies(r, args.requests)
            before = [cpu_and_peak([p])[0] for p in pids]
            serve_round(connection, seen)
            after = [cpu_and_peak([p])[0] for p in pids]
            total = (sum(after) - sum(before)) / len(seen)
            server = (after[0] - before[0]) / len(seen)
            served.append(total)
            worked.append(total - server)
            whole, bare = price_round(seen)
            alone.append(whole / len(seen))
            pricer.append(bare / len(seen))
            print(
                f"{r + 1:5d}  {total * 1e3:.3f} ms ({server * 1e3:.3f} + {(total - server) * 1e3:.3f})"
                f"{'':14s}{alone[-1] * 1e3:.3f} ms   {total / alone[-1]:.2f}"
            )
        connection.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
    ratios = [s / a for s, a in zip(served, alone, strict=True)]
    print(f"service CPU per request, median (lowest-highest): {spread(served)}")
    print(f"  of which the workers: {spread(worked)}")
    print(f"pricing alone per request: {spread(alone)}; the Pricer on a shoe built before: {spread(pricer)}")
    print(f"service / pricing alone: {spread(ratios, 1, '')} (target: at most 2)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
