"""The compiled tables that ship with the package (issue 16, item 3): a first run after install
is a warm run, and the shipped files are what ``punto-banco tables --shipped`` writes now."""

from __future__ import annotations

from collections import OrderedDict

import pytest

from analyzer import Shoe, catalogue_bets, find_bet, price
from analyzer.core.tableau import STANDARD
from analyzer.engine import cache, lookup, shipped
from analyzer.engine import table as tables
from analyzer.engine.evaluate import sound

SHIPPED = cache.SHIPPED


def test_every_shipped_table_loads_verified():
    names = {p.name for p in SHIPPED.glob("*.pbt")}
    assert names, "no shipped tables: run punto-banco tables --shipped analyzer/tables"
    expected = {cache.file_name(key) for key in _keys()}
    assert names == expected, f"stale or missing shipped tables: run punto-banco tables --shipped {SHIPPED}"
    for key in _keys():
        table = lookup.load_table(key, STANDARD)
        assert table is not None and table.key == key
        # loading checks a shipped table's digest and structure; its meaning is checked here
        _, _, body = (SHIPPED / cache.file_name(key)).read_bytes().partition(b"\n")
        decoded, expected = tables.decode(cache._inflate(body), key, STANDARD)
        assert sound(decoded, expected), f"shipped table {key} evaluates wrongly on six decks"


def test_a_shipped_table_is_read_without_the_six_deck_evaluation(monkeypatch):
    # a first run pays no full evaluation per table: the digest and the structure are checked
    monkeypatch.setattr(lookup, "sound", lambda *_: False)
    key = _keys()[0]
    assert lookup.load_table(key, STANDARD) is not None
    check = lookup._verified(key, STANDARD)
    assert cache._read(SHIPPED / cache.file_name(key), key, check) is None  # a cache file would be refused


def _keys():
    from analyzer.engine.pricing import ANALYSIS_READS

    out = [tables.records_key(STANDARD, ANALYSIS_READS, False)]
    for bet in catalogue_bets():
        if bet.reads.sets:
            for symmetric in (True, False) if tables.names_suits(bet.reads) else (False,):
                key = tables.bet_key(STANDARD, bet, bet.reads.first_four_only, symmetric)
                if key not in out:
                    out.append(key)
    return out


def test_a_first_run_compiles_nothing(monkeypatch):
    # no user cache at all, nothing in memory: the catalogue prices from the shipped tables
    monkeypatch.setenv(cache.CACHE_ENV, "off")
    monkeypatch.setattr(lookup, "_MEMORY", OrderedDict())

    def refuse(*_, **__):
        raise AssertionError("compiled a table the package ships")

    monkeypatch.setattr(lookup, "build_bet", refuse)
    monkeypatch.setattr(lookup, "build_records", refuse)
    for name in ("banker", "dragon-7", "lucky-win-player", "d7p8-progressive", "royal-9", "perfect-pair"):
        assert price(find_bet(name), Shoe.standard(8)).ev < 0 or name == "d7p8-progressive"
    # a depleted suited shoe takes the exact table of a bet naming suits: shipped too
    assert price(find_bet("lucky-win-player"), Shoe.standard(8).remove("As 5h Kd")).ev < 0


@pytest.mark.slow
def test_the_shipped_tables_are_fresh():
    files = shipped.shipped_files()
    stale = [
        name
        for name, blob in files.items()
        if not (SHIPPED / name).exists() or (SHIPPED / name).read_bytes() != blob
    ]
    assert not stale, f"stale shipped tables {stale}: run punto-banco tables --shipped analyzer/tables"
    extra = sorted(p.name for p in SHIPPED.iterdir() if p.name not in files)
    assert not extra, f"files in {SHIPPED} that no command writes: {extra}"


def test_writing_the_shipped_tables_replaces_an_older_catalogues_and_refuses_other_files(tmp_path):
    # an edited catalogue bet has a new key, so a new file name: the old file is the command's
    # own earlier output and goes; a file of any other name is refused before anything is built
    from analyzer.output.files import OutputError, replace_folder

    folder = tmp_path / "tables"
    folder.mkdir()
    stale = folder / ("table-" + "0" * 32 + ".pbt")
    stale.write_bytes(b"an older catalogue's table")
    replace_folder(folder, {"table-" + "1" * 32 + ".pbt": b"new"}, previous=shipped.is_table_file)
    assert sorted(p.name for p in folder.iterdir()) == ["table-" + "1" * 32 + ".pbt"]
    (folder / "notes.txt").write_text("mine")
    with pytest.raises(OutputError, match=r"notes\.txt"):
        replace_folder(folder, {"table-" + "2" * 32 + ".pbt": b"x"}, previous=shipped.is_table_file)
    assert (folder / "notes.txt").read_text() == "mine"
    assert not shipped.is_table_file("table-123.pbt") and not shipped.is_table_file("x-" + "0" * 32 + ".pbt")


def test_tables_refuses_a_shipped_folder_holding_other_files_before_building(tmp_path, monkeypatch, cli):
    from analyzer.output import results

    folder = tmp_path / "tables"
    folder.mkdir()
    (folder / "keep.me").write_text("x")
    monkeypatch.setattr(results, "generate", lambda: pytest.fail("built before the refusal"))
    done = cli("tables", "--out", str(tmp_path / "results"), "--shipped", str(folder))
    assert done.exit_code == 2 and "keep.me" in done.output
