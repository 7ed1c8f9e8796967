"""The JSON service against the command line: every endpoint's answer is the document the
matching command writes (``--format json``, ``deal``'s lines, ``verify --format jsonl``), byte
for byte where the command writes JSON; and bad requests get one line of JSON with a 4xx.

One real server (``punto-banco serve --port 0``, one worker) serves the module; the commands
run in this process through click's runner.  Light bets only (dragon-7, panda-8, tie, pairs,
dragon bonus), with card-level ones priced too (their tables ship with the package).
"""

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from clirun import invoke
from webserver import LIMITED_REASON, ROOT, Server, address_space_limited

from analyzer import Shoe, find_bet, price
from analyzer.checks.verify import amount_text
from analyzer.core.tableau import STANDARD, TABLEAUX
from analyzer.engine.table import MAX_RECORDS_ENV
from analyzer.errors import WorkLimitError
from analyzer.studies.eor import PUBLISHED_TAGS
from analyzer.web import jobs
from analyzer.web.budget import check_work
from analyzer.web.limits import Limits

pytestmark = pytest.mark.extra("web")

EXAMPLES = ROOT / "examples"
RULES_TOML = (EXAMPLES / "rules" / "banker-draws-on-6-against-5.toml").read_text(encoding="utf-8")
BET_FILE = (EXAMPLES / "bets.toml").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def server():
    with Server("--workers", "1") as running:
        yield running


def cli(monkeypatch, args, cwd=None):
    """(exit code, standard output, standard error) of ``punto-banco ARGS`` in this process,
    with ``sys.argv`` as a shell would set it (the commands write it into ``meta.command``)."""
    if cwd is not None:
        monkeypatch.chdir(cwd)
    monkeypatch.setattr(sys, "argv", ["punto-banco", *args])
    result = invoke(*args)
    return result.exit_code, result.stdout, result.stderr


def texts_dir(tmp_path: Path, body: dict) -> Path:
    """A folder holding the request's texts under the names ``meta.command`` gives them."""
    if "rules_toml" in body:
        (tmp_path / jobs.RULES_LABEL).write_text(body["rules_toml"], encoding="utf-8")
    if "bet_file" in body:
        (tmp_path / jobs.BET_FILE_LABEL).write_text(body["bet_file"], encoding="utf-8")
    return tmp_path


PRICES = {
    "seen cards": {"shoe": {"decks": 8, "seen": ["5h", "Kd"]}, "bets": ["dragon-7", "panda-8"]},
    "events and pays": {
        "shoe": {"decks": 6},
        "bets": ["tie", "dragon-bonus-player", "player-pair"],
        "events": True,
        "fair_pay": True,
        "target_edge": "1.5",
        "digits": 6,
    },
    "counts, rank-only": {
        "shoe": {"counts": "8=20,K=30,5=10,9=12,2=8", "seen": ["K", "5"]},
        "bets": ["banker", "tie:9"],
    },
    "remove counts, named rules": {
        "shoe": {"decks": 8, "remove": "5=20,9=10"},
        "rules": "banker-stands-on-6",
        "bets": ["dragon-7", "either-pair"],
    },
    "rules and bets as text": {
        "shoe": {"decks": 8, "seen": ["Ah", "Ad", "9s"]},
        "rules_toml": RULES_TOML,
        "bets": ["perfect-pair"],
        "bet_file": BET_FILE,
        "events": True,
    },
    "main bets by default": {},
    "card-level bets on a depleted suited shoe": {
        "shoe": {"decks": 8, "seen": ["Ah", "Kd", "7c", "7c", "2s"]},
        "bets": ["all-red", "lucky-win-player", "royal-9"],
    },
    "bets found by their pays": {"pays": "30,10,6,4,2,1"},
    "the nearest pay tables, events": {"shoe": {"decks": 6}, "pays": "30,10,4,4,2,2", "events": True,
                                       "digits": 6},
    "pays with a parameter, rules, a depleted shoe": {
        "shoe": {"decks": 8, "seen": ["5h", "Kd"]},
        "rules": "banker-stands-on-6",
        "pays": "0.97",
        "with_params": True,
    },
}


@pytest.mark.parametrize("body", PRICES.values(), ids=PRICES.keys())
def test_price_is_the_document_of_punto_banco_bets(server, monkeypatch, tmp_path, body):
    status, text = server.post("/api/v1/price", body)
    assert status == 200, text
    command = json.loads(text)["meta"]["command"]
    assert command.startswith("punto-banco bets ")
    code, out, _ = cli(monkeypatch, shlex.split(command)[1:], texts_dir(tmp_path, body))
    assert code == 0
    assert text == out  # byte for byte: exact fractions, decimals, meta, notes


def test_price_of_the_example_request_is_exact_and_names_its_shoe(server):
    status, text = server.post(
        "/api/v1/price", {"shoe": {"decks": 8, "seen": ["5h", "Kd"]}, "bets": ["dragon-7"]}
    )
    row = json.loads(text)["tables"][0]["rows"][0]
    assert status == 200 and row["bet_name"] == "dragon-7"
    assert Fraction(row["ev"]) == price(find_bet("dragon-7"), Shoe.standard(8).remove("5h Kd")).ev
    assert row["shoe"].startswith("414 cards")


ANALYSES = {
    "every table": {"shoe": {"decks": 8, "seen": ["9h", "9d", "Kc"]}, "tables": ["all"], "digits": 12},
    "a shoe of five cards": {"shoe": {"counts": "8=2,K=3"}, "tables": ["outcomes", "cards"]},
    "default": {},
    "rules text": {"rules_toml": RULES_TOML, "tables": ["totals"]},
}


@pytest.mark.parametrize("body", ANALYSES.values(), ids=ANALYSES.keys())
def test_analyze_is_the_document_of_punto_banco_analyze(server, monkeypatch, tmp_path, body):
    status, text = server.post("/api/v1/analyze", body)
    assert status == 200, text
    command = json.loads(text)["meta"]["command"]
    code, out, _ = cli(monkeypatch, shlex.split(command)[1:], texts_dir(tmp_path, body))
    assert code == 0 and text == out


PEEKS = {
    "the golden one-card sort": {"see": "P1", "classes": "6-9", "bets": ["player", "banker"]},
    "four cards, a depleted shoe, the house's side": {
        "shoe": {"decks": 8, "seen": ["9h", "8d"]}, "see": "first:4", "stake": "150000",
        "hands_per_shoe": 70, "tables": ["summary", "house"], "digits": 6,
    },
    "a search, rules": {"see": "P1", "search": "value", "top": 3, "rules": "banker-stands-on-6"},
}


@pytest.mark.parametrize("body", PEEKS.values(), ids=PEEKS.keys())
def test_peek_is_the_document_of_punto_banco_peek(server, monkeypatch, tmp_path, body):
    status, text = server.post("/api/v1/peek", body)
    assert status == 200, text
    command = json.loads(text)["meta"]["command"]
    assert command.startswith("punto-banco peek ")
    code, out, _ = cli(monkeypatch, shlex.split(command)[1:], texts_dir(tmp_path, body))
    assert code == 0 and text == out


def test_peek_of_a_bet_on_ranks_is_a_400(server):
    status, text = server.post("/api/v1/peek", {"bets": ["player-pair"]})
    assert status == 400 and "reads the ranks or suits" in json.loads(text)["error"]


DEALS = {
    "bets settled": {"cards": ["2", "4", "3", "10", "6", "A"], "bets": ["dragon-7", "banker"]},
    "suited, a stake": {
        "cards": ["Kh", "Ks", "9d", "9c", "5h"],
        "bets": ["perfect-pair", "tie"],
        "stake": "2.5",
    },
    "cards past the coup": {"cards": ["9s", "K", "2", "3", "7", "8"], "bets": ["panda-8"]},
    "bet file": {"cards": ["K", "10", "9", "9"], "bet_file": BET_FILE, "rules": "banker-stands-on-6"},
}


@pytest.mark.parametrize("body", DEALS.values(), ids=DEALS.keys())
def test_deal_tells_the_coup_as_punto_banco_deal(server, monkeypatch, tmp_path, body):
    status, text = server.post("/api/v1/deal", body)
    assert status == 200, text
    doc = json.loads(text)
    code, out, _ = cli(monkeypatch, shlex.split(doc["meta"]["command"])[1:], texts_dir(tmp_path, body))
    assert code == 0
    assert out == "\n".join(doc["lines"]) + "\n"
    assert doc["announcement"] == out.splitlines()[0]
    lines = out.splitlines()[len(out.splitlines()) - len(doc["settled"]) :]
    for settled, line in zip(doc["settled"], lines, strict=True):
        sign = "+" if Fraction(settled["net"]) > 0 else ""
        assert line.split()[0] == settled["bet_name"]
        net = amount_text(Fraction(settled["net"]))  # money as a decimal when exact, as deal shows it
        said = f"{settled['event']}: pays {settled['pays']} per unit, net {sign}{net}"
        assert line.endswith(said)


VERIFIES = {
    "csv with mistakes": ("examples/hands.csv", ["verify", "examples/hands.csv", "--format", "jsonl"], {}),
    "jsonl against 8 decks": (
        "examples/hands.jsonl",
        ["verify", "examples/hands.jsonl", "--decks", "8", "--format", "jsonl"],
        {"shoe": {"decks": 8}},
    ),
    "one deck, some reported": (
        "examples/hands.csv",
        ["verify", "examples/hands.csv", "--decks", "1", "--max-report", "6", "--format", "jsonl"],
        {"shoe": {"decks": 1}, "max_report": 6},
    ),
    "bets of a file": (
        "examples/file-bet-hands.csv",
        ["verify", "examples/file-bet-hands.csv", "--bet-file", "examples/bets.toml", "--format", "jsonl"],
        {"bet_file": BET_FILE},
    ),
}


@pytest.mark.parametrize(("log", "args", "extra"), VERIFIES.values(), ids=VERIFIES.keys())
def test_verify_finds_what_punto_banco_verify_finds(server, monkeypatch, log, args, extra):
    text = (ROOT / log).read_text(encoding="utf-8")
    body = {"log": text, "log_format": log.rsplit(".", 1)[1], **extra}
    status, answer = server.post("/api/v1/verify", body)
    assert status == 200, answer
    doc = json.loads(answer)
    code, out, err = cli(monkeypatch, args, ROOT)
    assert doc["findings"] == [json.loads(line) for line in out.splitlines()]
    assert doc["summary"] == err.strip().splitlines()[-1]
    assert doc["conforms"] is (code == 0) and doc["discrepancies"] >= len(doc["findings"])
    # each finding is the command's own line, byte for byte
    assert answer.split('"findings": [', 1)[1].removesuffix("]}\n") == ", ".join(out.splitlines())


def test_verify_reads_a_foreign_log_through_a_map_as_punto_banco_verify_map(server, monkeypatch):
    foreign = EXAMPLES / "foreign"
    text = (foreign / "table.csv").read_text(encoding="utf-8")
    body = {"log": text, "map": (foreign / "table.toml").read_text(encoding="utf-8"), "shoe": {"decks": 1}}
    status, answer = server.post("/api/v1/verify", body)  # the map gives no format: csv is said
    assert status == 400 and "give log_format" in one_line_error(answer)
    status, answer = server.post("/api/v1/verify", {**body, "log_format": "csv"})
    assert status == 200, answer
    doc = json.loads(answer)
    args = ["verify", "examples/foreign/table.csv", "--map", "examples/foreign/table.toml", "--decks", "1",
            "--format", "jsonl"]
    code, out, err = cli(monkeypatch, args, ROOT)
    assert code == 1 and doc["findings"] == [json.loads(line) for line in out.splitlines()]
    # how the log was read: the command's first line, the log and the map named as the request names them
    first = err.splitlines()[0]
    named = first.replace("examples/foreign/table.csv", "log").replace("examples/foreign/table.toml", "map")
    assert doc["read"] == named
    assert doc["read"].startswith("read log as CSV through map: cards from 'deal'")
    assert doc["summary"] == err.strip().splitlines()[-1]
    # a bad map is the command's one line, naming the field the map came in
    bad = {**body, "log_format": "csv", "map": '[fields]\ndeal = "card"'}
    status, answer = server.post("/api/v1/verify", bad)
    assert status == 400 and one_line_error(answer).startswith("map: fields.deal: 'card' is not a field")


def test_verify_says_how_a_plain_log_was_read(server):
    status, answer = server.post("/api/v1/verify", {"log": "cards\n2 4 3 10 6 A\n", "log_format": "csv"})
    assert status == 200 and json.loads(answer)["read"] == "read log as CSV (the hand-log format)"


def test_an_unreadable_log_is_a_400_with_the_commands_message(server, monkeypatch):
    text = (EXAMPLES / "broken-hands.csv").read_text(encoding="utf-8")
    status, answer = server.post("/api/v1/verify", {"log": text, "log_format": "csv"})
    code, _, err = cli(monkeypatch, ["verify", "examples/broken-hands.csv"], ROOT)
    assert status == 400 and code == 2
    assert "Error: " + json.loads(answer)["error"] == err.strip()


def test_catalogue_is_bets_list_json(server, monkeypatch):
    status, text = server.get("/api/v1/catalogue")
    code, out, _ = cli(monkeypatch, ["bets", "--list", "--format", "json"])
    assert status == 200 and code == 0 and text == out


@pytest.mark.parametrize("query, args", [
    ("pays=30,10,6,4,2,1", ["--pays", "30,10,6,4,2,1"]),
    ("pays=19%2F20&with_params=true", ["--pays", "19/20", "--with-params"]),
])
def test_catalogue_by_pays_is_bets_pays_json(server, monkeypatch, query, args):
    status, text = server.get(f"/api/v1/catalogue?{query}")
    code, out, _ = cli(monkeypatch, ["bets", *args, "--format", "json"])
    assert status == 200 and code == 0
    assert text == out  # byte for byte: the same command, the same document
    assert json.loads(text)["tables"][0]["name"] == "pay-match"


def test_rules_are_the_registered_rule_sets_with_their_toml(server, monkeypatch):
    status, text = server.get("/api/v1/rules")
    sets = json.loads(text)["rules"]
    _, listed, _ = cli(monkeypatch, ["rules", "--list"])
    assert status == 200
    assert [line.split()[0] for line in listed.splitlines()] == [s["name"] for s in sets]
    for s in sets:
        assert f"(fingerprint {s['fingerprint']})" in listed
        assert cli(monkeypatch, ["rules", s["name"], "--toml"])[1] == s["toml"]


def test_counts_are_the_published_count_systems(server):
    status, text = server.get("/api/v1/counts")
    doc = json.loads(text)
    assert status == 200 and doc["order"][0] == "A" and doc["order"][-1] == "10/J/Q/K"
    published = {name: tags for name, (_, tags) in PUBLISHED_TAGS.items()}
    assert {s["bet"]: tuple(s["tags"]) for s in doc["systems"]} == published


def test_vectors_metadata_holds_the_schema_the_command_writes(server, monkeypatch, tmp_path):
    status, text = server.get("/api/v1/vectors")
    doc = json.loads(text)
    kit = tmp_path / "kit"
    args = ["vectors", "-o", str(kit), "--bet", "tie", "--coups", "1", "--no-coverage"]
    code, _, _ = cli(monkeypatch, args)
    assert status == 200 and code == 0
    assert doc["schema"] == json.loads((kit / "schema.json").read_text(encoding="utf-8"))
    manifest = json.loads((kit / "MANIFEST.json").read_text(encoding="utf-8"))
    assert doc["format"] == manifest["format"] and doc["analyzer_version"] == manifest["analyzer_version"]
    assert doc["decks"] == manifest["decks"] and sorted([*manifest["files"], "MANIFEST.json"]) == doc["files"]


def test_openapi_document_describes_every_route(server):
    status, text = server.get("/openapi.json")
    doc = json.loads(text)
    assert status == 200 and doc["openapi"].startswith("3.")
    for path in ("price", "analyze", "deal", "verify"):
        assert "post" in doc["paths"][f"/api/v1/{path}"]
    for path in ("catalogue", "rules", "counts", "vectors", "health"):
        assert "get" in doc["paths"][f"/api/v1/{path}"]
    query = {p["name"] for p in doc["paths"]["/api/v1/catalogue"]["get"]["parameters"]}
    assert query == {"pays", "with_params"}
    assert {"pays", "with_params"} <= set(doc["components"]["schemas"]["PriceIn"]["properties"])
    assert "PriceIn" in doc["components"]["schemas"]


ANSWERS = {
    "price": ("POST", "/api/v1/price", {"bets": ["dragon-7"], "events": True, "fair_pay": True}, "TablesOut"),
    "analyze": ("POST", "/api/v1/analyze", {"tables": ["all"]}, "TablesOut"),
    "deal": ("POST", "/api/v1/deal", {"cards": "2 4 3 10 6 A", "bets": ["dragon-7"]}, "DealOut"),
    "verify": ("POST", "/api/v1/verify", {"log": "cards\n2 4 3 10 6 A\n", "log_format": "csv"}, "VerifyOut"),
    "catalogue": ("GET", "/api/v1/catalogue", None, "TablesOut"),
    "catalogue by pays": ("GET", "/api/v1/catalogue?pays=30,10,6,4,2,1", None, "TablesOut"),
    "rules": ("GET", "/api/v1/rules", None, "RulesOut"),
    "counts": ("GET", "/api/v1/counts", None, "CountsOut"),
    "vectors": ("GET", "/api/v1/vectors", None, "VectorsOut"),
    "health": ("GET", "/api/v1/health", None, "HealthOut"),
}


def test_every_answer_is_typed_in_the_openapi_document(server):
    # red team: every 200 response had the schema {} (generated clients got no models)
    doc = json.loads(server.get("/openapi.json")[1])
    for path, methods in doc["paths"].items():
        for method, op in methods.items():
            ok = op["responses"]["200"]["content"]["application/json"]["schema"]
            assert set(ok) == {"$ref"}, (method, path, ok)
            assert "408" in op["responses"] and "413" in op["responses"], (method, path)
    for method, path, _, model in ANSWERS.values():
        ref = doc["paths"][path.split("?")[0]][method.lower()]["responses"]["200"]["content"]
        assert ref["application/json"]["schema"]["$ref"].endswith(f"/{model}")


@pytest.mark.parametrize("route", ANSWERS, ids=ANSWERS.keys())
def test_every_answer_fits_its_model_field_for_field(server, route):
    from analyzer.web import models

    method, path, body, name = ANSWERS[route]
    if method == "POST":
        status, text = server.post(path, body)
    else:
        status, text = server.get(path)
    assert status == 200, text
    model = getattr(models, name)
    answer = json.loads(text)
    model.model_validate(answer)  # every field of the model is there, of its type
    fields = {f.alias or n for n, f in model.model_fields.items()}
    assert set(answer) == fields  # and nothing else: the model is the whole answer
    if name == "TablesOut" and answer["meta"]:
        assert set(answer["meta"]) == set(models.MetaOut.model_fields)
        for table in answer["tables"]:
            assert set(table) == set(models.TableOut.model_fields)
    if name == "DealOut":
        assert set(answer["settled"][0]) == set(models.SettledOut.model_fields)
    if name == "HealthOut":
        assert set(answer["limits"]) == set(models.LimitsOut.model_fields)


@pytest.mark.parametrize("cards", ["2 4 3 10 6 A", "2,4,3,10,6,A", " 2, 4 3 10 6 A "])
def test_deal_takes_the_cards_as_one_string_as_the_command_does(server, cards):
    as_list = json.loads(server.post("/api/v1/deal", {"cards": ["2", "4", "3", "10", "6", "A"]})[1])
    status, text = server.post("/api/v1/deal", {"cards": cards})
    assert status == 200, text
    assert json.loads(text) == as_list


def test_deal_of_a_string_naming_no_card_is_one_line(server):
    status, text = server.post("/api/v1/deal", {"cards": " , "})
    assert status == 400 and "names no card" in one_line_error(text)


# -- bad requests: one line of JSON, a 4xx, never a traceback -----------------------------------


def one_line_error(text: str) -> str:
    assert text.count("\n") <= 1 and "Traceback" not in text, text
    doc = json.loads(text)
    assert list(doc) == ["error"] and doc["error"] and "\n" not in doc["error"]
    return doc["error"]


BAD = {
    "bad card": ("/api/v1/price", {"shoe": {"seen": ["Z"]}}, 400, "bad card 'Z'"),
    "a bet file's bet named like a catalogue bet": (
        "/api/v1/price",
        {"bet_file": '[[bet]]\nname = "dragon\u20107"\n[[bet.pay]]\nwhen = { winner = "tie" }\npays = 8\n'},
        400,
        "U+2010 HYPHEN, and the name looks like 'dragon-7'",
    ),
    "an 81-digit count": (
        "/api/v1/price",
        {"shoe": {"counts": "8=" + "9" * 81}},
        400,
        "(81 characters) for card 8: a count has at most 80 digits",
    ),
    "card not in the shoe": (
        "/api/v1/price",
        {"shoe": {"counts": "8=2,K=3", "seen": ["5"]}},
        400,
        "cannot remove 5",
    ),
    "unknown bet": ("/api/v1/price", {"bets": ["dragon-8"]}, 400, "unknown bet 'dragon-8'"),
    "a bet file path": (
        "/api/v1/price",
        {"bets": ["examples/bets.toml:natural-tie"]},
        400,
        "names a file: send the bet file's TOML text as bet_file",
    ),
    "a bad target edge named as the request names it": (
        "/api/v1/price", {"bets": ["dragon-7"], "target_edge": "abc"}, 400, "bad target_edge 'abc'",
    ),
    "bad pays named as the request names them": ("/api/v1/price", {"pays": "x"}, 400, "in pays 'x'"),
    "a suited bet on a rank-only shoe, in words of no caller": (
        "/api/v1/price", {"bets": ["perfect-pair"], "shoe": {"counts": "8=20,K=30"}}, 400,
        "use a standard shoe (a number of decks), remove cards with their suits",
    ),
    "rules as a path": (
        "/api/v1/price",
        {"rules": "examples/rules/banker-stands-on-6.toml"},
        400,
        "unknown rules",
    ),
    "rules twice": ("/api/v1/price", {"rules": "standard", "rules_toml": RULES_TOML}, 400, "not both"),
    "bad bet file": ("/api/v1/price", {"bet_file": "[[bet]]\nname = 3\n"}, 400, "bet_file"),
    "suited bet, rank-only shoe": (
        "/api/v1/price",
        {"shoe": {"seen": ["K"]}, "bets": ["perfect-pair"]},
        400,
        "suit",
    ),
    "decks and counts": ("/api/v1/price", {"shoe": {"decks": 8, "counts": "8=2,K=3"}}, 400, "not both"),
    "unknown field": ("/api/v1/price", {"bet": ["tie"]}, 422, "bet: Extra inputs are not permitted"),
    "a string for a number": ("/api/v1/price", {"shoe": {"decks": "8"}}, 422, "shoe.decks"),
    "no decks": ("/api/v1/analyze", {"shoe": {"decks": 0}}, 422, "shoe.decks"),
    "unknown table": ("/api/v1/analyze", {"tables": ["odds"]}, 422, "tables.0"),
    "too few cards": ("/api/v1/deal", {"cards": ["2", "4", "3"]}, 400, ""),
    "bad stake": ("/api/v1/deal", {"cards": ["2", "4", "3", "10", "6", "A"], "stake": "-1"}, 400, "stake"),
    "suited bet, cards without suits": (
        "/api/v1/deal",
        {"cards": ["K", "K", "9", "9"], "bets": ["perfect-pair"]},
        400,
        "reads suits",
    ),
    "bad log format": ("/api/v1/verify", {"log": "cards\n", "log_format": "xml"}, 422, "log_format"),
    "bad pays": ("/api/v1/price", {"pays": "30,ten"}, 400, "bad pay in pays 'ten'"),
    "pays and bets": ("/api/v1/price", {"pays": "9", "bets": ["tie"]}, 400, "takes no bets"),
    "with_params alone": ("/api/v1/price", {"with_params": True}, 400, "add pays"),
    "pays as a number": ("/api/v1/price", {"pays": 9}, 422, "pays"),
}


@pytest.mark.parametrize(("path", "body", "status", "words"), BAD.values(), ids=BAD.keys())
def test_bad_input_is_one_line_of_json(server, path, body, status, words):
    got, text = server.post(path, body)
    assert got == status, text
    assert words in one_line_error(text)


def test_catalogue_by_bad_pays_is_one_line_of_json(server, monkeypatch):
    status, text = server.get("/api/v1/catalogue?pays=0")
    code, _, err = cli(monkeypatch, ["bets", "--pays", "0"])
    # the same message, naming the field as each caller names it
    assert status == 400 and code == 2
    assert "Error: " + one_line_error(text) == err.strip().replace("--pays", "pays")
    status, text = server.get("/api/v1/catalogue?pays=")
    assert status == 422 and "pays" in one_line_error(text)
    status, text = server.get("/api/v1/catalogue?with_params=true")
    assert status == 400 and "add pays" in one_line_error(text)


def test_malformed_json_routes_and_methods_are_one_line_errors(server):
    status, _, text = server.request("POST", "/api/v1/price", b"{bad", {"content-type": "application/json"})
    assert status == 422 and "not valid JSON" in one_line_error(text)
    status, _, text = server.request("GET", "/api/v1/nothing")
    assert status == 404 and "/api/v1/nothing" in one_line_error(text)
    status, _, text = server.request("GET", "/api/v1/price")
    assert status == 405 and one_line_error(text)


@pytest.mark.parametrize(
    ("body", "content_type", "status"),
    [
        (b"", "application/json", 422),
        (b'{"bets": ["tie"]}', "text/plain", 422),
        (b"[]", "application/json", 422),
        (b'{"bets": ["tie"]}', "", 200),
    ],
)
def test_the_post_routes_answer_any_body_as_fastapi_would(server, body, content_type, status):
    # the POST routes skip FastAPI's machinery for a JSON body; an empty body, or one that does
    # not say it is JSON, is left to FastAPI: either way one line of JSON
    headers = {"content-type": content_type} if content_type else {}
    got, _, text = server.request("POST", "/api/v1/price", body, headers)
    assert got == status, text
    if status != 200:
        one_line_error(text)


def test_a_body_over_the_limit_is_413_before_it_is_read(server):
    huge = b'{"bet_file": "' + b"#" * 1_100_000 + b'"}'
    status, _, text = server.request("POST", "/api/v1/price", huge, {"content-type": "application/json"})
    assert status == 413 and "1,000,000 bytes" in one_line_error(text)


def test_a_chunked_body_over_the_limit_is_413_too(server):
    import http.client

    connection = http.client.HTTPConnection(server.host, server.port, timeout=60)
    chunks = (b"#" * 100_000 for _ in range(12))
    connection.request(
        "POST",
        "/api/v1/price",
        body=chunks,
        headers={"content-type": "application/json"},
        encode_chunked=True,
    )
    response = connection.getresponse()
    assert response.status == 413 and one_line_error(response.read().decode())
    connection.close()


def test_a_host_header_naming_another_site_is_refused(server):
    # a page elsewhere that rebinds its name to 127.0.0.1 must not reach the service
    status, _, text = server.request("GET", "/api/v1/health", headers={"host": "attacker.example"})
    assert status == 400 and "Host" in one_line_error(text)
    assert server.request("GET", "/api/v1/health", headers={"host": f"localhost:{server.port}"})[0] == 200


@pytest.mark.parametrize("host", ["[::1]", "[::1]:{port}", "127.0.0.1:{port}", "LOCALHOST"])
def test_a_loopback_host_header_is_accepted(server, host):
    status, _, text = server.request("GET", "/api/v1/health", headers={"host": host.format(port=server.port)})
    assert status == 200, text


@pytest.mark.parametrize(
    "host", ["[::1].evil.example", "[::1]evil", "[::1]:80:80", "[::1", "::1", "localhost.evil.example", ""]
)
def test_a_host_header_that_only_starts_like_loopback_is_refused(server, host):
    # red team: "[::1].evil.example" and "[::1]evil" were taken for [::1]
    status, _, text = server.request("GET", "/api/v1/health", headers={"host": host})
    assert status == 400 and "bad Host header" in one_line_error(text)


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b'{"shoe": ' + b"[" * 3000 + b"]" * 3000 + b"}", "nested more than 32 levels deep"),
        (b'{"shoe": ' + b"[" * 40 + b"]" * 40 + b"}", "nested more than 32 levels deep"),
        (b'{"digits": ' + b"9" * 4400 + b"}", "a number in the JSON body has more than 4,300 digits"),
    ],
    ids=["3000 deep", "41 deep", "4400 digits"],
)
def test_a_body_too_deep_or_with_too_long_a_number_is_named(server, body, words):
    # red team: FastAPI's generic "There was an error parsing the body"
    status, _, text = server.request("POST", "/api/v1/price", body, {"content-type": "application/json"})
    assert status == 400 and words in one_line_error(text)


FOUR_MB = b'{"bet_file": "' + b"#" * 4_000_000 + b'"}'


def _urllib_post(url):
    import urllib.error
    import urllib.request

    request = urllib.request.Request(f"{url}api/v1/price", FOUR_MB, {"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def _requests_post(url):
    import requests

    answer = requests.post(f"{url}api/v1/price", data=FOUR_MB, headers={"content-type": "application/json"},
                           timeout=120)
    return answer.status_code, answer.text


def _curl_post(url, tmp_path):
    body = tmp_path / "body.json"
    body.write_bytes(FOUR_MB)
    done = subprocess.run(
        ["curl", "-sS", "-H", "content-type: application/json", "--data-binary", f"@{body}",
         "-w", "\n%{http_code}", f"{url}api/v1/price"],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    text, _, code = done.stdout.rpartition("\n")
    return int(code), text


@pytest.mark.parametrize("client", ["urllib", "requests", "curl"])
def test_an_ordinary_client_sending_4_mb_reads_the_413(server, client, tmp_path):
    # red team: "connection reset by peer": the server answered and closed before reading
    if client == "curl" and shutil.which("curl") is None:
        pytest.skip("curl is not installed")
    posts = {"urllib": _urllib_post, "requests": _requests_post, "curl": lambda u: _curl_post(u, tmp_path)}
    post = posts[client]
    status, text = post(server.url)
    assert status == 413 and "1,000,000 bytes" in one_line_error(text)


def test_answers_carry_the_security_headers(server):
    status, headers, _ = server.request("GET", "/")
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff" and headers["cache-control"] == "no-store"


def test_too_many_bets_are_refused_before_any_work():
    bets = [find_bet(n) for n in ("tie", "dragon-7", "panda-8")]
    with pytest.raises(WorkLimitError, match="limit of 2"):
        check_work(bets, None, STANDARD, Limits(max_bets=2))
    check_work(bets, None, STANDARD, Limits(max_bets=3))


def test_a_bet_file_beyond_the_compile_budget_is_refused_in_one_line(monkeypatch):
    # a worker sets the engine's compile budget to the server's --max-records: a bet file whose
    # table would settle more records is refused (422, one line naming the bet)
    # (in this process: what start_worker changes is put back after the test)
    monkeypatch.setenv(MAX_RECORDS_ENV, "unset")  # recorded, so the teardown restores it
    monkeypatch.setattr(jobs.signal, "signal", lambda *_: None)
    monkeypatch.setattr(jobs, "_LIMITS", list(jobs._LIMITS))
    monkeypatch.setattr(jobs, "warm_up", lambda: None)
    jobs.start_worker(Limits(max_records=500))
    assert os.environ[MAX_RECORDS_ENV] == "500"
    body = {"bet_file": '[[bet]]\nname = "colour-all"\n[[bet.pay]]\n'
                        'when = { all_cards = { count_colour = { colour = "red", at_least = 3 } } }\n'
                        'pays = 20\n'}  # each card's colour: a table of many records
    monkeypatch.setenv("PUNTO_BANCO_CACHE_DIR", "off")
    reply = jobs.run_job("price", body)
    assert reply.status == 422, reply
    doc = json.loads(reply.body)
    assert "'colour-all'" in doc["error"] and "500 settled records" in doc["error"]
    assert "\n" not in doc["error"]


def test_a_request_bringing_rules_or_bets_compiles_within_its_compile_seconds():
    # red team: rules_toml with all: true compiled about 29 s before answering, and a bet file
    # over the compile budget was refused only after 27 s and 194 MB
    rules = RULES_TOML.replace('name = "banker-draws-on-6-against-5"', 'name = "compile-clock"').replace(
        "\n4 = [2, 3, 4, 5, 6, 7]\n", "\n4 = [3, 4, 5, 6, 7]\n"
    )
    assert rules != RULES_TOML
    colour = ('[[bet]]\nname = "colour-all"\n[[bet.pay]]\n'
              'when = { all_cards = { count_colour = { colour = "red", at_least = 3 } } }\npays = 20\n')
    with Server("--workers", "1", "--max-compile-seconds", "0.5") as running:
        for body in ({"rules_toml": rules, "all": True}, {"bet_file": colour}):
            status, text = running.post("/api/v1/price", body)
            assert status == 422, text
            assert "need more than 0.5 s to compile" in one_line_error(text)
            assert "--max-compile-seconds" in one_line_error(text)
        status, text = running.post("/api/v1/price", {"rules": "banker-stands-on-6", "bets": ["tie"]})
        assert status == 200, text  # a registered rule set is not on the clock


def test_health_reports_the_limits(server):
    status, text = server.get("/api/v1/health")
    doc = json.loads(text)
    assert status == 200 and doc["status"] == "ok" and doc["limits"]["workers"] == 1


# -- calling the service from another language's test suite (docs/web.md) ------------------------

NODE = shutil.which("node")
ORACLE_TEST = EXAMPLES / "web" / "oracle.test.mjs"


def _node_test(server, path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [NODE, "--test", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PUNTO_BANCO_URL": server.url},
    )


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@pytest.mark.skipif(address_space_limited(), reason=LIMITED_REASON)
def test_the_node_example_passes_against_the_service(server):
    done = _node_test(server, ORACLE_TEST)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "# pass 3" in done.stdout and "# fail 0" in done.stdout


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@pytest.mark.skipif(address_space_limited(), reason=LIMITED_REASON)
def test_the_node_example_catches_an_engine_bug(server, tmp_path):
    # the stub with a classic bug: the Banker draws on 3 when the Player's third card is 8
    source = ORACLE_TEST.read_text(encoding="utf-8")
    buggy = source.replace("(banker === 3 && third !== 8)", "banker === 3")
    assert buggy != source
    copy = tmp_path / "buggy.test.mjs"
    copy.write_text(buggy, encoding="utf-8")
    done = _node_test(server, copy)
    assert done.returncode != 0 and "# fail 1" in done.stdout
    assert "coup 3 3 2 0 8 4" in done.stdout


# -- the manual's examples of the service are real (docs/web.md) ---------------------------------


def _serve_section() -> str:
    return (ROOT / "docs" / "web.md").read_text(encoding="utf-8")


def test_the_manual_python_client_prints_what_the_manual_says(server, capsys):
    section = _serve_section()
    code, shown = re.search(r"```python\n(.*?)```\n\n```text\n(.*?)```", section, re.S).groups()
    assert 'url="http://127.0.0.1:8750"' in code
    exec(code.replace("http://127.0.0.1:8750", server.url.rstrip("/")), {})
    assert capsys.readouterr().out == shown


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_the_manual_curl_example_gets_the_price(server):
    command = re.search(r"```sh\n(curl .*?)\n```", _serve_section(), re.S).group(1)
    command = command.replace("http://127.0.0.1:8750", server.url.rstrip("/"))
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=60)
    body = json.loads(re.search(r"-d '(.*)'", command).group(1))
    assert done.returncode == 0 and done.stdout == server.post("/api/v1/price", body)[1]


def test_the_manual_quotes_the_load_test_as_the_benchmark_prints_it():
    block = re.search(
        r"\$ \.venv/bin/python benchmarks/bench_web\.py\n(.*?)```", _serve_section(), re.S
    ).group(1)
    lines = block.splitlines()
    assert lines[0] == "clients 16 x requests 50 = 800 requests; server workers 2"
    assert lines[1] == "errors 0"
    assert re.fullmatch(r"latency p50 [\d.]+ ms, p99 [\d.]+ ms, max [\d.]+ ms", lines[2])
    assert re.fullmatch(r"throughput [\d.]+ requests/s over [\d.]+ s wall", lines[3])
    assert lines[-1] == "server stopped by SIGTERM: exit code 143"


@pytest.mark.parametrize("job, body, message", [
    ("price", {"shoe": {"decks": 8, "counts": "8=2"}}, "give shoe.decks or shoe.counts, not both"),
    ("analyze", {"shoe": {"seen": ["K"], "remove": "K"}},
     "give shoe.seen (cards) or shoe.remove (cards or counts as text), not both"),
    ("peek", {"shoe": {"remove": " , "}, "bets": ["tie"]},
     "shoe.remove ' , ' names no card: give the cards to take out, e.g. 'K 5h'"),
    ("price", {"shoe": {"remove": "5=0"}},
     "shoe.remove '5=0' removes no card: give a count above 0, e.g. 5=20"),
    ("deal", {"cards": "2 4 3 10", "rules": "nonesuch"},
     "unknown rules 'nonesuch': known rule sets are " + ", ".join(TABLEAUX) + "; or send a TOML rules text "
     "as rules_toml"),
    ("verify", {"log": "", "log_format": "csv", "rules": "standard", "rules_toml": RULES_TOML},
     "give rules (a rule-set name) or rules_toml (a TOML rules text), not both"),
])
def test_every_job_reads_its_shoe_and_rules_with_the_same_one_line_errors(job, body, message):
    # the reader the command line uses (analyzer.core.inputs), its messages naming the fields
    reply = jobs.run_job(job, body)
    assert reply == (400, json.dumps({"error": message}))


@pytest.mark.parametrize("job, extra", [
    ("price", {}),
    ("price", {"events": True, "fair_pay": True}),
    ("deal", {"cards": "2 4 3 10 6 A"}),
    ("peek", {}),
    ("verify", {"log": "cards\n2 4 3 10 6 A\n", "log_format": "csv"}),
])
def test_a_request_builds_each_of_its_bets_once(monkeypatch, job, extra):
    # the issue: the service chose a request's bets two or three times (each catalogue spec
    # built again, the bet file's text parsed again); now once, and not again for the same bets
    from analyzer.bets import choice

    built: list[str] = []
    parsed: list[str] = []
    find_bet, parse_bets = choice.find_bet, choice.parse_bets
    monkeypatch.setattr(choice, "find_bet", lambda spec: built.append(spec) or find_bet(spec))
    monkeypatch.setattr(choice, "parse_bets", lambda text, *a: parsed.append(text) or parse_bets(text, *a))
    monkeypatch.setattr(jobs, "_CHOSEN", type(jobs._CHOSEN)())
    choice.catalogue_bet.cache_clear()
    specs = ["tie", "dragon-7"] if job != "peek" else ["tie", "banker"]
    body = {"bets": specs, "bet_file": BET_FILE if job != "peek" else None, **extra}
    reply = jobs.run_job(job, {k: v for k, v in body.items() if v is not None})
    assert reply.status == 200, reply
    assert sorted(built) == sorted(specs)
    assert len(parsed) == (job != "peek")
    jobs.run_job(job, {k: v for k, v in body.items() if v is not None})  # the same bets again
    assert sorted(built) == sorted(specs) and len(parsed) == (job != "peek")


def test_every_bet_on_a_shoe_without_suits_chooses_the_bets_once(monkeypatch):
    # all on a shoe without suits leaves out the suited bets not named: the named ones are the
    # choice's own (Choice.named), not chosen a second time (the bet file's text parsed again)
    from analyzer.bets import choice

    parsed: list[str] = []
    parse_bets = choice.parse_bets
    monkeypatch.setattr(choice, "parse_bets", lambda text, *a: parsed.append(text) or parse_bets(text, *a))
    monkeypatch.setattr(jobs, "_CHOSEN", type(jobs._CHOSEN)())
    reply = jobs.run_job("price", {"all": True, "shoe": {"counts": "32," * 12 + "128"}, "bet_file": BET_FILE})
    assert reply.status == 200, reply
    assert len(parsed) == 1
    table = json.loads(reply.body)["tables"][0]
    priced = {row["bet_name"] for row in table["rows"]}
    assert {"banker-three-card-6", "natural-tie", "pair-and-win"} <= priced  # named: priced
    assert "perfect-pair" not in priced
    assert any(note.startswith("Not priced: perfect-pair") for note in table["notes"])


def test_an_analysis_builds_no_bet(monkeypatch):
    from analyzer.bets import choice

    built: list[str] = []
    find_bet = choice.find_bet
    monkeypatch.setattr(choice, "find_bet", lambda spec: built.append(spec) or find_bet(spec))
    choice.catalogue_bet.cache_clear()
    assert jobs.run_job("analyze", {"shoe": {"decks": 6}}).status == 200
    assert built == []
