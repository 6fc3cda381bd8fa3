"""The deed flows at the table: choose a deed, then one key buys, bids, charges rent, trades, builds or mortgages."""

import pytest

from banker.journal.records import GameSettings
from runtime.ledger import SqliteLedger
from tests.conftest import Table


def owner(table, slug):
    return table.owner(slug)


def transactions(table):
    return len(table.ledger.transactions())


def buy(table, name, *squares):
    table.insert("right", name)
    for square in squares:
        table.type(f"FN {square[0]} {square[1]} M")
    table.remove("right")


def test_fn_and_a_square_show_the_deed_its_owner_and_rent(table):
    table.type("FN 3 9")
    assert table.screen_lines() == ["39 Boardwalk", "Bank, price 4M", "Rent 500K, house 2M", "Buyer -, GO: auction"]
    table.insert("right", "Alice")
    assert table.screen_lines()[-1] == "M buys, GO: auction"


def test_a_square_without_a_deed_is_refused(table):
    table.type("FN 0 4")
    assert "No deed on 04" in table.shown and table.shell.screen.error
    assert table.shell.panel.mode is None


def test_buying_at_the_printed_price_shows_the_new_balance(table):
    buy(table, "Alice", "39")
    assert owner(table, "boardwalk") == "Alice"
    assert table.balance("Alice") == 11_000_000
    assert table.tones()[-1] == "success"


def test_an_auction_price_is_typed_then_m_or_k(table):
    table.insert("right", "Bob")
    table.type("FN 3 9")
    table.type("1.5M")
    assert owner(table, "boardwalk") == "Bob" and table.balance("Bob") == 13_500_000
    assert "Auction Boardwalk" in table.shown
    assert table.ledger.transactions()[-1].kind == "auction"


def test_typing_shows_the_bid_and_c_clears_it_before_leaving(table):
    table.insert("right", "Bob")
    table.type("FN 3 9")
    table.type("25")
    assert table.screen_lines()[-1] == "Bid 25_ M/K"
    table.press("C")
    assert table.screen_lines()[-1] == "M buys, GO: auction"
    table.press("C")
    assert "Cancelled" in table.shown and table.shell.panel.mode is None


def test_refusals_post_nothing_and_keep_the_deed_chosen(table):
    buy(table, "Alice", "39")
    before = transactions(table)
    table.insert("right", "Bob")
    table.type("FN 3 9")
    table.press("M")
    assert table.shell.screen.error and "GO pays the rent" in table.shown
    table.press("1")
    assert "Boardwalk not yours" in table.shown
    assert transactions(table) == before
    assert table.shell.panel.mode is not None
    table.press("GO")
    assert table.balance("Bob") == 14_500_000


def test_the_deed_is_put_away_when_the_cards_are_taken_off(table):
    table.insert("right", "Bob")
    table.type("FN 3 9")
    table.remove("right")
    assert "Boardwalk" in table.shown and "put away" in table.shown
    assert table.shell.panel.mode is None


def test_rent_is_paid_to_the_owner_whose_card_is_not_on_a_reader(table):
    buy(table, "Alice", "06", "08", "09")
    table.insert("right", "Bob")
    table.type("FN 0 9")
    assert "Rent 160K" in table.shown
    table.press("GO")
    assert table.screen_lines() == ["Rent Connect. Av", "Bob paid 160K", "- Bob 14.84M", "+ Alice 11.96M"]
    assert table.tones()[-1] == "success"


def test_a_utility_needs_the_dice_total(table):
    buy(table, "Alice", "12")
    table.insert("right", "Bob")
    table.type("FN 1 2")
    table.press("GO")
    assert "Dice total 2-12" in table.shown
    table.type("1.")
    table.press("GO")
    assert "Dice total 2-12" in table.shown
    table.type("12")
    table.press("GO")
    assert table.balance("Bob") == 15_000_000 - 12 * 40_000


def test_the_owner_builds_sells_and_mortgages_with_one_key(table):
    buy(table, "Alice", "01", "03")
    table.insert("right", "Alice")
    table.type("FN 0 1")
    table.press("1")
    assert table.houses("mediterranean-avenue") == 1
    table.press("2")
    assert table.houses("mediterranean-avenue") == 0
    assert table.balance("Alice") == 13_800_000 - 500_000 + 250_000
    table.press(".")
    assert table.mortgaged("mediterranean-avenue")
    table.press(".")
    assert not table.mortgaged("mediterranean-avenue")
    table.press("7")
    assert "1 build  2 sell" in table.shown and table.shell.screen.error


def test_a_building_bid_is_typed_after_4(table):
    buy(table, "Alice", "01", "03")
    table.insert("right", "Alice")
    table.type("FN 0 1 4")
    assert "Building auction" in table.shown
    table.type("9")
    table.press("GO")
    assert "Bid, then M or K" in table.shown
    table.type("0K")  # the bank is not short: a bid price is refused (a house at 90K would mint money)
    assert table.screen_lines()[:2] == ["Refused", "One player can build"]
    assert table.houses("mediterranean-avenue") == 0 and table.balance("Alice") == 13_800_000
    table.type("4")
    table.press("C")
    assert table.shell.panel.mode.__class__.__name__ == "DeedMode"


def test_a_trade_moves_the_deed_and_the_price_at_once(table):
    buy(table, "Alice", "39")
    table.type("FN 3 9")
    table.insert("left", "Alice")
    table.insert("right", "Bob")
    table.type("3M")
    assert owner(table, "boardwalk") == "Bob"
    assert (table.balance("Alice"), table.balance("Bob")) == (14_000_000, 12_000_000)
    assert table.ledger.transactions()[-1].kind == "trade"


def test_a_card_moved_while_choosing_how_to_take_a_mortgaged_deed_cancels(table):
    buy(table, "Alice", "39")
    table.insert("right", "Alice")
    table.type("FN 3 9 .")
    table.remove("right")
    table.type("FN 3 9")
    table.insert("left", "Alice")
    table.insert("right", "Bob")
    table.type("1M")
    assert "Mortgaged: Bob" in table.shown
    before = transactions(table)
    table.remove("left")
    assert "A card moved" in table.shown and transactions(table) == before
    assert owner(table, "boardwalk") == "Alice"


def test_fn_inside_a_deed_starts_over_and_a_tap_chooses_another(table):
    table.enrol_deed("park-place", "7A6")
    table.type("FN 3 9 FN")
    assert "FN: 01-39 deed" in table.shown
    table.tap("left", "park-place")
    assert table.screen_lines()[0] == "37 Park Place"


def test_a_tag_enrolled_on_the_device_needs_the_pin_when_one_is_set(table):
    table.type("FN . 1 2 3 4 M 1 2 3 4 M")
    assert "Banker PIN set" in table.shown
    table.type("FN 3 9")
    table.insert("left", "Tag")
    table.press("FN")
    assert "Banker PIN?" in table.shown
    table.type("9 9 9 9 M")
    assert "Wrong PIN" in table.shown and table.ledger.game().deed_tags == {}
    table.remove("left")
    table.type("FN 3 9")
    table.insert("left", "Tag")
    table.type("FN 1 2 3 4 M")
    assert "Tag enrolled" in table.shown
    assert list(table.ledger.game().deed_tags.values()) == ["boardwalk"]


def test_a_players_card_can_not_be_a_deeds_tag(table):
    table.type("FN 3 9")
    from banker.errors import Refused

    with pytest.raises(Refused):
        table.ledger.enrol_deed("boardwalk", "A1")


def test_undo_restores_the_deed(table):
    buy(table, "Alice", "39")
    table.type("FN C M")
    assert "reversed" in table.shown
    assert owner(table, "boardwalk") == "bank" and table.balance("Alice") == 15_000_000


def test_the_estate_survives_a_restart(tmp_path):
    path = tmp_path / "l.db"
    with SqliteLedger(path, backups=False) as ledger:
        table = Table(ledger)
        table.enrol("Alice", "A1")
        buy(table, "Alice", "01", "03")
        table.insert("right", "Alice")
        table.type("FN 0 1 1")
    with SqliteLedger(path, backups=False) as ledger:
        again = Table(ledger)
        assert again.owner("baltic-avenue") == "Alice" and again.houses("mediterranean-avenue") == 1


def test_negative_balances_let_a_purchase_through(ledger):
    ledger.new_game(GameSettings(allow_negative=True))
    table = Table(ledger)
    table.enrol("Bob", "B2")
    table.insert("right", "Bob")
    table.type("FN 3 9 2 0 M")
    assert table.balance("Bob") == -5_000_000 and table.owner("boardwalk") == "Bob"


def test_a_ledger_that_cannot_commit_shows_not_saved(store, table):
    store.fail_next("disk full")
    table.insert("right", "Alice")
    table.type("FN 3 9 M")
    assert "NOT SAVED" in table.shown
    assert table.owner("boardwalk") == "bank"
