"""The player menu (FN GO) and the game menu: taxes, jail, GO twice, bankruptcy, worth, standings, new games."""

from banker.journal.records import GameSettings
from tests.conftest import Table


def test_the_player_menu_lists_what_the_minus_card_can_do(table):
    table.insert("right", "Alice")
    table.type("FN GO")
    assert table.screen_lines() == ["- Alice: 1 Income", "2 Luxury  3 Jail fine", "4 Jail card 0 Worth",
                                    "5 Bankrupt to bank"]
    table.insert("left", "Bob")
    assert table.screen_lines()[2:] == ["4 Buy jail cd 7 Deal", "5 Bankrupt to Bob"]


def test_the_plus_card_alone_collects_go_twice(table):
    table.insert("left", "Bob")
    table.type("FN GO GO")
    assert table.balance("Bob") == 19_000_000
    assert table.screen_lines() == ["Bob +4M", "19M", "Passed GO twice"]
    assert table.shell.panel.mode is None


def test_go_twice_uses_the_games_go_salary(ledger):
    ledger.new_game(GameSettings(go_salary=4_000_000))
    table = Table(ledger)
    table.enrol("Bob", "B2")
    table.insert("left", "Bob")
    table.type("FN GO GO")
    assert table.balance("Bob") == 15_000_000 + 8_000_000


def test_taxes_and_the_fine_are_paid_by_the_minus_card(table):
    table.insert("right", "Alice")
    table.type("FN GO 1")
    table.type("FN GO 2")
    table.type("FN GO 3")
    assert table.balance("Alice") == 15_000_000 - 2_000_000 - 1_000_000 - 500_000
    assert [tx.kind for tx in table.ledger.transactions()[-3:]] == ["income-tax", "luxury-tax", "jail-fine"]


def test_a_refused_tax_posts_nothing_and_keeps_the_menu(table):
    table.insert("right", "Alice")
    table.type("1 4 . 9 M")
    count = len(table.ledger.transactions())
    table.type("FN GO 3")
    assert "Alice short 400K" in table.shown and table.shell.screen.error
    assert len(table.ledger.transactions()) == count
    table.press("9")
    assert "1 Income 2 Luxury" in table.shown


def test_the_ten_percent_choice_counts_worth_after_the_choice(ledger):
    ledger.new_game(GameSettings(income_tax_choice=True))
    table = Table(ledger)
    table.enrol("Alice", "A1")
    table.insert("right", "Alice")
    table.type("FN 3 9 M")
    table.type("FN GO 1")
    assert "2 pays 10% of worth" in table.shown and "15M" not in table.shown
    table.press("2")
    assert table.balance("Alice") == 11_000_000 - 1_500_000


def test_jail_cards_drawn_sold_and_used(table):
    table.insert("left", "Bob")
    table.type("FN GO 4")
    table.insert("right", "Alice")
    table.type("FN GO 4 1 0 0 K")
    assert (table.balance("Alice"), table.balance("Bob")) == (14_900_000, 15_100_000)
    table.remove("left")
    table.type("FN GO 4")
    assert "Used jail card" in table.shown
    assert table.ledger.game().estate.jail_cards_of(None) == 2


def test_a_card_moved_during_a_sale_cancels_it(table):
    table.insert("left", "Bob")
    table.type("FN GO 4")
    table.insert("right", "Alice")
    table.type("FN GO 4 5")
    table.remove("right")
    assert "A card moved" in table.shown and table.shell.panel.mode is None


def test_bankruptcy_needs_m_and_a_card_moved_cancels_it(table):
    table.insert("right", "Alice")
    table.type("FN GO 5")
    assert "All goes to the bank" in table.shown
    table.press("GO")
    assert "M: bankrupt" in table.shown
    table.insert("left", "Bob")
    assert "A card moved" in table.shown
    assert table.balance("Alice") == 15_000_000


def test_a_creditor_who_cannot_pay_the_interest_refuses_the_bankruptcy(table):
    table.insert("right", "Alice")
    table.type("FN 3 9 M FN 3 7 M FN 3 9 . FN 3 7 .")
    table.remove("right")
    table.insert("right", "Alice")
    table.type("1 1 . 2 5 M")
    table.remove("right")
    table.insert("right", "Bob")
    table.type("1 5 M")
    table.remove("right")
    assert (table.balance("Alice"), table.balance("Bob")) == (0, 0)
    table.insert("left", "Bob")
    table.insert("right", "Alice")
    table.type("FN GO 5 M")
    assert "Bob short 380K" in table.shown
    assert table.owner("boardwalk") == "Alice"


def test_worth_shows_total_worth_and_the_end_value(table):
    table.insert("right", "Alice")
    table.type("FN 3 9 M FN 3 9 .")
    table.type("FN GO 0")
    assert table.screen_lines() == ["Alice worth", "17M", "Cash 13M", "End value 15M"]


def test_the_game_menu_offers_standings_and_new_games(table):
    table.type("FN GO")
    assert table.screen_lines() == ["Game menu (game)", "0 Standings", "New: 1 official", "2 10% tax  3 short"]
    table.press("7")
    assert "1 2 3 New game" in table.shown
    table.press("0")
    assert table.screen_lines() == ["Standings", "1. Alice 15M", "1. Bob 15M"]


def test_a_new_short_game_archives_the_old_one(table):
    table.insert("left", "Alice")
    table.type("1M")
    table.remove("left")
    table.type("FN GO 3 M")
    assert "Dealt 2 deeds each" in table.shown
    game = table.ledger.game()
    assert game.id == 2 and game.settings.houses_for_hotel == 3
    dealt = game.estate.deeds_of(game.card_by_name("Alice").id)
    assert len(dealt) == 2  # the short game's deal, paid at the printed prices
    assert table.balance("Alice") == 15_000_000 - sum(game.edition.deed(slug).price for slug in dealt)


def test_a_new_game_with_other_rules_needs_the_pin(table):
    table.type("FN . 1 2 3 4 M 1 2 3 4 M")
    table.type("FN GO 2 M")
    assert "Banker PIN?" in table.shown
    table.type("1 2 3 4 M")
    assert table.ledger.game().settings.income_tax_choice
    table.type("FN GO 2 M")  # the same rules again: no PIN, like holding C
    assert "New game" in table.shown and table.ledger.game().id == 3


def test_a_new_game_is_refused_with_a_card_on_a_reader(table):
    table.type("FN GO 1")
    table.insert("left", "Alice")
    table.press("M")
    assert "Take the cards" in table.shown and table.ledger.game().id == 1


def test_the_last_player_left_wins(table):
    table.insert("right", "Bob")
    table.type("FN GO 5 M")
    assert table.screen_lines() == ["Bob retires", "All to the bank", "Game over: Alice wins", "FN GO 0: ranking"]


def test_a_creditor_may_lift_inherited_mortgages_at_once(table):
    table.insert("right", "Alice")
    table.type("FN 3 9 M FN 3 9 .")          # Alice buys Boardwalk (4M) and mortgages it (+2M): 13M
    table.remove("right")
    table.insert("left", "Bob")
    table.insert("right", "Alice")
    table.type("FN GO 5")
    assert ".: and lift" in table.shown
    table.press(".")
    assert table.ledger.game().estate.owner("boardwalk") == table.ledger.game().card_by_name("Bob").id
    assert not table.ledger.game().estate.is_mortgaged("boardwalk")
    # Bob got Alice's 13M and paid the 2M principal and the 200K interest
    assert table.balance("Bob") == 15_000_000 + 13_000_000 - 2_200_000
