"""The table page in the game's language (issue 22): its headings, labels and journal sentences, German here;
English unchanged. The words come from the gettext catalogs under the context ``page`` (web/texts.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from banker.text.i18n import LANGUAGES
from banker.journal.records import Setting
from banker.rules import bankrupt
from runtime.ledger import SqliteLedger
from web import serve_in_background
from web.chromium import chromium
from web.demo import play_demo
from web.screenshots import wait_for_state
from web.texts import PAGE_TEXTS, texts
from web.view import WorthHistory, state

PAGE_JS = Path(__file__).resolve().parents[2] / "web" / "static" / "page.js"
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
        heard = browser.execute_script(  # what a screen reader reads that the eye doesn't see
            "return [...document.querySelectorAll('.sr, #chart-title, #chart-desc')].map(n => n.textContent)"
            ".concat([...document.querySelectorAll('[aria-label]')].map(n => n.getAttribute('aria-label')))")
        assert "7.500.000 Dollar" in heard and "Gesamtvermögen jedes Spielers im Spielverlauf" in heard
        assert any(text.endswith("Häusern übrig") for text in heard)
        english = [text for text in heard if re.search(r"\b(dollars|of|left|unsold|decks|Total|Now|a hotel|houses?|mortgaged)\b", text)]
        assert english == []


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


def _house_rules_game(language: str):
    """The house-rules demo (short game dealt, Free Parking, 90 minutes, sums shown) played in ``language``."""
    from web.demo import play_house_rules_demo

    ledger = SqliteLedger(":memory:")
    play_house_rules_demo(ledger)
    ledger.commit(Setting("language", language))
    return ledger


def test_the_game_line_the_time_and_the_end_are_in_the_games_language():
    from banker.journal.records import PlayClock

    with _house_rules_game("de") as ledger:
        game = _state(ledger)["game"]
        assert game["modes"] == ["kurzes Spiel (Hotels nach 3 Häusern, Besitzrechte verteilt)",
                                 "Frei Parken (Startgeld 500K)", "Zeitlimit 1h 30m", "Rechnen: zeigen"]
        ledger.commit(PlayClock(ledger.game().id, 5400.0))
        game = _state(ledger)["game"]
        assert game["time_left_text"] == "Zeit ist um"
        assert game["over"].startswith("Die Zeit ist um: ") and game["over"].endswith(("gewinnt", "gewinnen"))
        ledger.commit(Setting("language", "fr"))
        assert _state(ledger)["game"]["over"].startswith("Le temps est écoulé : ")


def test_a_game_over_line_is_in_the_games_language():
    with SqliteLedger(":memory:") as ledger:
        play_demo(ledger)
        ledger.commit(Setting("language", "nl"))
        game = ledger.game()
        for name in ("Bob", "Cleo", "Dan"):
            ledger.post(bankrupt(ledger.game(), debtor=game.card_by_name(name).id, creditor=None).to_transaction())
        assert _state(ledger)["game"]["over"] == "Einde: Alice wint"


@pytest.mark.parametrize(("code", "heard", "balance"), [
    ("en", "Dan paid Bob rent 120 thousand (Vermont Avenue)", "14.88 million"),
    ("de", "Dan zahlte an Bob 120 tausend Miete (Vermont Avenue)", "14,88 Millionen"),
    ("fr", None, "14,88 millions"),
])
def test_read_aloud_hears_the_amounts_in_words_of_the_games_language(code, heard, balance):
    """The page's Read aloud says what the unit's voice would: "2 Millionen", not "2 million" in a German sentence;
    a transaction's number as a word too."""
    with SqliteLedger(":memory:") as ledger:
        play_demo(ledger)
        ledger.commit(Setting("language", code))
        s = _state(ledger)
    last = s["journal"][-1]
    if heard is not None:
        assert last["heard"] == heard
    assert not re.search(r"\d[MK]\b", last["heard"])  # no amount left in the unit's notation
    assert [p["balance_said"] for p in s["players"] if p["name"] == "Dan"] == [balance]
    undo = next(e for e in s["journal"] if e["reverses"])
    assert "#" not in undo["heard"] and {"en": "number 19", "de": "Nummer 19", "fr": "n°19"}[code] in undo["heard"]


def test_the_configured_language_is_the_pages_while_the_game_has_chosen_none(tmp_path):
    """``[unit] language = de`` shows the unit in German from the first game on; the page follows it, until
    the game chooses its own (FN 8)."""
    import json
    import urllib.request

    from runtime.config import Config

    with SqliteLedger(":memory:") as ledger:
        play_demo(ledger)
        game, journal = ledger.game(), list(ledger.transactions())
        german = state(game, journal, WorthHistory.of(game, journal), seq=1, language="de")
        assert german["language"] == "de" and german["texts"]["Balances"] == "Guthaben"
        assert "".join(german["journal"][0]["says"]).startswith("Die Bank zahlte an")
        ledger.commit(Setting("language", "fr"))
        game = ledger.game()
        assert state(game, journal, WorthHistory.of(game, journal), seq=1, language="de")["language"] == "fr"

    path = tmp_path / "demo.db"
    with SqliteLedger(path) as ledger:
        play_demo(ledger)
    with serve_in_background(path, Config(language="es"), host="127.0.0.1", port=0) as page:
        with urllib.request.urlopen(page.url.replace("/?t=", "/api/state?t="), timeout=5) as answer:
            served = json.loads(answer.read())
    assert served["language"] == "es" and served["texts"]["Balances"] != "Balances"
