"""A bounded load test of the JSON service on loopback: 8 concurrent clients x 20 price requests
each on a real server (``benchmarks/bench_web.py``, which stops by itself) get no error, and the
server then stops cleanly on SIGTERM.  The manual (docs/web.md) quotes the benchmark's figures at
its defaults."""

import re
import subprocess
import sys

import pytest
from webserver import ROOT

pytestmark = pytest.mark.extra("web")


def test_concurrent_clients_all_get_their_prices():
    done = subprocess.run(
        [
            sys.executable,
            "benchmarks/bench_web.py",
            "--clients",
            "8",
            "--requests",
            "20",
            "--workers",
            "1",
            "--max-seconds",
            "240",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert "clients 8 x requests 20 = 160 requests" in out
    assert "errors 0" in out.splitlines()
    assert re.search(r"latency p50 [\d.]+ ms, p99 [\d.]+ ms", out)
    assert re.search(r"throughput [\d.]+ requests/s", out)
    assert "exit code 143" in out
