"""A command that made a backup says on stderr why the stick could not take it, by cause, and goes on (exit 0)."""

import errno
import os

import pytest

import store.backups as backups_module
from store import list_backups
from tests.cli.support import a_ledger, banker


def config(tmp_path, folder):
    path = tmp_path / "banker.toml"
    path.write_text(f'[backups]\nsecond_folder = "{folder}"\n')
    return path


def fail_copies_with(monkeypatch, stick, number):
    real = os.fsync

    def fsync(fd):
        where = os.readlink(f"/proc/self/fd/{fd}")
        if where.startswith(str(stick)) and where.endswith(".partial"):
            raise OSError(number, os.strerror(number))
        return real(fd)

    monkeypatch.setattr(backups_module.os, "fsync", fsync)


@pytest.mark.parametrize("number, said", [
    (errno.ENOSPC, "is full: the game is saved on the card; free space on the stick"),
    (errno.EROFS, "is read-only: the game is saved on the card"),
    (errno.EIO, "is failing (Input/output error): the game is saved on the card"),
])
def test_game_new_says_the_sticks_fault_by_cause_and_exits_0(tmp_path, stick, monkeypatch, number, said):
    db = a_ledger(tmp_path)
    fail_copies_with(monkeypatch, stick, number)
    result = banker("game", "new", "--db", db, "--config", config(tmp_path, stick))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("game 2 started")
    assert result.stderr == f"banker: the backup stick {stick} {said}" + result.stderr.split(said, 1)[1]
    assert len(result.stderr.splitlines()) == 1 and "docs" not in result.stdout
    assert list_backups(db) and not list_backups(db, stick)  # the card's backup made, nothing half on the stick


def test_game_new_says_a_missing_stick_and_nothing_when_all_is_well(tmp_path, stick):
    db = a_ledger(tmp_path)
    gone = tmp_path / "media" / "unplugged"
    result = banker("game", "new", "--db", db, "--config", config(tmp_path, gone))
    assert result.exit_code == 0 and result.stdout.startswith("game 2 started")
    assert result.stderr.startswith(f"banker: the backup stick {gone} is not there (unplugged, or not mounted)")
    fine = banker("game", "new", "--db", db, "--config", config(tmp_path, stick))
    assert fine.exit_code == 0 and fine.stderr == "" and list_backups(db, stick)


def test_game_backup_makes_one_beside_and_on_the_stick_and_exits_3_when_the_stick_cant_take_it(tmp_path, stick,
                                                                                              monkeypatch):
    db = a_ledger(tmp_path)
    before = len(list_backups(db))
    fine = banker("game", "backup", "--db", db, "--config", config(tmp_path, stick))
    assert fine.exit_code == 0 and fine.stderr == "", fine.output
    made = fine.stdout.splitlines()
    assert made[0].startswith("backup made: ") and made[1].startswith(f"and on the backup stick: {stick}/ledger-")
    fail_copies_with(monkeypatch, stick, errno.ENOSPC)
    full = banker("game", "backup", "--db", db, "--config", config(tmp_path, stick))
    assert full.exit_code == 3
    assert full.stdout.startswith("backup made: ") and "backup stick" not in full.stdout
    assert full.stderr.startswith(f"banker: the backup stick {stick} is full: the game is saved on the card")
    assert len(list_backups(db)) == before + 2 and len(list_backups(db, stick)) == 1  # nothing half on the stick


def test_game_backup_of_no_ledger_creates_none(tmp_path):
    result = banker("game", "backup", "--db", tmp_path / "nothing.db")
    assert result.exit_code == 3 and "there is no ledger at" in result.stderr
    assert not (tmp_path / "nothing.db").exists()
