import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from analyzer.core.cards import RANKS, SUITS, Card, parse_cards
from analyzer.core.shoe import Shoe
from analyzer.errors import AnalyzerError, CardError, ShoeError


def test_standard_shoe():
    shoe = Shoe.standard(8)
    assert shoe.size == 416 and shoe.counts == (32,) * 13 and shoe.decks == 8
    assert shoe.point_counts == (128,) + (32,) * 9
    assert Shoe.standard(10_000).size == 520_000


@pytest.mark.parametrize("decks", [0, -1, 1.5, "8", True])
def test_bad_decks(decks):
    with pytest.raises(ShoeError, match="decks"):
        Shoe.standard(decks)


def test_parse_forms():
    assert Shoe.parse("8=2,K=3").counts == (0,) * 7 + (2,) + (0,) * 4 + (3,)
    assert Shoe.parse("8:2 k:3") == Shoe.parse("8=2,K=3")
    assert Shoe.parse(",".join(["4"] * 13)).counts == (4,) * 13
    assert Shoe.parse("10=2,A=3").counts[9] == 2
    with pytest.raises(ShoeError, match="twice"):
        Shoe.parse("10=2,T=0,A=3")  # 10 and T name the same rank


def test_parse_suited_forms():
    shoe = Shoe.parse("Kh=2,Ks=1,8d=2")
    assert shoe.suited is not None and shoe.size == 5 and shoe.counts[12] == 3
    full = Shoe.parse(",".join(["2"] * 52))
    assert full == Shoe.standard(2)
    with pytest.raises(ShoeError, match="on every entry"):
        Shoe.parse("Kh=2,8=3")


@pytest.mark.parametrize(
    "text, message",
    [
        ("8=2,K=-1", "-1"),
        ("8=two", "'two'"),
        ("1,2,3", "13 counts"),
        ("Z=3", "'Z'"),
        ("8=2", "at least 4"),
        ("", "empty"),
        ("8=2,8=3", "twice"),
        ("8=1.5", "'1.5'"),
    ],
)
def test_bad_shoe_text(text, message):
    with pytest.raises((ShoeError, CardError), match=message):
        Shoe.parse(text)


def test_bad_counts():
    with pytest.raises(ShoeError, match="-2"):
        Shoe.from_counts([4] * 12 + [-2])
    with pytest.raises(ShoeError, match=r"1\.5"):
        Shoe.from_counts([4] * 12 + [1.5])  # type: ignore[list-item]


def test_remove_errors():
    shoe = Shoe.parse("8=2,K=3")
    with pytest.raises(ShoeError, match="no A"):
        shoe.remove("A")
    with pytest.raises(ShoeError, match="at least 4"):
        shoe.remove("8 K")
    with pytest.raises(ShoeError, match="no 8h"):
        Shoe.standard(1).remove("8h 8h")


def test_remove_keeps_or_forgets_suits():
    shoe = Shoe.standard(1)
    assert shoe.remove("Kh").suited is not None
    assert shoe.remove("K").suited is None
    assert shoe.remove("K").counts[12] == 3


def test_remove_counts_as_shoe_reads_them():
    """``--remove 5=20,9=10`` (issue 13, item 2): counts per rank, read by the reader of
    ``--shoe``, the same shoe as the thirty cards named one by one."""
    shoe = Shoe.standard(8)
    by_counts = shoe.remove("5=20,9=10")
    assert by_counts == shoe.remove(" ".join(["5"] * 20 + ["9"] * 10))
    assert by_counts.counts[4] == 12 and by_counts.counts[8] == 22 and by_counts.suited is None
    assert shoe.remove("5 : 20; 9=10") == by_counts  # spaces, ':' and ';' as --shoe takes them
    assert shoe.remove("5,5,9") == shoe.remove("5 5 9")  # the old token form
    suited = shoe.remove("Kh=2,As=8")
    assert suited.suited is not None and suited.counts[12] == 30 and suited.counts[0] == 24
    assert suited == shoe.remove("Kh Kh " + "As " * 8)
    assert shoe.remove("5=0,9=1") == shoe.remove("9")
    assert shoe.remove("5=0").suited is not None  # removing none of a rank forgets no suit


@pytest.mark.parametrize(
    "text, words",
    [
        ("5=33", "cannot remove 33 of 5: the shoe holds 32"),
        ("Kh=9", "cannot remove 9 of Kh: the shoe holds 8"),
        ("K 5=2", "not both"),
        ("5=2,5=3", "twice"),
        ("5=-1", "'-1'"),
        ("5=２", "digits 0-9"),
        ("5=1_0", "'1_0'"),
        ("Z=1", "'Z'"),
        ("A=32,2=32,3=32,4=32,5=32,6=32,7=32,8=32,9=32,10=32,J=32,Q=32,K=30", "at least 4"),
    ],
)
def test_remove_counts_errors(text, words):
    with pytest.raises((ShoeError, CardError), match=re.escape(words)):
        Shoe.standard(8).remove(text)


cards = st.builds(Card, st.sampled_from(RANKS), st.sampled_from(SUITS))


@given(st.integers(1, 8), st.lists(cards, max_size=30))
def test_remove_takes_the_cards_out(decks, removed):
    shoe = Shoe.standard(decks)
    try:
        depleted = shoe.remove(removed)
    except ShoeError:
        return  # more copies removed than the shoe holds: rejected, nothing to round-trip
    assert depleted.size == shoe.size - len(removed)
    for card in set(removed):
        taken = removed.count(card)
        assert depleted.counts[card.rank.index] == shoe.counts[card.rank.index] - sum(
            1 for c in removed if c.rank is card.rank)
        if card.suit is not None and depleted.suited is not None:
            i = 4 * card.rank.index + card.suit.index
            assert depleted.suited[i] == shoe.suited[i] - taken


def test_shoe_views():
    shoe = Shoe.parse("Kh=2,Ks=1,8d=2")
    assert shoe.describe() and shoe.decks is None and shoe.point_counts[0] == 3 and shoe.point_counts[8] == 2
    assert Shoe.standard(6).describe() == "6 decks (312 cards)" and Shoe.standard(1).decks == 1
    assert Shoe.from_cards(parse_cards("Kh Kh Ks 8d 8d")) == shoe
    assert Shoe.from_cards(parse_cards("K K K 8 8")) == Shoe(shoe.counts)
    assert Shoe.from_counts({"K": 3, "8": 2}) == Shoe(shoe.counts)
    assert Shoe.from_suited_counts(shoe.suited) == shoe
    assert hash(shoe) == hash(Shoe.parse("8d=2,Ks=1,Kh=2"))  # a value: usable as a key


@pytest.mark.parametrize("bad", ["x", b"123", 5, [1, 2], None])
def test_bad_shoe_values(bad):
    with pytest.raises(ShoeError):
        Shoe(bad)


def test_shoe_text_accepts_spaces_and_tabs_but_only_ascii_digits():
    assert Shoe.parse("K = 4, A = 2") == Shoe.parse("K=4\tA=2") == Shoe.parse("A=2,K=4")
    with pytest.raises(AnalyzerError, match="'٤'"):
        Shoe.parse("٤," + ",".join(["4"] * 12))


@pytest.mark.parametrize("where", ["shoe", "remove"])
def test_a_count_of_81_digits_names_the_80_digit_limit(cli, where):
    # it was refused as "use a whole number >= 0 (digits 0-9)", which 81 nines are
    counts = "8=" + "9" * 81
    args = ["--shoe", counts] if where == "shoe" else ["--decks", "8", "--remove", counts]
    result = cli("bets", *args, "--bet", "tie")
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "Error: bad count 999999999999...999999 (81 characters) for card 8: a count has at most 80 digits"
    ]
    assert Shoe.parse("8=" + "9" * 80).counts[7] == int("9" * 80)  # 80 digits are a count
    with pytest.raises(ShoeError, match="at most 80 of them"):
        Shoe.parse("8=9x")
