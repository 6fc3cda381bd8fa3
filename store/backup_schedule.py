"""The ledger's backup schedule, on a thread of its own: to the folder beside the ledger, and to a second one.

A backup is made at each new game and every :data:`~store.backups.INTERVAL_SECONDS` of play in which something
was written (:mod:`store.backups`: the oldest of the rotation brought forward to the ledger's head). With a second
folder set (``[backups] second_folder``: a USB stick's folder, docs/backups.md) the same backup is made there
too, kept the same way. That folder is used only while it is there, writable and on another device than the
ledger (an unplugged stick's empty mount point is on the SD card): else :attr:`Backups.error` says why, the same
words until it changes (the unit shows it once), and the next backup tries again.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

from .backups import INTERVAL_SECONDS, KEEP, is_kept_copy, list_backups, make_backup


def device_of(path: Path) -> int:
    """The device a file or folder is on (``st_dev``): tests stand a folder on "another device" through it."""
    return os.stat(path).st_dev


def _nearest(path: Path) -> Path:
    while not path.exists() and path.parent != path:
        path = path.parent
    return path


def second_folder_problem(folder: Path, ledger_path: str | os.PathLike, *, keep: int = KEEP,
                          space: bool = False) -> str | None:
    """Why backups can't go to the second ``folder`` now (None: they can). ``space``: also whether it has room for
    the ``keep`` backups it would hold (about the ledger's size each), as ``banker doctor`` asks."""
    ledger = Path(ledger_path).expanduser().resolve()
    if not folder.is_dir():
        return f"the second backup folder {folder} is not there (the USB stick unplugged, or not mounted?)"
    if device_of(folder) == device_of(_nearest(ledger.parent)):
        return (f"the second backup folder {folder} is on the same device as the ledger (the USB stick not mounted? "
                "its empty mount point is on the SD card)")
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"the second backup folder {folder} can't be written (its owner or mode?)"
    if space:
        size = ledger.stat().st_size if ledger.is_file() else 0
        held = sum(p.stat().st_size for p in list_backups(ledger, folder) if not is_kept_copy(p))
        need = max(size, size * keep - held)
        free = shutil.disk_usage(folder).free
        if free < need:
            return (f"the second backup folder {folder} has {free / 1e6:.1f} MB free; its {keep} backups need "
                    f"{need / 1e6:.1f} MB more")
    return None


class Backups:
    """The ledger's backup schedule, carried out on a thread of its own.

    :meth:`due` says whether an interval backup is due (``interval`` seconds
    since the last, and the journal grown since); :meth:`start` begins one
    in the background unless one is under way; :meth:`wait` waits for it.
    :attr:`error` says why the last one failed (a full disk), or why the
    ``second_folder`` can't be used now, else None.
    """

    def __init__(self, ledger_path: str | os.PathLike, *, interval: float = INTERVAL_SECONDS, keep: int = KEEP,
                 clock: Callable[[], float] = time.monotonic, second_folder: str | os.PathLike | None = None) -> None:
        self.path = ledger_path
        self.interval = interval
        self.keep = keep
        self.clock = clock
        self.second = None if second_folder is None else Path(second_folder).expanduser()
        self.last = clock()
        self.failed: str | None = None  # why the last backup beside the ledger failed
        self.second_error: str | None = None  # why the second folder can't be used now
        self.taken: list[Path] = []
        self.seq: int | None = None  # the journal's last entry when the last backup began
        self._thread: threading.Thread | None = None

    @property
    def error(self) -> str | None:
        return self.failed or self.second_error

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
        """Make a backup now, on this thread (and in the second folder, if it can be used: :attr:`second_error`)."""
        self.last = self.clock()
        try:
            path = make_backup(self.path, self.path, reason, keep=self.keep)
            self.taken.append(path)
        finally:
            self.to_second(reason)
        return path

    def to_second(self, reason: str) -> Path | None:
        """The backup in the second folder, when one is set and can be used; else :attr:`second_error` says why."""
        if self.second is None:
            return None
        made = None
        try:
            problem = second_folder_problem(self.second, self.path, keep=self.keep)
            if problem is None:
                made = make_backup(self.path, self.path, reason, keep=self.keep, folder=self.second)
        except (OSError, sqlite3.Error) as exc:  # a stick pulled out mid-way (EIO): its problem, not the backup's
            problem = f"the second backup folder {self.second} can't be written: {exc}"
        self.second_error = problem
        return made

    def _take(self, reason: str, after: Callable[[], None] | None) -> None:
        try:
            self.take(reason)
            self.failed = None
            if after is not None:
                after()
        except (OSError, sqlite3.Error) as exc:
            self.failed = f"backup failed: {exc}"

    def wait(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    def list(self) -> list[Path]:
        """This ledger's backups, newest first."""
        return list_backups(self.path)
