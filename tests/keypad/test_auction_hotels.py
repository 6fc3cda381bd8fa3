"""A hotel auctioned in a hotel shortage: 4 GO on a lot whose next building is the hotel, bids by the players
who may build one, the winner's lot; the hotel sends the lot's houses back to the bank."""

import pytest

from tests.conftest import Table
from tests.keypad import test_auction_houses as houses
from tests.keypad.test_auction import bid, lives, transactions  # noqa: F401  (the deed auction's own helpers)

ALICE_LOTS = ("01", "03", "06", "08", "09", "11", "13", "14", "16", "18", "19")
BOB_LOTS = ("21", "23", "24")


def builds(lots, rounds: int) -> str:
    return " ".join(f"FN {sq[0]} {sq[1]} 1" for _ in range(rounds) for sq in lots)


@pytest.fixture
def table(ledger) -> Table:
    """Two hotels left in the bank. Alice: hotels on ten lots, New York at 4 houses (its next is the hotel);
    Bob: the reds at 4 houses each. Two players want hotels, with four lots between them: the bank is short."""
    t = Table(ledger)
    for name, uid in (("Alice", "A1"), ("Bob", "B2"), ("Cleo", "C3")):
        t.enrol(name, uid)
    for name, amount in (("Alice", "5 0 M"), ("Bob", "2 0 M")):
        t.insert("left", name)
        t.type(amount)  # the bank pays
        t.remove("left")
    t.insert("right", "Alice")
    t.type(" ".join(f"FN {sq[0]} {sq[1]} M" for sq in ALICE_LOTS))
    for group in (("01", "03"), ("06", "08", "09"), ("11", "13", "14")):
        t.type(builds(group, 5))  # four houses, then the hotel on each lot
    t.type(builds(("16", "18", "19"), 4) + " FN 1 6 1 FN 1 8 1")
    t.remove("right")
    t.insert("right", "Bob")
    t.type(" ".join(f"FN {sq[0]} {sq[1]} M" for sq in BOB_LOTS) + " " + builds(BOB_LOTS, 4))
    t.remove("right")
    estate = t.ledger.game().estate
    assert estate.hotels_in_bank == 2 and estate.houses_in_bank == 16
    assert t.houses("new-york-avenue") == 4 and t.houses("kentucky-avenue") == 4
    return t


def open_auction(table, owner="Bob", square="21"):
    """``4 GO`` on Bob's Kentucky Avenue, as for a house (test_auction_houses.open_auction)."""
    houses.open_auction(table, owner, square)


def test_4_go_on_a_lot_ready_for_its_hotel_opens_the_hotel_auction(table):
    open_auction(table)
    assert table.screen_lines() == ["A hotel (Kentucky Av)", "No bid, 10 s left", "Card on a reader,", "bid M/K or GO"]
    live = lives(table)[-1]
    assert live["kind"] == "auction" and live["state"] == "open"
    assert live["lot"] == "A hotel (Kentucky Avenue)" and live["price_text"] == "1.5M"


def test_the_winner_s_one_lot_gets_the_hotel_and_its_houses_go_back(table):
    alice = table.balance("Alice")
    before = transactions(table)
    open_auction(table)
    bid(table, "Bob", "1.6M")
    bid(table, "Alice", "2M", reader="left")
    table.wait(10)
    assert table.screen_lines()[:2] == ["Hotel on New York Av", "2M"]
    assert table.houses("new-york-avenue") == 5  # the hotel
    estate = table.ledger.game().estate
    assert estate.hotels_in_bank == 1 and estate.houses_in_bank == 20
    assert table.balance("Alice") == alice - 2_000_000 and transactions(table) == before + 1
    tx = table.ledger.transactions()[-1]
    assert tx.kind == "build" and [p.amount for p in tx.postings] == [2_000_000]
    assert lives(table)[-1]["state"] == "sold"


def test_a_winner_with_several_lots_chooses_and_c_gives_the_hotel_up(table):
    before = transactions(table)
    open_auction(table)
    bid(table, "Bob", "1.8M")
    table.wait(10)
    assert table.screen_lines() == ["Bob won 1.8M", "Lot? Tag, FN+square", "M: Kentucky Av", "C: give it up"]
    table.press("1")
    assert table.screen_lines()[:1] == ["Refused"] and "The hotel's lot: tag" in table.shown
    table.press("C")
    assert table.screen_lines() == ["Hotel not taken", "Bob gave it up", "Nothing written"]
    assert transactions(table) == before and lives(table)[-1]["text"] == "Bob gave the hotel up"


def test_the_winner_chooses_another_of_his_lots(table):
    open_auction(table)
    bid(table, "Bob", "1.8M")
    table.wait(10)
    table.type("FN 1 9")  # Alice's lot
    assert table.screen_lines() == ["Refused", "New York Av not yours", "Bob: another lot"]
    table.type("FN 2 4")
    assert table.houses("illinois-avenue") == 5 and table.houses("kentucky-avenue") == 4
    assert table.screen_lines()[0] == "Hotel on Illinois Av"


def test_a_player_with_no_lot_ready_for_a_hotel_may_not_bid(table):
    open_auction(table)
    bid(table, "Cleo", "3M")
    assert table.screen_lines() == ["Refused", "Cleo: no lot may", "take a hotel now"]
    table.wait(10)
    assert table.screen_lines() == ["No bid", "A hotel (Kentucky Av)", "Nothing sold"]


def test_a_price_settled_by_the_players_is_still_recorded_with_4(table):
    table.insert("right", "Bob")
    table.type("FN 2 1 4 1 . 2 M")
    assert table.houses("kentucky-avenue") == 5
    assert table.ledger.transactions()[-1].postings[0].amount == 1_200_000


def test_undo_takes_the_hotel_back_and_the_houses_return_to_the_lot(table):
    open_auction(table)
    bid(table, "Bob", "2M")
    table.wait(10)
    table.press("M")
    assert table.houses("kentucky-avenue") == 5
    table.type("FN C M")
    estate = table.ledger.game().estate
    assert table.houses("kentucky-avenue") == 4 and estate.hotels_in_bank == 2 and estate.houses_in_bank == 16


def test_no_hotel_shortage_no_hotel_auction(table):
    table.insert("right", "Alice")
    table.type("FN 1 9 4 1 . 2 M")  # a hotel on New York at a settled price: one hotel left, only Bob wants one
    table.remove("right")
    table.insert("right", "Bob")
    table.type("FN 2 1 4 GO")
    assert table.screen_lines() == ["Refused", "One player can build", "No hotel auction"]
