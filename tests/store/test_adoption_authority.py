"""Who may adopt a PIN'd ledger whose key is away: the card alone can't choose the banker's PIN where this machine
keeps the ledger's authority (issue 32); the banker's own key still imports back after a refused try."""

from __future__ import annotations

import shutil

import pytest

from store.keys import KEY_ENV
from tests.cli.support import PIN, a_ledger, banker


@pytest.fixture
def card(tmp_path, monkeypatch):
    """A PIN'd ledger on this machine, its key file taken away (on the banker's stick): (ledger, the key taken)."""
    monkeypatch.setenv(KEY_ENV, str(tmp_path / "keys"))
    db = a_ledger(tmp_path, pin=PIN)
    exported = tmp_path / "stick.key"
    assert banker("key", "export", "-o", exported, "--db", db).exit_code == 0
    key_file = next((tmp_path / "keys").glob("*.key"))
    key_file.unlink()
    return db, exported


def test_the_card_alone_cant_choose_the_bankers_pin(card):
    db, exported = card
    before = db.read_bytes()
    result = banker("key", "adopt", "--pin", "0000", "--db", db)
    assert result.exit_code == 4, result.output
    assert "key import" in result.output and "nothing was changed" in result.output
    assert db.read_bytes() == before and not list(db.parent.glob("keys/*.adopting"))
    assert banker("key", "import", exported).exit_code == 0
    assert banker("cards", "enrol", "Cleo", "--uid", "C3", "--pin", "0000", "--db", db).exit_code == 4
    assert banker("cards", "enrol", "Cleo", "--uid", "C3", "--pin", PIN, "--db", db).exit_code == 0
    assert banker("ledger", "verify", "--db", db).exit_code == 0


def test_key_adopt_and_game_restore_refuse_the_same_state_alike(card, tmp_path):
    db, _ = card
    backup = tmp_path / "copy.db"
    shutil.copyfile(db, backup)
    restore = banker("game", "restore", "--backup", backup, "--pin", "0000", "--db", tmp_path / "other.db")
    adopt = banker("key", "adopt", "--pin", "0000", "--db", db)
    assert (adopt.exit_code, restore.exit_code) == (4, 4), (adopt.output, restore.output)


def test_the_banker_with_the_key_needs_no_adoption(card):
    db, exported = card
    assert banker("key", "import", exported).exit_code == 0
    assert banker("key", "adopt", "--pin", PIN, "--db", db).exit_code == 3  # its key is here: nothing to adopt


def test_a_ledger_this_machine_never_kept_is_adopted_with_the_pin_given(card, tmp_path, monkeypatch):
    db, _ = card
    monkeypatch.setenv(KEY_ENV, str(tmp_path / "new-keys"))
    copy = tmp_path / "card" / "ledger.db"
    copy.parent.mkdir()
    shutil.copyfile(db, copy)
    assert banker("key", "adopt", "--pin", "2468", "--db", copy).exit_code == 0
    assert banker("cards", "enrol", "Cleo", "--uid", "C3", "--pin", "2468", "--db", copy).exit_code == 0
    assert banker("ledger", "verify", "--db", copy).exit_code == 0
