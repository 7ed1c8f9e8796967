"""Jobs for the worker-pool tests, importable by a spawned worker (tests/ is on its sys.path):
one that blocks (a request stuck in a worker), one whose worker dies, one that answers, one
that answers at length; and a worker that cannot start."""

import os
import time

from analyzer.web.jobs import Reply
from analyzer.web.limits import Limits


def no_start(limits: Limits) -> None:
    """A worker that starts at once (no warm-up)."""


def blocking(job: str, request: dict) -> Reply:
    """Stand for a job that never finishes in time (the pool ends its worker)."""
    time.sleep(request.get("seconds", 600))
    return Reply(200, '{"late": true}\n')


def dying(job: str, request: dict) -> Reply:
    """Stand for a worker killed under a job (say, by the kernel's memory killer)."""
    os._exit(3)


def echo(job: str, request: dict) -> Reply:
    return Reply(200, f'{{"job": "{job}", "pid": {os.getpid()}}}\n')


def by_name(job: str, request: dict) -> Reply:
    """The job named ``job`` of this module."""
    return {"blocking": blocking, "dying": dying, "echo": echo, "big": big}[job](job, request)


def big(job: str, request: dict) -> Reply:
    """An answer of ``request["size"]`` characters (it crosses the socket in many pieces)."""
    return Reply(200, "x" * request["size"])


def cannot_start(limits: Limits) -> None:
    """A worker that dies while it starts (say, a broken install)."""
    os._exit(4)


def fails_three_starts(limits: Limits) -> None:
    """A worker that dies while it starts the first three times (counted in the folder named by
    ``PUNTO_BANCO_TEST_STARTS``), then starts."""
    folder = os.environ["PUNTO_BANCO_TEST_STARTS"]
    tried = len(os.listdir(folder))
    if tried < 3:
        open(os.path.join(folder, str(tried)), "w").close()
        os._exit(4)


def stuck(job: str, request: dict) -> Reply:
    """Every job blocks (a request still computing when the server is told to stop)."""
    time.sleep(600)
    return Reply(200, '{"late": true}\n')


_HELD: list[bytes] = []


def hoarding(job: str, request: dict) -> Reply:
    """Stand for a job that leaves ``request["mb"]`` megabytes in the worker's caches."""
    _HELD.append(b"x" * (request["mb"] * 1_000_000))
    return Reply(200, f'{{"pid": {os.getpid()}}}\n')
