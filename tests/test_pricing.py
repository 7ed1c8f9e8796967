"""The settlement cache of ``engine/pricing``: keyed by the bet's value (its fingerprint), so
fresh objects of one bet share a settlement, two different bets never do, and the cache stays
bounded."""

import dataclasses
from collections import OrderedDict
from fractions import Fraction

import pytest

from analyzer import Bet, Pricer, Reads, Shoe, catalogue_bets, find_bet, main_bets, price
from analyzer.bets import catalogue
from analyzer.bets.files import parse_bets
from analyzer.bets.model import PayLine
from analyzer.core.coup import Winner
from analyzer.engine import pricing
from analyzer.engine.pricing import ANALYSIS_READS, settlement, table_for

SHOE = Shoe.standard(8).remove("5h Kd 9s 2c 7c")

DRAGON_FILE = """
[[bet]]
name = "my-dragon"
[[bet.pay]]
event = "Banker wins with 3-card 7"
when = { winner = "banker", banker_total = 7, banker_cards = 3 }
pays = {pays}
"""


def dragon_file(pays="40", event="Banker wins with 3-card 7", otherwise=""):
    text = DRAGON_FILE.replace("{pays}", pays).replace("Banker wins with 3-card 7", event)
    return parse_bets(text.replace('name = "my-dragon"', f'name = "my-dragon"\n{otherwise}'))[0]


def uncached(bet):
    """``bet`` as a new bet built in Python (no fingerprint): priced from its own settlement."""
    return dataclasses.replace(bet, title=bet.title)


def same_summary(a, b):
    def facts(s):
        return s.ev, s.variance, s.event_counts, s.hit_frequency

    return facts(a) == facts(b)


@pytest.fixture
def unremembered(monkeypatch):
    """``find_bet`` building a new object every call (its memory of specs kept empty)."""
    monkeypatch.setattr(catalogue, "FOUND_CHARS", -1)
    catalogue._FOUND.clear()


def test_fresh_objects_of_one_bet_share_one_settlement(unremembered):
    value_table = table_for(ANALYSIS_READS, SHOE.size)
    first, second = find_bet("dragon-7"), find_bet("dragon-7")
    assert first is not second
    assert settlement(first, value_table) is settlement(second, value_table)
    # a bet file read twice: two objects, one definition
    assert settlement(dragon_file(), value_table) is settlement(dragon_file(), value_table)
    # a bet read on its own table (it reads cards): the table and the settlement are shared
    one, two = find_bet("player-pair"), find_bet("player-pair")
    own = pricing.bet_table_for(one, SHOE)
    assert pricing.bet_table_for(two, SHOE) is own
    assert settlement(one, own) is settlement(two, own)


def test_a_fresh_bet_is_priced_as_a_kept_one(unremembered):
    kept = [find_bet(n) for n in ("dragon-7", "player-pair", "dragon-bonus-player")]
    for bet, fresh in zip(kept, [find_bet(b.name) for b in kept], strict=True):
        assert same_summary(price(fresh, SHOE), price(bet, SHOE))
        assert price(fresh, SHOE).bet is fresh  # the summary names the bet it was given


def test_bets_built_in_python_keep_their_identity():
    def three_card_seven(c):
        return 40 if c.winner is Winner.BANKER and c.banker_total == 7 and c.banker_cards == 3 else -1

    reads = Reads.of(["winner", "banker_total", "banker_cards"])
    a = Bet.from_function("d7", three_card_seven, reads=reads)
    b = Bet.from_function("d7", three_card_seven, reads=reads)
    assert a.fingerprint is None and b.fingerprint is None
    table = table_for(ANALYSIS_READS, SHOE.size)
    assert settlement(a, table) is not settlement(b, table)
    mine, theirs = price(a, SHOE), price(find_bet("dragon-7"), SHOE)
    assert (mine.ev, mine.variance) == (theirs.ev, theirs.variance)


def test_a_new_pay_is_a_new_definition():
    tie = find_bet("tie")
    nine = tie.with_pay(Fraction(9))
    assert nine.fingerprint not in (None, tie.fingerprint)
    assert price(tie, SHOE).ev != price(nine, SHOE).ev
    assert same_summary(price(nine, SHOE), price(uncached(nine), SHOE))
    assert price(nine, SHOE).ev == price(find_bet("tie:9"), SHOE).ev
    # and again from the new bet: a chain of pays is a chain of definitions
    assert nine.with_pay(Fraction(8)).fingerprint == tie.with_pay(Fraction(8)).fingerprint
    assert same_summary(price(nine.with_pay(Fraction(8)), SHOE), price(tie, SHOE))


def test_a_replaced_condition_is_a_new_bet_priced_as_itself():
    dragon = find_bet("dragon-7")
    price(dragon, SHOE)  # its settlement cached first
    line = dragon.lines[0]

    def banker_seven(c):
        return c.winner is Winner.BANKER and c.banker_total == 7

    other = dataclasses.replace(dragon, lines=(PayLine(line.event, banker_seven, line.pays),))
    assert other.origin == dragon.origin and other.fingerprint is None
    assert price(other, SHOE).ev != price(dragon, SHOE).ev
    assert same_summary(price(other, SHOE), price(Bet("x", "x", other.lines, reads=dragon.reads), SHOE))
    # with_origin vouches for conditions as they are: it cannot swap them
    with pytest.raises(Exception, match="cannot change"):
        dragon.with_origin(dragon.origin, lines=other.lines)


def test_bet_files_differing_in_a_pay_an_event_or_otherwise_never_share_a_settlement():
    variants = [
        dragon_file(),
        dragon_file(pays="45"),
        dragon_file(pays='"81/2"'),
        dragon_file(event="Dragon"),
        dragon_file(otherwise="otherwise = 0"),
        dragon_file(otherwise='otherwise_event = "Other"'),
    ]
    assert len({b.origin for b in variants}) == 1  # one set of conditions...
    assert len({b.fingerprint for b in variants}) == len(variants)  # ...six definitions
    for bet in variants:  # each priced after the others: the cache serves each its own
        assert same_summary(price(bet, SHOE), price(uncached(bet), SHOE)), bet


def test_bets_that_share_a_fingerprint_settle_every_record_alike():
    # Every catalogue bet, the main bets, pay variants and bet files: group them by
    # fingerprint; within a group, every record of the table must settle alike, and every bet
    # priced through the cache must equal its own, uncached price.
    bets = [*catalogue_bets(), *main_bets(), *[find_bet(n) for n in ("tie", "banker:4", "dragon-7")]]
    bets += [find_bet("tie").with_pay(Fraction(p)) for p in (8, 9, 10)]
    bets += [find_bet("dragon-7").with_pay(Fraction(p)) for p in (40, 45)]
    bets += [dragon_file(), dragon_file(), dragon_file(pays="45")]
    groups = {}
    for bet in bets:
        assert bet.fingerprint is not None, bet.name
        groups.setdefault(bet.fingerprint, []).append(bet)
    assert len(groups) < len(bets)  # some objects do share a fingerprint
    for members in groups.values():
        expected = settled_columns(members[0])
        for other in members[1:]:
            assert settled_columns(other) == expected, (members[0].name, other.name)
    pricer = Pricer(SHOE)
    for bet in bets:
        assert same_summary(pricer.summary(bet), pricer.summary(uncached(bet))), bet.name


def settled_columns(bet):
    """How ``bet`` settles each column of the table that prices it on SHOE, settled afresh."""
    if bet.reads.sets:  # its own table: the columns are its pay lines
        table = pricing.bet_table_for(bet, SHOE)
        return [pricing._key_of(bet, c) for c in table.columns]
    table = table_for(pricing._value_reads(bet.reads, ANALYSIS_READS), SHOE.size)
    return [bet.settle(r) for r in pricing._narrowed_records(table, bet.reads)]


def test_the_settlement_cache_stays_bounded(monkeypatch):
    monkeypatch.setattr(pricing, "_SETTLED_LIMIT", 8)
    monkeypatch.setattr(pricing, "_SETTLED", OrderedDict())
    tie = find_bet("tie")
    for pays in range(2, 40):
        price(tie.with_pay(Fraction(pays)), SHOE)
    assert len(pricing._SETTLED) <= 8
    assert price(tie.with_pay(Fraction(3)), SHOE).ev == price(uncached(tie.with_pay(Fraction(3))), SHOE).ev
