"""A house auctioned in a building shortage: 4 GO on an owner's lot, bids by the players who may build, the lot."""

import pytest

from tests.conftest import Table
from tests.keypad.test_auction import bid, lives, transactions  # noqa: F401  (the deed auction's own helpers)

# Alice's light blue and pink lots have 4 houses each, her browns 3: 30 of the bank's 32.
ALICE_BUILDS = ("FN 0 6 1 FN 0 8 1 FN 0 9 1 FN 1 1 1 FN 1 3 1 FN 1 4 1 " * 4
                + "FN 0 1 1 FN 0 3 1 " * 3)


@pytest.fixture
def table(ledger) -> Table:
    """Two houses left in the bank; Alice (browns at 3) and Bob (the orange group, bare) may both build."""
    t = Table(ledger)
    for name, uid in (("Alice", "A1"), ("Bob", "B2"), ("Cleo", "C3")):
        t.enrol(name, uid)
    t.insert("left", "Alice")
    t.type("2 0 M")  # the bank pays Alice 20M
    t.remove("left")
    t.insert("right", "Alice")
    t.type("FN 0 1 M FN 0 3 M FN 0 6 M FN 0 8 M FN 0 9 M FN 1 1 M FN 1 3 M FN 1 4 M " + ALICE_BUILDS)
    t.remove("right")
    t.insert("right", "Bob")
    t.type("FN 1 6 M FN 1 8 M FN 1 9 M")
    t.remove("right")
    assert bank_houses(t) == 2 and t.balance("Alice") == 5_200_000 and t.balance("Bob") == 9_400_000
    return t


def bank_houses(table) -> int:
    return table.ledger.game().estate.houses_in_bank


def open_auction(table, owner="Bob", square="16"):
    table.insert("right", owner)
    table.type(f"FN {square[0]} {square[1]} 4")
    assert table.screen_lines()[-1] == "GO: timed auction"
    table.press("GO")
    table.remove("right")


def test_4_go_opens_the_auction_of_a_house_when_the_bank_is_short(table):
    open_auction(table)
    assert table.screen_lines() == ["A house (St James Pl)", "No bid, 10 s left", "Card on a reader,", "bid M/K or GO"]
    live = lives(table)[-1]
    assert live["kind"] == "auction" and live["state"] == "open"
    assert live["lot"] == "A house (St. James Place)" and live["price_text"] == "1M"


def test_a_single_lot_that_may_take_it_gets_the_house_in_one_record(table):
    table.insert("right", "Alice")
    table.type("FN 0 1 1")  # Alice's 4th house on Mediterranean: only Baltic may take one now
    table.remove("right")
    assert bank_houses(table) == 1
    before = transactions(table)
    open_auction(table)
    bid(table, "Bob", "1.5M")
    bid(table, "Alice", "1.6M", reader="left")
    table.wait(10)
    assert table.screen_lines() == ["House on Baltic Ave", "1.6M", "Alice now 3.1M"]
    assert table.houses("baltic-avenue") == 4 and bank_houses(table) == 0
    assert transactions(table) == before + 1
    tx = table.ledger.transactions()[-1]
    assert tx.kind == "build" and [p.amount for p in tx.postings] == [1_600_000]
    assert lives(table)[-1]["state"] == "sold" and lives(table)[-1]["text"] == "Sold to Alice for 1.6M"


def test_a_winner_with_several_lots_chooses_one_before_anything_is_written(table):
    before = transactions(table)
    open_auction(table)
    bid(table, "Bob", "1.2M")
    table.wait(10)
    assert table.screen_lines() == ["Bob won 1.2M", "Lot? Tag, FN+square", "M: St James Pl", "C: give it up"]
    assert transactions(table) == before and "choosing the lot" in lives(table)[-1]["text"]
    table.type("FN 1")
    assert "Lot? FN 1_ 01-39" in table.shown
    table.type("9")
    assert table.houses("new-york-avenue") == 1 and table.balance("Bob") == 8_200_000
    assert table.screen_lines()[0] == "House on New York Av" and transactions(table) == before + 1


def test_m_takes_the_lot_shown_and_a_deed_tag_takes_its_lot(table):
    open_auction(table)
    bid(table, "Bob", "GO")  # 100K
    table.wait(10)
    table.press("M")
    assert table.houses("st-james-place") == 1 and table.balance("Bob") == 9_300_000
    table.enrol_deed("tennessee-avenue", "7E")
    open_auction(table, square="19")
    bid(table, "Bob", "GO")
    table.wait(10)
    table.tap("left", "tennessee-avenue")
    assert table.houses("tennessee-avenue") == 1 and bank_houses(table) == 0


def test_a_lot_that_cant_take_it_is_refused_and_the_choice_stays(table):
    open_auction(table)
    bid(table, "Bob", "1M")
    table.wait(10)
    table.type("FN 0 1")  # Alice's
    assert table.screen_lines() == ["Refused", "Medit. Ave not yours", "Bob: another lot"]
    table.type("FN 1 6")
    assert table.houses("st-james-place") == 1


def test_c_gives_the_house_up_with_nothing_written(table):
    before = transactions(table)
    open_auction(table)
    bid(table, "Bob", "1M")
    table.wait(10)
    table.type("FN 1")
    table.press("C")  # clears the square first
    assert "Lot? Tag, FN+square" in table.shown
    table.press("C")
    assert table.screen_lines() == ["House not taken", "Bob gave it up", "Nothing written"]
    assert transactions(table) == before and bank_houses(table) == 2 and table.balance("Bob") == 9_400_000
    assert lives(table)[-1]["state"] == "cancelled"


def test_a_player_with_no_lot_that_may_take_a_house_is_refused(table):
    open_auction(table)
    bid(table, "Cleo", "3M")
    assert table.screen_lines() == ["Refused", "Cleo: no lot may", "take a house now"]
    table.wait(10)
    assert table.screen_lines() == ["No bid", "A house (St James Pl)", "Nothing sold"]
    assert bank_houses(table) == 2


def test_a_bid_the_bidder_cant_pay_is_refused(table):
    open_auction(table)
    bid(table, "Alice", "5.3M")
    assert table.screen_lines() == ["Refused", "Alice short 100K", "Balance 5.2M"]


def test_undo_takes_the_house_back(table):
    open_auction(table)
    bid(table, "Bob", "2M")
    table.wait(10)
    table.press("M")
    assert table.houses("st-james-place") == 1
    table.type("FN C M")
    assert table.houses("st-james-place") == 0 and bank_houses(table) == 2 and table.balance("Bob") == 9_400_000


def test_no_shortage_no_house_auction(ledger):
    table = Table(ledger)
    table.enrol("Alice", "A1")
    table.enrol("Bob", "B2")
    table.insert("right", "Alice")
    table.type("FN 0 1 M FN 0 3 M FN 0 1 4 GO")
    assert table.screen_lines() == ["Refused", "One player can build", "No house auction"]
    table.remove("right")
    table.insert("right", "Bob")
    table.type("FN 0 6 M FN 0 8 M FN 0 9 M FN 0 6 4 GO")
    assert table.screen_lines() == ["Refused", "No house shortage", "No house auction"]
    table.press("C")
    assert "1 build 2 sell" in table.shown  # back on the lot's own screen: no auction started


def test_a_lot_whose_next_is_the_hotel_opens_a_hotel_auction_only_in_a_hotel_shortage(table):
    table.insert("right", "Alice")
    table.type("FN 0 6 4 GO")  # 4 houses: the next is the hotel, and only Alice could build one
    assert table.screen_lines() == ["Refused", "One player can build", "No hotel auction"]
    table.press("C")
    table.type("FN 0 1 4 9 GO")  # an amount typed: GO is no auction
    assert "Bid, then M or K" in table.shown


def test_the_unit_stays_awake_while_the_winner_chooses(table):
    open_auction(table)
    bid(table, "Bob", "1M")
    table.wait(10)
    table.wait(table.shell.panel.sleep_after + 60)
    assert not table.shell.panel.asleep and "Bob won 1M" in table.shown
    table.press("M")
    assert table.houses("st-james-place") == 1
