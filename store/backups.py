"""Rotating backups of the ledger file: a consistent copy at each new game and at intervals.

Copies are made with SQLite's online backup API from the ledger's own
connection, so a backup is always a whole, committed state. They live in a
``backups`` folder beside the ledger (0700; each file 0600), newest kept.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import time
from pathlib import Path
from typing import Callable

from .schema import APPLICATION_ID, TABLES, V1_TABLES

KEEP = 10
INTERVAL_SECONDS = 300.0


def backup_folder(ledger_path: str | os.PathLike) -> Path:
    return Path(ledger_path).expanduser().resolve().parent / "backups"


def list_backups(ledger_path: str | os.PathLike) -> list[Path]:
    """The backups of ``ledger_path``, newest first."""
    folder = backup_folder(ledger_path)
    stem = Path(ledger_path).stem
    if not folder.is_dir():
        return []
    return sorted(folder.glob(f"{stem}-*.db"), key=lambda p: p.stat().st_mtime_ns, reverse=True)


def copy_database(conn: sqlite3.Connection, target: Path) -> Path:
    """Copy the database behind ``conn`` (all it has committed) to a new private file ``target``."""
    os.close(os.open(target, os.O_CREAT | os.O_WRONLY, 0o600))
    copy = sqlite3.connect(target)
    try:
        conn.backup(copy)
    finally:
        copy.close()
    return target


def make_backup(conn: sqlite3.Connection, ledger_path: str | os.PathLike, reason: str, *, keep: int = KEEP) -> Path:
    """Copy the database behind ``conn`` to a new backup file; drop the oldest beyond ``keep``."""
    folder = backup_folder(ledger_path)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = folder / f"{Path(ledger_path).stem}-{stamp}-{time.time_ns() % 10**9:09d}-{reason}.db"
    copy_database(conn, target)
    for old in list_backups(ledger_path)[keep:]:
        old.unlink(missing_ok=True)
    return target


def is_ledger_file(path: str | os.PathLike) -> bool:
    """True when ``path`` is an SQLite file marked as a banker ledger, of either schema (read without changing it)."""
    try:
        conn = sqlite3.connect(f"file:{Path(path).resolve()}?mode=ro", uri=True)
        try:
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        finally:
            conn.close()
    except sqlite3.Error:
        return False
    return app_id == APPLICATION_ID and (TABLES <= tables or V1_TABLES <= tables)


def restore_backup(backup: Path, ledger_path: str | os.PathLike) -> Path | None:
    """Put ``backup`` in place of the ledger file; the ledger as it was is kept as a backup first.

    The kept copy holds everything committed, also what still sat in the
    write-ahead log after a power cut; a ledger too damaged to read is kept
    file by file (the database, its ``-wal`` and ``-shm``) instead.
    """
    ledger_path = Path(ledger_path).expanduser()
    kept = None
    if ledger_path.exists():
        folder = backup_folder(ledger_path)
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        stamp = f"{time.strftime('%Y%m%d-%H%M%S')}-{time.time_ns() % 10**9:09d}"
        kept = folder / f"{ledger_path.stem}-{stamp}-before-restore.db"
        try:
            source = sqlite3.connect(ledger_path)
            try:
                copy_database(source, kept)
            finally:
                source.close()
        except sqlite3.Error:
            for suffix in ("", "-wal", "-shm"):
                part = Path(str(ledger_path) + suffix)
                if part.exists():
                    shutil.copyfile(part, str(kept) + suffix)
                    os.chmod(str(kept) + suffix, 0o600)
    for suffix in ("-wal", "-shm"):
        Path(str(ledger_path) + suffix).unlink(missing_ok=True)
    shutil.copyfile(backup, ledger_path)
    os.chmod(ledger_path, 0o600)
    return kept


class Backups:
    """The ledger's backup schedule: :meth:`take` at each new game (before it starts), and a call after
    each commit that takes one when ``interval`` seconds have passed since the last.

    ``conn`` is the ledger's own SQLite connection (the store passes it).
    """

    def __init__(self, ledger_path: str | os.PathLike, *, interval: float = INTERVAL_SECONDS, keep: int = KEEP,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.path = ledger_path
        self.interval = interval
        self.keep = keep
        self.clock = clock
        self.last = clock()

    def __call__(self, conn: sqlite3.Connection) -> Path | None:
        """Take an ``interval`` backup if one is due."""
        if self.clock() - self.last >= self.interval:
            return self.take(conn, "interval")
        return None

    def take(self, conn: sqlite3.Connection, reason: str) -> Path:
        self.last = self.clock()
        return make_backup(conn, self.path, reason, keep=self.keep)

    def list(self) -> list[Path]:
        """This ledger's backups, newest first."""
        return list_backups(self.path)
