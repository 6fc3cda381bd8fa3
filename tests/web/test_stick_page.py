"""The table page says the unit's backup stick's problem by its cause while play goes on, in the page's language,
and stops saying it once a backup went there again."""

from __future__ import annotations

import errno
import os

import pytest

import store.backups as backups_module
from banker.script import run as script_run
from banker.script import syntax as script
from banker.text.i18n import LANGUAGES
from runtime.ledger import SqliteLedger
from runtime.script_shell import CoreBackend
from store.backup_schedule import CAUSES, StickProblem
from web import serve_in_background
from web.screenshots import wait_for_state
from web.source import FileSource
from web.texts import STICK_TEXTS
from tests.web.support import until


def banner(driver):
    return driver.execute_script("const n = document.getElementById('stick');"
                                 "return n.hidden ? null : [n.dataset.cause, n.textContent];")


def balance(driver, name):
    return driver.execute_script(
        "const n = document.querySelector(`.balances li[data-player='${arguments[0]}'] .amount`);"
        "return n ? n.textContent : null;", name)


def test_the_page_shows_a_full_stick_while_play_goes_on_and_clears_it_once_mended(browser, tmp_path, stick,
                                                                                  monkeypatch):
    with SqliteLedger(tmp_path / "ledger.db", second_backup_folder=stick) as unit:
        unit.enrol("Alice", "A1")
        unit.enrol("Bob", "B2")
        backups = unit.store.backups
        unit.maintain()  # the new game's backup, made now, not in the play below
        backups.wait()
        assert list(stick.iterdir())
        with serve_in_background(unit, host="127.0.0.1", port=0) as page:
            browser.get(page.url)
            wait_for_state(browser)
            assert banner(browser) is None
            real = os.fsync

            def full(fd):
                if os.readlink(f"/proc/self/fd/{fd}").startswith(str(stick)):
                    raise OSError(errno.ENOSPC, "No space left on device")
                return real(fd)

            with monkeypatch.context() as mp:
                mp.setattr(backups_module.os, "fsync", full)
                backups.take("interval")
            assert backups.stick.cause == "full"
            said = until(lambda: banner(browser), 5.0, "the stick's problem on the page")
            assert said == ["full", "The backup stick is full: the game is saved on the unit's card. "
                                    "Free space on the stick."]
            play = "insert left Alice\ninsert right Bob\npress 2 M\nremove left\nremove right\n"
            assert script_run.run(script.parse(play), CoreBackend(unit)) is None  # play goes on
            until(lambda: balance(browser, "Alice") == "17M", 5.0, "the payment on the page")
            assert banner(browser)[0] == "full"
            backups.take("interval")  # space freed: the next backup goes there
            assert backups.stick is None
            until(lambda: banner(browser) is None, 5.0, "the stick's problem gone from the page")


@pytest.mark.parametrize("code", LANGUAGES)
def test_each_cause_is_said_in_each_language(tmp_path, code, monkeypatch):
    path = tmp_path / "ledger.db"
    with SqliteLedger(path, backups=False) as unit:
        unit.enrol("Alice", "A1")
    source = FileSource(path, language=code)
    try:
        assert source.open()["stick"] is None
        for cause in CAUSES:
            monkeypatch.setattr(FileSource, "_stick_now", lambda self, c=cause: StickProblem(c, tmp_path, ""))
            [state] = source.poll()  # no new record: the stick's change alone is published
            assert state["stick"]["cause"] == cause
            text = state["stick"]["text"]
            assert text and (text == STICK_TEXTS[cause]) == (code == "en"), text
    finally:
        source.close()
