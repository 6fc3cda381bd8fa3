"""Moving a ledger of schema 1 (tables of cards, games and transactions) to the journal of records, schema 2.

The records are built so that folding them (:func:`banker.fold.game.replay`)
gives exactly the state the first release showed: v1 transactions are
walked in number order; a game starts (:class:`NewGame`, with the openings
that begin it) before its first transaction; an opening "X joins" is the
enrolment of card X; a transaction of a game other than the current one
follows a :class:`GameRestored` of that game as the walk left it. Renames,
removals, deed tags, settings, the PIN and the current game follow at the
end. A copy of the v1 file is kept as ``<path>.v1-backup`` first, and the
move is one SQLite transaction: it happens whole or not at all.

The v1 hash chain is checked on the way; what is wrong with it (and anything
that had to be left out) is kept in ``meta`` and reported by every
:meth:`store.SqliteStore.verify`. Each record keeps the v1 hashes of the
rows it came from in ``legacy_hash``.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Callable, Mapping

from banker.rules.deeds import Edition
from banker.errors import CorruptLedger, Refused
from banker.fold.game import Game, apply, fold_name, replay
from cards import editions as packaged_editions
from banker.journal.records import (
    Card,
    Checkpoint,
    DeedTag,
    Enrolment,
    GameRestored,
    GameSettings,
    NewGame,
    PinChange,
    Posting,
    Record,
    Removal,
    Rename,
    Setting,
    Transaction,
    kind_of,
    transactions_in,
)

from .backups import copy_database
from .journal import make_v2_row
from .codec import V2_SCHEME, decode_changes, encode, keyed_hash, stamped
from .schema import MARKED, file_path, insert_v2_row, statements, v2_statements, write_transaction

#: The ``meta`` key holding what the move found wrong with the v1 ledger: JSON ``[[tx or null, message], ...]``.
V1_PROBLEMS = "v1-problems"
PIN_KEY = "setting.banker_pin"
_JOINS, _STARTS = " joins", " starts"


@dataclass(frozen=True)
class _V1Tx:
    id: int
    game: int
    time: float
    kind: str
    memo: str
    reverses: int | None
    postings: str
    changes: str
    hash: str


@dataclass(frozen=True)
class _V1Card:
    id: int
    uid: str
    name: str
    enrolled: float
    removed: bool


@dataclass(frozen=True)
class _V1:
    meta: dict[str, str]
    cards: dict[int, _V1Card]
    tags: list[tuple[str, str]]
    games: dict[int, tuple[float, GameSettings]]
    transactions: list[_V1Tx]


def migrate_v1(conn: sqlite3.Connection, path: str, *, clock: Callable[[], float]) -> None:
    """Move the schema 1 ledger behind ``conn`` to schema 2 (the caller holds the writer lock; then :func:`migrate_v2`)."""
    v1 = _read(conn, path)
    problems = _check_chain(v1)
    walk = _Walk(v1, path, problems, _editions_for({s.edition for _, s in v1.games.values()}))
    entries = walk.run(clock)
    if path != ":memory:":
        target = Path(str(file_path(path)) + ".v1-backup")
        target.unlink(missing_ok=True)
        copy_database(conn, target)
    with write_transaction(conn):
        for table in ("transactions", "games", "cards", "deed_tags"):
            conn.execute(f"DROP TABLE {table}")
        conn.execute("DELETE FROM meta")
        for statement in v2_statements():
            conn.execute(statement)
        conn.execute("INSERT INTO meta VALUES ('schema', '2')")
        conn.execute("INSERT INTO meta VALUES ('head', '')")
        conn.execute("INSERT INTO meta VALUES ('migrated-from', '1')")
        if problems:
            conn.execute("INSERT INTO meta VALUES (?, ?)", (V1_PROBLEMS, json.dumps(problems)))
        previous = ""
        for seq, (record, legacy) in enumerate(entries, start=1):
            row = make_v2_row(previous, seq, record)
            insert_v2_row(conn, row, [tx.id for tx in transactions_in(record)], legacy)
            previous = row.hash
    try:
        conn.execute("VACUUM")  # give back the pages of the v1 tables
    except sqlite3.Error:
        pass  # the move is committed; the file is only bigger than it needs to be


def migrate_v2(conn: sqlite3.Connection, path: str, *, key: bytes, ledger_id: str, clock: Callable[[], float]) -> None:
    """Move the schema 2 ledger behind ``conn`` to schema 3, in one SQLite transaction (the caller holds the lock).

    The rows stay as they are, with their unkeyed hashes; the index table
    and the per-commit ``head`` go; a :class:`~banker.journal.records.ChainStart`
    row, the first of the keyed chain, binds the old chain's last hash.
    """
    from banker.journal.records import ChainStart
    from .journal import Row

    with write_transaction(conn):
        head = conn.execute("SELECT value FROM meta WHERE key = 'head'").fetchone()
        head = head[0] if head else ""
        count = conn.execute("SELECT count(*) FROM journal").fetchone()[0]
        last = conn.execute("SELECT max(seq) FROM journal").fetchone()[0] or 0
        conn.execute("ALTER TABLE journal RENAME TO journal_v2")
        conn.execute("DROP INDEX IF EXISTS journal_game")
        conn.execute("DROP TABLE journal_tx")
        for statement in statements():
            conn.execute(statement)
        marked = ",".join(f"'{k}'" for k in MARKED)
        conn.execute("INSERT INTO journal SELECT seq, game, tx, time, kind, body, hash, legacy_hash, "
                     f"CASE WHEN kind IN ({marked}) THEN 1 END FROM journal_v2 ORDER BY seq")
        conn.execute("DROP TABLE journal_v2")
        conn.execute("DELETE FROM meta WHERE key = 'head'")
        conn.execute("UPDATE meta SET value = '3' WHERE key = 'schema'")
        conn.execute("INSERT OR REPLACE INTO meta VALUES ('ledger_id', ?)", (ledger_id,))
        moved_from = conn.execute("SELECT value FROM meta WHERE key = 'migrated-from'").fetchone()
        conn.execute("INSERT OR REPLACE INTO meta VALUES ('migrated-from', ?)",
                     ("1,2" if moved_from and moved_from[0] == "1" else "2",))
        record = stamped(ChainStart(V2_SCHEME, head, count), float(clock()))
        kind, body = encode(record)
        seq = last + 1
        digest = keyed_hash(key, head, seq, None, None, record.time, kind, body)
        conn.execute("INSERT INTO journal VALUES (?,?,?,?,?,?,?,?,?)",
                     (*Row(seq, None, None, record.time, kind, body, digest), None, 1))


# -- reading the v1 file ----------------------------------------------------------------------


def _editions_for(names: set[str]) -> dict[str, Edition]:
    """The editions among ``names`` that this banker has (an unknown one is left out: the move names it)."""
    known = packaged_editions()
    return {name: known[name] for name in names if name in known}


def _read(conn: sqlite3.Connection, path: str) -> _V1:
    meta = dict(conn.execute("SELECT key, value FROM meta"))
    cards = {r[0]: _V1Card(r[0], r[1], r[2], r[3], bool(r[4]))
             for r in conn.execute("SELECT id, uid, name, enrolled, removed FROM cards ORDER BY id")}
    tags = list(conn.execute("SELECT uid, slug FROM deed_tags ORDER BY rowid"))
    games = {}
    for gid, started, start, go, negative, rules in conn.execute(
            "SELECT id, started, start_balance, go_salary, allow_negative, rules FROM games ORDER BY id"):
        try:
            games[gid] = (started, GameSettings(start, go, bool(negative), **json.loads(rules)))
        except (TypeError, ValueError) as exc:
            raise CorruptLedger(f"a game's rules can't be read ({rules!r}): a newer banker's ledger?") from exc
    txs = [_V1Tx(*row) for row in conn.execute(
        "SELECT id, game, time, kind, memo, reverses, postings, changes, hash FROM transactions ORDER BY id")]
    return _V1(meta, cards, tags, games, txs)


def _v1_hash(previous: str, tx: _V1Tx) -> str:
    """The first release's chain hash of a transaction row."""
    row = (tx.id, tx.game, tx.time, tx.kind, tx.memo, tx.reverses, tx.postings, tx.changes)
    return hashlib.sha256(json.dumps([previous, *row], separators=(",", ":"), sort_keys=True).encode()).hexdigest()


def _check_chain(v1: _V1) -> list[list]:
    """What is wrong with the v1 hash chain, as ``[tx or None, message]`` pairs."""
    problems: list[list] = []
    previous = ""
    for tx in v1.transactions:
        if _v1_hash(previous, tx) != tx.hash:
            problems.append([tx.id, "in the schema 1 ledger: edited: its hash does not match its contents "
                                    "and the row before it"])
        previous = tx.hash
    if previous != v1.meta.get("head", ""):
        problems.append([None, "in the schema 1 ledger: the journal's last entries were deleted "
                               "or its head was edited"])
    return problems


def _transaction(tx: _V1Tx, path: str) -> Transaction:
    try:
        postings = tuple(Posting(payer, payee, amount, kind) for payer, payee, amount, kind in json.loads(tx.postings))
        changes = decode_changes(json.loads(tx.changes))
    except (TypeError, ValueError) as exc:
        raise CorruptLedger(f"{path} cannot move to schema 2: transaction #{tx.id} cannot be read ({exc})") from exc
    return Transaction(tx.kind, postings, tx.memo, tx.reverses, changes, tx.id, tx.game, tx.time)


def _starts(tx: _V1Tx) -> bool:
    """An opening balance of a new game ("Alice starts"), as opposed to a card joining ("Alice joins")."""
    return tx.kind == "opening" and tx.memo.endswith(_STARTS)


# -- the walk ---------------------------------------------------------------------------------


class _Walk:
    """Builds the records while folding them, so each one is known to fit the game it goes into."""

    def __init__(self, v1: _V1, path: str, problems: list[list], editions: Mapping[str, Edition]) -> None:
        self.v1, self.path, self.problems = v1, path, problems
        for gid, (_started, settings) in v1.games.items():
            if settings.edition not in editions:
                raise CorruptLedger(f"{path} cannot move to schema 2: game {gid} is of the edition "
                                    f"{settings.edition!r}, which this banker does not have")
        self.game: Game = replay((), editions=editions)
        self.out: list[tuple[Record, str | None]] = []
        self.states: dict[int, Checkpoint] = {}
        self.pending = deque(sorted(v1.games))  # games not started yet, in number order

    def run(self, clock: Callable[[], float]) -> list[tuple[Record, str | None]]:
        txs, i = self.v1.transactions, 0
        while i < len(txs):
            tx = txs[i]
            if tx.game not in self.v1.games:
                raise CorruptLedger(f"{self.path} cannot move to schema 2: transaction #{tx.id} belongs to game "
                                    f"{tx.game}, which does not exist")
            if tx.game in self.pending:
                j = i
                while j < len(txs) and txs[j].game == tx.game and _starts(txs[j]):
                    j += 1
                self._start_games(tx.game, txs[i:j])
                i = j
                continue
            if tx.game != self.game.id:
                self._restore(tx.game, tx.time)
            if tx.kind == "opening" and tx.memo.endswith(_JOINS):
                self._enrol(tx)
            else:
                self.emit(_transaction(tx, self.path), tx.hash)
            i += 1
        if self.pending:
            self._start_games(self.pending[-1], [])
        self._finish(float(clock()))
        return self.out

    def emit(self, record: Record, legacy: str | None = None) -> None:
        try:
            self.game = apply(self.game, record)
        except Refused as exc:
            txs = transactions_in(record)
            what = f"transaction #{txs[0].id}" if txs else f"the {kind_of(record)} record {record!r}"
            raise CorruptLedger(f"{self.path} cannot move to schema 2: {what} does not replay ({exc})") from exc
        self.out.append((record, legacy))

    def _leave(self) -> None:
        if self.game.id:
            self.states[self.game.id] = self.game.checkpoint()

    def _start_games(self, last: int, openings: list[_V1Tx]) -> None:
        """Start every game up to ``last`` not started yet; ``last`` with ``openings``."""
        while self.pending and self.pending[0] <= last:
            gid = self.pending.popleft()
            started, settings = self.v1.games[gid]
            mine = openings if gid == last else []
            self._names_at_start(mine, started)
            self._leave()
            self.emit(NewGame(gid, settings, tuple(_transaction(t, self.path) for t in mine), started),
                      " ".join(t.hash for t in mine) or None)

    def _names_at_start(self, openings: list[_V1Tx], time: float) -> None:
        """A new game's openings name the cards as they were then: catch up renames and removals."""
        if not openings:
            return
        named = {}
        for tx in openings:
            payees = [p.payee for p in _transaction(tx, self.path).postings]
            if len(payees) == 1:
                named[payees[0]] = tx.memo[: -len(_STARTS)]
        for card in self.game.cards:
            if card.id not in named and self.v1.cards[card.id].removed:
                self._retire(card, time)
            elif card.id in named and named[card.id] != card.name:
                self._try(Rename(card.id, named[card.id], time))

    def _try(self, record: Record) -> bool:
        """Emit ``record`` if it fits (a catch-up the final records would also make)."""
        try:
            self.game = apply(self.game, record)
        except Refused:
            return False
        self.out.append((record, None))
        return True

    def _retire(self, card: Card, time: float) -> None:
        """Remove a card early, under the name it had when it was removed."""
        final = self.v1.cards[card.id]
        if final.name != card.name:
            self._try(Rename(card.id, final.name, time))
        self._try(Removal(card.id, time))

    def _restore(self, gid: int, time: float) -> None:
        self._leave()
        self.emit(GameRestored(self.states[gid], time))

    def _enrol(self, tx: _V1Tx) -> None:
        opening = _transaction(tx, self.path)
        payees = {p.payee for p in opening.postings}
        card = self.v1.cards.get(next(iter(payees))) if len(payees) == 1 else None
        if card is None:
            raise CorruptLedger(f"{self.path} cannot move to schema 2: transaction #{tx.id} opens no enrolled card")
        record = Enrolment(Card(card.id, card.uid, tx.memo[: -len(_JOINS)]), opening, card.enrolled)
        try:
            apply(self.game, record)
        except Refused:
            self._clear_way(record.card, card.enrolled)
        self.emit(record, tx.hash)

    def _clear_way(self, new: Card, time: float) -> None:
        """Make the renames and removals that must have come before ``new`` joined (a reused name or card)."""
        for card in self.game.cards:
            final = self.v1.cards[card.id]
            if card.uid == new.uid or fold_name(card.name) == fold_name(new.name):
                if final.removed:
                    self._retire(card, time)
                elif final.name != card.name:
                    self._try(Rename(card.id, final.name, time))
        try:
            apply(self.game, Enrolment(new, Transaction("opening", (), id=self.game.next_tx, game=self.game.id)))
        except Refused:  # too many players: the removed ones had left
            for card in self.game.cards:
                if self.v1.cards[card.id].removed:
                    self._retire(card, time)

    def _finish(self, time: float) -> None:
        """What the v1 tables hold beside the journal: names, removals, deed tags, settings, PIN, current game."""
        self._finish_cards(time)
        self._finish_settings(time)
        current = self.v1.meta.get("current_game")
        if current is not None and current.isdigit() and int(current) != self.game.id:
            if int(current) in self.states:
                self._restore(int(current), time)
            else:
                self._note(f"the current game {current} does not exist: game {self.game.id} is current")

    def _finish_cards(self, time: float) -> None:
        """Each card's last name and its removal, as the v1 cards table holds them."""
        for v1card in self.v1.cards.values():
            card = self.game.card_by_id(v1card.id)
            if v1card.id not in self.game.names:
                self._note(f"card {v1card.id} ({v1card.name}) has no opening balance: it is left out")
                continue
            if card is not None and card.name != v1card.name:
                self.emit(Rename(card.id, v1card.name, time))
            if card is not None and v1card.removed:
                self.emit(Removal(card.id, time))

    def _finish_settings(self, time: float) -> None:
        """The deed tags, the settings and the banker's PIN the v1 tables hold (one that does not fit is noted)."""
        later = [DeedTag(uid, slug, time) for uid, slug in self.v1.tags]
        for key, value in sorted(self.v1.meta.items()):
            if key == PIN_KEY:
                later.append(PinChange(value, time))
            elif key.startswith("setting."):
                later.append(Setting(key[len("setting."):], value, time))
        for record in later:
            if not self._try(record):
                self._note(f"the {kind_of(record)} record {record!r} does not fit: it is left out")

    def _note(self, message: str) -> None:
        self.problems.append([None, f"moving to schema 2: {message}"])
