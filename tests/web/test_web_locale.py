"""The table page's times of day in the game's language, never the browser's own (issue 30): a German game on an
English (en-US) browser reads "21:29", not "09:29 PM"; 24 h in every language, as the unit writes an hour (``21.30 K``)."""

from __future__ import annotations

import json
import re
import urllib.request
from datetime import UTC, datetime

from banker.journal.records import Setting
from runtime.ledger import SqliteLedger
from tests.web.support import PHONE, as_device, until
from web import serve_in_background
from web.chromium import chromium
from web.demo import play_demo
from web.screenshots import wait_for_state

WHEN = "return [...document.querySelectorAll('#journal-list li[data-id]')].map(n => [+n.dataset.id, n.querySelector('.when').textContent])"


def _times(url: str) -> dict[int, float]:
    with urllib.request.urlopen(url.replace("/?t=", "/api/state?t="), timeout=5) as answer:
        return {e["id"]: e["time"] for e in json.loads(answer.read())["journal"]}


def _hhmm(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, UTC).strftime("%H:%M")


def test_a_german_game_on_an_english_browser_shows_24_hour_times_and_follows_a_language_change(tmp_path):
    with SqliteLedger(tmp_path / "ledger.db") as ledger:
        play_demo(ledger)
        ledger.commit(Setting("language", "de"))
        with serve_in_background(ledger, host="127.0.0.1", port=0) as page, chromium(*PHONE, locale="en-US") as browser:
            as_device(browser, *PHONE)
            browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "UTC"})
            assert browser.execute_script("return navigator.language") == "en-US"  # the browser is English
            browser.get(page.url)
            wait_for_state(browser)
            assert browser.execute_script("return document.documentElement.lang") == "de"
            times = _times(page.url)
            shown = browser.execute_script(WHEN)
            assert len(shown) >= 20
            assert all(text == _hhmm(times[tx]) for tx, text in shown), shown  # 21:29, never 09:29 PM
            assert not any(re.search(r"AM|PM|\s", text) for _, text in shown)
            for code in ("en", "fr", "es", "nl"):  # the unit's English writes 21.30 too: 24 h in each
                ledger.commit(Setting("language", code))
                until(lambda code=code: browser.execute_script("return document.documentElement.lang") == code, 3.0, code)
                assert browser.execute_script(WHEN) == [[tx, _hhmm(times[tx])] for tx, _ in shown]

