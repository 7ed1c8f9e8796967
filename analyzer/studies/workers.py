"""Where a study's blocks run: this process, local worker processes or a Dask cluster; in a
bounded window of tasks, results in task order (the study reduces them in that order).

* **Workers.**  ``auto`` is the cores that are free: the cores this process may run on (its CPU
  affinity) less the one-minute load average, rounded, at least 1 (a worker on a busy core only
  competes with the work already there).  At most :func:`worker_limit` workers: the usable
  cores, or 2 on a single-core machine (more workers than cores add memory, about 70 MB each,
  and no speed).
* **Fixed memory.**  Tasks are made as they are needed and at most a window of them (a few per
  worker) is submitted or waiting to be reduced at any time, whatever the number of shoes.
* **Dask.**  An address is checked before a client is made: it must be ``tcp://HOST:PORT`` (or
  ``HOST:PORT``); the scheduler must answer the connection with a Dask handshake within the
  timeout (an endpoint that accepts and never answers, or answers with something that is not a
  Dask message, is refused in one line), and have a worker within the timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any, TypeVar

from analyzer.core.exact import whole_number
from analyzer.errors import StudyError

T = TypeVar("T")
R = TypeVar("R")
#: Tasks submitted or waiting to be reduced, per worker (and a few more).
WINDOW_PER_WORKER = 4
#: Seconds to wait for a Dask scheduler's answer and for its first worker (the default).
SCHEDULER_TIMEOUT = 30.0
_ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def usable_cores() -> int:
    """The CPU cores this process may run on (its affinity where the system has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not on Linux
        return max(1, os.cpu_count() or 1)


def free_cores() -> int:
    """The usable cores less the one-minute load average, rounded half up, from 1 to the
    usable cores (1 where the system gives no load average)."""
    cores = usable_cores()
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        return 1
    return max(1, min(cores, math.floor(cores - load + 0.5)))


def worker_limit() -> int:
    """The most worker processes a study starts: the usable cores, and at least 2."""
    return max(2, usable_cores())


def check_workers(workers: int | str) -> int:
    """A number of workers: ``"auto"`` (:func:`free_cores`) or a whole number (an int, or its
    digits) from 1 to :func:`worker_limit`.

    Raises:
        StudyError: anything else (one line naming the limit).
    """

    if isinstance(workers, str) and workers.strip().lower() == "auto":
        return free_cores()
    limit = worker_limit()
    number = whole_number(workers)
    if number is None or number < 1:
        raise StudyError(f"bad workers {workers!r}: use auto or a whole number from 1 to {limit}")
    workers = number
    if workers > limit:
        raise StudyError(
            f"bad workers {workers}: at most {limit} (the CPU cores this process may use; "
            "each worker holds about 70 MB and more than the cores add no speed)"
        )
    return workers


def _windowed(
    tasks: Iterable[T],
    submit: Callable[[T], Any],
    wait_first: Callable[[list[Any]], set[Any]],
    window: int,
) -> Iterator[Any]:
    """Results of the submitted tasks, in task order, with at most ``window`` tasks submitted
    or finished and not yet yielded."""
    pending: dict[int, Any] = {}
    ready: dict[int, Any] = {}
    source = iter(enumerate(tasks))
    upcoming = 0
    exhausted = False
    while True:
        while not exhausted and len(pending) + len(ready) < window:
            item = next(source, None)
            if item is None:
                exhausted = True
                break
            pending[item[0]] = submit(item[1])
        while upcoming in ready:
            yield ready.pop(upcoming)
            upcoming += 1
        if not pending:
            if exhausted and not ready:
                return
            continue
        done = wait_first(list(pending.values()))
        for index, future in list(pending.items()):
            if future in done:
                ready[index] = future.result()
                del pending[index]


def ordered_map(
    func: Callable[[Any, T], R],
    fixed: Any,
    tasks: Iterable[T],
    *,
    workers: int = 1,
    scheduler: str | Any | None = None,
    timeout: float = SCHEDULER_TIMEOUT,
) -> Iterator[R]:
    """``func(fixed, task)`` for each task, in task order: in this process (``workers`` = 1),
    on ``workers`` spawned processes (one BLAS thread each), or on a Dask cluster
    (``scheduler``: an address or a ``distributed.Client``; ``timeout`` seconds for its answer).
    Use it as a context (``contextlib.closing``) or exhaust it: closing it stops the workers.

    Raises:
        StudyError: a bad scheduler address, an endpoint that is not a Dask scheduler, no
            worker, or dask missing.
    """
    if scheduler is not None:
        return _on_dask(func, fixed, tasks, scheduler, timeout)
    if workers == 1:
        return (func(fixed, task) for task in tasks)
    return _on_processes(func, fixed, tasks, workers)


def _on_processes(func: Callable[[Any, T], R], fixed: Any, tasks: Iterable[T], workers: int) -> Iterator[R]:
    saved = {k: os.environ.get(k) for k in _ONE_THREAD}
    os.environ.update(_ONE_THREAD)  # one BLAS thread per worker process (set before they start)
    try:
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    try:
        yield from _windowed(
            tasks,
            lambda task: pool.submit(func, fixed, task),
            lambda fs: wait(fs, return_when=FIRST_COMPLETED).done,
            WINDOW_PER_WORKER * workers + 2,
        )
    except BaseException:
        # interrupted (Ctrl-C, SIGTERM to this process only) or closed early: end the workers
        # now; shutdown() alone waits for the blocks they hold, many seconds each
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            with contextlib.suppress(OSError, AttributeError):
                process.terminate()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _on_dask(
    func: Callable[[Any, T], R], fixed: Any, tasks: Iterable[T], scheduler: str | Any, timeout: float
) -> Iterator[R]:
    try:
        from distributed import Client, wait
    except ImportError:
        raise StudyError(
            "--scheduler needs dask distributed: pip install 'punto-banco-analyzer[cluster]'"
        ) from None
    own = not isinstance(scheduler, Client)
    client: Any = connect(str(scheduler), timeout) if own else scheduler
    try:
        _wait_for_a_worker(client, str(getattr(client.scheduler, "address", scheduler)), timeout)
        threads = sum(client.nthreads().values()) or 1
        yield from _windowed(
            tasks,
            lambda task: client.submit(func, fixed, task, pure=False),
            lambda fs: set(wait(fs, return_when="FIRST_COMPLETED").done),  # type: ignore[no-untyped-call]
            WINDOW_PER_WORKER * threads + 2,
        )
    finally:
        if own:
            client.close()


def scheduler_address(address: str) -> str:
    """``address`` as ``tcp://HOST:PORT`` (a bare ``HOST:PORT`` is TCP).

    Raises:
        StudyError: another transport, or a malformed address.
    """
    text = address.strip()
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    scheme = scheme.lower()
    if scheme == "inproc":
        raise StudyError(
            f"bad Dask scheduler {address!r}: an inproc:// address names a scheduler inside one Python "
            "process; give the cluster's tcp://HOST:PORT (or pass a distributed.Client to run_study)"
        )
    if scheme != "tcp":
        raise StudyError(
            f"bad Dask scheduler {address!r}: give tcp://HOST:PORT ({scheme}:// needs settings the "
            "command line does not take; pass a distributed.Client to run_study)"
        )
    host, colon, port = rest.rpartition(":")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536 or "/" in rest:
        raise StudyError(
            f"cannot reach the Dask scheduler {address!r}: give tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786"
        )
    return f"tcp://{rest}"


def _probe(address: str, timeout: float) -> None:
    """Open one connection to ``address`` and read the scheduler's handshake, all within
    ``timeout`` seconds (distributed's own connect bounds the connection, not the handshake)."""
    from distributed.comm.core import connect as dask_connect

    async def handshake() -> None:
        comm = await asyncio.wait_for(dask_connect(address, timeout=timeout), timeout)  # type: ignore[no-untyped-call]
        await comm.close()

    outcome: list[BaseException | None] = []

    def run() -> None:  # a thread of its own: the caller may already run an event loop
        try:
            asyncio.run(handshake())
            outcome.append(None)
        except BaseException as exc:  # reported to the caller below
            outcome.append(exc)

    thread = threading.Thread(target=run, name="dask-probe", daemon=True)
    thread.start()
    thread.join(timeout + 5)
    exc = outcome[0] if outcome else TimeoutError()
    if exc is None:
        return
    if isinstance(exc, asyncio.TimeoutError | TimeoutError):
        raise StudyError(
            f"the Dask scheduler {address!r} did not answer within {timeout:g} s "
            "(is a Dask scheduler listening there? --scheduler-timeout sets the wait)"
        ) from None
    if isinstance(exc, MemoryError):
        raise StudyError(
            f"{address!r} answered with a message far larger than a Dask handshake: not a Dask scheduler"
        ) from None
    if isinstance(exc, OSError):  # refused, unreachable, reset, or closed without a handshake
        raise StudyError(f"cannot reach the Dask scheduler {address!r}: {exc}") from None
    if isinstance(exc, Exception):  # a reply that is not a Dask message
        raise StudyError(
            f"{address!r} did not answer as a Dask scheduler does ({type(exc).__name__}): "
            "not a Dask scheduler"
        ) from None
    raise exc


def connect(address: str, timeout: float = SCHEDULER_TIMEOUT) -> Any:
    """A ``distributed.Client`` of the scheduler at ``address``, checked first (module
    docstring).

    Raises:
        StudyError: a bad address, an endpoint that is not a Dask scheduler, no answer within
            ``timeout`` seconds.
    """
    from distributed import Client

    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not 0 < timeout < math.inf:
        raise StudyError(f"bad scheduler timeout {timeout!r}: give a number of seconds above 0")
    url = scheduler_address(address)
    _probe(url, timeout)
    made: list[Any] = []

    def make() -> None:
        try:
            made.append(Client(url, timeout=timeout))  # type: ignore[no-untyped-call]
        except BaseException as exc:  # reported to the caller below
            made.append(exc)

    thread = threading.Thread(target=make, name="dask-client", daemon=True)
    thread.start()
    thread.join(2 * timeout + 5)
    result = made[0] if made else TimeoutError()
    if isinstance(result, BaseException):
        raise StudyError(
            f"cannot reach the Dask scheduler {url!r}: {result or type(result).__name__}"
        ) from None
    return result


def _wait_for_a_worker(client: Any, address: str, timeout: float) -> None:
    try:
        client.wait_for_workers(1, timeout=timeout)
    except (TimeoutError, OSError):
        raise StudyError(
            f"the Dask scheduler {address!r} has no worker (waited {timeout:g} s): start one with "
            f"'dask worker {address}'"
        ) from None
