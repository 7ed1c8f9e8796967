"""`punto-banco vectors`: the test-vector kit for engines in other languages agrees with the
analyser's own paths (resolve, the oracle, analyze / price), is described by its schema and
manifest, is byte-for-byte reproducible, and refuses bad input in one line."""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from clirun import invoke

from analyzer import __version__
from analyzer.bets.catalogue import catalogue_bets, find_bet
from analyzer.checks.coverage import kit_shoe_cards as shoe_cards
from analyzer.checks.coverage import seeded_coups, value_coups
from analyzer.checks.oracle import assert_payout
from analyzer.checks.vector_kit import KitData
from analyzer.core.cards import RANKS, Card, Rank
from analyzer.core.coup import resolve
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import STANDARD, find_tableau
from analyzer.engine.pricing import analyze, price
from analyzer.engine.walk import leaf_count
from analyzer.errors import OutputError
from analyzer.output.vectors import COUP_FIELDS, KEYED_FIELDS, KIT_FORMAT, KitOptions, card_code, kit_files

ROOT = Path(__file__).resolve().parent.parent
LOADER = ROOT / "examples" / "vectors" / "check_coups.test.mjs"
PY_LOADER = ROOT / "examples" / "vectors" / "check_settlements.py"
#: A small kit: value bets, a combined wager, pair and suited bets (the default is every
#: catalogue bet, which compiles for about a minute the first time: the slow test below).
BETS = (
    "banker",
    "tie:9",
    "tie+player",
    "player-pair",
    "perfect-pair:2",
    "dragon-bonus-player",
    "big",
    "egalite:5",
    "dragon-7",
)
COUPS = 150
SEED = 7
ARGS = ["--seed", str(SEED), "--coups", str(COUPS), *[a for b in BETS for a in ("--bet", b)]]
#: RULES.md, "Counting conventions": 8 decks.
PUBLISHED_8 = {"banker": 2_292_252_566_437_888, "player": 2_230_518_282_592_256, "tie": 475_627_426_473_216}


def run(*args: str):
    return invoke("vectors", *args)


@pytest.fixture(scope="module")
def kit(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("kit") / "vectors"
    result = run("-o", str(folder), *ARGS)
    assert result.exit_code == 0, result.output
    assert "wrote 10 files" in result.output and "golden.jsonl" in result.output
    return folder


@pytest.fixture(scope="module")
def coups(kit) -> tuple[list, list]:
    """coups.jsonl, parsed once: (its header line, its records)."""
    header, *rows = _jsonl(kit / "coups.jsonl")
    return header, rows


def _jsonl(path: Path) -> list:
    with open(path, encoding="utf-8") as fh:  # line by line: the file's text is never held whole
        return [json.loads(line) for line in fh]


def _csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _cards_of_values(values: list[int], n: int) -> list[Card]:
    """Cards of the given point values; value 0 as 10, J, Q or K in turn (any gives the coup)."""
    tens = (Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING)
    return [Card(tens[(n + i) % 4] if v == 0 else RANKS[v - 1]) for i, v in enumerate(values)]


# -- coups ------------------------------------------------------------------------------------------


def test_coups_are_every_leaf_of_the_value_level_tree(coups):
    header, rows = coups
    assert header == list(COUP_FIELDS)
    assert len(rows) == leaf_count(STANDARD) == 339_400
    assert len({tuple(r[0]) for r in rows}) == len(rows)  # distinct value sequences
    assert {tuple(r[0][:4]) for r in rows} == {
        (a, b, c, d) for a in range(10) for b in range(10) for c in range(10) for d in range(10)
    }


@pytest.mark.parametrize("full", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["sample", "all"])
def test_every_coup_record_is_what_resolve_makes_of_it(coups, full):
    _, rows = coups
    step = 1 if full else 29
    for n, (cards, pt, bt, pd, bd, winner, used, naturals) in enumerate(rows[::step]):
        coup = resolve(_cards_of_values(cards, n))  # exactly the cards used: one short would raise
        got = (
            coup.player_total,
            coup.banker_total,
            coup.player_drew,
            coup.banker_drew,
            coup.winner.value,
            coup.cards_dealt,
            coup.naturals,
        )
        assert got == (pt, bt, pd, bd, winner, used, naturals), cards
        assert used == len(cards)


def test_coups_csv_holds_the_same_records(kit, coups):
    _, rows = coups
    table, count = [], 0
    with open(kit / "coups.csv", newline="", encoding="utf-8") as fh:  # streamed: 339,400 rows
        for count, row in enumerate(csv.DictReader(fh), 1):
            if count % 37 == 1:
                table.append(row)
    assert count == len(rows)
    for row, rec in zip(table, rows[::37], strict=True):
        assert [int(v) for v in row["cards"].split(" ")] == rec[0]
        assert (int(row["player_total"]), int(row["banker_total"])) == (rec[1], rec[2])
        assert (row["player_draws"], row["banker_draws"]) == (str(rec[3]).lower(), str(rec[4]).lower())
        assert (row["winner"], int(row["cards_used"]), row["naturals"]) == (rec[5], rec[6], rec[7])


def test_value_coups_follow_a_non_standard_tableau():
    rules = find_tableau("banker-stands-on-6")
    coups = list(value_coups(rules))
    assert len(coups) == leaf_count(rules)
    for n, c in enumerate(coups[::53]):
        coup = resolve(_cards_of_values(list(c.cards), n), rules)
        assert (coup.banker_drew, coup.winner.value, coup.cards_dealt) == (
            c.banker_draws,
            c.winner,
            len(c.cards),
        )


# -- settlements ----------------------------------------------------------------------------------


def test_settlements_are_what_the_oracle_settles(kit):
    rows = _jsonl(kit / "settlements.jsonl")
    assert [r["coup"] for r in rows] == list(range(len(rows)))
    assert [r["kind"] for r in rows] == ["seeded"] * COUPS + ["coverage"] * (len(rows) - COUPS)
    assert [r["cards"] for r in rows[:COUPS]] == [
        [card_code(c) for c in cs] for cs in seeded_coups(SEED, COUPS)
    ]
    for row in rows:
        cards = " ".join(row["cards"])
        assert len(row["cards"]) == 6 and resolve(cards).cards_dealt == row["cards_used"]
        assert list(row["results"]) == list(BETS)
        for bet, result in row["results"].items():
            # assert_payout raises AssertionError, naming the pay-table line, on a wrong amount
            assert assert_payout(bet, cards, 1, result["net"]) == Fraction(result["net"])
            assert find_bet(bet).settle(resolve(cards))[0] == result["event"]


def test_settlement_coups_settle_every_event_possible_on_8_decks(kit):
    rows = _jsonl(kit / "settlements.jsonl")
    seen = {(bet, r["event"]) for row in rows for bet, r in row["results"].items()}
    possible = {
        (bet.name, e.event)
        for bet in map(find_bet, BETS)
        for e in price(bet, Shoe.standard(8)).events
        if e.count
    }
    assert seen == possible  # the coverage coups add what the seeded ones missed
    coverage = json.loads((kit / "MANIFEST.json").read_text())["coverage"]
    assert coverage["not_found"] == {} and coverage["coups"] == len(rows) - COUPS > 0
    assert ("perfect-pair:2", "Both sides suited pairs") in seen


def test_coverage_rows_reach_every_event_in_every_possible_class(kit):
    from analyzer.checks.coverage import possible_targets

    rows = _jsonl(kit / "settlements.jsonl")
    reached = {
        (bet, row["results"][bet]["event"], case)
        for row in rows
        if row["kind"] == "coverage"
        for bet, cases in row["covers"].items()
        for case in cases
    }
    wanted = {tuple(t) for bet in BETS for t in possible_targets(find_bet(bet)).possible}
    assert reached == wanted and len(wanted) > 100
    assert ("player-pair", "Player pair", "deal: Player drew, Banker drew") in reached  # a pair, then a draw
    unsuited_pair = ("perfect-pair:2", "Loss", "ranks of Player's first two cards: ranks 2")
    assert unsuited_pair in reached
    assert all(not row["covers"] for row in rows if row["kind"] == "seeded")
    coverage = json.loads((kit / "MANIFEST.json").read_text())["coverage"]
    assert coverage["not_found"] == {} and coverage["targets"] == len(wanted)
    stood = "Banker wins with 3-card 7 | deal: Player stood, Banker stood"
    assert stood in coverage["impossible"]["dragon-7"]


def test_settlements_csv_holds_the_same_results(kit):
    rows = _jsonl(kit / "settlements.jsonl")
    table = _csv(kit / "settlements.csv")
    assert len(table) == len(rows) * len(BETS)
    flat = [
        (
            str(r["coup"]),
            r["kind"],
            " ".join(r["cards"]),
            str(r["cards_used"]),
            bet,
            res["event"],
            res["net"],
            " | ".join(r["covers"].get(bet, ())),
        )
        for r in rows
        for bet, res in r["results"].items()
    ]
    assert [tuple(t.values()) for t in table] == flat


def test_the_seeded_generator_is_pinned():
    # Golden vectors: a port of the generator (MANIFEST.json, "generator") must give these.
    coups = seeded_coups(1, 2)
    assert [card_code(c) for c in coups[0]] == ["8s", "Jd", "Ks", "Ks", "Js", "2h"]
    assert [card_code(c) for c in coups[1]] == ["3s", "3c", "Ks", "6d", "4s", "9h"]
    u = int.from_bytes(hashlib.sha256(b"punto-banco-vectors 1 0 0 0").digest()[:8], "big")
    assert shoe_cards()[u % 416] == coups[0][0]  # the first draw, by hand


# -- keyed records -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def keyed_kit(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("keyed") / "vectors"
    result = run("-o", str(folder), "--keyed", "--format", "jsonl", *ARGS)
    assert result.exit_code == 0, result.output
    return folder


def test_keyed_coups_are_the_positional_records_by_name(keyed_kit, coups):
    header, rows = coups
    with open(keyed_kit / "coups.jsonl", encoding="utf-8") as fh:
        keyed = [json.loads(line) for n, line in enumerate(fh) if n % 97 == 0]
    assert len(keyed) == len(rows[::97])
    for rec, row in zip(keyed, rows[::97], strict=True):
        assert list(rec) == [name for name, _, _ in KEYED_FIELDS["coups"]]
        assert {k: rec[k] for k in header} == dict(zip(header, row, strict=True))
        coup = resolve(_cards_of_values(rec["cards"], 0))
        assert rec["player"] == [c.card.rank.point for c in coup.player]
        assert rec["banker"] == [c.card.rank.point for c in coup.banker]


def test_keyed_settlements_are_hand_log_records_verify_accepts(keyed_kit, kit):
    rows = _jsonl(kit / "settlements.jsonl")
    keyed = _jsonl(keyed_kit / "settlements.jsonl")
    assert len(keyed) == len(rows)
    for rec, row in zip(keyed, rows, strict=True):
        assert list(rec) == [name for name, _, _ in KEYED_FIELDS["settlements"]]
        assert rec["cards"] + rec["spare"] == row["cards"] and len(rec["cards"]) == row["cards_used"]
        coup = resolve(" ".join(rec["cards"]))
        assert (rec["player_draws"], rec["banker_draws"]) == (coup.player_drew, coup.banker_drew)
        assert rec["bets"] == {b: r["net"] for b, r in row["results"].items()}
        assert rec["events"] == {b: r["event"] for b, r in row["results"].items()}
        assert rec["covers"] == row["covers"] and (rec["coup"], rec["kind"]) == (row["coup"], row["kind"])
    # read as a hand log: hands, totals, winner and every bet's amount on a stake of 1
    checked = invoke("verify", str(keyed_kit / "settlements.jsonl"))
    assert checked.exit_code == 0, checked.output
    assert f"verified {len(rows)} coups ({len(rows)} records): all conform" in checked.output
    manifest = json.loads((keyed_kit / "MANIFEST.json").read_text())
    assert manifest["keyed"] is True and "--keyed" in manifest["regenerate"]


def test_keyed_records_follow_schema_json(keyed_kit):
    schema = json.loads((keyed_kit / "schema.json").read_text())
    for name in ("coups.jsonl", "settlements.jsonl"):
        spec = schema["files"][name]
        assert "header" not in spec and spec["record"]["type"] == "object"
        with open(keyed_kit / name, encoding="utf-8") as fh:
            for n, line in enumerate(fh):
                if n % 211 == 0:
                    _check(json.loads(line), spec["record"], f"{name}:{n}")


def test_keyed_needs_json_lines(tmp_path):
    _one_line_exit_2(run("-o", str(tmp_path / "kit"), "--keyed", "--format", "csv"), "--keyed")
    assert not (tmp_path / "kit").exists()


# -- probabilities -------------------------------------------------------------------------------


def test_golden_counts_are_the_tests_own_and_the_kit_s_probabilities_reach_them(kit):
    # the golden counts the analyser's tests hold it to (analyzer/bets/golden-counts.toml), cited,
    # and the kit's own probability rows give each of them
    from analyzer.bets.catalogue import golden_counts

    rows = _jsonl(kit / "golden.jsonl")
    expected = [(g.bet, g.decks, e, n, g.source)
                for g in golden_counts() if g.bet in BETS for e, n in g.events.items()]
    assert [(r["bet"], r["decks"], r["event"], r["count"], r["source"]) for r in rows] == expected
    assert {r["bet"] for r in rows} == {"dragon-bonus-player", "egalite:5", "dragon-7"}
    probabilities = {(r["bet"], r["decks"], r["event"]): r for r in _jsonl(kit / "probabilities.jsonl")}
    for r in rows:
        mine = probabilities[(r["bet"], r["decks"], r["event"])]
        assert (mine["count"], mine["denominator"]) == (r["count"], r["denominator"])
    assert [dict(r, decks=str(r["decks"]), count=str(r["count"]), denominator=str(r["denominator"]))
            for r in rows] == _csv(kit / "golden.csv")


def test_probabilities_are_the_analysers_fractions(kit):
    rows = _jsonl(kit / "probabilities.jsonl")
    bets = [find_bet(b) for b in BETS]
    assert {r["decks"] for r in rows} == set(range(1, 9))
    for decks in range(1, 9):
        mine = [r for r in rows if r["decks"] == decks]
        a = analyze(Shoe.standard(decks), bets)
        for r in mine:
            p = Fraction(r["probability"])
            assert p == Fraction(r["count"], r["denominator"]) and r["decimal"] == float(p)
            assert r["denominator"] == a.denominator and r["rules"] == "standard"
        winner = {r["event"]: r["count"] for r in mine if r["table"] == "winner"}
        assert winner == {k.lower(): v for k, v in a.outcome_counts.items()}
        totals = {r["event"]: r["count"] for r in mine if r["table"] == "totals"}
        assert len(totals) == 100
        assert all(
            totals[f"player_total={p},banker_total={b}"] == a.totals[p][b]
            for p in range(10)
            for b in range(10)
        )
        cards = {int(r["event"]): r["count"] for r in mine if r["table"] == "cards_dealt"}
        assert cards == a.cards_dealt
        naturals = [r["count"] for r in mine if r["table"] == "naturals"]
        assert naturals == list(a.naturals.values()) and sum(naturals) == a.denominator
        for bet in bets:
            events = [
                (r["event"], Fraction(r["pays"]), Fraction(r["probability"]))
                for r in mine
                if r["bet"] == bet.name
            ]
            summary = price(bet, Shoe.standard(decks))
            assert events == [(e.event, e.pays, e.probability) for e in summary.events], bet.name
            assert sum(p * pays for _, pays, p in events) == summary.ev
    eight = {r["event"]: r["count"] for r in rows if r["decks"] == 8 and r["table"] == "winner"}
    assert eight == PUBLISHED_8


def test_probabilities_csv_holds_the_same_rows(kit):
    rows = _jsonl(kit / "probabilities.jsonl")
    table = _csv(kit / "probabilities.csv")
    assert len(table) == len(rows)
    for t, r in zip(table, rows, strict=True):
        assert t["bet"] == (r["bet"] or "") and t["pays"] == (r["pays"] or "")
        assert (int(t["count"]), int(t["denominator"]), t["probability"]) == (
            r["count"],
            r["denominator"],
            r["probability"],
        )
        assert float(t["decimal"]) == r["decimal"]


# -- schema and manifest ---------------------------------------------------------------------------


def _check(value, schema, where="") -> None:
    """A small validator for the JSON Schema keywords schema.json uses."""
    types = schema.get("type")
    if types is not None:
        kinds = {
            "string": str,
            "integer": int,
            "number": (int, float),
            "boolean": bool,
            "array": list,
            "object": dict,
            "null": type(None),
        }
        names = types if isinstance(types, list) else [types]
        ok = any(
            isinstance(value, kinds[n]) and not (n in ("integer", "number") and isinstance(value, bool))
            for n in names
        )
        assert ok, f"{where}: {value!r} is not {types}"
    if "enum" in schema:
        assert value in schema["enum"], where
    if "minimum" in schema:
        assert value >= schema["minimum"], where
    if "maximum" in schema:
        assert value <= schema["maximum"], where
    if "pattern" in schema:
        assert re.search(schema["pattern"], value), where
    if isinstance(value, dict):
        assert set(schema.get("required", ())) <= set(value), where
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in props:
                _check(item, props[key], f"{where}.{key}")
            else:
                assert extra is not False, f"{where}: unexpected {key}"
                if isinstance(extra, dict):
                    _check(item, extra, f"{where}.{key}")
    if isinstance(value, list):
        prefix = schema.get("prefixItems", [])
        assert len(value) >= schema.get("minItems", 0) and len(value) <= schema.get("maxItems", len(value))
        for i, item in enumerate(value):
            if i < len(prefix):
                _check(item, prefix[i], f"{where}[{i}]")
            elif schema.get("items") is False:
                raise AssertionError(f"{where}: more items than prefixItems")
            elif isinstance(schema.get("items"), dict):
                _check(item, schema["items"], f"{where}[{i}]")


def test_every_record_follows_schema_json(kit, coups):
    schema = json.loads((kit / "schema.json").read_text())
    assert schema["format"] == KIT_FORMAT
    assert set(schema["files"]) == {p.name for p in kit.iterdir()} - {"schema.json"}
    for name, spec in schema["files"].items():
        path = kit / name
        if name == "MANIFEST.json":
            _check(json.loads(path.read_text()), spec["record"], name)
        elif name.endswith(".jsonl"):
            if "header" in spec:
                assert coups[0] == spec["header"]
                records = coups[1]
            else:
                records = _jsonl(path)
            for n, record in enumerate(records[:: 1 if len(records) < 10_000 else 41]):
                _check(record, spec["record"], f"{name}:{n}")
        else:
            with open(path, newline="", encoding="utf-8") as fh:
                assert next(csv.reader(fh)) == [c["name"] for c in spec["columns"]], name
            assert all(c["description"] for c in spec["columns"])


def test_the_manifest_names_the_version_rules_seed_and_every_checksum(kit):
    manifest = json.loads((kit / "MANIFEST.json").read_text())
    assert manifest["format"] == KIT_FORMAT and manifest["analyzer_version"] == __version__
    assert manifest["rules"] == {
        "name": "standard",
        "title": STANDARD.title,
        "fingerprint": STANDARD.fingerprint,
    }
    assert (manifest["seed"], manifest["coups"], manifest["bets"]) == (SEED, COUPS, list(BETS))
    assert manifest["decks"] == list(range(1, 9))
    assert set(manifest["files"]) == {p.name for p in kit.iterdir()} - {"MANIFEST.json"}
    for name, entry in manifest["files"].items():
        data = (kit / name).read_bytes()
        assert entry["sha256"] == hashlib.sha256(data).hexdigest() and entry["bytes"] == len(data)
        if name.endswith((".csv", ".jsonl")):
            header = name == "coups.jsonl" or name.endswith(".csv")
            assert entry["records"] == data.count(b"\n") - header, name
    assert manifest["files"]["coups.jsonl"]["records"] == 339_400
    assert manifest["files"]["settlements.jsonl"]["records"] == COUPS + manifest["coverage"]["coups"]
    assert "-o" not in manifest["regenerate"] and "--seed 7" in manifest["regenerate"]


def test_the_same_command_gives_byte_identical_files_replacing_the_kit(kit):
    before = {p.name: p.read_bytes() for p in kit.iterdir()}
    (kit / "coups.csv").write_text("damaged")
    again = run("-o", str(kit), *ARGS)  # the same command into its previous kit: replaced whole
    assert again.exit_code == 0, again.output
    assert {p.name: p.read_bytes() for p in kit.iterdir()} == before
    assert [p.name for p in kit.parent.iterdir()] == [kit.name]  # no staging folder left


@pytest.fixture()
def no_build(monkeypatch):
    """Building a kit fails the test: a refusal must come before the build."""
    import analyzer.checks.vector_kit
    import analyzer.output.vectors

    def build(*_: object) -> None:
        raise AssertionError("the kit was built before the folder was checked")

    monkeypatch.setattr(analyzer.checks.vector_kit, "kit_data", build)
    monkeypatch.setattr(analyzer.output.vectors, "kit_files", build)


def test_a_previous_kit_in_other_formats_is_refused_at_once(kit, no_build):
    before = {p.name: p.read_bytes() for p in kit.iterdir()}
    # JSON Lines only would drop the kit's CSV files: refused, before anything is built
    _one_line_exit_2(run("-o", str(kit), "--format", "jsonl"), "'coups.csv', which this kit does not write")
    assert {p.name: p.read_bytes() for p in kit.iterdir()} == before


# -- bad input ----------------------------------------------------------------------------------------


def _one_line_exit_2(result, words: str) -> None:
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and words in lines[0] and "Traceback" not in result.output, result.output


def test_an_existing_folder_with_other_files_is_refused_at_once(tmp_path, no_build):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "notes.txt").write_text("keep me")
    _one_line_exit_2(run("-o", str(folder)), "holds 'notes.txt'")
    assert [p.name for p in folder.iterdir()] == ["notes.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--coups", "0"], "--coups"),
        (["--coups", "abc"], "--coups"),
        (["--coups", "100001"], "--coups"),
        (["--seed", "-1"], "--seed"),
        (["--bet", "no-such-bet"], "unknown bet"),
        (["--rules", "nonsense"], "unknown rules"),
        (["--format", "xml"], "--format"),
    ],
)
def test_bad_options_are_one_line_exit_2(tmp_path, args, words):
    _one_line_exit_2(run("-o", str(tmp_path / "new"), *args), words)
    assert not (tmp_path / "new").exists()


def test_bad_folders_are_one_line_exit_2(tmp_path, no_build):
    (tmp_path / "file").write_text("x")
    _one_line_exit_2(run("-o", str(tmp_path / "file")), "is a file")
    _one_line_exit_2(run("-o", str(tmp_path / "missing" / "kit")), "does not exist")
    _one_line_exit_2(run("-o", " "), "empty")
    result = run("--coups", "3")
    assert result.exit_code == 2 and "-o" in result.output


def test_the_files_are_written_only_from_data_of_the_same_options():
    bets = (find_bet("tie"),)
    data = KitData(STANDARD, bets, 3, (), (), (), (), None)  # no seeded coup: not 3 coups
    options = KitOptions(STANDARD, bets, seed=3, coups=3, coverage=False)
    with pytest.raises(OutputError, match="computed for other rules, bets, seed, coups or coverage"):
        kit_files(data, options)
    with pytest.raises(OutputError, match="bad formats"):
        kit_files(data, dataclasses.replace(options, formats=("xml",)))
    empty = dataclasses.replace(options, coups=0)  # what the data holds: written, nothing computed here
    files = kit_files(data, empty)
    assert json.loads(files["MANIFEST.json"])["files"]["coups.jsonl"]["records"] == 0


def test_the_command_is_listed_with_help(cli):
    result = cli("--help")
    assert "vectors" in result.output
    assert "MANIFEST.json" in cli("vectors", "--help").output


# -- the loader in another language --------------------------------------------------------------------


NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_javascript_loader_passes_on_the_kit(kit):
    done = subprocess.run(
        [NODE, "--test", str(LOADER)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "VECTORS": str(kit)},
        cwd=kit.parent,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "# pass 3" in done.stdout and "# fail 0" in done.stdout


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_javascript_loader_catches_an_engine_bug(kit, tmp_path):
    # The stub with a classic bug: the Banker draws on 3 when the Player's third card is 8.
    source = LOADER.read_text()
    buggy = source.replace("(banker === 3 && third !== 8)", "banker === 3")
    assert buggy != source
    copy = tmp_path / "buggy.test.mjs"
    copy.write_text(buggy)
    done = subprocess.run(
        [NODE, "--test", str(copy)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "VECTORS": str(kit)},
        cwd=tmp_path,
    )
    assert done.returncode != 0 and "# fail 1" in done.stdout
    assert "coup " in done.stdout  # the failing coup is named


def test_the_manual_loader_is_the_tested_one():
    text = (ROOT / "docs" / "report.md").read_text(encoding="utf-8")
    section = text.split("## Test vectors", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```js\n(.*?)```", section, re.S)
    assert block is not None
    tested = block.group(1)[block.group(1).index("test(") :]
    assert tested in LOADER.read_text(encoding="utf-8")


def _python_loader(source: Path, kit: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(source), str(kit)], capture_output=True, text=True, timeout=300, check=False
    )


@pytest.mark.parametrize("keyed", [False, True], ids=["positional", "keyed"])
def test_the_python_loader_passes_on_the_kit(kit, keyed_kit, keyed):
    done = _python_loader(PY_LOADER, keyed_kit if keyed else kit)
    assert done.returncode == 0 and "every settlement coup agrees" in done.stdout, done.stdout + done.stderr


def test_the_python_loader_catches_a_pair_read_after_the_draw(keyed_kit, tmp_path):
    # the stand-in with a pair bug: the Player's last two cards, the same as its first two until
    # it draws a third card; the coverage coups of a pair on a side that drew catch it
    source = PY_LOADER.read_text(encoding="utf-8")
    buggy = source.replace("hand[0][0] == hand[1][0]", "hand[-2][0] == hand[-1][0]")
    assert buggy != source
    copy = tmp_path / "buggy.py"
    copy.write_text(buggy, encoding="utf-8")
    done = _python_loader(copy, keyed_kit)
    assert done.returncode == 1
    coverage = [line for line in done.stdout.splitlines() if "(coverage)" in line and "player-pair" in line]
    assert any("[deal: Player drew" in line for line in coverage), done.stdout


def test_the_manual_python_loader_is_the_tested_one():
    text = (ROOT / "docs/report.md").read_text(encoding="utf-8")
    section = text.split("## Test vectors", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```python\n(.*?)```", section, re.S)
    assert block is not None and "def replay(" in block.group(1)
    assert block.group(1) in PY_LOADER.read_text(encoding="utf-8")


# -- the full default kit ---------------------------------------------------------------------------


@pytest.mark.slow
def test_the_default_kit_prices_and_settles_every_catalogue_bet(tmp_path):
    result = run("-o", str(tmp_path / "kit"))
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "kit" / "MANIFEST.json").read_text())
    names = [b.name for b in catalogue_bets()]
    assert manifest["bets"] == names and manifest["coups"] == 2000 and manifest["seed"] == 1
    rows = _jsonl(tmp_path / "kit" / "settlements.jsonl")
    assert len(rows) == 2000 + manifest["coverage"]["coups"] and all(
        list(r["results"]) == names for r in rows
    )
    assert manifest["coverage"]["not_found"] == {}  # every event and class possible on 8 decks
    assert manifest["coverage"]["targets"] > 1500
    bets = {r["bet"] for r in _jsonl(tmp_path / "kit" / "probabilities.jsonl")} - {None}
    assert bets == set(names)


def test_vectors_take_bets_from_files_like_every_command(tmp_path):
    # `vectors --bet FILE:NAME` and `--bet-file FILE` (it said "unknown bet" for a file)
    examples = Path(__file__).resolve().parent.parent / "examples"
    folder = tmp_path / "kit"
    result = run("-o", str(folder), "--coups", "5", "--no-coverage", "--format", "jsonl",
                 "--bet", f"{examples}/bets.toml:natural-tie",
                 "--bet-file", str(examples / "dragon-bonus-alt.toml"))
    assert result.exit_code == 0, result.output
    manifest = json.loads((folder / "MANIFEST.json").read_text(encoding="utf-8"))
    assert manifest["bets"] == ["natural-tie", "dragon-bonus-alt"]
    assert "--bet-file" in manifest["regenerate"] and "bets.toml:natural-tie" in manifest["regenerate"]
    events = {r["event"] for r in _jsonl(folder / "probabilities.jsonl") if r.get("bet") == "natural-tie"}
    assert "Tie on natural 8 or 9" in events
    missing = run("-o", str(tmp_path / "other"), "--bet", "nope.toml:x")
    assert missing.exit_code == 2 and "nope.toml" in missing.output


def test_the_coverage_search_finds_a_dragon_7_in_the_seats_suits():
    # one named suit for the Player's cards and another for the Banker's, after a Player that
    # stood: the candidates almost never deal it; a variant of a found coup (each side's hand in
    # one suit) does
    from analyzer.checks.coverage import coverage

    bet = find_bet("d7p8-progressive")
    found = coverage([bet], tries=2000)
    assert found.not_found == () and found.variants > 0
    progressive = "Dragon 7, both hands in the seat's suits (progressive)"
    cases = {c.case for c in found.coups if c.event == progressive}
    assert {"deal: Player stood, Banker drew", "deal: Player drew, Banker drew"} <= cases
    for c in found.coups:
        assert bet.settle(resolve(c.cards))[0] == c.event
