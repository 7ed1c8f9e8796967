"""The shoe walk at scale (issues 18 and 20): fixed memory whatever the number of shoes, the
workers' default and cap, byte-identical JSON across worker counts, streaming estimates, and
Dask endpoints that are not Dask schedulers (fake servers on loopback, started here; every wait
is on a socket, never a sleep) or not addresses at all."""

from __future__ import annotations

import json
import math
import socket
import struct
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
from clirun import invoke

from analyzer.cli import all_commands
from analyzer.errors import StudyError
from analyzer.studies import study as S  # noqa: N812
from analyzer.studies import workers as W  # noqa: N812
from analyzer.studies.moments import Moments

ROOT = Path(__file__).resolve().parent.parent


def _python(code: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, cwd=ROOT
    )


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    """``punto-banco ARGS`` in a process of its own (its own command line)."""
    argv = ["punto-banco", *args]
    return _python(f"import sys; from analyzer.cli import main; sys.argv = {argv!r}; main()", timeout=240)


# -- fixed memory ----------------------------------------------------------------------------------


def test_a_trillion_shoes_start_in_fixed_memory():
    # Regression (issue 20): every block was listed up front (19.5 GB for 10**12 shoes) and every
    # block's per-shoe results kept.  Under a 1.5 GB address-space cap the study must start and
    # report progress; it is stopped after its first piece of work.
    code = """
import resource
resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))
from analyzer.studies.study import run_study
class Stop(Exception):
    pass
def progress(done, total):
    print("progress", done, total)
    raise Stop
try:
    run_study(["banker"], shoes=10**12, block=1, strategies=["flat"], progress=progress)
except Stop:
    print("stopped")
"""
    out = _python(code)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "progress 40 1000000000000" in out.stdout and "stopped" in out.stdout


def test_the_block_is_bounded():
    with pytest.raises(StudyError, match="at most 10,000 shoes"):
        S.make_spec(["banker"], shoes=10, block=10_001)
    res = invoke("study", "--shoes", "5", "--block", "1000000000")
    assert res.exit_code == 2 and "at most 10,000" in res.output and res.output.count("\n") == 1


def test_streaming_moments_equal_two_passes_over_all_shoes():
    rng = np.random.default_rng(5)
    x = rng.normal(81, 1.5, 1001)
    y = 0.1 * x + rng.normal(0, 1, 1001)
    whole = Moments.of({"x": x, "y": y})
    parts = [Moments.of({"x": x[i : i + 97], "y": y[i : i + 97]}) for i in range(0, 1001, 97)]
    folded = parts[0]
    for p in parts[1:]:
        folded = folded.merge(p)
    assert folded.n == 1001
    for got, want in zip(
        (folded.mean_of("x"), folded.ratio_of("y", "x")),
        (whole.mean_of("x"), whole.ratio_of("y", "x")),
        strict=True,
    ):
        assert got is not None and want is not None
        assert math.isclose(got.value, want.value, rel_tol=1e-12)
        assert math.isclose(got.se, want.se, rel_tol=1e-9)
    # the textbook formulas, directly
    assert math.isclose(whole.mean_of("x").se, float(np.std(x, ddof=1)) / math.sqrt(1001), rel_tol=1e-12)
    r = y.sum() / x.sum()
    resid = y - r * x
    se = math.sqrt(float(np.sum(resid * resid)) / (1001 * 1000)) / x.mean()
    ratio = whole.ratio_of("y", "x")
    assert ratio is not None and math.isclose(ratio.se, se, rel_tol=1e-9)


# -- workers ---------------------------------------------------------------------------------------


def test_auto_workers_are_the_free_cores(monkeypatch):
    monkeypatch.setattr(W.os, "sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    for load, free in ((0.0, 4), (0.4, 4), (1.6, 2), (2.6, 1), (3.6, 1), (9.0, 1)):
        monkeypatch.setattr(W.os, "getloadavg", lambda load=load: (load, load, load))
        assert W.free_cores() == free, load
        assert W.check_workers("auto") == free
    assert W.usable_cores() == 4 and W.worker_limit() == 4
    workers = next(p for p in all_commands()["study"].params if p.name == "workers")
    assert workers.default == "auto"


def test_workers_have_a_cap_named_in_one_line():
    # Regression (issue 20): --workers had no cap (about 70 MB each).
    limit = W.worker_limit()
    with pytest.raises(StudyError, match=f"at most {limit}"):
        S.run_study(["banker"], shoes=2, strategies=["flat"], workers=limit + 1)
    res = invoke("study", "--shoes", "2", "--workers", str(limit + 1000))
    assert res.exit_code == 2 and f"at most {limit}" in res.output and res.output.count("\n") == 1
    for bad in ("0", "two", "-1"):
        res = invoke("study", "--shoes", "2", "--workers", bad)
        assert res.exit_code == 2 and res.output.count("\n") == 1, (bad, res.output)


def test_json_is_byte_identical_across_worker_counts_but_the_command_line(tmp_path):
    # docs/studies.md, "Workers, memory and a cluster": the JSON of one process and of two workers
    # differ only in the command line that produced it (real processes, so each records its own
    # command line).
    texts = []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}.json"
        args = ["--bet", "dragon-7", "--bet", "banker-streak", "--shoes", "300", "--block", "50"]
        args += ["--strategy", "flat", "--strategy", "count", "--tags", "0,0,0,-1,-1,-1,-1,2,2,0"]
        args += ["--bet-when", "tc>=4", "--true-count", "half-deck", "--workers", workers]
        done = _cli("study", *args, "--format", "json", "-o", str(out))
        assert done.returncode == 0, done.stderr
        texts.append(out.read_bytes())
    one, two = (t.splitlines() for t in texts)
    assert len(one) == len(two)
    differ = [(a, b) for a, b in zip(one, two, strict=True) if a != b]
    assert len(differ) == 1 and all(line.strip().startswith(b'"command": ') for line in differ[0])
    assert b"--workers 1" in differ[0][0] and b"--workers 2" in differ[0][1]
    doc = json.loads(texts[0])
    assert {r["true_count"] for r in doc["results"] if r["strategy"] == "count"} == {"half-deck", "exact"}


# -- Dask endpoints that are not Dask schedulers ---------------------------------------------------


def _study(address: str, *extra: str) -> subprocess.CompletedProcess[str]:
    # A process of its own, with a wall-clock guard far above the timeout: before the fix a
    # silent endpoint hung the command for good.
    return _cli("study", "--shoes", "5", "--scheduler", address, *extra)


@pytest.fixture
def listening():
    server = socket.create_server(("127.0.0.1", 0))  # listening when this returns
    yield server
    server.close()


def test_an_endpoint_that_never_answers_times_out(listening):
    pytest.importorskip("distributed")
    port = listening.getsockname()[1]
    out = _study(f"tcp://127.0.0.1:{port}", "--scheduler-timeout", "1")
    assert out.returncode == 2, out.stderr
    assert "did not answer within 1 s" in out.stderr and out.stderr.count("\n") == 1


def test_an_endpoint_sending_a_huge_length_is_refused(listening):
    pytest.importorskip("distributed")

    def answer() -> None:
        conn, _ = listening.accept()
        with conn:
            conn.sendall(struct.pack("<Q", 2**62) + b"\0" * 16)
            conn.recv(1)  # until the client hangs up

    listening.settimeout(200)
    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    out = _study(f"tcp://127.0.0.1:{listening.getsockname()[1]}")
    thread.join(30)
    assert out.returncode == 2, out.stderr
    assert "not a Dask scheduler" in out.stderr and out.stderr.count("\n") == 1
    assert "EiB" not in out.stderr and "internal" not in out.stderr


@pytest.mark.parametrize(
    "address, message",
    [
        ("inproc://x", "inside one Python process"),
        ("tls://127.0.0.1:8786", "give tcp://HOST:PORT"),
        ("tcp://127.0.0.1", "give tcp://HOST:PORT"),
        ("tcp://127.0.0.1:99999", "give tcp://HOST:PORT"),
    ],
)
def test_addresses_the_command_line_cannot_use_are_refused(address, message):
    pytest.importorskip("distributed")
    res = invoke("study", "--shoes", "5", "--scheduler", address)
    assert res.exit_code == 2, res.output
    assert message in res.output and res.output.count("\n") == 1 and "internal" not in res.output


def test_a_scheduler_without_workers_is_named():
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=0, processes=False, host="127.0.0.1", protocol="tcp", dashboard_address=None
        ) as cluster,
        pytest.raises(StudyError, match="has no worker"),
    ):
        S.run_study(
            ["banker"],
            shoes=5,
            strategies=["flat"],
            scheduler=cluster.scheduler_address,
            scheduler_timeout=1,
        )


@pytest.mark.extra("cluster")
def test_a_malformed_scheduler_address_is_bad_input(cli):
    result = cli("study", "--bet", "dragon-7", "--shoes", "5", "--scheduler", "bogus")
    assert result.exit_code == 2 and "cannot reach the Dask scheduler" in result.output
