"""The table page in a real browser (headless Chromium): balances read, a keypad payment shows live, the token needed.

Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them);
never skipped: a missing browser is a failure.
"""

from __future__ import annotations

import time


from banker.script import syntax as script

from banker.script import run as script_run
from runtime.script_shell import CoreBackend
from runtime.ledger import SqliteLedger
from web import serve_in_background
from web.screenshots import wait_for_state
from tests.web.support import as_device, until

PAYMENT = """\
insert left Alice
insert right Bob
press 2 . 5 M
expect balance Alice 17.5M
remove left
remove right
"""


def balance(driver, name: str) -> str:
    return driver.execute_script(
        "const n = document.querySelector(`.balances li[data-player='${arguments[0]}'] .amount`);"
        "return n ? n.textContent : null;", name)


def test_the_page_shows_a_keypad_payment_without_a_reload(browser, unit):
    with serve_in_background(unit, host="127.0.0.1", port=0) as page:
        browser.get(page.url)
        wait_for_state(browser)
        assert balance(browser, "Alice") == "15M" and balance(browser, "Bob") == "15M"
        spoken = browser.execute_script("return document.querySelector(\".balances li[data-player='Bob'] .sr\").textContent")
        assert spoken == "15,000,000 dollars"  # what a screen reader says for the 15M (tests/web/test_web_a11y.py)
        browser.execute_script("window.notReloaded = true")
        started = time.monotonic()
        assert script_run.run(script.parse(PAYMENT), CoreBackend(unit)) is None  # the unit commits it
        until(lambda: balance(browser, "Alice") == "17.5M", 1.0, "the payment on the page")
        assert time.monotonic() - started < 1.0
        assert balance(browser, "Bob") == "12.5M"
        assert browser.execute_script("return window.notReloaded === true")
        journal = browser.execute_script("return document.querySelector('#journal-list li .says').textContent")
        assert journal == "Bob paid Alice 2.5M"
        assert browser.find_element("id", "latest").text == "LAST #3 Bob paid Alice 2.5M"
        assert browser.execute_script("return document.getElementById('lost').hidden")


def test_without_the_token_the_browser_is_refused(browser, unit):
    with serve_in_background(unit, host="127.0.0.1", port=0) as page:
        base = page.url.split("?")[0]
        for url in (base, base + "?t=not-the-token1", base + "api/state"):
            browser.get(url)
            text = browser.find_element("tag name", "body").text
            assert "needs its access code" in text and "Alice" not in text


def test_a_page_that_loses_the_unit_says_so_and_comes_back_by_itself(browser, unit):
    page = serve_in_background(unit, host="127.0.0.1", port=0)
    port = page.port
    try:
        browser.get(page.url)
        wait_for_state(browser)
        browser.execute_script("window.notReloaded = true")
    finally:
        page.close()
    until(lambda: browser.execute_script("return !document.getElementById('lost').hidden"), 3.0, "the lost banner")
    assert "Lost the unit" in browser.find_element("id", "lost").text
    unit.enrol("Cleo", "C3")
    with serve_in_background(unit, host="127.0.0.1", port=port):
        until(lambda: balance(browser, "Cleo") == "15M", 15.0, "reconnected")
        assert browser.execute_script("return document.getElementById('lost').hidden && window.notReloaded")


def test_a_renewed_token_ends_the_old_pages(browser, unit):
    with serve_in_background(unit, host="127.0.0.1", port=0) as page:
        browser.get(page.url)
        wait_for_state(browser)
        page.renew_token()
        until(lambda: "no longer valid" in browser.find_element("id", "lost").text, 3.0, "the refusal")
        browser.get(page.url)  # the new address works
        wait_for_state(browser)
        assert balance(browser, "Alice") == "15M"


#: What the layout tests measure: the page's height, the journal rows wholly in view, where the last line is.
LAYOUT = """
const view = (r) => r.height > 0 && r.top >= 0 && r.bottom <= innerHeight;
const box = document.getElementById('journal').getBoundingClientRect();
const rows = [...document.querySelectorAll('#journal-list li')].map(li => li.getBoundingClientRect())
  .filter(r => view(r) && r.bottom <= box.bottom + 1).length;
const last = document.getElementById('latest').getBoundingClientRect();
return {height: document.documentElement.scrollHeight, width: document.documentElement.scrollWidth, rows,
        latest: view(last), latest_text: document.getElementById('latest').textContent};
"""


def test_the_demo_game_reads_out_and_fits_a_phone_and_a_tv(browser, tmp_path):
    from web.demo import play_demo

    path = tmp_path / "demo.db"
    with SqliteLedger(path) as ledger:
        play_demo(ledger)
    with serve_in_background(path, host="127.0.0.1", port=0) as page:
        browser.get(page.url)
        wait_for_state(browser)
        spoken = browser.execute_script(
            "return [...document.querySelectorAll('#deed-list .deed .sr')].map(n => n.textContent)")
        assert "Boardwalk, 1 house" in spoken and "Electric Company, mortgaged" in spoken
        assert browser.execute_script("return document.querySelector('#chart svg').getAttribute('role')") == "img"
        undone = browser.execute_script("return document.querySelector('#journal-list li.undone .says').textContent")
        assert undone.startswith("Dan paid the bank 1M")
        names = browser.execute_script(
            "return [...document.querySelectorAll('#journal-list li[data-id=\"16\"] bdi.who')].map(n => n.textContent)")
        assert names == ["Dan", "Alice"]  # who paid whom, each name set apart
        phone = browser.execute_script(LAYOUT)
        assert phone["width"] == 390 and phone["latest"]  # the last transaction in the first screenful
        assert phone["latest_text"] == "Last #21 Dan paid Bob rent 120K (Vermont Avenue)"
        as_device(browser, 1920, 1000)  # a 1080p TV less its browser's toolbar
        try:
            browser.get(page.url)
            wait_for_state(browser)
            tv = browser.execute_script(LAYOUT)
            assert tv["height"] <= 1000 and tv["width"] == 1920 and tv["latest"]  # one screen, no scrolling
            assert tv["rows"] >= 6
            boxes = browser.execute_script(
                "return ['balances', 'deeds', 'chart', 'journal'].map(id => document.getElementById(id)"
                ".getBoundingClientRect()).map(r => [r.left, r.top, r.width])")
            (_, bal_top, bal_width), (deeds_left, deeds_top, _), (chart_left, _, _), (journal_left, _, _) = boxes
            assert bal_width > 1500 and bal_top < deeds_top  # the balances across the top
            assert deeds_left < chart_left < journal_left  # then three columns
        finally:
            as_device(browser, 390, 844)


def test_the_browser_gets_the_page_gzipped(browser, unit):
    with serve_in_background(unit, host="127.0.0.1", port=0) as page:
        browser.get(page.url)
        wait_for_state(browser)
        sizes = browser.execute_script(
            "const n = performance.getEntriesByType('navigation')[0]; return [n.encodedBodySize, n.decodedBodySize];")
        assert 0 < sizes[0] < sizes[1] / 2


def test_a_name_with_markup_is_shown_as_text(browser, unit):
    unit.enrol("<img src=x onerror=f()>", "E5")
    with serve_in_background(unit, host="127.0.0.1", port=0) as page:
        browser.get(page.url)
        wait_for_state(browser)
        row = browser.execute_script("return document.querySelector('#journal-list li .says').textContent")
        assert row == "The bank paid <img src=x onerror=f()> 15M to start"
        assert browser.execute_script("return document.querySelectorAll('main img, #latest img').length") == 0


def test_one_command_makes_the_screenshots(tmp_path):
    from PIL import Image

    from web.screenshots import main

    main(["--out", str(tmp_path)])
    with Image.open(tmp_path / "web-phone.png") as phone, Image.open(tmp_path / "web-tv.png") as tv:
        assert phone.width == 390 and phone.height > 844
        assert tv.size == (1920, 1000)


def chip(driver, id_: str) -> str | None:
    return driver.execute_script("const n = document.getElementById(arguments[0]); return n.hidden ? null : n.textContent;",
                                 id_)


def test_the_pot_and_the_time_left_change_live_and_fit_a_phone_and_a_tv(browser, tmp_path):
    from banker.journal.records import PlayClock
    from banker.rules.taxes import income_tax
    from web.demo import play_house_rules_demo

    with SqliteLedger(tmp_path / "ledger.db") as ledger:
        play_house_rules_demo(ledger)  # 48 of its 90 minutes played, 4M in the pot
        with serve_in_background(ledger, host="127.0.0.1", port=0) as page:
            browser.get(page.url)
            wait_for_state(browser)
            assert chip(browser, "pot") == "Free Parking 4M" and chip(browser, "time-left") == "42 min left"
            line = browser.find_element("id", "game-line").text
            assert "short game (hotels after 3 houses, deeds dealt) · Free Parking (seed 500K) · time limit 1h 30m" \
                   " · sums shown" in line
            assert browser.execute_script(LAYOUT)["latest"]  # the header's longer, the last line still in view
            alice = ledger.game().card_by_name("Alice").id
            ledger.post(income_tax(ledger.game(), player=alice).to_transaction())  # the unit commits a tax
            until(lambda: chip(browser, "pot") == "Free Parking 6M", 3.0, "the pot after a tax")
            assert browser.find_element("id", "latest").text == "LAST #17 Alice paid Income Tax 2M into Free Parking"
            ledger.commit(PlayClock(ledger.game().id, 49 * 60.0))  # a minute of play: a clock record, no money
            until(lambda: chip(browser, "time-left") == "41 min left", 3.0, "the time left after a clock record")
            assert browser.execute_script("return document.getElementById('over').hidden")
            ledger.commit(PlayClock(ledger.game().id, 90 * 60.0))
            until(lambda: chip(browser, "time-left") == "Time is up", 3.0, "the end of the time limit")
            assert browser.find_element("id", "over").text == "Time is up: Bob wins"
            as_device(browser, 1920, 1000)
            try:
                browser.get(page.url)
                wait_for_state(browser)
                tv = browser.execute_script(LAYOUT)
                assert tv["height"] <= 1000 and tv["width"] == 1920 and tv["latest"] and tv["rows"] >= 6
                tops = browser.execute_script(
                    "return ['pot', 'time-left', 'live'].map(id => document.getElementById(id).getBoundingClientRect())"
                    ".map(r => [r.top, r.bottom])")
                assert abs(tops[0][0] - tops[1][0]) < 2 and tops[0][1] < 80  # side by side, in the header's row
            finally:
                as_device(browser, 390, 844)


def test_a_german_board_is_named_on_the_page_as_it_prints_it(browser, unit):
    """The estate's chip and the journal's row say the board's own names (docs/editions.md)."""
    from banker.journal.records import GameSettings

    unit.new_game(GameSettings(edition="de"))
    buy = "insert right Bob\npress FN 3 9 M\nremove right\nexpect owner schlossallee Bob\n"
    assert script_run.run(script.parse(buy), CoreBackend(unit)) is None
    with serve_in_background(unit, host="127.0.0.1", port=0) as page:
        browser.get(page.url)
        wait_for_state(browser)
        chip = browser.execute_script("const c = document.querySelector('#deed-list .deed');"
                                      "return c ? c.getAttribute('title') : null;")
        assert chip == "Schlossallee"
        journal = browser.execute_script("return document.querySelector('#journal-list li .says').textContent")
        assert journal == "Bob bought Schlossallee from the bank for 4M"
