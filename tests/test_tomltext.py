"""TOML text of the files the analyser reads (``analyzer.core.tomltext``, through the bet-file
reader): a byte order mark is dropped; text that is not UTF-8 or is nested too deeply is one
error naming the file."""

from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_non_utf8_and_deep_bet_files(cli, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b'[[bet]]\nname = "\xff"\n')
    deep = tmp_path / "deep.toml"
    deep.write_text("x = " + "[" * 5000 + "]" * 5000)
    for path, words in ((bad, "not UTF-8"), (deep, "deep")):
        result = cli("bets", "--bet-file", str(path))
        assert result.exit_code == 2 and words in result.output and "Traceback" not in result.output


def test_a_bet_file_may_start_with_a_byte_order_mark(cli, tmp_path):
    bom = tmp_path / "bom.toml"
    bom.write_bytes(b"\xef\xbb\xbf" + (EXAMPLES / "bets.toml").read_bytes())
    plain = cli("bets", "--bet-file", str(EXAMPLES / "bets.toml"))
    result = cli("bets", "--bet-file", str(bom))
    assert result.exit_code == 0
    assert result.output.split("\n\n", 1)[1] == plain.output.split("\n\n", 1)[1]
