"""Incremental backups: an older backup file brought forward to the ledger's head, writing only what is new.

The journal is append-only (rows keyed by ``seq``, each with the keyed
chain's hash over the row before it); only a restore makes the ledger's
journal leave an earlier prefix. So a backup file of the same ledger and
schema is brought to the ledger's head in one SQLite transaction on the
backup file (rollback journal, ``synchronous=FULL``): where its last row's
hash is the ledger's at that entry the two agree up to there (the chain makes
likeness a prefix); else the last shared entry is found by bisection and the
backup's rows after it deleted. Then the ledger's rows after it are copied in
from a read-only view of the live ledger (``ATTACH ... mode=ro``: the unit
goes on writing meanwhile) and ``meta`` made the ledger's. What is written is
the new rows' pages and the few pages on the way to them, never the ledger.

A kill at any point leaves the file with a hot ``-journal``: SQLite rolls it
back to the backup it was at the next read-write open (:func:`bring_forward`
does, first thing), and until then :func:`cut_short` marks it, so it is never
taken for a good backup. Another ledger's file, one of an earlier schema, or a
damaged one is not brought forward: the caller makes a whole copy instead.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from urllib.parse import quote

from .schema import APPLICATION_ID, SCHEMA_VERSION


def journal_of(path: Path) -> Path:
    """The rollback journal SQLite keeps beside ``path`` while a transaction on it is under way."""
    return Path(f"{path}-journal")


def cut_short(path: Path) -> bool:
    """True when ``path`` has a rollback journal beside it: being brought forward, or cut short by a kill (then it
    is rolled back, healed, by the next backup). Such a file is never a good backup until then."""
    return journal_of(path).exists()


def uri(path: Path, mode: str | None = None) -> str:
    return f"file:{quote(str(Path(path).resolve()))}" + (f"?mode={mode}" if mode else "")


def _hash_at(conn: sqlite3.Connection, seq: int, schema: str = "main") -> str | None:
    row = conn.execute(f"SELECT hash FROM {schema}.journal WHERE seq = ?", (seq,)).fetchone()
    return row[0] if row else None


def _last_seq(conn: sqlite3.Connection, schema: str = "main") -> int:
    return conn.execute(f"SELECT coalesce(max(seq), 0) FROM {schema}.journal").fetchone()[0]


def last_shared(old: sqlite3.Connection, new: sqlite3.Connection, old_schema: str = "main",
                new_schema: str = "main") -> int:
    """The last entry number the two journals hold alike (0: none). The chain makes likeness a prefix: bisect."""
    last = min(_last_seq(old, old_schema), _last_seq(new, new_schema))
    if last and _hash_at(old, last, old_schema) == _hash_at(new, last, new_schema):
        return last  # the usual case: one journal is a prefix of the other
    low, high = 0, last  # entries up to low are alike; past high they differ
    while low < high:
        middle = (low + high + 1) // 2
        found = _hash_at(old, middle, old_schema)
        if found is not None and found == _hash_at(new, middle, new_schema):
            low = middle
        else:
            high = middle - 1
    return low


def _fits(conn: sqlite3.Connection) -> bool:
    """The backup (main) and the ledger (live) are the same ledger, of this schema, with the same journal table."""
    if conn.execute("PRAGMA main.application_id").fetchone()[0] != APPLICATION_ID:
        return False
    found = {}
    for schema in ("main", "live"):
        tables = dict(conn.execute(f"SELECT name, sql FROM {schema}.sqlite_master WHERE type = 'table'").fetchall())
        if "journal" not in tables or "meta" not in tables:
            return False
        meta = dict(conn.execute(f"SELECT key, value FROM {schema}.meta WHERE key IN ('schema', 'ledger_id')"))
        found[schema] = (tables["journal"], meta.get("schema"), meta.get("ledger_id"))
    return found["main"] == found["live"] and found["main"][1] == str(SCHEMA_VERSION) and bool(found["main"][2])


def bring_forward(backup: Path, ledger: Path) -> bool:
    """Bring the backup file ``backup`` to the head of the ledger file ``ledger``, in one transaction on it.

    A hot journal a kill left beside ``backup`` is rolled back first (SQLite
    does it at the first read). False, with ``backup`` as it was (or rolled
    back), when it can't be brought forward: another ledger's, an earlier
    schema, damaged (not SQLite, or not the size its header says: reading every page
    would cost what a whole copy does; :func:`~store.backups.latest_good_backup` checks them all before a restore);
    then the caller makes a whole copy. An error reading the
    live ledger, or writing (a full disk), raises :class:`sqlite3.Error` or
    :class:`OSError` with the transaction rolled back.
    """
    try:
        conn = sqlite3.connect(uri(backup, "rw"), uri=True, isolation_level=None, timeout=5.0)
    except sqlite3.Error:
        return False
    try:
        try:
            conn.execute("PRAGMA journal_mode=DELETE")  # also rolls back a hot journal a kill left
            conn.execute("PRAGMA synchronous=FULL")
            pages, size = (conn.execute(f"PRAGMA {what}").fetchone()[0] for what in ("page_count", "page_size"))
            if pages * size != backup.stat().st_size:
                return False  # cut or grown by something else: a whole copy replaces it
        except sqlite3.DatabaseError:
            return False  # not an SQLite file, or damaged: a whole copy replaces it
        conn.execute("ATTACH DATABASE ? AS live", (uri(ledger, "ro"),))
        conn.execute("BEGIN")  # deferred: a read snapshot of the live ledger, and a write lock on the backup only
        try:
            if not _fits(conn):
                conn.execute("ROLLBACK")
                return False
            _copy_new(conn)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        conn.execute("DETACH DATABASE live")
    finally:
        conn.close()
    return True


def _copy_new(conn: sqlite3.Connection) -> None:
    """Inside the transaction: the backup's rows past the last shared entry deleted, the ledger's copied in, and
    ``meta`` made the ledger's."""
    shared = last_shared(conn, conn, "main", "live")
    if _last_seq(conn, "main") > shared:
        conn.execute("DELETE FROM main.journal WHERE seq > ?", (shared,))  # after a restore: back to the fork
    conn.execute("INSERT INTO main.journal SELECT * FROM live.journal WHERE seq > ?", (shared,))
    conn.execute("DELETE FROM main.meta WHERE key NOT IN (SELECT key FROM live.meta)")
    conn.execute("INSERT OR REPLACE INTO main.meta SELECT key, value FROM live.meta "
                 "EXCEPT SELECT key, value FROM main.meta")


def remove(path: Path) -> None:
    """Remove a backup file, then its journal (the other way round a kill could leave a half-written file whose
    journal is gone, taken for good)."""
    path.unlink(missing_ok=True)
    journal_of(path).unlink(missing_ok=True)


def orphan_journals(folder: Path, stem: str) -> list[Path]:
    """Journals left beside no backup (a kill between the two unlinks of :func:`remove`)."""
    return [j for j in folder.glob(f"{stem}-*.db-journal") if not Path(str(j)[:-len("-journal")]).exists()]


def touch(path: Path) -> None:
    """Make ``path`` the newest by its time (the listing's order), whether or not the transaction wrote to it."""
    try:
        os.utime(path)
    except OSError:
        pass
