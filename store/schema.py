"""The ledger file: its SQLite schema (version 2), opening it privately, all-or-nothing writes, error messages.

A ledger is one SQLite file marked with :data:`APPLICATION_ID`. Version 2
holds the journal (one row per record, each with the chain hash over the
row before it), an index of transaction numbers, and ``meta`` (``schema``
and the chain's ``head``). Version 1 (cards, games and transactions tables
with caches) is moved to version 2 by :mod:`store.migrate` when opened.
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from banker.errors import CorruptLedger, LedgerError

SCHEMA_VERSION = 2
APPLICATION_ID = 0x4D4F4E4F  # "MONO": marks the file as a banker ledger (both versions)

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE journal (
    seq INTEGER PRIMARY KEY,
    game INTEGER,
    tx INTEGER UNIQUE,
    time REAL NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    hash TEXT NOT NULL,
    legacy_hash TEXT
);
CREATE INDEX journal_game ON journal (game, seq);
CREATE TABLE journal_tx (tx INTEGER PRIMARY KEY, seq INTEGER NOT NULL REFERENCES journal(seq))
"""

#: The tables that make a file a ledger of each schema version.
TABLES = {"meta", "journal", "journal_tx"}
V1_TABLES = {"meta", "cards", "deed_tags", "games", "transactions"}

#: A journal row as stored, in this column order.
ROW_COLUMNS = "seq, game, tx, time, kind, body, hash"


def statements() -> list[str]:
    """The statements that create the version 2 tables (``meta`` may exist already)."""
    return [s for s in SCHEMA.split(";") if s.strip()]


def file_path(path: str) -> Path:
    return Path(path).expanduser()


def make_folder(path: str) -> None:
    """Create the ledger's folder (0700) if it is missing."""
    if path == ":memory:":
        return
    try:
        file_path(path).resolve().parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise LedgerError(f"cannot create the ledger {path}: {exc.strerror}") from exc


def connect(path: str) -> sqlite3.Connection:
    """Open (creating it private: 0600 in a 0700 folder) the SQLite file at ``path``, WAL and fully synchronous."""
    target = path
    if path != ":memory:":
        file = file_path(path)
        make_folder(path)
        try:
            if not file.exists():
                os.close(os.open(file, os.O_CREAT | os.O_WRONLY, 0o600))
        except OSError as exc:
            raise LedgerError(f"cannot create the ledger {path}: {exc.strerror}") from exc
        target = str(file)
    try:
        conn = sqlite3.connect(target, isolation_level=None, timeout=2.0)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
    except sqlite3.Error as exc:
        raise translate(exc, path, "open") from exc
    return conn


def translate(exc: sqlite3.Error, path: str, doing: str) -> LedgerError:
    """The ledger error a person can act on for an SQLite error while ``doing`` something to ``path``."""
    text = str(exc)
    if "not a database" in text or "malformed" in text:
        return CorruptLedger(f"{path} is corrupt or not a banker ledger ({text})")
    if "locked" in text or "busy" in text:
        return LedgerError(f"{path} is locked by another program ({text})")
    if "full" in text:
        return LedgerError(f"the disk is full: cannot {doing} {path}")
    return LedgerError(f"cannot {doing} {path}: {text}")


@contextmanager
def write_transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any error: all or nothing."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        try:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass  # the connection is gone: SQLite rolls back what was not committed
        raise


@contextmanager
def read_snapshot(conn: sqlite3.Connection) -> Iterator[None]:
    """Several reads that see one committed state, even while a unit appends beside them."""
    conn.execute("BEGIN DEFERRED")
    try:
        yield
    finally:
        try:
            conn.execute("COMMIT")
        except sqlite3.Error:
            pass  # nothing was written; the read transaction ends with the connection


def tables(conn: sqlite3.Connection) -> set[str]:
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}


def meta(conn: sqlite3.Connection, key: str) -> str | None:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return row[0] if row else None


def schema_version(conn: sqlite3.Connection, path: str) -> int:
    """The schema version a ledger file declares; :class:`CorruptLedger` if it is not a banker ledger."""
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    present = tables(conn)
    if app_id != APPLICATION_ID or "meta" not in present:
        raise CorruptLedger(f"{path} is not a banker ledger")
    text = meta(conn, "schema")
    if text is None:
        raise CorruptLedger(f"{path} has no 'schema' entry")
    try:
        version = int(text)
    except ValueError:
        raise CorruptLedger(f"{path} has ledger schema {text!r}; this banker reads {SCHEMA_VERSION}") from None
    needed = {1: V1_TABLES, SCHEMA_VERSION: TABLES}.get(version)
    if needed is None:
        raise CorruptLedger(f"{path} has ledger schema {version}; this banker reads {SCHEMA_VERSION}")
    if not needed <= present:
        raise CorruptLedger(f"{path} is not a banker ledger")
    return version


def create(conn: sqlite3.Connection) -> None:
    """Lay out an empty version 2 ledger in the empty database behind ``conn``."""
    with write_transaction(conn):
        for statement in statements():
            conn.execute(statement)
        conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
        conn.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        conn.execute("INSERT INTO meta VALUES ('head', '')")


def insert_row(conn: sqlite3.Connection, row: tuple, tx_ids: list[int], legacy_hash: str | None = None) -> None:
    """Write a journal row (seq, game, tx, time, kind, body, hash), index its transaction numbers, make it the head.

    Call inside :func:`write_transaction`.
    """
    conn.execute("INSERT INTO journal VALUES (?,?,?,?,?,?,?,?)", (*row, legacy_hash))
    conn.executemany("INSERT INTO journal_tx VALUES (?, ?)", [(tx, row[0]) for tx in tx_ids])
    conn.execute("UPDATE meta SET value = ? WHERE key = 'head'", (row[-1],))
