"""The commands `probe` and `mutants`: the probe deals the example engines of examples/probe (a
Python and a JavaScript engine written without the analyser, each with bugs planted on demand)
and names each bug; `mutants` lists, serves and deals logs."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from clirun import ROOT, one_error_line

from analyzer.checks.handlog import read_records
from analyzer.checks.verify import Verifier

PROBE = ROOT / "examples" / "probe"
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(
    NODE is None, reason="node (Node.js) is not installed: the JavaScript engine needs it"
)


def probe_args(*engine: str, coups: int = 400, bets: tuple[str, ...] = ()) -> list[str]:
    out = ["probe", "--coups", str(coups)]
    for bet in bets:
        out += ["--bet", bet]
    return [*out, "--", *engine]


PY_ENGINE = (sys.executable, str(PROBE / "adapter.py"))
PY_BETS = ("banker", "player", "tie", "player-pair")


@pytest.mark.parametrize(
    ("bug", "mutant"),
    [
        ("", None),
        ("banker-6-by-total", "banker-reads-player-total:6"),
        ("no-banker-natural", "no-natural-check:banker"),
        ("pair-two-cards", "pairs-on-two-card-hands"),
        ("commission-down", "commission-rounded:down"),
        ("stale-third", "stale-third-card"),
    ],
)
def test_the_probe_names_the_bug_of_the_python_engine(cli, bug, mutant):
    result = cli(*probe_args(*PY_ENGINE, bets=PY_BETS), env={"TOY_BUG": bug})
    text = result.output
    if mutant is None:
        assert result.exit_code == 0, text
        assert text.splitlines()[-1] == "probe: 400 coups: all conform"
        return
    assert result.exit_code == 1, text
    lines = text.splitlines()
    assert lines[1] == "diagnosis: 1 cause explains the findings"
    from analyzer.checks.mutants import find_mutant

    assert lines[2].startswith(f"  1. {find_mutant(mutant).cause}: explains ")
    assert "contradicted by no coup" in lines[2]
    assert any(line.startswith("shortest failing stack") for line in lines)


@needs_node
@pytest.mark.parametrize(
    ("bug", "mutant"),
    [
        ("", None),
        ("banker-6-by-total", "banker-reads-player-total:6"),
        ("no-player-natural", "no-natural-check:player"),
        ("ace-high", "ace-high"),
        ("tie-loses", "tie-loses-main-bets"),
    ],
)
def test_the_probe_names_the_bug_of_the_javascript_engine(cli, bug, mutant):
    assert NODE is not None
    result = cli(*probe_args(NODE, str(PROBE / "adapter.mjs")), env={"TOY_BUG": bug})
    if mutant is None:
        assert result.exit_code == 0, result.output
        return
    assert result.exit_code == 1, result.output
    assert result.output.splitlines()[2].startswith("  1. ")
    from analyzer.checks.mutants import find_mutant

    assert find_mutant(mutant).cause in result.output.splitlines()[2]


def test_the_probe_report_as_json_lines(cli, tmp_path):
    out = tmp_path / "report.jsonl"
    result = cli(
        "probe", "--coups", "200", "--format", "jsonl", "-o", out, "--",
        sys.executable, "-m", "analyzer", "mutants", "--serve", "ace-high",
    )
    assert result.exit_code == 1
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert records[0]["kind"] == "cause" and records[0]["mutant"] == "ace-high"
    assert records[-1]["kind"] == "summary" and records[-1]["passed"] is False
    assert result.stderr.startswith("probe: 200 coups: ")


def test_the_probe_refuses_bad_input_in_one_line(cli):
    cases = [
        (("probe", "--", "no-such-engine-zz"), "cannot start the engine 'no-such-engine-zz'"),
        (("probe", "--timeout", "0", "--", "true"), "--timeout"),
        (("probe", "--bet", "no-such-bet", "--", "true"), "unknown bet"),
    ]
    for args, message in cases:
        result = cli(*args)
        assert result.exit_code == 2, args
        assert message in one_error_line(result)
    assert cli("probe").exit_code == 2


def test_mutants_lists_the_catalogue_by_kind(cli):
    result = cli("mutants")
    assert result.exit_code == 0
    from analyzer.checks.mutants import KINDS, MUTANTS

    for m in MUTANTS:
        assert m.name in result.output
    assert all(f"{what}:" in result.output for what in KINDS.values())


def test_mutants_deals_a_log_that_verify_reads(cli, tmp_path):
    log = tmp_path / "log.jsonl"
    result = cli("mutants", "--log", "banker-stands-on-6", "--coups", "400", "--bet", "banker", "-o", log)
    assert result.exit_code == 0, result.output
    verifier = Verifier()
    with log.open() as fh:
        found = list(verifier.run(read_records(fh, "jsonl")))
    assert verifier.coups == 400
    assert found and {d.field for d in found} == {"banker"}
    again = tmp_path / "again.jsonl"
    cli("mutants", "--log", "banker-stands-on-6", "--coups", "400", "--bet", "banker", "-o", again)
    assert log.read_bytes() == again.read_bytes()


def test_mutants_serves_the_protocol(cli):
    request = json.dumps({"id": "p1", "cards": ["K", "5", "K", "4", "9", "9"], "stakes": {"banker": 5}})
    result = cli("mutants", "--serve", "commission-rounded:down", input=request + "\n")
    assert result.exit_code == 0
    answer = json.loads(result.stdout)
    assert (answer["id"], answer["winner"], answer["bets"]["banker"]["paid"]) == ("p1", "banker", "4")
    bad = cli("mutants", "--serve", "correct", input="not json\n")
    assert "bad request" in json.loads(bad.stdout)["error"]


def test_mutants_refuses_an_unknown_name_in_one_line(cli):
    result = cli("mutants", "--serve", "nope")
    assert result.exit_code == 2
    assert "unknown mutant 'nope'" in one_error_line(result)
    both = cli("mutants", "--serve", "correct", "--log", "correct")
    assert "give one of --serve, --log and --power" in one_error_line(both)


def test_the_example_adapters_are_short():
    """The manual promises a 20-line adapter in each language."""
    for name in ("adapter.py", "adapter.mjs"):
        lines = [line for line in (PROBE / name).read_text().splitlines() if line.strip()]
        assert len(lines) <= 20, name
    assert os.access(PROBE / "adapter.py", os.R_OK) and Path(PROBE / "toy_engine.py").exists()


def test_the_manual_shows_the_adapters_the_tests_run():
    """docs/engines.md shows examples/probe/adapter.py and adapter.mjs as they are."""
    text = (ROOT / "docs" / "engines.md").read_text(encoding="utf-8")
    assert "```python\n" + (PROBE / "adapter.py").read_text() + "```" in text
    assert "```javascript\n" + (PROBE / "adapter.mjs").read_text() + "```" in text


def test_the_probe_never_writes_its_report_over_the_engine(cli, tmp_path):
    engine = tmp_path / "engine.py"
    engine.write_text("print('x')\n")
    result = cli("probe", "--coups", "5", "-o", engine, "--", sys.executable, engine)
    assert result.exit_code == 2
    assert engine.read_text() == "print('x')\n"


@pytest.mark.parametrize(
    ("request_line", "message"),
    [
        ('{"id": "p1", "cards": ["K", "5", "K", "4", "9", "9"], "stakes": {"banker": "1/0"}}', "bad stake"),
        ('{"id": "p1", "cards": ["K"], "stakes": [1]}', "stakes: give an object"),
        ('{"id": "p1", "cards": ["K", "5", "K", "4"], "stakes": {"banker": "1e99999999"}}', "bad stake"),
        ('{"id": "p1", "cards": ["K", "5", "K", "4"], "stakes": {"banker": -5}}', "greater than 0"),
        ("[" * 50_000, "nested too deeply"),
    ],
)
def test_mutants_serve_answers_a_bad_request_with_an_error_and_goes_on(cli, request_line, message):
    good = json.dumps({"id": "p2", "cards": ["K", "5", "K", "4", "9", "9"], "stakes": {"banker": 5}})
    result = cli("mutants", "--serve", "correct", input=request_line + "\n" + good + "\n")
    assert result.exit_code == 0
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert message in first["error"] and second["id"] == "p2"


def test_mutants_refuses_a_cut_that_leaves_no_coup_and_an_unwritable_output_before_the_work(cli, monkeypatch):
    result = cli("mutants", "--log", "correct", "--decks", "1", "--cut", "100", "--coups", "2")
    assert result.exit_code == 2 and "bad cut 100" in one_error_line(result)
    import analyzer.checks.mutant_power as power

    def never(*args: object, **kw: object) -> None:
        raise AssertionError("the measurements ran before the output was checked")

    monkeypatch.setattr(power, "measure_all", never)
    result = cli("mutants", "--power", "-o", "/nonexistent-folder-x/mutants.md")
    assert result.exit_code == 2 and "does not exist" in one_error_line(result)


@pytest.mark.parametrize("args", [
    ["--decks", "1"],
    ["--power", "--remove", "5=0"],
    ["--shoe", "8=2"],
    ["--serve", "correct", "--decks", "6"],
])
def test_mutants_refuses_shoe_options_it_would_ignore(cli, args):
    result = cli("mutants", *args)
    assert result.exit_code == 2 and "give them with --log" in one_error_line(result)
