"""What the keys folder notes of a ledger put in place (only a keyed ledger's id), and an upgrade that can't keep its
copy of the old file refused with the file named, the old ledger left as it was."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from banker.errors import LedgerError
from store import SqliteStore
from store.keys import Keyring
from store.trust import note_placed

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def test_only_a_keyed_ledger_is_noted_where_it_is_placed(tmp_path):
    text, old, missing = tmp_path / "notes.db", tmp_path / "old.db", tmp_path / "missing.db"
    text.write_text("not a database " * 100)
    shutil.copyfile(FIXTURES / "ledger-v2.db", old)
    for path in (text, old, missing):
        note_placed(path)
        note_placed(tmp_path / "target.db", coming_from=path)
        assert Keyring().registered(path) is None and Keyring().incoming(tmp_path / "target.db") is None
    keyed = tmp_path / "keyed.db"
    with SqliteStore(keyed, backups=False) as store:
        ledger_id = store.ledger_id
    note_placed(tmp_path / "target.db", coming_from=keyed)
    assert Keyring().incoming(tmp_path / "target.db") == ledger_id


def test_an_upgrade_that_cannot_keep_the_old_file_is_refused_and_changes_nothing(tmp_path):
    ledger = tmp_path / "ledger.db"
    shutil.copyfile(FIXTURES / "ledger-v1.db", ledger)
    (tmp_path / "ledger.db.v1-backup").mkdir()  # something in the way of the copy kept beside it
    with pytest.raises(LedgerError, match=f"cannot keep a copy of {ledger} before updating it"):
        SqliteStore(ledger, backups=False, upgrade=True)
    conn = sqlite3.connect(ledger)
    assert conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == ("1",)
    conn.close()
