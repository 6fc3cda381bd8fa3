"""Moving to a new card from the command line: restore with the PIN adopts a backup whose key isn't here, the key
can be exported and imported, and no restore leaves a ledger that can't be written."""

from __future__ import annotations

import os
import shutil

import pytest

from store.keys import KEY_ENV
from tests.cli.support import PIN, a_ledger, banker





@pytest.fixture
def old_card(tmp_path, monkeypatch):
    monkeypatch.setenv(KEY_ENV, str(tmp_path / "old-keys"))
    db = a_ledger(tmp_path, pin=PIN)
    backup = tmp_path / "copied-backup.db"
    shutil.copyfile(db, backup)
    return backup


def new_card(tmp_path, monkeypatch):
    monkeypatch.setenv(KEY_ENV, str(tmp_path / "new-keys"))
    fresh = tmp_path / "card"
    fresh.mkdir()
    return fresh / "ledger.db"


def pays(db) -> None:
    script = db.parent / "pay.kps"
    script.write_text("insert left Alice\ninsert right Bob\npress 1 M\nremove left\nremove right\n")
    result = banker("script", script, "--db", db)
    assert result.exit_code == 0, result.output


def test_a_backup_restored_on_a_fresh_card_is_adopted_and_plays_on(tmp_path, monkeypatch, old_card):
    db = new_card(tmp_path, monkeypatch)
    result = banker("game", "restore", "--backup", old_card, "--pin", PIN, "--db", db)
    assert result.exit_code == 0, result.output
    assert "adopted under a new key" in result.output
    pays(db)
    verify = banker("ledger", "verify", "--db", db)
    assert verify.exit_code == 0, verify.output
    assert "notice: entries 1-" in verify.output and "adopted" in verify.output
    assert banker("cards", "enrol", "Cleo", "--uid", "C3", "--pin", PIN, "--db", db).exit_code == 0


def test_a_fresh_card_restore_needs_the_pin_and_changes_nothing_without(tmp_path, monkeypatch, old_card):
    db = new_card(tmp_path, monkeypatch)
    result = banker("game", "restore", "--backup", old_card, "--db", db)
    assert result.exit_code == 4, result.output
    assert not db.exists() and not list((tmp_path / "new-keys").glob("*.key"))


def test_another_ledgers_backup_over_this_one_leaves_it_writable(tmp_path, monkeypatch, old_card):
    monkeypatch.setenv(KEY_ENV, str(tmp_path / "new-keys"))
    here = tmp_path / "here"
    here.mkdir()
    db = a_ledger(here, pin="1357")  # this unit's own ledger and PIN
    result = banker("game", "restore", "--backup", old_card, "--pin", "1357", "--db", db)
    assert result.exit_code == 0, result.output  # the current ledger's PIN; the backup's is not asked again
    pays(db)
    assert banker("ledger", "verify", "--db", db).exit_code == 0
    assert banker("cards", "enrol", "Cleo", "--uid", "C3", "--pin", "1357", "--db", db).exit_code == 0


def test_a_backup_made_before_a_pin_change_restores_with_the_current_pin(tmp_path, monkeypatch):
    monkeypatch.setenv(KEY_ENV, str(tmp_path / "keys"))
    db = a_ledger(tmp_path, pin=PIN)
    assert banker("game", "new", "--db", db).exit_code == 0  # a backup at the new game
    before = sorted((tmp_path / "backups").glob("*.db"))[-1]
    assert banker("pin", "set", "--new", "1357", "--pin", PIN, "--db", db).exit_code == 0
    result = banker("game", "restore", "--backup", before, "--pin", "1357", "--db", db)
    assert result.exit_code == 0, result.output
    pays(db)
    assert banker("ledger", "verify", "--db", db).exit_code == 0


def test_export_and_import_keep_one_chain_across_machines(tmp_path, monkeypatch, old_card):
    monkeypatch.setenv(KEY_ENV, str(tmp_path / "old-keys"))
    out = tmp_path / "key.txt"
    result = banker("key", "export", "-o", out, "--db", old_card)
    assert result.exit_code == 0, result.output
    assert os.stat(out).st_mode & 0o777 == 0o600
    db = new_card(tmp_path, monkeypatch)
    assert banker("key", "import", out).exit_code == 0
    result = banker("game", "restore", "--backup", old_card, "--pin", PIN, "--db", db)
    assert result.exit_code == 0 and "adopted" not in result.output, result.output
    pays(db)
    verify = banker("ledger", "verify", "--db", db)
    assert verify.exit_code == 0 and "notice: entries" not in verify.output, verify.output
    assert banker("key", "import", out).exit_code == 0  # the same key again: nothing changes


def test_a_different_key_is_never_overwritten_by_an_import(tmp_path, monkeypatch, old_card):
    monkeypatch.setenv(KEY_ENV, str(tmp_path / "old-keys"))
    out = tmp_path / "key.txt"
    assert banker("key", "export", "-o", out, "--db", old_card).exit_code == 0
    ledger_id = out.read_text().split(":")[2]
    out.write_text(f"banker-key:v1:{ledger_id}:{'00' * 32}\n")
    result = banker("key", "import", out)
    assert result.exit_code == 3 and "never overwritten" in result.output


def test_export_shows_a_qr_code(tmp_path, monkeypatch, old_card):
    monkeypatch.setenv(KEY_ENV, str(tmp_path / "old-keys"))
    result = banker("key", "export", "--qr", "--db", old_card)
    assert result.exit_code == 0, result.output
    assert "█" in result.output or "▀" in result.output


def test_key_adopt_on_a_ledger_whose_key_is_lost(tmp_path, monkeypatch, old_card):
    db = new_card(tmp_path, monkeypatch)
    shutil.copyfile(old_card, db)
    assert banker("cards", "enrol", "Cleo", "--uid", "C3", "--pin", PIN, "--db", db).exit_code == 3
    assert banker("key", "adopt", "--pin", PIN, "--db", db).exit_code == 0
    pays(db)
    assert banker("ledger", "verify", "--db", db).exit_code == 0


def test_the_keys_qr_code_reads_back_where_the_terminal_writes_ascii_only(tmp_path, monkeypatch, old_card):
    """A terminal that can't write the half blocks gets the ASCII drawing (it was a UnicodeEncodeError's traceback),
    and a phone reads the key back from it."""
    import subprocess
    import sys

    from tests.web.test_web_qr import modules_of_ascii, read_like_a_phone

    monkeypatch.setenv(KEY_ENV, str(tmp_path / "old-keys"))
    run = subprocess.run([sys.executable, "-c", "from banker_cli.main import cli; cli(prog_name='banker')", "key", "export", "--qr", "--db", str(old_card)],
                         capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONIOENCODING": "ascii"})
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    exported = banker("key", "export", "-o", tmp_path / "k.txt", "--db", old_card)
    assert exported.exit_code == 0, exported.output
    assert read_like_a_phone(modules_of_ascii(run.stdout.splitlines())) == [(tmp_path / "k.txt").read_text().strip()]
