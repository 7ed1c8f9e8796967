"""``punto-banco deal``: one coup dealt from a card sequence, the card it lacks named by its place,
and money shown as a decimal when it is exact."""

from __future__ import annotations

from clirun import invoke


def test_deal_names_the_missing_card_by_its_place_not_as_a_rank():
    # "the sequence has no card 5" read as "no card of rank 5"
    result = invoke("deal", "3", "2", "3", "2")  # Player stands on 6, the Banker on 4 must draw
    assert result.exit_code == 2
    assert "the Banker draws on 4 but the sequence has no 5th card" in result.output
    result = invoke("deal", "2", "4", "3", "10")  # the Player on 5 must draw
    assert "no 5th card" in result.output
    result = invoke("deal", "2", "4", "3", "10", "6")  # ... then the Banker on 4 against a 6
    assert "the Banker draws on 4 but the sequence has no 6th card" in result.output


def test_deal_shows_money_as_a_decimal_when_it_is_exact():
    out = invoke("deal", "2", "4", "3", "10", "6", "A", "--bet", "banker", "--stake", "10").output
    assert "net +9.5" in out and "net +19/2" not in out
    out = invoke("deal", "2", "4", "3", "10", "6", "A", "--bet", "banker", "--stake", "2.5").output
    assert "(stake 2.5 each)" in out and "net +2.375" in out
    out = invoke("deal", "2", "4", "3", "10", "6", "A", "--bet", "banker", "--stake", "1/3").output
    assert "net +19/60" in out  # no terminating decimal: the exact fraction
