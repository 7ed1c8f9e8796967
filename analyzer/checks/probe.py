"""The probe: the oracle deals another engine the cards, over a stacked-shoe protocol.

``punto-banco probe -- COMMAND [ARGS...]`` starts COMMAND and writes one JSON request per line
to its standard input::

    {"id": "p1", "cards": ["5h", "Kd", "9s", "9c", "2h", "7d", "Qs", "3c"],
     "stakes": {"banker": 10}, "shoe": "s1"}

``cards`` is the top of a stacked shoe, in the order the cards come out (eight suited cards, so
that an engine that draws too often still has cards to draw); ``stakes`` the bets to place
(catalogue names, as ``verify`` reads them); ``shoe`` the shoe the coup is dealt from:
consecutive requests with one ``shoe`` are consecutive coups of that shoe, so that state an
engine carries from coup to coup can show.  COMMAND answers each request with one line: the coup
it dealt as a hand-log JSON record (docs/checks.md), with the request's ``id``.

The oracle chooses the stacks (:func:`plan`): every decision cell of the tableau (a natural on
each side and on both, each Banker total against a Player that stood or drew each third-card
value, through every Player total), every event of each bet placed in each structural case
engines get wrong (:func:`event_stacks`, from :mod:`analyzer.checks.coverage`), then seeded
random stacks dealt from shuffled 8-deck shoes.  Each answer is checked as ``verify``
checks a record (the cards it took must be the top of the stack, in order), and every answer
goes to the diagnosis (:mod:`analyzer.checks.diagnose`).  A failing stack is shrunk
(:func:`shrink`) to the shortest one that still fails (fewest cards drawn, then the plainest
ranks and suits).  An engine that misbehaves (an answer that is not a record, a wrong id,
silence past the timeout, an early exit) is a finding too; it ends the probe.

The engine is anything with :class:`Engine`'s ``ask``: a process (:class:`ProcessEngine`) or,
for the oracle's own measurements, a dealer in this process (:class:`DealerEngine`).
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import random
import select
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import IO, Protocol

from analyzer.bets.choice import NO_FILE_BETS, FileBets, lookup_bet
from analyzer.bets.model import Bet
from analyzer.checks.coverage import cell_coups, coverage, decision_cells_of
from analyzer.checks.diagnose import Diagnoser, Diagnosis
from analyzer.checks.handlog import Record, read_records
from analyzer.checks.logs import exact_amount, json_loads, show
from analyzer.checks.mutants import CORRECT, Dealer, EngineCoup, Mutant, net_text, shoe_cards
from analyzer.checks.verify import Discrepancy, Verifier
from analyzer.core.cards import RANKS, SUITS, Card, Rank, Suit, parse_card
from analyzer.core.coup import resolve
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import STANDARD, TOTALS, Tableau
from analyzer.errors import AnalyzerError, EngineFaultError, ProbeError

#: Cards in every stack: six for the coup, two more for an engine that draws too often.
STACK_CARDS = 8
DEFAULT_COUPS = 1000
DEFAULT_TIMEOUT = Fraction(5)
DEFAULT_SEED = 1
#: Stakes placed in turn on the random stacks (so that a rounding of 19/20 of 5 shows).
STAKE_CYCLE: tuple[int, ...] = (10, 5, 25, 1)
#: The bets placed when none is named.
DEFAULT_BETS: tuple[str, ...] = ("banker", "player", "tie")
#: Random coups dealt from one shoe before the next (consecutive coups share a shoe id).
COUPS_PER_SHOE = 60
#: Requests a shrink may send for one failing stack.
SHRINK_BUDGET = 300
#: Longest answer line read (characters).
MAX_ANSWER = 100_000
#: Answer lines read ahead of the probe at most (an engine that floods its output waits).
QUEUED_LINES = 16
#: Seconds an engine is given to exit once its output has closed (for what the report says).
EXIT_GRACE = 2.0


@dataclass(frozen=True)
class Stack:
    """One request: ``cards`` the top of the shoe (first out first), ``stakes`` the bets placed,
    ``shoe`` the shoe id, ``purpose`` why the oracle chose it (e.g. ``Banker on 6, Player's
    third card 5``)."""

    cards: tuple[Card, ...]
    stakes: tuple[tuple[str, Fraction], ...]
    shoe: str
    purpose: str

    def request(self, ident: str) -> str:
        """The JSON request line (without its newline)."""
        stakes = {name: (int(s) if s.denominator == 1 else str(s)) for name, s in self.stakes}
        return json.dumps(
            {"id": ident, "cards": [str(c) for c in self.cards], "stakes": stakes, "shoe": self.shoe},
            separators=(", ", ": "),
        )


class Engine(Protocol):
    """What the probe needs of an engine: an answer line for each request line."""

    def ask(self, line: str) -> str:
        """The engine's answer to one request (raises :class:`EngineFaultError`)."""
        ...

    def close(self, force: bool = False) -> str | None:
        """Stop the engine (at once with ``force``); a note on how it ended, if worth saying."""
        ...


class ProcessEngine:
    """An engine run as a child process speaking the protocol on its standard input and output.

    Its standard error passes through to ours (so a developer sees their engine's own messages).
    It runs in a process group of its own, killed whole when the probe ends early (a fault, an
    interrupt, a signal): no engine, nor a child it started, outlives the probe that way.
    Every wait is bounded by ``timeout``: writing a request (an engine that stops reading), and
    reading an answer; at most :data:`QUEUED_LINES` answer lines wait to be read, each at most
    :data:`MAX_ANSWER` characters, so an engine that floods its output cannot fill memory.

    Raises:
        ProbeError: the command cannot be started (no such program, not executable).
    """

    def __init__(self, command: Sequence[str], timeout: float) -> None:
        if not command:
            raise ProbeError("no engine command: give it after --, e.g. punto-banco probe -- python3 e.py")
        self.command = list(command)
        self.timeout = timeout
        try:
            self.process = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True
            )
        except OSError as exc:
            why = exc.strerror or exc
            raise ProbeError(f"cannot start the engine {show(self.command[0])}: {why}") from None
        assert self.process.stdin is not None
        self.stdin = self.process.stdin.fileno()
        os.set_blocking(self.stdin, False)
        self.lines: queue.Queue[str | None] = queue.Queue(QUEUED_LINES)
        self.reader = threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True)
        self.reader.start()
        self.closed = False

    def _read(self, stream: IO[bytes] | None) -> None:
        assert stream is not None
        try:
            while True:
                raw = stream.readline(MAX_ANSWER + 1)
                if not raw:
                    break
                self.lines.put(raw.decode("utf-8", errors="replace"))
                if len(raw) > MAX_ANSWER and not raw.endswith(b"\n"):
                    break  # a line too long: the probe reports it, and reads no further
        except (OSError, ValueError):
            pass
        self.lines.put(None)

    def _write(self, data: bytes) -> None:
        """Write a request within the timeout (an engine that stops reading is a finding)."""
        deadline = time.monotonic() + self.timeout
        while data:
            left = deadline - time.monotonic()
            ready = select.select([], [self.stdin], [], max(left, 0))[1] if left > 0 else []
            if not ready:
                raise EngineFaultError(f"the engine read no request within {self.timeout:g} s")
            try:
                data = data[os.write(self.stdin, data):]
            except BlockingIOError:
                continue
            except (BrokenPipeError, OSError):
                raise EngineFaultError(f"the engine stopped reading its input ({self._ended()})") from None

    def ask(self, line: str) -> str:
        """Write one request, read one answer line."""
        self._write((line + "\n").encode("utf-8"))
        try:
            answer = self.lines.get(timeout=self.timeout)
        except queue.Empty:
            raise EngineFaultError(f"no answer within {self.timeout:g} s") from None
        if answer is None:  # its output closed: it exited, or closed it and runs on
            ended = self._ended()
            if ended == "it is still running":
                raise EngineFaultError("the engine closed its output before answering (it is still running)")
            raise EngineFaultError(f"the engine exited before answering ({ended})")
        if len(answer) > MAX_ANSWER:
            raise EngineFaultError(f"an answer line longer than {MAX_ANSWER:,} characters")
        return answer.rstrip("\r\n")

    def _ended(self) -> str:
        try:  # an engine whose output closed is given a moment to exit before it is said to run on
            code = self.process.wait(timeout=EXIT_GRACE)
        except subprocess.TimeoutExpired:
            return "it is still running"
        return f"exit code {code}"

    def _kill_group(self) -> None:
        """Kill the engine's process group: the engine and any process it started."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)

    def _kill(self) -> None:
        self._kill_group()
        self.process.wait()

    def close(self, force: bool = False) -> str | None:
        """End the engine: close its input and wait for it to exit (killed, with its process
        group, past the timeout); with ``force`` (the probe ended early), kill it at once."""
        if self.closed:
            return None
        self.closed = True
        try:
            os.close(self.stdin)
            self.process.stdin = None  # closed above: Popen must not close it again
        except OSError:
            pass
        if force:
            self._kill()
            return None
        try:
            code = self.process.wait(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            self._kill()
            return f"the engine did not exit within {self.timeout:g} s of the end of its input: killed"
        self._kill_group()  # any child it left running
        if code == 0:
            return None
        return f"the engine exited with code {code} at the end of its input"


class DealerEngine:
    """A dealer of :mod:`analyzer.checks.mutants` answering the protocol in this process (the
    oracle's own measurements and tests); it carries the previous coup as a real engine would."""

    def __init__(self, dealer: Dealer, file_bets: FileBets = NO_FILE_BETS) -> None:
        self.dealer = dealer
        self.file_bets = file_bets
        self.previous: EngineCoup | None = None

    def ask(self, line: str) -> str:
        """The dealer's answer record to one request line."""
        return answer(self.dealer, line, self)

    def close(self, force: bool = False) -> str | None:
        """Nothing to stop."""
        return None


def answer(dealer: Dealer, line: str, state: DealerEngine | None = None) -> str:
    """A dealer's answer to one request line (``state`` keeps its previous coup).

    Raises:
        ProbeError: the line is not a request (the message says why): not JSON or too deep, no
            ``cards`` list of card texts, ``stakes`` not a mapping of bet names to amounts
            above 0 (read exactly and bounded, as a log's amounts are), an unknown bet.
    """
    request = json_loads(line, ProbeError, shape="a request is one flat JSON object")
    if not isinstance(request, dict) or "id" not in request:
        raise ProbeError("a request is a JSON object with an id, cards and stakes")
    raw_cards, raw_stakes = request.get("cards"), request.get("stakes", {})
    if not isinstance(raw_cards, list) or not all(isinstance(c, str) for c in raw_cards):
        raise ProbeError("cards: give a list of card texts such as [\"Kh\", \"9s\"]")
    if not isinstance(raw_stakes, dict):
        raise ProbeError("stakes: give an object of bet names and amounts such as {\"banker\": 10}")
    cards = [parse_card(c) for c in raw_cards]
    stakes: dict[str, Fraction] = {}
    for name, value in raw_stakes.items():
        stake = exact_amount(value, f"stake of {name}", ProbeError)
        if stake <= 0:
            raise ProbeError(f"stake of {name}: a stake must be greater than 0")
        stakes[str(name)] = stake
    previous = state.previous if state is not None else None
    file_bets = state.file_bets if state is not None else NO_FILE_BETS
    coup = dealer.deal(cards, stakes, previous, file_bets=file_bets)
    if state is not None:
        state.previous = coup
    if not coup.complete:
        raise EngineFaultError("the stack ran out")
    return json.dumps(coup.record(str(request["id"])))


# -- the stacks ---------------------------------------------------------------------------------


def _padded(cards: Sequence[Card], rng: random.Random) -> tuple[Card, ...]:
    """``cards`` followed by seeded cards up to :data:`STACK_CARDS`."""
    rest = [Card(rng.choice(RANKS), rng.choice(SUITS)) for _ in range(STACK_CARDS - len(cards))]
    return (*cards, *rest)


def _cell_purpose(cell: tuple[str, int | None, int | None]) -> str:
    kind, banker, third = cell
    if kind.startswith("natural-"):
        side = kind.removeprefix("natural-")
        return "both naturals" if side == "both" else f"{side.capitalize()} natural"
    return f"Banker on {banker}, " + ("Player stood" if third is None else f"Player's third card {third}")


def cell_stacks(tableau: Tableau = STANDARD, seed: int = DEFAULT_SEED) -> list[tuple[tuple[Card, ...], str]]:
    """A stack through every decision cell of ``tableau``
    (:func:`~analyzer.checks.coverage.cell_coups`: a natural of the Player, of the Banker and of
    both; each Banker total against a Player that stood and against each third-card value,
    passing through the Player's cells), each as (cards, what it tests), seeded."""
    rng = random.Random(f"cells-{seed}")
    coups = cell_coups(tableau, decks=8, seed=seed)
    return [
        (_padded(cards, rng), _cell_purpose(cell))
        for cards, cell in zip(coups, decision_cells_of(tableau), strict=True)
    ]


def event_stacks(
    bets: Sequence[Bet], tableau: Tableau = STANDARD, seed: int = DEFAULT_SEED
) -> list[tuple[tuple[Card, ...], str]]:
    """Stacks that settle every event of each bet in every structural case engines get wrong
    (:func:`~analyzer.checks.coverage.coverage`: a pair on a side that drew a third card, each
    suit and colour pattern the bet reads, each kind of deal), one per distinct coverage coup,
    each as (cards, what it tests: the first target it reaches and how many more)."""
    found = coverage(bets, tableau, seed=seed)
    reached: dict[int, list[str]] = {}
    for c in found.coups:
        reached.setdefault(c.attempt, []).append(f"{c.bet}: {c.event} ({c.case})")
    rng = random.Random(f"events-{seed}")
    out = []
    for attempt, cards, spare in found.distinct():
        targets = reached[attempt]
        more = f" and {len(targets) - 1} more" if len(targets) > 1 else ""
        out.append((_padded((*cards, *spare), rng), targets[0] + more))
    return out


def random_stacks(count: int, seed: int = DEFAULT_SEED) -> Iterator[tuple[tuple[Card, ...], str]]:
    """``count`` stacks dealt one after another from shuffled 8-deck shoes (a new shoe every
    :data:`COUPS_PER_SHOE` coups), seeded, made as they are asked for; each with its shoe
    number in the purpose."""
    rng = random.Random(f"random-{seed}")
    deck = shoe_cards(Shoe.standard(8))
    cards: list[Card] = []
    pos = 0
    shoe = 0
    for i in range(count):
        if i % COUPS_PER_SHOE == 0:
            cards = list(deck)
            rng.shuffle(cards)
            pos = 0
            shoe += 1
        stack = tuple(cards[pos:pos + STACK_CARDS])
        pos += 6
        yield stack, f"random coup {i % COUPS_PER_SHOE + 1} of shoe r{shoe}"


@dataclass(frozen=True)
class Plan:
    """The stacks the probe deals (:func:`plan_stream`): the decision cells and the bets'
    events, made at once, then the random coups, made as they are dealt (a plan of ten million
    stacks holds a few hundred); ``len`` is how many in all."""

    fixed: tuple[Stack, ...]
    bets: tuple[Bet, ...]
    random: int
    seed: int

    def __len__(self) -> int:
        return len(self.fixed) + self.random

    def __iter__(self) -> Iterator[Stack]:
        yield from self.fixed
        n = len(self.fixed)
        for i, (cards, why) in enumerate(random_stacks(self.random, self.seed), n):
            yield Stack(cards, _stakes(self.bets, i), why.rsplit(" ", 1)[1], why)


def _stakes(bets: Sequence[Bet], i: int) -> tuple[tuple[str, Fraction], ...]:
    """The stakes of the ``i``-th stack: each bet's turn of :data:`STAKE_CYCLE`."""
    return tuple((b.name, Fraction(STAKE_CYCLE[(i + k) % len(STAKE_CYCLE)])) for k, b in enumerate(bets))


def plan_stream(
    bets: Sequence[Bet],
    *,
    tableau: Tableau = STANDARD,
    coups: int = DEFAULT_COUPS,
    seed: int = DEFAULT_SEED,
) -> Plan:
    """The stacks the probe deals, in order: the decision cells, the events of each bet, then
    random coups until ``coups`` stacks in all (at least the cells and events).  Every stack
    places every bet of ``bets``; the cells and events each on a shoe of their own (``c1``,
    ``e1``, ...), the random ones on consecutive shoes ``r1``, ``r2``, ...  (:func:`plan` is
    the same as a list.)"""
    fixed: list[Stack] = []
    for cards, why in cell_stacks(tableau, seed):
        fixed.append(Stack(cards, _stakes(bets, len(fixed)), f"c{len(fixed) + 1}", why))
    for cards, why in event_stacks(bets, tableau, seed):
        fixed.append(Stack(cards, _stakes(bets, len(fixed)), f"e{len(fixed) + 1}", why))
    return Plan(tuple(fixed), tuple(bets), max(0, coups - len(fixed)), seed)


def plan(
    bets: Sequence[Bet],
    *,
    tableau: Tableau = STANDARD,
    coups: int = DEFAULT_COUPS,
    seed: int = DEFAULT_SEED,
) -> list[Stack]:
    """:func:`plan_stream` as a list."""
    return list(plan_stream(bets, tableau=tableau, coups=coups, seed=seed))


# -- checking one answer ------------------------------------------------------------------------


@dataclass(frozen=True)
class Failure:
    """A stack the engine dealt wrongly: the request's number, the stack, the discrepancies
    (as ``verify`` words them), and the stack dealt just before it (an engine's state carries
    over from one request to the next, whatever their shoe ids; a shrunk failure keeps it only
    when the failure needs it)."""

    number: int
    stack: Stack
    discrepancies: tuple[Discrepancy, ...]
    previous: Stack | None = None


def _answer_record(line: str, stack: Stack, number: int, file_bets: FileBets) -> tuple[Record, bool]:
    """The engine's answer line as a hand-log record, and whether it gave its ``cards`` (raises
    :class:`EngineFaultError` when it is not a record); without ``cards``, the cards its hands
    hold are taken as the top of the stack (for the checks of the cards' order)."""
    try:  # the shared reader: exact numbers, bounded integers, deep nesting refused
        obj = json_loads(line, EngineFaultError, shape="an answer is one hand-log record")
    except EngineFaultError as exc:
        why = str(exc).removeprefix("line 1: ")
        raise EngineFaultError(f"the answer is not a hand-log record ({why}): {show(line[:80])}") from None
    if not isinstance(obj, dict):
        raise EngineFaultError(f"the answer is not a JSON object: {show(line[:80])}")
    gave_cards = "cards" in obj
    if not gave_cards and isinstance(obj.get("player"), list) and isinstance(obj.get("banker"), list):
        used = len(obj["player"]) + len(obj["banker"])
        obj["cards"] = [str(c) for c in stack.cards[:used]]
    try:  # numbers go back as their exact text, which the reader reads as it reads a log's
        (rec,) = read_records([json.dumps(obj, default=str)], "jsonl", file_bets=file_bets)
    except AnalyzerError as exc:
        why = str(exc).removeprefix("line 1: ")
        raise EngineFaultError(f"the answer is not a hand-log record: {why}") from None
    except (ValueError, RecursionError):
        raise EngineFaultError("the answer is not a hand-log record") from None
    ident = str(obj.get("id")) if "id" in obj else None
    return replace(rec, number=number, line=number, coup_id=ident), gave_cards


def check_answer(
    rec: Record, stack: Stack, verifier: Verifier, returned: bool = False
) -> list[Discrepancy]:
    """The discrepancies of one answer: it must deal a coup, the cards it took must be the top of
    the stack, in order; every bet placed must be settled on the stake placed; the rest as
    ``verify`` checks a record.

    Raises:
        EngineFaultError: the answer is a record ``verify`` cannot read as a coup (claims
            without cards, say).
    """
    found: list[Discrepancy] = []
    if not rec.is_coup:
        return [
            Discrepancy(
                rec.number,
                rec.line,
                "cards",
                "a coup dealt from the top of the stack",
                "no cards and no hands",
                "each request is answered with the coup the engine dealt",
                rec.coup_id,
            )
        ]
    if rec.cards is not None:
        top = stack.cards[: len(rec.cards)]
        if tuple(rec.cards) != top:
            found.append(
                Discrepancy(
                    rec.number,
                    rec.line,
                    "cards",
                    " ".join(map(str, top)) + " (the top of the stack, in order)",
                    " ".join(map(str, rec.cards)),
                    "the engine must deal the stack's cards in the order given",
                    rec.coup_id,
                )
            )
    settled = {b.spec: b.stake for b in rec.bets}
    for name, stake in stack.stakes:
        if name in settled and settled[name] != stake:
            found.append(
                Discrepancy(
                    rec.number,
                    rec.line,
                    f"bet:{name}",
                    f"stake {net_text(stake)} (as placed)",
                    f"stake {net_text(settled[name])}",
                    "each bet is settled on the stake the request placed",
                    rec.coup_id,
                )
            )
        if name not in settled:
            found.append(
                Discrepancy(
                    rec.number,
                    rec.line,
                    f"bet:{name}",
                    f"the bet settled (stake {stake})",
                    "no amount",
                    "every bet placed must be settled, a loss as minus the stake",
                    rec.coup_id,
                )
            )
    try:
        found += verifier.check(rec)
    except AnalyzerError as exc:
        why = str(exc).removeprefix(f"line {rec.line}: ")
        raise EngineFaultError(f"the answer is not a coup: {why}") from None
    return found


# -- the probe ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ProbeResult:
    """What a probe found.

    ``sent``: requests answered; ``planned``: stacks planned; ``failures``: the stacks dealt
    wrongly (their discrepancies), in order; ``first_failure``: the number of the first (1-based,
    ``None`` when none); ``shrunk``: the first failure shrunk (:func:`shrink`), with the requests
    the shrink took; ``fault``: how the engine misbehaved, if it did (the probe stopped there);
    ``diagnosis``: the causes; ``note``: how the engine ended, when worth saying.
    """

    sent: int
    planned: int
    failures: tuple[Failure, ...]
    diagnosis: Diagnosis
    fault: str | None = None
    shrunk: Failure | None = None
    shrink_requests: int = 0
    note: str | None = None
    kinds: Mapping[str, int] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        """True when every answer conformed and the engine behaved."""
        return not self.failures and self.fault is None

    @property
    def first_failure(self) -> int | None:
        """The request number of the first failure (or of the fault)."""
        if self.failures:
            return self.failures[0].number
        return self.sent + 1 if self.fault is not None else None


#: Most failures kept (all are counted by the diagnosis).
MAX_FAILURES = 1000


class Probe:
    """Deals an engine the stacks of :func:`plan` and checks its answers.

    Args:
        engine: the engine (a :class:`ProcessEngine`, a :class:`DealerEngine`).
        tableau: the rules the answers are judged by.
        returned: the engine's amounts are returned amounts (stake + win), not net.
        file_bets: bets from files the stakes may name.
        stop_at_first: stop at the first failure (the power measurements).
    """

    def __init__(
        self,
        engine: Engine,
        *,
        tableau: Tableau = STANDARD,
        returned: bool = False,
        file_bets: FileBets = NO_FILE_BETS,
        stop_at_first: bool = False,
    ) -> None:
        self.engine = engine
        self.tableau = tableau
        self.returned = returned
        self.file_bets = file_bets
        self.stop_at_first = stop_at_first
        self.requests = 0

    def _ask(self, stack: Stack, number: int, verifier: Verifier) -> tuple[Record, list[Discrepancy]]:
        rec, _ = self._answer(stack, number, verifier)
        return rec, check_answer(rec, stack, verifier, self.returned)

    def _answer(self, stack: Stack, number: int, verifier: Verifier) -> tuple[Record, bool]:
        self.requests += 1
        ident = f"p{self.requests}"
        line = self.engine.ask(stack.request(ident))
        rec, gave_cards = _answer_record(line, stack, number, self.file_bets)
        if rec.coup_id != ident:
            raise EngineFaultError(f"answered request {ident} with id {show(rec.coup_id)}")
        return rec, gave_cards

    def run(
        self,
        stacks: Iterable[Stack],
        progress: Callable[[int], None] | None = None,
        planned: int | None = None,
    ) -> ProbeResult:
        """Deal every stack (made as they are dealt: ``planned`` says how many, when known);
        shrink the first failure; diagnose.  The engine is stopped at the end, killed at once
        when the run ends early (an interrupt, a signal, an error)."""
        try:
            return self._run(stacks, progress, planned)
        finally:
            self.engine.close(force=True)  # a no-op once _run closed it

    def _run(
        self, stacks: Iterable[Stack], progress: Callable[[int], None] | None, planned: int | None
    ) -> ProbeResult:
        verifier = Verifier(None, "returned" if self.returned else "net", tableau=self.tableau)
        diagnoser = Diagnoser(self.tableau, returned=self.returned, unit="request")
        failures: list[Failure] = []
        kinds: dict[str, int] = {}
        fault: str | None = None
        sent = 0
        last: Stack | None = None
        for number, stack in enumerate(stacks, 1):
            try:
                rec, gave_cards = self._answer(stack, number, verifier)
                found = check_answer(rec, stack, verifier, self.returned)
            except EngineFaultError as exc:
                fault = f"request {number} ({stack.purpose}): {exc}"
                break
            sent += 1
            # the diagnosis reads the hands the engine gave and the stack's own order
            told = rec if gave_cards else replace(rec, cards=None)
            diagnoser.add(told, clean=not found, order=stack.cards)
            if found:
                if len(failures) < MAX_FAILURES:
                    failures.append(Failure(number, stack, tuple(found), last))
                for d in found:
                    kinds[d.field] = kinds.get(d.field, 0) + 1
                if self.stop_at_first:
                    break
            last = stack
            if progress is not None:
                progress(1)
        shrunk: Failure | None = None
        used = 0
        if failures and fault is None and not self.stop_at_first:
            before = self.requests
            try:
                shrunk = self.shrink(failures[0])
            except EngineFaultError as exc:
                fault = f"while shrinking: {exc}"
            used = self.requests - before
        note = self.engine.close(force=fault is not None)
        if fault is not None and note is not None and "end of its input" in note:
            note = None  # it stopped before its input did: the fault says how
        total = planned if planned is not None else (len(stacks) if isinstance(stacks, Sequence) else sent)
        return ProbeResult(
            sent, total, tuple(failures), diagnoser.result(), fault, shrunk, used, note, kinds
        )

    # -- shrinking ----------------------------------------------------------------------------

    def _fails(self, stack: Stack, previous: Stack | None, fields: frozenset[str]) -> Failure | None:
        """Whether ``stack`` fails alike right after ``previous`` (after :data:`NEUTRAL` when
        ``None``: an engine that carries state is always asked from a known one)."""
        verifier = Verifier(None, "returned" if self.returned else "net", tableau=self.tableau)
        before = previous if previous is not None else replace(NEUTRAL, stakes=stack.stakes, shoe=stack.shoe)
        self._ask(before, 0, verifier)
        _, found = self._ask(stack, 1, verifier)
        if found and fields & {d.field for d in found}:
            return Failure(1, stack, tuple(found), previous)
        return None

    def shrink(self, failure: Failure) -> Failure:
        """The shortest stack that still fails as ``failure`` does (a discrepancy in one of its
        fields): fewest cards the rules deal, then the plainest cards (:func:`plainness`), found
        by trying one card at a time, within :data:`SHRINK_BUDGET` requests.  Each trial is
        dealt right after the request that came before the failure; when it fails as well right
        after :data:`NEUTRAL`, that one is not needed (``previous`` is ``None``)."""
        fields = frozenset(d.field for d in failure.discrepancies)
        best = failure
        start = self.requests
        if best.previous is not None:
            alone = self._fails(best.stack, None, fields)
            if alone is not None:
                best = alone
        improved = True
        while improved and self.requests - start < SHRINK_BUDGET:
            improved = False
            for candidate in _simpler(best.stack, self.tableau):
                if self.requests - start >= SHRINK_BUDGET:
                    break
                got = self._fails(candidate, best.previous, fields)
                if got is not None:
                    best = got
                    improved = True
                    break
        return replace(best, number=failure.number)


#: A coup in which both hands stand on two cards (Player 7, Banker 7): the known state a shrink
#: deals before each trial when the failure does not need the coup before it.
NEUTRAL = Stack(
    tuple(Card(r, SUITS[0]) for r in (Rank.SEVEN, Rank.SEVEN, Rank.TEN, Rank.TEN, Rank.TEN, Rank.TEN,
                                       Rank.TEN, Rank.TEN)),
    (),
    "",
    "both hands stand (a known state before a trial)",
)

#: How plain a rank is (lower is plainer): 10, then A, 2, ..., 9, then J, Q, K.
_RANK_PLAINNESS: dict[Rank, int] = {
    r: (0 if r is Rank.TEN else 10 + "JQK".index(r.value) if r.value in "JQK" else r.point) for r in RANKS
}
_SUIT_PLAINNESS: dict[Suit, int] = {s: i for i, s in enumerate(SUITS)}


def plainness(stack: Stack, tableau: Tableau = STANDARD) -> tuple[int, int, int, int]:
    """The order shrinking follows: (cards the rules deal from the stack, sum of the ranks'
    plainness over those cards, of the suits' plainness, then the same over the cards left)."""
    used = resolve(stack.cards, tableau).cards_dealt

    def plain(cards: Sequence[Card]) -> tuple[int, int]:
        ranks = sum(_RANK_PLAINNESS[c.rank] for c in cards)
        return ranks, sum(_SUIT_PLAINNESS[c.suit] for c in cards if c.suit is not None)

    ranks, suits = plain(stack.cards[:used])
    rest = plain(stack.cards[used:])
    return used, ranks, suits, rest[0] * 4 + rest[1]


def _plainest(value: int, suit: Suit) -> Card:
    """The plainest card of a point value in a suit: 10 for 0, else the value's own rank."""
    return Card(Rank.TEN if value == 0 else RANKS[value - 1], suit)


def _simpler(stack: Stack, tableau: Tableau) -> Iterable[Stack]:
    """Stacks one card plainer than ``stack``, each strictly plainer (:func:`plainness`), the
    likeliest to fail alike first: a card made the plainest of its own point value and suit,
    then of its value in spades; then a card of another value (which may change who draws),
    the plainest stacks first."""
    now = plainness(stack, tableau)
    cards = list(stack.cards)
    spades = SUITS[0]

    def trial(i: int, card: Card) -> Stack:
        return replace(stack, cards=(*cards[:i], card, *cards[i + 1:]))

    seen: set[tuple[Card, ...]] = {stack.cards}
    same: list[Stack] = []
    for i, card in enumerate(cards):
        for plain in (_plainest(card.point, card.suit or spades), _plainest(card.point, spades)):
            candidate = trial(i, plain)
            if candidate.cards not in seen and plainness(candidate, tableau) < now:
                seen.add(candidate.cards)
                same.append(candidate)
    other: list[tuple[tuple[int, int, int, int], Stack]] = []
    for i, card in enumerate(cards[:6]):
        for value in TOTALS:
            if value == card.point:
                continue
            candidate = trial(i, _plainest(value, card.suit or spades))
            score = plainness(candidate, tableau)
            if candidate.cards not in seen and score < now:
                seen.add(candidate.cards)
                other.append((score, candidate))
    other.sort(key=lambda o: o[0])
    return same + [c for _, c in other]


def probe(
    engine: Engine,
    bets: Sequence[str] = DEFAULT_BETS,
    *,
    tableau: Tableau = STANDARD,
    coups: int = DEFAULT_COUPS,
    seed: int = DEFAULT_SEED,
    returned: bool = False,
    file_bets: FileBets = NO_FILE_BETS,
) -> ProbeResult:
    """Probe ``engine`` with the stacks of :func:`plan` for ``bets`` (names).

    Raises:
        ProbeError: a bad number of coups; BetError: a bad bet name.
    """
    if isinstance(coups, bool) or not isinstance(coups, int) or coups < 0:
        raise ProbeError(f"bad number of coups {show(coups)}: use a whole number >= 0")
    chosen = [lookup_bet(name, file_bets) for name in bets]
    stacks = plan_stream(chosen, tableau=tableau, coups=coups, seed=seed)
    checker = Probe(engine, tableau=tableau, returned=returned, file_bets=file_bets)
    return checker.run(stacks, planned=len(stacks))


# -- the report ---------------------------------------------------------------------------------


def _finding_line(d: Discrepancy) -> str:
    return f"{d.field}: expected {d.expected}, claimed {d.claimed} -- {d.rule}"


def _stack_text(stack: Stack, tableau: Tableau) -> str:
    used = resolve(stack.cards, tableau).cards_dealt
    rest = " ".join(map(str, stack.cards[used:]))
    return " ".join(map(str, stack.cards[:used])) + f" | {rest} (the rules deal the first {used})"


def report_lines(
    result: ProbeResult, engine: str, tableau: Tableau = STANDARD, max_report: int = 5
) -> list[str]:
    """The probe's report as text lines: what was dealt, the diagnosis, the engine's
    misbehaviour, the first ``max_report`` failing stacks (0: all kept) and the first one
    shrunk, then a summary line."""
    out: list[str] = []
    planned = f"{result.planned:,}"
    out.append(f"probe: {result.sent:,} of {planned} stacks dealt to {engine}")
    out += result.diagnosis.lines()
    if result.fault is not None:
        out.append(f"the engine misbehaved: {result.fault}")
    shown = result.failures if not max_report else result.failures[:max_report]
    for failure in shown:
        cards = " ".join(map(str, failure.stack.cards))
        out.append(f"request {failure.number} ({failure.stack.purpose}; stack {cards}):")
        out += [f"  {_finding_line(d)}" for d in failure.discrepancies]
    if len(result.failures) > len(shown):
        out.append(f"... {len(result.failures) - len(shown):,} more failing stacks")
    if result.shrunk is not None:
        s = result.shrunk
        out.append(
            f"shortest failing stack (request {s.number} shrunk in {result.shrink_requests:,} more "
            f"requests): {_stack_text(s.stack, tableau)}"
        )
        if s.previous is not None:
            out.append(f"  dealt right after {_stack_text(s.previous, tableau)}: it needs the coup before it")
        out += [f"  {_finding_line(d)}" for d in s.discrepancies]
    if result.note:
        out.append(f"note: {result.note}")
    out.append(summary_line(result))
    return out


def summary_line(result: ProbeResult) -> str:
    """One line: how many stacks, how many failed, where first."""
    head = f"probe: {result.sent:,} coups"
    if result.passed:
        return f"{head}: all conform"
    parts = []
    if result.failures:
        n = len(result.failures)
        parts.append(f"{n:,} with findings (first: request {result.failures[0].number})")
    if result.fault is not None:
        parts.append("the engine misbehaved")
    return f"{head}: " + "; ".join(parts)


def report_records(result: ProbeResult, engine: str, tableau: Tableau = STANDARD) -> list[dict[str, object]]:
    """The probe's report as JSON-ready records, each with a ``kind``: ``cause`` (the
    diagnosis), ``fault``, ``finding`` (one per discrepancy of each failing stack kept),
    ``shrunk`` (one per discrepancy of the shortest failing stack), then ``summary``."""
    out: list[dict[str, object]] = []
    for cause in result.diagnosis.causes:
        out.append(
            {
                "kind": "cause",
                "mutant": cause.mutant,
                "cause": cause.sentence,
                "explains": cause.explains,
                "findings": result.diagnosis.findings,
                "contradicts": cause.contradicts,
                "example": cause.example.text() if cause.example else None,
            }
        )
    if result.fault is not None:
        out.append({"kind": "fault", "fault": result.fault})

    def rows(kind: str, failure: Failure) -> list[dict[str, object]]:
        return [
            {
                "kind": kind,
                "request": failure.number,
                "purpose": failure.stack.purpose,
                "cards": [str(c) for c in failure.stack.cards],
                "previous": [str(c) for c in failure.previous.cards] if failure.previous else None,
                "field": d.field,
                "expected": d.expected,
                "claimed": d.claimed,
                "rule": d.rule,
            }
            for d in failure.discrepancies
        ]

    for failure in result.failures:
        out += rows("finding", failure)
    if result.shrunk is not None:
        out += rows("shrunk", result.shrunk)
    out.append(
        {
            "kind": "summary",
            "engine": engine,
            "rules": tableau.name,
            "rules_fingerprint": tableau.fingerprint,
            "planned": result.planned,
            "sent": result.sent,
            "failing": len(result.failures),
            "first_failure": result.first_failure,
            "passed": result.passed,
        }
    )
    return out


#: Longest request line ``serve`` reads (characters); a longer one is skipped with an error.
MAX_REQUEST = 100_000


def serve(mutant: Mutant, stream: IO[str], out: IO[str], tableau: Tableau = STANDARD) -> None:
    """Answer the probe's protocol as ``mutant``'s engine: one answer line per request line
    (``punto-banco mutants --serve NAME``); a request that is not one (or longer than
    :data:`MAX_REQUEST` characters) gets an error object, and the next one is read."""
    state = DealerEngine(mutant.dealer(tableau))
    while True:
        line = stream.readline(MAX_REQUEST + 1)
        if not line:
            return
        if len(line) > MAX_REQUEST and not line.endswith("\n"):
            while line and not line.endswith("\n"):  # the rest of the line, in bounded pieces
                line = stream.readline(MAX_REQUEST + 1)
            text = json.dumps({"error": f"bad request: longer than {MAX_REQUEST:,} characters"})
        elif not line.strip():
            continue
        else:
            try:
                text = answer(state.dealer, line, state)
            except (AnalyzerError, RecursionError) as exc:
                text = json.dumps({"error": f"bad request: {exc}"})
        out.write(text + "\n")
        out.flush()


__all__ = [
    "CORRECT",
    "DEFAULT_BETS",
    "DEFAULT_COUPS",
    "DEFAULT_TIMEOUT",
    "DealerEngine",
    "Engine",
    "EngineFaultError",
    "Failure",
    "Plan",
    "Probe",
    "ProbeResult",
    "ProcessEngine",
    "Stack",
    "answer",
    "cell_stacks",
    "check_answer",
    "event_stacks",
    "plainness",
    "plan",
    "plan_stream",
    "probe",
    "random_stacks",
    "report_lines",
    "report_records",
    "serve",
    "summary_line",
]
