"""Regression tests for bad input found by trying to break the tool (each once crashed, hung,
lost precision or wrote where it should not)."""

import os
import stat
from fractions import Fraction

import pytest
from clirun import invoke

from analyzer import Shoe, analyze, find_bet
from analyzer.core.exact import parse_exact, round_fraction, sqrt_decimal
from analyzer.errors import AnalyzerError, BetError
from analyzer.output.files import OutputError, write_files

cli = invoke


def test_many_digits_are_exact():
    # 2/3 to 60 decimals, and sqrt(2) to 50 (a Decimal context of 28 digits once cut these short).
    assert str(round_fraction(Fraction(2, 3), 60)) == "0." + "6" * 59 + "7"
    # sqrt(2) = 1.41421356237309504880168872420969807856967187537694|807... -> rounds up at 50.
    assert str(sqrt_decimal(Fraction(2), 50)) == "1.41421356237309504880168872420969807856967187537695"
    out = cli("analyze", "--table", "outcomes", "--digits", "60").output
    banker = Fraction(2_292_252_566_437_888, 4_998_398_275_503_360)
    assert f"{round_fraction(banker, 60):f}" in out and len(f"{round_fraction(banker, 60):f}") == 62


@pytest.mark.parametrize(
    "text", ["1e999999999", "1e5000", "1e-99999", "9" * 200, "٥", "1_0", "nan", "inf", ""]
)
def test_numbers_are_bounded(text):
    with pytest.raises(AnalyzerError):
        parse_exact(text, "pay")


@pytest.mark.parametrize("spec", ["tie:1e999999999", "banker:1e-5000", "tie:1e5000"])
def test_huge_parameters_are_rejected_quickly(spec):
    with pytest.raises(BetError, match="exponent"):
        find_bet(spec)


def test_bet_without_parameter_rejects_one():
    with pytest.raises(BetError, match="takes no parameter"):
        find_bet("ez-banker:abc")


def test_duplicate_bets_are_an_error():
    result = cli("bets", "--bet", "banker", "--bet", "BANKER")
    assert result.exit_code == 2 and "twice" in result.output


def test_usage_errors_are_one_line():
    for args in (
        ["analyze", "--decks", "0"],
        ["analyze", "--format", "JSON"],
        ["deal"],
        ["analyze", "--digits", "-1"],
    ):
        result = cli(*args)
        lines = [line for line in result.output.splitlines() if line.strip()]
        assert result.exit_code == 2 and len(lines) == 1 and lines[0].startswith("Error:"), args


def test_non_utf8_and_deep_bet_files(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b'[[bet]]\nname = "\xff"\n')
    deep = tmp_path / "deep.toml"
    deep.write_text("x = " + "[" * 5000 + "]" * 5000)
    for path, words in ((bad, "not UTF-8"), (deep, "deep")):
        result = cli("bets", "--bet-file", str(path))
        assert result.exit_code == 2 and words in result.output and "Traceback" not in result.output


def test_short_shoe_tables_account_for_the_void():
    a = analyze(Shoe.parse("5=3,K=2"))
    assert sum(a.cards_dealt.values()) + a.distribution.run_out == a.denominator
    out = cli("analyze", "--shoe", "5=3,K=2", "--table", "cards").output
    assert "Shoe runs out mid-coup (void)" in out


def test_output_writes_through_symlinks_and_keeps_modes(tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("old")
    os.chmod(real, 0o640)
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    write_files({link: "new"})
    assert link.is_symlink() and real.read_text() == "new"
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    fresh = tmp_path / "fresh.txt"
    write_files({fresh: "x"})
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~umask


def test_output_is_all_or_nothing(tmp_path):
    (tmp_path / "b.md").mkdir()
    with pytest.raises(OutputError, match=r"b\.md': it is a folder"):
        write_files({tmp_path / "a.md": "a", tmp_path / "b.md": "b"})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.md"]
    with pytest.raises(OutputError, match="empty"):
        write_files({"": "x"})


def test_tables_out_checks_every_target_first(tmp_path, monkeypatch):
    import analyzer.output.results

    def build(*_: object) -> dict[str, str]:
        raise AssertionError("the tables were built before the folder was checked")

    for name in ("generate", "analysis_files", "catalogue_files", "symbolic_files"):
        monkeypatch.setattr(analyzer.output.results, name, build)
    (tmp_path / "bets-8-decks.md").mkdir()
    result = cli("tables", "--out", str(tmp_path))
    assert result.exit_code == 2 and "bets-8-decks.md" in result.output
    assert [p.name for p in tmp_path.iterdir()] == ["bets-8-decks.md"]


@pytest.mark.parametrize(
    "call",
    [
        lambda: Shoe.parse(None),
        lambda: Shoe.from_counts(None),
        lambda: Shoe.standard(1).remove(None),
        lambda: Shoe.from_counts({"T": 2, "10": 2}),
        lambda: find_bet(None),
    ],
)
def test_api_wrong_types_raise_analyzer_errors(call):
    with pytest.raises(AnalyzerError):
        call()


def test_shoe_text_accepts_spaces_and_tabs_but_only_ascii_digits():
    assert Shoe.parse("K = 4, A = 2") == Shoe.parse("K=4\tA=2") == Shoe.parse("A=2,K=4")
    with pytest.raises(AnalyzerError, match="'٤'"):
        Shoe.parse("٤," + ",".join(["4"] * 12))


@pytest.mark.parametrize(
    "call",
    [
        lambda: __import__("analyzer").price(None, Shoe.standard(8)),
        lambda: __import__("analyzer").analyze("K=4"),
        lambda: __import__("analyzer").analyze(Shoe.standard(8), ["tie"]),
        lambda: __import__("analyzer").pay_for_edge(find_bet("tie"), Shoe.standard(8), 0.01),
        lambda: __import__("analyzer").price(find_bet("tie"), Shoe.standard(8)).standard_deviation(1.5),
    ],
)
def test_api_rejects_wrong_types_with_analyzer_errors(call):
    with pytest.raises(AnalyzerError):
        call()


def test_batch_handles_giant_shoes_exactly_and_rejects_non_counts():
    import numpy as np

    from analyzer import price
    from analyzer.engine.batch import batch_ev

    banker = find_bet("banker")
    giant = Shoe.standard(10**25)  # beyond the vectorised kernels: exact Python integers
    result = batch_ev([giant, Shoe.standard(8)], [banker])
    assert result.ev(0, 0) == price(banker, giant).ev
    assert result.ev(1, 0) == price(banker, Shoe.standard(8)).ev
    for bad in (np.ones((1, 13), dtype=bool), np.ones((1, 13)) * 1j, np.array([["4"] * 13])):
        with pytest.raises(AnalyzerError):
            batch_ev(bad, [banker])
    with pytest.raises(AnalyzerError, match="index"):
        result.ev(2, 0)


def test_eor_refuses_explosive_suited_mixtures_and_plot_clobbering(tmp_path):
    from analyzer.studies.eor import effects_of_removal

    with pytest.raises(BetError, match="--depth"):
        effects_of_removal(Shoe.standard(8), [find_bet("perfect-pair")], by="value", depth=13)
    same = str(tmp_path / "x.png")
    result = cli("eor", "--plot", same, "-o", same)
    assert result.exit_code == 2 and "same file" in result.output


def test_all_bets_on_a_rank_only_shoe_skip_suited_bets_with_a_note():
    result = cli("bets", "--all", "--shoe", ",".join(["32"] * 12 + ["31"]), "--digits", "3")
    assert result.exit_code == 0
    assert "Not priced: perfect-pair, perfect-pair:2" in result.output
    assert "Dragon 7" in result.output
    # Naming a suited bet explicitly on such a shoe is still an error.
    named = cli("bets", "--bet", "perfect-pair", "--shoe", ",".join(["32"] * 13))
    assert named.exit_code == 2 and "suits" in named.output
