"""Backups of the ledger file: whole, consistent copies, made off the unit's thread and never half-written.

A backup is a copy made with SQLite's online backup API from a connection of
its own (a reader: the unit goes on writing meanwhile), a few hundred pages
at a time, into a temporary file that is fsynced and only then renamed into
place, so a crash or a full disk never leaves a damaged file under a
backup's name. They live in a ``backups`` folder beside the ledger (0700;
each file 0600); the newest :data:`KEEP` are kept. :func:`latest_good_backup`
skips any file that SQLite can't read through. Restoring replaces the
ledger by rename too, after keeping the ledger as it was.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from pathlib import Path
from collections.abc import Callable

from .keys import private_folder, sync_folder
from .schema import APPLICATION_ID, TABLES, V1_TABLES

#: Backups kept per ledger (each the size of the ledger file).
KEEP = 5
#: Seconds between interval backups, taken only when something was written since the last.
INTERVAL_SECONDS = 300.0
#: Pages copied per step of the online backup (1 KiB pages): the unit's writes slip in between.
PAGES_PER_STEP = 256


def backup_folder(ledger_path: str | os.PathLike) -> Path:
    return Path(ledger_path).expanduser().resolve().parent / "backups"


def list_backups(ledger_path: str | os.PathLike) -> list[Path]:
    """The backups of ``ledger_path``, newest first (temporary files of a copy under way are never listed)."""
    folder = backup_folder(ledger_path)
    stem = Path(ledger_path).stem
    if not folder.is_dir():
        return []
    return sorted(folder.glob(f"{stem}-*.db"), key=lambda p: (p.stat().st_mtime_ns, p.name), reverse=True)


def is_ledger_file(path: str | os.PathLike, *, thorough: bool = False) -> bool:
    """True when ``path`` is an SQLite file marked as a banker ledger (read without changing it).

    ``thorough``: SQLite's ``quick_check`` must pass too (every page readable).
    """
    try:
        conn = sqlite3.connect(f"file:{Path(path).resolve()}?mode=ro", uri=True)
        try:
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            healthy = not thorough or conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        finally:
            conn.close()
    except sqlite3.Error:
        return False
    return healthy and app_id == APPLICATION_ID and (TABLES <= tables or V1_TABLES <= tables)


def latest_good_backup(ledger_path: str | os.PathLike) -> Path | None:
    """The newest backup that is a whole, readable ledger (a damaged one is passed over)."""
    return next((b for b in list_backups(ledger_path) if is_ledger_file(b, thorough=True)), None)


def copy_database(source: str | os.PathLike | sqlite3.Connection, target: Path) -> Path:
    """Copy the database ``source`` (a path, or a connection: all it has committed) to ``target``, atomically.

    The copy goes to a temporary file beside ``target``, is fsynced, then
    renamed; a failure (a full disk) leaves no file under ``target``'s name.
    """
    target = Path(target)
    temp = target.with_name(f".{target.name}.partial")
    temp.unlink(missing_ok=True)
    os.close(os.open(temp, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    own = not isinstance(source, sqlite3.Connection)
    try:
        src = sqlite3.connect(f"file:{Path(source).resolve()}?mode=ro", uri=True) if own else source
        try:
            copy = sqlite3.connect(temp)
            try:
                src.backup(copy, pages=PAGES_PER_STEP)
                copy.execute("PRAGMA journal_mode=DELETE")
            finally:
                copy.close()
        finally:
            if own:
                src.close()
        fd = os.open(temp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, target)
        sync_folder(target.parent)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return target


def make_backup(source: str | os.PathLike | sqlite3.Connection, ledger_path: str | os.PathLike, reason: str, *,
                keep: int = KEEP) -> Path:
    """Copy the ledger to a new backup file; drop the oldest beyond ``keep``."""
    folder = backup_folder(ledger_path)
    private_folder(folder)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = folder / f"{Path(ledger_path).stem}-{stamp}-{time.time_ns() % 10**9:09d}-{reason}.db"
    copy_database(source, target)
    for old in list_backups(ledger_path)[keep:]:
        old.unlink(missing_ok=True)
    return target


def restore_backup(backup: Path, ledger_path: str | os.PathLike) -> Path | None:
    """Put ``backup`` in place of the ledger file, by rename; the ledger as it was is kept as a backup first.

    The caller holds the writer lock. The kept copy holds everything
    committed, also what still sat in the write-ahead log; a ledger too
    damaged to read is kept file by file instead. The backup is copied to a
    temporary file beside the ledger and renamed over it, after the old
    write-ahead log is folded in and removed, so a crash leaves either ledger
    whole.
    """
    import shutil

    ledger_path = Path(ledger_path).expanduser()
    kept = None
    staged = ledger_path.with_name(f".{ledger_path.name}.restoring")
    copy_database(backup, staged)
    if ledger_path.exists():
        folder = backup_folder(ledger_path)
        private_folder(folder)
        stamp = f"{time.strftime('%Y%m%d-%H%M%S')}-{time.time_ns() % 10**9:09d}"
        kept = folder / f"{ledger_path.stem}-{stamp}-before-restore.db"
        try:
            live = sqlite3.connect(ledger_path)
            try:
                copy_database(live, kept)
                live.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            finally:
                live.close()
        except sqlite3.Error:
            for suffix in ("", "-wal", "-shm"):
                part = Path(str(ledger_path) + suffix)
                if part.exists():
                    shutil.copyfile(part, str(kept) + suffix)
                    os.chmod(str(kept) + suffix, 0o600)
    for suffix in ("-wal", "-shm"):
        Path(str(ledger_path) + suffix).unlink(missing_ok=True)
    os.replace(staged, ledger_path)
    sync_folder(ledger_path.parent)
    _reanchor(ledger_path)
    return kept


def _reanchor(ledger_path: Path) -> None:
    """The restored journal's head becomes the anchor (the banker chose to go back to it)."""
    from .keys import Keyring

    conn = sqlite3.connect(f"file:{ledger_path.resolve()}?mode=ro", uri=True)
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'ledger_id'").fetchone()
        last = conn.execute("SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1").fetchone()
    except sqlite3.Error:
        return  # a ledger of an earlier schema: it is moved, and anchored, when opened
    finally:
        conn.close()
    if row and last:
        Keyring().set_anchor(row[0], last[0], last[1])


class Backups:
    """The ledger's backup schedule, carried out on a thread of its own.

    :meth:`due` says whether an interval backup is due (``interval`` seconds
    since the last, and the journal grown since); :meth:`start` begins one
    in the background unless one is under way; :meth:`wait` waits for it.
    ``error`` holds why the last one failed (a full disk), else None.
    """

    def __init__(self, ledger_path: str | os.PathLike, *, interval: float = INTERVAL_SECONDS, keep: int = KEEP,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.path = ledger_path
        self.interval = interval
        self.keep = keep
        self.clock = clock
        self.last = clock()
        self.error: str | None = None
        self.taken: list[Path] = []
        self.seq: int | None = None  # the journal's last entry when the last backup began
        self._thread: threading.Thread | None = None
        self._done: Callable[[], None] | None = None

    def due(self, seq: int | None = None) -> bool:
        """An interval backup is due: ``interval`` seconds passed, none under way, and the journal (now at
        entry ``seq``) grew since the last."""
        return (self.clock() - self.last >= self.interval and not self.running
                and (seq is None or seq != self.seq))

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self, reason: str, seq: int | None = None, after: Callable[[], None] | None = None) -> bool:
        """Begin a backup (of the journal up to entry ``seq``) in the background (False if one is under way);
        ``after()`` runs once it is made."""
        if self.running:
            return False
        self.last, self.seq = self.clock(), seq
        self._thread = threading.Thread(target=self._take, args=(reason, after), name="banker-backup", daemon=True)
        self._thread.start()
        return True

    def take(self, reason: str) -> Path:
        """Make a backup now, on this thread."""
        self.last = self.clock()
        path = make_backup(self.path, self.path, reason, keep=self.keep)
        self.taken.append(path)
        return path

    def _take(self, reason: str, after: Callable[[], None] | None) -> None:
        try:
            self.take(reason)
            self.error = None
            if after is not None:
                after()
        except (OSError, sqlite3.Error) as exc:
            self.error = f"backup failed: {exc}"

    def wait(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    def list(self) -> list[Path]:
        """This ledger's backups, newest first."""
        return list_backups(self.path)
