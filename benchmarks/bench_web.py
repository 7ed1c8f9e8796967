"""Benchmark: the JSON service under concurrent clients, on loopback only (a bounded load test).

Starts ``punto-banco serve --port 0`` in a subprocess, waits for its ``listening on`` line, then
runs CLIENTS threads, each on its own keep-alive connection, each sending REQUESTS ``POST
/api/v1/price`` requests as the live-shoe page does after a card: five light bets (dragon-7,
panda-8, tie, player-pair, dragon-bonus-player) on an 8-deck shoe less the cards seen so far,
a different prefix of one seeded shoe each time (so no two requests price the same shoe).
Every request is bounded (a client timeout) and so is the run (``--max-seconds``): it stops by
itself.  Prints the errors, the latency p50 / p99 / max, the throughput, and the server's CPU
seconds and peak memory (server and workers, from /proc); exits 1 on any error.

    .venv/bin/python benchmarks/bench_web.py [--clients 16] [--requests 50] [--workers 2]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import queue
import random
import re
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

BETS = ["dragon-7", "panda-8", "tie", "player-pair", "dragon-bonus-player"]
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = "shdc"
ROOT = Path(__file__).resolve().parent.parent


def shoe_order(seed: int) -> list[str]:
    """One 8-deck shoe, shuffled by ``seed``: the cards as a dealer would turn them."""
    cards = [r + s for r in RANKS for s in SUITS] * 8
    random.Random(seed).shuffle(cards)
    return cards


def start_server(workers: int, timeout: float) -> tuple[subprocess.Popen[str], str, int]:
    """The server process and its host and port, once it says it listens."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "analyzer", "serve", "--port", "0", "--workers", str(workers)],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    while True:
        line = lines.get(timeout=timeout)
        if line is None:
            raise SystemExit(f"the server stopped: {proc.stderr.read() if proc.stderr else ''}")
        found = re.search(r"listening on (http://\S+)", line)
        if found:
            url = urlsplit(found.group(1))
            return proc, url.hostname or "127.0.0.1", url.port or 80


def tree(pid: int) -> list[int]:
    """``pid`` and every process below it."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
    out, frontier = [pid], [pid]
    while frontier:
        parent = frontier.pop()
        kids = [p for p, pp in parents.items() if pp == parent]
        out += kids
        frontier += kids
    return out


def cpu_and_peak(pids: list[int]) -> tuple[float, int]:
    """CPU seconds (user + system) and the sum of peak resident memories (bytes) of ``pids``."""
    tick = os.sysconf("SC_CLK_TCK")
    cpu, peak = 0.0, 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            cpu += (int(fields[11]) + int(fields[12])) / tick
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peak += int(line.split()[1]) * 1024
        except OSError:
            continue
    return cpu, peak


def client(
    host: str, port: int, requests: int, start: int, cards: list[str], results: list, deadline: float
) -> None:
    """Send ``requests`` price requests on one keep-alive connection; append (seconds, status)."""
    connection = http.client.HTTPConnection(host, port, timeout=60)
    try:
        for i in range(requests):
            if time.monotonic() > deadline:
                results.append((0.0, "deadline"))
                return
            seen = cards[: (start + 7 * i) % 380]
            body = json.dumps({"shoe": {"decks": 8, "seen": seen}, "bets": BETS}).encode()
            began = time.perf_counter()
            try:
                connection.request("POST", "/api/v1/price", body, {"content-type": "application/json"})
                response = connection.getresponse()
                text = response.read()
                ok = response.status == 200 and b'"ev"' in text
                results.append((time.perf_counter() - began, 200 if ok else response.status))
            except (OSError, http.client.HTTPException) as exc:
                results.append((time.perf_counter() - began, type(exc).__name__))
                connection.close()
                connection = http.client.HTTPConnection(host, port, timeout=60)
    finally:
        connection.close()


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--requests", type=int, default=50, help="requests per client")
    parser.add_argument("--workers", type=int, default=2, help="the server's worker processes")
    parser.add_argument("--max-seconds", type=float, default=600, help="stop the run after this long")
    args = parser.parse_args()

    proc, host, port = start_server(args.workers, timeout=120)
    try:
        cards = shoe_order(1)
        warm: list = []
        for i in range(2 * args.workers):  # every worker warm before the clock starts
            client(host, port, 1, 3 + i, cards, warm, time.monotonic() + 120)
        cpu_before, _ = cpu_and_peak(tree(proc.pid))
        results: list = []
        deadline = time.monotonic() + args.max_seconds
        threads = [
            threading.Thread(
                target=client, args=(host, port, args.requests, 11 * c, cards, results, deadline)
            )
            for c in range(args.clients)
        ]
        began = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - began
        cpu_after, peak = cpu_and_peak(tree(proc.pid))
    finally:
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=60)
    latencies = [s for s, status in results if status == 200]
    errors = [status for _, status in results if status != 200]
    print(f"clients {args.clients} x requests {args.requests} = {len(results)} requests", end="; ")
    print(f"server workers {args.workers}")
    print(f"errors {len(errors)}" + (f": {sorted(set(map(str, errors)))}" if errors else ""))
    if latencies:
        p50, p99 = statistics.median(latencies), percentile(latencies, 99)
        print(f"latency p50 {p50 * 1e3:.1f} ms, p99 {p99 * 1e3:.1f} ms, max {max(latencies) * 1e3:.1f} ms")
        print(f"throughput {len(latencies) / wall:.1f} requests/s over {wall:.2f} s wall")
    print(f"server CPU {cpu_after - cpu_before:.2f} s for the run", end="; ")
    print(f"peak memory {peak / 2**20:.0f} MB (server and workers)")
    print(f"server stopped by SIGTERM: exit code {code}")
    return 1 if errors or code != 128 + signal.SIGTERM else 0


if __name__ == "__main__":
    sys.exit(main())
