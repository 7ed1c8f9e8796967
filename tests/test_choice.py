"""The bets a command names (``analyzer.bets.choice``): a bet from a TOML file is first-class in
every command that takes a bet, ``--bet-file FILE`` and ``--bet FILE:NAME`` in bets, deal, verify,
conform, eor, symbolic and study, the oracle taking the Bet, and the same exact values on every
path."""

import dataclasses
import json
from collections import Counter
from fractions import Fraction

import pytest
from clirun import invoke

from analyzer import Shoe, price
from analyzer.bets.catalogue import bet_key, catalogue_bets, catalogue_name, find_bet
from analyzer.bets.choice import (
    MAX_PAYS,
    MOST_NEAR,
    NO_FILE_BETS,
    FileBets,
    MatchKind,
    choose,
    find_by_pays,
    lookup_bet,
    parse_pays,
    refuse_clashes,
    split_file_spec,
    winning_pays,
)
from analyzer.bets.files import load_bets, parse_bets
from analyzer.checks import handlog, verify
from analyzer.core.coup import resolve
from analyzer.core.exact import fraction_text
from analyzer.errors import BetError
from analyzer.studies.symbolic import bet_forms
from analyzer.testing import assert_payout, house_edge


def _margin_pays(table):
    """Dragon Bonus pay table ``table``: non-natural win margin -> pays, as the catalogue has it."""
    bet = find_bet(f"dragon-bonus-player:{table}")
    margins = [ln for ln in bet.lines if ln.event.startswith("Non-natural")]
    return {int(ln.event.rsplit(" ", 1)[1]): int(ln.pays) for ln in margins}


DRAGON_BONUS_TABLES = {"1": _margin_pays("1"), "2": _margin_pays("2")}

#: A value-level bet with a win, a push and a loss line (so conform's three categories differ)
#: and a first-two-cards bet that reads ranks and suits (a refined table).
BETS_TOML = """
[[bet]]
name = "tie-bonus"
title = "Tie bonus"
[[bet.pay]]
event = "Tie on naturals"
when = { winner = "tie", natural = true }
pays = 25
[[bet.pay]]
event = "Other tie"
when = { winner = "tie" }
pays = "3/2"
[[bet.pay]]
event = "Banker wins with three cards"
when = { winner = "banker", banker_cards = 3 }
pays = 0

[[bet]]
name = "suited-player-pair"
title = "Player's first two cards: same rank and suit"
[[bet.pay]]
event = "Suited pair"
when = { player_first_two = { same_card_pair = true } }
pays = 30
"""


@pytest.fixture()
def bet_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "mine.toml"
    path.write_text(BETS_TOML, encoding="utf-8")
    return path


def run(*args):
    result = invoke(*args)
    return result.exit_code, result.output


def one_line_error(args, *words):
    code, out = run(*args)
    assert code == 2, out
    lines = [line for line in out.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error:"), out
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


# -- how a spec is read ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec, split",
    [
        ("tie", None),
        ("tie:9", None),
        ("banker:4", None),
        ("egalite:8,9@40", None),
        ("mine.toml:tie-bonus", ("mine.toml", "tie-bonus")),
        ("MINE.TOML:tie-bonus", ("MINE.TOML", "tie-bonus")),
        ("bets/mine:tie-bonus", ("bets/mine", "tie-bonus")),
        ("./mybets:x", ("./mybets", "x")),
        ("/abs/path/v1.toml: tie-bonus ", ("/abs/path/v1.toml", "tie-bonus")),
    ],
)
def test_file_name_or_name_param(spec, split):
    assert split_file_spec(spec) == split


def test_a_file_named_like_a_catalogue_bet_never_changes_a_catalogue_spec(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tie").write_text(BETS_TOML, encoding="utf-8")
    assert split_file_spec("tie:9") is None  # the catalogue's Tie paying 9, whatever files exist
    assert split_file_spec("./tie:tie-bonus") == ("./tie", "tie-bonus")


def test_the_ambiguous_case_is_one_clear_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mybets").write_text(BETS_TOML, encoding="utf-8")
    with pytest.raises(BetError, match=r"write \./mybets:tie-bonus"):
        split_file_spec("mybets:tie-bonus")
    line = one_line_error(["bets", "--bet", "mybets:tie-bonus"], "./mybets:tie-bonus")
    assert "catalogue" in line


@pytest.mark.parametrize(
    "spec, words",
    [
        ("mine.toml", ["--bet-file mine.toml", "mine.toml:NAME"]),
        ("mine.toml:", ["no bet name"]),
    ],
)
def test_a_file_without_a_name_is_an_error(spec, words):
    with pytest.raises(BetError) as err:
        split_file_spec(spec)
    for word in words:
        assert word in str(err.value)


def test_names_compare_as_the_catalogue_compares():
    assert bet_key(" Tie_Bonus ") == "tie-bonus"
    assert catalogue_name("BIG_TIGER") == "big-tiger"
    assert catalogue_name("b") == "banker" and catalogue_name("tie:special") == "tie"
    assert catalogue_name("tie-bonus") is None


# -- choosing ----------------------------------------------------------------------------------


def test_file_name_picks_one_bet_and_bet_file_picks_all(bet_file):
    one = choose(["mine.toml:TIE_BONUS", "tie:9"])
    assert [b.name for b in one.bets] == ["tie-bonus", "tie:9"]
    assert [b.name for b in one.from_files] == ["tie-bonus"]
    every = choose([], [str(bet_file)])
    assert [b.name for b in every.bets] == ["tie-bonus", "suited-player-pair"]


def clash_file(tmp_path, name):
    path = tmp_path / "clash.toml"
    path.write_text(
        f'[[bet]]\nname = "{name}"\n[[bet.pay]]\nwhen = {{ winner = "tie" }}\npays = 8\n', encoding="utf-8"
    )
    return path


@pytest.mark.parametrize("name", ["big-tiger", "Banker", "b", "tie:special", "Dragon_7"])
def test_a_file_bet_on_a_catalogue_name_is_refused(tmp_path, name):
    path = clash_file(tmp_path, name)
    with pytest.raises(BetError, match="takes the name of the catalogue bet"):
        choose([], [str(path)])
    with pytest.raises(BetError, match="takes the name of the catalogue bet"):
        refuse_clashes(load_bets(path))
    with pytest.raises(BetError, match="takes the name of the catalogue bet"):
        FileBets.of(load_bets(path))


@pytest.mark.parametrize("name", ["dragon\u20107", "p\u0430nda-8", "\uff54ie", "ban\u00adker"])
def test_a_bet_named_with_a_look_alike_of_a_catalogue_name_is_refused(name):
    # a bet built in Python (a bet file's name must be ASCII: tests/test_betfile.py)
    bet = dataclasses.replace(find_bet("tie"), name=name)
    with pytest.raises(BetError, match="looks like the name of the catalogue bet"):
        refuse_clashes([bet])
    refuse_clashes([dataclasses.replace(find_bet("tie"), name="dragon-7-house")])  # a name of its own


@pytest.mark.parametrize(
    "command",
    [
        ["bets"],
        ["deal", "2", "4", "3", "10"],
        ["verify", "log.csv"],
        ["conform", "obs.json"],
        ["eor", "--depth", "1"],
        ["symbolic", "--table", "none"],
        ["study", "--shoes", "1"],
    ],
)
def test_every_command_refuses_bad_bet_files_in_one_line(tmp_path, bet_file, command):
    (tmp_path / "log.csv").write_text("cards\n2 4 3 10\n", encoding="utf-8")
    (tmp_path / "obs.json").write_text('{"decks": 8, "winner": {"banker": 1, "player": 1, "tie": 0}}')
    clash = clash_file(tmp_path, "big-tiger")
    one_line_error([*command, "--bet-file", "missing.toml"], "missing.toml", "no such bet file")
    one_line_error([*command, "--bet", "mine.toml:nope"], "no bet 'nope'", "tie-bonus, suited-player-pair")
    one_line_error([*command, "--bet-file", clash], "'big-tiger'", "catalogue bet 'big-tiger'")
    one_line_error([*command, "--bet", f"{clash}:big-tiger"], "catalogue bet 'big-tiger'")


def test_a_bet_chosen_twice_is_an_error(bet_file):
    with pytest.raises(BetError, match="chosen twice"):
        choose(["mine.toml:tie-bonus"], [str(bet_file)])
    with pytest.raises(BetError, match="chosen twice"):
        choose(["mine.toml:tie-bonus", "./mine.toml:tie-bonus"])


# -- the bets from files, passed by value --------------------------------------------------------


def test_file_bets_make_names_known_where_given(bet_file):
    mine = load_bets(bet_file)
    with pytest.raises(BetError, match=r"unknown bet .tie-bonus.*--bet-file FILE"):
        lookup_bet("tie-bonus")
    known = FileBets.of(mine)
    assert FileBets.of(known) is known
    assert lookup_bet("Tie_Bonus", known) is mine[0]
    assert lookup_bet("tie:9", known).name == "tie:9"
    with pytest.raises(BetError, match="bet files given: tie-bonus, suited-player-pair"):
        lookup_bet("nope", known)
    with pytest.raises(BetError, match="given twice"):
        FileBets.of([*mine, mine[0]])
    with pytest.raises(BetError, match="give a list of Bet objects"):
        FileBets.of(mine[0])  # type: ignore[arg-type]
    assert choose([], [str(bet_file)]).file_bets.get("suited_player_pair") is not None
    assert not NO_FILE_BETS and choose(["tie"]).file_bets is not NO_FILE_BETS


def test_a_remembered_claim_never_crosses_bet_files():
    """Two files, one name, two different bets: each log is settled by its own bet (verify
    remembers claims by the bets from files too, by identity)."""
    pays_8 = parse_bets('[[bet]]\nname = "x-tie"\n[[bet.pay]]\nwhen = { winner = "tie" }\npays = 8\n')
    pays_9 = parse_bets('[[bet]]\nname = "x-tie"\n[[bet.pay]]\nwhen = { winner = "tie" }\npays = 9\n')
    tie = "K 10 9 9"  # Player 9, Banker 9: a tie
    for bets, pays in ((pays_8, "8"), (pays_9, "9"), (pays_8, "8")):
        lines = iter(["cards,stake,bet:x-tie\n", f"{tie},1,{pays}\n"])
        records = handlog.read_records(lines, "csv", file_bets=FileBets.of(bets))
        assert list(verify.Verifier().run(records)) == []


# -- the same exact values everywhere ----------------------------------------------------------


def _json(args):
    code, out = run(*args)
    assert code in (0, 1), out
    return json.loads(out)


@pytest.mark.parametrize("name", ["tie-bonus", "suited-player-pair"])
def test_one_file_bet_gives_the_same_fractions_on_every_path(bet_file, name):
    bet = {b.name: b for b in load_bets(bet_file)}[name]
    shoe = Shoe.standard(8)
    summary = price(bet, shoe)
    ev = summary.ev
    spec = f"mine.toml:{name}"

    # bets, by --bet FILE:NAME and by --bet-file
    for args in (["--bet", spec], ["--bet-file", bet_file]):
        rows = _json(["bets", *args, "--format", "json"])["tables"][0]["rows"]
        row = next(r for r in rows if r["bet"] == bet.title)
        assert Fraction(row["ev"]) == ev and Fraction(row["variance"]) == summary.variance

    # eor: the EV of the full shoe and after removing one 9
    tables = {
        t["name"]: t for t in _json(["eor", "--bet", spec, "--depth", "1", "--format", "json"])["tables"]
    }
    assert Fraction(tables["eor-summary"]["rows"][0]["ev"]) == ev
    nine = next(r for r in tables[f"eor:{name}"]["rows"] if r["rank"] == "9")
    assert Fraction(nine["ev_after"]) == price(bet, shoe.remove("9s")).ev  # suits alike: any 9

    # symbolic: the closed form at d = 8, on the command line and in the library
    doc = _json(["symbolic", "--bet", spec, "--table", "none", "--quantity", "ev", "--format", "json"])
    form = next(f for s in doc["sections"] for f in s["forms"] if f["key"] == f"{name}:ev")
    assert Fraction(form["values"]["8"]) == ev == bet_forms(bet).ev(8)

    # the oracle: the Bet object, and its name given its bets
    assert house_edge(bet, 8) == -ev
    assert house_edge(name, shoe, bets=[bet]) == -ev

    # conform: the exact probabilities of win / push / loss
    expected = {"win": Fraction(0), "push": Fraction(0), "loss": Fraction(0)}
    for event in summary.events:
        expected["win" if event.pays > 0 else "push" if event.pays == 0 else "loss"] += event.probability
    counts = {"decks": 8, f"bet:{name}": {"win": 10, "push": 10, "loss": 980}}
    (bet_file.parent / "obs.json").write_text(json.dumps(counts), encoding="utf-8")
    rows = _json(["conform", "obs.json", "--bet-file", bet_file, "--format", "json"])["tables"][0]["rows"]
    assert {r["category"]: Fraction(r["probability"]) for r in rows} == {
        k: v for k, v in expected.items() if k in {r["category"] for r in rows}
    }
    assert sum(expected.values()) == 1


def test_verify_settles_a_file_bet_as_the_bet_pays(bet_file):
    """A settled log naming a file bet: right amounts pass (exit 0); a wrong one is reported
    with the exact expected amount (exit 1), by --bet-file and by --bet FILE:NAME alike."""
    bet = load_bets(bet_file)[0]
    coups = ["K 10 9 9", "2 4 3 10 6 A", "3 4 3 2", "9 K K 4"]
    lines = ["cards,stake,bet:tie-bonus"]
    for cards in coups:
        lines.append(f"{cards},2,{fraction_text(2 * bet.payout(resolve(cards)))}")
    (bet_file.parent / "good.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for args in (["--bet-file", bet_file], ["--bet", "mine.toml:tie-bonus"]):
        code, out = run("verify", "good.csv", *args)
        assert code == 0, out
    assert [bet.payout(resolve(c)) for c in coups] == [25, 0, Fraction(3, 2), -1]
    bad = [*lines[:2], "3 4 3 2,2,2"]  # a tie on 6: pays 3/2, so 3 on a stake of 2
    (bet_file.parent / "bad.csv").write_text("\n".join(bad) + "\n", encoding="utf-8")
    code, out = run("verify", "bad.csv", "--bet-file", bet_file, "--format", "jsonl")
    assert code == 1
    found = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert [(f["field"], f["expected"], f["claimed"]) for f in found] == [("bet:tie-bonus", "3 net", "2 net")]
    code, out = run("verify", "good.csv")
    assert code == 2 and "tie-bonus" in out  # without the file the name is unknown


def test_conform_tallies_file_bets_from_a_hand_log(bet_file):
    lines = ["cards", "Ks 10h 9d 9c", "2s 4h 3d 10c 6s Ah", "3s 4h 3s 2d", "9h Kh Kh 4c"]
    (bet_file.parent / "log.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for args in (["--bet-file", bet_file], ["--bet", "mine.toml:tie-bonus"]):
        doc = _json(["conform", "log.csv", *args, "--family", "bet:tie-bonus", "--format", "json"])
        observed = {r["category"]: r["observed"] for r in doc["tables"][0]["rows"]}
        assert observed == {"win": 2, "push": 1, "loss": 1}
    doc = _json(
        [
            "conform",
            "log.csv",
            "--bet-file",
            bet_file,
            "--family",
            "bet:suited-player-pair",
            "--format",
            "json",
        ]
    )
    observed = {r["category"]: r["observed"] for r in doc["tables"][0]["rows"]}
    assert observed == {"win": 1, "push": 0, "loss": 3}  # 3s 3s: the same card twice


def test_the_oracle_takes_bets_from_load_bets(bet_file):
    tie_bonus, suited = load_bets(bet_file)
    assert assert_payout(tie_bonus, "K 10 9 9", 10, 250) == 250
    assert assert_payout(suited, "Kh 9s Kh 9d", 1, 30) == 30
    assert assert_payout(suited, "Kh 9s Kd 9d", 1, -1) == -1
    with pytest.raises(AssertionError, match="Tie on naturals"):
        assert_payout(tie_bonus, "K 10 9 9", 10, 80)
    assert assert_payout("tie-bonus", "3 4 3 2", 2, 3, bets=[tie_bonus]) == 3


def test_brute_force_agrees_on_a_tiny_shoe(bet_file):
    from bruteforce import brute_events, deal_every_coup, engine_events

    shoe = Shoe.parse("Ks=2,9h=2,3s=2,2d=2,6c=1,Ah=1")
    for bet in load_bets(bet_file):
        summary = price(bet, shoe)
        assert engine_events(bet, summary) == brute_events(bet, deal_every_coup(shoe))
        code, out = run(
            "bets",
            "--shoe",
            "Ks=2,9h=2,3s=2,2d=2,6c=1,Ah=1",
            "--bet",
            f"mine.toml:{bet.name}",
            "--format",
            "json",
        )
        assert code == 0, out
        assert Fraction(json.loads(out)["tables"][0]["rows"][0]["ev"]) == summary.ev


def test_deal_and_study_take_file_bets(bet_file):
    code, out = run("deal", "K", "10", "9", "9", "--bet", "mine.toml:tie-bonus", "--stake", "2")
    assert code == 0 and "Tie on naturals: pays 25 per unit, net +50" in out
    code, out = run(
        "study", "--bet", "mine.toml:tie-bonus", "--shoes", "2", "--strategy", "flat", "--format", "json"
    )
    assert code == 0, out
    assert "tie-bonus" in out


def test_output_never_overwrites_a_bet_file(bet_file):
    for command in (["bets"], ["eor", "--depth", "1"], ["symbolic", "--table", "none"]):
        one_line_error([*command, "--bet", "mine.toml:tie-bonus", "-o", "mine.toml"], "mine.toml")
    assert load_bets(bet_file)[0].name == "tie-bonus"


def test_catalogue_bets_still_resolve_everywhere():
    assert lookup_bet("tie:9") == find_bet("tie:9") == lookup_bet("tie:9", NO_FILE_BETS)


def test_duplicate_bets_are_an_error(cli):
    result = cli("bets", "--bet", "banker", "--bet", "BANKER")
    assert result.exit_code == 2 and "twice" in result.output


# -- bets found by their pays (find_by_pays, bets --pays) ----------------------------------------


def _pays(*values):
    return tuple(sorted((Fraction(v) for v in values), reverse=True))


@pytest.mark.parametrize("text, values", [
    ("19/20", [Fraction(19, 20)]),
    ("0.95", [Fraction(19, 20)]),
    (" 1.5 , 11 ", [Fraction(11), Fraction(3, 2)]),
    ("1,30,10,6,4,2,1", [30, 10, 6, 4, 2, 1, 1]),
    ("1.5e1", [15]),
])
def test_pays_are_read_exactly_largest_first(text, values):
    assert parse_pays(text) == tuple(Fraction(v) for v in values)
    # 0.95 is not the float nearest it: the exact value only
    assert Fraction(0.95) not in parse_pays("0.95")


@pytest.mark.parametrize("text, words", [
    ("", "empty --pays"),
    ("   ", "empty --pays"),
    ("30,,10", "an empty pay between commas"),
    ("30,10,", "an empty pay between commas"),
    ("0", "winning pays only"),
    ("30,-1", "winning pays only"),
    ("5%", "not a percentage"),
    ("thirty", "bad pay in --pays 'thirty'"),
    ("0x1F", "bad pay in --pays"),
    (",".join(["1"] * (MAX_PAYS + 1)), f"at most {MAX_PAYS}"),
])
def test_bad_pays_are_one_clear_error(text, words):
    with pytest.raises(BetError) as err:
        parse_pays(text)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_every_published_pay_table_finds_its_bet_by_every_line_and_by_its_distinct_pays():
    for bet in catalogue_bets():
        own = winning_pays(bet)
        if not own:
            continue
        found = {m.bet.name: m.kind for m in find_by_pays(own).matches}
        assert found.get(bet.name) is MatchKind.EXACT, bet.name
        distinct = tuple(sorted(set(own), reverse=True))
        kind = find_by_pays(distinct).matches
        expected = MatchKind.EXACT if distinct == own else MatchKind.DISTINCT
        assert {m.bet.name: m.kind for m in kind}.get(bet.name) is expected, bet.name


def test_every_match_pays_the_list_and_no_published_table_is_missed():
    for text in ("30,10,6,4,2,1", "9", "1/2,1", "25,250", "19/20", "12,20", "1,30,10,4,4,2,2"):
        wanted = parse_pays(text)
        finding = find_by_pays(text)
        for m in finding.matches:
            own = winning_pays(m.bet)
            assert Counter(own) == Counter(wanted) or (
                m.kind is MatchKind.DISTINCT and set(own) == set(wanted) and len(set(wanted)) == len(wanted))
        listed = {m.bet.name for m in finding.matches}
        assert listed == {b.name for b in catalogue_bets() if Counter(winning_pays(b)) == Counter(wanted)
                          or (len(set(wanted)) == len(wanted) and set(winning_pays(b)) == set(wanted))}


def test_the_dragon_bonus_table_posted_as_table_2_is_found_whatever_its_name():
    # the table as Cypress Bayou posts it: natural win 1, then the margins' pays, each once
    margins = DRAGON_BONUS_TABLES["2"]
    posted = ",".join(str(p) for p in [1, *sorted(set(margins.values()), reverse=True)])
    names = [m.bet.name for m in find_by_pays(posted).matches]
    assert names == ["dragon-bonus-player:2", "dragon-bonus-banker:2"]
    # every line, the natural win with them
    every = ",".join(str(p) for p in [1, *margins.values()])
    assert [m.kind for m in find_by_pays(every).matches] == [MatchKind.EXACT] * 2
    # table 1 is another table
    one = ",".join(str(p) for p in [1, *DRAGON_BONUS_TABLES["1"].values()])
    assert "dragon-bonus-player:2" not in {m.bet.name for m in find_by_pays(one).matches}


def test_a_bet_whose_parameter_is_the_pay_matches_with_it_when_asked():
    finding = find_by_pays("7")
    assert finding.matches == () and "tie:7" in finding.unlisted and "dragon-7:7" in finding.unlisted
    listed = {m.bet.name: m for m in find_by_pays("7", with_params=True).matches}
    assert set(listed) == set(finding.unlisted)
    assert all(m.kind is MatchKind.PARAMETER for m in listed.values())
    tie7 = listed["tie:7"].bet
    direct = find_bet("tie:7")
    assert [(ln.event, ln.pays) for ln in tie7.lines] == [(ln.event, ln.pays) for ln in direct.lines]
    # the pay is the parameter: egalite's parameter is a total, so it never matches so
    assert not any(name.startswith("egalite") for name in listed)


def test_banker_matches_by_the_commission_that_gives_the_pay():
    listed = [m.bet for m in find_by_pays("0.97", with_params=True).matches]
    banker = next(b for b in listed if b.name.startswith("banker:"))
    assert winning_pays(banker) == _pays(Fraction(97, 100))
    assert banker.name == "banker:3" and banker.title == find_bet("banker:3").title


def test_a_published_table_is_listed_once_not_again_with_its_parameter():
    finding = find_by_pays("9", with_params=True)
    names = [m.bet.name for m in finding.matches]
    assert names.count("tie:9") == 1 and len(names) == len(set(names))
    published = [m for m in finding.matches if m.kind is MatchKind.EXACT]
    nine = _pays(9)
    assert {m.bet.name for m in published} == {b.name for b in catalogue_bets() if winning_pays(b) == nine}
    # exact matches come first
    kinds = [m.kind for m in finding.matches]
    assert kinds == sorted(kinds, key=lambda k: k is MatchKind.PARAMETER)


def test_near_tables_when_nothing_matches_fewest_lines_differing_first():
    table = winning_pays(find_bet("lucky-nines"))
    changed = (table[0] + 1, *table[1:])        # one pay changed
    finding = find_by_pays(changed)
    assert not finding.exact
    first = finding.matches[0]
    assert first.bet.name == "lucky-nines" and first.kind is MatchKind.NEAR and first.differs == 1
    assert first.bet_only == (table[0],) and first.list_only == (table[0] + 1,)
    assert [m.differs for m in finding.matches] == sorted(m.differs for m in finding.matches)
    assert len(finding.matches) <= MOST_NEAR
    # a line the list lacks counts one: the Dragon Bonus margins of table 2 without the natural
    margins = tuple(sorted((Fraction(p) for p in DRAGON_BONUS_TABLES["2"].values()), reverse=True))
    near = find_by_pays(margins).matches
    assert [m.bet.name for m in near[:2]] == ["dragon-bonus-player:2", "dragon-bonus-banker:2"]
    assert near[0].bet_only == (Fraction(1),) and near[0].list_only == ()
    # every near table is within half the list's lines
    assert all(m.differs <= len(margins) // 2 for m in near)


def test_a_one_pay_list_or_a_table_sharing_nothing_has_no_near_table():
    assert find_by_pays("7").matches == ()
    assert find_by_pays("1000001,1000003").matches == ()


# -- bets written in Python, named by their module (--bet-module) -------------------------------

PYTHON_BETS = '''
from analyzer import Bet, Reads
from analyzer.core.coup import B3, P3


def _one_rank(c):
    a, b = c.card(P3), c.card(B3)
    return 50 if a is not None and b is not None and a.rank == b.rank else -1


THIRDS = Bet.from_function("py-thirds", _one_rank, reads=Reads.of([], [[P3], [B3]], ranks="equality"))


def make_thirds():
    return THIRDS


NOT_A_BET = 3
CLASH = Bet.from_function("dragon-7", lambda c: -1, reads=Reads.of(["winner"]))


def broken():
    raise RuntimeError("no")
'''


@pytest.fixture
def python_bets(tmp_path, monkeypatch):
    """A module of Python bets in the current folder, forgotten again after the test."""
    import sys

    from analyzer.bets import choice

    (tmp_path / "my_python_bets.py").write_text(PYTHON_BETS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    yield "my_python_bets"
    sys.modules.pop("my_python_bets", None)
    choice.name_module_bets((), chosen=False)


def test_a_python_bet_is_named_by_its_module(python_bets):
    from analyzer.bets.choice import bet_from_module

    bet = bet_from_module(f"{python_bets}:THIRDS")
    assert bet.name == "py-thirds"
    assert bet_from_module(f"{python_bets}:make_thirds") is bet  # a function of no argument


@pytest.mark.parametrize("spec, words", [
    ("no colon", "give MODULE:NAME"),
    ("my_python_bets:", "give MODULE:NAME"),
    ("not_there_at_all:X", "cannot import it: ModuleNotFoundError"),
    ("my_python_bets:MISSING", "has no 'MISSING'"),
    ("my_python_bets:NOT_A_BET", "is not a bet"),
    ("my_python_bets:broken", "broken() failed: RuntimeError: no"),
])
def test_a_bad_python_bet_is_one_error(python_bets, spec, words):
    from analyzer.bets.choice import bet_from_module

    with pytest.raises(BetError, match=words.replace("(", r"\(").replace(")", r"\)")):
        bet_from_module(spec)


def test_python_bets_chosen_or_known_by_name(python_bets):
    from analyzer.bets.choice import give_module_bets, named_bet

    give_module_bets([f"{python_bets}:THIRDS"], chosen=True)  # --bet-module: chosen as a file's bets
    choice = choose(["tie"])
    assert [b.name for b in choice.bets] == ["tie", "py-thirds"]
    assert lookup_bet("PY_thirds", choice.file_bets).name == "py-thirds"
    with pytest.raises(BetError, match="chosen twice"):
        choose(["py-thirds"])
    give_module_bets([f"{python_bets}:THIRDS"], chosen=False)  # the service: named, not chosen
    assert [b.name for b in choose(["tie"]).bets] == ["tie"]
    assert [b.name for b in choose(["py-thirds"]).bets] == ["py-thirds"]
    assert named_bet("py-thirds").name == "py-thirds" and named_bet("tie:9").name == "tie:9"
    with pytest.raises(BetError, match="takes the name of the catalogue bet 'dragon-7'"):
        give_module_bets([f"{python_bets}:CLASH"])


def test_every_command_takes_a_python_bet(cli, python_bets, tmp_path):
    # the designer's bet in Python and in the bet-file language: one exact figure
    module = ["--bet-module", f"{python_bets}:THIRDS"]
    text = '[[bet]]\nname = "thirds"\n[[bet.pay]]\nwhen = { "{P3, B3}" = { same_rank = true } }\npays = 50\n'
    (tmp_path / "thirds.toml").write_text(text, encoding="utf-8")
    priced = cli("bets", *module, "--bet-file", "thirds.toml", "--format", "json", "--decks", "1")
    assert priced.exit_code == 0, priced.output
    rows = json.loads(priced.stdout)["tables"][0]["rows"]
    assert [r["bet_name"] for r in rows] == ["thirds", "py-thirds"] and rows[0]["ev"] == rows[1]["ev"]
    dealt = cli("deal", *module, "Kh", "4h", "3d", "10c", "6s", "6h")
    assert dealt.exit_code == 0 and "py-thirds" in dealt.stdout and "pays 50" in dealt.stdout
    for args in (["eor", "--decks", "1"], ["symbolic"], ["study", "--shoes", "2", "--decks", "1"],
                 ["report", "--decks", "1", "-o", "report.md"], ["vectors", "-o", "kit"]):
        done = cli(args[0], *module, *args[1:])
        assert done.exit_code == 0, (args, done.output)
    assert "py-thirds" in (tmp_path / "report.md").read_text(encoding="utf-8")
    manifest = json.loads((tmp_path / "kit" / "MANIFEST.json").read_text(encoding="utf-8"))
    assert manifest["bets"] == ["py-thirds"]
    assert f"--bet-module {python_bets}:THIRDS" in manifest["regenerate"]
    refused = cli("bets", "--bet-module", "not_there_at_all:X")
    assert refused.exit_code == 2 and refused.output.startswith("Error: bet module 'not_there_at_all'")
    assert len(refused.output.strip().splitlines()) == 1


def test_choose_takes_the_bets_a_caller_built_already(monkeypatch):
    # the service builds each catalogue spec once (named_bet) and hands the bets over
    from analyzer.bets import choice as module

    built = {"tie": find_bet("tie"), "dragon-7": find_bet("dragon-7")}
    monkeypatch.setattr(module, "find_bet", lambda spec: pytest.fail(f"{spec} built again"))
    picked = choose(["dragon-7", "tie"], resolved=built)
    assert picked.bets[0] is built["dragon-7"] and picked.bets[1] is built["tie"]
    assert picked.from_files == ()


def test_a_choice_keeps_the_bets_named_apart_from_the_whole_catalogue():
    # tie:7 is no catalogue default nor published alternative: with --all it is chosen once
    named = choose(["tie:7"]).bets
    with_all = choose(["tie:7"], all_bets=True)
    assert with_all.named == named and len(with_all.bets) == len(catalogue_bets()) + 1
    assert choose(["tie:7"]).named == named
