"""Editions on the command line and in the config: ``game new --edition``, ``game list``, ``deeds list``, the
config's ``[unit] edition`` for a new ledger's first game."""

from __future__ import annotations

import json

import pytest

from banker.errors import ConfigError
from banker_cli.device_cli import _first_game_settings
from cards import load_edition
from runtime.config import parse_config
from runtime.ledger import SqliteLedger
from tests.cli.support import a_ledger, banker

BOARDS = {"uk": ("Old Kent Road", "Mayfair"), "de": ("Badstraße", "Schlossallee"),
          "fr": ("Boulevard de Belleville", "Rue de la Paix"), "es": ("Ronda de Valencia", "Paseo del Prado"),
          "nl": ("Dorpsstraat, Ons Dorp", "Kalverstraat, Amsterdam")}


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_deeds_list_lists_the_boards_28_deeds_with_its_own_names(tmp_path, name):
    result = banker("deeds", "list", "--edition", name, "--json", "--db", tmp_path / "none.db")
    assert result.exit_code == 0, result.output
    deeds = json.loads(result.output)
    assert len(deeds) == 28
    by_square = {d["position"]: d["name"] for d in deeds}
    assert (by_square[1], by_square[39]) == BOARDS[name]


def test_game_new_on_another_board_keeps_it_and_game_list_shows_it(tmp_path):
    db = a_ledger(tmp_path)
    assert banker("game", "new", "--edition", "de", "--db", db).exit_code == 0
    assert banker("game", "new", "--db", db).exit_code == 0  # the next game keeps the board
    with SqliteLedger(db) as ledger:
        game = ledger.game()
        assert game.settings.edition == "de" and game.edition.at(39).name == "Schlossallee"
        board = load_edition("de")
        assert (game.settings.start_balance, game.settings.go_salary) == (board.start_balance, board.go_salary)
    listed = banker("game", "list", "--db", db)
    assert listed.exit_code == 0 and "de deeds" in listed.output


def test_a_start_balance_typed_with_the_board_stays(tmp_path):
    db = a_ledger(tmp_path)
    assert banker("game", "new", "--edition", "uk", "--start", "20M", "--db", db).exit_code == 0
    with SqliteLedger(db) as ledger:
        assert ledger.game().settings.start_balance == 20_000_000


def test_the_config_names_the_board_of_a_new_ledgers_first_game(tmp_path):
    config = parse_config('[unit]\nedition = "fr"\n')
    assert config.edition == "fr"
    with SqliteLedger(tmp_path / "new.db") as ledger:
        _first_game_settings(ledger, config)
        assert ledger.game().settings.edition == "fr"
        assert ledger.game().edition.at(39).name == "Rue de la Paix"


def test_a_board_the_unit_lacks_is_refused_naming_the_key():
    with pytest.raises(ConfigError, match="unit.edition must be one of .*us"):
        parse_config('[unit]\nedition = "mars"\n')


def test_a_ledger_holding_games_of_two_boards_verifies_each_with_its_own(tmp_path):
    db = a_ledger(tmp_path)  # a game on the US board, a payment in it
    assert banker("game", "new", "--edition", "de", "--db", db).exit_code == 0
    play = tmp_path / "buy.kps"
    play.write_text("insert right Bob\npress FN 3 9 M\nremove right\nexpect owner schlossallee Bob\n")
    played = banker("script", play, "--db", db)
    assert played.exit_code == 0, played.output
    verified = banker("ledger", "verify", "--db", db)
    assert verified.exit_code == 0, verified.output
    with SqliteLedger(db) as ledger:
        assert ledger.game().balances_by_name()["Bob"] == 15_000_000 - 4_000_000
