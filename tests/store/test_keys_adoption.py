"""Adopting a ledger whose key is missing: a new key, a KeyAdopted record from which it vouches, verify says so,
and the unit plays on."""

from __future__ import annotations

import shutil

import pytest

from banker.fold.authority import PIN_SETTING, Grant, PinNeeded, WrongPin, hash_pin, is_peppered
from banker.errors import LedgerError
from banker.journal.records import KeyAdopted, PinChange, Transaction, Posting
from runtime.adoption import adopt
from runtime.ledger import open_ledger
from store import SqliteStore
from store.keys import KEY_ENV, Keyring
from runtime.ledger import Ledger

PIN = "2468"


def a_game(db, pin=PIN, keyring=None):
    with open_ledger(db, **({} if keyring is None else {"keyring": keyring})) as ledger:
        alice = ledger.enrol("Alice", "A1")
        ledger.enrol("Bob", "B2")
        if pin:
            ledger.set_setting(PIN_SETTING, hash_pin(pin, b"0123456789abcdef"), Grant(None, "cli"))
        ledger.post(Transaction("transfer", (Posting(alice.id, 2, 1_000_000, "transfer"),), "Alice paid Bob"))
        return ledger.game().balances_by_name()


@pytest.fixture
def new_card(tmp_path, monkeypatch):
    """A second machine: its own, empty keys folder."""
    folder = tmp_path / "new-card-keys"
    monkeypatch.setenv(KEY_ENV, str(folder))
    return Keyring(folder)


def moved(tmp_path, pin=PIN):
    old = tmp_path / "old.db"
    balances = a_game(old, pin, Keyring(tmp_path / "old-card-keys"))
    db = tmp_path / "moved.db"
    shutil.copyfile(old, db)
    return db, balances


def test_without_the_key_nothing_can_be_written_until_the_ledger_is_adopted(tmp_path, new_card):
    db, balances = moved(tmp_path)
    with pytest.raises(LedgerError, match="key"):
        open_ledger(db)
    record = adopt(db, PIN, keyring=new_card)
    assert isinstance(record, KeyAdopted) and record.from_seq > 1 and is_peppered(record.pin_hash)
    with open_ledger(db) as ledger:  # the unit plays on
        assert ledger.game().balances_by_name() == balances
        ledger.authorise(Grant(PIN, "cli"))
        ledger.post(ledger.game().numbered(Transaction("transfer", (Posting(2, 1, 500_000, "transfer"),), "Bob paid")))
        audit = ledger.verify()
    assert audit.ok, audit.problems
    assert any(f"adopted under a new key at entry {record.from_seq}" in note for note in audit.notices)


def test_a_row_deleted_before_the_adoption_is_still_found_by_order(tmp_path, new_card):
    import sqlite3

    db, _ = moved(tmp_path)
    adopt(db, PIN, keyring=new_card)
    conn = sqlite3.connect(db)
    conn.execute("DELETE FROM journal WHERE seq = 2")
    conn.commit()
    conn.close()
    with SqliteStore(db, writer=False) as store:
        assert any("entries 2-2 are missing" in p.message for p in store.verify().problems)


def test_a_forged_adoption_under_another_key_does_not_verify_here(tmp_path):
    db = tmp_path / "ledger.db"
    a_game(db)
    elsewhere = Keyring(tmp_path / "thief")  # the thief adopts a copy of the file with a key of their own
    shutil.copyfile(db, tmp_path / "copy.db")
    adopt(tmp_path / "copy.db", PIN, keyring=elsewhere)
    shutil.copyfile(tmp_path / "copy.db", db)  # and puts it back
    with Ledger(SqliteStore(db, writer=False)) as ledger:
        assert not ledger.verify().ok


def test_adoption_needs_the_pin_and_checks_an_older_verifier(tmp_path, new_card):
    db, _ = moved(tmp_path)
    with pytest.raises(PinNeeded):
        adopt(db, None, keyring=new_card)
    old = tmp_path / "v-old.db"
    with open_ledger(old, keyring=Keyring(tmp_path / "old-card-keys")) as ledger:
        ledger.store.append(PinChange(hash_pin(PIN, b"old-salt-16bytes"), time=1.0))  # an unpeppered verifier
    shutil.copyfile(old, tmp_path / "v-old-moved.db")
    with pytest.raises(WrongPin):
        adopt(tmp_path / "v-old-moved.db", "1357", keyring=new_card)
    assert not new_card.folder.exists() or not list(new_card.folder.glob("*.key"))
    adopt(tmp_path / "v-old-moved.db", PIN, keyring=new_card)


def test_a_ledger_whose_key_is_here_is_not_adopted(tmp_path):
    db = tmp_path / "ledger.db"
    a_game(db)
    with pytest.raises(LedgerError, match="nothing to adopt"):
        adopt(db, PIN)


def test_an_adoption_cut_short_after_its_record_is_finished_by_the_next(tmp_path, new_card, monkeypatch):
    db, _ = moved(tmp_path)

    def crash(self, ledger_id):
        raise KeyboardInterrupt

    monkeypatch.setattr(Keyring, "commit_staged", crash)
    with pytest.raises(KeyboardInterrupt):
        adopt(db, PIN, keyring=new_card)
    monkeypatch.undo()
    monkeypatch.setenv(KEY_ENV, str(new_card.folder))
    adopt(db, PIN, keyring=new_card)
    with open_ledger(db) as ledger:
        assert ledger.verify().ok
        assert sum(isinstance(r, KeyAdopted) for r in ledger.store.records()) == 1
