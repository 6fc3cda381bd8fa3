"""A backup's identity and soundness: the ledger id inside the file (never its name), and its whole chain verified.

A backup is whose its ``meta.ledger_id`` says: the rotation, the listing and
``--backup latest`` consider only files of the ledger they serve
(:func:`ledger_id_of`), so two units sharing one stick folder, or a file of
another ledger put among the backups under a backup's name, never touch each
other's. A restore brings in a whole journal, so it verifies the whole
journal (:func:`chain_problems`: the store's own verify, every row's keyed
hash and the content's replay), not only its head.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path

from banker.audit.findings import Problem


def in_wal_mode(file: Path) -> bool:
    """True when the SQLite file's header says WAL (its read and write versions 2)."""
    try:
        with open(file, "rb") as f:
            header = f.read(20)
    except OSError:
        return False
    return len(header) == 20 and header[18] == 2


def ledger_id_of(path: Path) -> str | None:
    """The ledger id inside the regular file at ``path`` (read only, never following a symlink, never waiting on a
    FIFO), or None: not a regular file, not a ledger of this schema, or unreadable."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return None
        file = Path(path).resolve()
        # a live ledger (WAL) is read as its readers read it, so that the last close removes its -wal and -shm
        conn = sqlite3.connect(f"file:{file}?mode={'rw' if in_wal_mode(file) else 'ro'}", uri=True)
    except (OSError, sqlite3.Error):
        return None
    try:
        conn.execute("PRAGMA query_only=ON")
        row = conn.execute("SELECT value FROM meta WHERE key = 'ledger_id'").fetchone()
    except sqlite3.Error:
        return None
    finally:
        conn.close()
    return str(row[0]) if row and str(row[0]).isalnum() else None


class _Unanchored:
    """The keyring as a backup's verify sees it: its key, but no anchor (the anchor is the live ledger's head,
    which a backup of an earlier point in time never reaches)."""

    def __init__(self, keyring) -> None:
        self._keyring = keyring

    def anchor(self, ledger_id: str) -> None:
        return None

    def __getattr__(self, name: str):
        return getattr(self._keyring, name)


def chain_problems(path: Path, keyring) -> list[Problem]:
    """Every problem the store's verify finds in the ledger file at ``path`` with the key kept in ``keyring``
    (every row's keyed hash, missing rows, the money's replay); read only, nothing written."""
    from .sqlite_store import SqliteStore

    with SqliteStore(path, writer=False, backups=False, keyring=_Unanchored(keyring)) as store:
        return list(store.verify().problems)
