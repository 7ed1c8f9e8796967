"""The server: uvicorn on one socket, serving :func:`analyzer.web.app.create_app`.

:func:`serve` binds the socket itself, so ``port=0`` gives a free port and the line it prints
names the real one; that line (``listening on http://HOST:PORT/``) is printed once the server
accepts connections, so a script or a test can wait for it.  Ctrl-C or SIGTERM stop it
cleanly: uvicorn finishes the requests in progress, the lifespan stops the workers, and
:func:`serve` returns the signal for the caller (the command turns it into exit code 130, 143
or 129).
"""

from __future__ import annotations

import contextlib
import ipaddress
import signal
import socket
import threading
from collections.abc import Callable, Generator
from types import FrameType

import uvicorn

from analyzer.web.app import LOOPBACK_HOSTS, create_app
from analyzer.web.limits import Limits

#: Seconds uvicorn waits for requests in progress after a stop signal.
GRACEFUL_SECONDS = 5


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

    def __init__(self, config: uvicorn.Config, ready: Callable[[], None]) -> None:
        super().__init__(config)
        self._ready = ready
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
        await super().startup(sockets)
        if self.started:
            self._ready()


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
        timeout_graceful_shutdown=GRACEFUL_SECONDS,
        lifespan="on",
    )
    sock = bind(host, port)
    bound_host, bound_port = sock.getsockname()[:2]
    if not loopback:
        warn(
            f"serving on {host}, which other machines can reach: the service has no "
            "authentication; bind 127.0.0.1 (the default) unless that is what you want"
        )
    server = _Server(config, lambda: say(f"listening on {url_of(bound_host, bound_port)} (Ctrl-C to stop)"))
    try:
        server.run(sockets=[sock])
    finally:
        app.state.workers.stop()  # already stopped by the lifespan, unless a signal cut it short
        sock.close()
    return server.stopped_by
