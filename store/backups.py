"""Backups of the ledger file: whole, standalone ledgers, each a point in time, never half-written.

The newest :data:`KEEP` backups the unit made are a rotation, in a
``backups`` folder beside the ledger (0700; each file 0600) and, if one is
set, a second folder (a USB stick: :mod:`store.backup_schedule`). A backup
brings the oldest of them forward to the ledger's head, copying only what was
written since (:mod:`store.rotation`: one SQLite transaction on that file, a
rollback journal, then renamed to a fresh name), so its cost follows what is
new, never the ledger. Until the folder holds :data:`KEEP` of them, or when the
oldest can't be brought forward (another ledger's, an earlier schema, damaged),
a backup is a whole copy, made in steps while the unit is quiet
(:mod:`store.upkeep`) or by SQLite's online backup API, into a temporary
file that is fsynced and only then renamed into place. A kill at any point leaves every other backup as it was
and the one under way rolled back by its journal (passed over until the next
backup heals it): :func:`latest_good_backup` skips it, and any file SQLite
can't read through. Restoring replaces the ledger by rename too, after keeping
the ledger as it was.
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import sqlite3
import stat
import time
from collections.abc import Callable
from pathlib import Path

from .backup_identity import ledger_id_of
from .keys import private_folder, sync_folder
from .rotation import bring_forward, cut_short, last_shared, orphan_journals, remove, touch
from .trust import note_placed
from .upkeep import copy_in_steps, copy_whole, steps_fit
from .schema import APPLICATION_ID, TABLES, V1_TABLES

#: Backups kept per ledger and folder (each the size of the ledger file), and copies a restore kept.
KEEP = 5
#: Seconds between interval backups, taken only when something was written since the last.
INTERVAL_SECONDS = 300.0
#: Pages copied per step of the online backup (1 KiB pages): the unit's writes slip in between.
PAGES_PER_STEP = 256


def backup_folder(ledger_path: str | os.PathLike) -> Path:
    return Path(ledger_path).expanduser().resolve().parent / "backups"


def list_backups(ledger_path: str | os.PathLike, folder: Path | None = None) -> list[Path]:
    """The backups of ``ledger_path`` in ``folder`` (default: beside it), newest first (temporary files of a copy
    under way are never listed).

    A backup is its ledger's by the ledger id inside it, never by its name (:mod:`store.backup_identity`): a
    file named like one but of another ledger (another unit's on a shared stick) is not listed, so never rotated
    away nor restored as 'latest'; one whose id can't be read (damaged, cut short, an earlier schema) goes by its
    name, as the copies a restore kept do (the ledger as it was at this path, whichever it was). Only regular
    files: a symlink, FIFO or device planted there is never listed, opened or written through."""
    folder = backup_folder(ledger_path) if folder is None else Path(folder)
    stem = Path(ledger_path).stem
    if not folder.is_dir():
        return []
    ours = ledger_id_of(Path(ledger_path).expanduser())
    # <stem>-<date>-<time>[-<ns>]-<reason>.db: another ledger's (ledger-2.db beside ledger.db) never matches
    named = re.compile(rf"{re.escape(stem)}-\d{{8}}-\d{{6}}(-\d+)?-[a-z][a-z-]*\.db")
    found = []
    for path in folder.glob(f"{glob.escape(stem)}-*.db"):
        if not named.fullmatch(path.name):
            continue
        try:
            status = path.lstat()
        except FileNotFoundError:
            continue  # renamed or dropped by a backup under way
        if not stat.S_ISREG(status.st_mode):
            continue
        if ours is not None and not is_kept_copy(path) and ledger_id_of(path) not in (ours, None):
            continue  # another ledger's
        found.append((status.st_mtime_ns, path.name, path))
    return [path for *_, path in sorted(found, reverse=True)]


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


#: How the copy of the ledger a restore replaced is named (``<stem>-<stamp>-before-restore.db``).
KEPT_SUFFIX = "-before-restore.db"


def is_kept_copy(path: Path) -> bool:
    """True for the copy of the ledger as it was that a restore kept (not a backup the unit made)."""
    return path.name.endswith(KEPT_SUFFIX)


def is_good_backup(path: Path) -> bool:
    """A whole, readable ledger with no rollback journal beside it (one being brought forward, or cut short)."""
    return not cut_short(path) and is_ledger_file(path, thorough=True)


def latest_good_backup(ledger_path: str | os.PathLike, folder: Path | None = None) -> Path | None:
    """The newest backup the unit made that is a whole, readable ledger (a damaged one, or one a kill cut short,
    is passed over).

    The copies a restore kept of the ledger as it was are not among them (a second ``restore --backup latest``
    would bring back what the first replaced): they are restored by name."""
    return next((b for b in list_backups(ledger_path, folder) if not is_kept_copy(b) and is_good_backup(b)), None)


def copy_database(source: str | os.PathLike | sqlite3.Connection, target: Path,
                  gate: Callable[[], None] | None = None) -> Path:
    """Copy the database ``source`` (a path, or a connection: all it has committed) to ``target``, atomically.

    The copy goes to a temporary file beside ``target``, is fsynced, then renamed; a failure (a full disk) leaves
    no file under ``target``'s name. ``gate``: a ledger of this schema is copied in steps, each flushed, ``gate()``
    before each (:func:`store.upkeep.copy_in_steps`: it waits for the unit to be quiet)."""
    target = Path(target)
    temp = target.with_name(f".{target.name}.partial")
    temp.unlink(missing_ok=True)
    os.close(os.open(temp, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    own = not isinstance(source, sqlite3.Connection)
    try:
        if gate is not None and own and steps_fit(source):
            copy_in_steps(Path(source).expanduser(), temp, gate)
        else:
            copy_whole(source, temp, PAGES_PER_STEP)
        fd = os.open(temp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, target)
        sync_folder(target.parent)
    except BaseException:
        for part in (temp, *(Path(f"{temp}{suffix}") for suffix in _SIDE_FILES)):
            try:
                part.unlink(missing_ok=True)
            except OSError:
                _LEFT_BEHIND.add(part)  # a failing stick: the next backup removes it
        raise
    return target


def make_backup(source: str | os.PathLike | sqlite3.Connection, ledger_path: str | os.PathLike, reason: str, *,
                keep: int = KEEP, folder: Path | None = None, gate: Callable[[], None] | None = None) -> Path:
    """A backup of the ledger ``source`` (its file, or a connection) at its head, in ``folder`` (default: beside
    ``ledger_path``); returns it. The file to bring forward (:mod:`store.rotation`): one a kill cut short (healed
    so), else the oldest once ``keep`` are there; renamed to a fresh name. Else a whole copy. Backups beyond
    ``keep``, and copies a restore kept beyond ``keep``, are removed, oldest first. ``gate``: as :func:`copy_database`."""
    folder = backup_folder(ledger_path) if folder is None else Path(folder)
    private_folder(folder)
    stem = Path(ledger_path).stem
    target = folder / f"{stem}-{time.strftime('%Y%m%d-%H%M%S')}-{time.time_ns() % 10**9:09d}-{reason}.db"
    clean_stale_files(ledger_path, folders=(folder,))
    own = [b for b in list_backups(ledger_path, folder) if not is_kept_copy(b)]
    candidate = next((b for b in own if cut_short(b)), own[-1] if len(own) >= keep else None)
    _write_backup(source, candidate, target, gate)
    _prune(ledger_path, folder, keep)
    return target


def _write_backup(source: str | os.PathLike | sqlite3.Connection, candidate: Path | None, target: Path,
                  gate: Callable[[], None] | None = None) -> None:
    """Make ``target`` the backup of ``source``: ``candidate`` (an older backup) brought forward and renamed, when
    it can be; else a whole copy, and the candidate removed."""
    if (candidate is not None and not isinstance(source, sqlite3.Connection)
            and bring_forward(candidate, Path(source).expanduser())):
        os.replace(candidate, target)
        touch(target)
        sync_folder(target.parent)
    else:
        copy_database(source, target, gate)
        if candidate is not None:
            remove(candidate)


def _prune(ledger_path: str | os.PathLike, folder: Path, keep: int) -> None:
    """Remove the backups beyond ``keep``, and the copies a restore kept beyond ``keep`` (oldest first), and
    journals their copies left behind."""
    for old in [b for b in list_backups(ledger_path, folder) if not is_kept_copy(b)][keep:]:
        remove(old)
    for old in [b for b in list_backups(ledger_path, folder) if is_kept_copy(b)][keep:]:
        remove(old)
    for journal in orphan_journals(folder, Path(ledger_path).stem):
        journal.unlink(missing_ok=True)


def restore_backup(backup: Path, ledger_path: str | os.PathLike) -> Path | None:
    """Put ``backup`` in place of the ledger file, by rename; the ledger as it was is kept as a backup first.

    The caller holds the writer lock. ``backup`` is only read (``mode=ro``,
    never a journal-mode change), so it stays as it was, the latest still the
    latest. The kept copy holds everything committed, also what still sat in
    the write-ahead log; a ledger too damaged to read is kept file by file
    instead. The ledger and its anchor are switched as one, in three steps
    that each leave a pair that verifies (:func:`_bridge_anchor`): the anchor
    goes back to the last entry both journals share, the staged copy is
    renamed over the ledger, the anchor moves to the restored head. A kill at
    any call leaves the ledger as it was or as restored (tests/crash/test_crash_short.py).
    """
    ledger_path = Path(ledger_path).expanduser()
    if ledger_path.is_symlink():  # the file it points to is restored, never the link replaced by a file
        ledger_path = ledger_path.resolve()
    clean_stale_files(ledger_path)
    kept = None
    staged = ledger_path.with_name(f".{ledger_path.name}.restoring")
    copy_database(backup, staged)
    if ledger_path.exists():
        kept = _keep_before_restore(ledger_path)
    _bridge_anchor(ledger_path, staged)
    note_placed(ledger_path, coming_from=staged)  # both ledgers accepted at this path until the rename is done
    for suffix in ("-wal", "-shm"):
        Path(str(ledger_path) + suffix).unlink(missing_ok=True)
    os.replace(staged, ledger_path)
    sync_folder(ledger_path.parent)
    _reanchor(ledger_path)
    note_placed(ledger_path)
    return kept


def _keep_before_restore(ledger_path: Path) -> Path:
    """Copy the ledger about to be replaced into the backups folder (its WAL folded in and emptied)."""
    folder = backup_folder(ledger_path)
    private_folder(folder)
    stamp = f"{time.strftime('%Y%m%d-%H%M%S')}-{time.time_ns() % 10**9:09d}"
    kept = folder / f"{ledger_path.stem}-{stamp}{KEPT_SUFFIX}"
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
    return kept


def _ledger_head(path: Path) -> tuple[str, sqlite3.Connection] | None:
    """The ledger id and a read-only connection of a readable ledger of this schema, else None."""
    try:
        conn = sqlite3.connect(f"file:{path.resolve()}?mode=ro", uri=True)
    except sqlite3.Error:
        return None
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'ledger_id'").fetchone()
        conn.execute("SELECT seq, hash FROM journal LIMIT 1").fetchall()
    except sqlite3.Error:
        conn.close()
        return None
    if not row or not str(row[0]).isalnum():
        conn.close()
        return None
    return str(row[0]), conn


def _hash_at(conn: sqlite3.Connection, seq: int) -> str | None:
    row = conn.execute("SELECT hash FROM journal WHERE seq = ?", (seq,)).fetchone()
    return row[0] if row else None


def _bridge_anchor(ledger_path: Path, staged: Path) -> None:
    """Before the rename: leave an anchor that both the ledger as it is and the staged one verify against.

    Another ledger (another id): the staged one's anchor is its own file, set now. The same ledger: the
    anchor goes back to the last entry both journals share (the restored tail after it is anchored once in
    place); with none shared, the anchor is removed. A ledger that can't be read has nothing to keep.
    """
    from .keys import Keyring

    new = _ledger_head(staged)
    if new is None:
        return  # a ledger of an earlier schema: it is moved, and anchored, when opened
    old = _ledger_head(ledger_path) if ledger_path.exists() else None
    keyring = Keyring()
    try:
        if old is None or old[0] != new[0]:
            last = new[1].execute("SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1").fetchone()
            if last:
                keyring.set_anchor(new[0], last[0], last[1])
            return
        shared = last_shared(old[1], new[1])
        anchor = keyring.anchor(new[0])
        if anchor is not None and 0 < anchor[0] <= shared and _hash_at(new[1], anchor[0]) == anchor[1]:
            return  # the anchor already lies where both journals agree
        if shared:
            keyring.set_anchor(new[0], shared, _hash_at(new[1], shared) or "")
        else:
            (keyring.folder / f"{new[0]}.anchor").unlink(missing_ok=True)
            sync_folder(keyring.folder)
    finally:
        new[1].close()
        if old is not None:
            old[1].close()


def _reanchor(ledger_path: Path) -> None:
    """The restored journal's head becomes the anchor (the banker chose to go back to it)."""
    from .keys import Keyring

    head = _ledger_head(ledger_path)
    if head is None:
        return  # a ledger of an earlier schema: it is moved, and anchored, when opened
    ledger_id, conn = head
    try:
        last = conn.execute("SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1").fetchone()
    finally:
        conn.close()
    if last:
        Keyring().set_anchor(ledger_id, last[0], last[1])


#: When this process began (about): a partial file older than this was left by a process that is gone.
STARTED = time.time()
#: What SQLite keeps beside a file it writes: a rollback journal, or a write-ahead log and its index.
_SIDE_FILES = ("-journal", "-wal", "-shm")
#: Files a copy of this process failed to remove (a failing stick): removed at the next backup, whatever their age.
_LEFT_BEHIND: set[Path] = set()


def clean_stale_files(ledger_path: str | os.PathLike, keys: Path | None = None, *,
                      folders: tuple[Path, ...] = ()) -> list[Path]:
    """Remove what killed copies left, when older than this process: ``.restoring`` and ``.adopting`` copies beside
    the ledger and their ``.partial`` copies, each with its ``-journal``, ``-wal``, ``-shm``; in the backups folder and
    ``folders`` (the second), ``.partial`` copies of this ledger's name with theirs, and side files beside no backup;
    temporary anchor and key files in ``keys`` (default :func:`~store.keys.key_folder`). A live ledger's ``-wal`` and
    ``-shm`` (any ledger's) never match, nor a backup's beside it; another unit's copy under way on a shared stick
    is newer than this process. Called at every writer's open, backup and restore (the writer's); a temporary file
    of a live process (its id in the name), and a staged key (``<id>.key.adopting``), are left. The files removed."""
    from .keys import key_folder

    ledger_path = Path(ledger_path).expanduser()
    staged = [ledger_path.with_name(f"{dot}.{ledger_path.name}.{what}{partial}") for what in ("restoring", "adopting")
              for dot, partial in (("", ""), (".", ".partial"))]
    candidates = [Path(f"{path}{suffix}") for path in staged for suffix in ("", *_SIDE_FILES)]
    for folder in dict.fromkeys((backup_folder(ledger_path), *map(Path, folders))):
        candidates += _stale_copies(folder, ledger_path.stem) if folder.is_dir() else []
    keys = key_folder() if keys is None else keys
    if keys.is_dir():
        candidates += [p for p in keys.glob(".*.tmp") if not _alive((p.name.split(".") + [""] * 4)[3])]
    return _remove_stale(candidates)


def _stale_copies(folder: Path, stem: str) -> list[Path]:
    """In a backups folder: the ``.partial`` copies of ``stem``'s backups with their side files, and side files
    beside no backup (a kill between the unlinks of a removal)."""
    found = [p for pattern in (".partial", *(f".partial{s}" for s in _SIDE_FILES))
             for p in folder.glob(f".{glob.escape(stem)}-*.db{pattern}")]
    found += [p for suffix in _SIDE_FILES for p in folder.glob(f"{glob.escape(stem)}-*.db{suffix}")
              if not Path(str(p)[:-len(suffix)]).exists()]
    return found


def _remove_stale(candidates) -> list[Path]:
    """Remove each of ``candidates`` that is a symlink or older than this process; the ones removed."""
    removed = []
    for path in candidates:
        try:
            if path.is_symlink() or path in _LEFT_BEHIND or path.lstat().st_mtime < STARTED:
                path.unlink()
                removed.append(path)
        except FileNotFoundError:
            _LEFT_BEHIND.discard(path)
            continue
        except OSError:
            continue  # not ours to remove: left for a person
        _LEFT_BEHIND.discard(path)
    return removed


def _alive(pid: str) -> bool:
    if not pid.isdigit() or int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)
    except OSError as exc:  # not permitted: alive
        return not isinstance(exc, ProcessLookupError)
    return True
