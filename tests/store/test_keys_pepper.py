"""The PIN's verifier is keyed with the ledger's key (a pepper): a copy of the file or a backup alone can't test a PIN.

Older verifiers (plain PBKDF2 with a salt) keep working and are journalled
again, peppered, the next time the right PIN is given.
"""

from __future__ import annotations

import shutil
import sqlite3

import pytest

from banker.fold.authority import (
    PIN_SETTING, Grant, PinUncheckable, WrongPin, hash_pin, is_peppered, pin_matches, pin_pepper,
)
from banker.journal.records import PinChange
from firmware_sim.memory_store import MemoryStore
from runtime.ledger import Ledger, open_ledger
from store import SqliteStore
from store.keys import Keyring

PIN = "2468"


def pin_rows(db) -> list[str]:
    """Every verifier the file holds, read as an attacker would: straight from the SQLite file."""
    conn = sqlite3.connect(db)
    try:
        return [body for (body,) in conn.execute("SELECT body FROM journal WHERE kind = 'pin' ORDER BY seq")]
    finally:
        conn.close()


def test_a_pin_set_by_the_cli_is_peppered_in_the_file_and_every_backup(tmp_path):
    db = tmp_path / "ledger.db"
    with open_ledger(db) as ledger:
        ledger.set_setting(PIN_SETTING, hash_pin(PIN, b"salt-salt-salt16"), Grant(None, "cli"))
        assert is_peppered(ledger.game().pin_hash)
        backup = ledger.store.backups.take("test")
    for copy in (db, backup):
        (body,) = pin_rows(copy)
        assert '"p1$' in body and PIN not in body


def test_a_copy_of_the_file_cannot_confirm_the_pin_without_the_key(tmp_path):
    db = tmp_path / "ledger.db"
    with open_ledger(db) as ledger:
        ledger.set_setting(PIN_SETTING, hash_pin(PIN, b"salt-salt-salt16"), Grant(None, "cli"))
        stored = ledger.game().pin_hash
        right = ledger.pepper
    stolen = tmp_path / "stolen.db"
    shutil.copyfile(db, stolen)
    # the attacker's try of every PIN without the key: the right one doesn't match either (nor with a guessed key)
    assert not pin_matches(PIN, stored)
    assert not pin_matches(PIN, stored, pin_pepper(b"\0" * 32))
    assert pin_matches(PIN, stored, right)
    # the banker's own code, on a machine without the key, can't check it either: it says why
    elsewhere = Keyring(tmp_path / "no-keys")
    with Ledger(SqliteStore(stolen, writer=False, keyring=elsewhere)) as copy:
        with pytest.raises(PinUncheckable, match="key"):
            copy.authorise(Grant(PIN, "cli"))


def test_a_keypad_pin_change_is_peppered_by_the_write_path():
    with Ledger(MemoryStore()) as ledger:
        ledger.commit(PinChange(hash_pin(PIN, b"")))  # as the keypad's PIN mode builds it: no key in the core
        assert is_peppered(ledger.game().pin_hash)
        ledger.authorise(Grant(PIN))
        with pytest.raises(WrongPin):
            ledger.authorise(Grant("1357"))


def test_an_older_verifier_works_and_is_upgraded_when_the_right_pin_is_given(tmp_path):
    db = tmp_path / "ledger.db"
    with open_ledger(db) as ledger:
        ledger.store.append(PinChange(hash_pin(PIN, b"old-salt-16bytes"), time=1.0))  # as an earlier release wrote it
    with open_ledger(db) as ledger:
        assert not is_peppered(ledger.game().pin_hash)
        with pytest.raises(WrongPin):
            ledger.authorise(Grant("1357", "cli"))
        assert not is_peppered(ledger.game().pin_hash)  # a wrong PIN upgrades nothing
        ledger.authorise(Grant(PIN, "cli"))
        assert is_peppered(ledger.game().pin_hash)
    old, new = pin_rows(db)
    assert '"p1$' not in old and '"p1$' in new
    with open_ledger(db) as ledger:
        ledger.authorise(Grant(PIN, "cli"))  # the upgraded verifier checks the same PIN
        assert ledger.verify().ok
