"""The ``serve`` command: the live-shoe page and the JSON service (:mod:`analyzer.web`, which
needs the ``web`` extra; nothing of it is imported until the command runs)."""

from __future__ import annotations

import os
import sys

import click

from analyzer.cli.common import UsageProblem, WholeNumber, guard
from analyzer.cli.process import echo, say, stopped_by
from analyzer.web.limits import (
    BODY_TIMEOUT,
    COMPILE_SECONDS,
    HEAD_TIMEOUT,
    MAX_BODY_BYTES,
    MAX_CONNECTIONS,
    MAX_PENDING,
    MAX_RECORDS,
    MAX_REQUEST_BETS,
    REQUEST_TIMEOUT,
    WORKER_MEMORY_MB,
    WORKERS,
    Limits,
)

DEFAULT_PORT = 8750


@click.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on; anything but a loopback address lets other machines in (a warning says so).",
)
@click.option(
    "--port",
    type=WholeNumber(0, 65535),
    default=DEFAULT_PORT,
    show_default=True,
    help="Port to listen on (0: a free port, named in the 'listening on' line).",
)
@click.option(
    "--workers",
    type=WholeNumber(1, 64),
    default=WORKERS,
    show_default=True,
    help="Worker processes computing answers (each holds its own compiled tables).",
)
@click.option(
    "--worker-memory",
    type=WholeNumber(50),
    default=WORKER_MEMORY_MB,
    show_default=True,
    metavar="MB",
    help="Resident memory past which a worker is replaced after its answer (bounds its caches).",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=REQUEST_TIMEOUT,
    show_default=True,
    metavar="SECONDS",
    help="Longest a request may compute (its worker is then ended: 504).",
)
@click.option(
    "--body-timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=BODY_TIMEOUT,
    show_default=True,
    metavar="SECONDS",
    help="Longest a request's body may take to arrive (a slower one: 408).",
)
@click.option(
    "--max-compile-seconds",
    type=click.FloatRange(min=0, min_open=True),
    default=COMPILE_SECONDS,
    show_default=True,
    metavar="SECONDS",
    help="Longest a request may spend compiling tables (a bet file's, or every bet under other "
    "rules; more: 422, the tables compiled so far kept).",
)
@click.option(
    "--head-timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=HEAD_TIMEOUT,
    show_default=True,
    metavar="SECONDS",
    help="Longest a connection may take to send a request's head (an idle one is closed).",
)
@click.option(
    "--max-connections",
    type=WholeNumber(1),
    default=MAX_CONNECTIONS,
    show_default=True,
    metavar="N",
    help="Most connections open at once (more: 503 and closed; at most what ulimit -n allows).",
)
@click.option(
    "--max-body",
    type=WholeNumber(1),
    default=MAX_BODY_BYTES,
    show_default=True,
    metavar="BYTES",
    help="Largest request body (a larger one: 413).",
)
@click.option(
    "--max-bets",
    type=WholeNumber(1),
    default=MAX_REQUEST_BETS,
    show_default=True,
    metavar="N",
    help="Most bets in one request, named and from its bet file together (more: 422).",
)
@click.option(
    "--max-pending",
    type=WholeNumber(1),
    default=MAX_PENDING,
    show_default=True,
    metavar="N",
    help="Most requests waiting for a worker (more: 503 at once).",
)
@click.option(
    "--max-records",
    type=WholeNumber(1),
    default=MAX_RECORDS,
    show_default=True,
    metavar="N",
    help="The compile budget of a bet a request brings: most records its table may settle "
    "(more: 422).",
)
@click.option(
    "--bet-module",
    "bet_modules",
    multiple=True,
    metavar="MODULE:NAME",
    help="A bet written in Python that requests may name (repeatable): the Bet bound to NAME in "
    "the module, imported now (its code runs); a request names bets, it never loads a module.",
)
@guard
def serve(
    host: str,
    port: int,
    workers: int,
    worker_memory: int,
    timeout: float,
    body_timeout: float,
    max_compile_seconds: float,
    head_timeout: float,
    max_connections: int,
    max_body: int,
    max_bets: int,
    max_pending: int,
    max_records: int,
    bet_modules: tuple[str, ...],
) -> None:
    """Serve the live-shoe page and the JSON service (needs: pip install 'punto-banco-analyzer[web]').

    The page (http://127.0.0.1:8750/ by default) prices every chosen bet on the cards not yet
    seen, card by card; its state lives in the URL.  The service answers under /api/v1/ (price,
    analyze, deal, verify, ...) with the numbers of the commands' --format json, described by
    /openapi.json.  Ctrl-C or SIGTERM stop it after the requests in progress."""
    try:
        from analyzer.web.server import serve as run  # lazy: start-up time
    except ImportError as exc:
        raise UsageProblem(
            f"punto-banco serve needs the web extra ({exc.name} is missing): "
            "pip install 'punto-banco-analyzer[web]'"
        ) from None
    if bet_modules:  # imported here, once: a bad one is the one error line, before listening
        from analyzer.bets.choice import BET_MODULES_ENV, give_module_bets  # lazy: start-up time

        give_module_bets(bet_modules, chosen=False)
        os.environ[BET_MODULES_ENV] = ",".join(bet_modules)  # the workers, spawned, import them too
    limits = Limits(
        max_body=max_body,
        max_bets=max_bets,
        timeout=timeout,
        body_timeout=body_timeout,
        workers=workers,
        max_pending=max_pending,
        max_records=max_records,
        head_timeout=head_timeout,
        max_connections=max_connections,
        compile_seconds=max_compile_seconds,
        worker_memory=worker_memory,
    )

    def announce(line: str) -> None:
        echo(line)
        sys.stdout.flush()  # a script waiting for this line reads a pipe

    try:
        stopped = run(host, port, limits, announce, lambda text: say(f"warning: {text}"))
    except OSError as exc:
        raise UsageProblem(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    if stopped is not None:
        raise stopped_by(stopped)  # exit code 130, 143 or 129, as for any command
