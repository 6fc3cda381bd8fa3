"""A retired player is out (issue 20, item 0): after a bankruptcy their card is refused everywhere; one left wins.

The cases of the public rules suites about retired players: a three-player
game where Cleo went bankrupt; her card may not buy, pay rent, pay or be
paid, be given a deed, or be the creditor of another bankruptcy; with two of
three retired the game is over.
"""

from __future__ import annotations

import pytest

from banker.errors import Refused
from banker.fold.game import apply
from banker.journal.records import BANK, Posting, Transaction
from banker.fold.retired import PlayerRetired
from banker.rules import Offer, bankrupt, buy, rent, trade
from banker.rules.standings import game_over_line
from tests.conftest import Table


@pytest.fixture
def three(table: Table) -> Table:
    table.enrol("Cleo", "C3")
    table.insert("right", "Cleo")
    table.type("FN GO 5 M")  # Cleo retires, owing the bank
    table.remove("right")
    assert "Cleo" not in [c.name for c in table.ledger.game().in_game()]
    return table


def cleo(table: Table) -> int:
    return table.ledger.game().card_by_name("Cleo").id


@pytest.mark.parametrize("case", ["buys a deed", "pays rent", "receives rent", "pays", "is paid", "is given a deed",
                                  "is a bankruptcy's creditor", "is given a jail card"])
def test_a_retired_players_card_is_refused(three, case):
    game, c = three.ledger.game(), cleo(three)
    three.insert("right", "Alice")
    three.type("FN 0 1 M")  # Alice owns Mediterranean Avenue
    three.remove("right")
    three.insert("left", "Alice")
    three.type("FN GO 4")  # and drew a Get Out of Jail Free card
    three.remove("left")
    game = three.ledger.game()
    deals = {
        "buys a deed": lambda: buy(game, buyer=c, slug="baltic-avenue"),
        "pays rent": lambda: rent(game, payer=c, slug="mediterranean-avenue"),
        "is given a deed": lambda: trade(game, first=1, second=c, first_gives=Offer(deeds=("mediterranean-avenue",)),
                                         second_gives=Offer()),
        "is a bankruptcy's creditor": lambda: bankrupt(game, debtor=2, creditor=c),
        "is given a jail card": lambda: trade(game, first=1, second=c, first_gives=Offer(jail_cards=1),
                                              second_gives=Offer()),
    }
    if case in deals:
        with pytest.raises(Refused, match="Cleo is bankrupt|[Cc]reditor is out"):
            apply(game, game.numbered(deals[case]().to_transaction()))
        return
    payer, payee = {"receives rent": (2, c), "pays": (c, BANK), "is paid": (BANK, c)}[case]
    with pytest.raises(PlayerRetired, match="Cleo is bankrupt"):
        apply(game, game.numbered(Transaction("x", (Posting(payer, payee, 1_000, "x"),))))


def test_on_the_keypad_the_card_shows_it_is_out_and_nothing_is_paid(three):
    three.insert("left", "Cleo")
    assert three.screen_lines()[:2] == ["Cleo", "Out of the game"] and three.shell.screen.error
    three.type("2M")
    assert "Cleo is bankrupt" in three.shown and three.balance("Cleo") == 0
    three.press("GO")
    assert three.balance("Cleo") == 0


def test_the_game_is_over_when_one_player_is_left(three):
    three.insert("left", "Alice")
    three.insert("right", "Bob")
    three.type("FN GO 5 M")  # Bob retires to Alice: two of three out
    assert "Game over: Alice wins" in three.shown
    assert game_over_line(three.ledger.game()) == "Game over: Alice wins"


def test_undoing_the_bankruptcy_brings_the_player_back(three):
    three.type("FN C M")
    game = three.ledger.game()
    assert cleo(three) not in game.estate.retired and three.balance("Cleo") == 15_000_000
    three.insert("left", "Cleo")
    three.type("1M")
    assert three.balance("Cleo") == 16_000_000


def test_a_new_game_brings_every_card_back(three):
    three.hold("C", 3)
    game = three.ledger.game()
    assert not game.estate.retired and three.balance("Cleo") == 15_000_000
