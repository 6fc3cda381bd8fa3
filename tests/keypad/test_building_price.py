"""A building at a bid only in a real shortage: 4 and a price on a lot when the bank is not short is refused."""

from tests.conftest import Table
from tests.keypad.test_auction import transactions


def browns_table(ledger) -> Table:
    """Alice owns both browns; the bank has all 32 houses; Bob owns nothing to build on."""
    table = Table(ledger)
    table.enrol("Alice", "A1")
    table.enrol("Bob", "B2")
    table.insert("right", "Alice")
    table.type("FN 0 1 M FN 0 3 M")
    return table


def test_4_and_a_price_without_a_shortage_is_refused_with_nothing_written(ledger):
    table = browns_table(ledger)
    before, cash = transactions(table), table.balance("Alice")
    table.type("FN 0 1 4 1 K")
    assert table.screen_lines()[:2] == ["Refused", "One player can build"]
    assert table.houses("mediterranean-avenue") == 0 and table.balance("Alice") == cash
    assert transactions(table) == before
    table.type("C C FN 0 1 1")  # the house at the deed's price still builds
    assert table.houses("mediterranean-avenue") == 1 and table.balance("Alice") == cash - 500_000


def test_taking_every_card_off_ends_the_building_bid_screen(ledger):
    table = browns_table(ledger)
    table.type("FN 0 1 4")
    assert "Building auction" in table.shown
    table.remove("right")
    assert table.screen_lines() == ["Medit. Ave", "put away"]
    table.insert("left", "Alice")
    cash = table.balance("Alice")
    table.type("1 M")  # on the idle screen: the bank pays Alice, no house is charged
    assert table.houses("mediterranean-avenue") == 0 and table.balance("Alice") == cash + 1_000_000


def test_a_refused_4_go_then_every_card_off_puts_the_deed_away(ledger):
    table = browns_table(ledger)
    table.type("FN 0 1 4 GO")
    assert table.screen_lines() == ["Refused", "One player can build", "No house auction"]
    table.remove("right")
    assert table.screen_lines() == ["Medit. Ave", "put away"]
    assert "Building auction" not in table.shown


def test_taking_every_card_off_ends_the_sell_down_screen(ledger):
    table = browns_table(ledger)
    table.type("FN 0 1 1 FN 0 3 1 FN 0 1 3")
    assert "Sell group down" in table.shown
    table.remove("right")
    assert table.screen_lines() == ["Medit. Ave", "put away"]
    table.press("0")
    assert table.houses("mediterranean-avenue") == 1 and table.houses("baltic-avenue") == 1
