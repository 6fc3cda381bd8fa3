"""A restore onto a new card killed late (its key still staged, or finished but never said): what the banker is told
is what to do, run the same restore again, and a rerun of a finished one says it is done (issue 32)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from runtime.adoption import adopt
from store import restore_backup
from store.backups import copy_database
from store.keys import KEY_ENV
from tests.cli.support import PIN, a_ledger, banker


@pytest.fixture
def cut_short(tmp_path, monkeypatch):
    """A backup restored onto a new card by adoption, killed after the file was in place, its key still staged:
    (the new card's ledger, the backup)."""
    monkeypatch.setenv(KEY_ENV, str(tmp_path / "old-keys"))
    backup = tmp_path / "copied-backup.db"
    shutil.copyfile(a_ledger(tmp_path, pin=PIN), backup)
    monkeypatch.setenv(KEY_ENV, str(tmp_path / "new-keys"))
    db = tmp_path / "card" / "ledger.db"
    db.parent.mkdir()
    staged = db.with_name(f".{db.name}.adopting")
    copy_database(backup, staged)
    adopt(staged, PIN, keep_staged=True)
    restore_backup(staged, db)
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{staged}{suffix}").unlink(missing_ok=True)
    assert list((tmp_path / "new-keys").glob("*.key.adopting"))
    return db, backup


def pays(db):
    script = db.parent / "pay.kps"
    script.write_text("insert left Alice\ninsert right Bob\npress 1 M\nremove left\nremove right\n")
    return banker("script", script, "--db", db)


def test_a_payment_after_a_cut_restore_says_run_the_same_restore_again(cut_short):
    db, _ = cut_short
    result = pays(db)
    assert result.exit_code == 3, result.output
    assert "run the same 'banker game restore --backup FILE' again" in result.output
    assert "Copy its .key file there" not in result.output


def test_verify_after_a_cut_restore_names_the_staged_key_and_the_rerun(cut_short):
    db, _ = cut_short
    result = banker("ledger", "verify", "--db", db)
    assert ".key.adopting is there instead: run the same restore" in result.output, result.output


def test_the_same_restore_again_finishes_it_and_a_third_says_it_is_done(cut_short):
    db, backup = cut_short
    again = banker("game", "restore", "--backup", backup, "--pin", PIN, "--db", db)
    assert again.exit_code == 0 and "restored" in again.output, again.output
    before = db.read_bytes()
    third = banker("game", "restore", "--backup", backup, "--pin", PIN, "--db", db)
    assert third.exit_code == 0, third.output
    assert "already restored" in third.output and "doesn't verify" not in third.output
    assert db.read_bytes() == before
    assert pays(db).exit_code == 0
    assert banker("ledger", "verify", "--db", db).exit_code == 0


def test_a_backup_played_on_from_is_not_called_done(cut_short):
    db, backup = cut_short
    assert banker("game", "restore", "--backup", backup, "--pin", PIN, "--db", db).exit_code == 0
    assert pays(db).exit_code == 0
    result = banker("game", "restore", "--backup", backup, "--pin", PIN, "--db", db)
    assert "already restored" not in result.output
