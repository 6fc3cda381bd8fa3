"""A card enrolled on the unit (``FN`` on an unknown card) is named in the game's language, and journalled so;
an older ledger's ``Player 1`` opens and plays as before."""

from __future__ import annotations

import pytest

from banker.unit.events import CardPlaced
from banker.text.i18n import LANGUAGES
from banker.journal.records import Enrolment
from tests.conftest import Table


def _enrol_on_the_unit(table: Table, uid: str) -> None:
    table.shell.handle(CardPlaced("left", uid, table.t))
    table.press("FN")
    table.remove("left")


@pytest.mark.parametrize(("code", "first", "second"), [
    ("en", "Player 1", "Player 2"), ("de", "Spieler 1", "Spieler 2"), ("fr", "Joueur 1", "Joueur 2"),
    ("es", "Jugador 1", "Jugador 2"), ("nl", "Speler 1", "Speler 2"),
])
def test_a_card_enrolled_on_the_unit_is_named_in_the_games_language(table, ledger, code, first, second):
    table.type(f"FN 8 {LANGUAGES.index(code) + 1}")
    _enrol_on_the_unit(table, "CAFE01")
    _enrol_on_the_unit(table, "CAFE02")
    game = ledger.game()
    assert [game.card_by_uid(uid).name for uid in ("CAFE01", "CAFE02")] == [first, second]
    journalled = [r.card.name for r in ledger.store.records() if isinstance(r, Enrolment) and r.card.uid.startswith("CAFE")]
    assert journalled == [first, second]  # as the journal keeps them, decoded from its rows


def test_an_older_ledgers_player_1_plays_on_and_the_next_card_takes_the_next_number(table, ledger):
    ledger.enrol("Player 1", "0A0B01")  # a card enrolled on the unit by an earlier release
    table.type("FN 8 2")  # the game is German now
    _enrol_on_the_unit(table, "CAFE01")
    assert ledger.game().card_by_uid("CAFE01").name == "Spieler 2"
    table.insert("left", "Player 1")
    table.type("2M")
    assert ledger.game().balance(ledger.game().card_by_name("Player 1").id) == 17_000_000
