"""The table page's live auction: over real HTTP (the live event) and in headless Chromium (what the players see).

The unit is the core backend over a ledger file, its shell's ``on_effect``
the page server's (as ``banker run --web`` and ``banker sim --web`` wire it);
simulated time, so each ``wait`` passes at once and the page is checked
between the steps.
"""

from __future__ import annotations

import json
import time
import urllib.request

import pytest

from runtime.script_shell import CoreBackend
from web import serve_in_background
from web.screenshots import wait_for_state
from tests.web.support import until


@pytest.fixture
def table(unit):
    with serve_in_background(unit, host="127.0.0.1", port=0) as page:
        driver = CoreBackend(unit)
        driver.shell.on_effect = page.on_effect
        yield driver, page


def bid(driver, name: str, *keys: str) -> None:
    driver.insert("right", name)
    for key in keys:
        driver.press(key)
    driver.remove("right")


def live_events(page, count: int) -> list[dict]:
    """The first ``count`` live events a client of the event stream reads (after the state)."""
    url = page.url.replace("/?t=", "/api/events?t=")
    seen: list[dict] = []
    with urllib.request.urlopen(url, timeout=5) as stream:
        event = None
        for raw in stream:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "live":
                seen.append(json.loads(line[6:]))
                if len(seen) == count:
                    return seen
    return seen


def test_a_page_that_connects_during_an_auction_gets_its_live_view(table):
    driver, page = table
    for key in ("FN", "3", "9", "GO"):
        driver.press(key)
    bid(driver, "Bob", "1", ".", "5", "M")
    time.sleep(0.3)  # the view reaches the server's loop
    (view,) = live_events(page, 1)
    assert {k: view[k] for k in ("kind", "state", "lot", "high", "high_text", "bidder", "seconds", "call")} == {
        "kind": "auction", "state": "open", "lot": "Boardwalk", "high": 1_500_000, "high_text": "1.5M",
        "bidder": "Bob", "seconds": 10, "call": None}


def test_a_page_that_connects_during_a_deal_gets_it(table):
    driver, page = table
    driver.insert("left", "Alice")
    driver.insert("right", "Bob")
    for key in ("FN", "GO", "7", "2", "M"):  # Alice's side: 2M
        driver.press(key)
    time.sleep(0.3)
    (view,) = live_events(page, 1)
    assert (view["kind"], view["first"], view["second"], view["first_gives"]["cash_text"]) == ("deal", "Alice", "Bob", "2M")


def shown(browser, element_id: str) -> str:
    return browser.execute_script(
        "const n = document.getElementById(arguments[0]); return n.closest('[hidden]') ? null : n.textContent;",
        element_id)


def test_the_page_shows_the_live_auction_its_calls_and_the_sale(browser, table, unit):
    driver, page = table
    browser.get(page.url)
    wait_for_state(browser)
    assert shown(browser, "live-lot") is None  # no auction: no live view
    for key in ("FN", "3", "9", "GO"):
        driver.press(key)
    until(lambda: shown(browser, "live-lot") == "Boardwalk", 2.0, "the auction on the page")
    assert shown(browser, "live-high") == "No bid" and shown(browser, "live-seconds") == "10 s left"
    bid(driver, "Bob", "1", ".", "5", "M")
    until(lambda: shown(browser, "live-high") == "1.5M", 2.0, "the bid on the page")
    assert shown(browser, "live-bidder") == "Bob"
    driver.wait(8.2)
    until(lambda: shown(browser, "live-call") == "Going once!", 2.0, "going once on the page")
    assert shown(browser, "live-seconds") == "2 s left"
    driver.wait(1)
    until(lambda: shown(browser, "live-call") == "Going twice!", 2.0, "going twice on the page")
    driver.wait(1)
    until(lambda: shown(browser, "live-call") == "Sold to Bob for 1.5M", 2.0, "the sale on the page")
    assert browser.execute_script("return document.getElementById('live-view').dataset.state") == "sold"
    until(lambda: browser.execute_script(
        "const n = document.querySelector(\".balances li[data-player='Bob'] .amount\"); return n && n.textContent")
        == "13.5M", 2.0, "the sale's commit on the page")
    journal = browser.execute_script("return document.querySelector('#journal-list li .says').textContent")
    assert "Boardwalk" in journal and "1.5M" in journal


def test_a_cancelled_auction_and_no_bid_say_so_on_the_page(browser, table):
    driver, page = table
    browser.get(page.url)
    wait_for_state(browser)
    for key in ("FN", "3", "9", "GO"):
        driver.press(key)
    until(lambda: shown(browser, "live-lot") == "Boardwalk", 2.0, "the auction on the page")
    driver.press("C")
    until(lambda: shown(browser, "live-call") == "Auction cancelled", 2.0, "the cancel on the page")
    for key in ("FN", "0", "1", "GO"):
        driver.press(key)
    until(lambda: shown(browser, "live-lot") == "Mediterranean Avenue", 2.0, "the next auction")
    driver.wait(10)
    until(lambda: shown(browser, "live-call") == "No bid: nothing sold", 2.0, "no bid on the page")


def test_a_german_game_s_auction_calls_and_sale_are_german_on_the_page(browser, table, unit):
    """The core writes an auction's end as a text with its message id; the page server puts it in the game's
    language (a game played in German: FN 8 2 on the unit), and the page its calls."""
    from banker.journal.records import Setting

    driver, page = table
    unit.commit(Setting("language", "de"))
    browser.get(page.url)
    wait_for_state(browser)
    until(lambda: browser.execute_script("return document.documentElement.lang") == "de", 3.0,
          "the setting read by the page server")
    for key in ("FN", "3", "9", "GO"):
        driver.press(key)
    until(lambda: shown(browser, "live-lot") == "Boardwalk", 2.0, "the auction on the page")
    bid(driver, "Bob", "1", ".", "5", "M")
    driver.wait(8.2)
    until(lambda: shown(browser, "live-call") == "Zum Ersten!", 2.0, "going once, in German")
    driver.wait(1)
    until(lambda: shown(browser, "live-call") == "Zum Zweiten!", 2.0, "going twice, in German")
    driver.wait(1)
    until(lambda: shown(browser, "live-call") == "Verkauft an Bob für 1.5M", 2.0, "the sale, in German")
    for key in ("FN", "0", "1", "GO"):
        driver.press(key)
    until(lambda: shown(browser, "live-lot") == "Mediterranean Avenue", 2.0, "the next auction")
    driver.press("C")
    until(lambda: shown(browser, "live-call") == "Auktion abgebrochen", 2.0, "the cancel, in German")


def test_a_slow_page_skips_older_live_views_before_any_state():
    import asyncio

    from web.server import STREAM_BACKLOG, Hub

    async def check():
        hub, queue = Hub(), asyncio.Queue(maxsize=STREAM_BACKLOG)
        hub.streams.add(queue)
        hub.publish(b"event: state\ndata: 1\n\n")
        for second in range(10, 0, -1):
            hub.publish_live(b"event: live\ndata: %d\n\n" % second)
        hub.publish(b"event: state\ndata: 2\n\n")
        return [queue.get_nowait() for _ in range(queue.qsize())]

    assert asyncio.run(check()) == [b"event: state\ndata: 1\n\n", b"event: live\ndata: 1\n\n",
                                    b"event: state\ndata: 2\n\n"]


def test_the_page_shows_a_whole_deal_as_the_table_builds_it(browser, table):
    driver, page = table
    browser.get(page.url)
    wait_for_state(browser)
    driver.insert("right", "Alice")
    for key in ("FN", "3", "9", "M"):  # Alice buys Boardwalk
        driver.press(key)
    driver.remove("right")
    driver.insert("left", "Alice")
    driver.insert("right", "Bob")
    for key in ("FN", "GO", "7"):
        driver.press(key)
    until(lambda: shown(browser, "deal-title") == "Deal: Alice and Bob", 2.0, "the deal on the page")
    assert shown(browser, "deal-first-gives") == "nothing yet"
    for key in ("FN", "3", "9", "GO", "2", "M"):  # Boardwalk from Alice; then Bob's side: 2M
        driver.press(key)
    until(lambda: shown(browser, "deal-second-gives") == "2M", 2.0, "Bob's cash on the page")
    assert shown(browser, "deal-first-gives") == "Boardwalk"
    driver.press("C")  # the deal called off: it leaves the page
    driver.press("C")
    until(lambda: shown(browser, "deal-title") is None, 2.0, "the deal gone from the page")
