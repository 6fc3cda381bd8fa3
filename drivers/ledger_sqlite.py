"""The durable ledger: the journal of games, cards and transactions in one SQLite file.

Every transaction is one row, committed in its own SQLite transaction (WAL,
``synchronous=FULL``) before :meth:`SqliteLedger.post` returns, so a power cut
leaves either the whole transaction or none of it. Each row carries a SHA-256
chained over the previous row, and the chain's head is kept beside it, so an
edited or deleted row is detectable. Balances and the estate (deeds,
buildings, mortgages) are folded from the journal when a game is opened and
kept as caches that :meth:`SqliteLedger.check` compares against a fresh fold.

>>> with SqliteLedger(":memory:") as ledger:
...     alice = ledger.enrol("Alice", "04A1B2C3")
...     ledger.balance(alice.id)
15000000
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path
from contextlib import contextmanager
from dataclasses import replace
from typing import Callable, Iterator

from banker.audit import Audit, Problem, audit
from banker.deeds import Edition, load_edition
from banker.errors import CorruptLedger, LedgerError, Refused
from banker.ledger import BANK, Card, Game, GameSettings, Posting, Transaction, check_enrolment, fold_balances, normalise_uid
from banker.rules.estate import Estate, apply, replay
from banker.undo import undo

from .ledger_backup import INTERVAL_SECONDS, Backups
from .ledger_schema import (
    APPLICATION_ID,
    take_writer_lock,
    connect,
    translate,
    SCHEMA_VERSION,
    TABLES,
    TX_COLUMNS,
    chain_hash,
    decode_settings,
    decode_transaction,
    encode_changes,
    encode_postings,
    encode_rules,
    statements,
)


class SqliteLedger:
    """The ledger port over SQLite. ``path`` is a file, or ``":memory:"`` for a throw-away game.

    A new file is created private (0600, its folder 0700) with one game started.
    ``clock`` gives wall-clock time (epoch seconds) for the journal's stamps.
    Raises :class:`CorruptLedger` when the file is not a banker ledger, and
    :class:`LedgerError` when it cannot be opened.
    """

    def __init__(
        self,
        path: str | os.PathLike = ":memory:",
        *,
        clock: Callable[[], float] = time.time,
        backups: bool = True,
        backup_interval: float = INTERVAL_SECONDS,
        writer: bool = True,
    ) -> None:
        self.path = str(path)
        self._clock = clock
        self._lock = None
        if writer or (self.path != ":memory:" and not Path(self.path).expanduser().exists()):
            self._connect_dir()
            self._lock = take_writer_lock(self.path)
        try:
            self._conn = self._connect()
        except BaseException:
            self._release()
            raise
        self._cards: list[Card] = []
        self._balances: dict[int, int] = {}
        self._estate: Estate | None = None
        self._game: Game | None = None
        self._last_hash = ""
        self._load()
        self.backups = Backups(self.path, interval=backup_interval) if backups and self.path != ":memory:" else None
        self.backup_error: str | None = None

    # -- opening -------------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        return connect(self.path)

    def _translate(self, exc: sqlite3.Error, doing: str) -> LedgerError:
        return translate(exc, self.path, doing)

    def _load(self) -> None:
        try:
            app_id = self._conn.execute("PRAGMA application_id").fetchone()[0]
            tables = {r[0] for r in self._conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if not tables:
                self._create()
            elif app_id != APPLICATION_ID or not TABLES <= tables:
                raise CorruptLedger(f"{self.path} is not a banker ledger")
            version = int(self._meta("schema"))
            if version != SCHEMA_VERSION:
                raise CorruptLedger(f"{self.path} has ledger schema {version}; this banker reads {SCHEMA_VERSION}")
            self._reload()
        except sqlite3.Error as exc:
            raise self._translate(exc, "read") from exc

    def _create(self) -> None:
        with self._transaction():
            for statement in statements():
                self._conn.execute(statement)
            self._conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
            self._conn.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            self._conn.execute("INSERT INTO meta VALUES ('head', '')")
            self._insert_game(GameSettings())

    def _reload(self) -> None:
        """Read the cards and the current game's journal into the caches."""
        rows = self._conn.execute("SELECT id, uid, name FROM cards WHERE removed = 0 ORDER BY id")
        self._cards = [Card(*row) for row in rows]
        self._deed_tags = dict(self._conn.execute("SELECT uid, slug FROM deed_tags"))
        self._game = self._read_game(int(self._meta("current_game")))
        journal = self.transactions(self._game.id)
        self._balances = fold_balances(journal)
        try:
            self._estate = replay(self.edition(), (tx.changes for tx in journal))
        except Refused as exc:
            raise CorruptLedger(f"{self.path}: the deeds in game {self._game.id} do not replay ({exc})") from exc
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
            self._conn.execute("COMMIT")
        except BaseException:
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
            raise

    # -- reading -------------------------------------------------------------------------

    def game(self) -> Game:
        assert self._game is not None
        return self._game

    def edition(self) -> Edition:
        """The deed set of the current game."""
        return load_edition(self.game().settings.edition)

    def estate(self) -> Estate:
        """Who owns which deed, buildings and mortgages in the current game."""
        assert self._estate is not None
        return self._estate

    def _read_game(self, game_id: int) -> Game:
        row = self._conn.execute(
            "SELECT id, started, start_balance, go_salary, allow_negative, rules FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        if row is None:
            raise LedgerError(f"there is no game {game_id}")
        gid, started, *settings = row
        count = self._conn.execute("SELECT count(*) FROM transactions WHERE game = ?", (gid,)).fetchone()[0]
        current = self._conn.execute("SELECT value FROM meta WHERE key='current_game'").fetchone()
        is_current = bool(current and int(current[0]) == gid)
        return Game(gid, decode_settings(*settings), started, is_current, count)

    def games(self) -> list[Game]:
        """Every game in the ledger, oldest first (archived ones included)."""
        counts = dict(self._conn.execute("SELECT game, count(*) FROM transactions GROUP BY game"))
        current = int(self._meta("current_game"))
        rows = self._conn.execute("SELECT id, started, start_balance, go_salary, allow_negative, rules FROM games ORDER BY id")
        return [Game(gid, decode_settings(*settings), started, gid == current, counts.get(gid, 0))
                for gid, started, *settings in rows]

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

    def balances_by_id(self) -> dict[int, int]:
        return {c.id: self.balance(c.id) for c in self._cards}

    def transactions(self, game_id: int | None = None) -> list[Transaction]:
        """The journal of ``game_id`` (default: the current game), in order."""
        gid = self.game().id if game_id is None else game_id
        rows = self._conn.execute(f"SELECT {TX_COLUMNS} FROM transactions WHERE game = ? ORDER BY id", (gid,))
        return [decode_transaction(row) for row in rows]

    def transaction(self, tx_id: int) -> Transaction:
        row = self._conn.execute(f"SELECT {TX_COLUMNS} FROM transactions WHERE id = ?", (tx_id,)).fetchone()
        if row is None:
            raise Refused(f"there is no transaction #{tx_id}")
        return decode_transaction(row)

    def card_names(self) -> dict[int, str]:
        """Every card id ever enrolled (removed ones too) with its name, for showing the journal."""
        return {cid: name for cid, name in self._conn.execute("SELECT id, name FROM cards")}

    def setting(self, key: str, default: str | None = None) -> str | None:
        row = self._conn.execute("SELECT value FROM meta WHERE key = ?", ("setting." + key,)).fetchone()
        return row[0] if row else default

    def deed_tags(self) -> dict[str, str]:
        """Deed RFID tags: UID -> deed slug."""
        return dict(self._deed_tags)

    def last_transaction(self) -> Transaction | None:
        """The current game's last transaction, if any."""
        row = self._conn.execute(f"SELECT {TX_COLUMNS} FROM transactions WHERE game = ? ORDER BY id DESC LIMIT 1",
                                 (self.game().id,)).fetchone()
        return decode_transaction(row) if row else None

    def check(self) -> None:
        """Raise :class:`CorruptLedger` if the caches differ from a fresh fold of the journal."""
        journal = self.transactions()
        fresh = {k: v for k, v in fold_balances(journal).items() if v}
        if fresh != {k: v for k, v in self._balances.items() if v}:
            raise CorruptLedger("the balance cache differs from the journal")
        if replay(self.edition(), (tx.changes for tx in journal)) != self._estate:
            raise CorruptLedger("the estate cache differs from the journal")

    def journal_rows(self) -> Iterator[tuple]:
        """Every journal row of every game with its stored hash, for verification."""
        yield from self._conn.execute(f"SELECT {TX_COLUMNS}, hash FROM transactions ORDER BY id")

    def verify(self) -> Audit:
        """Audit the whole journal: chain, missing rows, postings, undo links, money conserved, deeds replay."""
        cards = [r[0] for r in self._conn.execute("SELECT id FROM cards")]
        negative = {g.id: g.settings.allow_negative for g in self.games()}
        result = audit(self.journal_rows(), head=self.head(), cards=cards, negative_allowed=negative, chain_hash=chain_hash)
        for game in self.games():
            try:
                replay(load_edition(game.settings.edition), (tx.changes for tx in self.transactions(game.id)))
            except Refused as exc:
                result.problems.append(Problem(None, f"game {game.id}: the deeds do not replay ({exc})"))
        return result

    def head(self) -> str:
        """The hash of the last journal row, as recorded with it."""
        return self._meta("head")

    # -- writing -------------------------------------------------------------------------

    def post(self, tx: Transaction) -> Transaction:
        """Commit ``tx`` to the current game; returns it with its id, game and time.

        Its estate changes must fit the estate (else :class:`Refused`, nothing committed).
        """
        return self._commit([tx])[0]

    def _commit(self, txs: list[Transaction], before: Callable[[], None] | None = None) -> list[Transaction]:
        """Write ``txs`` (and whatever ``before`` writes) in one SQLite transaction, then update the caches."""
        estate = self._estate
        if before is None:
            for tx in txs:
                estate = apply(estate, tx.changes)
        written: list[Transaction] = []
        last_hash = self._last_hash
        try:
            with self._transaction():
                if before is not None:
                    before()
                game = self.game().id
                next_id = (self._conn.execute("SELECT max(id) FROM transactions").fetchone()[0] or 0) + 1
                for tid, tx in enumerate(txs, start=next_id):
                    stamp = self._clock()
                    row = (tid, game, stamp, tx.kind, tx.memo, tx.reverses, encode_postings(tx.postings), encode_changes(tx.changes))
                    last_hash = chain_hash(last_hash, row)
                    self._conn.execute("INSERT INTO transactions VALUES (?,?,?,?,?,?,?,?,?)", (*row, last_hash))
                    written.append(replace(tx, id=tid, game=game, time=stamp))
                self._conn.execute("UPDATE meta SET value = ? WHERE key = 'head'", (last_hash,))
        except sqlite3.Error as exc:
            raise self._translate(exc, "write to") from exc
        self._last_hash = last_hash
        for tx in written:
            for cid, delta in fold_balances([tx]).items():
                self._balances[cid] = self._balances.get(cid, 0) + delta
        current = self.game()
        if before is None:
            self._estate = estate
            self._game = replace(current, transactions=current.transactions + len(written))
        else:
            self._game = self._read_game(current.id)
        if self.backups is not None and before is None:
            self._backup(lambda: self.backups(self))
        return written

    def _backup(self, take: Callable[[], object]) -> None:
        """Take a backup; a failure (disk full) is noted in ``backup_error`` and never stops the game."""
        try:
            take()
            self.backup_error = None
        except (OSError, sqlite3.Error) as exc:
            self.backup_error = f"backup failed: {exc}"

    def undo(self, tx_id: int | None = None) -> Transaction:
        """Post the reversing entry of transaction ``tx_id`` (default: the game's last one); see :func:`banker.undo.undo`."""
        return undo(self, tx_id)

    def enrol(self, name: str, uid: str) -> Card:
        """Enrol a card for ``name`` and give it the current game's start balance, in one commit."""
        uid = normalise_uid(uid)
        name = name.strip()
        check_enrolment(self._cards, name, uid)
        if uid in self._deed_tags:
            raise Refused(f"card {uid} is a deed's tag")
        card_id = (self._conn.execute("SELECT max(id) FROM cards").fetchone()[0] or 0) + 1

        def insert_card() -> None:
            self._conn.execute("INSERT INTO cards VALUES (?,?,?,?,0)", (card_id, uid, name, self._clock()))

        opening = Transaction("opening", (Posting(BANK, card_id, self.game().settings.start_balance, "opening"),), f"{name} joins")
        self._commit([opening], before=insert_card)
        card = Card(card_id, uid, name)
        self._cards.append(card)
        return card

    def enrol_deed(self, slug: str, uid: str) -> None:
        """Give the title deed ``slug`` the RFID tag ``uid`` (replacing any tag it had)."""
        uid = normalise_uid(uid)
        self.edition().deed(slug)
        if self.card_by_uid(uid) is not None:
            raise Refused(f"card {uid} is {self.card_by_uid(uid).name}'s")
        try:
            with self._transaction():
                self._conn.execute("DELETE FROM deed_tags WHERE slug = ? OR uid = ?", (slug, uid))
                self._conn.execute("INSERT INTO deed_tags VALUES (?, ?)", (uid, slug))
        except sqlite3.Error as exc:
            raise self._translate(exc, "write to") from exc
        self._deed_tags = {u: s for u, s in self._deed_tags.items() if s != slug and u != uid} | {uid: slug}

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
            "INSERT INTO games (started, start_balance, go_salary, allow_negative, rules) VALUES (?,?,?,?,?)",
            (self._clock(), settings.start_balance, settings.go_salary, int(settings.allow_negative), encode_rules(settings)),
        )
        self._conn.execute("INSERT OR REPLACE INTO meta VALUES ('current_game', ?)", (str(cur.lastrowid),))
        return cur.lastrowid

    def new_game(self, settings: GameSettings | None = None) -> Game:
        """Archive the current game and start a new one: every enrolled card at the start balance.

        The archive, the new game and every opening balance are one commit.
        """
        settings = settings or self.game().settings
        load_edition(settings.edition)
        if self.backups is not None:
            self._backup(lambda: self.backups.take(self, "new-game"))
        saved = (self._game, self._balances, self._estate)

        def start() -> None:
            self._game = Game(self._insert_game(settings), settings, self._clock(), True)

        openings = [
            Transaction("opening", (Posting(BANK, c.id, settings.start_balance, "opening"),), f"{c.name} starts")
            for c in self._cards
        ]
        self._balances = {}
        try:
            self._commit(openings, before=start)
        except BaseException:
            self._game, self._balances, self._estate = saved
            raise
        self._estate = Estate.new(self.edition())
        return self.game()

    def restore_game(self, game_id: int) -> Game:
        """Make an archived game current again (the present one stays archived)."""
        self._read_game(game_id)
        self._write("INSERT OR REPLACE INTO meta VALUES ('current_game', ?)", (str(game_id),))
        self._reload()
        return self.game()

    # -- lifetime ------------------------------------------------------------------------

    def close(self) -> None:
        self._conn.close()
        self._release()

    def _connect_dir(self) -> None:
        if self.path != ":memory:":
            try:
                Path(self.path).expanduser().resolve().parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            except OSError as exc:
                raise LedgerError(f"cannot create the ledger {self.path}: {exc.strerror}") from exc

    def _release(self) -> None:
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None

    def __enter__(self) -> "SqliteLedger":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
