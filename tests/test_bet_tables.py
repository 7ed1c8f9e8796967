"""The tables of ``punto-banco bets`` (``analyzer.output.bet_tables``)."""


def test_all_bets_on_a_rank_only_shoe_skip_suited_bets_with_a_note(cli):
    result = cli("bets", "--all", "--shoe", ",".join(["32"] * 12 + ["31"]), "--digits", "3")
    assert result.exit_code == 0
    assert "Not priced: perfect-pair, perfect-pair:2" in result.output
    assert "Dragon 7" in result.output
    # Naming a suited bet explicitly on such a shoe is still an error.
    named = cli("bets", "--bet", "perfect-pair", "--shoe", ",".join(["32"] * 13))
    assert named.exit_code == 2 and "suits" in named.output
