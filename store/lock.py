"""The writer lock: one program at a time writes to a ledger file, whatever path names it (readers need no lock).

The running unit folds the journal into memory and acts on those figures, so
a second writer would act on a game it never saw: it is refused instead. The
lock is an ``flock`` on the ledger file itself, so a symlink, a hard link or
a relative path reaches the same lock, and a killed program never leaves it
behind (no lock file is made). ``flock`` locks are apart from the POSIX
locks SQLite takes on the same file; the descriptor is never closed while
the process lives (closing any descriptor of a file drops that process's
POSIX locks on it, SQLite's included), only unlocked, and kept for the next
writer of the same file in this process.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from banker.errors import LedgerError


class LedgerInUse(LedgerError):
    """Another program (a running unit, the simulator) is writing to this ledger."""


_guard = threading.Lock()
_descriptors: dict[tuple[int, int], int] = {}  # (device, inode) -> a descriptor kept open
_held: set[tuple[int, int]] = set()


class WriterLock:
    """The lock held on one ledger file (by its device and inode)."""

    def __init__(self, identity: tuple[int, int], fd: int) -> None:
        self.identity, self.fd = identity, fd

    def release(self) -> None:
        import fcntl

        with _guard:
            if self.identity in _held:
                fcntl.flock(self.fd, fcntl.LOCK_UN)
                _held.discard(self.identity)


def _in_use(path: str) -> LedgerInUse:
    return LedgerInUse(f"{path} is in use by a running unit (banker run or banker sim): stop it first, "
                       "or read with list/show/export/verify")


def take_writer_lock(path: str) -> WriterLock | None:
    """Become the one program writing to the ledger file at ``path`` (which must exist); None for ``":memory:"``.

    Raises :class:`LedgerInUse` when another program, or another writer in
    this one, holds it.
    """
    if path == ":memory:":
        return None
    import fcntl

    file = Path(path).expanduser()
    try:
        info = os.stat(file)
    except OSError as exc:
        raise LedgerError(f"cannot open the ledger {path}: {exc.strerror}") from exc
    identity = (info.st_dev, info.st_ino)
    with _guard:
        fd = _descriptors.get(identity)
        if fd is None:  # opened once per file and process, never closed (see above)
            try:
                fd = os.open(file, os.O_RDONLY | os.O_CLOEXEC)
            except OSError as exc:
                raise LedgerError(f"cannot open the ledger {path}: {exc.strerror}") from exc
            _descriptors[identity] = fd
        if identity in _held:
            raise _in_use(path)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise _in_use(path) from None
        _held.add(identity)
    return WriterLock(identity, fd)


def release_writer_lock(lock: WriterLock | None) -> None:
    """Give the lock taken by :func:`take_writer_lock` back (None: nothing to do)."""
    if lock is not None:
        lock.release()
