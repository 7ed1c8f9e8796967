"""``punto-banco conform``: a fair simulated sample passes, one from a wrong tableau fails.

Samples are seeded (``random.Random(seed)``) and deterministic: each coup is dealt from a
freshly shuffled full shoe, so the exact per-coup probabilities are the right null hypothesis.
A small log's report opens with a short summary.
"""

from __future__ import annotations

import json
import math
import random
import re
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path

import pytest
from clirun import invoke, one_error_line
from deadline import deadline

from analyzer.bets.catalogue import find_bet
from analyzer.checks.conform import (
    FAMILIES,
    Observed,
    ObservedError,
    conform,
    expected,
    fit_family,
    normalise,
    parse_alpha,
    read_counts_csv,
    read_counts_json,
    read_observed,
    tally_log,
)
from analyzer.checks.handlog import read_records
from analyzer.checks.verify import LogError
from analyzer.core.cards import RANKS, SUITS, Card
from analyzer.core.coup import Coup, Winner, coup_from_cards, resolve
from analyzer.core.shoe import Shoe
from analyzer.engine.pricing import Pricer, analyze
from analyzer.errors import AnalyzerError

EXAMPLES = Path(__file__).parent.parent / "examples"
EXAMPLE_BETS = ("dragon-7", "panda-8")


def simulate(n: int, seed: int, decks: int = 8, deal: Callable[[Sequence[Card]], Coup] = resolve,
             bets: Sequence[str] = EXAMPLE_BETS) -> Observed:
    """Counts of ``n`` coups, each dealt by ``deal`` from a freshly shuffled shoe of ``decks``."""
    rng = random.Random(seed)
    shoe = [Card(r, s) for r in RANKS for s in SUITS] * decks
    chosen = [find_bet(b) for b in bets]
    obs = Observed(coups=n, cut_card=False)
    for fam, cats in FAMILIES.items():
        obs.families[fam] = dict.fromkeys(cats, 0)
    for bet in chosen:
        obs.families[f"bet:{bet.name}"] = {"win": 0}
    for _ in range(n):
        f = deal(rng.sample(shoe, 6))
        obs.families["winner"][f.winner.value] += 1
        obs.families["player_total"][str(f.player_total)] += 1
        obs.families["banker_total"][str(f.banker_total)] += 1
        obs.families["cards"][str(f.cards_dealt)] += 1
        nat = ("both" if f.player_natural and f.banker_natural else "player" if f.player_natural
               else "banker" if f.banker_natural else "none")
        obs.families["natural"][nat] += 1
        for bet in chosen:
            if bet.payout(f) > 0:
                obs.families[f"bet:{bet.name}"]["win"] += 1
    return obs


def banker_ignores_third_card(cards: Sequence[Card]) -> Coup:
    """A wrong tableau: the Banker draws on 0-5 whatever the Player's third card (a common
    simplification), otherwise the rules of RULES.md."""
    pts = [c.point for c in cards]
    player, banker = [cards[0], cards[2]], [cards[1], cards[3]]
    p2, b2 = (pts[0] + pts[2]) % 10, (pts[1] + pts[3]) % 10
    used = 4
    if p2 < 8 and b2 < 8:
        if p2 <= 5:
            player.append(cards[used])
            used += 1
        if b2 <= 5:
            banker.append(cards[used])
    return coup_from_cards(cards[:4], player[2] if len(player) == 3 else None,
                           banker[2] if len(banker) == 3 else None)


def test_expected_probabilities_are_the_published_counts():
    # RULES.md, "Counting conventions": 8 decks, Banker 2,292,252,566,437,888 of 4,998,398,275,503,360.
    probs = expected("winner", Pricer(Shoe.standard(8)))
    assert probs["banker"] == Fraction(2292252566437888, 4998398275503360)
    assert probs["tie"] == Fraction(475627426473216, 4998398275503360)
    assert sum(probs.values()) == 1
    assert sum(expected("cards", Pricer(Shoe.standard(8))).values()) == 1


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_fair_sample_passes(seed):
    result = conform(simulate(20_000, seed), Shoe.standard(8))
    assert result.passed, [(r.family, r.p_value_float) for r in result.results]
    assert {r.family for r in result.results} == {*FAMILIES, "bet:dragon-7", "bet:panda-8"}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_wrong_tableau_fails(seed):
    result = conform(simulate(20_000, seed, deal=banker_ignores_third_card), Shoe.standard(8))
    assert not result.passed
    failed = {r.family for r in result.results if not r.passed}
    # The Banker draws on more hands: the cards per coup and the Banker's totals give it away.
    assert {"cards", "banker_total"} <= failed


def test_wrong_shoe_fails():
    # Judged against the wrong number of decks: a Player Pair is 3/51 with one deck, 31/415 with 8.
    one_deck = simulate(20_000, 5, decks=1, bets=("player-pair",))
    assert conform(one_deck, Shoe.standard(1)).passed
    result = conform(one_deck, Shoe.standard(8))
    assert [r.family for r in result.results if not r.passed] == ["bet:player-pair"]


def test_statistic_is_exact():
    probs = {"a": Fraction(1, 4), "b": Fraction(3, 4)}
    fam = fit_family("x", {"a": 30, "b": 70}, probs, None, Fraction(1, 100))
    # E = 25, 75: (5^2)/25 + (5^2)/75 = 1 + 1/3
    assert fam.chi_square == Fraction(4, 3)
    assert fam.df == 1
    # chi-square with 1 df: P(X > x) = erfc(sqrt(x / 2)), independent of scipy
    assert fam.p_value_float == pytest.approx(math.erfc(math.sqrt(2 / 3)), rel=1e-12)
    assert fam.rows[0].residual_float == pytest.approx(5 / (100 * 0.25 * 0.75) ** 0.5)


def test_impossible_category_fails():
    fam = fit_family("x", {"a": 10, "b": 1}, {"a": Fraction(1), "b": Fraction(0)}, None, Fraction(1, 100))
    assert fam.impossible == ("b",) and not fam.passed and fam.p_value_float == 0


def test_partial_family_needs_coups():
    obs = read_counts_json('{"bets": {"dragon-7": 10}}')
    with pytest.raises(ObservedError, match="lacks categories push, loss"):
        conform(obs, Shoe.standard(8))
    obs = read_counts_json('{"coups": 1000, "bets": {"dragon-7": 22}}')
    result = conform(obs, Shoe.standard(8))
    assert [r.category for r in result.results[0].rows] == ["win", "other"]


def test_counts_must_add_up():
    with pytest.raises(ObservedError, match="counts 10 coups, but coups = 11"):
        conform(read_counts_json('{"coups": 11, "winner": {"banker": 5, "player": 4, "tie": 1}}'),
                Shoe.standard(8))


@pytest.mark.parametrize(("text", "message"), [
    ('{"winner": {"dealer": 5}}', "bad category 'dealer' for winner: use banker, player, tie"),
    ('{"totals": {"1": 5}}', "unknown family 'totals'"),
    ('{"winner": {"banker": -1}}', "bad count -1"),
    ('{"winner": {"banker": 1.5}}', "bad count 1.5 for winner banker"),
    ('{"bets": {"nope": 3}}', "unknown bet 'nope'"),
    ('[1, 2]', "observed counts must be a JSON object"),
    ('{"winner": ', "line 1: not JSON"),
])
def test_bad_counts(text, message):
    with pytest.raises(AnalyzerError, match=re.escape(message)):
        read_counts_json(text)


def test_counts_csv():
    obs = read_counts_csv("family,category,count\nwinner,B,5\nwinner,player,4\nwinner,tie,1\ncoups,,10\n")
    assert obs.families == {"winner": {"banker": 5, "player": 4, "tie": 1}} and obs.coups == 10
    with pytest.raises(ObservedError, match="line 3: bad count 'x'"):
        read_counts_csv("family,category,count\nwinner,banker,5\nwinner,player,x\n")


def test_alpha():
    assert parse_alpha("0.01") == Fraction(1, 100) == parse_alpha("1%") == parse_alpha("1/100")
    with pytest.raises(ObservedError):
        parse_alpha("1.5")


def test_examples_are_the_seeded_simulation():
    # examples/observed.json and .csv are simulate(50_000, 2024): regenerate and compare.
    sample = simulate(50_000, 2024)
    doc = json.loads((EXAMPLES / "observed.json").read_text(encoding="utf-8"))
    assert doc["coups"] == sample.coups
    for fam in FAMILIES:
        assert doc[fam] == sample.families[fam]
    assert doc["bets"] == {b: sample.families[f"bet:{b}"]["win"] for b in EXAMPLE_BETS}
    csv_obs = read_counts_csv((EXAMPLES / "observed.csv").read_text(encoding="utf-8"))
    assert csv_obs.families == {k: v for k, v in sample.families.items() if not k.startswith("bet:")} | {
        f"bet:{b}": sample.families[f"bet:{b}"] for b in EXAMPLE_BETS}


def test_cli(cli, tmp_path):
    res = cli("conform", str(EXAMPLES / "observed.json"))
    assert res.exit_code == 0, res.output
    # counts make no claims: the verdict says the claims were not checked, and why
    assert "Overall: CONFORMS (claims not checked)." in res.output
    assert "Claims: not checked: the input is counts of outcomes, which make no claims" in res.output
    assert "Cut-card effect" not in res.output
    res = cli("conform", str(EXAMPLES / "observed.csv"), "--cut-card", "--family", "winner")
    assert res.exit_code == 0
    assert "Cut-card effect" in res.output and "bet:dragon-7" not in res.output
    # Judged against a one-deck shoe the same sample fails: exit code 1.
    res = cli("conform", str(EXAMPLES / "observed.json"), "--decks", "1")
    assert res.exit_code == 1
    assert "Overall: DOES NOT CONFORM (claims not checked)." in res.output
    # JSON output keeps the exact probabilities as fractions.
    out = tmp_path / "c.json"
    res = cli("conform", str(EXAMPLES / "observed.json"), "--format", "json", "-o", str(out))
    doc = json.loads(out.read_text(encoding="utf-8"))
    first = doc["tables"][0]["rows"][0]
    assert (first["family"], first["category"]) == ("winner", "banker")
    assert first["probability"] == str(Fraction(2292252566437888, 4998398275503360))  # RULES.md counts
    bad = tmp_path / "bad.json"
    bad.write_text('{"winner": {"dealer": 3}}', encoding="utf-8")
    res = cli("conform", str(bad))
    assert res.exit_code == 2 and res.output.startswith(f"Error: {bad}: bad category 'dealer'")
    res = cli("conform", str(EXAMPLES / "observed.json"), "--alpha", "2")
    assert res.exit_code == 2


def test_from_a_hand_log(cli, tmp_path):
    # The example log: 5 coups dealt through two shoes, so the cut-card note appears.
    res = cli("conform", str(EXAMPLES / "hands.jsonl"), "--family", "winner", "--bet", "player-pair")
    assert res.exit_code in (0, 1)
    assert "Cut-card effect" in res.output
    assert "expected count below 5" in res.output.lower()
    # A long fair log passes: coups tallied as dealt.
    rng = random.Random(7)
    shoe = [Card(r, s) for r in RANKS for s in SUITS] * 8
    lines = []
    for _ in range(5000):
        coup = resolve(rng.sample(shoe, 6))
        lines.append(json.dumps({"cards": " ".join(str(c) for c in _dealing_order(coup))}))
    log = tmp_path / "fair.jsonl"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    res = cli("conform", str(log))
    assert res.exit_code == 0, res.output
    assert "Cut-card effect" not in res.output
    assert "if the coups were dealt through shoes with a cut card, pass --cut-card" in res.output


def _dealing_order(coup: Coup) -> list[Card]:
    p, b = coup.player, coup.banker
    return [p[0], b[0], p[1], b[1], *p[2:], *b[2:]]


def test_analyze_agrees_with_expected():
    a = analyze(Shoe.standard(6))
    probs = expected("winner", Pricer(Shoe.standard(6)))
    assert probs["player"] == a.probability(Winner.PLAYER)


# -- bad input (QA report: H2, H3, H4, H6, M8, M10) ------------------------------------------------






def one_line_error(args: list[str]) -> str:
    with deadline(30):
        res = invoke(*args)
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    assert len(res.output.strip().splitlines()) == 1, res.output
    return res.output.strip()


@pytest.mark.parametrize(("name", "data", "start"), [
    ("bin.csv", b"\xff\xfe\x00\x01", "Error: line 1: not UTF-8 text"),
    ("counts.csv", b"family,category,count\nwinner,banker,\xff\n", "Error: "),
    ("bin.json", b'{"winner": {"banker": 1\xff}}', "Error: "),
    ("log.jsonl", b'{"cards": "2 4 3 10 6 A"}\n{"cards": "\xe9"}\n', "Error: line 2: not UTF-8 text"),
])
def test_non_utf8_input_is_one_line(tmp_path, name, data, start):
    path = tmp_path / name
    path.write_bytes(data)
    assert one_line_error(["conform", str(path)]).startswith(start)


def test_deeply_nested_json_counts_name_the_line(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text('{\n"winner":\n' + "[" * 100000 + "]" * 100000 + "}", encoding="utf-8")
    with pytest.raises(ObservedError, match=rf"^{re.escape(str(path))}: line 3: JSON nested too deeply"):
        read_observed(str(path))
    assert one_line_error(["conform", str(path)]).startswith(f"Error: {path}: line 3: JSON nested too deeply")


def test_deeply_nested_log_is_one_line(tmp_path):
    path = tmp_path / "deep.jsonl"
    path.write_text('{"cards": ' + "[" * 100000 + "]" * 100000 + "}\n", encoding="utf-8")
    assert one_line_error(["conform", str(path)]).startswith("Error: line 1: JSON nested too deeply")


@pytest.mark.parametrize("text", [
    '{"winner": {"banker": 1' + "0" * 5000 + ', "player": 1, "tie": 1}}',
    '{"winner": {"banker": 1e999999999, "player": 1, "tie": 1}}',
    '{"winner": {"banker": "1e999999999", "player": 1, "tie": 1}}',
    '{"coups": 1' + "0" * 100 + "}",
    '{"winner": {"banker": "٤", "player": 1, "tie": 1}}',
])
def test_huge_or_odd_counts_are_rejected(text):
    with deadline(), pytest.raises(ObservedError, match="bad count"):
        read_counts_json(text)


def test_huge_csv_count_is_rejected():
    with deadline(), pytest.raises(ObservedError, match=r"^line 2: bad count"):
        read_counts_csv("family,category,count\nwinner,banker," + "1" * 5001 + "\n")


@pytest.mark.parametrize("family", ["bet:tie:1e999999999", "bet:tie:1e5000", "bet:banker:1e-999999999"])
def test_huge_bet_parameters_are_rejected(family):
    with deadline(), pytest.raises(AnalyzerError, match="1e"):
        read_counts_json(json.dumps({family: {"win": 1}}))
    with deadline(), pytest.raises(AnalyzerError):
        normalise(family, "win")


@pytest.mark.parametrize("text", ["1e999999999", "1e-999999999", "1e5000", "1" * 100, "1e999999999%", "٠.٠١"])
def test_huge_alpha_is_rejected_quickly(text):
    with deadline(), pytest.raises(ObservedError, match="bad significance level"):
        parse_alpha(text)


def test_alpha_forms_still_accepted():
    assert parse_alpha("0.05") == parse_alpha("5%") == parse_alpha("1/20") == Fraction(1, 20)
    assert parse_alpha("5e-2") == Fraction(1, 20)


def test_cli_huge_alpha_and_family(tmp_path):
    counts = str(EXAMPLES / "observed.json")
    assert one_line_error(["conform", counts, "--alpha", "1e999999999"]).startswith(
        "Error: bad significance level '1e999999999'")
    assert one_line_error(["conform", counts, "--family", "bet:tie:1e5000"]).startswith("Error: ")


@pytest.mark.parametrize("text", ["", "cards\n", "id,cards\n\n"])
def test_tallying_a_log_without_coups_is_an_error(tmp_path, text):
    import io

    with pytest.raises(LogError, match=r"^no coups in the log"):
        tally_log(read_records(io.StringIO(text), "csv"))
    path = tmp_path / "log.csv"
    path.write_text(text, encoding="utf-8")
    assert one_line_error(["conform", str(path)]).startswith("Error: no coups in the log")


def test_tally_log_error_says_how_many_records_were_tallied():
    import io

    text = "cards\n2 4 3 10 6 A\n2 4 3 10 6 A\n2 4 Z 10\n"
    with pytest.raises(LogError, match=r"^line 4: cards: bad card 'Z'.*2 records tallied before this one"):
        tally_log(read_records(io.StringIO(text), "csv"))


@pytest.mark.parametrize("call", [
    lambda: parse_alpha(None),
    lambda: parse_alpha(0.01),
    lambda: read_counts_json(b"{}"),
    lambda: read_counts_csv(None),
    lambda: conform(None, Shoe.standard(8)),
    lambda: conform(Observed({"winner": {"banker": 1}}), "8"),
    lambda: conform(Observed({"winner": {"banker": 1}}), Shoe.standard(8), 0.01),
    lambda: conform(Observed({"winner": {"banker": 1}}), Shoe.standard(8), Fraction(1, 100), "winner"),
    lambda: conform(Observed({"winner": {"banker": 1}}), Shoe.standard(8), Fraction(1, 100), [5]),
    lambda: normalise(None, "banker"),
    lambda: normalise("winner", 5),
    lambda: Observed().add("winner", "banker", 1.5),
    lambda: Observed().add("winner", "banker", 10**400),
    lambda: tally_log(None),
    lambda: tally_log([1]),
    lambda: tally_log([], "tie"),
    lambda: read_observed(None),
    lambda: read_observed(str(EXAMPLES / "observed.json"), 5),
])
def test_wrong_types_raise_analyzer_errors(call):
    with pytest.raises(AnalyzerError):
        call()


# -- round-2 bad-input report: conflicting or repeated fields are errors, not silently merged --


@pytest.mark.parametrize(("text", "message"), [
    ('{"decks": 0, "winner": {"banker": 1}}', "bad decks 0: use a whole number of decks >= 1"),
    ('{"decks": -5, "winner": {"banker": 1}}', "bad decks -5: use a whole number of decks >= 1"),
    ('{"decks": 1.5, "winner": {"banker": 1}}', "bad decks 1.5: use a whole number of decks >= 1"),
    ('{"decks": true, "winner": {"banker": 1}}', "bad decks True"),
    ('{"decks": "x", "winner": {"banker": 1}}', "bad decks 'x'"),
    ('{"shoe": "K=50,A=50", "decks": 8, "winner": {"banker": 1}}', "give 'shoe' or 'decks', not both"),
    ('{"shoe": 8, "winner": {"banker": 1}}', "bad shoe 8: give the shoe as text"),
    ('{"shoe": "", "winner": {"banker": 1}}', "bad shoe ''"),
    ('{"bets": {"tie": 10, "TIE": 5}, "coups": 100}', "bets 'tie' and bets 'TIE' both give family bet:tie"),
    ('{"bets": {"tie": 10}, "bet:Tie": {"win": 5}, "coups": 100}',
     "bets 'tie' and 'bet:Tie' both give family bet:tie"),
    ('{"winner": {"banker": 1}, "Winner": {"player": 1}}', "'winner' and 'Winner' both give family winner"),
    ('{"winner": {"tie": 1, "TIE": 2, "banker": 3, "player": 4}}',
     "'winner' 'tie' and 'winner' 'TIE' both give winner tie"),
    ('{"winner": {"b": 1, "banker": 2, "tie": 3, "player": 4}}',
     "'winner' 'b' and 'winner' 'banker' both give winner banker"),
    ('{"bets": {"tie": {"win": 1, "won": 2}}, "coups": 9}',
     "bets 'tie' 'win' and bets 'tie' 'won' both give"),
    ('{"winner": {"banker": 1}, "winner": {"banker": 2}}', "the key 'winner' is given twice"),
    ('{"coups": 5, "coups": 6, "winner": {"banker": 1}}', "the key 'coups' is given twice"),
])
def test_conflicting_or_repeated_json_fields_are_errors(text, message):
    with pytest.raises(ObservedError, match=re.escape(message)):
        read_counts_json(text)


def test_good_decks_and_shoe_still_read():
    assert read_counts_json('{"decks": 6, "winner": {"banker": 1}}').decks == 6
    assert read_counts_json('{"shoe": "K=50,A=50", "winner": {"banker": 1}}').shoe == "K=50,A=50"


@pytest.mark.parametrize(("text", "message"), [
    ("family,category,count\ncoups,,100\ncoups,,200\nwinner,banker,10\n",
     "coups is given twice, on line 2 and line 3"),
    ("family,category,count\nwinner,banker,10\nwinner,banker,5\n",
     "line 2 (winner,banker) and line 3 (winner,banker) both give winner banker"),
    ("family,category,count\nwinner,tie,10\nwinner,TIE,5\n",
     "line 2 (winner,tie) and line 3 (winner,TIE) both give winner tie"),
    ("family,category,count\nbet:tie,win,10\nbet:TIE,hits,5\n",
     "line 2 (bet:tie,win) and line 3 (bet:TIE,hits) both give bet:tie win"),
])
def test_repeated_csv_rows_are_errors(text, message):
    with pytest.raises(ObservedError, match=re.escape(message)):
        read_counts_csv(text)


def test_cli_decks_zero_is_an_error_not_eight_decks(cli, tmp_path):
    f = tmp_path / "d0.json"
    f.write_text('{"decks": 0, "winner": {"banker": 10, "player": 10, "tie": 1}}')
    result = cli("conform", str(f))
    assert result.exit_code == 2
    assert "bad decks 0" in result.output and "8 decks" not in result.output


def test_utf8_bom_counts_files_are_read(tmp_path):
    j = tmp_path / "bom.json"
    j.write_bytes(b'\xef\xbb\xbf{"winner": {"banker": 1, "player": 1, "tie": 0}}')
    assert read_observed(str(j)).families["winner"]["banker"] == 1
    c = tmp_path / "bom.csv"
    c.write_bytes(b"\xef\xbb\xbffamily,category,count\nwinner,banker,1\n")
    assert read_observed(str(c)).families["winner"] == {"banker": 1}
    text = "\ufefffamily,category,count\nwinner,banker,1\n"
    assert read_counts_csv(text).families["winner"] == {"banker": 1}


def test_counts_csv_with_a_wrong_header_names_the_counts_header(tmp_path):
    f = tmp_path / "h.csv"
    f.write_text("family,count\nwinner,10\n")
    with pytest.raises(ObservedError, match="the header must be family,category,count"):
        read_observed(str(f))


def test_a_family_named_twice_is_an_error():
    obs = read_counts_json('{"winner": {"banker": 10, "player": 10, "tie": 1}}')
    with pytest.raises(ObservedError, match="family winner is named twice"):
        conform(obs, Shoe.standard(8), families=["winner", "Winner"])


def test_tally_log_takes_bets_from_files():
    """Issue 13: a Bet from a file is tallied from a hand log and tested as ``bet:NAME`` while
    its file's bets are given (``conform --bet-file``)."""
    from analyzer.bets.choice import FileBets
    from analyzer.bets.files import parse_bets
    from analyzer.checks.conform import conform, tally_log
    from analyzer.checks.handlog import read_records
    from analyzer.core.shoe import Shoe
    from analyzer.engine.pricing import price

    (mine,) = parse_bets('[[bet]]\nname = "any-tie"\n[[bet.pay]]\nwhen = { winner = "tie" }\npays = 8\n')
    lines = ["cards\n", "K 10 9 9\n", "2 4 3 10 6 A\n", "3 4 3 2\n", "9 K K 4\n"]
    observed = tally_log(read_records(iter(lines), "csv"), [mine], file_bets=FileBets.of([mine]))
    assert observed.families["bet:any-tie"] == {"win": 2, "push": 0, "loss": 2}
    result = conform(observed, Shoe.standard(8), families=["bet:any-tie"])
    win = next(r for r in result.results[0].rows if r.category == "win")
    eight = Shoe.standard(8)
    assert win.probability == price(mine, eight).hit_frequency == price(find_bet("tie"), eight).hit_frequency


def test_conform_says_how_many_categories_have_low_expected_counts():
    # a 5-coup log: every family has categories expected below 5; the note counts them, and
    # does not list every one in one line
    out = invoke("conform", "examples/hands.jsonl").output
    (line,) = [ln for ln in out.splitlines() if "Expected count below 5" in ln]
    assert line.startswith("Expected count below 5 in ") and " categories (" in line
    assert len(line) < 400


def test_conform_on_a_small_log_prints_a_short_summary_first():
    out = invoke("conform", "examples/hands.jsonl").output
    body = out.split("\n\n", 1)[1]  # after the provenance header
    assert body.startswith("Summary (a small sample)")
    for line in ("Coups            5", "Families tested  7: 7 pass, 0 fail", "Overall          CONFORMS"):
        assert line in out
    assert "128 categories expect fewer than 5 coups" in out
    # data formats keep the per-category table first, the summary last
    import json

    tables = json.loads(invoke("conform", "examples/hands.jsonl", "--format", "json").stdout)["tables"]
    assert tables[0]["name"] == "conform-categories"
    assert tables[-1]["name"] == "conform-summary"
    # a large sample gets no such summary
    assert "Summary (a small sample)" not in invoke("conform", "examples/observed.json").output


# -- the claims of a hand log: checked as verify checks them --------------------------------------

SUITED_SHOE = [Card(r, s) for r in RANKS for s in SUITS] * 8


def write_claims_log(
    path: Path, coups: int, seed: int, wrong: Callable[[int], bool], paid: str = "net"
) -> Path:
    """A hand log of fair coups (each from a freshly shuffled 8-deck shoe) with the claimed totals,
    winner and a Player Pair settled on a stake of 1 (``paid``: net or returned), the settlement
    off by one unit on the coups ``wrong(i)`` names (i counts coups from 0)."""
    rng = random.Random(seed)
    pair = find_bet("player-pair")
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(coups):
            coup = resolve(rng.sample(SUITED_SHOE, 6))
            amount = pair.settle(coup)[1] + (1 if paid == "returned" else 0) + (1 if wrong(i) else 0)
            record = {
                "cards": " ".join(str(c) for c in _dealing_order(coup)),
                "player_total": coup.player_total,
                "banker_total": coup.banker_total,
                "winner": coup.winner.value,
                "bets": {"player-pair": {"stake": 1, "paid": str(amount)}},
            }
            fh.write(json.dumps(record) + "\n")
    return path


def test_wrong_settlements_fail_although_the_frequencies_conform(cli, tmp_path):
    # Half the Player Pair settlements are wrong: conform --bet player-pair settles the bet from the
    # cards (its frequency family passes), and now also checks every amount the log claimed.
    log = write_claims_log(tmp_path / "pairs.jsonl", 2000, seed=11, wrong=lambda i: i % 2 == 1)
    obs = read_observed(str(log), bets=["player-pair"])
    result = conform(obs, Shoe.standard(8))
    fams = {r.family: r for r in result.results}
    assert fams["bet:player-pair"].passed and all(f.passed for f in fams.values())
    assert result.claims is not None and not result.claims.passed and not result.passed
    rows = {r.field: r for r in result.claims.rows}
    assert list(rows) == ["player_total", "banker_total", "winner", "bet:player-pair"]
    assert [(r.checked, r.wrong) for r in rows.values()] == [(2000, 0), (2000, 0), (2000, 0), (2000, 1000)]
    pair = rows["bet:player-pair"]
    assert pair.lines == (2, 4, 6, 8, 10) and pair.first is not None and pair.first.line == 2
    head = "bet:player-pair: 1,000 of 2,000 settlements wrong; first on line 2 (expected "
    assert pair.text.startswith(head)
    assert (result.claims.checked, result.claims.wrong) == (8000, 1000)
    # the command line: exit code 1, the claims by field, and verify named for each one
    res = cli("conform", str(log), "--bet", "player-pair", "--family", "bet:player-pair")
    assert res.exit_code == 1, res.output
    assert f"Claims: FAIL: 1,000 of 8,000 claims wrong: {head}" in res.output
    assert "FAIL: 1,000 of 2,000 settlements wrong; verify lists each" in res.output
    assert "Overall: DOES NOT CONFORM." in res.output
    # every claim right: the verdict says how many were checked
    fair = write_claims_log(tmp_path / "fair.jsonl", 300, seed=12, wrong=lambda i: False)
    res = cli("conform", str(fair), "--family", "winner")
    assert res.exit_code == 0, res.output
    right = "Claims: all 1,200 claims of the log are right (player_total 300, banker_total 300, winner 300, "
    assert right in res.output


def test_one_wrong_claim_fails_whatever_alpha(tmp_path):
    log = write_claims_log(tmp_path / "one.jsonl", 500, seed=13, wrong=lambda i: i == 321)
    result = conform(read_observed(str(log)), Shoe.standard(8), alpha=Fraction(1, 10**30))
    assert all(r.passed for r in result.results) and result.decisions is not None and result.decisions.passed
    assert result.claims is not None and result.claims.wrong == 1 and not result.passed
    (row,) = result.claims.failing
    assert row.lines == (322,)


def test_settled_amounts_are_read_as_paid_says(cli, tmp_path):
    log = write_claims_log(tmp_path / "returned.jsonl", 400, seed=14, wrong=lambda i: False, paid="returned")
    assert read_observed(str(log), paid_means="returned").claims.passed  # type: ignore[union-attr]
    net = read_observed(str(log)).claims
    assert net is not None and net.failing[0].field == "bet:player-pair" and net.wrong == 400
    assert cli("conform", str(log), "--paid", "returned", "--family", "winner").exit_code == 0
    res = cli("conform", str(log), "--family", "winner")
    assert res.exit_code == 1
    assert "bet:player-pair: 400 of 400 settlements wrong; first on line 1" in res.output
    with pytest.raises(LogError, match="bad meaning of a settled amount"):
        tally_log([], paid_means="gross")


def test_claims_not_checked_say_why(tmp_path):
    from analyzer.checks.conform import claims_summary

    counts = conform(read_observed(str(EXAMPLES / "observed.json")), Shoe.standard(8))
    assert counts.claims is None
    assert claims_summary(None).startswith("Claims: not checked: the input is counts of outcomes")
    log = tmp_path / "cards.jsonl"
    log.write_text('{"cards": "2 4 3 10 6 A"}\n{"cards": "9 5 K 2"}\n', encoding="utf-8")
    check = read_observed(str(log)).claims
    assert check is not None and check.rows == () and check.passed
    assert claims_summary(check) == (
        "Claims: not checked: the log claims no totals, winner or settled bets (only its cards and hands "
        "are checked)."
    )
    # claims on a coup dealt outside the rules are not judged: verify names the fault
    odd = tmp_path / "odd.jsonl"
    odd.write_text(
        '{"player": "2 3", "banker": "K 2 A 3", "winner": "banker"}\n'
        '{"cards": "9 5 K 2", "winner": "player"}\n',
        encoding="utf-8",
    )
    check = read_observed(str(odd)).claims
    assert check is not None and (check.checked, check.unchecked, check.unchecked_lines) == (1, 1, (1,))
    assert claims_summary(check).endswith(
        "; 1 claim on coups dealt outside the rules not checked (line 1; verify names each fault)."
    )


def test_claims_of_many_bets_are_bounded(monkeypatch):
    import io

    import analyzer.checks.conform as conform_module

    monkeypatch.setattr(conform_module, "MAX_CLAIM_FIELDS", 2)
    text = (
        '{"cards": "9 5 K 2", "bets": {"tie:9": {"stake": 1, "paid": -1}, '
        '"tie:8": {"stake": 1, "paid": 5}}}\n'
        '{"cards": "9 5 K 2", "winner": "player", "bets": {"tie": {"stake": 1, "paid": -1}}}\n'
    )
    check = tally_log(read_records(io.StringIO(text), "jsonl")).claims
    assert check is not None
    # the two first fields are kept apart, the claimed winner always, the bets beyond as one row
    assert [(r.field, r.checked, r.wrong) for r in check.rows] == [
        ("winner", 1, 0),
        ("bet:tie:9", 1, 0),
        ("bet:tie:8", 1, 1),
        ("bet:(other bets)", 1, 0),
    ]


def test_failing_only_shows_the_failing_parts_and_counts_everything(cli):
    log = str(EXAMPLES / "hands-banker-draws-on-6-against-5.jsonl")
    full = cli("conform", log)
    short = cli("conform", log, "--failing-only")
    assert full.exit_code == short.exit_code == 1

    def cells(out: str) -> list[str]:
        table = out[out.index("Decision cells against the tableau") :].split("\n\n")[1]
        return table.splitlines()[2:]

    assert len(cells(full.output)) > 50
    (cell,) = cells(short.output)
    assert cell.startswith("Banker on 6, Player's third card 5") and cell.endswith("FAIL")
    # every family passes: no categories, an empty table of tests whose notes count everything
    assert "Observed against exact expected" not in short.output
    assert "of 7 families tested, 7 pass and 0 fail; 0 void." in short.output
    summary = next(line for line in full.output.splitlines() if line.startswith("Decision cells: FAIL"))
    assert summary in short.output
    assert "Families tested  7: 7 pass, 0 fail" in short.output  # the short summary counts them all
    md = cli("conform", log, "--failing-only", "--format", "markdown").output
    assert "| Banker on 6, Player's third card 5" in md and "| Banker on 7" not in md


# -- the diagnosis and the engine bugs ranked (conform on a hand log) -------------------------------


def _mutant_log(tmp_path: Path, name: str, coups: int = 1500) -> Path:
    from analyzer.checks.mutants import deal_log, find_mutant

    path = tmp_path / f"{name}.jsonl"
    stakes = {"banker": Fraction(10), "player-pair": Fraction(1)}
    records = deal_log(find_mutant(name), coups, seed=8, stakes=stakes)
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_conform_leads_with_the_bug_that_explains_the_findings(cli, tmp_path):
    log = _mutant_log(tmp_path, "banker-reads-player-total:6")
    result = cli("conform", log, "--family", "winner")
    assert result.exit_code == 1
    body = [line for line in result.output.splitlines() if line and not line.startswith("#")]
    assert body[0].startswith("Diagnosis: the engine bugs that explain the findings")
    assert "banker-reads-player-total:6" in body[3]
    data = json.loads(cli("conform", log, "--family", "winner", "--format", "json").stdout)
    table = next(t for t in data["tables"] if t["name"] == "conform-diagnosis")
    row = table["rows"][0]
    assert (row["bug"], row["contradicts"]) == ("banker-reads-player-total:6", 0)
    assert row["cause"].startswith("Banker on 6 draws or stands by the Player's final total")


def test_a_clean_log_has_no_diagnosis(cli, tmp_path):
    log = _mutant_log(tmp_path, "correct", 500)
    result = cli("conform", log, "--family", "winner", "--format", "json")
    assert result.exit_code == 0
    assert "conform-diagnosis" not in [t["name"] for t in json.loads(result.stdout)["tables"]]


def test_compare_ranks_engine_bugs_beside_tableaux(cli, tmp_path):
    log = _mutant_log(tmp_path, "pairs-on-two-card-hands")
    result = cli(
        "conform", log, "--family", "winner", "--format", "json",
        "--compare", "standard,ace-high,pairs-on-two-card-hands,tie-loses-main-bets",
    )
    tables = {t["name"]: t for t in json.loads(result.stdout)["tables"]}
    assert [r["rules"] for r in tables["conform-compare"]["rows"]] == ["standard"]
    bugs = tables["conform-compare-bugs"]["rows"]
    assert bugs[0]["bug"] == "pairs-on-two-card-hands"
    assert bugs[0]["misses"] == "0" and bugs[0]["first_line"] == "-"
    assert all(int(str(r["misses"]).replace(",", "")) > 0 for r in bugs[1:])
    everything = cli("conform", log, "--family", "winner", "--format", "json", "--compare", "all")
    names = {t["name"]: t for t in json.loads(everything.stdout)["tables"]}
    from analyzer.checks.mutants import MUTANTS
    from analyzer.core.tableau import TABLEAUX

    assert len(names["conform-compare"]["rows"]) == len(TABLEAUX)
    coup_bugs = [m for m in MUTANTS if m.name not in TABLEAUX and m.kind != "shoe"]
    assert len(names["conform-compare-bugs"]["rows"]) == len(coup_bugs)
    shoe = cli("conform", log, "--compare", "shoe-refilled")
    assert shoe.exit_code == 2 and "a bug of the shoe" in shoe.output


# -- hand logs written by other engines (docs/checks.md, "Logs written by other engines") ----------

FOREIGN = EXAMPLES / "foreign"


def test_a_foreign_log_through_a_map_is_tallied_as_the_same_log_in_our_format(cli):
    from analyzer.checks.logmap import load_map

    mapped = read_observed(str(FOREIGN / "table.csv"), log_map=load_map(FOREIGN / "table.toml"))
    plain = read_observed(str(FOREIGN / "hands.jsonl"))  # the same 14 coups, read without a map
    assert mapped.families == plain.families and mapped.coups == plain.coups == 14
    assert mapped.cut_card is plain.cut_card is True
    assert mapped.described == (
        f"read {FOREIGN / 'table.csv'} as CSV through {FOREIGN / 'table.toml'}: cards from 'deal'; "
        "winner from 'outcome', '2' as banker, '1' as player, '3' as tie; shoe ids from 'shoe_id'; "
        "ids from 'round'; bet:banker from 'banker_bet'; cards as point values only (ten-valued cards 0); "
        "dealing order P P B B"
    )
    assert read_observed(str(EXAMPLES / "observed.json")).described is None
    # the command states how it read the log among its inputs
    table, plan = str(FOREIGN / "table.csv"), str(FOREIGN / "table.toml")
    res = cli("conform", table, "--map", plan, "--family", "winner")
    header = [line for line in res.stdout.splitlines() if line.startswith("# ")]
    assert header[2] == f"# log: {mapped.described}"
    assert header[1].startswith("# command: ") and header[3].startswith("# rules: ")
    data = cli("conform", str(FOREIGN / "hands.jsonl"), "--family", "winner", "--format", "json")
    assert json.loads(data.stdout)["meta"]["log"] == plain.described
    counts = cli("conform", str(EXAMPLES / "observed.json"), "--format", "json")
    assert "log" not in json.loads(counts.stdout)["meta"]


def test_a_bet_that_reads_ranks_is_refused_on_a_log_of_point_values(cli):
    res = cli("conform", str(FOREIGN / "hands.jsonl"), "--bet", "player-pair")
    assert res.exit_code == 2
    line = one_error_line(res)
    assert line.startswith(
        "Error: line 1: bet 'player-pair' reads the ranks of the cards, and the log gives point values only"
    )
    assert cli("conform", str(FOREIGN / "hands.jsonl"), "--bet", "dragon-7").exit_code in (0, 1)


def test_a_map_reads_a_hand_log_only(cli, tmp_path):
    from analyzer.checks.conform import observed_kind
    from analyzer.checks.logmap import parse_map

    plain = parse_map("", "m.toml")
    assert observed_kind("x.json", None, plain) == "log-jsonl"  # a map: .json is a hand log
    assert observed_kind("x.csv", None, plain) == "log-csv"
    assert observed_kind("x.log", None, parse_map('format = "csv"', "m.toml")) == "log-csv"
    with pytest.raises(ObservedError, match=r"a map \(m\.toml\) reads a hand log"):
        observed_kind("x.json", "json", plain)
    with pytest.raises(ObservedError, match=r"cannot tell the format of 'x\.log' from its extension or"):
        observed_kind("x.log", None, plain)
    with pytest.raises(ObservedError, match=r"its extension says csv and the map m\.toml says jsonl"):
        observed_kind("x.csv", None, parse_map('format = "jsonl"', "m.toml"))
    empty = tmp_path / "m.toml"
    empty.write_text("", encoding="utf-8")
    res = cli("conform", str(EXAMPLES / "observed.json"), "--map", str(empty), "--observed-format", "json")
    assert res.exit_code == 2 and "reads a hand log" in one_error_line(res)


def test_a_counts_files_shoe_errors_name_the_file_and_the_field(tmp_path, cli):
    small = tmp_path / "small.json"
    small.write_text('{"coups": 10, "shoe": "8=2", "winner": {"banker": 5, "player": 4, "tie": 1}}')
    res = cli("conform", str(small))
    assert res.exit_code == 2 and res.output.startswith(f"Error: {small}: shoe: a shoe of 2 cards")
    none = tmp_path / "none.json"
    none.write_text('{"coups": 10, "decks": 0}')
    res = cli("conform", str(none))
    assert res.exit_code == 2 and res.output.startswith(f"Error: {none}: bad decks 0")
