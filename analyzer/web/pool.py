"""The worker processes that compute the service's answers, driven from the event loop.

Why processes: pricing is CPU work in Python, so threads would share one core; and a request
that runs past its timeout must be stopped, which only a process allows.  A worker past its
timeout is killed and a fresh one takes its place; the server goes on answering.

Workers are started with ``spawn`` (not ``fork``): the server has threads, and forking a
process with threads can copy a held lock.  Each worker runs ``starter(limits)`` first
(:func:`analyzer.web.jobs.start_worker`, which warms the light tables), says it is ready, then
answers one task at a time.

The reply path is one socket pair per worker, read by the event loop itself (no thread, no
lock, no queue between processes): the server writes a task (the job's name and the request
as plain data, pickled) to an idle worker and reads its :class:`~analyzer.web.jobs.Reply`
back when it comes.  The worker last to finish takes the next task, so a lone client keeps
one worker's caches warm.  Requests that find every worker busy wait in a queue, at most
``limits.max_pending`` of them; past that a request is answered 503 at once, so a flood of
clients costs the server a bounded queue, not unbounded memory.  Standard library only.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import multiprocessing
import os
import pickle
import socket
import struct
import sys
from collections.abc import Callable, Coroutine
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, Protocol

from analyzer.text import printable
from analyzer.web.jobs import Reply, error_reply, run_job, start_worker
from analyzer.web.limits import Limits

#: Tasks a worker runs before it is replaced by a fresh one (its caches are bounded; this also
#: bounds anything a long life might accumulate).
TASKS_PER_WORKER = 10_000
#: Workers in a row that die before they are ready: the pool is then broken (every request
#: answered 500) for :data:`RETRY_SECONDS`, rather than started again and again.
FAILED_STARTS = 3
RETRY_SECONDS = 10.0
#: Seconds a stopping worker gets to exit before it is killed.
STOP_SECONDS = 2.0
#: A frame's header: its length, as :class:`multiprocessing.connection.Connection` writes it
#: (4 bytes, big-endian; -1 then 8 bytes for a frame of 2 GiB or more).
_HEADER = struct.Struct("!i")
_LONG_HEADER = struct.Struct("!Q")
#: What a worker says once its starter has run.
_READY = b"ready"

Runner = Callable[[str, dict[str, Any]], Reply]


class Deadline(Protocol):
    """A task's deadline as set (what ``loop.call_later`` returns): it can be cancelled."""

    def cancel(self) -> None: ...


#: How the pool sets a task's deadline: ``timer(seconds, expire)`` calls ``expire()`` on the
#: event loop once ``seconds`` have passed, unless cancelled first (the loop's ``call_later``;
#: a test gives deadlines that pass on its event, not on the clock).
Timer = Callable[[float, Callable[[], None]], Deadline]
#: A request waiting for a worker: the job's name, the request, the future of its reply.
_Task = tuple[str, dict[str, Any], "asyncio.Future[Reply]"]


def _frame(payload: bytes) -> bytes:
    if len(payload) > 0x7FFFFFFF:
        return _HEADER.pack(-1) + _LONG_HEADER.pack(len(payload)) + payload
    return _HEADER.pack(len(payload)) + payload


def _serve_tasks(
    connection: Connection, runner: Runner, starter: Callable[[Limits], None], limits: Limits
) -> None:
    """A worker's life (in the worker process): start, say so, then answer each task until the
    server closes the connection.  Each answer says whether this worker should now retire: its
    resident memory is past ``limits.worker_memory`` megabytes (the caches of tables that new
    rule sets and bet files fill are let go with the process)."""
    starter(limits)
    try:
        connection.send_bytes(_READY)
        while True:
            job, request = pickle.loads(connection.recv_bytes())
            try:
                reply = runner(job, request)
            except Exception as exc:  # a runner other than run_job (which answers every failure)
                words = printable(str(exc))[:200]
                print(f"internal error: {type(exc).__name__}: {words}", file=sys.stderr, flush=True)
                reply = error_reply(500, f"internal error: {type(exc).__name__}; see the server's log")
            retire = resident_bytes() > limits.worker_memory * 1_000_000
            connection.send_bytes(
                pickle.dumps((reply.status, reply.body, retire), protocol=pickle.HIGHEST_PROTOCOL)
            )
    except (EOFError, OSError):  # the server closed the connection: retire quietly
        return


def resident_bytes() -> int:
    """This process's resident memory in bytes (``/proc/self/statm``; elsewhere its peak, from
    ``getrusage``)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        import resource  # lazy: only where /proc is missing

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024


class _Worker(asyncio.Protocol):
    """One worker process and the server's end of its socket pair (an asyncio protocol that
    cuts the stream into frames)."""

    def __init__(self, pool: Workers, process: BaseProcess) -> None:
        self.pool = pool
        self.process = process
        self.transport: asyncio.Transport | None = None
        self.ready = False
        self.tasks = 0  # tasks given, for retirement
        self.current: asyncio.Future[Reply] | None = None
        self.closing = False  # retired or ended by the server: its end is not a failure
        self._buffer = bytearray()
        self._timer: Deadline | None = None

    # -- the stream ------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # a stream's (uvloop's is its own class)

    def data_received(self, data: bytes) -> None:
        buffer = self._buffer
        buffer += data
        while len(buffer) >= _HEADER.size:
            (size,) = _HEADER.unpack_from(buffer)
            start = _HEADER.size
            if size == -1:
                if len(buffer) < start + _LONG_HEADER.size:
                    return
                (size,) = _LONG_HEADER.unpack_from(buffer, start)
                start += _LONG_HEADER.size
            if len(buffer) < start + size:
                return
            payload = bytes(buffer[start : start + size])
            del buffer[: start + size]
            self._frame(payload)

    def _frame(self, payload: bytes) -> None:
        if not self.ready:
            if payload == _READY:
                self.ready = True
                self.pool._ready(self)
            return
        future = self._finish()
        status, body, retire = pickle.loads(payload)
        if future is not None and not future.done():
            future.set_result(Reply(status, body))
        if retire:  # past its memory: a fresh worker takes its place
            self.pool._replace(self, kill=False)
        else:
            self.pool._done(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None
        if not self.closing:
            self.pool._lost(self)

    # -- tasks -----------------------------------------------------------------------------

    def give(self, job: str, request: dict[str, Any], future: asyncio.Future[Reply], timeout: float) -> None:
        """Send a task (this worker is ready and idle); past ``timeout`` seconds of work the
        task is answered 504 and the worker replaced."""
        assert self.transport is not None
        self.current = future
        self.tasks += 1
        self._timer = self.pool._deadline(timeout, functools.partial(self._expire, timeout))
        self.transport.write(_frame(pickle.dumps((job, request), protocol=pickle.HIGHEST_PROTOCOL)))

    def _finish(self) -> asyncio.Future[Reply] | None:
        """The task in progress, taken off this worker (its timer stopped)."""
        future, self.current = self.current, None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        return future

    def _expire(self, timeout: float) -> None:
        future = self._finish()
        if future is not None and not future.done():
            future.set_result(
                error_reply(
                    504,
                    f"the request took longer than this server's limit of {timeout:g} s "
                    "(punto-banco serve --timeout raises it): ask for less",
                )
            )
        self.pool._replace(self, kill=True)

    def abandon(self) -> None:
        """The client of the task in progress went away: end the work."""
        self._finish()
        self.pool._replace(self, kill=True)

    def end(self, kill: bool) -> None:
        """Stop this worker: close its connection (it exits when it next reads), and with
        ``kill`` end it at once (a task past its timeout, a client gone)."""
        self.closing = True
        self._finish()
        if self.transport is not None:
            self.transport.close()
        if kill and self.process.is_alive():
            self.process.kill()


class Workers:
    """``limits.workers`` worker processes, and the bounded queue in front of them.

    :meth:`start` and :meth:`stop` bracket the server's life (the application's lifespan; both
    called with the event loop running, :meth:`stop` also safely after it has closed);
    :meth:`run` schedules a job and waits for its :class:`~analyzer.web.jobs.Reply`.
    ``runner(job, request)`` is what a worker calls (a module-level function, so that a
    spawned worker can import it; :func:`analyzer.web.jobs.run_job` unless a test gives
    another); ``starter(limits)`` runs first in each worker; ``timer`` sets each task's
    deadline (:data:`Timer`; default: the event loop's clock).
    """

    def __init__(
        self,
        limits: Limits,
        runner: Runner = run_job,
        starter: Callable[[Limits], None] = start_worker,
        timer: Timer | None = None,
    ) -> None:
        self.limits = limits
        self._runner = runner
        self._starter = starter
        self._timer = timer
        self._context = multiprocessing.get_context("spawn")
        self._workers: list[_Worker] = []
        self._idle: list[_Worker] = []  # ready and free, the last to finish on top
        self._waiting: collections.deque[_Task] = collections.deque()
        self._background: set[asyncio.Task[Any]] = set()  # held until done (the loop keeps weak ones)
        self._pending = 0
        self._running = False
        self._failed_starts = 0
        self._broken: str | None = None
        self._broken_at = 0.0

    def start(self) -> None:
        """Start the worker processes (each warms its tables, then takes tasks)."""
        if self._running:
            return
        self._running = True
        for _ in range(self.limits.workers):
            self._spawn()

    def stop(self) -> None:
        """Stop every worker (a task in progress is ended) and wait for them to exit."""
        self._running = False
        stopping = error_reply(503, "the server is stopping: retry in a moment")
        workers, self._workers, self._idle = self._workers, [], []
        for worker in workers:
            _answer(worker._finish(), stopping)
            worker.closing = True
            if worker.transport is not None:
                with contextlib.suppress(RuntimeError):  # the event loop has closed already
                    worker.transport.close()
            if worker.process.is_alive():
                worker.process.terminate()
        for worker in workers:
            worker.process.join(STOP_SECONDS)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
        waiting, self._waiting = self._waiting, collections.deque()
        for _, _, future in waiting:
            _answer(future, stopping)

    def answer_all(self, status: int, message: str) -> int:
        """Answer every request in progress or waiting with ``{"error": message}`` (the server
        stopping past its grace period); a worker busy with one is ended (not replaced: the
        server is stopping).  The number of requests answered."""
        reply = error_reply(status, message)
        answered = 0
        for worker in list(self._workers):
            future = worker.current
            if future is not None and not future.done():
                _answer(future, reply)
                answered += 1
                self._workers.remove(worker)
                worker.end(kill=True)
                self._later(_reap(worker.process))
        waiting, self._waiting = self._waiting, collections.deque()
        for _, _, future in waiting:
            if not future.done():
                _answer(future, reply)
                answered += 1
        return answered

    @property
    def pending(self) -> int:
        """Requests scheduled and not yet answered."""
        return self._pending

    async def run(self, job: str, request: dict[str, Any]) -> Reply:
        """The reply of the job named ``job`` (:data:`analyzer.web.jobs.JOBS`) for ``request``,
        computed in a worker within ``limits.timeout`` seconds: a timeout is 504 (the worker is
        ended and replaced), a full queue 503, a worker that died 500."""
        if not self._running:
            return error_reply(503, "the server is starting or stopping: retry in a moment")
        if self._broken is not None:
            if asyncio.get_running_loop().time() - self._broken_at < RETRY_SECONDS:
                return error_reply(500, f"the workers failed: {self._broken}")
            self._broken, self._failed_starts = None, 0  # start them again
            for _ in range(self.limits.workers):
                self._spawn()
        if self._pending >= self.limits.max_pending:
            return error_reply(
                503, f"the server is busy ({self._pending} requests waiting): retry in a moment"
            )
        future: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        self._pending += 1
        try:
            self._waiting.append((job, request, future))
            self._dispatch()
            try:
                return await asyncio.shield(future)
            except asyncio.CancelledError:
                self._abandon(future)  # the client went away: end the work
                raise
        finally:
            self._pending -= 1

    # -- inside the pool ---------------------------------------------------------------------

    def _deadline(self, seconds: float, expire: Callable[[], None]) -> Deadline:
        """Call ``expire()`` once ``seconds`` have passed (by this pool's :data:`Timer`)."""
        if self._timer is not None:
            return self._timer(seconds, expire)
        return asyncio.get_running_loop().call_later(seconds, expire)

    def _spawn(self) -> None:
        parent, child = self._context.Pipe()
        process = self._context.Process(
            target=_serve_tasks,
            args=(child, self._runner, self._starter, self.limits),
            name="punto-banco-worker",
            daemon=True,
        )
        process.start()
        child.close()
        worker = _Worker(self, process)
        self._workers.append(worker)
        loop = asyncio.get_running_loop()
        self._later(loop.create_connection(lambda: worker, sock=_socket_of(parent)))

    def _later(self, work: Coroutine[Any, Any, Any]) -> None:
        """Run ``work`` on the event loop, holding its task until it is done."""
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _ready(self, worker: _Worker) -> None:
        self._failed_starts = 0
        self._idle_or_retire(worker)

    def _done(self, worker: _Worker) -> None:
        self._idle_or_retire(worker)

    def _idle_or_retire(self, worker: _Worker) -> None:
        if worker not in self._workers:
            return
        if worker.tasks >= TASKS_PER_WORKER:
            self._replace(worker, kill=False)
            return
        self._idle.append(worker)
        self._dispatch()

    def _dispatch(self) -> None:
        while self._waiting and self._idle:
            job, request, future = self._waiting.popleft()
            if future.done():  # timed out or cancelled while it waited
                continue
            self._idle.pop().give(job, request, future, self.limits.timeout)

    def _abandon(self, future: asyncio.Future[Reply]) -> None:
        """A request's client went away: its worker, if one has the task, is ended; a task
        still waiting is dropped."""
        for worker in self._workers:
            if worker.current is future:
                worker.abandon()
                break
        if not future.done():
            future.cancel()

    def _replace(self, worker: _Worker, kill: bool) -> None:
        """End ``worker`` (at once with ``kill``, else when it next reads) and start another."""
        if worker not in self._workers:
            return
        self._workers.remove(worker)
        if worker in self._idle:
            self._idle.remove(worker)
        worker.end(kill)
        self._later(_reap(worker.process))
        if self._running:
            self._spawn()

    def _lost(self, worker: _Worker) -> None:
        """A worker's connection closed without the server asking: it exited (or is exiting)."""
        if worker in self._idle:
            self._idle.remove(worker)  # no task goes to it meanwhile
        self._later(self._died(worker))

    async def _died(self, worker: _Worker) -> None:
        for _ in range(200):  # its end of the socket closes as it exits: wait for its code
            if worker.process.exitcode is not None:
                break
            await asyncio.sleep(0.01)
        code = worker.process.exitcode
        future = worker._finish()
        if future is not None and not future.done():
            future.set_result(error_reply(500, f"the worker of this request stopped (exit code {code})"))
        was_ready = worker.ready
        self._replace(worker, kill=True)
        if not was_ready:
            self._failed_starts += 1
            if self._failed_starts >= FAILED_STARTS:
                self._break(f"{FAILED_STARTS} workers in a row exited before ready (exit code {code})")

    def _break(self, why: str) -> None:
        self._broken = why
        self._broken_at = asyncio.get_running_loop().time()
        waiting, self._waiting = self._waiting, collections.deque()
        for _, _, future in waiting:
            if not future.done():
                future.set_result(error_reply(500, f"the workers failed: {why}"))
        for worker in list(self._workers):
            self._workers.remove(worker)
            worker.end(kill=True)
            self._later(_reap(worker.process))


def _answer(future: asyncio.Future[Reply] | None, reply: Reply) -> None:
    """Give a request its reply, unless it has one (or its event loop has closed)."""
    if future is not None and not future.done():
        with contextlib.suppress(RuntimeError):
            future.set_result(reply)


def _socket_of(connection: Connection) -> socket.socket:
    """The socket under the server's end of a :func:`multiprocessing.Pipe` (a socket pair on
    POSIX), for the event loop to read and write without blocking."""
    sock = socket.socket(fileno=os.dup(connection.fileno()))
    connection.close()
    sock.setblocking(False)
    return sock


async def _reap(process: BaseProcess) -> None:
    """Wait for an ended worker to exit (killed past :data:`STOP_SECONDS`), so that none is
    left a zombie."""
    for _ in range(int(STOP_SECONDS / 0.05)):
        if process.exitcode is not None:
            return
        await asyncio.sleep(0.05)
    if process.is_alive():
        process.kill()
    await asyncio.sleep(0.05)
    process.join(0)
