"""The ledger file: its SQLite schema (version 3), opening it privately, all-or-nothing writes, error messages.

A ledger is one SQLite file marked with :data:`APPLICATION_ID`. Version 3
holds the journal (one row per record, each with the keyed chain's hash
over the row before it) and ``meta`` (``schema`` and the ``ledger_id`` that
names its key). A commit touches one table and no index but the rowid's:
one page, one WAL frame (1 KiB pages). Only the rare rows that mark where a
game starts or is restored, snapshots and the chain's start carry ``mark``
and sit in the one small partial index. Version 2 (the same journal plus
an index table of transaction numbers and a ``head`` kept in ``meta`` at
every commit) and version 1 (cards, games and transactions tables) are
moved to version 3 by :mod:`store.migrate` when opened.
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import contextmanager
from pathlib import Path
from collections.abc import Iterator

from banker.errors import CorruptLedger, LedgerError

SCHEMA_VERSION = 3
APPLICATION_ID = 0x4D4F4E4F  # "MONO": marks the file as a banker ledger (every version)
#: Bytes per page of a new ledger: a commit rewrites one page, so small pages wear an SD card least.
PAGE_SIZE = 1024
#: The kinds of row that carry ``mark`` (the partial index).
MARKED = ("new-game", "restore", "snapshot", "chain")

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE journal (
    seq INTEGER PRIMARY KEY,
    game INTEGER,
    tx INTEGER,
    time REAL NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    hash TEXT NOT NULL,
    legacy_hash TEXT,
    mark INTEGER
);
CREATE INDEX journal_marks ON journal (mark) WHERE mark IS NOT NULL
"""

V2_SCHEMA = """
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
TABLES = {"meta", "journal"}
V2_TABLES = {"meta", "journal", "journal_tx"}
V1_TABLES = {"meta", "cards", "deed_tags", "games", "transactions"}

#: A journal row as stored, in this column order.
ROW_COLUMNS = "seq, game, tx, time, kind, body, hash"


def statements() -> list[str]:
    """The statements that create the version 3 tables (``meta`` may exist already)."""
    return [s for s in SCHEMA.split(";") if s.strip()]


def v2_statements() -> list[str]:
    """The statements that create the version 2 tables (a v1 ledger passes through them when moved)."""
    return [s for s in V2_SCHEMA.split(";") if s.strip()]


def file_path(path: str) -> Path:
    return Path(path).expanduser()


def make_folder(path: str) -> None:
    """Create the ledger's folder and every missing parent 0700."""
    from .keys import private_folder

    if path == ":memory:":
        return
    try:
        private_folder(file_path(path).resolve().parent)
    except OSError as exc:
        raise LedgerError(f"cannot create the ledger {path}: {exc.strerror}") from exc


def tighten(path: str) -> None:
    """Make an existing ledger file (and its WAL files) private, 0600, if it is not."""
    for suffix in ("", "-wal", "-shm"):
        part = Path(str(file_path(path)) + suffix)
        try:
            if part.stat().st_mode & 0o077:
                os.chmod(part, 0o600)
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise LedgerError(f"cannot make {part} private: {exc.strerror}") from exc


def connect(path: str, *, create: bool = True) -> sqlite3.Connection:
    """Open the SQLite file at ``path``, WAL and fully synchronous, checkpointed by :mod:`store.upkeep` (not in a
    commit); creating it private (0600 in a 0700 folder).

    ``create=False``: a missing file is an error naming it (commands that only read never make a ledger).
    """
    target, new = path, path == ":memory:"
    if path != ":memory:":
        file = file_path(path)
        if not file.exists():
            if not create:
                raise LedgerError(f"there is no ledger at {path}")
            _create_private(path, file)
            new = True
        elif file.is_dir():
            raise LedgerError(f"{path} is a folder, not a ledger file")
        elif not create and file.stat().st_size == 0:
            raise CorruptLedger(f"{path} is empty: not a banker ledger")
        target = str(file)
        if not create and _read_only_copy(file):
            return sqlite3.connect(f"file:{file}?mode=ro", uri=True, isolation_level=None, timeout=2.0)
    try:
        conn = sqlite3.connect(target, isolation_level=None, timeout=2.0)
        if new:
            conn.execute(f"PRAGMA page_size={PAGE_SIZE}")
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA wal_autocheckpoint=0")  # checkpoints off the commit path: store.upkeep makes them
    except sqlite3.Error as exc:
        raise translate(exc, path, "open") from exc
    return conn


def _create_private(path: str, file: Path) -> None:
    """Create the empty ledger file ``file`` (``path`` as given) private, 0600 in a 0700 folder, unless another
    process just did."""
    make_folder(path)
    try:
        os.close(os.open(file, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except FileExistsError:
        pass
    except OSError as exc:
        raise LedgerError(f"cannot create the ledger {path}: {exc.strerror}") from exc


def _read_only_copy(file: Path) -> bool:
    """A current-schema file in rollback-journal mode (a backup, a restored copy) is read strictly read-only:
    switching it to WAL would write to it (a backup's mtime, a hot journal if killed). So is an SQLite file in that
    mode that is no ledger of an earlier schema (another program's, a damaged one): it is only read to be refused."""
    try:
        with open(file, "rb") as f:
            header = f.read(20)
        if len(header) < 20 or header[18] != 1 or not header.startswith(b"SQLite format 3\0"):
            return False
        conn = sqlite3.connect(f"file:{file}?mode=ro", uri=True)
        try:
            row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        except sqlite3.OperationalError as exc:  # no meta table: not a ledger (refused, as it is); a hot journal's
            return "no such table" in str(exc)  # rollback or a damaged file: opened as before, which says what it is
        finally:
            conn.close()
    except (OSError, sqlite3.Error):
        return False
    return row is None or row[0] not in ("1", "2")  # schemas 1 and 2 are opened as before (the migration's)


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
    needed = {1: V1_TABLES, 2: V2_TABLES, SCHEMA_VERSION: TABLES}.get(version)
    if needed is None:
        raise CorruptLedger(f"{path} has ledger schema {version}; this banker reads {SCHEMA_VERSION}")
    if not needed <= present:
        raise CorruptLedger(f"{path} is not a banker ledger")
    return version


def create(conn: sqlite3.Connection, ledger_id: str) -> None:
    """Lay out an empty version 3 ledger named ``ledger_id`` in the empty database behind ``conn``."""
    with write_transaction(conn):
        for statement in statements():
            conn.execute(statement)
        conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
        conn.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        conn.execute("INSERT INTO meta VALUES ('ledger_id', ?)", (ledger_id,))


def insert_row(conn: sqlite3.Connection, row: tuple, legacy_hash: str | None = None) -> None:
    """Write a journal row (seq, game, tx, time, kind, body, hash). Call inside :func:`write_transaction`."""
    conn.execute("INSERT INTO journal VALUES (?,?,?,?,?,?,?,?,?)",
                 (*row, legacy_hash, 1 if row[4] in MARKED else None))


def insert_v2_row(conn: sqlite3.Connection, row: tuple, tx_ids: list[int], legacy_hash: str | None = None) -> None:
    """Write a schema 2 journal row, index its transaction numbers, make it the head (moving a v1 ledger)."""
    conn.execute("INSERT INTO journal VALUES (?,?,?,?,?,?,?,?)", (*row, legacy_hash))
    conn.executemany("INSERT INTO journal_tx VALUES (?, ?)", [(tx, row[0]) for tx in tx_ids])
    conn.execute("UPDATE meta SET value = ? WHERE key = 'head'", (row[-1],))
