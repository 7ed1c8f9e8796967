"""Benchmark: a service worker's memory under requests that each bring new tables.

Starts ``punto-banco serve --port 0 --workers 1`` (a private, empty disk cache) and sends
``--requests`` price requests one at a time, every one compiling tables nothing before it
needed: in turn a rule set of its own (``rules_toml``: the standard tableau with one Banker
draw changed, no two alike) with three light catalogue bets, and a bet file of its own (a bet
paying on one pair of two-card totals, no two alike).  Every ``--every`` requests it prints the
worker's resident memory (``VmRSS`` from /proc) and process id; at the end the peak and the
workers seen.  Every new rule set leaves tables in the worker's caches (about 0.7 MB a request
here), so a worker past ``serve --worker-memory`` (300 MB) retires after its answer and a fresh
one takes its place: the memory is a saw bounded by that limit, not a line.

    .venv/bin/python benchmarks/bench_web_memory.py [--requests 200] [--every 20]
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import os
import signal
import sys
import tempfile
from pathlib import Path

from bench_web import start_server, tree

STANDARD_DRAWS = {3: [0, 1, 2, 3, 4, 5, 6, 7, 9], 4: [2, 3, 4, 5, 6, 7], 5: [4, 5, 6, 7], 6: [6, 7]}


def rule_sets() -> list[str]:
    """Rule sets as TOML, no two alike: the standard tableau with the Banker's draws on 3, 4, 5
    and 6 each less one third-card value (or as they are)."""
    out = []
    options = [[None, *values] for values in STANDARD_DRAWS.values()]
    for number, dropped in enumerate(itertools.product(*options)):
        rows = []
        for total, value in zip(STANDARD_DRAWS, dropped, strict=True):
            draws = [v for v in STANDARD_DRAWS[total] if v != value]
            rows.append(f"{total} = {draws}")
        out.append(
            f'name = "changed-{number}"\ntitle = "changed {number}"\nnaturals = [8, 9]\n'
            "player_draws = [0, 1, 2, 3, 4, 5]\n[banker]\nwhen_player_stood = [0, 1, 2, 3, 4, 5]\n"
            '[banker.when_player_drew]\n0 = "any"\n1 = "any"\n2 = "any"\n' + "\n".join(rows) + "\n7 = []\n"
        )
    return out[1:]  # the first is the standard tableau itself


def bet_files() -> list[str]:
    """Bet files, no two alike: a bet paying 30 when the two-card totals are (p, b), else 2
    when the winner's total is w."""
    return [
        f'[[bet]]\nname = "totals-{p}-{b}-{w}"\n[[bet.pay]]\n'
        f"when = {{ player_two_card_total = {p}, banker_two_card_total = {b} }}\npays = 30\n"
        f"[[bet.pay]]\nwhen = {{ winner_total = {w} }}\npays = 2\n"
        for w, p, b in itertools.product(range(1, 10), range(10), range(10))
    ]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--every", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        os.environ["PUNTO_BANCO_CACHE_DIR"] = cache
        proc, host, port = start_server(1, 180)
        try:
            return run(proc.pid, host, port, args.requests, args.every)
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(60)


def run(server: int, host: int | str, port: int, requests: int, every: int) -> int:
    rules, files = rule_sets(), bet_files()
    connection = http.client.HTTPConnection(str(host), port, timeout=120)
    samples: list[tuple[int, float]] = []
    errors = 0

    pids: list[int] = []

    def worker_rss() -> float:  # the largest child: the worker (beside multiprocessing's helper)
        size, pid = max((rss_mb(pid), pid) for pid in tree(server)[1:])
        if pid not in pids:
            pids.append(pid)
        return size

    for i in range(requests):
        if i % 2 == 0:
            body = {"rules_toml": rules[i // 2], "bets": ["tie", "dragon-7", "panda-8"]}
        else:
            body = {"bet_file": files[i // 2]}
        connection.request("POST", "/api/v1/price", json.dumps(body), {"content-type": "application/json"})
        response = connection.getresponse()
        text = response.read()
        if response.status != 200:
            errors += 1
            print(f"request {i}: {response.status} {text[:200]!r}", file=sys.stderr)
        if i == 0 or (i + 1) % every == 0:  # from the first answer: the worker is warm
            samples.append((i + 1, worker_rss()))
            print(f"requests {i + 1:4d}: worker RSS {samples[-1][1]:6.1f} MB", flush=True)
    connection.close()
    print(f"errors {errors}")
    print(
        f"peak worker RSS {max(m for _, m in samples):.1f} MB over {samples[-1][0]} requests; "
        f"workers seen {len(pids)}"
    )
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
