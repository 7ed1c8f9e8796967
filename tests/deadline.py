"""A test helper: fail instead of hanging."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def deadline(seconds: int = 10) -> Iterator[None]:
    """Fail instead of hanging (``Fraction("1e999999999")`` would never return).  SIGALRM
    cannot interrupt one long C-level computation, so this bounds Python-level loops only."""

    def stop(*_: object) -> None:
        raise TimeoutError(f"took more than {seconds} s")

    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
