"""The ledger's backup schedule, on a thread of its own: to the folder beside the ledger, and to a second one.

A backup is made at each new game and every :data:`~store.backups.INTERVAL_SECONDS` of play in which something
was written (:mod:`store.backups`: the oldest of the rotation brought forward to the ledger's head). With a second
folder set (``[backups] second_folder``: a USB stick's folder, docs/backups.md) the same backup is made there
too, kept the same way. That folder is used only while it is there, writable and on another device than the
ledger (an unplugged stick's empty mount point is on the SD card): else :attr:`Backups.error` says why, the same
words until it changes (the unit shows it once), and the next backup tries again. :attr:`Backups.stick` carries
the cause as data (:class:`StickProblem`: full, read-only, failing, missing; :func:`cause_of` reads it from the
error once, here), for the CLI's line, the unit's screen and the table page (which reads it from
:func:`read_stick_state`: the writer keeps it in a small file among the backups, ``.<stem>.stick``).
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .backups import INTERVAL_SECONDS, KEEP, backup_folder, is_kept_copy, list_backups, make_backup
from .keys import sync_folder

#: The causes a second folder can't take a backup for (:attr:`StickProblem.cause`).
FULL, READ_ONLY, FAILING, MISSING = "full", "read-only", "failing", "missing"
CAUSES = (FULL, READ_ONLY, FAILING, MISSING)
#: What each errno means for the stick (any other: FAILING).
_BY_ERRNO = {errno.ENOSPC: FULL, errno.EDQUOT: FULL, errno.EFBIG: FULL, errno.EROFS: READ_ONLY,
             errno.EACCES: READ_ONLY, errno.EPERM: READ_ONLY, errno.ENOENT: MISSING, errno.ENODEV: MISSING,
             errno.ENXIO: MISSING, errno.ENOTDIR: MISSING, errno.ESTALE: MISSING}
#: What each of SQLite's primary result codes means for it (any other: FAILING).
_BY_SQLITE_CODE = {13: FULL, 8: READ_ONLY, 3: READ_ONLY, 23: READ_ONLY}  # FULL, READONLY, PERM, AUTH


@dataclass(frozen=True)
class StickProblem:
    """Why the second folder can't take a backup now: ``cause`` one of :data:`CAUSES`, ``folder`` the folder,
    ``detail`` the sentence for the log and ``banker doctor``."""

    cause: str
    folder: Path
    detail: str


def cause_of(exc: BaseException, folder: Path) -> str:
    """The cause an error met writing to ``folder`` says: by its errno, or SQLite's result code; a folder gone
    meanwhile is MISSING whatever the error."""
    if not folder.is_dir():
        return MISSING
    number = getattr(exc, "errno", None)
    if isinstance(number, int) and number in _BY_ERRNO:
        return _BY_ERRNO[number]
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return _BY_SQLITE_CODE.get(code & 0xFF, FAILING)
    return FAILING


def device_of(path: Path) -> int:
    """The device a file or folder is on (``st_dev``): tests stand a folder on "another device" through it."""
    return os.stat(path).st_dev


def _nearest(path: Path) -> Path:
    while not path.exists() and path.parent != path:
        path = path.parent
    return path


def second_folder_problem(folder: Path, ledger_path: str | os.PathLike, *, keep: int = KEEP,
                          space: bool = False) -> str | None:
    """Why backups can't go to the second ``folder`` now (None: they can), in a sentence (:func:`second_folder_check`)."""
    problem = second_folder_check(folder, ledger_path, keep=keep, space=space)
    return None if problem is None else problem.detail


def second_folder_check(folder: Path, ledger_path: str | os.PathLike, *, keep: int = KEEP,
                        space: bool = False) -> StickProblem | None:
    """Why backups can't go to the second ``folder`` now (None: they can). ``space``: also whether it has room for
    the ``keep`` backups it would hold (about the ledger's size each), as ``banker doctor`` asks."""
    ledger = Path(ledger_path).expanduser().resolve()
    if not folder.is_dir():
        return StickProblem(MISSING, folder, f"the second backup folder {folder} is not there (the USB stick "
                                             "unplugged, or not mounted?)")
    if device_of(folder) == device_of(_nearest(ledger.parent)):
        return StickProblem(MISSING, folder, f"the second backup folder {folder} is on the same device as the ledger "
                                             "(the USB stick not mounted? its empty mount point is on the SD card)")
    if not os.access(folder, os.W_OK | os.X_OK):
        return StickProblem(READ_ONLY, folder, f"the second backup folder {folder} can't be written (read-only, "
                                               "or its owner or mode?)")
    if space:
        size = ledger.stat().st_size if ledger.is_file() else 0
        held = sum(p.stat().st_size for p in list_backups(ledger, folder) if not is_kept_copy(p))
        need = max(size, size * keep - held)
        free = shutil.disk_usage(folder).free
        if free < need:
            return StickProblem(FULL, folder, f"the second backup folder {folder} has {free / 1e6:.1f} MB free; its "
                                              f"{keep} backups need {need / 1e6:.1f} MB more")
    return None


def stick_state_file(ledger_path: str | os.PathLike) -> Path:
    """Where the writer keeps the second folder's problem for the table page (among the backups beside the ledger)."""
    return backup_folder(ledger_path) / f".{Path(ledger_path).stem}.stick"


def read_stick_state(ledger_path: str | os.PathLike) -> StickProblem | None:
    """The second folder's problem the ledger's writer last met (None: none, or nothing readable)."""
    try:
        data = json.loads(stick_state_file(ledger_path).read_text(encoding="utf-8"))
        problem = StickProblem(str(data["cause"]), Path(data["folder"]), str(data.get("detail", "")))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return problem if problem.cause in CAUSES else None


def _keep_stick_state(ledger_path: str | os.PathLike, problem: StickProblem | None) -> None:
    """Keep ``problem`` in :func:`stick_state_file` (atomically), or remove it (None). Best effort: the page only."""
    file = stick_state_file(ledger_path)
    try:
        if problem is None:
            file.unlink(missing_ok=True)
            return
        temp = file.with_name(f"{file.name}.tmp")  # one writer (its lock): one temporary file at most
        temp.write_text(json.dumps({"cause": problem.cause, "folder": str(problem.folder),
                                    "detail": problem.detail}), encoding="utf-8")
        os.replace(temp, file)
        sync_folder(file.parent)
    except OSError:
        pass


class Backups:
    """The ledger's backup schedule, carried out on a thread of its own.

    :meth:`due` says whether an interval backup is due (``interval`` seconds
    since the last, and the journal grown since); :meth:`start` begins one
    in the background unless one is under way; :meth:`wait` waits for it. ``gate``: see :func:`make_backup`.
    :attr:`error` says why the last one failed (a full disk), or why the
    ``second_folder`` can't be used now, else None; :attr:`stick` is the
    second folder's problem as data (:class:`StickProblem`).
    """

    def __init__(self, ledger_path: str | os.PathLike, *, interval: float = INTERVAL_SECONDS, keep: int = KEEP,
                 clock: Callable[[], float] = time.monotonic, second_folder: str | os.PathLike | None = None,
                 gate: Callable[[], None] | None = None) -> None:
        self.path = ledger_path
        self.gate = gate  # a whole copy is made in steps, each after gate() (store.upkeep: when the unit is quiet)
        self.interval = interval
        self.keep = keep
        self.clock = clock
        self.second = None if second_folder is None else Path(second_folder).expanduser()
        self.last = clock()
        self.failed: str | None = None  # why the last backup beside the ledger failed
        self.stick: StickProblem | None = None  # why the second folder can't be used now
        self._told: StickProblem | None | str = "unknown"  # what the page's file says
        self.taken: list[Path] = []
        self.seq: int | None = None  # the journal's last entry when the last backup began
        self._thread: threading.Thread | None = None

    @property
    def second_error(self) -> str | None:
        """Why the second folder can't be used now, in a sentence (None: it can, or there is none)."""
        return None if self.stick is None else self.stick.detail

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
            path = make_backup(self.path, self.path, reason, keep=self.keep, gate=self.gate)
            self.taken.append(path)
        finally:
            self.to_second(reason)
        return path

    def to_second(self, reason: str) -> Path | None:
        """The backup in the second folder, when one is set and can be used; else :attr:`second_error` says why."""
        if self.second is None:
            self._tell_page(None)  # a second folder no longer set: no old problem shown
            return None
        made = None
        try:
            problem = second_folder_check(self.second, self.path, keep=self.keep)
            if problem is None:
                made = make_backup(self.path, self.path, reason, keep=self.keep, folder=self.second, gate=self.gate)
        except (OSError, sqlite3.Error) as exc:  # a stick pulled out mid-way (EIO): its problem, not the backup's
            problem = StickProblem(cause_of(exc, self.second), self.second,
                                   f"the second backup folder {self.second} can't be written: {exc}")
        self._tell_page(problem)
        self.stick = problem
        return made

    def _tell_page(self, problem: StickProblem | None) -> None:
        if problem != self._told:  # the first time in each process, then on each change
            _keep_stick_state(self.path, problem)
            self._told = problem

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
