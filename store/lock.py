"""The writer lock: one program at a time writes to a ledger file (readers need no lock).

The running unit folds the journal into memory and acts on those figures, so
a second writer would act on a game it never saw: it is refused instead. The
lock is an ``flock`` on ``<ledger>.lock``, held by an open descriptor, so a
killed program never leaves it behind.
"""

from __future__ import annotations

import os
from pathlib import Path

from banker.errors import LedgerError


class LedgerInUse(LedgerError):
    """Another program (a running unit, the simulator) is writing to this ledger."""


def take_writer_lock(path: str) -> int | None:
    """Become the one program writing to the ledger at ``path``; returns the lock's file descriptor.

    None for ``":memory:"`` (nothing to share). Raises :class:`LedgerInUse`
    when another program holds the lock.
    """
    if path == ":memory:":
        return None
    import fcntl

    lock_path = str(Path(path).expanduser()) + ".lock"
    try:
        fd = os.open(lock_path, os.O_CREAT | os.O_RDWR, 0o600)
    except OSError as exc:
        raise LedgerError(f"cannot create the ledger {path}: {exc.strerror}") from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise LedgerInUse(f"{path} is in use by a running unit (banker run or banker sim): stop it first, "
                          "or read with list/show/export/verify") from None
    return fd


def release_writer_lock(fd: int | None) -> None:
    """Give the lock taken by :func:`take_writer_lock` back (None: nothing to do)."""
    if fd is not None:
        os.close(fd)
