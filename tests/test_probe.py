"""The probe (analyzer.checks.probe): its stacks reach every decision cell and every event of a
bet; it passes a correct engine, catches and names every mutant a stacked coup can reveal,
shrinks a failure to a plainer stack that still fails, and treats a misbehaving engine as a
finding.  Engines run in this process (DealerEngine) and as child processes (ProcessEngine)."""

from __future__ import annotations

import itertools
import json
import os
import select
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from analyzer.bets.catalogue import find_bet
from analyzer.checks.mutants import CORRECT, MUTANTS, find_mutant
from analyzer.checks.probe import (
    DealerEngine,
    Probe,
    ProcessEngine,
    Stack,
    cell_stacks,
    event_stacks,
    plainness,
    plan,
    probe,
    report_lines,
    report_records,
)
from analyzer.core.coup import resolve
from analyzer.core.tableau import STANDARD, TOTALS, find_tableau
from analyzer.errors import EngineFaultError, ProbeError

BETS = ("banker", "player", "tie", "player-pair")
#: Mutants no stacked coup can reveal: the shoe's composition is the oracle's choice (verify's
#: shoe check over whole shoes catches them).  (A wrong natural claim is checked as verify checks
#: it, when the engine writes a natural field.)
UNSEEN = {"shoe-refilled", "shoe-one-deck-more"}


def test_the_cell_stacks_pass_through_every_decision_cell():
    reached: set[tuple[object, ...]] = set()
    for cards, why in cell_stacks(STANDARD):
        coup = resolve(cards)
        if coup.natural:
            reached.add(("natural", coup.naturals))
            assert "natural" in why
            continue
        reached.add(("player", coup.player_two_card_total))
        reached.add(("banker", coup.banker_two_card_total, coup.player_third))
        if why.startswith("Banker on"):
            assert why.startswith(f"Banker on {coup.banker_two_card_total}, ")
    assert {("natural", k) for k in ("player", "banker", "both")} <= reached
    assert {("player", t) for t in range(8)} <= reached
    banker = {(b, v) for b in range(8) for v in (None, *TOTALS)}
    assert banker <= {(k[1], k[2]) for k in reached if k[0] == "banker"}


def test_the_cells_of_a_variant_are_its_own():
    loose = find_tableau("banker-under-5-when-player-stood")
    assert len(cell_stacks(loose)) == len(cell_stacks(STANDARD))  # a cell is a situation, not a rule


@pytest.mark.parametrize("name", ["player-pair", "dragon-7", "dragon-bonus-player", "tie"])
def test_event_stacks_settle_their_event(name):
    bet = find_bet(name)
    found = event_stacks([bet])
    events = {line.event for line in bet.lines}
    for cards, why in found:
        event, _ = bet.settle(resolve(cards))
        assert why.startswith(f"{bet.name}: {event} (")
        events.discard(event)
    assert not events  # every pay line has a stack
    # a pair on a side that drew a third card, and one on a side that stood
    if name == "player-pair":
        deals = {resolve(cards).player_drew for cards, why in found if "Player pair" in why}
        assert deals == {True, False}


def test_the_plan_is_deterministic_and_places_every_bet():
    bets = [find_bet(b) for b in BETS]
    stacks = plan(bets, coups=300, seed=4)
    assert stacks == plan(bets, coups=300, seed=4)
    assert stacks != plan(bets, coups=300, seed=5)
    assert len(stacks) == 300
    assert all(len(s.cards) == 8 and [n for n, _ in s.stakes] == list(BETS) for s in stacks)
    request = json.loads(stacks[0].request("p1"))
    assert set(request) == {"id", "cards", "stakes", "shoe"}
    assert set(request["stakes"]) == set(BETS)


def test_a_correct_engine_passes():
    result = probe(DealerEngine(CORRECT.dealer()), BETS, coups=400)
    assert result.passed and result.sent == 400
    assert report_lines(result, "engine")[-1] == "probe: 400 coups: all conform"


@pytest.mark.parametrize("name", [m.name for m in MUTANTS if m.name not in UNSEEN])
def test_the_probe_catches_and_names_every_mutant_a_stack_can_reveal(name):
    result = probe(DealerEngine(find_mutant(name).dealer()), BETS, coups=400)
    assert not result.passed
    found = result.diagnosis
    first = found.causes[0]
    assert (first.explains, first.contradicts) == (found.findings, 0)
    # the bug itself, or a narrower one that fits every coup the probe dealt as well (the Banker
    # on 3 reading the Player's total shows, in 400 stacks, only where it draws against an 8)
    fits = {c.mutant for c in found.ranked if c.contradicts == 0 and c.explains_all == found.findings}
    assert first.mutant == name or (name in fits and first.mutant.startswith("cell:")), first.mutant
    assert result.shrunk is not None
    assert plainness(result.shrunk.stack) <= plainness(result.failures[0].stack)


@pytest.mark.parametrize("name", sorted(UNSEEN))
def test_mutants_no_stack_can_reveal(name):
    assert probe(DealerEngine(find_mutant(name).dealer()), BETS, coups=300).passed


def test_tableau_bugs_are_caught_within_the_decision_cells():
    cells = len(cell_stacks(STANDARD))
    for m in MUTANTS:
        if m.kind == "tableau":
            result = probe(DealerEngine(m.dealer()), BETS, coups=cells)
            assert result.first_failure is not None and result.first_failure <= cells, m.name


def test_a_failure_is_shrunk_to_the_plainest_stack_through_its_cell():
    result = probe(DealerEngine(find_mutant("banker-draws-on-6-against-5").dealer()), BETS, coups=150)
    assert result.shrunk is not None
    coup = resolve(result.shrunk.stack.cards)
    assert (coup.banker_two_card_total, coup.player_third, coup.cards_dealt) == (6, 5, 5)
    assert plainness(result.shrunk.stack) < plainness(result.failures[0].stack)
    text = "\n".join(report_lines(result, "engine"))
    assert "shortest failing stack" in text
    assert "Banker on 6 must stand when the Player's third card is 5" in text


def test_state_carried_between_coups_shows_and_the_shrink_keeps_the_coup_before():
    stacks = plan([find_bet(b) for b in BETS], coups=600)
    result = Probe(DealerEngine(find_mutant("banker-reads-stale-third").dealer())).run(stacks)
    first = result.failures[0]
    assert first.previous == stacks[first.number - 2]
    assert result.shrunk is not None and result.shrunk.previous == first.previous
    assert "it needs the coup before it" in "\n".join(report_lines(result, "engine"))
    # a failure that does not need the coup before it is shrunk without it
    plain = probe(DealerEngine(find_mutant("ace-high").dealer()), BETS, coups=100)
    assert plain.shrunk is not None and plain.shrunk.previous is None


def test_report_records_name_their_kind():
    result = probe(DealerEngine(find_mutant("ace-high").dealer()), BETS, coups=200)
    records = report_records(result, "engine")
    kinds = [r["kind"] for r in records]
    assert kinds[0] == "cause" and kinds[-1] == "summary"
    assert {"finding", "shrunk"} <= set(kinds)
    json.dumps(records)  # every value is JSON
    summary = records[-1]
    assert summary["passed"] is False and summary["first_failure"] == result.first_failure


# -- engines that misbehave -------------------------------------------------------------------------


def _python(code: str) -> list[str]:
    return [sys.executable, "-c", code]


SILENT = "import sys; sys.stdin.read()"  # reads every request, answers none: never a race
NOT_JSON = "import sys\nfor line in sys.stdin: print('hello', flush=True)"
WRONG_ID = (
    "import json, sys\nfor line in sys.stdin:\n"
    "    r = json.loads(line); print(json.dumps({'id': 'x', 'cards': r['cards'][:4]}), flush=True)"
)
EXITS = "import sys; sys.stdin.readline(); sys.exit(3)"


@pytest.mark.parametrize(
    ("code", "message"),
    [
        (SILENT, "no answer within 0.3 s"),
        (NOT_JSON, "not JSON"),
        (WRONG_ID, "answered request p1 with id 'x'"),
        (EXITS, "exited before answering (exit code 3)"),
    ],
)
def test_an_engine_that_misbehaves_is_a_finding(code, message):
    stacks = plan([find_bet("banker")], coups=5)
    result = Probe(ProcessEngine(_python(code), 0.3)).run(stacks)
    assert not result.passed
    assert result.fault is not None and message in result.fault
    assert result.fault.startswith("request 1 (")


def test_an_engine_that_cannot_start_is_bad_input():
    with pytest.raises(ProbeError, match="cannot start the engine 'no-such-engine-x'"):
        ProcessEngine(["no-such-engine-x"], 1.0)
    with pytest.raises(ProbeError, match="no engine command"):
        ProcessEngine([], 1.0)


def test_a_mutant_answers_the_protocol_as_a_process(tmp_path):
    engine = ProcessEngine(
        [sys.executable, "-m", "analyzer", "mutants", "--serve", "tie-loses-main-bets"], 10.0
    )
    result = Probe(engine).run(plan([find_bet("banker"), find_bet("player")], coups=120))
    assert result.diagnosis.causes[0].mutant == "tie-loses-main-bets"
    assert result.note is None  # it ended when its input did


def test_a_stack_the_engine_does_not_deal_from_the_top_is_a_finding():
    class Shuffled(DealerEngine):
        def ask(self, line: str) -> str:
            request = json.loads(line)
            request["cards"] = request["cards"][1:] + request["cards"][:1]
            return super().ask(json.dumps(request))

    result = Probe(Shuffled(CORRECT.dealer())).run(plan([find_bet("banker")], coups=3))
    assert result.failures
    assert result.failures[0].discrepancies[0].field == "cards"
    assert "the top of the stack" in result.failures[0].discrepancies[0].expected


def test_an_unsettled_bet_is_a_finding():
    class Forgets(DealerEngine):
        def ask(self, line: str) -> str:
            record = json.loads(super().ask(line))
            record["bets"].pop("player", None)
            return json.dumps(record)

    stacks = [Stack(tuple(s.cards), (("banker", Fraction(10)), ("player", Fraction(10))), s.shoe, s.purpose)
              for s in plan([find_bet("banker")], coups=2)]
    result = Probe(Forgets(CORRECT.dealer())).run(stacks)
    assert {d.field for f in result.failures for d in f.discrepancies} == {"bet:player"}


def test_engine_fault_is_an_analyzer_error():
    assert issubclass(EngineFaultError, ValueError)


NO_READ = (  # answers without reading: the probe's writes fill the pipe, then must time out
    "import json, sys\n"
    "for i in range(1, 10**7):\n"
    "    print(json.dumps({'id': f'p{i}', 'cards': ['As', '2s', '3s', '4s']}), flush=True)"
)
DEEP = "import sys\nfor line in sys.stdin: print('[' * 45000 + ']' * 45000, flush=True)"
HUGE_TOTAL = (
    "import json, sys\nfor line in sys.stdin:\n"
    "    r = json.loads(line); print('{\"id\": \"' + r['id'] + '\", \"cards\": [\"As\", \"2s\", \"3s\", "
    "\"4s\"], \"player_total\": ' + '9' * 5000 + '}', flush=True)"
)
WINNER_ONLY = (  # right for two requests, then an answer with claims and no cards
    "import json, sys\n"
    "sys.path.insert(0, 'examples/probe')\n"
    "from toy_engine import deal\n"
    "for n, line in enumerate(sys.stdin, 1):\n"
    "    r = json.loads(line)\n"
    "    if n > 2:\n"
    "        print(json.dumps({'id': r['id'], 'winner': 'player'}), flush=True)\n"
    "        continue\n"
    "    coup = {k: v for k, v in deal(r['cards']).items() if not k.startswith('_')}\n"
    "    print(json.dumps({'id': r['id'], **coup, 'bets': {}}), flush=True)"
)


@pytest.mark.parametrize(
    ("code", "message"),
    [
        (NO_READ, "the engine read no request within 0.5 s"),  # its input fills, a write times out
        (DEEP, "nested too deeply"),
        (HUGE_TOTAL, "player_total"),
    ],
)
def test_hostile_answers_are_findings_not_errors(code, message):
    stacks = plan([], coups=2000)
    result = Probe(ProcessEngine(_python(code), 0.5)).run(stacks)
    assert result.fault is not None and message in result.fault, result.fault


def test_an_engine_that_never_answers_is_a_finding_within_the_timeout():
    code = "import sys, time\nsys.stdin.readline(); time.sleep(3600)"
    result = Probe(ProcessEngine(_python(code), 0.3)).run(plan([], coups=2000))
    assert result.fault is not None and "no answer within 0.3 s" in result.fault


def test_an_answer_that_deals_no_coup_is_a_finding():
    root = Path(__file__).resolve().parent.parent
    old = os.getcwd()
    os.chdir(root)  # the engine imports examples/probe/toy_engine.py
    try:
        result = Probe(ProcessEngine(_python(WINNER_ONLY), 5.0)).run(plan([], coups=10))
    finally:
        os.chdir(old)
    assert result.fault is None and result.failures[0].number == 3
    (finding,) = result.failures[0].discrepancies
    assert (finding.field, finding.claimed) == ("cards", "no cards and no hands")


def test_the_engine_and_its_children_never_outlive_the_probe(tmp_path):
    pidfile = tmp_path / "child.pid"
    code = (
        "import subprocess, sys\n"
        f"child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(3600)'])\n"
        f"open({str(pidfile)!r}, 'w').write(str(child.pid))\n"
        "for line in sys.stdin: print('garbage', flush=True)"
    )
    result = Probe(ProcessEngine(_python(code), 5.0)).run(plan([], coups=3))
    assert result.fault is not None
    child = int(pidfile.read_text())
    try:
        handle = os.pidfd_open(child)
    except ProcessLookupError:
        return  # gone already
    try:  # the kill is sent; its delivery is the kernel's: wait for the child's end (an event)
        ended, _, _ = select.select([handle], [], [], 30)
    finally:
        os.close(handle)
    assert ended, "the engine's child outlived the probe"


def test_a_bet_settled_on_another_stake_is_a_finding():
    class OneUnit(DealerEngine):
        def ask(self, line: str) -> str:
            record = json.loads(super().ask(line))
            for bet in record["bets"].values():
                bet["stake"] = "1"
            return json.dumps(record)

    result = Probe(OneUnit(CORRECT.dealer())).run(plan([find_bet("banker")], coups=3))
    first = result.failures[0].discrepancies[0]
    assert (first.field, first.claimed) == ("bet:banker", "stake 1")
    assert first.rule == "each bet is settled on the stake the request placed"


def test_the_plan_is_made_as_it_is_dealt():
    from analyzer.checks.probe import plan_stream

    big = plan_stream([find_bet("banker")], coups=10_000_000)
    assert len(big) == 10_000_000 and len(big.fixed) < 500
    first = list(itertools.islice(iter(big), len(big.fixed) + 3))
    assert first[:3] == plan([find_bet("banker")], coups=len(big.fixed) + 3)[:3]
