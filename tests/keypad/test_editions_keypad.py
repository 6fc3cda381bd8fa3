"""The board in the players' box, on the keypad: a new game on another edition (``7`` on the confirmation), the
language it suggests, its deeds on the screen and in the voice, a tag written on another board, the same game played
on every edition with each one's own figures."""

from __future__ import annotations

from dataclasses import replace

import pytest

from banker.journal.records import GameSettings
from banker.unit.events import Say
from cards import available_editions, load_edition
from tests.conftest import Table


@pytest.fixture
def table(ledger) -> Table:
    t = Table(ledger)
    t.shell.panel = replace(t.shell.panel, speaks=True)  # a unit with its [voice] on
    t.enrol("Alice", "A1")
    t.enrol("Bob", "B2")
    return t


def said(table: Table) -> list[str]:
    texts = [e.text for e in table.effects if isinstance(e, Say)]
    table.effects.clear()
    return texts


def german_game(table: Table) -> None:
    table.type("FN GO 1")
    assert table.screen_lines()[3] == "7 Board us"
    table.press("7")  # the editions in the order of their names: de first
    assert table.screen_lines()[3] == "7 Board de"
    table.press("M")


def test_seven_on_the_new_games_confirmation_chooses_the_board_and_the_game_keeps_it(table):
    german_game(table)
    assert table.ledger.game().settings.edition == "de"
    assert table.screen_lines()[:2] == ["New game", "15M each"]
    table.press("C")  # the language offered is declined
    table.type("FN GO 1 M")  # the next new game keeps the board
    assert table.ledger.game().settings.edition == "de"


def test_a_german_board_offers_german_and_m_takes_it(table):
    german_game(table)
    assert "Deutsch?" in table.screen_lines()
    table.press("M")
    assert table.ledger.game().language == "de"
    assert table.screen_lines() == ["Sprache", "Deutsch"]


def test_declining_the_language_keeps_the_one_the_game_has(table):
    german_game(table)
    table.press("C")
    assert table.ledger.game().language == "en"


def test_a_german_game_buys_schlossallee_for_4m_on_the_screen_and_in_the_voice(table):
    german_game(table)
    table.press("C")
    said(table)
    table.type("FN 3 9")
    assert table.screen_lines()[0] == "39 Schloßallee"  # the short name: "Schlossallee" is 12 letters
    table.insert("right", "Bob")
    table.press("M")
    assert table.owner("schlossallee") == "Bob" and table.balance("Bob") == 11_000_000
    assert said(table) == ["Bob buys Schlossallee for 4 million. Bob has 11 million."]


def test_changing_the_board_needs_the_banker_pin_when_one_is_set(table):
    table.type("FN . 1 2 3 4 M 1 2 3 4 M")
    table.type("FN GO 1 7 M")
    assert "Banker PIN?" in table.shown
    table.type("1 2 3 4 M")
    assert table.ledger.game().settings.edition == "de"


def test_a_tag_written_on_the_us_board_chooses_the_deed_on_its_square_and_says_so(table):
    table.type("FN 3 9")
    table.insert("left", "Tag")
    table.press("FN")
    assert "Tag enrolled" in table.shown
    table.remove("left")
    german_game(table)
    table.press("C")
    table.insert("left", "Tag")
    assert table.screen_lines()[0] == "39 Schloßallee"  # the short name: "Schlossallee" is 12 letters
    assert table.screen_lines()[-1] == "Tag of Boardwalk"
    assert table.uid_of("schlossallee") == table.uid_of("boardwalk")


@pytest.mark.parametrize("name", available_editions())
def test_the_same_game_on_every_edition_comes_to_that_boards_own_figures(ledger, name):
    """Start money, GO, the brown group and square 39 bought, a rent, the taxes and the jail fine: each from the
    edition's own table."""
    board = load_edition(name)
    ledger.new_game(GameSettings(board.start_balance, board.go_salary, edition=name))
    table = Table(ledger)
    table.enrol("Alice", "A1")
    table.enrol("Bob", "B2")
    assert table.balance("Alice") == board.start_balance
    table.insert("left", "Alice")
    table.press("GO")
    table.remove("left")
    alice = board.start_balance + board.go_salary
    assert table.balance("Alice") == alice
    table.insert("right", "Bob")
    for deed in (board.at(1), board.at(3), board.at(39)):
        table.type(f"FN {deed.position // 10} {deed.position % 10} M")
    table.remove("right")
    bob = board.start_balance - board.at(1).price - board.at(3).price - board.at(39).price
    assert table.balance("Bob") == bob
    table.type("FN 3 9")
    table.insert("right", "Alice")
    table.press("GO")
    alice -= board.at(39).rents[0]
    assert (table.balance("Alice"), table.balance("Bob")) == (alice, bob + board.at(39).rents[0])
    table.type("FN GO 1")
    table.type("FN GO 2")
    table.type("FN GO 3")
    alice -= board.income_tax + board.luxury_tax + board.jail_fine
    assert table.balance("Alice") == alice
    assert table.screen_lines()[0].startswith("Alice")
