"""An adoption's edges: a file that isn't a ledger named, an empty ledger has no head to vouch for, and a cut-short
adoption is finished only where its staged key fits (never over a key kept here)."""

from __future__ import annotations

import sqlite3

import pytest

from banker.errors import LedgerError
from runtime.adoption import finish_cut_short, head_of, key_fits
from store import SqliteStore
from store.keys import KEY_BYTES, Keyring
from tests.cli.support import a_ledger


def test_a_file_that_is_not_a_ledger_is_named(tmp_path):
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    with pytest.raises(LedgerError, match=f"cannot read {other}: no such table"):
        head_of(other)


def test_an_empty_ledger_has_no_head_and_any_key_fits_it(tmp_path):
    empty = tmp_path / "empty.db"
    SqliteStore(empty, backups=False).close()
    conn = sqlite3.connect(empty)
    conn.execute("DELETE FROM journal")
    conn.commit()
    conn.close()
    assert head_of(empty) is None and key_fits(empty, bytes(KEY_BYTES)) is True
    assert finish_cut_short(empty) is None


def test_an_adoption_is_finished_only_where_a_staged_key_fits_and_no_key_is_kept(tmp_path):
    db = a_ledger(tmp_path)
    ledger_id, _, _ = head_of(db)
    keyring = Keyring()
    assert finish_cut_short(db, keyring) is None  # its key is here: nothing to finish
    kept = keyring.key_file(ledger_id)
    kept.rename(tmp_path / "away.key")  # the key lost, and no adoption staged
    assert finish_cut_short(db, keyring) is None
    (keyring.folder / f"{ledger_id}.key.adopting").write_bytes(b"ab" * KEY_BYTES)  # a staged key that doesn't fit
    assert finish_cut_short(db, keyring) is None
    assert keyring.key(ledger_id) is None  # nothing was kept from it
