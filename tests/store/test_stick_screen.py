"""The unit's screen says the backup stick's problem by its cause, in each of its languages, each line fitting the
OLED's 21 characters; play goes on."""

import errno
import os

import pytest

import banker.unit.views
import store.backups as backups_module
from banker.text.i18n import LANGUAGES, LINE_WIDTH, localized
from banker.unit.views import backup_stick
from runtime.languages import translations_for
from runtime.ledger import open_ledger
from store.backup_schedule import CAUSES
from tests.conftest import Table

TITLES = {"full": "Backup stick full", "read-only": "Stick is read-only", "failing": "Backup stick failing",
          "missing": "Backup stick missing"}


@pytest.mark.parametrize("code", LANGUAGES)
def test_each_cause_has_its_own_lines_in_each_language_and_each_fits_the_panel(code):
    tr = translations_for(code)
    shown = {cause: localized(backup_stick(cause), tr) for cause in CAUSES}
    assert len({lines[0] for lines in shown.values()}) == len(CAUSES)  # a title per cause
    assert len({lines[-1] for lines in shown.values()}) == len(CAUSES)  # and what to do
    for cause, lines in shown.items():
        assert all(0 < len(line) <= LINE_WIDTH for line in lines), (code, cause, lines)
        english = backup_stick(cause)
        assert (tuple(lines) == tuple(english)) == (code == "en"), (code, lines)
        if code == "en":
            assert lines[0] == TITLES[cause]


@pytest.mark.parametrize("number, cause", [(errno.ENOSPC, "full"), (errno.EROFS, "read-only"), (errno.EIO, "failing")])
def test_the_unit_shows_the_sticks_fault_by_cause_once_and_play_goes_on(tmp_path, stick, monkeypatch, number, cause):
    screens = []
    real_message = banker.unit.views.message
    monkeypatch.setattr(banker.unit.views, "message", lambda *lines, **kw: screens.append(lines) or
                        real_message(*lines, **kw))
    real_fsync = os.fsync

    def failing(fd):
        if os.readlink(f"/proc/self/fd/{fd}").startswith(str(stick)):
            raise OSError(number, os.strerror(number))
        return real_fsync(fd)

    monkeypatch.setattr(backups_module.os, "fsync", failing)
    with open_ledger(tmp_path / "ledger.db", backup_interval=0, second_backup_folder=stick) as ledger:
        table = Table(ledger)
        table.enrol("Alice", "A1")
        table.insert("left", "Alice")
        seen = []
        for n in range(3):
            table.type(f"{n + 1}K")
            table.wait(2.5)  # a backup starts once the table is quiet (store.upkeep)
            ledger.store.backups.wait()
            table.shell._upkeep()
            seen.append(table.shown)  # until the next key
        assert screens == [backup_stick(cause)]  # said once
        assert sum(TITLES[cause] in shown for shown in seen) == 1
        table.type("5K")
        assert "Bank paid" in table.shown  # play goes on
        assert ledger.backup_stick.cause == cause
