"""A room's fixed rules against the equilibrium (analyzer/games/rooms.py)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from analyzer.core.tableau import STANDARD
from analyzer.errors import GameError
from analyzer.games import tableaux
from analyzer.games.model import shoe_game, with_replacement
from analyzer.games.rooms import PUNTO_BANCO, REGLE, Room, find_room, parse_room, room_report, room_toml
from analyzer.games.solve import banker_best_response, player_best_response, solve


def test_the_punto_banco_tableau_is_the_engines_coup():
    # a room with nothing optional plays one pure strategy pair: its value is the engine's count
    for game, decks in ((with_replacement(), None), (shoe_game("B2", 6), 6)):
        report = room_report(game, PUNTO_BANCO)
        assert report.room_value == tableaux.engine_gain(STANDARD, decks)
        assert report.player == (Fraction(1),)


@pytest.mark.parametrize("game", [with_replacement(), shoe_game("B2", 1), shoe_game("B3", 6)],
                         ids=["A1", "B2-1", "B3-6"])
def test_each_side_loses_against_a_best_response_never_gains(game):
    for room in (REGLE, PUNTO_BANCO):
        report = room_report(game, room)
        assert report.banker_loss >= 0 and report.player_loss >= 0
        # a room that restricts only the Banker is worth at least the value to the Player
        if room.player_on_5 == "option":
            assert report.room_value >= report.value
        # the best responses are the solver's own, recomputed here from the strategies
        assert report.player_best == player_best_response(game, report.banker)
        assert report.banker_best == -banker_best_response(game, report.player, Fraction(0))


def test_the_punto_banco_tableau_is_beaten_by_a_best_response():
    # the Player who stands on 5 against the tableau's Banker gains; the Banker who answers a
    # Player always drawing on 5 gains: each fixed strategy gives something up
    report = room_report(shoe_game("B2", 8), PUNTO_BANCO)
    assert report.banker_loss > 0 and report.player_loss > 0


def test_kemeny_and_snells_banker_lies_inside_the_regle():
    # with replacement the equilibrium Banker plays the tableau wherever the règle fixes his play
    # (Kemeny and Snell 1957; the tableau is their solution with 6 v stood resolved): the règle
    # costs neither side anything
    report = room_report(with_replacement(), REGLE)
    assert report.room_value == report.value
    assert report.banker_loss == report.player_loss == 0


def test_a_room_file_round_trips_and_reads_stood():
    assert parse_room(room_toml(REGLE)) == REGLE
    room = parse_room('name = "mine"\nplayer_on_5 = "stand"\n[banker_options]\n6 = ["stood", 5]\n')
    assert room.banker_options == {(6, None), (6, 5)} and room.player_on_5 == "stand"
    assert room.tableau is STANDARD


def test_rooms_by_name_and_file(tmp_path):
    assert find_room("Règle") is REGLE and find_room("punto_banco") is PUNTO_BANCO
    path = tmp_path / "room.toml"
    path.write_text(room_toml(REGLE))
    assert find_room(str(path)) == REGLE


@pytest.mark.parametrize(("text", "message"), [
    ('name = "x"\nplayer_on_5 = "maybe"\n[banker_options]\n', "player_on_5"),
    ('name = "x"\nplayer_on_5 = "draw"\n[banker_options]\n8 = [1]\n', "Banker total 0-7"),
    ('name = "x"\nplayer_on_5 = "draw"\n[banker_options]\n3 = [10]\n', "third card"),
    ('name = "x"\nplayer_on_5 = "draw"\n', "banker_options"),
    ('name = "x"\nplayer_on_5 = "draw"\ncolour = 1\n[banker_options]\n', "unknown key"),
    ('name = "x"\nplayer_on_5 = "draw"\ntableau = "nope"\n[banker_options]\n', "tableau"),
    ("name = [", "room"),
    ('name = "x"\nplayer_on_5 = "draw"\n[banker_options]\n3 = [9, 9]\n', "9 is listed twice"),
    ('name = "x"\nplayer_on_5 = "draw"\n[banker_options]\n6 = ["stood", "stood"]\n', "'stood' is listed"),
])
def test_bad_room_files_are_one_clear_error(text, message):
    with pytest.raises(GameError, match=message):
        parse_room(text)


@pytest.mark.parametrize("name", ['say "hi"', "back\\slash", "déjà 'vu' ]"])
@pytest.mark.parametrize("title", ["two\nlines", 'a "quoted" title', "nul \x00 tab\t", "cr\r \x7f \u202e"])
def test_a_room_file_with_hostile_text_round_trips(name, title):
    room = Room(name, title, STANDARD, frozenset({(3, 9), (6, None)}), "option")
    again = parse_room(room_toml(room))
    assert again == room and again.title == title


def test_a_missing_room_file_or_a_folder_says_so(tmp_path):
    with pytest.raises(GameError, match="no such file"):
        find_room(str(tmp_path / "absent.toml"))
    with pytest.raises(GameError, match="is a directory"):
        find_room(str(tmp_path))


def test_an_unknown_room_and_a_commission_are_refused():
    with pytest.raises(GameError, match="unknown room"):
        find_room("casino-royale")
    with pytest.raises(GameError, match="zero-sum"):
        room_report(with_replacement(), REGLE, solve(with_replacement(), Fraction(1, 20)))


def test_a_room_value():
    room = Room("none", "nothing optional", STANDARD, frozenset(), "stand")
    report = room_report(with_replacement(), room)
    assert report.room_value == tableaux.engine_gain(tableaux.strategy_tableau(False, {
        (t, x) for t in range(8) for x in (*range(10), None) if STANDARD.banker_draws(t, x)}), None)
