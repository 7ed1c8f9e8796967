"""The tableau as a value: the registry, TOML round trips, fingerprints, rules files and their
errors, and the shipped example files (the rules themselves are checked against RULES.md and
sheet 004 in test_rules.py)."""

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from analyzer import STANDARD, TABLEAUX, find_tableau, parse_tableau
from analyzer.core.tableau import (
    BANKER_STANDS_ON_6,
    BANKER_UNDER_5_WHEN_PLAYER_STOOD,
    MAX_RULES_FILE_BYTES,
    Tableau,
    make_tableau,
)
from analyzer.errors import AnalyzerError, RulesError

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "rules"
VARIANTS = ("banker-stands-on-6", "banker-under-5-when-player-stood", "banker-draws-on-6-against-5")


def test_registry_names():
    assert set(TABLEAUX) == {"standard", *VARIANTS}
    for name, tableau in TABLEAUX.items():
        assert isinstance(tableau, Tableau) and tableau.name == name and tableau.title
    assert TABLEAUX["standard"] is STANDARD
    assert TABLEAUX["banker-stands-on-6"] is BANKER_STANDS_ON_6
    assert TABLEAUX["banker-under-5-when-player-stood"] is BANKER_UNDER_5_WHEN_PLAYER_STOOD


@pytest.mark.parametrize(
    "spelling, name",
    [
        ("standard", "standard"),
        ("Standard", "standard"),
        ("  STANDARD ", "standard"),
        ("banker_stands_on_6", "banker-stands-on-6"),
        ("Banker-Under-5-When-Player-Stood", VARIANTS[1]),
    ],
)
def test_find_tableau_by_name(spelling, name):
    assert find_tableau(spelling) is TABLEAUX[name]


def test_find_tableau_passes_a_tableau_through():
    assert find_tableau(BANKER_STANDS_ON_6) is BANKER_STANDS_ON_6


@pytest.mark.parametrize("name", sorted(TABLEAUX))
def test_toml_round_trip(name, tmp_path):
    tableau = TABLEAUX[name]
    text = tableau.to_toml()
    assert parse_tableau(text) == tableau
    assert parse_tableau(text).fingerprint == tableau.fingerprint
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    assert find_tableau(str(path)) == tableau
    # a byte-order mark is accepted
    path.write_text("\ufeff" + text, encoding="utf-8")
    assert find_tableau(str(path)) == tableau


@pytest.mark.parametrize("name", VARIANTS)
def test_example_rules_files_are_the_registry_entries(name):
    path = EXAMPLES / f"{name}.toml"
    loaded = find_tableau(str(path))
    assert loaded == TABLEAUX[name]
    assert loaded.fingerprint == TABLEAUX[name].fingerprint


def test_every_example_rules_file_is_registered():
    shipped = {p.stem for p in EXAMPLES.glob("*.toml")}
    assert shipped == set(VARIANTS)


def test_fingerprint_ignores_name_title_and_source():
    for tableau in TABLEAUX.values():
        renamed = dataclasses.replace(tableau, name="mine", title="my rules", source="somewhere")
        assert renamed.fingerprint == tableau.fingerprint
        assert renamed != tableau  # a different name is a different rule set by name ...
        assert parse_tableau(renamed.to_toml()) == renamed  # ... and round-trips as such


def test_fingerprints_of_the_rule_sets_differ():
    prints = {t.fingerprint for t in TABLEAUX.values()}
    assert len(prints) == len(TABLEAUX)
    for tableau in TABLEAUX.values():
        assert len(tableau.fingerprint) == 16 and int(tableau.fingerprint, 16) >= 0


def test_fingerprint_is_stable_across_processes():
    # The fingerprint keys the disk cache: it must not depend on hash randomisation.
    code = "from analyzer import TABLEAUX; print(' '.join(TABLEAUX[n].fingerprint for n in sorted(TABLEAUX)))"
    outs = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONHASHSEED": seed, "PATH": ""},
        ).stdout.strip()
        for seed in ("0", "1", "12345")
    }
    assert outs == {" ".join(TABLEAUX[n].fingerprint for n in sorted(TABLEAUX))}


def test_a_rules_file_with_the_standard_rules_under_another_name_shares_its_fingerprint(tmp_path):
    text = STANDARD.to_toml().replace('name = "standard"', 'name = "house-rules"')
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    mine = find_tableau(str(path))
    assert mine.name == "house-rules" and mine.fingerprint == STANDARD.fingerprint
    assert mine.describe() != STANDARD.describe()  # named as the file names it
    without_source = "\n".join(line for line in text.splitlines() if not line.startswith("source ="))
    path.write_text(without_source, encoding="utf-8")
    assert find_tableau(str(path)).source == f"rules file {path}"


def _standard_with(old: str, new: str) -> str:
    text = STANDARD.to_toml()
    assert old in text
    return text.replace(old, new)


BAD_FILES = [
    ("name = [", ["not valid TOML"]),
    (_standard_with("naturals = [8, 9]", "naturals = [8, 9]\nbonus = 3"), ["'bonus'"]),
    (_standard_with('name = "standard"\n', ""), ["'name'", "missing"]),
    (_standard_with("naturals = [8, 9]\n", ""), ["'naturals'", "missing"]),
    (_standard_with("naturals = [8, 9]", "naturals = [8, 10]"), ["natural", "10"]),
    (_standard_with("naturals = [8, 9]", "naturals = [8, 8]"), ["naturals", "twice"]),
    (_standard_with("naturals = [8, 9]", 'naturals = "8, 9"'), ["naturals", "list"]),
    (
        _standard_with("player_draws = [0, 1, 2, 3, 4, 5]", "player_draws = [0, 1, 2, 3, 4, 5, 8]"),
        ["player_draws", "8", "natural"],
    ),
    (_standard_with("player_draws = [0, 1, 2, 3, 4, 5]", "player_draws = [0, 1, true]"), ["player_draws"]),
    (
        _standard_with("when_player_stood = [0, 1, 2, 3, 4, 5]", "when_player_stood = [0, 1.5]"),
        ["when_player_stood"],
    ),
    (_standard_with("7 = []\n", ""), ["when_player_drew", "7"]),
    (_standard_with("7 = []", "7 = []\n8 = []"), ["8", "natural"]),
    (_standard_with("7 = []", "7 = []\nx = []"), ["when_player_drew", "'x'"]),
    (_standard_with("7 = []", '7 = "never"'), ["when_player_drew.7"]),
    (_standard_with("6 = [6, 7]", "6 = [6, 70]"), ["70"]),
    (_standard_with('name = "standard"', "name = 3"), ["'name'", "text"]),
    (_standard_with('name = "standard"', 'name = ""'), ["name"]),
    (_standard_with("[banker.when_player_drew]", "[banker.when_player_drew]\n[banker.extra]"), ["[banker]"]),
]


@pytest.mark.parametrize("body, words", BAD_FILES)
def test_bad_rules_files_name_the_file_and_the_key(tmp_path, body, words):
    path = tmp_path / "broken-rules.toml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(RulesError) as info:
        find_tableau(str(path))
    message = str(info.value)
    assert str(path) in message
    for word in words:
        assert word in message, (word, message)


def test_unreadable_rules_files(tmp_path):
    with pytest.raises(RulesError, match=r"unknown rules 'no-such-rules'.*standard"):
        find_tableau("no-such-rules")
    with pytest.raises(RulesError, match="not a regular file"):
        find_tableau(str(tmp_path))
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b'name = "\xff"\n')
    with pytest.raises(RulesError, match="not UTF-8"):
        find_tableau(str(binary))
    huge = tmp_path / "huge.toml"
    huge.write_text("#" * (MAX_RULES_FILE_BYTES + 10), encoding="utf-8")
    with pytest.raises(RulesError, match="larger than"):
        find_tableau(str(huge))
    for bad in ("", "   ", None, 3):
        with pytest.raises(RulesError):
            find_tableau(bad)


def test_rules_errors_are_analyzer_errors():
    assert issubclass(RulesError, AnalyzerError) and issubclass(RulesError, ValueError)


def test_make_tableau_checks_its_rules():
    good = {
        "naturals": (8, 9),
        "player_draws": range(6),
        "banker_when_player_stood": range(6),
        "banker_when_player_drew": {t: STANDARD.banker_draws_on_third[t] for t in range(8)},
    }
    copy = make_tableau("copy", "a copy", **good)
    assert copy == dataclasses.replace(STANDARD, name="copy", title="a copy")
    with pytest.raises(RulesError, match="no entry for Banker total 7"):
        make_tableau("x", "x", **{**good, "banker_when_player_drew": {t: () for t in range(7)}})
    with pytest.raises(RulesError, match="natural"):
        make_tableau("x", "x", **{**good, "banker_when_player_stood": (0, 8)})
    with pytest.raises(RulesError, match="0-9"):
        make_tableau("x", "x", **{**good, "naturals": (8, 9, 10)})
    with pytest.raises(RulesError, match="bad rules name"):
        make_tableau("line\nbreak", "x", **good)


def test_variants_differ_from_the_standard_only_where_named():
    assert BANKER_STANDS_ON_6.banker_draws_on_third[6] == frozenset()
    for t in range(10):
        if t != 6:
            assert BANKER_STANDS_ON_6.banker_draws_on_third[t] == STANDARD.banker_draws_on_third[t]
    assert BANKER_STANDS_ON_6.banker_draws_when_player_stood == STANDARD.banker_draws_when_player_stood
    assert BANKER_UNDER_5_WHEN_PLAYER_STOOD.banker_draws_when_player_stood == frozenset(range(5))
    assert BANKER_UNDER_5_WHEN_PLAYER_STOOD.banker_draws_on_third == STANDARD.banker_draws_on_third
    for variant in (BANKER_STANDS_ON_6, BANKER_UNDER_5_WHEN_PLAYER_STOOD):
        assert (variant.naturals, variant.player_draws_on) == (STANDARD.naturals, STANDARD.player_draws_on)


def test_describe_names_non_standard_rules_by_fingerprint():
    assert STANDARD.describe() == STANDARD.title
    text = BANKER_STANDS_ON_6.describe()
    assert BANKER_STANDS_ON_6.name in text and BANKER_STANDS_ON_6.fingerprint in text


def test_printed_table_of_play_follows_the_rules():
    lines = STANDARD.table_of_play()
    assert "Player draws on: 0, 1, 2, 3, 4, 5; stands on: 6, 7" in lines
    assert "Banker, when the Player stood, draws on: 0, 1, 2, 3, 4, 5" in lines
    rows = {
        int(line.split("|")[0]): [part.strip() for part in line.split("|")[1:]]
        for line in lines
        if line.strip()[:1].isdigit()
    }
    assert rows[3] == ["0, 1, 2, 3, 4, 5, 6, 7, 9", "8"]  # RULES.md, "Tableau", step 4
    assert rows[7] == ["never", "any"]
    assert rows[0] == ["any", "-"]
    stands_on_6 = {
        int(line.split("|")[0]): line
        for line in BANKER_STANDS_ON_6.table_of_play()
        if line.strip()[:1].isdigit()
    }
    assert "never" in stands_on_6[6]


def test_a_missing_rules_file_is_named_as_a_missing_file(tmp_path):
    with pytest.raises(RulesError, match="no such rules file"):
        find_tableau(str(tmp_path / "mine.toml"))
    with pytest.raises(RulesError, match="known rule sets are"):
        find_tableau("no-such-rules")


# -- the order of the rules lives in the tableau ---------------------------------------------------


@pytest.mark.parametrize("name", sorted(TABLEAUX))
def test_the_order_of_the_rules_is_the_tableaus(name):
    """Naturals first, then the Player on its total, then the Banker on its total and the
    Player's hand as dealt: the two questions every dealer and checker asks, and ``draws``."""
    tableau = TABLEAUX[name]
    for p2 in range(10):
        for b2 in range(10):
            natural = p2 in tableau.naturals or b2 in tableau.naturals
            player = not natural and p2 in tableau.player_draws_on
            assert tableau.player_draws_third(p2, b2) is player
            for p3 in (None, *range(10)):
                banker = not natural and (
                    b2 in tableau.banker_draws_when_player_stood
                    if p3 is None
                    else p3 in tableau.banker_draws_on_third[b2]
                )
                assert tableau.banker_draws_third(p2, b2, p3) is banker
                if p3 is not None or not player:
                    as_dealt = p3 if player else None
                    assert tableau.draws(p2, b2, p3) == (player, tableau.banker_draws_third(p2, b2, as_dealt))


@pytest.mark.parametrize("name", sorted(TABLEAUX))
def test_the_vectorised_deal_reads_the_tableaus_order(name):
    """The shoe walk deals many coups at once from lookup tables: they are the tableau's answers."""
    from analyzer.studies.dealing import _rules_arrays

    tableau = TABLEAUX[name]
    player, banker = _rules_arrays(tableau)
    for p2 in range(10):
        for b2 in range(10):
            assert bool(player[p2, b2]) is tableau.player_draws_third(p2, b2)
            for p3 in range(11):
                assert bool(banker[p2, b2, p3]) is tableau.banker_draws_third(p2, b2, p3 if p3 < 10 else None)
