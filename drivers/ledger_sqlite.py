"""The durable ledger: the journal of games, cards and transactions in one SQLite file.

Every transaction is one row, committed in its own SQLite transaction (WAL,
``synchronous=FULL``) before :meth:`SqliteLedger.post` returns, so a power cut
leaves either the whole transaction or none of it. Each row carries a SHA-256
chained over the previous row, so an edited or deleted row is detectable.
Balances are folded from the journal when a game is opened and kept as a
cache that :meth:`SqliteLedger.check` compares against a fresh fold.

>>> with SqliteLedger(":memory:") as ledger:
...     alice = ledger.enrol("Alice", "04A1B2C3")
...     ledger.balance(alice.id)
15000000
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Callable, Iterator

from banker.errors import CorruptLedger, LedgerError, Refused
from banker.ledger import (
    BANK,
    Card,
    Game,
    GameSettings,
    Posting,
    Transaction,
    check_enrolment,
    fold_balances,
    normalise_uid,
)

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
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    started REAL NOT NULL,
    start_balance INTEGER NOT NULL,
    go_salary INTEGER NOT NULL,
    allow_negative INTEGER NOT NULL
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
);
"""


def _encode_postings(postings: tuple[Posting, ...]) -> str:
    return json.dumps([[p.payer, p.payee, p.amount, p.kind] for p in postings], separators=(",", ":"))


def _decode_postings(text: str) -> tuple[Posting, ...]:
    return tuple(Posting(payer, payee, amount, kind) for payer, payee, amount, kind in json.loads(text))


def chain_hash(previous: str, row: tuple) -> str:
    """The hash of a journal row (id, game, time, kind, memo, reverses, postings, changes) after ``previous``."""
    material = json.dumps([previous, *row], separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(material.encode()).hexdigest()


class SqliteLedger:
    """The ledger port over SQLite. ``path`` is a file, or ``":memory:"`` for a throw-away game.

    A new file is created private (0600, its folder 0700) with one game started.
    ``clock`` gives wall-clock time (epoch seconds) for the journal's stamps.
    Raises :class:`CorruptLedger` when the file is not a banker ledger, and
    :class:`LedgerError` when it cannot be opened.
    """

    def __init__(self, path: str | os.PathLike = ":memory:", *, clock: Callable[[], float] = time.time) -> None:
        self.path = str(path)
        self._clock = clock
        self._conn = self._connect()
        self._cards: list[Card] = []
        self._balances: dict[int, int] = {}
        self._game: Game | None = None
        self._last_hash = ""
        self._load()

    # -- opening -------------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        if self.path != ":memory:":
            folder = Path(self.path).expanduser().resolve().parent
            try:
                folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            except OSError as exc:
                raise LedgerError(f"cannot create the ledger's folder {folder}: {exc.strerror}") from exc
            new = not Path(self.path).exists()
            if new:
                try:
                    os.close(os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600))
                except OSError as exc:
                    raise LedgerError(f"cannot create the ledger {self.path}: {exc.strerror}") from exc
        try:
            conn = sqlite3.connect(self.path, isolation_level=None, timeout=2.0)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
        except sqlite3.DatabaseError as exc:
            raise self._translate(exc, "open") from exc
        return conn

    def _translate(self, exc: sqlite3.Error, doing: str) -> LedgerError:
        text = str(exc)
        if isinstance(exc, sqlite3.DatabaseError) and ("not a database" in text or "malformed" in text):
            return CorruptLedger(f"{self.path} is corrupt or not a banker ledger ({text})")
        if "locked" in text or "busy" in text:
            return LedgerError(f"{self.path} is locked by another program ({text})")
        if "full" in text:
            return LedgerError(f"the disk is full: cannot {doing} {self.path}")
        return LedgerError(f"cannot {doing} {self.path}: {text}")

    def _load(self) -> None:
        try:
            app_id = self._conn.execute("PRAGMA application_id").fetchone()[0]
            tables = {r[0] for r in self._conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if not tables:
                self._create()
            elif app_id != APPLICATION_ID or not {"meta", "cards", "games", "transactions"} <= tables:
                raise CorruptLedger(f"{self.path} is not a banker ledger")
            version = int(self._meta("schema"))
            if version != SCHEMA_VERSION:
                raise CorruptLedger(f"{self.path} has ledger schema {version}; this banker reads {SCHEMA_VERSION}")
            self._reload()
        except sqlite3.Error as exc:
            raise self._translate(exc, "read") from exc

    def _create(self) -> None:
        with self._transaction():
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    self._conn.execute(statement)
            self._conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
            self._conn.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            self._insert_game(GameSettings())

    def _reload(self) -> None:
        """Read the cards and the current game's journal into the caches."""
        rows = self._conn.execute("SELECT id, uid, name FROM cards WHERE removed = 0 ORDER BY id")
        self._cards = [Card(*row) for row in rows]
        self._game = self._read_game(int(self._meta("current_game")))
        self._balances = fold_balances(self.transactions(self._game.id))
        last = self._conn.execute("SELECT hash FROM transactions ORDER BY id DESC LIMIT 1").fetchone()
        self._last_hash = last[0] if last else ""

    def _meta(self, key: str) -> str:
        row = self._conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        if row is None:
            raise CorruptLedger(f"{self.path} has no {key!r} entry")
        return row[0]

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any error: all or nothing."""
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")

    # -- reading -------------------------------------------------------------------------

    def game(self) -> Game:
        assert self._game is not None
        return self._game

    def _read_game(self, game_id: int) -> Game:
        row = self._conn.execute(
            "SELECT id, started, start_balance, go_salary, allow_negative FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        if row is None:
            raise LedgerError(f"there is no game {game_id}")
        gid, started, start, go, negative = row
        count = self._conn.execute("SELECT count(*) FROM transactions WHERE game = ?", (gid,)).fetchone()[0]
        current = self._conn.execute("SELECT value FROM meta WHERE key='current_game'").fetchone()
        return Game(gid, GameSettings(start, go, bool(negative)), started, bool(current and int(current[0]) == gid), count)

    def games(self) -> list[Game]:
        """Every game in the ledger, oldest first (archived ones included)."""
        ids = [r[0] for r in self._conn.execute("SELECT id FROM games ORDER BY id")]
        return [self._read_game(gid) for gid in ids]

    def cards(self) -> list[Card]:
        return list(self._cards)

    def card_by_uid(self, uid: str) -> Card | None:
        return next((c for c in self._cards if c.uid == uid), None)

    def card_by_name(self, name: str) -> Card | None:
        return next((c for c in self._cards if c.name.casefold() == name.casefold()), None)

    def balance(self, card_id: int) -> int:
        return self._balances.get(card_id, 0)

    def balances(self) -> dict[str, int]:
        """Each enrolled card's balance in the current game, by player name."""
        return {c.name: self.balance(c.id) for c in self._cards}

    def transactions(self, game_id: int | None = None) -> list[Transaction]:
        """The journal of ``game_id`` (default: the current game), in order."""
        gid = self.game().id if game_id is None else game_id
        rows = self._conn.execute(
            "SELECT id, game, time, kind, memo, reverses, postings, changes FROM transactions"
            " WHERE game = ? ORDER BY id",
            (gid,),
        )
        return [
            Transaction(kind, _decode_postings(postings), memo, reverses, tuple(map(tuple, json.loads(changes))), tid, game, stamp)
            for tid, game, stamp, kind, memo, reverses, postings, changes in rows
        ]

    def card_names(self) -> dict[int, str]:
        """Every card id ever enrolled (removed ones too) with its name, for showing the journal."""
        return {cid: name for cid, name in self._conn.execute("SELECT id, name FROM cards")}

    def setting(self, key: str, default: str | None = None) -> str | None:
        row = self._conn.execute("SELECT value FROM meta WHERE key = ?", ("setting." + key,)).fetchone()
        return row[0] if row else default

    def check(self) -> None:
        """Raise :class:`CorruptLedger` if the balance cache differs from a fresh fold of the journal."""
        fresh = fold_balances(self.transactions())
        cached = {k: v for k, v in self._balances.items() if v}
        if {k: v for k, v in fresh.items() if v} != cached:
            raise CorruptLedger("the balance cache differs from the journal")

    # -- writing -------------------------------------------------------------------------

    def post(self, tx: Transaction) -> Transaction:
        """Commit ``tx`` to the current game; returns it with its id, game and time."""
        return self._commit([tx])[0]

    def _commit(self, txs: list[Transaction], before: Callable[[], None] | None = None) -> list[Transaction]:
        """Write ``txs`` (and whatever ``before`` writes) in one SQLite transaction, then update the caches."""
        written: list[Transaction] = []
        last_hash = self._last_hash
        try:
            with self._transaction():
                if before is not None:
                    before()
                game = self.game().id
                for tx in txs:
                    stamp = self._clock()
                    tid = self._next_id()
                    row = (tid, game, stamp, tx.kind, tx.memo, tx.reverses, _encode_postings(tx.postings), json.dumps(tx.changes))
                    last_hash = chain_hash(last_hash, row)
                    self._conn.execute("INSERT INTO transactions VALUES (?,?,?,?,?,?,?,?,?)", (*row, last_hash))
                    written.append(Transaction(tx.kind, tx.postings, tx.memo, tx.reverses, tx.changes, tid, game, stamp))
        except sqlite3.Error as exc:
            raise self._translate(exc, "write to") from exc
        self._last_hash = last_hash
        for tx in written:
            for cid, delta in fold_balances([tx]).items():
                self._balances[cid] = self._balances.get(cid, 0) + delta
        current = self.game()
        if before is None and current.id == game:
            self._game = replace(current, transactions=current.transactions + len(written))
        else:
            self._game = self._read_game(game)
        return written

    def _next_id(self) -> int:
        return (self._conn.execute("SELECT max(id) FROM transactions").fetchone()[0] or 0) + 1

    def enrol(self, name: str, uid: str) -> Card:
        """Enrol a card for ``name`` and give it the current game's start balance, in one commit."""
        uid = normalise_uid(uid)
        name = name.strip()
        check_enrolment(self._cards, name, uid)
        card_id = (self._conn.execute("SELECT max(id) FROM cards").fetchone()[0] or 0) + 1

        def insert_card() -> None:
            self._conn.execute("INSERT INTO cards VALUES (?,?,?,?,0)", (card_id, uid, name, self._clock()))

        opening = Transaction("opening", (Posting(BANK, card_id, self.game().settings.start_balance, "opening"),), f"{name} joins")
        self._commit([opening], before=insert_card)
        card = Card(card_id, uid, name)
        self._cards.append(card)
        return card

    def rename(self, name: str, new_name: str) -> Card:
        card = self._card_named(name)
        new_name = new_name.strip()
        check_enrolment([c for c in self._cards if c.id != card.id], new_name, card.uid)
        self._write("UPDATE cards SET name = ? WHERE id = ?", (new_name, card.id))
        self._cards = [Card(c.id, c.uid, new_name) if c.id == card.id else c for c in self._cards]
        return Card(card.id, card.uid, new_name)

    def remove(self, name: str) -> Card:
        """Retire a card: it leaves the list of players; its journal entries stay."""
        card = self._card_named(name)
        self._write("UPDATE cards SET removed = 1 WHERE id = ?", (card.id,))
        self._cards = [c for c in self._cards if c.id != card.id]
        return card

    def _card_named(self, name: str) -> Card:
        card = self.card_by_name(name)
        if card is None:
            raise Refused(f"no card is enrolled as {name!r}")
        return card

    def _write(self, sql: str, args: tuple) -> None:
        try:
            with self._transaction():
                self._conn.execute(sql, args)
        except sqlite3.Error as exc:
            raise self._translate(exc, "write to") from exc

    def set_setting(self, key: str, value: str) -> None:
        self._write("INSERT OR REPLACE INTO meta VALUES (?, ?)", ("setting." + key, value))

    def _insert_game(self, settings: GameSettings) -> int:
        cur = self._conn.execute(
            "INSERT INTO games (started, start_balance, go_salary, allow_negative) VALUES (?,?,?,?)",
            (self._clock(), settings.start_balance, settings.go_salary, int(settings.allow_negative)),
        )
        gid = cur.lastrowid
        self._conn.execute("INSERT OR REPLACE INTO meta VALUES ('current_game', ?)", (str(gid),))
        return gid

    def new_game(self, settings: GameSettings | None = None) -> Game:
        """Archive the current game and start a new one: every enrolled card at the start balance.

        The archive, the new game and every opening balance are one commit.
        """
        settings = settings or self.game().settings
        old_game, old_balances = self._game, self._balances
        holder: dict[str, int] = {}

        def start() -> None:
            holder["id"] = self._insert_game(settings)
            self._game = Game(holder["id"], settings, self._clock(), True)

        openings = [
            Transaction("opening", (Posting(BANK, c.id, settings.start_balance, "opening"),), f"{c.name} starts")
            for c in self._cards
        ]
        self._balances = {}
        try:
            self._commit(openings, before=start)
        except BaseException:
            self._game, self._balances = old_game, old_balances
            raise
        return self.game()

    def restore_game(self, game_id: int) -> Game:
        """Make an archived game current again (the present one stays archived)."""
        self._read_game(game_id)
        self._write("INSERT OR REPLACE INTO meta VALUES ('current_game', ?)", (str(game_id),))
        self._reload()
        return self.game()

    def journal_rows(self) -> Iterator[tuple]:
        """Every journal row of every game with its stored hash, for verification."""
        yield from self._conn.execute(
            "SELECT id, game, time, kind, memo, reverses, postings, changes, hash FROM transactions ORDER BY id"
        )

    # -- lifetime ------------------------------------------------------------------------

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> "SqliteLedger":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
