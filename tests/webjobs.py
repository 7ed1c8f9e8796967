"""Jobs for the worker-pool tests, importable by a spawned worker (tests/ is on its sys.path):
one that blocks (a request stuck in a worker), one whose worker dies, one that answers, one
that answers at length; a worker that cannot start; and deadlines that pass when a test says
so (:class:`Deadlines`), never by the clock."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Callable

from analyzer.web.jobs import Reply, run_job
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


def verify_blocks(job: str, request: dict) -> Reply:
    """The service's jobs, but ``verify`` never finishes (it waits on an event no one sets):
    a request that outlasts any timeout by design; the worker is ended by the pool."""
    if job == "verify":
        threading.Event().wait()
    return run_job(job, request)


class Deadlines:
    """A pool's task deadlines (an :data:`analyzer.web.pool.Timer`) that pass when the test
    says so, never by the clock: :meth:`expire` lets one pass, the one set now or else the next
    one set.  Every other deadline never passes, so no answer races a timeout."""

    def __init__(self) -> None:
        self._set: list[_Deadline] = []
        self._asked = False
        self._loop: asyncio.AbstractEventLoop | None = None

    def __call__(self, seconds: float, expire: Callable[[], None]) -> _Deadline:
        self._loop = asyncio.get_running_loop()
        deadline = _Deadline(self, expire)
        self._set.append(deadline)
        self._loop.call_soon(self._check)
        return deadline

    def expire(self) -> None:
        """Let one deadline pass (safe in a signal handler and from another thread: the
        deadline passes on the pool's event loop)."""
        self._asked = True
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._check)

    def _check(self) -> None:
        if self._asked and self._set:
            self._asked = False
            deadline = self._set.pop(0)
            deadline.expire()


class _Deadline:
    def __init__(self, deadlines: Deadlines, expire: Callable[[], None]) -> None:
        self._deadlines = deadlines
        self.expire = expire

    def cancel(self) -> None:
        if self in self._deadlines._set:
            self._deadlines._set.remove(self)


#: Run in a server's process (``Server(prelude=...)``): its ``verify`` requests never finish
#: (:func:`verify_blocks`), and a task's deadline passes when the server gets SIGUSR1
#: (:class:`Deadlines`), never by the clock.
DEADLINES_SERVER = (
    "import sys, functools, signal\nsys.path.insert(0, 'tests')\nimport webjobs\n"
    "import analyzer.web.app as app\n"
    "deadlines = webjobs.Deadlines()\n"
    "signal.signal(signal.SIGUSR1, lambda *_: deadlines.expire())\n"
    "app.Workers = functools.partial(app.Workers, runner=webjobs.verify_blocks, timer=deadlines)\n"
)
