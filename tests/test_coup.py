"""The coup record: ``resolve`` under every rule set, ``Winner`` as text, and ``Coup.project``:
undeclared reads refused, sets read as multisets, anonymous rank / suit / colour classes, and
coups a bet cannot tell apart projected to equal records."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from analyzer import Bet, Reads, Shoe, analyze, price
from analyzer.core.cards import RANKS, SUITS, Card, Colour, Rank, Suit, parse_cards
from analyzer.core.coup import (
    ALL_CARDS,
    BANKER_FIRST_TWO,
    FIRST_FOUR,
    P1,
    PLAYER_FIRST_TWO,
    PLAYER_HAND,
    Winner,
    resolve,
)
from analyzer.core.coup_json import record_from_json, record_to_json
from analyzer.core.dealt import PICTURE, ColourClass, RankClass, SuitClass
from analyzer.core.reads import BASE_FIELDS, RankDetail, SuitDetail
from analyzer.core.tableau import BANKER_STANDS_ON_6, BANKER_UNDER_5_WHEN_PLAYER_STOOD, STANDARD, TABLEAUX
from analyzer.errors import CoupError, UndeclaredReadError

# RULES.md, "Counting conventions": 8 decks, Banker / Player / Tie / total permutation counts.
BANKER_8, PLAYER_8, TIE_8, TOTAL_8 = (2_292_252_566_437_888, 2_230_518_282_592_256, 475_627_426_473_216,
                                      4_998_398_275_503_360)


# -- resolve under the rule sets ----------------------------------------------------------------


def test_resolve_under_the_variants():
    # Player 2+3 = 5 draws a 6; Banker 3+3 = 6: the standard Banker draws on 6 against a third 6
    # (RULES.md, step 4), the banker-stands-on-6 Banker never does.
    cards = "2 3 3 3 6 A"
    standard = resolve(cards)
    assert (standard.cards_dealt, standard.banker_total, standard.winner) == (6, 7, Winner.BANKER)
    stands = resolve(cards, BANKER_STANDS_ON_6)
    assert (stands.cards_dealt, stands.banker_total, stands.banker_third) == (5, 6, None)
    assert resolve(cards, BANKER_UNDER_5_WHEN_PLAYER_STOOD) == standard
    # Player 6+K = 6 stands; Banker 2+3 = 5: the standard Banker draws on 5 (step 3), the
    # banker-under-5 Banker stands, and the Player wins 6 to 5.
    cards = "6 2 K 3 4 9"
    assert (resolve(cards).cards_dealt, resolve(cards).banker_total) == (5, 9)
    under = resolve(cards, BANKER_UNDER_5_WHEN_PLAYER_STOOD)
    assert (under.cards_dealt, under.player_total, under.banker_total) == (4, 6, 5)
    assert under.winner is Winner.PLAYER
    assert resolve(cards, BANKER_STANDS_ON_6) == resolve(cards)


def test_resolve_input_errors():
    with pytest.raises(CoupError, match="Tableau"):
        resolve("2 4 3 10 6 A", "standard")
    with pytest.raises(CoupError):
        resolve(12345)
    with pytest.raises(CoupError):
        resolve([Card(Rank.TWO), 4, "3", "10"])


def test_resolve_takes_cards_or_text_alike():
    text = "Kh 9s 5d 5c 2h 7s"
    assert resolve(text) == resolve(parse_cards(text)) == resolve(text.split())


def test_extra_cards_are_ignored():
    assert resolve("9 2 K 3 5 5") == resolve("9 2 K 3")


# -- Winner ------------------------------------------------------------------------------------


def test_winner_equals_its_text():
    assert Winner.BANKER == "banker" and Winner.PLAYER == "player" and Winner.TIE == "tie"
    assert Winner.BANKER != "player" and Winner.BANKER.label == "Banker"
    assert resolve("2 4 3 10 6 A").winner == "banker"


def test_a_payout_comparing_the_winner_with_text_prices_like_a_banker_bet():
    # Reading `c.winner == "banker"` must see the winner, not an object never equal to text
    # (which would price a 100% house edge).  Even money on the Banker, ties lose:
    # EV = (Banker - Player - Tie) / total with RULES.md's 8-deck counts.
    bet = Bet.from_function("banker-even", lambda c: 1 if c.winner == "banker" else -1,
                            reads=Reads.of(["winner"]))
    summary = price(bet, Shoe.standard(8))
    assert summary.ev == Fraction(BANKER_8 - PLAYER_8 - TIE_8, TOTAL_8)
    assert summary.hit_frequency == Fraction(BANKER_8, TOTAL_8)
    assert summary.house_edge < Fraction(1, 10)


# -- projection ----------------------------------------------------------------------------------


def test_project_hides_undeclared_fields():
    coup = resolve("2 4 3 10 6 A")
    seen = coup.project(Reads.of(["winner"]))
    assert seen.winner is Winner.BANKER and not seen.is_full
    for name in BASE_FIELDS[1:]:
        with pytest.raises(UndeclaredReadError, match=name):
            getattr(seen, name)
    for derived in ("natural", "margin", "cards_dealt", "player_drew", "winner_total", "naturals"):
        with pytest.raises(UndeclaredReadError):
            getattr(seen, derived)
    with pytest.raises(UndeclaredReadError):
        seen.card(0)
    with pytest.raises(UndeclaredReadError):
        seen.cards(PLAYER_FIRST_TWO)
    with pytest.raises(UndeclaredReadError):
        _ = seen.player_pair
    with pytest.raises(UndeclaredReadError):
        _ = seen.player


def test_totals_imply_the_winner_and_derived_fields_expand():
    coup = resolve("2 4 3 10 6 A")
    seen = coup.project(Reads.of(["margin"]))
    assert (seen.player_total, seen.banker_total, seen.margin, seen.winner) == (1, 5, 4, Winner.BANKER)
    with pytest.raises(UndeclaredReadError):
        _ = seen.player_cards


def test_only_a_full_record_is_projected():
    seen = resolve("2 4 3 10 6 A").project(Reads.of(["winner"]))
    with pytest.raises(CoupError):
        seen.project(Reads.of(["winner"]))


def test_a_set_is_read_as_a_multiset():
    reads = Reads.of([], [PLAYER_FIRST_TWO], ranks="named", suits="suit")
    a = resolve("Kh 2c 5s 3d 9h 9h").project(reads)
    b = resolve("5s 2c Kh 3d 9h 9h").project(reads)  # the Player's two cards swapped
    assert a == b and hash(a) == hash(b)
    assert [str(c) for c in a.cards(PLAYER_FIRST_TWO)] == [str(c) for c in b.cards(PLAYER_FIRST_TWO)]
    assert sorted(str(c) for c in a.cards(PLAYER_FIRST_TWO)) == ["5s", "Kh"]
    with pytest.raises(UndeclaredReadError):
        a.card(0)  # the positions of a set cannot be read one by one
    with pytest.raises(UndeclaredReadError):
        a.cards(PLAYER_HAND)  # nor a set it did not declare
    with pytest.raises(UndeclaredReadError):
        a.cards(BANKER_FIRST_TWO)
    different = resolve("5h 2c Ks 3d 9h 9h").project(reads)  # the suits moved between the ranks
    assert different != a


def test_a_single_position_is_read_by_itself():
    reads = Reads.of([], [{0}, {4}], ranks="named", suits="suit")
    coup = resolve("Kh 2c 5s 3d 9h 7s")
    seen = coup.project(reads)
    assert str(seen.card(0)) == "Kh" and seen.card(0).rank is Rank.KING and seen.card(0).suit is Suit.HEARTS
    assert seen.card(0).colour is Colour.RED and seen.card(0).value == 0
    assert str(seen.card(4)) == "9h"
    stood = resolve("9h 2c Ks 3d").project(reads)
    assert stood.card(4) is None and stood.cards({4}).size == 0
    with pytest.raises(UndeclaredReadError):
        seen.card(1)


def test_point_values_only_hide_ranks_and_suits():
    seen = resolve("Kh 2c Qs 3d 9h 7s").project(Reads.of([], [PLAYER_FIRST_TWO]))
    group = seen.cards(PLAYER_FIRST_TWO)
    assert group.values == (0, 0) and group.total == 0
    for card in group:
        for attribute in ("rank", "suit", "colour"):
            with pytest.raises(UndeclaredReadError):
                getattr(card, attribute)
    with pytest.raises(UndeclaredReadError):
        _ = group.pair


def test_rank_classes_compare_among_themselves_only():
    reads = Reads.of([], [FIRST_FOUR], ranks="equality")
    seen = resolve("Kh Ks Qd 5c 9s 9s").project(reads)
    cards = list(seen.cards(FIRST_FOUR))
    tens = [c for c in cards if c.value == 0]
    assert all(isinstance(c.rank, RankClass) for c in tens)
    kings = [c for c in tens if c.rank == tens[0].rank]
    assert len(kings) in (1, 2) and len({repr(c.rank) for c in tens}) == 2  # K, K and Q: two classes
    assert sum(1 for a in tens for b in tens if a.rank == b.rank) == 5  # 2x2 kings + 1 queen
    five = next(c for c in cards if c.value == 5)
    assert five.rank is Rank.FIVE  # values 1-9 have one rank each: always named
    assert tens[0].rank != Rank.FIVE  # a class of 10-valued ranks is never a five ...
    with pytest.raises(UndeclaredReadError, match="rank"):
        _ = tens[0].rank == Rank.KING  # ... but naming a 10-valued rank was not declared
    with pytest.raises(UndeclaredReadError):
        _ = tens[0].rank == "K"
    with pytest.raises(TypeError):
        hash(tens[0].rank)
    assert seen.cards(FIRST_FOUR).pair and seen.cards(FIRST_FOUR).of_a_kind == 2
    with pytest.raises(UndeclaredReadError):
        _ = seen.cards(FIRST_FOUR).ranks


def test_suit_and_colour_classes_compare_among_themselves_only():
    seen = resolve("Kh 2c Qh 3d 9s 9s").project(Reads.of([], [FIRST_FOUR], suits="suit-equality"))
    cards = list(seen.cards(FIRST_FOUR))
    assert all(isinstance(c.suit, SuitClass) for c in cards)
    assert sum(1 for a in cards for b in cards if a.suit == b.suit) == 2 * 2 + 1 + 1
    with pytest.raises(UndeclaredReadError, match="suit"):
        _ = cards[0].suit == Suit.HEARTS
    with pytest.raises(UndeclaredReadError):
        _ = cards[0].suit == "h"
    with pytest.raises(UndeclaredReadError):
        _ = seen.cards(FIRST_FOUR).suit(Suit.HEARTS)
    assert not seen.cards(FIRST_FOUR).suited
    colours = resolve("Kh 2c Qd 3s 9s 9s").project(Reads.of([], [FIRST_FOUR], suits="colour-equality"))
    cards = list(colours.cards(FIRST_FOUR))
    assert all(isinstance(c.colour, ColourClass) for c in cards)
    assert sum(1 for a in cards for b in cards if a.colour == b.colour) == 8  # two reds, two blacks
    with pytest.raises(UndeclaredReadError, match="colour"):
        _ = cards[0].colour == Colour.RED
    with pytest.raises(UndeclaredReadError):
        _ = cards[0].suit
    assert not colours.cards(FIRST_FOUR).one_colour
    named = resolve("Kh 2c Qd 3s 9s 9s").project(Reads.of([], [FIRST_FOUR], suits="colour"))
    assert named.cards(FIRST_FOUR).count_colour(Colour.RED) == 2


def test_same_card_reads_tell_identical_cards_apart_and_nothing_else():
    reads = Reads.of([], [PLAYER_FIRST_TWO], suits="same-card")
    assert reads.ranks is RankDetail.EQUALITY  # same card implies same rank
    same = resolve("Kh 2 Kh 3 9 9").project(reads)
    pair = resolve("Kh 2 Ks 3 9 9").project(reads)
    assert same.cards(PLAYER_FIRST_TWO).same_card_pair and same.cards(PLAYER_FIRST_TWO).pair
    assert not pair.cards(PLAYER_FIRST_TWO).same_card_pair and pair.cards(PLAYER_FIRST_TWO).pair
    assert same == resolve("Qd 2 Qd 3 9 9").project(reads)
    assert pair == resolve("Qd 2 Qc 3 9 9").project(reads)
    assert same != pair
    with pytest.raises(UndeclaredReadError):
        _ = next(iter(same.cards(PLAYER_FIRST_TWO))).suit


def test_picture_reads_tell_a_picture_from_a_ten_and_nothing_more():
    reads = Reads.of([], [FIRST_FOUR], ranks="picture")
    seen = resolve("Kh Ts Qd 5c 9s 9s").project(reads)
    group = seen.cards(FIRST_FOUR)
    assert group.pictures == 2 and group.values == (0, 0, 0, 5)
    tens = [c for c in group if c.value == 0]
    assert sum(1 for c in tens if c.rank is PICTURE) == 2
    ten = next(c for c in tens if c.rank is not PICTURE)
    assert ten.rank is Rank.TEN and str(ten).startswith("10")
    picture = next(c for c in tens if c.rank is PICTURE)
    assert picture.rank != Rank.TEN and picture.rank != Rank.FIVE  # never a ten, nor another value
    for named in (Rank.JACK, Rank.QUEEN, Rank.KING, "K"):
        with pytest.raises(UndeclaredReadError, match="picture"):
            _ = picture.rank == named  # which picture was not declared
    with pytest.raises(UndeclaredReadError):
        _ = picture.rank == picture.rank  # nor whether two pictures share a rank
    with pytest.raises(UndeclaredReadError, match="equality"):
        _ = group.pair
    with pytest.raises(UndeclaredReadError):
        _ = group.ranks
    with pytest.raises(TypeError):
        hash(picture.rank)
    # J, Q and K are alike; a ten is not a picture
    assert seen == resolve("Jd Tc Kh 5s 9s 9s").project(reads)
    assert seen != resolve("Kh Ts Td 5c 9s 9s").project(reads)
    assert resolve("Kh Ts Td 5c 9s 9s").project(reads).cards(FIRST_FOUR).pictures == 1
    # equality reads cannot answer it
    with pytest.raises(UndeclaredReadError, match="picture"):
        equality = Reads.of([], [FIRST_FOUR], "equality")
        _ = resolve("Kh Ts Qd 5c 9s 9s").project(equality).cards(FIRST_FOUR).pictures


def test_rank_details_join_to_the_coarsest_detail_covering_both():
    R = RankDetail  # noqa: N806 - short, as the table reads
    assert R.EQUALITY.join(R.PICTURE) is R.PICTURE.join(R.EQUALITY) is R.NAMED
    assert R.NONE.join(R.PICTURE) is R.PICTURE and R.PICTURE.join(R.NAMED) is R.NAMED
    assert R.NONE.join(R.EQUALITY) is R.EQUALITY
    assert not R.PICTURE.covers(R.EQUALITY) and not R.EQUALITY.covers(R.PICTURE)
    assert R.NAMED.covers(R.PICTURE) and R.PICTURE.covers(R.NONE)
    picture = Reads.of([], [PLAYER_FIRST_TWO], "picture")
    pair = Reads.of([], [PLAYER_FIRST_TWO], "equality")
    assert (picture | pair).ranks is R.NAMED and (picture | Reads.of(["winner"])).ranks is R.PICTURE
    assert not picture.covers(pair) and not pair.covers(picture) and (picture | pair).covers(picture)
    # the algebra has no pools of pictures by suit: a picture read beside suits names the ranks
    for suits in ("suit", "colour-equality", "same-card", "one-suit"):
        assert Reads.of([], [PLAYER_FIRST_TWO], "picture", suits).ranks is R.NAMED
    assert picture.key.endswith("ranks=PICTURE|suits=none")


def test_a_picture_record_is_written_and_read_back_as_json():
    reads = Reads.of(["winner"], [FIRST_FOUR], ranks="picture")
    record = resolve("Kh Ts Qd 5c 9s 9s").project(reads)
    data = record_to_json(record)
    again = record_from_json(data)
    assert again == record and again.cards(FIRST_FOUR).pictures == 2
    codes = data[1][0][1]
    picture = next(code for code in codes if code[:3] == [0, 2, 3])  # value 0, a picture
    picture[3] = 1  # a picture has one code, (3, 0)
    with pytest.raises(ValueError, match="label"):
        record_from_json(data)


# -- two coups a bet cannot tell apart ---------------------------------------------------------------

TENS = (Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING)
cards6 = st.lists(st.builds(Card, st.sampled_from(RANKS), st.sampled_from(SUITS)), min_size=6, max_size=6)
SETS = [PLAYER_FIRST_TWO, BANKER_FIRST_TWO, FIRST_FOUR, PLAYER_HAND, ALL_CARDS, frozenset({5})]


def _relabel(seq, suit_map, ten_map):
    return [Card(ten_map.get(c.rank, c.rank), suit_map[c.suit]) for c in seq]


@given(cards6, st.permutations(SUITS), st.permutations(TENS), st.sampled_from(SETS),
       st.sampled_from(["none", "equality"]), st.sampled_from(["none", "same-card", "suit-equality"]),
       st.sampled_from(sorted(TABLEAUX)))
def test_renaming_suits_and_ten_ranks_is_invisible_to_equality_reads(seq, suits, tens, members, ranks,
                                                                     suit_detail, rules):
    tableau = TABLEAUX[rules]
    reads = Reads.of(["winner", "player_total", "banker_cards"], [members], ranks, suit_detail)
    other = _relabel(seq, dict(zip(SUITS, suits, strict=True)), dict(zip(TENS, tens, strict=True)))
    a, b = resolve(seq, tableau), resolve(other, tableau)
    assert a.project(reads) == b.project(reads)
    assert hash(a.project(reads)) == hash(b.project(reads))


COLOUR_PRESERVING = [
    {Suit.HEARTS: Suit.DIAMONDS, Suit.DIAMONDS: Suit.HEARTS,
     Suit.SPADES: Suit.SPADES, Suit.CLUBS: Suit.CLUBS},
    {Suit.HEARTS: Suit.SPADES, Suit.DIAMONDS: Suit.CLUBS,
     Suit.SPADES: Suit.HEARTS, Suit.CLUBS: Suit.DIAMONDS},
]


@given(cards6, st.sampled_from(COLOUR_PRESERVING), st.sampled_from(SETS))
def test_colour_equality_reads_see_only_which_cards_share_a_colour(seq, suit_map, members):
    reads = Reads.of([], [members], suits="colour-equality")
    assert resolve(seq).project(reads) == resolve(_relabel(seq, suit_map, {})).project(reads)


@given(cards6, st.sampled_from([PLAYER_FIRST_TWO, BANKER_FIRST_TWO, FIRST_FOUR]),
       st.randoms(use_true_random=False))
def test_order_within_a_set_is_invisible(seq, members, rng):
    # Swapping the two cards of a side keeps every base field; the record of a bet reading
    # the set (at full detail) is the same.
    reads = Reads.of(BASE_FIELDS, [members], "named", "suit")
    swapped = list(seq)
    pairs = [(0, 2), (1, 3)] if members == FIRST_FOUR else [tuple(sorted(members))]
    for i, j in pairs:
        if rng.random() < 0.7:
            swapped[i], swapped[j] = swapped[j], swapped[i]
    assert resolve(seq).project(reads) == resolve(swapped).project(reads)


@given(cards6, cards6, st.sampled_from(SETS), st.sampled_from(list(RankDetail)),
       st.sampled_from(list(SuitDetail)))
def test_records_are_equal_exactly_when_the_bet_reads_them_equal(seq_a, seq_b, members, ranks, suit_detail):
    # Equal records must settle every bet alike: compare what the features say.
    reads = Reads.of(["winner"], [members], ranks, suit_detail)
    a, b = resolve(seq_a).project(reads), resolve(seq_b).project(reads)
    if a == b:
        ga, gb = a.cards(members), b.cards(members)
        assert ga.values == gb.values and a.winner == b.winner
        if reads.ranks.covers(RankDetail.EQUALITY):
            assert (ga.rank_pattern, ga.pairs) == (gb.rank_pattern, gb.pairs)
        if reads.ranks.covers(RankDetail.PICTURE):
            assert ga.pictures == gb.pictures
        if ranks is RankDetail.NAMED:
            assert ga.ranks == gb.ranks
        if suit_detail is SuitDetail.SUIT:
            assert [ga.count_suit(s) for s in SUITS] == [gb.count_suit(s) for s in SUITS]
        if suit_detail in (SuitDetail.SUIT, SuitDetail.SUIT_EQUALITY):
            assert ga.suited == gb.suited
        if suit_detail in (SuitDetail.COLOUR, SuitDetail.COLOUR_EQUALITY, SuitDetail.SUIT):
            assert ga.one_colour == gb.one_colour
        if reads.ranks is not RankDetail.NONE and suit_detail in (
            SuitDetail.SAME_CARD, SuitDetail.SUIT_EQUALITY, SuitDetail.SUIT
        ):
            assert ga.same_card_pair == gb.same_card_pair


@given(cards6, st.sampled_from(SETS))
def test_narrowing_a_fine_record_equals_projecting_to_the_coarse_reads(seq, members):
    # The engine prices several bets from one table read at their union and narrows each record
    # to each bet's reads: that must be the record the bet would get directly.
    coup = resolve(seq)
    fine_reads = Reads.of(BASE_FIELDS, [members, PLAYER_FIRST_TWO], "named", "suit")
    for coarse in (
        Reads.of(["winner"]),
        Reads.of(["player_total", "banker_total"], [members]),
        Reads.of([], [members], "equality"),
        Reads.of([], [members], "equality", "same-card"),
        Reads.of([], [PLAYER_FIRST_TWO], "named", "suit-equality"),
        Reads.of(["banker_third"], [members], "none", "colour-equality"),
        Reads.of([], [members], "none", "colour"),
        Reads.of(["winner"], [members], "picture"),
    ):
        assert fine_reads.covers(coarse)
        assert coup.project(fine_reads).narrow(coarse) == coup.project(coarse), coarse


def test_the_naturals_partition_is_one_definition():
    a = analyze(Shoe.standard(1))
    assert set(a.naturals) == {"Player natural only", "Banker natural only", "Both natural", "No natural"}
    assert resolve("8 9 K K").naturals == "both" and resolve("8 2 K K 5").naturals == "player"
    assert resolve("2 9 K K").naturals == "banker" and resolve("2 3 K K 5 5").naturals == "none"
    # a natural is decided by the tableau's naturals
    assert resolve("8 2 K K 5", STANDARD).player_natural


@pytest.mark.parametrize("attribute", ["index", "label", "point", "colour"])
def test_a_label_known_only_by_class_or_as_a_picture_refuses_a_named_labels_attributes(attribute):
    # a Python bet that reads, say, rank.index >= 10 of a picture or a class must be refused, not
    # priced on a made-up index (an equality class's number, or a picture's code)
    pictures = resolve("Kh Ts Qd 5c 9s 9s").project(Reads.of([], [FIRST_FOUR], ranks="picture"))
    picture = next(c for c in pictures.cards(FIRST_FOUR) if c.rank is PICTURE)
    classes = resolve("Kh Ts Qd 5c 9s 9s").project(Reads.of([], [FIRST_FOUR], ranks="equality",
                                                            suits="suit-equality"))
    ten_valued = next(c for c in classes.cards(FIRST_FOUR) if c.value == 0)
    assert isinstance(ten_valued.rank, RankClass) and isinstance(ten_valued.suit, SuitClass)
    for label in (picture.rank, ten_valued.rank, ten_valued.suit):
        with pytest.raises(UndeclaredReadError, match="declare named"):
            getattr(label, attribute)


def test_a_python_bet_reading_a_pictures_index_is_refused_not_mispriced():
    def pays(coup):
        return 1 if coup.card(P1).rank.index >= 10 else -1  # J, Q or K by index: needs named ranks

    picture = Bet("pic-index", "Picture by index", (), reads=Reads.of([], [[P1]], ranks="picture"),
                  payout_function=pays)
    with pytest.raises(UndeclaredReadError, match="declare named ranks"):
        price(picture, Shoe.standard(1))
    named = Bet("named-index", "Picture by index", (), reads=Reads.of([], [[P1]], ranks="named"),
                payout_function=pays)
    assert price(named, Shoe.standard(1)).ev == Fraction(3, 13) - Fraction(10, 13)
