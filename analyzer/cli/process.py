"""How a ``punto-banco`` process ends: exit codes, signals, a closed pipe, streams that cannot
encode a symbol (standard library only; used by :class:`analyzer.cli.OneLineErrors`).

Exit codes (documented in ``punto-banco --help`` and docs/output.md):

=====  ===========================================================================
0      success
1      a finding: ``verify`` found discrepancies, ``conform`` found a misfit
2      bad input or usage (one line naming the problem)
70     an internal error (``EX_SOFTWARE``): one line says so; the traceback only with
       ``--debug`` or ``PUNTO_BANCO_DEBUG=1``
130    interrupted (SIGINT, Ctrl-C)
129    ended by SIGHUP; 143: ended by SIGTERM (128 + the signal's number)
141    standard output closed (``| head``): the command stops quietly (128 + SIGPIPE)
=====  ===========================================================================

SIGTERM and SIGHUP are turned into an exception (:class:`Ended`), as SIGINT is into
``KeyboardInterrupt``, so every ``finally`` runs: an atomic write removes its temporary file
and a folder swap leaves the old folder whole.  A signal that the parent set to be ignored
(``nohup`` ignores SIGHUP) stays ignored.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import signal
import sys
import threading
from collections.abc import Iterator
from types import FrameType
from typing import TextIO

from analyzer.errors import OutputError
from analyzer.text import ASCII_FALLBACK

EXIT_OK = 0
EXIT_FINDING = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 70
EXIT_INTERRUPTED = 128 + signal.SIGINT
EXIT_PIPE = 141  # 128 + SIGPIPE (13), also where SIGPIPE does not exist
#: Set to 1 (or true, yes, on) to print the traceback of an internal error.
DEBUG_ENV = "PUNTO_BANCO_DEBUG"


class Ended(BaseException):
    """SIGTERM or SIGHUP arrived: unwinds like ``KeyboardInterrupt`` (a ``BaseException``, so no
    ``except Exception`` swallows it and every ``finally`` cleans up)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def name(self) -> str:
        """The signal's name, e.g. ``SIGTERM``."""
        return signal.Signals(self.signum).name


def env_flag(name: str) -> bool:
    """True when the environment variable ``name`` is set to 1, true, yes or on."""
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


def stopped_by(signum: int) -> BaseException:
    """The exception a stop signal unwinds as: ``KeyboardInterrupt`` for SIGINT (exit code
    130), :class:`Ended` for the others (128 + the signal's number)."""
    return KeyboardInterrupt() if signum == signal.SIGINT else Ended(signum)


#: The first signal :func:`signals_raise` turned into an exception in the block in progress.
_RECEIVED: list[int] = []


def signal_received() -> int | None:
    """The first signal that arrived while :func:`signals_raise`'s block ran, or ``None``: how
    the run ended even when a library turned the exception it raised into its own (numpy turns
    a ``KeyboardInterrupt`` raised inside a comparison into a ``TypeError``)."""
    return _RECEIVED[0] if _RECEIVED else None


@contextlib.contextmanager
def signals_raise() -> Iterator[None]:
    """While the block runs (main thread only), SIGTERM and SIGHUP raise :class:`Ended` and
    SIGINT raises ``KeyboardInterrupt``.  The second signal is ignored, so the cleanup the
    first one started finishes (a temporary file removed); a third one raises again, for a
    user who insists.  Handlers a parent set (an ignored SIGHUP) are kept; the previous
    handlers come back afterwards."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received = 0
    _RECEIVED.clear()

    def handler(signum: int, frame: FrameType | None) -> None:
        nonlocal received
        received += 1
        if not _RECEIVED:
            _RECEIVED.append(signum)
        if received == 2:
            return
        raise stopped_by(signum)

    defaults = {signal.SIGINT: signal.default_int_handler}
    wanted = [getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)]
    previous = {}
    for signum in wanted:
        current = signal.getsignal(signum)
        if current in (signal.SIG_DFL, defaults.get(signum)):
            previous[signum] = current
            signal.signal(signum, handler)
    try:
        yield
    finally:
        for signum, old in previous.items():
            signal.signal(signum, old)


@contextlib.contextmanager
def ascii_fallback() -> Iterator[None]:
    """While the block runs, standard output and error write a symbol they cannot encode in an
    ASCII spelling (``∞`` as ``inf``, :data:`analyzer.text.ASCII_FALLBACK`) instead of raising
    ``UnicodeEncodeError`` (``PYTHONIOENCODING=latin-1``, an ASCII terminal)."""
    changed: list[tuple[TextIO, str | None]] = []
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            with contextlib.suppress(ValueError, OSError):
                old = stream.errors
                stream.reconfigure(errors=ASCII_FALLBACK)
                changed.append((stream, old))
    try:
        yield
    finally:
        for stream, old in changed:
            with contextlib.suppress(ValueError, OSError):
                stream.reconfigure(errors=old)  # type: ignore[attr-defined]


class _ClosedOutput(io.TextIOBase):
    """Standard output the parent closed (``>&-``): writing to it is writing to a pipe whose
    reader is gone (exit code 141, quietly); a command that writes only files ends as usual."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise BrokenPipeError(errno.EPIPE, "standard output is closed")


def closed_streams() -> None:
    """Give a standard stream the parent closed (Python sets it to ``None``) a stand-in:
    standard output as a broken pipe, standard error as the null device (its one line is
    lost, its exit code is not)."""
    if sys.stdout is None:
        sys.stdout = _ClosedOutput()
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - for the whole process


def silence_stdout() -> None:
    """Point standard output at the null device, after its reader went away, so the flush at
    exit cannot fail again (the recipe of the Python documentation, "Note on SIGPIPE")."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def write_all(stream: TextIO, text: str) -> None:
    """Write all of ``text`` to a text stream, or raise.  ``TextIOWrapper.write`` ignores a
    short write of its binary buffer: when a pipe's reader goes away in the middle of a large
    write, the kernel returns a partial count and the rest is dropped silently, so the command
    would end with exit code 0.  Here the encoded bytes go to the buffer until it has taken
    them all, so that case raises ``BrokenPipeError`` (exit code 141).  A stream without a
    binary buffer is written as it is.

    Raises:
        OSError: the write failed (``BrokenPipeError``: the reader went away).
    """
    buffer = getattr(stream, "buffer", None)
    if buffer is None:
        stream.write(text)
        return
    stream.flush()
    data = memoryview(text.encode(stream.encoding or "utf-8", stream.errors or "strict"))
    while data:
        taken = buffer.write(data)
        data = data[len(data) if taken is None else taken :]
    buffer.flush()


def echo(text: str = "", *, err: bool = False, nl: bool = True) -> None:
    """Print ``text`` on standard output (or error) in the stream's own encoding, with the ASCII
    fallback of :func:`ascii_fallback` (``click.echo`` would write UTF-8 to a stream declared
    ASCII), all of it or an error (:func:`write_all`).

    Raises:
        BrokenPipeError: standard output's reader went away.  OutputError: standard output
            cannot be written (a full disk): the message says so.
    """
    stream = sys.stderr if err else sys.stdout
    line = text + ("\n" if nl else "")
    if err:
        stream.write(line)
        stream.flush()
        return
    try:
        write_all(stream, line)
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(f"cannot write standard output: {exc.strerror or exc}") from None


def say(text: str) -> None:
    """One line on standard error, never raising (the terminal may be gone after SIGHUP)."""
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.write(text + "\n")
        sys.stderr.flush()


__all__ = [
    "DEBUG_ENV",
    "EXIT_FINDING",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_PIPE",
    "EXIT_USAGE",
    "Ended",
    "ascii_fallback",
    "closed_streams",
    "echo",
    "env_flag",
    "say",
    "signal_received",
    "signals_raise",
    "silence_stdout",
    "stopped_by",
    "write_all",
]
