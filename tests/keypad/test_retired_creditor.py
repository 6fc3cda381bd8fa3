"""A bankrupt player's card is never offered as the creditor of another bankruptcy (FN GO 5)."""

import pytest

from tests.conftest import Table


@pytest.fixture
def table(ledger) -> Table:
    t = Table(ledger)
    for name, uid in (("Alice", "A1"), ("Bob", "B2"), ("Cleo", "C3")):
        t.enrol(name, uid)
    t.insert("right", "Cleo")
    t.type("FN GO 5 M")  # Cleo goes bankrupt to the bank: out of the game
    t.remove("right")
    return t


def test_a_retired_creditor_is_refused_before_the_bankruptcy_is_offered(table):
    table.insert("left", "Cleo")
    table.insert("right", "Bob")
    table.type("FN GO 5")
    assert "bankrupt?" not in table.shown
    assert table.screen_lines()[:2] == ["Cleo", "Out of the game"]
    table.press("M")
    assert table.balance("Bob") == 15_000_000 and not table.ledger.game().estate.retired - {3}
