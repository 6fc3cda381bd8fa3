"""The ledger file's layout: the SQLite schema, how rows encode postings, and the journal's hash chain."""

from __future__ import annotations

import hashlib
import json

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
                       "income_tax_choice": settings.income_tax_choice}, sort_keys=True)


def decode_settings(start: int, go: int, negative: int, rules: str) -> GameSettings:
    return GameSettings(start, go, bool(negative), **json.loads(rules))


def chain_hash(previous: str, row: tuple) -> str:
    """The hash of a journal row (id, game, time, kind, memo, reverses, postings, changes) after ``previous``."""
    material = json.dumps([previous, *row], separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(material.encode()).hexdigest()
