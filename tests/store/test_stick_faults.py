"""A backup stick that fills up, fails, goes read-only or disappears mid-backup: its cause is told as data, the
ledger and the card's backups and the stick's other files hold, no half file is left under a backup's name, and
the next backup mends it."""

import errno
import os
import shutil
import sqlite3

import pytest

import store.backup_schedule as schedule
import store.backups as backups_module
from runtime.ledger import SqliteLedger
from store import KEEP, list_backups
from store.backups import is_good_backup
from store.backup_schedule import FAILING, FULL, MISSING, READ_ONLY, Backups, StickProblem, read_stick_state


@pytest.fixture
def stick(stick):
    """The stick (tests/conftest.py) holding a file of someone else's."""
    (stick / "holiday.jpg").write_bytes(b"\xff\xd8 a photo")
    return stick


@pytest.fixture
def ledger(tmp_path):
    path = tmp_path / "ledger.db"
    with SqliteLedger(path, backups=False) as led:
        led.enrol("Alice", "A1B2C3")
    return path


def _fd_path(fd: int) -> str:
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return ""


def fsync_fails(monkeypatch, stick, number, *, pull_out=False):
    """The stick fails as the copy of a backup is made safe (its pages written, the rename still to come)."""
    real = os.fsync

    def fsync(fd):
        if _fd_path(fd).startswith(str(stick)) and _fd_path(fd).endswith(".partial"):
            if pull_out:
                shutil.rmtree(stick.parent)
            raise OSError(number, os.strerror(number))
        return real(fd)

    monkeypatch.setattr(backups_module.os, "fsync", fsync)


def create_fails(monkeypatch, stick, number):
    """The stick refuses the copy's first file (a read-only stick: EROFS)."""
    real = os.open

    def open_(path, flags, *args, **kw):
        if str(path).startswith(str(stick)) and flags & os.O_CREAT:
            raise OSError(number, os.strerror(number), str(path))
        return real(path, flags, *args, **kw)

    monkeypatch.setattr(backups_module.os, "open", open_)


def rotation_fails(monkeypatch, stick, code):
    """SQLite's own error bringing the oldest backup on the stick forward (SQLITE_FULL, SQLITE_IOERR)."""
    real = backups_module.bring_forward

    def bring_forward(backup, ledger):
        if str(backup).startswith(str(stick)):
            exc = sqlite3.OperationalError("database or disk is full" if code == 13 else "disk I/O error")
            exc.sqlite_errorcode = code
            raise exc
        return real(backup, ledger)

    monkeypatch.setattr(backups_module, "bring_forward", bring_forward)


def _files(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())} if folder.is_dir() else {}


def _fill(ledger, stick, count):
    backups = Backups(ledger, second_folder=stick)
    for _ in range(count):
        backups.take("interval")
    assert backups.stick is None
    return backups


FAULTS = [
    ("full, copying", lambda mp, s: fsync_fails(mp, s, errno.ENOSPC), 0, FULL),
    ("over quota", lambda mp, s: fsync_fails(mp, s, errno.EDQUOT), 0, FULL),
    ("failing, copying", lambda mp, s: fsync_fails(mp, s, errno.EIO), 0, FAILING),
    ("read-only", lambda mp, s: create_fails(mp, s, errno.EROFS), 0, READ_ONLY),
    ("full, rotating", lambda mp, s: rotation_fails(mp, s, 13), KEEP, FULL),
    ("failing, rotating", lambda mp, s: rotation_fails(mp, s, 10 | (12 << 8)), KEEP, FAILING),
]


@pytest.mark.parametrize("name, fault, before, cause", FAULTS, ids=[f[0] for f in FAULTS])
def test_a_stick_fault_is_told_by_its_cause_and_harms_nothing_and_the_next_backup_mends_it(
        ledger, stick, monkeypatch, name, fault, before, cause):
    backups = _fill(ledger, stick, before)
    there = _files(stick)
    with SqliteLedger(ledger, backups=False) as led:
        led.new_game()
    with monkeypatch.context() as mp:
        fault(mp, stick)
        made = backups.take("new-game")
    assert made.exists() and made in list_backups(ledger)  # the card's backup was made
    assert backups.failed is None and backups.stick is not None
    assert backups.stick.cause == cause and backups.stick.folder == stick
    assert str(stick) in backups.stick.detail
    assert _files(stick) == there  # no half file under a backup's name, no temp file, the photo as it was
    assert len(list_backups(ledger)) == min(before + 1, KEEP) and all(map(is_good_backup, list_backups(ledger)))
    assert read_stick_state(ledger) == backups.stick  # the page's file says so
    backups.take("interval")  # the stick mended: the next backup goes there
    assert backups.stick is None and read_stick_state(ledger) is None
    assert len(list_backups(ledger, stick)) == min(before + 1, KEEP)
    assert (stick / "holiday.jpg").read_bytes() == b"\xff\xd8 a photo"


def test_a_stick_pulled_out_mid_copy_is_missing(ledger, stick, monkeypatch):
    backups = Backups(ledger, second_folder=stick)
    with monkeypatch.context() as mp:
        fsync_fails(mp, stick, errno.EIO, pull_out=True)
        backups.take("new-game")
    assert backups.stick.cause == MISSING and backups.failed is None
    assert list_backups(ledger)


def test_a_stick_not_mounted_or_unplugged_is_missing_and_one_that_cant_be_written_read_only(ledger, stick,
                                                                                           monkeypatch, tmp_path):
    gone = Backups(ledger, second_folder=tmp_path / "nothing")
    gone.take("interval")
    assert gone.stick.cause == MISSING
    mount_point = tmp_path / "mnt"
    mount_point.mkdir()
    empty = Backups(ledger, second_folder=mount_point)  # an unmounted stick's mount point: on the card
    empty.take("interval")
    assert empty.stick.cause == MISSING and "same device" in empty.stick.detail
    monkeypatch.setattr(schedule.os, "access", lambda path, mode: not str(path).startswith(str(stick)))
    locked = Backups(ledger, second_folder=stick)
    locked.take("interval")
    assert locked.stick.cause == READ_ONLY


def test_a_full_stick_is_found_by_doctors_space_check_as_full(ledger, stick, monkeypatch):
    monkeypatch.setattr(schedule.shutil, "disk_usage", lambda path: shutil._ntuple_diskusage(1, 1, 0))
    problem = schedule.second_folder_check(stick, ledger, space=True)
    assert isinstance(problem, StickProblem) and problem.cause == FULL


@pytest.mark.parametrize("number, cause", [(errno.ENOSPC, FULL), (errno.EDQUOT, FULL), (errno.EROFS, READ_ONLY),
                                           (errno.EIO, FAILING), (errno.ENODEV, MISSING), (errno.ENOENT, MISSING),
                                           (errno.EBADMSG, FAILING)])
def test_each_errno_names_its_cause(tmp_path, number, cause):
    assert schedule.cause_of(OSError(number, os.strerror(number)), tmp_path) == cause


def test_an_error_once_the_folder_is_gone_is_missing_whatever_it_says(tmp_path):
    assert schedule.cause_of(OSError(errno.EIO, "Input/output error"), tmp_path / "pulled-out") == MISSING
