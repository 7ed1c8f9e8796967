"""The ASGI application: the JSON service under ``/api/v1``, its OpenAPI document at
``/openapi.json``, and the live-shoe page at ``/`` (its assets under ``/static``, shipped in
the package: nothing is fetched from elsewhere, so the page works offline).

Routes (every body and every answer is JSON; see the models of :mod:`analyzer.web.models`):

=========================  ====================================================================
``POST /api/v1/price``     ``punto-banco bets --format json``
``POST /api/v1/analyze``   ``punto-banco analyze --format json``
``POST /api/v1/deal``      ``punto-banco deal`` (its lines, and the coup as data)
``POST /api/v1/verify``    ``punto-banco verify --format jsonl`` (the findings and the summary)
``POST /api/v1/peek``      ``punto-banco peek --format json`` (partial information, edge sorting)
``GET /api/v1/catalogue``  ``punto-banco bets --list --format json``; with ``?pays=LIST``,
                           ``punto-banco bets --pays LIST --format json``
``GET /api/v1/rules``      the registered rule sets, with their TOML
``GET /api/v1/counts``     published count systems (tags per point value)
``GET /api/v1/vectors``    the test-vector kit's format, files, defaults and ``schema.json``
``GET /api/v1/health``     ``{"status": "ok"}`` and the server's limits
=========================  ====================================================================

Every request passes :class:`Guard` first: a Host header naming this server exactly (a page
elsewhere cannot reach a loopback server through DNS rebinding), a body of at most
``limits.max_body`` bytes (413, sent once the rest of the body is read and dropped, up to
:data:`~analyzer.web.limits.MAX_DRAIN_BYTES`) that arrives within ``limits.body_timeout``
seconds (408), JSON no deeper than :data:`~analyzer.web.limits.MAX_JSON_DEPTH` and without a
number too long to read (400), and any failure answered as one line of JSON, ``{"error":
"..."}``, never a traceback (a request cut short by the server stopping: 503).  Then
:class:`FastPosts` answers the POST routes (pydantic's one-step validation, the job in a
worker); FastAPI the rest.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping, Sequence
from importlib import resources
from typing import Annotated, Any, NamedTuple

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from analyzer import __version__
from analyzer.bets.choice import MAX_PAYS_CHARS
from analyzer.text import printable
from analyzer.web import jobs
from analyzer.web.limits import MAX_DRAIN_BYTES, MAX_JSON_DEPTH, Limits
from analyzer.web.models import (
    AnalyzeIn,
    CountsOut,
    DealIn,
    DealOut,
    ErrorOut,
    HealthOut,
    PeekIn,
    PriceIn,
    RulesOut,
    TablesOut,
    VectorsOut,
    VerifyIn,
    VerifyOut,
)
from analyzer.web.pool import Workers

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Host names a loopback server answers to (any port).
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")
#: Headers on every answer: the page loads only its own scripts and styles, and no other site
#: may frame it; answers are not cached (a price is for the cards of that moment).
SECURITY_HEADERS = (
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
        b"form-action 'none'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),
)
STATIC = resources.files("analyzer.web") / "static"
#: What a request still in progress when the server stops is told (503).
STOPPING = "the server is stopping: retry in a moment"


_BRACKETED_HOST = re.compile(r"\[([0-9a-f:.]+)\](?::[0-9]{1,5})?")
_NAMED_HOST = re.compile(r"([a-z0-9.-]+)(?::[0-9]{1,5})?")


def _host_name(value: str) -> str | None:
    """The host of a Host header without its port, or ``None`` for a header that is not a
    host and an optional port: ``[::1]:8750`` -> ``::1``; ``[::1].evil.example`` and
    ``[::1]evil`` -> ``None`` (an IPv6 address is exactly ``[ADDRESS]`` or ``[ADDRESS]:PORT``).

    >>> _host_name("[::1]:8750"), _host_name("LocalHost:80"), _host_name("[::1].evil.example")
    ('::1', 'localhost', None)
    """
    value = value.strip().lower()
    for pattern in (_BRACKETED_HOST, _NAMED_HOST):
        found = pattern.fullmatch(value)
        if found is not None:
            return found.group(1)
    return None


class Guard:
    """The ASGI middleware in front of every route (see the module docstring).

    The body is read whole before the route sees it (it is small: at most ``limits.max_body``
    bytes), so an oversized or slow body is refused before any work starts.
    """

    def __init__(self, app: ASGIApp, limits: Limits, hosts: Sequence[str] | None) -> None:
        self.app = app
        self.limits = limits
        self.hosts = None if hosts is None else frozenset(h.lower() for h in hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        async def answer(status: int, text: str, close: bool = False) -> None:
            body = (jobs.error_body(text) + "\n").encode()
            await guarded_send(
                {
                    "type": "http.response.start",
                    "status": status,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", b"%d" % len(body)),
                        *([(b"connection", b"close")] if close else []),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": body})

        try:
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
            if self.hosts is not None and _host_name(headers.get("host", "")) not in self.hosts:
                host = headers.get("host", "")
                await answer(400, f"bad Host header {host[:80]!r}: this server answers to localhost only")
                return
            replay = await self._read_body(headers, receive)
            if isinstance(replay, Refusal):
                if replay.status == 413:  # the client may still be sending: read it first
                    await self._drain(headers, receive, replay)
                await answer(replay.status, replay.why, close=replay.status == 413)
                return
            await self.app(scope, replay, guarded_send)
        except asyncio.CancelledError:  # stopping, past the grace period: one line of JSON
            if not started:
                with contextlib.suppress(Exception):
                    await answer(503, STOPPING, close=True)
        except Exception as exc:  # every failure is one line, never a traceback
            words = printable(str(exc))[:200]
            print(f"internal error: {type(exc).__name__}: {words}", file=sys.stderr, flush=True)
            if not started:
                await answer(500, f"internal error: {type(exc).__name__}; see the server's log")

    async def _read_body(self, headers: dict[str, str], receive: Receive) -> Receive | Refusal:
        """The request body, read whole within the limits and checked as JSON
        (:func:`json_problem`), as a ``receive`` that replays it; or its :class:`Refusal`
        (400, 408, 413)."""
        limit = self.limits.max_body
        too_large = f"the request body is larger than this server's limit of {limit:,} bytes"
        length = headers.get("content-length")
        if length is not None and not (length.strip().isascii() and length.strip().isdigit()):
            return Refusal(400, f"bad Content-Length header {length[:40]!r}")
        if length is not None and int(length) > limit:
            return Refusal(413, too_large)
        chunks: list[bytes] = []
        size = 0
        more = True
        try:
            async with asyncio.timeout(self.limits.body_timeout):  # the whole body, in this task
                while more:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return Refusal(400, "the client went away")
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    more = bool(message.get("more_body", False))
                    if size > limit:
                        return Refusal(413, too_large, size, more)
                    chunks.append(chunk)
        except TimeoutError:
            return Refusal(408, f"the request body did not arrive within {self.limits.body_timeout:g} s")
        body = b"".join(chunks)
        problem = json_problem(body, headers.get("content-type", ""))
        if problem is not None:
            return Refusal(400, problem)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return replay

    async def _drain(self, headers: dict[str, str], receive: Receive, refused: Refusal) -> None:
        """Read and drop the rest of an oversized body (at most :data:`MAX_DRAIN_BYTES` bytes
        in all, within ``limits.body_timeout``), so that a client still sending it reads the 413
        instead of "connection reset by peer" (the server closing a socket with unread data
        resets it).  A client that asked ``Expect: 100-continue`` has sent nothing yet: it is
        answered at once and sends nothing."""
        if not refused.more or (
            refused.received == 0 and headers.get("expect", "").strip().lower() == "100-continue"
        ):
            return
        dropped = refused.received
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(self.limits.body_timeout):
                while dropped <= MAX_DRAIN_BYTES:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return
                    dropped += len(message.get("body", b""))
                    if not message.get("more_body", False):
                        return


class Refusal(NamedTuple):
    """A request refused before any route runs: the status, the message, the body bytes read so
    far and whether more of the body is to come."""

    status: int
    why: str
    received: int = 0
    more: bool = True


def json_problem(body: bytes, content_type: str) -> str | None:
    """What makes ``body`` unacceptable as this service's JSON, before any model sees it: nested
    deeper than :data:`MAX_JSON_DEPTH`, or a number of more digits than Python converts
    (``sys.get_int_max_str_digits()``, 4,300); ``None`` for a body that is fine (or empty, or
    not JSON at all: the route's model says what is wrong with that).

    >>> json_problem(b"[" * 3000 + b"]" * 3000, "application/json")
    "the JSON body is nested more than 32 levels deep (this service's requests are at most 3 levels deep)"
    """
    if not body or (content_type and "json" not in content_type.lower()):
        return None
    try:
        doc = json.loads(body)
    except RecursionError:
        return _too_deep()
    except ValueError as exc:
        if "digits" in str(exc) and "integer" in str(exc):
            most = sys.get_int_max_str_digits()
            return (
                f"a number in the JSON body has more than {most:,} digits: no field of this "
                "service takes one that long"
            )
        return None  # malformed JSON: the route's model names the problem
    level: list[tuple[Any, int]] = [(doc, 1)]
    while level:
        value, depth = level.pop()
        if depth > MAX_JSON_DEPTH:
            return _too_deep()
        if isinstance(value, dict):
            level.extend((v, depth + 1) for v in value.values() if isinstance(v, dict | list))
        elif isinstance(value, list):
            level.extend((v, depth + 1) for v in value if isinstance(v, dict | list))
    return None


def _too_deep() -> str:
    return (
        f"the JSON body is nested more than {MAX_JSON_DEPTH} levels deep "
        "(this service's requests are at most 3 levels deep)"
    )


class FastPosts:
    """The POST routes (``price``, ``analyze``, ``deal``, ``verify``) answered without FastAPI's
    request machinery: the body (already read whole by :class:`Guard`) checked against its
    model by pydantic in one step (``model_validate_json``), the job run in a worker, and its
    JSON sent as it came, so a request costs the server its HTTP and its validation only.  The
    answers, errors and OpenAPI document are those of the FastAPI routes, which still describe
    these routes and answer what this path leaves to them (an empty body, a body that does not
    say it is JSON).
    """

    def __init__(
        self, app: ASGIApp, workers: Workers, routes: dict[str, tuple[str, type[BaseModel]]]
    ) -> None:
        self.app = app
        self.workers = workers
        self.routes = routes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        post = scope["type"] == "http" and scope["method"] == "POST"
        route = self.routes.get(scope["path"]) if post else None
        if route is None:
            await self.app(scope, receive, send)
            return
        message = await receive()  # the Guard's replay: the whole body
        body = message.get("body", b"")
        content_type = next((v for k, v in scope.get("headers", ()) if k == b"content-type"), b"")
        if not body or (content_type and b"json" not in content_type.lower()):
            replayed = False

            async def again() -> Message:
                nonlocal replayed
                if not replayed:
                    replayed = True
                    return message
                return await receive()

            await self.app(scope, again, send)  # FastAPI says what is wrong
            return
        job, model = route
        try:
            request = model.model_validate_json(body)
        except ValidationError as exc:
            status, text = 422, jobs.error_body(_validation_message(exc)) + "\n"
        else:
            status, text = await self.workers.run(job, request.model_dump())
        data = text.encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(data))],
            }
        )
        await send({"type": "http.response.body", "body": data})


def _validation_message(exc: RequestValidationError | ValidationError) -> str:
    """The first problem of a request that does not fit its model, as one line."""
    errors = list(exc.errors())
    if not errors:
        return "bad request body"
    first = errors[0]
    if first.get("type") == "json_invalid":
        return f"the body is not valid JSON: {first.get('ctx', {}).get('error', 'decode error')}"
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or "body"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{where}: {first.get('msg', 'bad value')}{more}"


def _json(text: str, status: int = 200) -> Response:
    return Response(text, status_code=status, media_type="application/json")


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {
        "model": ErrorOut,
        "description": "Bad input: the library's one-line message; a Host header not naming this "
        "server; a JSON body nested too deep or with a number too long.",
    },
    408: {"model": ErrorOut, "description": "The body (or the request head) did not arrive in time."},
    413: {"model": ErrorOut, "description": "The body is larger than the server's limit."},
    422: {"model": ErrorOut, "description": "The body does not fit the model, or asks too much work."},
    503: {"model": ErrorOut, "description": "Busy (every worker taken and the queue full), or stopping."},
    504: {"model": ErrorOut, "description": "The work took longer than the server's timeout."},
}


def create_app(limits: Limits | None = None, hosts: Sequence[str] | None = LOOPBACK_HOSTS) -> FastAPI:
    """The application with its worker pool (started and stopped by the lifespan).

    ``hosts``: the host names the server answers to (``None``: any, for a server bound to a
    public address).
    """
    limits = limits or Limits()
    workers = Workers(limits)
    documents: dict[str, str] = {}

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        workers.start()
        try:
            yield
        finally:
            workers.stop()

    app = FastAPI(
        title="punto-banco-analyzer",
        version=__version__,
        summary="The exact Punto Banco (baccarat) analyser as a JSON service.",
        description="Exact fractions as strings (`p/q`) beside exactly rounded decimals; the same "
        "numbers as the `punto-banco` commands' `--format json`.",
        docs_url=None,  # the interactive docs load scripts from a CDN: the document is enough
        redoc_url=None,
        openapi_url="/openapi.json",
        lifespan=lifespan,
    )
    app.state.workers = workers  # the server stops them on any way out (a signal uvicorn leaves)
    fast: dict[str, tuple[str, type[BaseModel]]] = {
        "/api/v1/price": ("price", PriceIn),
        "/api/v1/analyze": ("analyze", AnalyzeIn),
        "/api/v1/deal": ("deal", DealIn),
        "/api/v1/verify": ("verify", VerifyIn),
    }
    app.add_middleware(FastPosts, workers=workers, routes=fast)  # inside the Guard
    app.add_middleware(Guard, limits=limits, hosts=hosts)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> Response:
        return _json(jobs.error_body(_validation_message(exc)) + "\n", 422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404:
            message = f"no such page or route: {request.url.path}"
        elif exc.status_code == 405:
            message = f"{request.method} is not allowed on {request.url.path}"
        else:
            message = str(exc.detail)
        return _json(jobs.error_body(message) + "\n", exc.status_code)

    async def answer(job: str, body: Any) -> Response:
        reply = await workers.run(job, body.model_dump())
        return _json(reply.body, reply.status)

    @app.post("/api/v1/price", responses=ERRORS, response_model=TablesOut, tags=["oracle"])
    async def price(body: PriceIn) -> Response:
        """Exact EV, house edge, hit frequency and SD of bets on a shoe: the document of
        `punto-banco bets --format json` (meta.command is that command)."""
        return await answer("price", body)

    @app.post("/api/v1/analyze", responses=ERRORS, response_model=TablesOut, tags=["oracle"])
    async def analyze(body: AnalyzeIn) -> Response:
        """The outcome, main-bet, totals, cards and naturals tables: `punto-banco analyze
        --format json`."""
        return await answer("analyze", body)

    @app.post("/api/v1/deal", responses=ERRORS, response_model=DealOut, tags=["oracle"])
    async def deal(body: DealIn) -> Response:
        """One coup from cards in dealing order, why each hand drew or stood, and bets settled
        on it: `punto-banco deal` (its lines in `lines`)."""
        return await answer("deal", body)

    @app.post("/api/v1/verify", responses=ERRORS, response_model=VerifyOut, tags=["oracle"])
    async def verify(body: VerifyIn) -> Response:
        """A hand log checked against the rules and pay tables: the findings of `punto-banco
        verify --format jsonl`, the summary line, `conforms`."""
        return await answer("verify", body)

    @app.post("/api/v1/peek", responses=ERRORS, response_model=TablesOut, tags=["oracle"])
    async def peek(body: PeekIn) -> Response:
        """The exact edge of partial information (edge sorting, exposed cards): `punto-banco
        peek --format json`; with `search`, the two-group sorts ranked by edge."""
        return await answer("peek", body)

    def document(name: str, build: Callable[[], str]) -> Response:
        if name not in documents:
            documents[name] = build()
        return _json(documents[name])

    @app.get("/api/v1/catalogue", responses=ERRORS, response_model=TablesOut, tags=["reference"])
    async def catalogue(
        pays: Annotated[
            str | None,
            Query(min_length=1, max_length=MAX_PAYS_CHARS, description="Winning pays, e.g. 30,10,6,4,2,1."),
        ] = None,
        with_params: Annotated[
            bool, Query(description="With pays: also the bets whose parameter gives them.")
        ] = False,
    ) -> Response:
        """The bet catalogue: `punto-banco bets --list --format json`; with `pays`, the catalogue
        bets whose pay table is that list, priced on 8 decks: `punto-banco bets --pays LIST
        --format json` (`with_params`: `--with-params`; POST /api/v1/price with `pays` takes a
        shoe, rules and events too)."""
        if pays is None and not with_params:
            return document("catalogue", jobs.catalogue_document)
        return await answer("price", PriceIn(pays=pays, with_params=with_params))

    @app.get("/api/v1/rules", response_model=RulesOut, responses=ERRORS, tags=["reference"])
    async def rules() -> Response:
        """The registered rule sets (name, title, fingerprint, TOML)."""
        return document("rules", jobs.rules_document)

    @app.get("/api/v1/counts", response_model=CountsOut, responses=ERRORS, tags=["reference"])
    async def counts() -> Response:
        """Published count systems: tags per point value, A 2 ... 9 10/J/Q/K."""
        return document("counts", jobs.counts_document)

    @app.get("/api/v1/vectors", response_model=VectorsOut, responses=ERRORS, tags=["reference"])
    async def vectors() -> Response:
        """The test-vector kit (`punto-banco vectors`): format, files, defaults, schema.json."""
        return document("vectors", jobs.vectors_document)

    @app.get("/api/v1/health", response_model=HealthOut, responses=ERRORS, tags=["reference"])
    async def health() -> Response:
        """`{"status": "ok"}`, the version, the limits and the requests in progress."""
        state = {
            "status": "ok",
            "version": __version__,
            "pending": workers.pending,
            "limits": {
                "max_body": limits.max_body,
                "max_bets": limits.max_bets,
                "timeout": limits.timeout,
                "body_timeout": limits.body_timeout,
                "head_timeout": limits.head_timeout,
                "workers": limits.workers,
                "max_pending": limits.max_pending,
                "max_connections": limits.max_connections,
                "max_records": limits.max_records,
                "compile_seconds": limits.compile_seconds,
                "worker_memory": limits.worker_memory,
            },
        }
        return _json(json.dumps(state) + "\n")

    @app.get("/", include_in_schema=False)
    async def page() -> Response:
        return FileResponse(str(STATIC / "index.html"), media_type="text/html")

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    return app
