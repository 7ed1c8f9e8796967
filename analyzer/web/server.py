"""The server: uvicorn on one socket, serving :func:`analyzer.web.app.create_app`.

:func:`serve` binds the socket itself, so ``port=0`` gives a free port and the line it prints
names the real one; that line (``listening on http://HOST:PORT/``) is printed once the server
accepts connections, so a script or a test can wait for it.  Ctrl-C or SIGTERM stop it
cleanly: uvicorn finishes the requests in progress (for :data:`GRACEFUL_SECONDS`; a request
still computing then is answered 503, "the server is stopping", as one line of JSON), the
lifespan stops the workers, and :func:`serve` returns the signal for the caller (the command
turns it into exit code 130, 143 or 129).

Each connection is held to account (:class:`_Protocol`): at most ``limits.max_connections``
at once (one more is answered 503 and closed at once), and a request head (the request line
and headers) must arrive whole within ``limits.head_timeout`` seconds of the connection or of
its first byte (else the connection is closed; a half head is answered 408 first), so idle or
trickling connections cannot hold the server's sockets.  Nothing of that is logged: the log of
a server under such a flood stays quiet (one line per kind of event-loop failure at most, see
:func:`_quiet_loop_errors`).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import resource
import signal
import socket
import sys
import threading
from collections.abc import Callable, Generator
from types import FrameType
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from analyzer.text import printable
from analyzer.web.app import LOOPBACK_HOSTS, STOPPING, create_app
from analyzer.web.jobs import error_body
from analyzer.web.limits import Limits
from analyzer.web.pool import Workers

#: Seconds uvicorn waits for requests in progress after a stop signal; a request still
#: computing after that is answered 503 (:meth:`_Server.shutdown`).
GRACEFUL_SECONDS = 5.0
#: File descriptors kept free of connections (the workers' socket pairs, the listening socket,
#: the standard streams, files the workers' start opens).
RESERVED_FDS = 64
#: Connections waiting to be accepted (the listening socket's backlog); the event loop accepts
#: up to this many at once before it can close the ones past the cap, so the cap is at most
#: the open-file limit less these and :data:`RESERVED_FDS`: accepting never runs out of
#: descriptors.
BACKLOG = 128


def _raw_answer(status: int, reason: str, message: str) -> bytes:
    """A whole HTTP/1.1 answer ``{"error": message}`` that closes the connection, written
    straight to a socket (for a connection that never reached the application)."""
    body = (error_body(message) + "\n").encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


class _Protocol(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol with a connection cap and a request-head timeout (the module
    docstring); the cap and the timeout come from ``config.punto_banco_limits``."""

    def __init__(
        self, config: uvicorn.Config, server_state: Any, app_state: dict[str, Any], **kw: Any
    ) -> None:
        super().__init__(config, server_state, app_state, **kw)
        limits: Limits = getattr(config, "punto_banco_limits", Limits())
        self._cap = connection_cap(limits.max_connections)
        self._head_timeout = limits.head_timeout
        self._head_timer: asyncio.TimerHandle | None = None
        self._head_bytes = False  # a byte of the current head has arrived

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self._cap:
            transport.write(
                _raw_answer(
                    503,
                    "Service Unavailable",
                    f"the server has {self._cap:,} connections open, its limit: retry in a moment",
                )
            )
            transport.close()
            return
        self._arm_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        super().connection_lost(exc)

    def _arm_head_timer(self) -> None:
        self._cancel_head_timer()
        self._head_bytes = False
        self._head_timer = self.loop.call_later(self._head_timeout, self._head_expired)

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_expired(self) -> None:
        self._head_timer = None
        if self.transport.is_closing():
            return
        if self._head_bytes:  # half a head: say why before closing
            self.transport.write(
                _raw_answer(
                    408,
                    "Request Timeout",
                    f"the request head did not arrive within {self._head_timeout:g} s",
                )
            )
        self.transport.close()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._head_bytes = True
        if self._head_timer is None:  # the next request on a kept-alive connection
            self._head_timer = self.loop.call_later(self._head_timeout, self._head_expired)

    def on_headers_complete(self) -> None:
        self._cancel_head_timer()
        super().on_headers_complete()

    def send_400_response(self, msg: str) -> None:
        """A malformed request (the parser's verdict): one line of JSON, logged nowhere."""
        self._cancel_head_timer()
        self.transport.write(_raw_answer(400, "Bad Request", "malformed HTTP request"))
        self.transport.close()


def connection_cap(wanted: int) -> int:
    """The connections the server holds at most: ``wanted``, less if the process's open-file
    limit (``ulimit -n``) leaves fewer descriptors than that past :data:`RESERVED_FDS` and
    :data:`BACKLOG`."""
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(1, min(wanted, soft - RESERVED_FDS - BACKLOG))


def _quiet_loop_errors(loop: asyncio.AbstractEventLoop) -> None:
    """An event-loop failure outside any request (say, ``accept`` out of file descriptors)
    is one line on standard error, once per kind of failure, never a traceback per event."""
    said: set[str] = set()

    def handler(_: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        kind = type(exc).__name__ if exc is not None else "error"
        words = printable(str(exc) if exc is not None else str(context.get("message", "")))[:200]
        key = f"{kind}: {words}"
        if key not in said and len(said) < 20:
            said.add(key)
            print(f"server: {key} (said once)", file=sys.stderr, flush=True)

    loop.set_exception_handler(handler)


def is_loopback(host: str) -> bool:
    """True for a host name or address that only this machine can reach.

    >>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("::1"), is_loopback("0.0.0.0")
    (True, True, True, False)
    """
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip().strip("[]")).is_loopback
    except ValueError:
        return False


def url_of(host: str, port: int) -> str:
    """``http://HOST:PORT/`` (an IPv6 address in brackets).

    >>> url_of("127.0.0.1", 8750), url_of("::1", 8750)
    ('http://127.0.0.1:8750/', 'http://[::1]:8750/')
    """
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def bind(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host``:``port`` (``0``: a free port), not yet listening.

    Raises:
        OSError: the host is unknown, or the address cannot be bound (in use, not this machine's).
    """
    name = host.strip().strip("[]")
    family, kind, proto, _, address = socket.getaddrinfo(name, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    return sock


class _Server(uvicorn.Server):
    """uvicorn's server, saying once when it accepts connections, and stopping on SIGHUP (a
    closed terminal) as on SIGTERM: gracefully, then the signal raised again for the caller."""

    def __init__(
        self, config: uvicorn.Config, ready: Callable[[], None], workers: Workers | None = None
    ) -> None:
        super().__init__(config)
        self._ready = ready
        self._workers = workers
        #: The first signal that stopped the server.
        self.stopped_by: int | None = None

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self.stopped_by is None:
            self.stopped_by = sig
        super().handle_exit(sig, frame)

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        with super().capture_signals():
            hangup = getattr(signal, "SIGHUP", None)
            if hangup is None or threading.current_thread() is not threading.main_thread():
                yield
                return
            before = signal.signal(hangup, self.handle_exit)
            try:
                yield
            finally:  # back before uvicorn raises the captured signals again
                signal.signal(hangup, before)

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        _quiet_loop_errors(asyncio.get_running_loop())
        await super().startup(sockets)
        if self.started:
            self._ready()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """uvicorn's graceful stop, with the requests still computing when the grace period
        ends answered 503 (:data:`STOPPING`) through the normal path, so each client reads one
        line of JSON and uvicorn cancels no task (no traceback, no text/plain 500)."""
        loop = asyncio.get_running_loop()
        workers = self._workers
        late = None
        if workers is not None:
            grace = max(0.0, float(self.config.timeout_graceful_shutdown or 0) - 0.5)
            late = loop.call_later(grace, workers.answer_all, 503, STOPPING)
        try:
            await super().shutdown(sockets)
        finally:
            if late is not None:
                late.cancel()


def serve(
    host: str,
    port: int,
    limits: Limits,
    say: Callable[[str], None],
    warn: Callable[[str], None],
) -> int | None:
    """Serve the page and the API on ``host``:``port`` until a signal stops the server; the
    number of that signal (``None`` if the server stopped otherwise), for the caller to exit as
    that signal says.  Its own record, not uvicorn's raising the signal again after the event
    loop closes: a signal raised there can be lost (a handler in between that ignores it), and
    a stopped server must never exit 0.

    ``say`` gets the ``listening on ...`` line; ``warn`` one line when ``host`` is not a
    loopback address (anyone who can reach the machine can then use the server).

    Raises:
        OSError: the address cannot be bound (in use, not this machine's).
    """
    loopback = is_loopback(host)
    hosts = (*LOOPBACK_HOSTS, host.strip().strip("[]").lower()) if loopback else None
    app = create_app(limits, hosts)
    config = uvicorn.Config(
        app,
        host=host.strip().strip("[]"),
        port=port,
        log_level="warning",
        access_log=False,
        server_header=False,
        timeout_graceful_shutdown=GRACEFUL_SECONDS,  # type: ignore[arg-type]  # seconds, a float works
        lifespan="on",
        http=_Protocol,
        backlog=BACKLOG,
    )
    config.punto_banco_limits = limits  # type: ignore[attr-defined]  # read by _Protocol
    sock = bind(host, port)
    bound_host, bound_port = sock.getsockname()[:2]
    if not loopback:
        warn(
            f"serving on {host}, which other machines can reach: the service has no "
            "authentication; bind 127.0.0.1 (the default) unless that is what you want"
        )
    server = _Server(
        config,
        lambda: say(f"listening on {url_of(bound_host, bound_port)} (Ctrl-C to stop)"),
        app.state.workers,
    )
    try:
        server.run(sockets=[sock])
    finally:
        app.state.workers.stop()  # already stopped by the lifespan, unless a signal cut it short
        sock.close()
    return server.stopped_by
