"""What cut adoptions, restores and killed or failed backups leave (``.partial``, ``-journal``, ``-wal``, ``-shm``) is
removed by the next backup, beside the ledger, among its backups and on the stick; a live ledger's own files, and
another unit's copy under way on a shared stick, are kept."""

import errno
import os
import pathlib


import store.backup_schedule as schedule
import store.backups as backups_module
from runtime.ledger import SqliteLedger
from store.backup_schedule import Backups

STAMP = "20260101-000000-000000001"


def _left(path, *, old=True):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"left by a kill")
    if old:  # older than this process: its writer is gone
        then = backups_module.STARTED - 100
        os.utime(path, (then, then))
    return path


def leftovers(tmp_path, stick):
    beside = [tmp_path / f"{dot}.ledger.db.{what}{partial}{suffix}" for what in ("adopting", "restoring")
              for dot, partial in (("", ""), (".", ".partial")) for suffix in ("", "-journal", "-wal", "-shm")]
    copies = [folder / f".ledger-{STAMP}-{reason}.db.partial{suffix}" for folder in (tmp_path / "backups", stick)
              for reason in ("new-game", "before-restore") for suffix in ("", "-journal", "-wal", "-shm")]
    orphans = [folder / f"ledger-{STAMP}-interval.db{suffix}" for folder in (tmp_path / "backups", stick)
               for suffix in ("-journal", "-wal", "-shm")]
    return [_left(p) for p in beside + copies + orphans]


def test_the_next_backup_removes_every_leftover_of_each_kind_and_keeps_live_files(tmp_path, stick):
    path = tmp_path / "ledger.db"
    with SqliteLedger(path, backups=False) as ledger, SqliteLedger(tmp_path / "ledger-2.db", backups=False) as other:
        ledger.enrol("Alice", "A1B2C3")
        other.enrol("Bob", "B1B2C3")
        left = leftovers(tmp_path, stick)
        live = [pathlib.Path(f"{p}{s}") for p in (path, tmp_path / "ledger-2.db") for s in ("-wal", "-shm")]
        assert all(p.exists() for p in live)
        for p in live:  # however old they look
            os.utime(p, (backups_module.STARTED - 100,) * 2)
        another_units = _left(stick / f".ledger-{STAMP}-new-game.db.partial-journal".replace("0001", "0002"), old=False)
        backup_of_another = _left(stick / f"ledger-{STAMP}-interval.db".replace("0001", "0003"))
        its_wal = _left(pathlib.Path(f"{backup_of_another}-wal"))  # a reader has that backup open
        Backups(path, second_folder=stick).take("interval")
        assert [p for p in left if p.exists()] == []
        assert all(p.exists() for p in live)
        assert another_units.exists() and backup_of_another.exists() and its_wal.exists()
        ledger.enrol("Carol", "C1C2C3")  # the ledger goes on, its -wal in use
    with SqliteLedger(path, writer=False) as again:
        assert [c.name for c in again.game().cards] == ["Alice", "Carol"]


def test_a_partial_file_a_failing_stick_would_not_let_go_is_removed_by_the_next_backup(tmp_path, stick, monkeypatch):
    path = tmp_path / "ledger.db"
    with SqliteLedger(path, backups=False) as ledger:
        ledger.enrol("Alice", "A1B2C3")
    backups = Backups(path, second_folder=stick)
    real_fsync, real_unlink = os.fsync, pathlib.Path.unlink

    def fsync(fd):
        where = os.readlink(f"/proc/self/fd/{fd}")
        if where.startswith(str(stick)) and where.endswith(".partial"):
            raise OSError(errno.EIO, "Input/output error")
        return real_fsync(fd)

    def unlink(self, missing_ok=False):
        if str(self).startswith(str(stick)) and ".partial" in self.name and self.exists():
            raise OSError(errno.EIO, "Input/output error")
        return real_unlink(self, missing_ok=missing_ok)

    with monkeypatch.context() as mp:
        mp.setattr(backups_module.os, "fsync", fsync)
        mp.setattr(pathlib.Path, "unlink", unlink)
        backups.take("new-game")
    assert backups.stick.cause == schedule.FAILING
    stuck = [p.name for p in stick.iterdir() if ".partial" in p.name]
    assert stuck  # newer than this process, yet its own
    backups.take("interval")
    assert backups.stick is None and not [p for p in stick.iterdir() if ".partial" in p.name]
