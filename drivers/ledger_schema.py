"""The ledger file: opening it privately, the SQLite schema, how rows encode postings, the journal's hash chain."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from pathlib import Path

from banker.errors import CorruptLedger, LedgerError

from banker.ledger import GameSettings, Posting, Transaction

SCHEMA_VERSION = 1
APPLICATION_ID = 0x4D4F4E4F  # "MONO": marks the file as a banker ledger

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE cards (
    id INTEGER PRIMARY KEY,
    uid TEXT NOT NULL,
    name TEXT NOT NULL,
    enrolled REAL NOT NULL,
    removed INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE deed_tags (uid TEXT PRIMARY KEY, slug TEXT NOT NULL UNIQUE);
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    started REAL NOT NULL,
    start_balance INTEGER NOT NULL,
    go_salary INTEGER NOT NULL,
    allow_negative INTEGER NOT NULL,
    rules TEXT NOT NULL
);
CREATE TABLE transactions (
    id INTEGER PRIMARY KEY,
    game INTEGER NOT NULL REFERENCES games(id),
    time REAL NOT NULL,
    kind TEXT NOT NULL,
    memo TEXT NOT NULL,
    reverses INTEGER,
    postings TEXT NOT NULL,
    changes TEXT NOT NULL,
    hash TEXT NOT NULL
)
"""

TABLES = {"meta", "cards", "deed_tags", "games", "transactions"}
TX_COLUMNS = "id, game, time, kind, memo, reverses, postings, changes"


def statements() -> list[str]:
    return [s for s in SCHEMA.split(";") if s.strip()]


def encode_postings(postings: tuple[Posting, ...]) -> str:
    return json.dumps([[p.payer, p.payee, p.amount, p.kind] for p in postings], separators=(",", ":"))


def decode_postings(text: str) -> tuple[Posting, ...]:
    return tuple(Posting(payer, payee, amount, kind) for payer, payee, amount, kind in json.loads(text))


def encode_changes(changes: tuple[tuple, ...]) -> str:
    return json.dumps([list(c) for c in changes], separators=(",", ":"))


def decode_transaction(row: tuple) -> Transaction:
    tid, game, stamp, kind, memo, reverses, postings, changes = row
    return Transaction(kind, decode_postings(postings), memo, reverses, tuple(map(tuple, json.loads(changes))), tid, game, stamp)


def encode_rules(settings: GameSettings) -> str:
    return json.dumps({"edition": settings.edition, "houses_for_hotel": settings.houses_for_hotel,
                       "income_tax_choice": settings.income_tax_choice, "luxury_tax": settings.luxury_tax},
                      sort_keys=True)


def decode_settings(start: int, go: int, negative: int, rules: str) -> GameSettings:
    try:
        return GameSettings(start, go, bool(negative), **json.loads(rules))
    except (TypeError, ValueError) as exc:
        raise CorruptLedger(f"a game's rules can't be read ({rules!r}): a newer banker's ledger?") from exc


def chain_hash(previous: str, row: tuple) -> str:
    """The hash of a journal row (id, game, time, kind, memo, reverses, postings, changes) after ``previous``."""
    material = json.dumps([previous, *row], separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(material.encode()).hexdigest()


class LedgerInUse(LedgerError):
    """Another program (a running unit, the simulator) is writing to this ledger."""


def take_writer_lock(path: str) -> int | None:
    """Become the one program writing to the ledger at ``path``; returns the lock's file descriptor.

    The running unit keeps balances in memory, so a second writer would
    act on figures it never saw: a second writer is refused instead.
    Reading (listing, exporting, verifying) needs no lock. The lock goes
    with the descriptor, so a killed program never leaves it behind.
    """
    if path == ":memory:":
        return None
    import fcntl

    lock_path = str(Path(path).expanduser()) + ".lock"
    fd = os.open(lock_path, os.O_CREAT | os.O_RDWR, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise LedgerInUse(f"{path} is in use by a running unit (banker run or banker sim): stop it first, "
                          "or read with list/show/export/verify") from None
    return fd


def connect(path: str) -> sqlite3.Connection:
    """Open (creating it private: 0600 in a 0700 folder) the SQLite file at ``path``, WAL and fully synchronous."""
    if path != ":memory:":
        file = Path(path).expanduser()
        try:
            file.resolve().parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            if not file.exists():
                os.close(os.open(file, os.O_CREAT | os.O_WRONLY, 0o600))
        except OSError as exc:
            raise LedgerError(f"cannot create the ledger {path}: {exc.strerror}") from exc
    try:
        conn = sqlite3.connect(path, isolation_level=None, timeout=2.0)
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
