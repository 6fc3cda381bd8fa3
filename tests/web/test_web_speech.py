"""The page reads each commit aloud with the browser's speech synthesis, when a viewer turns it on (headless Chromium).

Headless Chromium has ``speechSynthesis`` but no voice: the tests replace ``speechSynthesis.speak`` from WebDriver
(outside the page's Content-Security-Policy) and hear what would be said, in which language. The last-transaction
line's live region is checked alongside: one announcement per commit, none for a state with no new transaction.
"""

from __future__ import annotations

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from banker.script import syntax as script
from banker.script import run as script_run
from runtime.script_shell import CoreBackend
from runtime.ledger import SqliteLedger
from web import serve_in_background
from web.screenshots import wait_for_state
from tests.web.support import QUIET, until

#: Counts the last-transaction line's announcements: each change a screen reader hears (one task's mutations).
LISTEN = """window.announced = 0;
new MutationObserver(() => window.announced++).observe(document.getElementById('latest'),
  {childList: true, subtree: true, characterData: true});"""
HEARD = "return [window.spoken, window.announced]"


def pay(unit, payer: str, payee: str, *keys: str) -> None:
    lines = [f"insert left {payee}", f"insert right {payer}", f"press {' '.join(keys)}", "remove left", "remove right"]
    assert script_run.run(script.parse("\n".join(lines) + "\n"), CoreBackend(unit)) is None


def toggle(browser) -> list[str]:
    return browser.execute_script("const b = document.getElementById('speak');"
                                  "return [b.getAttribute('aria-pressed'), b.textContent, localStorage.getItem('banker.readAloud')]")


def opened(browser, url: str) -> None:
    browser.get(url)
    wait_for_state(browser)
    browser.execute_script(QUIET + LISTEN)


def latest(browser) -> str:
    return browser.find_element("id", "latest").text


def test_off_until_turned_on_then_each_commit_once_in_words_and_remembered(browser, unit):
    with serve_in_background(unit, host="127.0.0.1", port=0) as page:
        opened(browser, page.url)
        assert toggle(browser) == ["false", "Read aloud off", None]  # off by default
        pay(unit, "Bob", "Alice", "2", ".", "5", "M")
        until(lambda: "Bob paid Alice 2.5M" in latest(browser), 2.0, "the payment on the page")
        assert browser.execute_script(HEARD) == [[], 1]  # shown and announced to a screen reader, not spoken

        browser.find_element("id", "speak").click()
        assert toggle(browser) == ["true", "Read aloud on", "on"]
        said = "Bob paid Alice 2.5 million. Bob has 12.5 million. Alice has 17.5 million."
        assert browser.execute_script("return window.spoken") == [["en", said]]  # at once: the viewer hears it works

        pay(unit, "Alice", "Bob", "5", "0", "0", "K")
        until(lambda: len(browser.execute_script("return window.spoken")) == 2, 2.0, "the commit spoken")
        until(lambda: "Alice paid Bob 500K" in latest(browser), 2.0, "the line")
        spoken, announced = browser.execute_script(HEARD)
        assert spoken[1] == ["en", "Alice paid Bob 500 thousand. Alice has 17 million. Bob has 13 million."]
        assert announced == 2

        opened(browser, page.url)  # another visit: still on, and the page's first state is not read out
        assert toggle(browser) == ["true", "Read aloud on", "on"]
        pay(unit, "Bob", "Alice", "1", "M")
        until(lambda: len(browser.execute_script("return window.spoken")) == 1, 2.0, "the commit spoken after a reload")
        assert browser.execute_script("return window.spoken")[0][1].startswith("Bob paid Alice 1 million.")

        browser.execute_script("document.getElementById('speak').focus()")
        ActionChains(browser).send_keys(Keys.SPACE).perform()  # off again, from the keyboard
        assert toggle(browser) == ["false", "Read aloud off", "off"]
        pay(unit, "Bob", "Alice", "1", "M")
        until(lambda: browser.execute_script("return window.announced") == 2, 2.0, "the last commit announced")
        assert len(browser.execute_script("return window.spoken")) == 1


def test_in_the_games_language_and_never_for_a_state_without_a_new_transaction(browser, tmp_path):
    from banker.journal.records import PlayClock, Setting
    from banker.rules.taxes import income_tax
    from web.demo import play_house_rules_demo

    with SqliteLedger(tmp_path / "house.db") as ledger:
        play_house_rules_demo(ledger)
        ledger.commit(Setting("language", "de"))  # the game is played in German (FN 8 2 on the unit)
        with serve_in_background(ledger, host="127.0.0.1", port=0) as page:
            opened(browser, page.url)
            browser.find_element("id", "speak").click()
            assert browser.execute_script("return window.spoken")[0][0] == "de"
            alice = ledger.game().card_by_name("Alice").id
            ledger.post(income_tax(ledger.game(), player=alice).to_transaction())
            until(lambda: len(browser.execute_script("return window.spoken")) == 2, 2.0, "the tax spoken")
            seq = browser.execute_script("return document.body.dataset.seq")
            (spoken, announced) = browser.execute_script(HEARD)
            assert announced == 1 and spoken[1][0] == "de"  # the commit, in the game's language, once
            assert spoken[1][1].startswith("Alice zahlte Einkommensteuer 2 Millionen in Frei Parken. Alice hat ")
            assert "million" not in spoken[1][1]  # the amounts in German words, as the unit's voice says them
            ledger.commit(PlayClock(ledger.game().id, 49 * 60.0))  # a minute of play: a new state, no transaction
            until(lambda: browser.execute_script("return document.body.dataset.seq") != seq, 2.0, "the clock's state")
            until(lambda: browser.find_element("id", "time-left").text == "noch 41 Min.", 2.0, "the time left")
            spoken, announced = browser.execute_script(HEARD)
            assert len(spoken) == 2 and announced == 1  # nothing said, nothing announced again
