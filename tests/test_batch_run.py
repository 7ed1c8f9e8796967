"""Files of shoes read in chunks, and the bets a batch's workers rebuild
(``analyzer.studies.batch_run``)."""

import io
import json
import pickle
import random

import numpy as np
import pytest

from analyzer import Shoe, catalogue_bets, find_bet, price
from analyzer.core.cards import RANKS, SUITS
from analyzer.errors import BetError, ShoeFileError
from analyzer.studies.batch_run import (
    BatchSpec,
    BetSource,
    bet_sources,
    chunk_size,
    price_chunk,
    read_chunks,
    shoe_format,
)

RANK_HEADER = ",".join(r.label for r in RANKS)
CARD_HEADER = ",".join(f"{r.label}{s.value}" for r in RANKS for s in SUITS)


def _read(text, fmt="csv", **kw):
    return list(read_chunks(io.StringIO(text), fmt, **kw))


def _rows(chunks):
    return [[int(x) for x in row] for c in chunks for row in c.counts]


def _random_rows(rng, n, width=13):
    return [[rng.randrange(0, 33 if width == 13 else 9) for _ in range(width)] for _ in range(n)]


def test_csv_rows_come_in_chunks_numbered_by_row():
    rng = random.Random(1)
    rows = _random_rows(rng, 10)
    text = "\n".join(",".join(map(str, r)) for r in rows) + "\n"
    chunks = _read(text, shoes=4)
    assert [c.shoes for c in chunks] == [4, 4, 2]
    assert [c.first for c in chunks] == [1, 5, 9]
    assert _rows(chunks) == rows
    assert all(c.counts.dtype == np.int64 for c in chunks)
    ends = [c.end for c in chunks]  # characters read through each chunk's last row
    lines = text.splitlines(keepends=True)
    assert ends == [sum(map(len, lines[:4])), sum(map(len, lines[:8])), len(text)]


def test_a_header_names_the_columns_in_any_order():
    rng = random.Random(2)
    rows = _random_rows(rng, 3)
    order = list(range(13))
    rng.shuffle(order)
    names = [RANKS[i].label for i in order]
    names[names.index("10")] = "t"  # any spelling parse_rank takes
    text = ",".join(names) + "\n" + "\n".join(",".join(str(r[i]) for i in order) for r in rows)
    assert _rows(_read(text)) == rows
    assert _rows(_read(RANK_HEADER + "\n" + "\n".join(",".join(map(str, r)) for r in rows))) == rows


def test_a_header_of_52_cards_in_any_order():
    rng = random.Random(3)
    rows = _random_rows(rng, 2, 52)
    order = list(range(52))
    rng.shuffle(order)
    cards = [f"{RANKS[i // 4].label}{SUITS[i % 4].value}" for i in range(52)]
    lines = [",".join(cards[i] for i in order), *(",".join(str(r[i]) for i in order) for r in rows)]
    text = "\n".join(lines)
    assert _rows(_read(text)) == rows


def test_quoted_cells_spaces_blank_lines_and_crlf():
    rows = [[32] * 13, [31] + [32] * 12]
    text = '\r\n"32", 32 ,' + ",".join(["32"] * 11) + "\r\n\r\n,,\n" + ",".join(map(str, rows[1])) + "\r\n"
    chunks = _read(text)
    assert _rows(chunks) == rows
    assert chunks[-1].first == 1 and chunks[-1].shoes == 2


def test_json_lines_arrays():
    rows = [[4] * 52, [0] * 51 + [4]]
    text = "\n".join(json.dumps(r) for r in rows) + "\n\n"
    assert _rows(_read(text, "jsonl")) == rows


def test_counts_too_large_for_int64_sums_stay_python_integers():
    big = 10**40
    text = ",".join([str(big)] * 13) + "\n" + ",".join(["32"] * 13) + "\n"
    (chunk,) = _read(text)
    assert chunk.counts.dtype == object and int(chunk.counts[0, 0]) == big
    (chunk,) = _read(json.dumps([2**60] * 13), "jsonl")
    assert chunk.counts.dtype == object and int(chunk.counts[0, 3]) == 2**60


@pytest.mark.parametrize(
    ("text", "fmt", "words"),
    [
        ("32,32\n", "csv", ["line 1", "2 columns", "13 rank counts", "52 suited counts"]),
        (",".join(["32"] * 13) + "\n" + ",".join(["32"] * 12) + "\n", "csv",
         ["row 2 (line 2)", "12 counts where the rows before hold 13"]),
        (",".join(["32"] * 12 + ["-1"]) + "\n", "csv",
         ["row 1 (line 1)", "column 13", "'-1'", "not a count"]),
        (",".join(["32"] * 12 + ["1.5"]) + "\n", "csv", ["row 1", "column 13", "'1.5'"]),
        (",".join(["32"] * 12 + ["9" * 81]) + "\n", "csv", ["column 13", "81 characters", "at most 80"]),
        ("\n" + ",".join(["0"] * 12 + ["3"]) + "\n", "csv", ["row 1 (line 2)", "3 cards cannot deal a coup"]),
        (RANK_HEADER.replace("K", "X") + "\n", "csv", ["line 1", "column 13 'X' is not a rank"]),
        (RANK_HEADER.replace("K", "Q") + "\n", "csv", ["names 'Q' twice", "columns 12 and 13"]),
        (RANK_HEADER.replace("K", "Kh") + "\n", "csv", ["column 13 'Kh' is not a rank"]),
        (CARD_HEADER.replace("Kc", "K") + "\n", "csv", ["column 52 'K' is not a card"]),
        ('"32,32\n', "csv", ["line 1", "a row of 1 column:"]),
        ("x" + ",32" * 12 + "\n", "csv", ["line 1", "column 1 'x' is not a rank"]),
        ("[32, 32]\n", "jsonl", ["line 1", "2 columns"]),
        ('{"A": 32}\n', "jsonl", ["row 1 (line 1)", "a JSON dict", "JSON array"]),
        ("[" + ",".join(["32"] * 12) + ", 1.0]\n", "jsonl", ["row 1", "item 13", "not a count"]),
        ("[" + ",".join(["32"] * 12) + ", true]\n", "jsonl", ["item 13", "true"]),
        ("[" + ",".join(["32"] * 12) + ", -2]\n", "jsonl", ["item 13", "-2"]),
        ("[32, \n", "jsonl", ["line 1", "not JSON"]),
        ("\n\n[" + ",".join(["32"] * 12) + ', "x"]\n', "jsonl", ["row 1 (line 3)", "item 13"]),
    ],
)
def test_a_bad_file_is_one_error_naming_the_row_and_line(text, fmt, words):
    with pytest.raises(ShoeFileError) as caught:
        _read(text, fmt, name="shoes.txt")
    message = str(caught.value)
    assert "\n" not in message
    for word in words:
        assert word in message, message


def test_rank_counts_are_refused_for_a_bet_that_reads_suits():
    with pytest.raises(ShoeFileError, match="perfect-pair reads suits: give 52 suited counts"):
        _read(",".join(["32"] * 13), suits_for="perfect-pair")
    assert _rows(_read(",".join(["8"] * 52), suits_for="perfect-pair")) == [[8] * 52]


def test_a_line_over_the_limit_names_the_file_and_the_limit():
    with pytest.raises(ShoeFileError, match=r"shoes.csv: line 2 is longer than the limit of 50 characters"):
        _read(",".join(["8"] * 13) + "\n" + ",".join(["8"] * 52) + "\n", name="shoes.csv", max_line=50)


def test_formats_by_name_and_bad_settings():
    assert [shoe_format(p) for p in ("a.csv", "a.JSONL", "b.ndjson", "c.txt", "")] == [
        "csv", "jsonl", "jsonl", "csv", "csv"]
    assert shoe_format("a.jsonl", "csv") == "csv"
    with pytest.raises(ShoeFileError, match="bad shoe file format"):
        shoe_format("a.csv", "xml")
    with pytest.raises(ShoeFileError, match="bad chunk"):
        _read("", shoes=0)
    assert _read("") == [] and _read("\n\n", "jsonl") == []
    assert chunk_size(1) == 4096 and chunk_size(80) % 64 == 0


# -- the bets, rebuilt -----------------------------------------------------------------------------

BETS_TOML = """[[bet]]
name = "banker-seven"
title = "Banker wins with 7"
[[bet.pay]]
event = "Banker wins with 7"
when = { winner = "banker", banker_total = 7 }
pays = 6

[[bet]]
name = "natural-tie"
title = "Natural tie"
[[bet.pay]]
event = "Tie of naturals"
when = { winner = "tie", natural = true }
pays = 30
"""


def test_sources_rebuild_the_bets_chosen_after_pickling(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(BETS_TOML)
    sources = bet_sources(["tie:9", f"{path}:natural-tie", "dragon-7"], [str(path)][:0])
    assert [s.kind for s in sources] == ["catalogue", "file", "catalogue"]
    again = pickle.loads(pickle.dumps(BatchSpec(sources)))
    assert all(s.bet is None for s in again.bets)  # left behind: a worker rebuilds them
    assert again.names == ("tie:9", "natural-tie", "dragon-7")
    shoe = Shoe.standard(6).remove("5=3,9=1")
    for rebuilt, chosen in zip(again.built(), BatchSpec(sources).built(), strict=True):
        a, b = price(rebuilt, shoe), price(chosen, shoe)
        assert rebuilt.name == chosen.name  # rebuilt by name (find_bet may hand back the same bet)
        assert (a.ev, a.variance, a.hit_frequency) == (b.ev, b.variance, b.hit_frequency)


def test_sources_of_every_catalogue_bet_and_of_files(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(BETS_TOML)
    sources = bet_sources(["tie:12"], [str(path)], all_bets=True)
    spec = pickle.loads(pickle.dumps(BatchSpec(sources)))
    assert spec.names == BatchSpec(sources).names
    assert spec.names[-3:] == ("tie:12", "banker-seven", "natural-tie")
    assert len(spec.names) == 3 + len(catalogue_bets())
    assert BatchSpec(bet_sources()).names == ("banker", "player", "tie")  # the main bets by default
    with pytest.raises(BetError, match="chosen twice"):
        bet_sources(["banker"], all_bets=True)
    with pytest.raises(BetError):
        bet_sources(["no-such-bet"])


def test_an_object_source_keeps_its_bet_and_a_bad_source_is_refused():
    bet = find_bet("panda-8")
    assert BetSource("object", "panda-8", bet=bet).build() is bet
    with pytest.raises(BetError, match="no bet for the source"):
        BetSource("object", "x").build()


def test_a_priced_chunk_is_each_shoe_priced_alone():
    rng = random.Random(7)
    rows = _random_rows(rng, 5, 52)
    rows[2] = [0] * 47 + [1, 1, 1, 1, 1]  # a 5-card shoe: exact Python integers
    (chunk,) = _read("\n".join(",".join(map(str, r)) for r in rows))
    spec = BatchSpec(bet_sources(["banker", "perfect-pair", "dragon-bonus-player"]))
    priced = price_chunk(spec, chunk)
    for i, row in enumerate(rows):
        shoe = Shoe.from_suited_counts(row)
        for j, bet in enumerate(spec.built()):
            ev = price(bet, shoe).ev
            got = priced.numerators[i][j]
            assert ev.numerator * priced.scales[j] * priced.denominators[i] == got * ev.denominator
