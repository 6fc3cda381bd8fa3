"""The table page in the game's language (issue 22): its headings, labels and journal sentences, German here;
English unchanged. The words come from the gettext catalogs under the context ``page`` (web/texts.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from banker.i18n import LANGUAGES
from banker.records import Setting
from runtime.ledger import SqliteLedger
from web import serve_in_background
from web.chromium import chromium
from web.demo import play_demo
from web.screenshots import wait_for_state
from web.texts import PAGE_TEXTS, texts
from web.view import WorthHistory, state

PAGE_JS = Path(__file__).resolve().parent.parent / "web" / "static" / "page.js"
PAGE_HTML = PAGE_JS.with_name("page.html")


def german_demo(path) -> None:
    with SqliteLedger(path) as ledger:
        play_demo(ledger)
        ledger.commit(Setting("language", "de"))


def test_every_word_page_js_looks_up_is_in_the_catalogs():
    script = PAGE_JS.read_text() + PAGE_JS.with_name("speech.js").read_text()  # the Read aloud, inlined by the server
    looked_up = set(re.findall(r'\bt\("((?:[^"\\]|\\.)*)"', script))
    marked = set(re.findall(r"<[^>]* data-t[ >][^<]*?>?([^<]+)<", PAGE_HTML.read_text()))
    assert looked_up and marked
    assert (looked_up | marked) - set(PAGE_TEXTS) == set()


@pytest.mark.parametrize("code", [c for c in LANGUAGES if c != "en"])
def test_every_page_text_is_translated(code):
    words = texts(code)
    assert set(words) == set(PAGE_TEXTS)
    assert words["Balances"] != "Balances" and words["Read aloud"] != "Read aloud"  # the catalog's, not English


def test_english_is_the_english_text():
    assert all(said == english for english, said in texts("en").items())


def test_the_german_page_shows_german_headings_and_journal(tmp_path):
    path = tmp_path / "demo.db"
    german_demo(path)
    with serve_in_background(path, host="127.0.0.1", port=0) as page, chromium(390, 844) as browser:
        browser.get(page.url)
        wait_for_state(browser)
        headings = browser.execute_script("return [...document.querySelectorAll('h2')].map(n => n.textContent)")
        assert {"Guthaben", "Besitzrechte", "Rangliste", "Journal", "Vermögen im Spielverlauf"} <= set(headings)
        assert browser.execute_script("return document.documentElement.lang") == "de"
        assert browser.find_element("id", "live-text").text == "Live"
        assert browser.find_element("id", "speak").text.startswith("Vorlesen")
        rent = browser.execute_script(
            "return document.querySelector('#journal-list li[data-id=\"16\"] .says').textContent")
        assert rent == "Dan zahlte an Alice 2M Miete (Boardwalk)"
        names = browser.execute_script(
            "return [...document.querySelectorAll('#journal-list li[data-id=\"16\"] bdi.who')].map(n => n.textContent)")
        assert names == ["Dan", "Alice"]  # the names still set apart, in the German word order
        first = browser.execute_script(
            "return document.querySelector('#journal-list li[data-id=\"1\"] .says').textContent")
        assert first == "Die Bank zahlte an Alice 15M zum Start"
        assert "Spiel " in browser.find_element("id", "game-line").text


def test_the_state_carries_the_games_words_and_journal_and_english_stays_english():
    with SqliteLedger(":memory:") as ledger:
        play_demo(ledger)
        english = _state(ledger)
        ledger.commit(Setting("language", "de"))
        german = _state(ledger)
    assert english["texts"]["Balances"] == "Balances" and german["texts"]["Balances"] == "Guthaben"
    said = {e["id"]: "".join(e["says"]) for e in german["journal"]}
    assert said[5] == "Alice kaufte Boardwalk von der Bank für 4M"
    assert said[20] == "Machte #19 rückgängig (Dan paid bank): die Bank zahlte an Dan 1M"
    assert {e["id"]: "".join(e["says"]) for e in english["journal"]}[5] == "Alice bought Boardwalk from the bank for 4M"


def _state(ledger) -> dict:
    game, journal = ledger.game(), [tx for tx in ledger.transactions() if tx.game == ledger.game().id]
    return state(game, journal, WorthHistory.of(game, journal), seq=1)
