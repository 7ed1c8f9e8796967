"""The work behind each route of the service, run in a worker process (:mod:`analyzer.web.pool`).

A job takes the request body as plain data (the validated model of :mod:`analyzer.web.models`,
as ``model_dump()`` gives it) and returns a :class:`Reply`: an HTTP status and the JSON text.
It makes the same library calls as the command it mirrors and answers with the same builders,
so the numbers are those of the command's ``--format json``:

=========  ===================================================================================
job        the command it answers as
=========  ===================================================================================
price      ``punto-banco bets ... --format json`` (a shoe, rules, bets: the bets table, events,
           fair and target pays; or ``pays``: ``bets --pays LIST``, the bets found by their pays)
analyze    ``punto-banco analyze ... --format json``
deal       ``punto-banco deal CARDS ...`` (its lines, and the same facts as data)
verify     ``punto-banco verify LOG --format jsonl`` (each discrepancy as a JSON object; the
           summary line)
peek       ``punto-banco peek ... --format json`` (the patterns seen, the edges, the house's
           side; or ``search``: the two-group sorts ranked)
=========  ===================================================================================

Every answer of ``price`` and ``analyze`` carries ``meta.command``: the command line that gives
the same document, with ``rules_toml`` and ``bet_file`` standing for files holding the texts
the request sent (the request's ``rules_toml`` and ``bet_file`` fields).

Nothing from a client is ever read as a path: rules are a registered name or TOML text, bets
are catalogue names or a bet file's TOML text, the hand log is text.  Bad input is a 400 with
``{"error": "..."}`` (one line, the library's message); work over the limits a 422
(:mod:`analyzer.web.budget`); anything else a 500 naming the error's type, never a traceback.

This module imports no web library: the workers need only the analyser.
"""

from __future__ import annotations

import collections
import functools
import io
import json
import math
import os
import shlex
import signal
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from analyzer.bets.catalogue import find_bet, main_bets
from analyzer.bets.choice import Choice, choose, named_bet, split_file_spec
from analyzer.bets.main import parse_amount
from analyzer.bets.model import Bet
from analyzer.core.cards import parse_cards
from analyzer.core.inputs import Inputs, RulesSpec, ShoeSpec, Spelling, read_inputs, read_rules, read_shoes
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import TABLEAUX, Tableau
from analyzer.engine import table as engine_table
from analyzer.engine.table import MAX_RECORDS_ENV
from analyzer.errors import (
    AnalyzerError,
    BetError,
    CompileBudgetError,
    LogError,
    WorkLimitError,
)
from analyzer.text import printable
from analyzer.web.budget import check_work
from analyzer.web.limits import Limits

#: What a rules text and a bet-file text are called in messages and in ``meta.command``.
RULES_LABEL = "rules_toml"
BET_FILE_LABEL = "bet_file"
#: Most cards ``deal`` reads (a coup deals at most 6; the rest are listed as not dealt).
MAX_DEAL_CARDS = 100
#: Longest error message sent (one line; longer ones are cut with "...").
MAX_ERROR_CHARS = 500


class Reply(NamedTuple):
    """A job's answer: the HTTP status and the response body (JSON text)."""

    status: int
    body: str


Request = Mapping[str, Any]

#: The limits of this worker (set by :func:`start_worker`; the defaults in the server process).
_LIMITS: list[Limits] = [Limits()]


def error_body(message: str) -> str:
    """``{"error": message}`` as one line of JSON: control characters escaped
    (:func:`analyzer.text.printable`), at most :data:`MAX_ERROR_CHARS` characters.

    >>> error_body("bad card 'Z'")
    '{"error": "bad card \\'Z\\'"}'
    """
    text = printable(str(message))
    if len(text) > MAX_ERROR_CHARS:
        text = text[: MAX_ERROR_CHARS - 3] + "..."
    return json.dumps({"error": text})


def error_reply(status: int, message: str) -> Reply:
    """A :class:`Reply` carrying ``{"error": message}``."""
    return Reply(status, error_body(message))


def start_worker(limits: Limits) -> None:
    """A worker process starts: keep ``limits``, leave Ctrl-C to the server (which stops the
    workers itself, so a terminal's SIGINT to the whole process group prints nothing here), put
    the engine's compiles on the request's compile clock (:func:`clock_compiles`), and compile
    the light tables once so the first requests are fast."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _LIMITS[0] = limits
    os.environ[MAX_RECORDS_ENV] = str(limits.max_records)  # the engine's compile budget, here
    clock_compiles()
    warm_up()


class _CompileClock:
    """The compile seconds left to the request in progress (``inf`` outside a request: the
    warm-up is not timed), and how many tables it compiled."""

    left = math.inf
    compiled = 0
    depth = 0


def _alarm(signum: int, frame: object) -> None:
    """The request's compile seconds are spent: the compile in progress ends as the engine's
    own compile budget ends one (a :class:`~analyzer.errors.CompileBudgetError`)."""
    _CompileClock.left = 0
    raise _compile_refusal()


def _timed(build: Callable[..., Any]) -> Callable[..., Any]:
    """``build`` (one of the engine's compiles) on the request's compile clock: an interval
    timer (``SIGALRM``) interrupts it once the request's compile seconds are spent, as a
    :class:`~analyzer.errors.CompileBudgetError` naming the limit."""

    @functools.wraps(build)
    def timed(*args: Any, **kwargs: Any) -> Any:
        clock = _CompileClock
        if clock.depth or clock.left == math.inf:  # outside a request, or inside a timed compile
            return build(*args, **kwargs)
        if clock.left <= 0:
            raise _compile_refusal()
        start = time.monotonic()
        clock.depth += 1
        try:
            signal.setitimer(signal.ITIMER_REAL, clock.left)
            table = build(*args, **kwargs)
            signal.setitimer(signal.ITIMER_REAL, 0)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            clock.depth -= 1
            clock.left = max(0.0, clock.left - (time.monotonic() - start))
        clock.compiled += 1
        return table

    return timed


def _compile_refusal() -> CompileBudgetError:
    limit = _LIMITS[0].compile_seconds
    kept = _CompileClock.compiled
    head = (
        f"the tables of this request's bets under its rules need more than {limit:g} s to compile "
        "(this server's limit; punto-banco serve --max-compile-seconds raises it)"
    )
    if kept:
        return CompileBudgetError(
            f"{head}: the {kept} compiled meanwhile are kept, so the same request sent again goes on "
            "from there; or ask for fewer bets"
        )
    return CompileBudgetError(f"{head}: ask for fewer bets, or bets that read fewer card details")


def clock_compiles() -> None:
    """Put the engine's two compiles (:func:`analyzer.engine.table.build_bet` and
    ``build_records``, which every table not in memory, on disk or shipped goes through) on the
    request's compile clock: a request that brings its own rules (``rules_toml``) or bets
    (``bet_file``) may spend at most ``limits.compile_seconds`` compiling (a custom rule set
    with every bet, a bet file's bet near the compile budget), so its work is bounded well
    within the timeout; the tables finished are kept in memory and on disk.  (A registered
    rule set's tables are the same for every client, compiled once into the disk cache: they
    are bounded by the timeout alone.)
    In a worker process only (it sets the process's ``SIGALRM`` handler)."""
    signal.signal(signal.SIGALRM, _alarm)
    if not hasattr(engine_table.build_bet, "__wrapped__"):
        engine_table.build_bet = _timed(engine_table.build_bet)
        engine_table.build_records = _timed(engine_table.build_records)


#: The modules the jobs import lazily (the server process never needs them).
_JOB_MODULES = (
    "analyzer.output.bet_tables",
    "analyzer.studies.bet_result",
    "analyzer.output.render",
    "analyzer.output.tables",
    "analyzer.output.deal",
    "analyzer.bets.settle",
    "analyzer.checks.handlog",
    "analyzer.checks.logmap",
    "analyzer.checks.verify",
    "analyzer.engine.pricing",
)


def warm_up() -> None:
    """Import the jobs' modules, and price the light catalogue bets once, on a full and on a
    depleted suited 8-deck shoe (their tables compiled or read from the disk cache now, not on
    a user's first request).
    A failure here is left for the request that meets it to report."""
    import importlib  # lazy: the worker's start only

    from analyzer.engine.pricing import Pricer  # lazy: the worker's, not the server's

    for module in _JOB_MODULES:  # a fresh worker's first request pays no import
        importlib.import_module(module)
    names = ("banker", "player", "tie", "dragon-7", "panda-8", "dragon-bonus-player", "player-pair")
    try:
        bets = [find_bet(n) for n in (*names, "banker-pair", "perfect-pair")]
        for shoe in (Shoe.standard(8), Shoe.standard(8).remove("5h Kd")):
            Pricer(shoe).summaries(bets)
    except Exception:
        return


def run(job: Callable[[Request, Limits], Reply], request: Request) -> Reply:
    """``job(request, limits)``, with every failure turned into a one-line JSON error: bad input
    400, work over the limits 422, anything else 500 (its type named, and one line on the
    worker's standard error)."""
    brought = request.get("rules_toml") is not None or request.get("bet_file") is not None
    _CompileClock.left = _LIMITS[0].compile_seconds if brought else math.inf  # work a request brings
    _CompileClock.compiled = 0
    try:
        return job(request, _LIMITS[0])
    except (WorkLimitError, CompileBudgetError) as exc:  # work over the limits
        return error_reply(422, str(exc))
    except AnalyzerError as exc:
        return error_reply(400, str(exc))
    except RecursionError:
        return error_reply(400, "the request is nested too deeply")
    except MemoryError:
        return error_reply(503, "the server ran out of memory on this request: ask for less")
    except Exception as exc:
        words = printable(str(exc))[:200]
        print(f"internal error: {type(exc).__name__}: {words}", file=sys.stderr, flush=True)
        return error_reply(500, f"internal error: {type(exc).__name__}; see the server's log")
    finally:
        _CompileClock.left = math.inf


# -- reading a request ------------------------------------------------------------------------


#: How the service calls each field of a shoe and of the rules in its messages.
SPELLING = Spelling(
    decks="shoe.decks",
    counts="shoe.counts",
    seen="shoe.seen",
    remove="shoe.remove",
    rules="rules",
    rules_text=RULES_LABEL,
    examples_as_options=False,
)


def tableau_of(request: Request) -> tuple[Tableau, list[str]]:
    """The rules of ``request`` (``rules``: a registered name, or ``rules_toml``: a TOML rules
    text; default standard) and the ``--rules`` words of the matching command
    (:func:`analyzer.core.inputs.read_rules`: never read as a file).

    Raises:
        RulesError: both given, an unknown name, malformed TOML.
    """
    tableau, _, words = read_rules(_rules_spec(request), SPELLING)
    return tableau, list(words)


def shoe_of(spec: Mapping[str, Any] | None) -> tuple[Shoe, list[str]]:
    """The shoe of a request's ``shoe`` object (``decks`` or ``counts`` as ``--shoe`` reads them,
    default 8 decks; then ``seen`` cards or ``remove`` text taken out) and the matching command's
    words (``--decks`` / ``--shoe``, ``--remove``): :func:`analyzer.core.inputs.read_shoes`.

    Raises:
        ShoeError: decks and counts both given, seen and remove both given, a card not in the
            shoe, too few cards left, ``remove`` naming no card; CardError: a bad card.
    """
    shoes, words = read_shoes(_shoe_spec(spec), SPELLING)
    return shoes[0], list(words)


def inputs_of(request: Request) -> Inputs:
    """The rules, then the shoe, of ``request`` (:func:`tableau_of`, :func:`shoe_of`), read
    by :func:`analyzer.core.inputs.read_inputs`."""
    return read_inputs(_shoe_spec(request.get("shoe")), _rules_spec(request), SPELLING)


def _rules_spec(request: Request) -> RulesSpec:
    return RulesSpec(name=request.get("rules"), text=request.get("rules_toml"))


def _shoe_spec(spec: Mapping[str, Any] | None) -> ShoeSpec:
    spec = spec or {}
    return ShoeSpec(
        decks=spec.get("decks"),
        counts=spec.get("counts"),
        seen=tuple(spec.get("seen") or ()),
        remove=spec.get("remove"),
    )


#: Requests' bets as chosen, by what the request named (bets, bet-file text, all, the limit):
#: a live page names the same bets after every card.  Bounded; a :class:`Chosen` is frozen.
_CHOSEN: collections.OrderedDict[tuple[object, ...], Chosen] = collections.OrderedDict()
CHOSEN_KEPT = 64


class Chosen(NamedTuple):
    """The bets of a request: the :class:`~analyzer.bets.choice.Choice`, the catalogue
    ``specs``, the bet-file ``texts`` (``(label, TOML text)``) and the command's ``words``."""

    choice: Choice
    specs: tuple[str, ...]
    texts: tuple[tuple[str, str], ...]
    words: tuple[str, ...]


def bets_of(request: Request, limits: Limits) -> Chosen:
    """The bets of ``request``: ``bets`` (catalogue specs), ``bet_file`` (a bet file's TOML text)
    and ``all`` (the whole catalogue first), as :func:`analyzer.bets.choice.choose` reads them
    (the same request's bets chosen once per worker: :data:`CHOSEN_KEPT` kept).

    Raises:
        BetError: an unknown bet or bad parameter, a spec naming a file (a client sends the
            file's text, never a path), a malformed bet file, a bet chosen twice.
    """
    specs: tuple[str, ...] = tuple(request.get("bets") or ())
    text = request.get("bet_file")
    all_bets = bool(request.get("all"))
    key = (specs, text, all_bets, limits.max_bets)
    hit = _CHOSEN.get(key)
    if hit is not None:  # a page sends the same bets after every card: chosen once
        _CHOSEN.move_to_end(key)
        return hit
    chosen = _choose(specs, None if text is None else str(text), all_bets, limits)
    _CHOSEN[key] = chosen
    if len(_CHOSEN) > CHOSEN_KEPT:
        _CHOSEN.popitem(last=False)
    return chosen


def _choose(specs: tuple[str, ...], text: str | None, all_bets: bool, limits: Limits) -> Chosen:
    words: list[str] = []
    resolved: dict[str, Bet] = {}
    for spec in specs:
        # a catalogue spec or a Python bet the service was started with, never a path: each
        # built here, once, and handed to choose as it is
        if split_file_spec(spec) is not None:  # before building it: a path is never read
            raise BetError(f"bet {spec!r} names a file: send the bet file's TOML text as bet_file")
        resolved[spec] = named_bet(spec)
        words += ["--bet", spec]
    texts = () if text is None else ((BET_FILE_LABEL, text),)
    if texts:
        words += ["--bet-file", BET_FILE_LABEL]
    if all_bets:
        words.append("--all")
    choice = choose(specs, (), all_bets=all_bets, max_bets=limits.max_bets, texts=texts, resolved=resolved)
    return Chosen(choice, specs, texts, tuple(words))


def command(name: str, *parts: Sequence[str]) -> str:
    """The command line ``punto-banco NAME PARTS...``, quoted as a shell reads it (as the
    commands write it into ``meta.command``).

    >>> command("bets", ["--decks", "8"], ["--remove", "5h Kd"])
    "punto-banco bets --decks 8 --remove '5h Kd'"
    """
    return shlex.join(["punto-banco", name, *(w for words in parts for w in words)])


def _digits(request: Request) -> tuple[int, list[str]]:
    digits = int(request.get("digits", 10))
    return digits, ([] if digits == 10 else ["--digits", str(digits)])


# -- the jobs ---------------------------------------------------------------------------------


def price(request: Request, limits: Limits) -> Reply:
    """``punto-banco bets --format json`` for the request's shoe, rules and bets (the main bets
    when none is named), with the events tables (``events``) and the pays for a fair bet
    (``fair_pay``) or a house edge in percent (``target_edge``); with ``pays``, ``punto-banco
    bets --pays LIST`` (:func:`find_by_pays`)."""
    from analyzer.output.bet_tables import bet_tables  # lazy: the worker's, not the server's
    from analyzer.output.render import context_of, provenance, render  # lazy: the worker's, not the server's
    from analyzer.studies.bet_result import bet_result  # lazy: the worker's, not the server's

    if request.get("pays") is not None:
        return price_by_pays(request, limits)
    if request.get("with_params"):
        raise BetError("with_params widens a search by pays: add pays, e.g. \"pays\": \"9\"")
    read = inputs_of(request)
    tableau, rule_words, shoe, shoe_words = read.tableau, read.rule_words, read.shoe, read.shoe_words
    chosen = bets_of(request, limits)
    check_work(chosen.choice.bets, shoe, tableau, limits)
    digits, digit_words = _digits(request)
    events, fair_pay, target = (
        bool(request.get("events")),
        bool(request.get("fair_pay")),
        request.get("target_edge"),
    )
    option_words = [
        *(["--events"] if events else []),
        *(["--fair-pay"] if fair_pay else []),
        *(["--target-edge", target] if target is not None else []),
    ]
    result = bet_result(
        shoe,
        chosen.specs,
        (),
        all_bets=bool(request.get("all")),
        events=events,
        fair_pay=fair_pay,
        target_edge=None if target is None else parse_amount(target, "target_edge"),
        tableau=tableau,
        max_bets=limits.max_bets,
        texts=chosen.texts,
        choice=chosen.choice,  # the bets chosen once, above
    )
    tables = bet_tables(result)  # the result built once, then only rendered
    line = command(
        "bets", shoe_words, rule_words, chosen.words, option_words, digit_words, ["--format", "json"]
    )
    meta = provenance(line, shoe.describe(), tableau.describe())
    return Reply(200, render(tables, "json", digits, meta, context=context_of(shoe, tableau)))


def price_by_pays(request: Request, limits: Limits) -> Reply:
    """``punto-banco bets --pays LIST --format json``: the catalogue bets whose pay table is the
    request's ``pays`` (with ``with_params``, also those whose parameter gives them), priced on
    its shoe under its rules, with their events tables (``events``).

    Raises:
        BetError: ``pays`` with ``bets``, ``bet_file``, ``all``, ``fair_pay`` or ``target_edge``
            (it chooses the bets itself), or bad pays.
    """
    from analyzer.bets.choice import find_by_pays as search  # lazy: the worker's, not the server's
    from analyzer.bets.choice import parse_pays  # lazy: the worker's, not the server's
    from analyzer.output.bet_tables import pays_tables  # lazy: the worker's, not the server's
    from analyzer.output.render import context_of, provenance, render  # lazy: the worker's, not the server's
    from analyzer.studies.bet_result import pays_result  # lazy: the worker's, not the server's

    chooser = [key for key in ("bets", "bet_file", "all", "fair_pay", "target_edge")
               if request.get(key) not in (None, False, [], ())]
    if chooser:
        raise BetError(f"pays chooses the bets by their pays and takes no {', '.join(chooser)}: send pays "
                       "alone (with shoe, rules, events and digits), or the bets without pays")
    read = inputs_of(request)
    tableau, rule_words, shoe, shoe_words = read.tableau, read.rule_words, read.shoe, read.shoe_words
    pays, with_params = str(request["pays"]), bool(request.get("with_params"))
    events = bool(request.get("events"))
    finding = search(parse_pays(pays, "pays"), with_params=with_params)  # the bets, found once
    check_work([m.bet for m in finding.matches], shoe, tableau, limits)
    digits, digit_words = _digits(request)
    result = pays_result(shoe, pays, with_params=with_params, events=events, tableau=tableau, finding=finding)
    tables = pays_tables(result)
    option_words = [
        "--pays", pays, *(["--with-params"] if with_params else []), *(["--events"] if events else []),
    ]
    line = command("bets", shoe_words, rule_words, option_words, digit_words, ["--format", "json"])
    meta = provenance(line, shoe.describe(), tableau.describe())
    return Reply(200, render(tables, "json", digits, meta, context=context_of(shoe, tableau)))


def _table_names(request: Request) -> list[str]:
    from analyzer.output.tables import TABLE_NAMES  # lazy: the worker's, not the server's

    names = [n.strip().lower() for n in request.get("tables") or ("outcomes", "bets")]
    if names == ["all"]:
        return list(TABLE_NAMES)
    bad = [n for n in names if n not in TABLE_NAMES]
    if bad or not names:
        raise AnalyzerError(f"bad tables {bad or names!r}: use {', '.join(TABLE_NAMES)} or all")
    return names


def analyze(request: Request, limits: Limits) -> Reply:
    """``punto-banco analyze --format json``: the outcome, main-bet, totals, cards and naturals
    tables (``tables``, default outcomes and bets) of the request's shoe under its rules."""
    from analyzer.engine.pricing import analyze as run_analysis  # lazy: the worker's, not the server's
    from analyzer.output.render import context_of, provenance, render  # lazy: the worker's, not the server's
    from analyzer.output.tables import analysis_tables  # lazy: the worker's, not the server's

    read = inputs_of(request)
    tableau, rule_words, shoe, shoe_words = read.tableau, read.rule_words, read.shoe, read.shoe_words
    names = _table_names(request)
    digits, digit_words = _digits(request)
    tables = analysis_tables(run_analysis(shoe, tableau=tableau), names)
    table_words = [] if names == ["outcomes", "bets"] else ["--table", ",".join(names)]
    line = command("analyze", shoe_words, rule_words, table_words, digit_words, ["--format", "json"])
    meta = provenance(line, shoe.describe(), tableau.describe())
    return Reply(200, render(tables, "json", digits, meta, context=context_of(shoe, tableau)))


def deal(request: Request, limits: Limits) -> Reply:
    """``punto-banco deal CARDS``: the coup of the cards (with or without suits) under the rules,
    and each named bet settled on it for the stake; the command's lines in ``lines``."""
    from analyzer import __version__  # lazy: the worker's, not the server's
    from analyzer.bets.settle import deal as resolve_deal  # lazy: the worker's, not the server's
    from analyzer.output.deal import deal_document  # lazy: the worker's, not the server's
    from analyzer.output.render import json_document  # lazy: the worker's, not the server's

    tableau, rule_words = tableau_of(request)
    given = request.get("cards") or ()
    tokens = (given if isinstance(given, str) else " ".join(given)).replace(",", " ").split()
    if not tokens:
        raise BetError("cards names no card: give the cards in dealing order, e.g. '2 4 3 10 6 A'")
    if len(tokens) > MAX_DEAL_CARDS:
        raise BetError(f"{len(tokens):,} cards: give at most {MAX_DEAL_CARDS}, the coup's cards")
    cards = parse_cards(tokens)
    stake_text = str(request.get("stake", "1"))
    stake = parse_amount(stake_text, "stake")
    if stake <= 0:
        raise BetError(f"bad stake {stake_text!r}: a stake must be greater than 0")
    chosen = bets_of(request, limits)
    check_work(chosen.choice.bets, None, tableau, limits)
    digits, _ = _digits(request)
    result = resolve_deal(cards, tableau, chosen.choice.bets, stake)
    stake_words = [] if stake_text == "1" else ["--stake", stake_text]
    meta = {
        "generated_by": f"punto-banco-analyzer {__version__}",
        "command": command("deal", tokens, rule_words, chosen.words, stake_words),
        "rules": tableau.describe(),
    }
    return Reply(200, json_document({"meta": meta, **deal_document(result, digits)}) + "\n")


def verify(request: Request, limits: Limits) -> Reply:
    """``punto-banco verify LOG --format jsonl``: the hand log (text, ``csv`` or ``jsonl``, read
    through ``map``, a map file's TOML text, when given) checked against the rules and pay
    tables (and the shoe, when ``shoe`` is given).  The answer holds how the log was read
    (``read``, the command's first line, the log named ``log``), the summary line, the tallies,
    ``conforms``, and the first discrepancies (at most ``max_report``, and at most the server's
    limit), each the object the command writes."""
    from analyzer.checks.handlog import read_records  # lazy: the worker's, not the server's
    from analyzer.checks.logmap import NO_MAP, parse_map  # lazy: the worker's, not the server's
    from analyzer.checks.verify import (  # lazy: the worker's, not the server's
        Verifier,
        report_line,
        summary_text,
    )
    from analyzer.output.render import context_of  # lazy: the worker's, not the server's

    tableau, _ = tableau_of(request)
    log_map = parse_map(str(request["map"]), "map") if request.get("map") is not None else NO_MAP
    log_format = request.get("log_format") or log_map.log_format
    if log_format is None:
        raise LogError("give log_format (csv or jsonl), or a map that says its format")
    shoe = shoe_of(request["shoe"])[0] if request.get("shoe") is not None else None
    choice = bets_of(request, limits).choice
    check_work(choice.bets, None, tableau, limits)
    verifier = Verifier(shoe, str(request.get("paid", "net")), tableau=tableau)
    context: dict[str, object] = (
        dict(context_of(shoe, tableau))
        if shoe is not None
        else {"rules": tableau.name, "rules_fingerprint": tableau.fingerprint}
    )
    wanted = int(request.get("max_report") or 0)
    most = min(wanted, limits.max_reported) if wanted else limits.max_reported
    ignored: list[str] = []
    lines: list[str] = []
    log = io.StringIO(str(request["log"]), newline="")  # lines split as a file opened for csv
    records = read_records(
        log, str(log_format), None, ignored, name="log", file_bets=choice.file_bets, log_map=log_map
    )
    for found in verifier.run(records):
        if len(lines) < most:
            lines.append(report_line(found, "jsonl", context=context).rstrip("\n"))
    summary = summary_text(verifier)
    if verifier.discrepancies > len(lines):  # as the command says it
        summary += f" (first {len(lines):,} reported)"
    head = {
        "read": records.described,
        "summary": summary,
        "conforms": not verifier.discrepancies,
        "coups": verifier.coups,
        "records": verifier.records,
        "discrepancies": verifier.discrepancies,
        "failed_records": verifier.failed_coups,
        "reported": len(lines),
        "ignored_fields": ignored,
    }
    # each finding is the command's own JSON line, byte for byte
    body = json.dumps(head)[:-1] + ', "findings": [' + ", ".join(lines) + "]}\n"
    return Reply(200, body)


#: The jobs by route name (what :mod:`analyzer.web.app` schedules).
def peek(request: Request, limits: Limits) -> Reply:
    """``punto-banco peek --format json``: the patterns seen (``see``, ``classes``), each bet's
    EV given them and the best bet, the edges and the house's side; or, with ``search``, the
    two-group sorts ranked by edge."""
    from analyzer.core.exact import parse_exact  # lazy: the worker's, not the server's
    from analyzer.output.peek_tables import PEEK_TABLES, peek_tables, search_table  # lazy: as above
    from analyzer.output.render import context_of, provenance, render  # lazy: the worker's, not the server's
    from analyzer.studies import peek as study  # lazy: the worker's, not the server's

    read = inputs_of(request)
    tableau, rule_words, shoe, shoe_words = read.tableau, read.rule_words, read.shoe, read.shoe_words
    chosen = bets_of(request, limits)
    bets = list(chosen.choice.bets) or main_bets()  # the bets chosen once (the main bets by default)
    check_work(bets, shoe, tableau, limits)
    digits, digit_words = _digits(request)
    see, classes = str(request.get("see", "P1")), str(request.get("classes", "6-9"))
    words = ["--see", see]
    search = request.get("search")
    if search is not None:
        top = int(request.get("top", 10))
        words += ["--search", str(search), *([] if top == 10 else ["--top", str(top)])]
        tables = [search_table(study.search_sorts(shoe, see, bets, tableau, by=str(search)), top)]
    else:
        stake = str(request.get("stake", "1"))
        per_shoe, per_hour = int(request.get("hands_per_shoe", 80)), int(request.get("hands_per_hour", 60))
        names = [str(n) for n in request.get("tables") or ("all",)]
        names = list(PEEK_TABLES) if "all" in names else names
        words += ["--classes", classes]
        words += [] if stake == "1" else ["--stake", stake]
        words += [] if per_shoe == 80 else ["--hands-per-shoe", str(per_shoe)]
        words += [] if per_hour == 60 else ["--hands-per-hour", str(per_hour)]
        words += [] if names == list(PEEK_TABLES) else ["--table", ",".join(names)]
        result = study.peek(shoe, see, classes, bets, tableau)
        exposure = study.house_exposure(result, parse_exact(stake, "stake"), per_shoe, per_hour)
        tables = peek_tables(result, exposure, names)
    line = command("peek", shoe_words, rule_words, chosen.words, words, digit_words, ["--format", "json"])
    meta = provenance(line, shoe.describe(), tableau.describe())
    return Reply(200, render(tables, "json", digits, meta, context=context_of(shoe, tableau)))


JOBS: dict[str, Callable[[Request, Limits], Reply]] = {
    "price": price,
    "analyze": analyze,
    "deal": deal,
    "verify": verify,
    "peek": peek,
}


def run_job(name: str, request: Request) -> Reply:
    """Run the job ``name`` on ``request`` in this process (the function a worker is given)."""
    return run(JOBS[name], request)


# -- documents that depend on no request (built once, in the server) ----------------------------


def catalogue_document() -> str:
    """``punto-banco bets --list --format json``: the bet catalogue."""
    from analyzer.output.bet_tables import catalogue_listing  # lazy: the worker's, not the server's
    from analyzer.output.render import render  # lazy: the worker's, not the server's
    from analyzer.studies.bet_result import catalogue_rows  # lazy: the worker's, not the server's

    return render([catalogue_listing(catalogue_rows())], "json")


def rules_document() -> str:
    """The registered rule sets (``punto-banco rules --list``) with each one's TOML text."""
    from analyzer.output.render import json_document  # lazy: the worker's, not the server's

    sets = [
        {"name": name, "title": t.title, "fingerprint": t.fingerprint, "toml": t.to_toml()}
        for name, t in TABLEAUX.items()
    ]
    return json_document({"rules": sets}) + "\n"


def counts_document() -> str:
    """The published count systems the page offers as tags (:data:`analyzer.studies.eor.PUBLISHED_TAGS`):
    per bet, its source and one tag per point value in the order A, 2, ..., 9, 10/J/Q/K."""
    from analyzer.output.render import json_document  # lazy: the worker's, not the server's
    from analyzer.studies.eor import (  # lazy: the worker's, not the server's
        PUBLISHED_TAGS,
        VALUE_LABELS,
        VALUE_ORDER,
    )

    systems = [
        {"bet": name, "source": source, "tags": list(tags)} for name, (source, tags) in PUBLISHED_TAGS.items()
    ]
    return json_document({"order": [VALUE_LABELS[v] for v in VALUE_ORDER], "systems": systems}) + "\n"


def vectors_document() -> str:
    """What ``punto-banco vectors`` writes, without building a kit: the kit format, the files,
    the defaults and limits of its options, the standard shoes of its probability tables, and
    its ``schema.json`` (for both formats) as the command writes it."""
    from analyzer import __version__  # lazy: the worker's, not the server's
    from analyzer.checks.coverage import SETTLEMENT_DECKS  # lazy: as the kit below
    from analyzer.output import vectors as kit  # lazy: the worker's, not the server's
    from analyzer.output.render import json_document  # lazy: the worker's, not the server's

    doc = {
        "format": kit.KIT_FORMAT,
        "analyzer_version": __version__,
        "files": sorted(kit.KIT_NAMES),
        "defaults": {"seed": kit.DEFAULT_SEED, "coups": kit.DEFAULT_COUPS, "format": "both"},
        "max_coups": kit.MAX_COUPS,
        "decks": list(kit.DECKS),
        "settlement_decks": SETTLEMENT_DECKS,
        "command": "punto-banco vectors -o DIR",
        "schema": kit.schema(kit.FORMATS["both"]),
    }
    return json_document(doc) + "\n"


__all__ = [
    "BET_FILE_LABEL",
    "JOBS",
    "RULES_LABEL",
    "SPELLING",
    "Chosen",
    "Reply",
    "analyze",
    "bets_of",
    "catalogue_document",
    "command",
    "counts_document",
    "deal",
    "error_body",
    "error_reply",
    "inputs_of",
    "peek",
    "price",
    "price_by_pays",
    "rules_document",
    "run",
    "run_job",
    "shoe_of",
    "start_worker",
    "tableau_of",
    "vectors_document",
    "verify",
    "warm_up",
]
