"""The one reader of shoes and rules (analyzer/core/inputs.py): the shoe and the tableau a
caller names, the words of the matching command, and each error once, naming the field as the
caller calls it (the command line's options, the service's fields)."""

from __future__ import annotations

import pytest

from analyzer.core.inputs import (
    RulesSpec,
    ShoeSpec,
    Spelling,
    read_inputs,
    read_rules,
    read_shoes,
)
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import STANDARD, TABLEAUX
from analyzer.errors import CardError, RulesError, ShoeError

COMMAND_LINE = Spelling("--decks", "--shoe", "--remove", "--remove", "--rules", "--rules", True)
SERVICE = Spelling("shoe.decks", "shoe.counts", "shoe.seen", "shoe.remove", "rules", "rules_toml", False)
RULES_TEXT = TABLEAUX["standard"].to_toml()


def test_the_default_shoe_is_8_decks_named_by_no_words():
    shoes, words = read_shoes(ShoeSpec(), SERVICE)
    assert shoes == (Shoe.standard(8),) and words == ()


@pytest.mark.parametrize(
    ("spec", "want", "words"),
    [
        (ShoeSpec(decks=6), Shoe.standard(6), ("--decks", "6")),
        (ShoeSpec(decks=(1,)), Shoe.standard(1), ("--decks", "1")),
        (ShoeSpec(counts="8=2,K=3"), Shoe.parse("8=2,K=3"), ("--shoe", "8=2,K=3")),
        (ShoeSpec(decks=8, seen=("5h", "Kd")), Shoe.standard(8).remove("5h Kd"),
         ("--decks", "8", "--remove", "5h Kd")),
        (ShoeSpec(remove="5=20"), Shoe.standard(8).remove("5=20"), ("--remove", "5=20")),
        (ShoeSpec(counts="32," * 12 + "128", remove="K"), Shoe.parse("32," * 12 + "128").remove("K"),
         ("--shoe", "32," * 12 + "128", "--remove", "K")),
    ],
)
def test_a_shoe_and_the_words_that_name_it(spec, want, words):
    shoes, said = read_shoes(spec, SERVICE)
    assert shoes == (want,) and said == words
    assert read_shoes(spec, COMMAND_LINE) == (shoes, said)  # the spelling changes messages only


def test_a_sweep_is_a_shoe_per_deck_count_in_order():
    shoes, words = read_shoes(ShoeSpec(decks=(1, 6, 8)), COMMAND_LINE)
    assert shoes == tuple(Shoe.standard(d) for d in (1, 6, 8)) and words == ("--decks", "1,6,8")


@pytest.mark.parametrize(
    ("spec", "command_line", "service"),
    [
        (ShoeSpec(decks=8, counts="8=2"), "give --decks or --shoe, not both",
         "give shoe.decks or shoe.counts, not both"),
        (ShoeSpec(decks=(1, 6), counts="8=2"), "give --decks or --shoe, not both", None),
        (ShoeSpec(decks=(1, 6), remove="K"),
         "--remove takes cards out of one shoe: give one --decks value with it", None),
        (ShoeSpec(seen=("K",), remove="K"), None,
         "give shoe.seen (cards) or shoe.remove (cards or counts as text), not both"),
        (ShoeSpec(remove=" , "),
         "--remove ' , ' names no card: give the cards to take out, e.g. --remove 'K 5h'",
         "shoe.remove ' , ' names no card: give the cards to take out, e.g. 'K 5h'"),
        (ShoeSpec(remove="5=0"),
         "--remove '5=0' removes no card: give a count above 0, e.g. --remove 5=20",
         "shoe.remove '5=0' removes no card: give a count above 0, e.g. 5=20"),
    ],
)
def test_each_shoe_error_names_the_field_as_the_caller_calls_it(spec, command_line, service):
    for names, message in ((COMMAND_LINE, command_line), (SERVICE, service)):
        if message is not None:
            with pytest.raises(ShoeError) as caught:
                read_shoes(spec, names)
            assert str(caught.value) == message


def test_cards_the_shoe_lacks_and_bad_cards_are_the_shoes_errors():
    with pytest.raises(ShoeError):
        read_shoes(ShoeSpec(counts="K=1", seen=("5",)), SERVICE)
    with pytest.raises(CardError):
        read_shoes(ShoeSpec(seen=("Zx",)), SERVICE)


def test_the_rules_by_name_text_or_default_and_their_words():
    assert read_rules(RulesSpec(), SERVICE) == (STANDARD, None, ())
    name = next(n for n in TABLEAUX if n != "standard")
    assert read_rules(RulesSpec(name=name.upper().replace("-", "_")), SERVICE) == (
        TABLEAUX[name], None, ("--rules", name.upper().replace("-", "_"))
    )
    tableau, rules_file, words = read_rules(RulesSpec(text=RULES_TEXT), SERVICE)
    assert tableau.fingerprint == STANDARD.fingerprint and rules_file is None
    assert words == ("--rules", "rules_toml")


def test_a_rules_file_is_read_only_where_files_are_allowed(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text(RULES_TEXT)
    tableau, rules_file, words = read_rules(RulesSpec(name=str(path), files=True), COMMAND_LINE)
    assert tableau.fingerprint == STANDARD.fingerprint
    assert rules_file == str(path) and words == ("--rules", str(path))
    with pytest.raises(RulesError) as caught:
        read_rules(RulesSpec(name=str(path)), SERVICE)  # never a path from the service
    assert str(caught.value) == (
        f"unknown rules {str(path)!r}: known rule sets are {', '.join(TABLEAUX)}; or send a TOML rules "
        "text as rules_toml"
    )


def test_rules_errors_name_the_fields():
    with pytest.raises(RulesError) as caught:
        read_rules(RulesSpec(name="standard", text=RULES_TEXT), SERVICE)
    assert str(caught.value) == "give rules (a rule-set name) or rules_toml (a TOML rules text), not both"
    with pytest.raises(RulesError, match="rules_toml"):
        read_rules(RulesSpec(text="draw = ["), SERVICE)  # the text is named by its field
    with pytest.raises(RulesError, match="no such rules file"):
        read_rules(RulesSpec(name="missing.toml", files=True), COMMAND_LINE)


@pytest.mark.parametrize(("shoe_first", "error"), [(False, RulesError), (True, ShoeError)])
def test_read_inputs_reads_both_in_the_callers_order(shoe_first, error):
    read = read_inputs(ShoeSpec(decks=6, remove="K"), RulesSpec(name="standard"), SERVICE)
    assert read.shoe == Shoe.standard(6).remove("K") and read.tableau is STANDARD
    assert read.shoe_words == ("--decks", "6", "--remove", "K") and read.rule_words == ("--rules", "standard")
    with pytest.raises(error):  # two bad inputs: the one read first is the one said
        read_inputs(ShoeSpec(remove=""), RulesSpec(name="nonesuch"), SERVICE, shoe_first=shoe_first)


@pytest.mark.parametrize(("decks", "words"), [
    ((), "give a number of decks"),
    ((2, 2), "a deck count is repeated"),
    (1.5, "1.5: a number of decks is a whole number"),
    ((1, True), "True: a number of decks is a whole number"),
    ("8", "'8': a number of decks is a whole number"),
])
def test_deck_counts_given_from_python_are_checked_as_the_parsers_check_them(decks, words):
    for names, field in ((COMMAND_LINE, "--decks"), (SERVICE, "shoe.decks")):
        with pytest.raises(ShoeError, match=f"bad {field}") as info:
            read_shoes(ShoeSpec(decks=decks), names)
        assert words in str(info.value)
