"""The engine against the physical-card brute force (tests/bruteforce.py), exactly.

Every catalogue bet, and bets over every card feature of the hand vocabulary (payout functions
and bet files), are priced by ``analyzer.engine.pricing.price`` (each bet alone, on its own
table) and by one ``Pricer`` (bets sharing tables read at their union), and their event counts
must equal the brute force's, on depleted shoes with unequal suit counts, suit-symmetric shoes,
shoes under 6 cards (the coup can run out) and rank-only shoes, under the standard tableau and
the two variants.  The fast lane uses fixed shoes; the slow lane draws shoes with hypothesis.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from bruteforce import RUN_OUT, brute_events, coup_length, deal_every_coup, engine_events, settle_full
from featurebets import POSITION_ATTRIBUTES, feature_bet, position_bet, quick_to_compile, value_bet
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from analyzer import Pricer, Shoe, catalogue_bets, find_bet, price
from analyzer.bets.files import GROUP_FEATURES, parse_bets
from analyzer.core.cards import RANKS, SUITS, Rank
from analyzer.core.hands import FEATURE_NEEDS
from analyzer.core.tableau import BANKER_STANDS_ON_6, BANKER_UNDER_5_WHEN_PLAYER_STOOD, STANDARD, TABLEAUX
from analyzer.engine import native
from analyzer.engine.evaluate import one_shot
from analyzer.engine.pricing import symmetric_shoe
from analyzer.errors import BetError

#: Built once: the engine caches settlements per bet object.
CATALOGUE = catalogue_bets()
UNSUITED_CATALOGUE = [b for b in CATALOGUE if not b.reads.needs_suits]


def quick_catalogue(size, bets=CATALOGUE):
    return [b for b in bets if quick_to_compile(b, size)]

# Fixed shoes of the fast lane (text as Shoe.parse reads it).
DEPLETED = "Kh=2,Ks=1,Qd=1,8h=2,8d=1,5c=2,9s=1"  # 10 cards, suits unequal, same cards repeated
SMALL = "Kh=2,Qd=1,8h=1,8d=1,5c=2,9s=1"  # 8 cards, the same kinds of inequality
SYMMETRIC = "Ks=1,Kh=1,Kd=1,Kc=1,5s=1,5h=1,5d=1,5c=1"  # 8 cards, every suit alike (10s, J, Q absent)
SHORT = "Kh=2,Qd=1,8h=1,5c=1"  # 5 cards: the coup can run out (36 of 120 orders)
FOUR = "Ks=1,Kh=2,8d=1"  # 4 cards: coups end on a natural or run out
RANK_ONLY = "A=2,6=2,7=1,T=1,K=2"  # 8 cards, suits unknown


_EXPECTED: dict[tuple[int, Shoe, str], dict] = {}


def expected(bet, shoe, tableau):
    """The brute force's events of ``bet`` (kept per bet object, shoe and tableau)."""
    key = (id(bet), shoe, tableau.fingerprint)
    if key not in _EXPECTED:
        if len(_EXPECTED) > 20_000:
            _EXPECTED.clear()
        _EXPECTED[key] = brute_events(bet, deal_every_coup(shoe, tableau))
    return _EXPECTED[key]


def check(bet, shoe, tableau=STANDARD, summary=None):
    """Assert the engine's events for ``bet`` equal the brute force's."""
    got = summary if summary is not None else price(bet, shoe, tableau)
    assert got.denominator == deal_every_coup(shoe, tableau).total
    assert engine_events(bet, got) == expected(bet, shoe, tableau), (bet.name, shoe.describe(), tableau.name)


def check_all(bets, shoe, tableau=STANDARD, alone=True):
    """Every bet priced together (one Pricer) and, if ``alone``, each on its own table."""
    together = Pricer(shoe, tableau).summaries(bets)
    for bet, summary in zip(bets, together, strict=True):
        check(bet, shoe, tableau, summary)
        if alone:
            check(bet, shoe, tableau)


# -- the brute force itself ---------------------------------------------------------------------


def _summed(coups):
    out: Counter = Counter()
    for coup, n in coups:
        out[coup] += n
    return out


@pytest.mark.parametrize("text", ["Kh=2,8h=2,8d=1,5c=2", "Ah=2,Kd=2,Ks=1", "A=4", "9=2,K=2,5=1"])
@pytest.mark.parametrize("rules", sorted(TABLEAUX))
def test_counting_identical_cards_once_equals_dealing_every_physical_card(text, rules):
    shoe, tableau = Shoe.parse(text), TABLEAUX[rules]
    grouped = deal_every_coup(shoe, tableau)
    physical = deal_every_coup(shoe, tableau, physical=True)
    assert _summed(grouped.coups) == _summed(physical.coups)
    assert physical.total == grouped.total
    assert sum(n for _, n in physical.coups) + physical.run_out == physical.total
    assert grouped.run_out == physical.run_out


def test_coup_length_reads_the_tableau():
    # (point values dealt) -> cards the coup uses, per RULES.md "Tableau" and the variants
    assert coup_length(STANDARD, [8, 0, 0, 0]) == 4  # a natural
    assert coup_length(STANDARD, [6, 0, 0, 5]) == 5  # Player stands on 6, Banker draws on 5
    assert coup_length(BANKER_UNDER_5_WHEN_PLAYER_STOOD, [6, 0, 0, 5]) == 4
    assert coup_length(STANDARD, [2, 3, 3, 3]) is None  # the Player draws: need the 5th value
    assert coup_length(STANDARD, [2, 3, 3, 3, 6]) == 6  # Banker 6 draws on a third 6
    assert coup_length(BANKER_STANDS_ON_6, [2, 3, 3, 3, 6]) == 5
    assert coup_length(STANDARD, [2, 3, 3, 0, 8]) == 5  # Banker 3 stands on a third 8


def test_the_brute_force_counts_the_published_tiny_shoe():
    # docs/shoes.md, "punto-banco analyze --shoe 8=2,K=3": {8, 8, K, K, K} -> Player 3/10, Banker
    # 3/10, Tie 2/5 (also in test_engine.py, against the engine); here the brute force alone.
    brute = deal_every_coup(Shoe.parse("8=2,K=3"))
    wins = brute.tally(lambda c: c.winner.value)
    assert brute.total == 120 and brute.run_out == 0
    assert [Fraction(wins[w], brute.total) for w in ("player", "banker", "tie")] == [
        Fraction(3, 10), Fraction(3, 10), Fraction(2, 5)]


# -- catalogue bets: fast lane -------------------------------------------------------------------


CHUNKS = 4


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("text", [SMALL, SHORT, FOUR])
def test_catalogue_bets_on_fixed_suited_shoes(text, chunk):
    shoe = Shoe.parse(text)
    bets = quick_catalogue(shoe.size)
    assert len(bets) >= 40
    check_all(bets[chunk::CHUNKS], shoe)


@pytest.mark.slow
@pytest.mark.parametrize("text", [SMALL, SHORT, FOUR])
def test_every_catalogue_bet_on_fixed_suited_shoes(text):
    check_all(CATALOGUE, Shoe.parse(text))


def test_card_reading_catalogue_bets_on_a_suit_symmetric_shoe():
    # suits alike: the engine evaluates one summand of each suit sum times their number
    shoe = Shoe.parse(SYMMETRIC)
    check_all([find_bet("perfect-pair"), find_bet("either-pair")], shoe)
    check(feature_bet("player_first_two", "suited"), shoe)


@pytest.mark.parametrize("full", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["quick", "all"])
def test_catalogue_bets_on_a_rank_only_shoe(full):
    shoe = Shoe.parse(RANK_ONLY)
    check_all(UNSUITED_CATALOGUE if full else quick_catalogue(shoe.size, UNSUITED_CATALOGUE), shoe)
    suited = [b for b in (CATALOGUE if full else quick_catalogue(shoe.size)) if b.reads.needs_suits]
    assert suited  # and each of them is refused, not mispriced
    for bet in suited:
        with pytest.raises(BetError, match="suits"):
            price(bet, shoe)


@pytest.mark.parametrize("chunk", range(2))
@pytest.mark.parametrize("rules", sorted(set(TABLEAUX) - {"standard"}))
def test_catalogue_bets_under_the_variants(rules, chunk):
    check_all(quick_catalogue(8)[chunk::2], Shoe.parse(SMALL), TABLEAUX[rules], alone=False)


@pytest.mark.slow
@pytest.mark.parametrize("rules", sorted(set(TABLEAUX) - {"standard"}))
def test_every_catalogue_bet_under_the_variants(rules):
    check_all(CATALOGUE, Shoe.parse(SMALL), TABLEAUX[rules], alone=False)


def test_the_scalar_path_prices_like_the_vector_path():
    shoe = Shoe.parse(SMALL)
    with one_shot():
        check_all(quick_catalogue(shoe.size)[:16], shoe, alone=False)


@pytest.mark.parametrize("full", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["quick", "all"])
def test_projection_settles_every_brute_force_coup_like_the_full_record(full):
    # Bet.settle projects a full record to the bet's reads first (what verify and the oracle
    # do); that must not change any settlement of an honest bet.
    brute = deal_every_coup(Shoe.parse(SMALL))
    for bet in CATALOGUE if full else quick_catalogue(8):
        for coup, _ in brute.coups[:: 3 if full else 11]:
            event, pays = settle_full(bet, coup)
            assert bet.settle(coup)[1] == pays, (bet.name, coup)
            if event is not None:
                assert bet.settle(coup)[0] == event, (bet.name, coup)


# -- feature bets ---------------------------------------------------------------------------------

#: Features whose tables are too large to compile in a test on some sets (first four cards or
#: more with named suits or suit classes); they are checked on the sets where they are cheap.
HEAVY = {"suit", "count_suit", "count_card", "suited", "flush", "straight_flush", "royal_flush",
         "four_card_poker"}
CHEAP_SETS = ("player_first_two", "player_1")


@pytest.mark.parametrize("feature", sorted(FEATURE_NEEDS))
def test_every_feature_of_the_player_s_first_two_cards(feature):
    for where in CHEAP_SETS:
        check(feature_bet(where, feature), Shoe.parse(DEPLETED))


@pytest.mark.parametrize("attribute", sorted(POSITION_ATTRIBUTES))
def test_per_position_attributes(attribute):
    shoe = Shoe.parse(DEPLETED)
    for position in (0, 3):
        check(position_bet(position, attribute), shoe)


def test_value_level_function_bets():
    shoe = Shoe.parse(DEPLETED)
    bets = [
        value_bet("thirds", lambda c: (c.player_third, c.banker_third), ("player_third", "banker_third")),
        value_bet("two-card", lambda c: (c.player_two_card_total, c.banker_two_card_total),
                  ("player_two_card_total", "banker_two_card_total")),
        value_bet("shape", lambda c: (c.winner, c.cards_dealt, c.naturals, c.margin),
                  ("winner", "cards", "natural", "margin")),
        value_bet("winner-total", lambda c: (c.winner_total, c.winner_cards), ("winner_cards",)),
    ]
    check_all(bets, shoe)


def test_bets_sharing_a_table_are_narrowed_to_their_own_reads():
    # One table read at the union (named suits and ranks by equality) prices all of these.
    shoe = Shoe.parse(DEPLETED)
    bets = [feature_bet("player_first_two", f) for f in ("pair", "one_colour", "colour", "count_colour",
                                                           "same_card_pair", "total")]
    check_all(bets, shoe, alone=False)


# -- a rank read as picture or ten ------------------------------------------------------------------

#: Shoes holding tens and pictures (J, Q, K), so that a picture read has both to tell apart:
#: every suit alike (the symmetric tables: 8 cards; 12 and 16, with other values and more
#: pictures than tens, in the slow lane), depleted with suits unequal, and by rank only.
PICTURE_SHOES = {
    "suits alike": "Ts=1,Th=1,Td=1,Tc=1,Ks=1,Kh=1,Kd=1,Kc=1",
    "depleted": "Th=2,Tc=1,Ks=1,Qd=1,Jc=1,8h=2,8d=1,5c=2,9s=1",
    "by rank": RANK_ONLY,
}
PICTURE_SHOES_SLOW = {
    "suits alike, 12": "Ts=1,Th=1,Td=1,Tc=1,Ks=1,Kh=1,Kd=1,Kc=1,5s=1,5h=1,5d=1,5c=1",
    "suits alike, 16": "Ts=1,Th=1,Td=1,Tc=1,Ks=2,Kh=2,Kd=2,Kc=2,5s=1,5h=1,5d=1,5c=1",
}
#: Picture bets: a first-four table (the first two, the first four), a whole walk (a hand with
#: the winner, every card), and one sharing a table with a bet on named ranks.
PICTURE_BETS = [("player_first_two", ()), ("first_four", ()), ("banker_hand", ("winner",)), ("all_cards", ())]


def _picture_check(text, kernel, setting):
    shoe = Shoe.parse(text)
    kernel(setting)
    bets = [feature_bet(where, "pictures", fields) for where, fields in PICTURE_BETS]
    for bet in bets:
        check(bet, shoe)
        for coup, _ in deal_every_coup(shoe).coups[::7]:  # projected (verify, the oracle) as full
            assert bet.settle(coup) == settle_full(bet, coup), (bet.name, coup)
    # a table read at named ranks prices both, its records narrowed to the picture read
    check_all([bets[0], feature_bet("player_first_two", "ranks")], shoe, alone=False)
    return shoe


@pytest.mark.parametrize("setting", ["off", "on"])
@pytest.mark.parametrize("name", list(PICTURE_SHOES))
def test_picture_reads_on_full_depleted_and_rank_only_shoes(name, setting, kernel):
    if setting == "on" and not native.built():
        pytest.skip("the compiled kernel is not built")
    shoe = _picture_check(PICTURE_SHOES[name], kernel, setting)
    assert symmetric_shoe(shoe) is (name != "depleted")  # the symmetric tables, and the exact ones


@pytest.mark.slow
@pytest.mark.parametrize("setting", ["off", "on"])
@pytest.mark.parametrize("name", list(PICTURE_SHOES_SLOW))
def test_picture_reads_on_larger_suit_symmetric_shoes(name, setting, kernel):
    if setting == "on" and not native.built():
        pytest.skip("the compiled kernel is not built")
    assert symmetric_shoe(_picture_check(PICTURE_SHOES_SLOW[name], kernel, setting))


# -- bet files --------------------------------------------------------------------------------------

FILE_BETS_FAST = """
[[bet]]
name = "fields"
otherwise = 0
[[bet.pay]]
event = "banker natural 9"
when = { winner = "banker", banker_natural = true, banker_total = 9 }
pays = 8
[[bet.pay]]
event = "tie on a low total"
when = { winner = "tie", player_total = { at_most = 3 } }
pays = 12
[[bet.pay]]
event = "three cards, big margin"
when = { winner_cards = 3, margin = { at_least = 5 }, cards = [5, 6] }
pays = 3
[[bet.pay]]
event = "player stood, banker drew a zero"
when = { player_third = "none", banker_third = 0, naturals = "none" }
pays = "5/2"
[[bet.pay]]
event = "two-card totals"
when = { player_two_card_total = [0, 1], banker_two_card_total = { equals = 7 }, winner_total = 7 }
pays = "0.5"

[[bet]]
name = "player-first-two"
[[bet.pay]]
event = "suited"
when = { player_first_two = { suited = true } }
pays = 5
[[bet.pay]]
event = "red"
when = { player_first_two = { colour = "red" } }
pays = 3
[[bet.pay]]
event = "pair of kings"
when = { player_first_two = { pair_of = "K" } }
pays = 30
[[bet.pay]]
event = "a king and a queen"
when = { player_first_two = { ranks = ["Q", "K"] } }
pays = 20
[[bet.pay]]
event = "contains a king"
when = { player_first_two = { contains = ["K"], highest_value = { at_least = 5 } } }
pays = 2
[[bet.pay]]
event = "zero"
when = { player_first_two = { total = 0, lowest_value = 0, count_value = { value = 0, at_least = 1 } } }
pays = 1

[[bet]]
name = "pairs-and-duels"
[[bet.pay]]
event = "identical pairs"
when = { identical_pairs = true }
pays = 200
[[bet.pay]]
event = "same-rank pairs"
when = { pairs_same_rank = true }
pays = 100
[[bet.pay]]
event = "suited pair"
when = { player_suited_pair = true }
pays = 25
[[bet.pay]]
event = "banker pair"
when = { banker_pair = true }
pays = 11
[[bet.pay]]
event = "player pair"
when = { player_pair = true, banker_suited_pair = false }
pays = 11

[[bet]]
name = "positions"
[[bet.pay]]
event = "king of hearts first"
when = { player_1 = { card = "Kh" } }
pays = 50
[[bet.pay]]
event = "red eight"
when = { player_1 = { rank = "8", colour = "red" } }
pays = 5
[[bet.pay]]
event = "spade"
when = { player_1 = { suit = "s" } }
pays = 3
[[bet.pay]]
event = "zero"
when = { player_1 = { value = 0 } }
pays = 1

[[bet]]
name = "pair-and-win"
[[bet.pay]]
event = "Player pairs and wins"
when = { player_pair = true, winner = "player" }
pays = 20
"""


@pytest.fixture(scope="module")
def file_bets_fast():
    return parse_bets(FILE_BETS_FAST, "fast.toml")


#: One bet-file bet per card feature of GROUP_FEATURES, each on one set: (set, feature = value).
FILE_FEATURES = [
    ("player_first_two", "size = 2"),
    ("player_first_two", "pair = true"),
    ("player_hand", "size = 3"),
    ("banker_first_two", "pairs = 1"),
    ("player_first_two", "of_a_kind = { at_least = 2 }"),
    ("first_four", "rank_pattern = [2, 1, 1]"),
    ("first_four", "two_pair = true"),
    ("all_cards", "full_house = true"),
    ("banker_first_two", "same_card_pair = true"),
    ("banker_first_two", "straight = true"),
    ("player_first_two", "flush = true"),
    ("banker_first_two", "straight_flush = true"),
    ("player_first_two", "one_colour = true"),
    ("banker_first_two", 'count_colour = { colour = "red", at_least = 1 }'),
    ("player_first_two", 'count_suit = { suit = "h", at_least = 1 }'),
    ("player_first_two", 'cards = ["Kh", "Kh"]'),
    ("player_first_two", 'count_card = { card = "Kh", at_least = 1 }'),
    ("first_four", 'count_rank = { rank = "K" }'),
    ("banker_3", "value = 0"),
    ("player_3", 'rank = ["K", "Q"]'),
    ("banker_3", 'card = "8h"'),
    ("first_four", "highest_value = { at_most = 8 }"),
    ("player_hand", "lowest_value = 0"),
    ("banker_hand", "total = [5, 8]"),
    ("first_four", 'contains = ["K", "8"]'),
    ("banker_first_two", 'pair_of = "8"'),
    ("player_hand", "royal_flush = true"),
    ("first_four", 'four_card_poker = "two_pair"'),
    ("player_hand", "sum = { at_least = 12 }"),
    ('"{P3, B3}"', "same_rank = true"),
    ('"{P1, B1}"', "same_suit = true"),
    ('"{P2, B2, B3}"', "same_colour = false"),
    ("player_first_two", "pictures = 2"),
    ("banker_hand", "pictures = { at_least = 1 }"),
]


def file_feature_bets(which):
    text = "".join(f'[[bet]]\nname = "f{i}"\n[[bet.pay]]\nwhen = {{ {where} = {{ {spec} }} }}\npays = 3\n\n'
                   for i, (where, spec) in enumerate(which))
    return parse_bets(text, "features.toml")


def test_every_bet_file_card_feature_is_checked():
    named = {spec.split(" =")[0] for _, spec in FILE_FEATURES}
    in_fast = {"suited", "colour", "pair_of", "ranks", "contains", "highest_value", "total",
               "lowest_value", "count_value", "card", "rank", "suit", "value"}  # FILE_BETS_FAST
    assert set(GROUP_FEATURES) <= named | in_fast


@pytest.mark.parametrize("index", [
    i for i, (w, spec) in enumerate(FILE_FEATURES) if w == "player_first_two" or w.startswith('"{')])
def test_bet_file_card_features_quick(index):
    (bet,) = file_feature_bets([FILE_FEATURES[index]])
    check(bet, Shoe.parse(SMALL))


@pytest.mark.slow
@pytest.mark.parametrize("text", [DEPLETED, SHORT])
def test_bet_file_card_features_on_every_set(text):
    # Under six cards the engine walks the whole coup instead of the first four cards alone, so
    # the poker patterns of four named, suited cards cost minutes there: they are checked on the
    # ten-card shoe (and by the catalogue's four-card bets on every shoe of the brute force).
    heavy = ("four_card_poker", "royal_flush")
    chosen = [f for f in FILE_FEATURES if text != SHORT or not f[1].startswith(heavy)]
    for bet in file_feature_bets(chosen):
        check(bet, Shoe.parse(text))


@pytest.mark.parametrize("text", [SMALL, pytest.param(SHORT, marks=pytest.mark.slow)])
def test_bet_file_bets(file_bets_fast, text):
    shoe = Shoe.parse(text)
    for bet in file_bets_fast:
        check(bet, shoe)


#: Comparisons of two cards or two sets (bet files' ``compare``), each a bet of its own: the
#: designer's "third cards of one rank" first.
COMPARISONS = [
    'left = "P3", right = "B3", by = "rank"',
    'left = "P3", right = "B3", by = "rank", is = "higher"',
    'left = "P1", right = "B1", by = "rank", is = "same_or_lower"',
    'left = "P1", right = "B1", by = "value", is = "higher"',
    'left = "P3", right = "B3", by = "value", is = "different"',
    'left = "P1", right = "B1", by = "suit"',
    'left = "player_3", right = "B3", by = "colour", is = "different"',
    'left = "player_first_two", right = "banker_first_two", by = "rank"',
    'left = "{P1, P2}", right = "{B1, B2}", by = "suit", is = "different"',
    'left = "player_hand", right = "banker_hand", by = "sum", is = "higher"',
    'left = "{P1, B1}", right = "{P3, B3}", by = "total", is = "same_or_lower"',
    'left = "{P1, P2}", right = "{P2, B2}", by = "colour"',
]


def comparison_bets(which):
    text = "".join(f'[[bet]]\nname = "c{i}"\n[[bet.pay]]\nwhen = {{ compare = {{ {spec} }} }}\npays = 3\n\n'
                   for i, spec in enumerate(which))
    return parse_bets(text, "compare.toml")


@pytest.mark.parametrize("index", range(len(COMPARISONS)))
def test_comparisons_of_cards_and_sets(index):
    (bet,) = comparison_bets([COMPARISONS[index]])
    check(bet, Shoe.parse(SMALL))


@pytest.mark.slow
@pytest.mark.parametrize("text", [DEPLETED, SHORT, SYMMETRIC])
def test_comparisons_on_more_shoes(text):
    check_all(comparison_bets(COMPARISONS), Shoe.parse(text))


def test_the_designer_s_third_card_bet_three_ways():
    # "the Player's and the Banker's third cards are of one rank": a set of two positions, a
    # comparison, and the Python escape hatch, each against the physical cards
    from analyzer import Bet, Reads
    from analyzer.core.coup import B3, P3

    def one_rank(c):
        a, b = c.card(P3), c.card(B3)
        return 50 if a is not None and b is not None and a.rank == b.rank else -1

    text = ('[[bet]]\nname = "set"\n[[bet.pay]]\nwhen = { "{P3, B3}" = { same_rank = true } }\npays = 50\n'
            '[[bet]]\nname = "pair"\n[[bet.pay]]\n'
            'when = { compare = { left = "P3", right = "B3", by = "rank" } }\npays = 50\n')
    bets = [*parse_bets(text, "designer.toml"),
            Bet.from_function("python", one_rank, reads=Reads.of([], [[P3], [B3]], ranks="equality"))]
    shoe = Shoe.parse(DEPLETED)
    for bet in bets:
        check(bet, shoe)
    eight = [price(b, Shoe.standard(8)) for b in bets]
    assert eight[0].hit_frequency == eight[1].hit_frequency == eight[2].hit_frequency > 0
    assert eight[0].ev == eight[2].ev


# -- slow lane: shoes drawn by hypothesis ---------------------------------------------------------

TEN_HEAVY_RANKS = [Rank.KING, Rank.QUEEN, Rank.TEN, Rank.ACE, Rank.FIVE, Rank.EIGHT, Rank.NINE, Rank.THREE,
                   Rank.SIX, Rank.SEVEN, Rank.TWO, Rank.FOUR, Rank.JACK]


@st.composite
def depleted_suited_shoes(draw, min_cards=8, max_cards=10, max_kinds=6):
    """A few kinds of physical cards (ranks biased to 10-valued ones, so rank classes and
    same-card pairs happen), some of them repeated: suits unequal, tens unequal."""
    kinds = draw(st.lists(st.tuples(st.sampled_from(TEN_HEAVY_RANKS[:9]), st.sampled_from(SUITS)),
                          min_size=2, max_size=max_kinds, unique=True))
    counts = draw(st.lists(st.integers(1, 3), min_size=len(kinds), max_size=len(kinds)))
    suited = [0] * 52
    for (rank, suit), n in zip(kinds, counts, strict=True):
        suited[4 * rank.index + suit.index] = n
    assume(min_cards <= sum(suited) <= max_cards)
    return Shoe.from_suited_counts(suited)


@st.composite
def symmetric_shoes(draw):
    """Every rank's four suits alike: 2 ranks with one card of each suit (8 cards)."""
    ranks = draw(st.lists(st.sampled_from(TEN_HEAVY_RANKS), min_size=2, max_size=2, unique=True))
    suited = [0] * 52
    for rank in ranks:
        for s in range(4):
            suited[4 * rank.index + s] = 1
    return Shoe.from_suited_counts(suited)


@st.composite
def rank_only_shoes(draw):
    counts = draw(st.lists(st.sampled_from(RANKS), min_size=8, max_size=11))
    return Shoe.from_counts(Counter(r.value for r in counts))


SLOW = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                        HealthCheck.filter_too_much])
tableaux = st.sampled_from([STANDARD, BANKER_STANDS_ON_6, BANKER_UNDER_5_WHEN_PLAYER_STOOD])


@pytest.mark.slow
@SLOW
@given(depleted_suited_shoes(), tableaux)
def test_catalogue_on_depleted_suited_shoes(shoe, tableau):
    bets = CATALOGUE if tableau is STANDARD else quick_catalogue(shoe.size)
    check_all(bets, shoe, tableau, alone=tableau is STANDARD)


@pytest.mark.slow
@SLOW
@given(symmetric_shoes(), tableaux)
def test_catalogue_on_suit_symmetric_shoes(shoe, tableau):
    bets = CATALOGUE if tableau is STANDARD else quick_catalogue(shoe.size)
    check_all(bets, shoe, tableau, alone=tableau is STANDARD)


@pytest.mark.slow
@SLOW
@given(depleted_suited_shoes(min_cards=4, max_cards=5, max_kinds=4), tableaux)
def test_catalogue_on_shoes_under_six_cards(shoe, tableau):
    check_all(CATALOGUE if tableau is STANDARD else quick_catalogue(shoe.size), shoe, tableau, alone=False)


@pytest.mark.slow
@SLOW
@given(rank_only_shoes(), tableaux)
def test_catalogue_on_rank_only_shoes(shoe, tableau):
    check_all(UNSUITED_CATALOGUE, shoe, tableau, alone=False)


#: (set, features) checked in the slow lane: every feature on several sets, every set with
#: several features, leaving out the tables too large to compile in a test (see HEAVY).
SLOW_FEATURES = [
    ("banker_first_two", sorted(FEATURE_NEEDS)),
    ("first_four", sorted(set(FEATURE_NEEDS) - HEAVY)),
    ("player_3", sorted(FEATURE_NEEDS)),
    ("banker_3", sorted(FEATURE_NEEDS)),
    ("player_hand", ["size", "total", "values", "highest_value", "pair", "of_a_kind", "rank_pattern",
                     "same_card_pair", "ranks", "count_rank", "straight", "count_colour"]),
    ("banker_hand", ["lowest_value", "count_value", "pairs", "same_card_pair", "pair_of", "straight",
                     "one_colour"]),
    ("all_cards", ["size", "total", "count_value", "two_pair", "full_house", "rank_pattern", "of_a_kind",
                   "count_rank", "straight"]),
]


@pytest.mark.slow
@pytest.mark.parametrize("where, features", SLOW_FEATURES, ids=[w for w, _ in SLOW_FEATURES])
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                HealthCheck.filter_too_much])
@given(shoe=depleted_suited_shoes(max_cards=9, max_kinds=5))
def test_features_on_every_set(where, features, shoe):
    for feature in features:
        if feature in FEATURE_NEEDS:
            check(feature_bet(where, feature), shoe)


@pytest.mark.slow
@pytest.mark.parametrize("feature", ["pair", "same_card_pair", "count_rank", "total", "one_colour", "colour"])
@pytest.mark.parametrize("where", ["player_first_two", "first_four", "banker_3"])
def test_features_on_shoes_under_six_cards(feature, where):
    for text in (SHORT, FOUR, "Kh=1,Kd=1,9s=1,6c=1,Ah=1"):
        check(feature_bet(where, feature), Shoe.parse(text))


@pytest.mark.slow
@pytest.mark.parametrize("feature", ["pair", "same_card_pair", "count_rank", "suited", "colour", "values"])
def test_features_with_base_fields_under_every_tableau(feature):
    shoe = Shoe.parse(DEPLETED)
    for tableau in TABLEAUX.values():
        check(feature_bet("player_first_two", feature, ("winner", "banker_cards")), shoe, tableau)
        check(feature_bet("banker_3", feature, ("player_total",)), shoe, tableau)


@pytest.mark.slow
@SLOW
@given(symmetric_shoes())
def test_features_on_suit_symmetric_shoes(shoe):
    for feature in sorted(FEATURE_NEEDS):
        check(feature_bet("player_first_two", feature), shoe)
        if feature not in HEAVY:
            check(feature_bet("first_four", feature), shoe)
    for attribute in POSITION_ATTRIBUTES:
        check(position_bet(5, attribute), shoe)


@pytest.mark.slow
@SLOW
@given(depleted_suited_shoes(), tableaux)
def test_bet_files_on_depleted_suited_shoes(file_bets_fast, shoe, tableau):
    for bet in file_bets_fast:
        check(bet, shoe, tableau)


@pytest.mark.slow
@pytest.mark.parametrize("text", [DEPLETED, SYMMETRIC])
def test_every_catalogue_bet_on_larger_fixed_shoes(text):
    check_all(CATALOGUE, Shoe.parse(text))


@pytest.mark.slow
def test_bet_file_bets_on_a_suit_symmetric_shoe(file_bets_fast):
    for bet in file_bets_fast:
        check(bet, Shoe.parse(SYMMETRIC))


@pytest.mark.slow
def test_every_catalogue_bet_on_a_12_card_shoe():
    check_all(CATALOGUE, Shoe.parse("Ah=1,2s=1,3d=1,4c=1,5h=1,6s=1,7d=1,8c=1,9h=1,Ks=2,Qd=1"), alone=False)


def test_the_run_out_event_is_a_void():
    shoe = Shoe.parse(SHORT)
    brute = deal_every_coup(shoe)
    assert brute.run_out
    summary = price(CATALOGUE[0], shoe)
    (row,) = [r for r in summary.events if r.event == RUN_OUT]
    assert (row.count, row.pays) == (brute.run_out, 0)
