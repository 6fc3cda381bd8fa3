"""Timed auctions run by the unit: GO on an unsold deed, bids by card and amount or GO, the countdown, the sale."""

from dataclasses import replace

import pytest

from banker.unit.events import LiveState
from tests.conftest import Table


@pytest.fixture
def table(ledger) -> Table:
    t = Table(ledger)
    for name, uid in (("Alice", "A1"), ("Bob", "B2"), ("Cleo", "C3")):
        t.enrol(name, uid)
    return t


def auction(table, square="39"):
    table.type(f"FN {square[0]} {square[1]}")
    table.press("GO")


def bid(table, name, keys, reader="right"):
    table.insert(reader, name)
    table.type(keys)
    table.remove(reader)


def transactions(table):
    return len(table.ledger.transactions())


def lives(table):
    return [e.data for e in table.effects if isinstance(e, LiveState)]


def test_go_on_an_unsold_deed_opens_its_auction(table):
    table.type("FN 3 9")
    assert table.screen_lines()[-1] == "Buyer -, GO: auction"
    table.press("GO")
    assert table.screen_lines() == ["Auction Boardwalk", "No bid, 10 s left", "Card on a reader,", "bid M/K or GO"]
    table.insert("right", "Bob")
    assert table.screen_lines()[-2:] == ["Bob: bid M/K", "or GO: 100K"]
    table.type("1.5")
    assert table.screen_lines() == ["Auction Boardwalk", "No bid", "Bob: 1.5_ M/K, 10 s"]


def test_the_highest_bid_when_the_countdown_ends_buys_the_deed_in_one_record(table):
    before = transactions(table)
    auction(table)
    bid(table, "Bob", "1.5M")
    assert table.screen_lines()[1:3] == ["1.5M", "Bob high, 10 s"]
    bid(table, "Cleo", "2M", reader="left")
    table.wait(4)
    assert "Cleo high, 6 s" in table.shown
    table.wait(6.1)
    assert table.screen_lines() == ["Sold to Cleo", "2M", "Boardwalk, Cleo 13M"]
    assert table.owner("boardwalk") == "Cleo" and table.balance("Cleo") == 13_000_000
    assert table.balance("Bob") == 15_000_000
    assert transactions(table) == before + 1
    tx = table.ledger.transactions()[-1]
    assert tx.kind == "auction" and [p.amount for p in tx.postings] == [2_000_000]
    assert table.tones()[-1] == "success"


def test_each_bid_starts_the_countdown_again(table):
    auction(table)
    bid(table, "Bob", "1M")
    table.wait(7)
    bid(table, "Alice", "GO")  # +100K
    assert table.screen_lines()[1:3] == ["1.1M", "Alice high, 10 s"]
    table.wait(7)
    assert table.owner("boardwalk") == "bank"  # 14 s after the first bid: still open
    table.wait(3.5)
    assert table.owner("boardwalk") == "Alice" and table.balance("Alice") == 13_900_000


def test_the_last_seconds_tick_then_going_once_going_twice(table):
    auction(table)
    bid(table, "Bob", "GO")
    assert table.screen_lines()[1] == "100K"
    table.effects.clear()
    table.wait(5.2)
    assert table.tones() == ["tick"]  # 5 s left
    table.wait(1)
    assert table.tones() == ["tick", "tick"]
    table.wait(2)
    assert "Going once! 2 s" in table.shown and table.tones()[-1] == "going-once"
    table.wait(1)
    assert "Going twice! 1 s" in table.shown and table.tones()[-1] == "going-twice"
    assert table.owner("boardwalk") == "bank"
    table.wait(1)
    assert table.owner("boardwalk") == "Bob" and "Sold to Bob" in table.shown


def test_a_bid_not_above_the_last_is_refused_and_the_countdown_runs_on(table):
    auction(table)
    bid(table, "Bob", "2M")
    table.wait(3)
    bid(table, "Cleo", "2M")
    assert table.screen_lines() == ["Refused", "Bid above 2M", "Bob bid 2M"]
    assert table.shell.screen.error and table.tones()[-1] == "refusal"
    table.wait(2)
    assert table.screen_lines()[1:3] == ["2M", "Bob high, 5 s"]  # the refusal went, the countdown went on
    table.wait(5)
    assert table.owner("boardwalk") == "Bob"


def test_a_bidder_short_of_cash_is_refused(table):
    table.insert("right", "Bob")
    table.type("FN 2 9 M FN 3 1 M FN 3 2 M FN 3 4 M")  # 12M of deeds: 3M left
    table.remove("right")
    assert table.balance("Bob") == 3_000_000
    auction(table)
    bid(table, "Bob", "3.2M")
    assert table.screen_lines() == ["Refused", "Bob short 200K", "Balance 3M"]
    bid(table, "Bob", "3M")
    table.wait(10)
    assert table.owner("boardwalk") == "Bob" and table.balance("Bob") == 0


def test_a_retired_player_cannot_bid(table):
    table.insert("right", "Cleo")
    table.type("FN GO 5 M")  # bankrupt to the bank: out of the game
    table.remove("right")
    assert 3 in table.ledger.game().estate.retired
    auction(table)
    bid(table, "Cleo", "1M")
    assert table.screen_lines() == ["Refused", "Cleo is out", "of the game: no bid"]
    table.wait(10)
    assert "No bid" in table.shown and table.owner("boardwalk") == "bank"


def test_no_bid_sells_nothing(table):
    before = transactions(table)
    auction(table)
    table.wait(10)
    assert table.screen_lines() == ["No bid", "Boardwalk", "Nothing sold"]
    assert transactions(table) == before and table.shell.panel.mode is None


def test_c_cancels_with_nothing_written(table):
    before = transactions(table)
    auction(table)
    bid(table, "Bob", "1M")
    table.insert("right", "Cleo")
    table.type("2")
    assert "Cleo: 2_ M/K" in table.shown
    table.press("C")  # clears the amount typed first
    assert "Bob high" in table.shown
    table.press("C")
    assert table.screen_lines() == ["Auction cancelled", "Boardwalk", "Nothing sold"]
    table.wait(20)
    assert transactions(table) == before and table.owner("boardwalk") == "bank"


def test_undo_reverses_the_sale(table):
    auction(table)
    bid(table, "Bob", "1.5M")
    table.wait(10)
    assert table.owner("boardwalk") == "Bob"
    table.type("FN C M")
    assert table.owner("boardwalk") == "bank" and table.balance("Bob") == 15_000_000


def test_the_unit_does_not_sleep_during_an_auction(ledger):
    table = Table(ledger, sleep_after=5.0)
    table.enrol("Bob", "B2")
    auction(table)
    table.wait(4)
    bid(table, "Bob", "1M")
    table.wait(7)
    assert not table.shell.panel.asleep and "Bob high, 3 s" in table.shown
    table.wait(3)
    assert table.owner("boardwalk") == "Bob" and not table.shell.panel.asleep


def test_the_countdown_is_a_setting(ledger):
    table = Table(ledger)
    table.shell.panel = replace(table.shell.panel, auction_seconds=30.0)  # as the Shell's auction_seconds sets it
    table.enrol("Bob", "B2")
    auction(table)
    assert "30 s left" in table.shown
    bid(table, "Bob", "1M")
    table.wait(25)
    assert table.owner("boardwalk") == "bank"
    table.wait(5.5)
    assert table.owner("boardwalk") == "Bob"


def test_keys_that_would_leave_the_auction_are_refused(table):
    auction(table)
    table.press("FN")
    assert "An auction is on" in table.shown and table.shell.panel.mode is not None
    table.insert("right", "Bob")
    table.insert("left", "Cleo")
    table.press("GO")
    assert "One bidder's card" in table.shown


def test_a_deed_the_bank_took_back_in_a_bankruptcy_is_auctioned_the_same_way(table):
    table.insert("right", "Cleo")
    table.type("FN 3 7 M FN GO 5 M")
    table.remove("right")
    assert table.owner("park-place") == "bank"
    auction(table, "37")
    bid(table, "Alice", "2.2M")
    table.wait(10)
    assert table.owner("park-place") == "Alice" and table.balance("Alice") == 12_800_000


def test_the_page_is_told_the_live_auction_then_the_sale(table):
    auction(table)
    bid(table, "Bob", "1.5M")
    table.wait(10)
    seen = lives(table)
    assert seen[0]["kind"] == "auction" and seen[0]["state"] == "open" and seen[0]["seconds"] == 10
    assert seen[0]["lot"] == "Boardwalk" and seen[0]["high"] is None
    assert any(v["high_text"] == "1.5M" and v["bidder"] == "Bob" for v in seen)
    calls = [v["call"] for v in seen if v["call"]]
    assert calls == ["going once", "going twice"]
    assert seen[-1]["state"] == "sold" and seen[-1]["text"] == "Sold to Bob for 1.5M"
    table.press("C")
    assert lives(table)[-1]["state"] == "sold"  # nothing live since: no more states


def test_a_cancelled_auction_tells_the_page(table):
    auction(table)
    table.press("C")
    assert lives(table)[-1]["state"] == "cancelled"


def test_a_typed_price_after_the_players_settled_still_records_it(table):
    table.insert("right", "Bob")
    table.type("FN 3 9")
    table.type("1.5M")
    assert table.owner("boardwalk") == "Bob" and "Auction Boardwalk" in table.shown


def test_the_calls_sound_as_falling_notes_on_the_buzzer_and_in_the_window():
    from drivers.buzzer import DEFAULT_TONES
    from firmware_sim.desktop.sound import MELODIES

    for tones in (DEFAULT_TONES, MELODIES):
        once, twice = ([hz for hz, _ in tones[name] if hz] for name in ("going-once", "going-twice"))
        assert once == sorted(once, reverse=True) and twice == sorted(twice, reverse=True)
        assert (len(once), len(twice)) == (2, 3)
        assert sum(length for _, length in tones["tick"]) <= sum(length for _, length in tones["key"]) * 1.5


def test_the_countdown_setting_is_read_from_the_config():
    from banker.errors import ConfigError
    from runtime.config import parse_config

    assert parse_config("").auction_seconds == 10.0
    assert parse_config("[auction]\nseconds = 20\n").auction_seconds == 20.0
    for bad in ("1", "0", "601", '"ten"'):
        with pytest.raises(ConfigError, match="auction.seconds"):
            parse_config(f"[auction]\nseconds = {bad}\n")
    with pytest.raises(ConfigError, match="auction"):
        parse_config("[auction]\nsecond = 20\n")


def test_the_shell_hands_the_countdown_to_the_core(ledger):
    from runtime.shell import Shell

    assert Shell(ledger, auction_seconds=25.0).panel.auction_seconds == 25.0
