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
