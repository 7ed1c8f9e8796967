"""The worker processes that compute the service's answers (pebble's process pool).

Why processes: pricing is CPU work in Python, so threads would share one core; and a request
that runs past its timeout must be stopped, which only a process allows.  pebble ends the
worker of a task past its timeout and starts a fresh one; the server goes on answering.

Workers are started with ``spawn`` (not ``fork``): the server has threads (the pool's own,
the event loop's executor), and forking a process with threads can copy a held lock.  Each
worker runs :func:`analyzer.web.jobs.start_worker` first, which warms the light tables.

Requests that find every worker busy wait in pebble's queue, at most ``limits.max_pending`` of
them; past that a request is answered 503 at once, so a flood of clients costs the server a
bounded queue, not unbounded memory.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable
from typing import Any

import pebble

from analyzer.web.jobs import Reply, error_reply, run_job, start_worker
from analyzer.web.limits import Limits

#: Tasks a worker runs before it is replaced by a fresh one (its caches are bounded; this also
#: bounds anything a long life might accumulate).
TASKS_PER_WORKER = 10_000


class Workers:
    """``limits.workers`` worker processes, and the bounded queue in front of them.

    :meth:`start` and :meth:`stop` bracket the server's life (the application's lifespan);
    :meth:`run` schedules a job and waits for its :class:`~analyzer.web.jobs.Reply`.
    ``runner(job, request)`` is what a worker calls (a module-level function, so that a
    spawned worker can import it; :func:`analyzer.web.jobs.run_job` unless a test gives
    another); ``starter(limits)`` runs first in each worker.
    """

    def __init__(
        self,
        limits: Limits,
        runner: Callable[[str, dict[str, Any]], Reply] = run_job,
        starter: Callable[[Limits], None] = start_worker,
    ) -> None:
        self.limits = limits
        self._runner = runner
        self._starter = starter
        self._pool: pebble.ProcessPool | None = None
        self._pending = 0

    def start(self) -> None:
        """Start the worker processes (each warms its tables in the background)."""
        if self._pool is None:
            self._pool = pebble.ProcessPool(
                max_workers=self.limits.workers,
                max_tasks=TASKS_PER_WORKER,
                initializer=self._starter,
                initargs=(self.limits,),
                context=multiprocessing.get_context("spawn"),
            )

    def stop(self) -> None:
        """Stop every worker (a task in progress is ended) and wait for them to exit."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.stop()  # type: ignore[no-untyped-call]
            pool.join()

    @property
    def pending(self) -> int:
        """Requests scheduled and not yet answered."""
        return self._pending

    async def run(self, job: str, request: dict[str, Any]) -> Reply:
        """The reply of the job named ``job`` (:data:`analyzer.web.jobs.JOBS`) for ``request``,
        computed in a worker within ``limits.timeout`` seconds: a timeout is 504 (the worker is
        ended and replaced), a full queue 503, a worker that died 500."""
        pool = self._pool
        if pool is None:
            return error_reply(503, "the server is starting or stopping: retry in a moment")
        if self._pending >= self.limits.max_pending:
            return error_reply(
                503, f"the server is busy ({self._pending} requests waiting): retry in a moment"
            )
        self._pending += 1
        try:
            try:
                future = pool.schedule(self._runner, args=(job, request), timeout=self.limits.timeout)
            except RuntimeError:  # the pool is stopping
                return error_reply(503, "the server is stopping: retry in a moment")
            try:
                reply: Reply = await asyncio.wrap_future(future)
            except TimeoutError:
                return error_reply(
                    504,
                    f"the request took longer than this server's limit of {self.limits.timeout:g} s "
                    "(punto-banco serve --timeout raises it): ask for less",
                )
            except pebble.ProcessExpired as exc:
                return error_reply(500, f"the worker of this request stopped (exit code {exc.exitcode})")
            except Exception as exc:  # the pool itself failed (say, workers that cannot start)
                return error_reply(500, f"the workers failed: {type(exc).__name__}: {exc}")
            except asyncio.CancelledError:
                future.cancel()  # type: ignore[no-untyped-call]  # the client went away: end the work
                raise
            return reply
        finally:
            self._pending -= 1
