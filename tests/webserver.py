"""A real ``punto-banco serve`` for the web tests: started in a subprocess on a free port,
ready when it prints its ``listening on`` line (the tests wait for that line, never for a
time), stopped by a signal; and a small HTTP client on the standard library."""

from __future__ import annotations

import http.client
import json
import os
import queue
import re
import select
import signal
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
#: Longest wait for the server to say it listens (workers warm up in the background).
START_SECONDS = 120
LISTENING = re.compile(r"listening on (http://\S+)")


class Server:
    """``punto-banco serve --port 0 ARGS...`` (after ``prelude``) as a context manager: ``url``, ``host``,
    ``port``; :meth:`request` and :meth:`post` talk to it; :meth:`stop` sends a signal and
    returns the exit code and standard error."""

    def __init__(self, *args: str, cwd: Path = ROOT, prelude: str = "") -> None:
        self.args = args
        self.cwd = cwd
        self.prelude = prelude  # Python run in the server's process before the command
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.out: list[str] = []

    def __enter__(self) -> Server:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", f"{self.prelude}\nfrom analyzer.cli import main\nmain()",
             "serve", "--port", "0", *self.args],
            cwd=self.cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        threading.Thread(target=self._read, daemon=True).start()
        while True:
            try:
                line = self.lines.get(timeout=START_SECONDS)
            except queue.Empty:
                self.proc.kill()
                raise AssertionError(f"the server did not say it listens within {START_SECONDS} s") from None
            if line is None:
                err = self.proc.stderr.read() if self.proc.stderr else ""
                raise AssertionError(f"the server stopped before listening: {err}")
            found = LISTENING.search(line)
            if found:
                self.url = found.group(1)
                parts = urlsplit(self.url)
                self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
                return self

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.out.append(line)
            self.lines.put(line)
        self.lines.put(None)

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], str]:
        """(status, headers, text) of one request on a fresh connection."""
        connection = http.client.HTTPConnection(self.host, self.port, timeout=120)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            text = response.read().decode("utf-8")
            return response.status, {k.lower(): v for k, v in response.getheaders()}, text
        finally:
            connection.close()

    def post(self, path: str, doc: object) -> tuple[int, str]:
        """(status, text) of a JSON POST."""
        status, _, text = self.request(
            "POST", path, json.dumps(doc).encode(), {"content-type": "application/json"}
        )
        return status, text

    def get(self, path: str) -> tuple[int, str]:
        status, _, text = self.request("GET", path)
        return status, text

    def children(self) -> list[int]:
        """The server's child processes (its workers and multiprocessing's helpers)."""
        return descendants(self.proc.pid)

    def stop(self, signum: int = signal.SIGTERM) -> tuple[int, str]:
        """Send ``signum``; (exit code, standard error) once the server has exited."""
        self.proc.send_signal(signum)
        code = self.proc.wait(timeout=60)
        err = self.proc.stderr.read() if self.proc.stderr else ""
        return code, err


def descendants(pid: int) -> list[int]:
    """Every live process below ``pid`` (from /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found: list[int] = []
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        kids = [p for p, pp in parents.items() if pp == parent]
        found += kids
        frontier += kids
    return found


def wait_gone(pids: list[int], seconds: float = 30) -> list[int]:
    """Wait (on each process's pidfd, no polling) until ``pids`` have exited; the ones still
    running after ``seconds``."""
    left = []
    for pid in pids:
        try:
            fd = os.pidfd_open(pid)
        except ProcessLookupError:
            continue  # already gone
        try:
            ready, _, _ = select.select([fd], [], [], seconds)
            if not ready:
                left.append(pid)
        finally:
            os.close(fd)
    return left


def free_port_in_use() -> tuple[object, int]:
    """A listening socket on a free loopback port (to try serving on a port in use)."""
    import socket

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    return sock, sock.getsockname()[1]


def address_space_limited() -> bool:
    """True under ``ulimit -v``: Chromium and node's ``fetch`` (WebAssembly) reserve far more
    address space than they use, and fail to start under such a limit."""
    import resource

    return resource.getrlimit(resource.RLIMIT_AS)[0] != resource.RLIM_INFINITY


#: The reason the browser and node tests give when :func:`address_space_limited`.
LIMITED_REASON = "ulimit -v is set: Chromium and node's fetch reserve more address space than it allows"


__all__ = [
    "LIMITED_REASON",
    "Server",
    "address_space_limited",
    "descendants",
    "free_port_in_use",
    "wait_gone",
]
