"""What one request to the web service may ask: the server's adjustable limits (standard library
only; each is a ``punto-banco serve`` option)."""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.errors import AnalyzerError

#: Largest request body (bytes): a bet file is a few kilobytes, a hand log of 10,000 coups
#: about 700 kB; a larger body is answered 413 before it is read.
MAX_BODY_BYTES = 1_000_000
#: Most bets priced in one request (catalogue bets and the bets of the bet file together).
MAX_REQUEST_BETS = 100
#: Seconds of work a request may take in a worker.
REQUEST_TIMEOUT = 30.0
#: Seconds a request's body may take to arrive (a client that trickles it is cut off).
BODY_TIMEOUT = 30.0
#: Seconds a connection may take to send a request's head (its request line and headers),
#: from when it opens or from the head's first byte: an idle or trickling connection is closed.
HEAD_TIMEOUT = 10.0
#: Connections the server holds open at once (at most the open-file limit allows); one more is
#: answered 503 and closed at once.
MAX_CONNECTIONS = 256
#: Most bytes of an oversized body read and dropped before the 413 is sent, so that a client
#: still sending it reads the answer instead of "connection reset by peer"; past that the
#: connection is closed.
MAX_DRAIN_BYTES = 64_000_000
#: Deepest nesting of a request's JSON (objects and lists): the deepest request is 3 levels
#: (a body, its shoe, the shoe's seen cards); a deeper body is refused before it is read.
MAX_JSON_DEPTH = 32
#: Seconds one request may spend compiling tables (of a bet file's bets, or of catalogue bets
#: under rules whose tables do not ship): past that it is refused (422); the tables compiled
#: meanwhile are kept, so the same request sent again goes on from there.
COMPILE_SECONDS = 10.0
#: Megabytes of resident memory past which a worker retires after its answer (a fresh one
#: takes its place): new rule sets and bet files fill its caches of tables, and this bounds them.
WORKER_MEMORY_MB = 300
#: Worker processes that compute answers (each holds its own compiled tables, ~150 MB).
WORKERS = 2
#: Requests that may wait for a worker at once; past that, 503 at once (retry later).
MAX_PENDING = 64
#: Most discrepancies a ``verify`` answer lists (all are counted).
MAX_REPORTED = 1_000
#: Largest standard shoe a request may name (decks): the cost is the same for any size, but
#: the exact numbers grow with it.
MAX_DECKS = 10_000
#: Most cards in one ``seen`` list (83 shoes of 8 decks).
MAX_SEEN = 10_000
#: Longest text field other than a bet file, rules file or hand log (a card list, a bet name).
MAX_FIELD_CHARS = 10_000
#: Most records one bet's table may settle when a request compiles it (the engine's compile
#: budget, ``PUNTO_BANCO_MAX_RECORDS``, in each worker): every catalogue table ships compiled;
#: the largest settles about 112,000.
MAX_RECORDS = 200_000


@dataclass(frozen=True)
class Limits:
    """The limits of one server (see the module constants for their meaning and defaults).

    ``max_records``: the compile budget of a bet a request brings (a bet file's bet): a table
    that would settle more records is refused with 422, in one line naming the bet.

    Raises:
        AnalyzerError: a limit that is not a whole number >= 1 (a time not above 0 seconds).
    """

    max_body: int = MAX_BODY_BYTES
    max_bets: int = MAX_REQUEST_BETS
    timeout: float = REQUEST_TIMEOUT
    body_timeout: float = BODY_TIMEOUT
    workers: int = WORKERS
    max_pending: int = MAX_PENDING
    max_reported: int = MAX_REPORTED
    max_records: int = MAX_RECORDS
    head_timeout: float = HEAD_TIMEOUT
    max_connections: int = MAX_CONNECTIONS
    compile_seconds: float = COMPILE_SECONDS
    worker_memory: int = WORKER_MEMORY_MB

    def __post_init__(self) -> None:
        for name in (
            "max_body",
            "max_bets",
            "workers",
            "max_pending",
            "max_reported",
            "max_records",
            "max_connections",
            "worker_memory",
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise AnalyzerError(f"bad limit {name}={value!r}: use a whole number >= 1")
        for name in ("timeout", "body_timeout", "head_timeout", "compile_seconds"):
            if not getattr(self, name) > 0:
                raise AnalyzerError(f"bad limit {name}={getattr(self, name)!r}: use a number of seconds > 0")
