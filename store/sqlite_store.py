"""The durable store: the journal of records, append-only, in one SQLite file (schema version 2).

Each record is one row, committed in its own SQLite transaction (WAL,
``synchronous=FULL``) together with the chain's new head before
:meth:`SqliteStore.append` returns, so a power cut leaves the whole record
or none of it. Each row's hash chains over the row before it and the head
is kept beside them, so an edited, missing or cut-off row is detectable
(:meth:`SqliteStore.verify`). The store holds no rules and no game: the game
is the fold of :meth:`SqliteStore.records` (:func:`banker.game.replay`).

>>> from banker.records import Setting
>>> with SqliteStore(":memory:", clock=lambda: 1.0) as store:
...     store.append(Setting("volume", "3"))
...     [r.value for r in store.records()]
Setting(key='volume', value='3', time=1.0)
['3']
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from contextlib import contextmanager
from typing import Callable, Iterator

from banker.audit import Audit, Problem
from banker.errors import CorruptLedger, LedgerError
from banker.records import NewGame, Record, Transaction, transactions_in

from .backups import INTERVAL_SECONDS, Backups
from .codec import stamped
from .journal import GameRow, Row, decode_row, make_row, names_of, verify_rows
from .lock import release_writer_lock, take_writer_lock
from .migrate import V1_PROBLEMS, migrate_v1
from .schema import (
    ROW_COLUMNS,
    connect,
    create,
    file_path,
    insert_row,
    make_folder,
    meta,
    read_snapshot,
    schema_version,
    tables,
    translate,
    write_transaction,
)


class SqliteStore:
    """The store port over SQLite. ``path`` is a file, or ``":memory:"`` for a throw-away ledger.

    A new file is created private (0600, its folder 0700) and empty. A
    ledger of schema 1 is moved to schema 2 when opened (a copy of it kept as
    ``<path>.v1-backup``). ``clock`` gives wall-clock time (epoch seconds)
    for the records' stamps. ``writer=True`` takes the writer lock
    (:class:`store.lock.LedgerInUse` if a running unit has it); a reader
    (``writer=False``) takes none and cannot append. Raises
    :class:`CorruptLedger` when the file is not a banker ledger, and
    :class:`LedgerError` when it cannot be opened.
    """

    def __init__(
        self,
        path: str | os.PathLike = ":memory:",
        *,
        writer: bool = True,
        clock: Callable[[], float] = time.time,
        backups: bool = True,
        backup_interval: float = INTERVAL_SECONDS,
    ) -> None:
        self.path = str(path)
        self.writer = writer
        self._clock = clock
        self._lock: int | None = None
        creating = self.path != ":memory:" and not file_path(self.path).exists()
        if writer or creating:
            make_folder(self.path)
            self._lock = take_writer_lock(self.path)
        try:
            self._conn = connect(self.path)
            try:
                self._open()
            except BaseException:
                self._conn.close()
                raise
        except BaseException:
            self._release()
            raise
        self.backups: Backups | None = (Backups(self.path, interval=backup_interval)
                                        if backups and self.path != ":memory:" else None)
        self.backup_error: str | None = None

    # -- opening -------------------------------------------------------------------------

    def _open(self) -> None:
        try:
            if not tables(self._conn):
                create(self._conn)
            if schema_version(self._conn, self.path) == 1:  # else SCHEMA_VERSION: it refuses others
                self._migrate()
            if meta(self._conn, "head") is None:
                raise CorruptLedger(f"{self.path} has no 'head' entry")
        except sqlite3.Error as exc:
            raise translate(exc, self.path, "read") from exc

    def _migrate(self) -> None:
        """Move a schema 1 ledger to schema 2, holding the writer lock meanwhile (a reader takes it for this)."""
        borrowed = take_writer_lock(self.path) if self._lock is None else None
        try:
            migrate_v1(self._conn, self.path, clock=self._clock)
        except sqlite3.Error as exc:
            raise translate(exc, self.path, "update") from exc
        except OSError as exc:
            if isinstance(exc, LedgerError):
                raise
            raise LedgerError(f"cannot keep a copy of {self.path} before updating it: {exc.strerror}") from exc
        finally:
            release_writer_lock(borrowed)

    # -- reading -------------------------------------------------------------------------

    def _rows(self, where: str = "", args: tuple = ()) -> list[Row]:
        try:
            found = self._conn.execute(f"SELECT {ROW_COLUMNS} FROM journal {where} ORDER BY seq", args).fetchall()
        except sqlite3.Error as exc:
            raise translate(exc, self.path, "read") from exc
        return [Row(*r) for r in found]

    def _decoded(self, rows: list[Row]) -> Iterator[Record]:
        for row in rows:
            try:
                yield decode_row(row)
            except CorruptLedger as exc:
                raise CorruptLedger(f"{self.path}: {exc}") from exc

    def _scalar(self, sql: str, args: tuple = ()):
        try:
            row = self._conn.execute(sql, args).fetchone()
        except sqlite3.Error as exc:
            raise translate(exc, self.path, "read") from exc
        return row[0] if row else None

    def records(self, since: int = 0) -> Iterator[Record]:
        """Every record after entry ``since`` (0: all), in the order they were appended, with their times."""
        return self._decoded(self._rows("WHERE seq > ?", (since,)))

    def last_seq(self) -> int:
        """The number of the last entry (0 when the journal is empty)."""
        return self._scalar("SELECT max(seq) FROM journal") or 0

    def is_empty(self) -> bool:
        return self.last_seq() == 0

    def head(self) -> str:
        """The hash of the last journal row, as recorded beside the journal ("" when empty)."""
        try:
            value = meta(self._conn, "head")
        except sqlite3.Error as exc:
            raise translate(exc, self.path, "read") from exc
        if value is None:
            raise CorruptLedger(f"{self.path} has no 'head' entry")
        return value

    def game_transactions(self, game_id: int) -> list[Transaction]:
        """All transactions of game ``game_id``, in order (openings included)."""
        rows = self._rows("WHERE game = ? AND kind IN ('tx', 'enrol', 'new-game')", (game_id,))
        return [tx for record in self._decoded(rows) for tx in transactions_in(record) if tx.game == game_id]

    def transaction(self, tx_id: int) -> Transaction | None:
        """Transaction number ``tx_id``, wherever it is (an enrolment's or a new game's opening too); None if none."""
        seq = self._scalar("SELECT seq FROM journal_tx WHERE tx = ?", (tx_id,))
        if seq is None:
            return None
        found = [tx for record in self._decoded(self._rows("WHERE seq = ?", (seq,)))
                 for tx in transactions_in(record) if tx.id == tx_id]
        return found[0] if found else None

    def games(self) -> list[GameRow]:
        """Every game of the ledger, oldest first, with its transaction count."""
        with self._snapshot():
            counts = dict(self._conn.execute(
                "SELECT j.game, count(*) FROM journal_tx t JOIN journal j ON j.seq = t.seq GROUP BY j.game"))
            rows = self._rows("WHERE kind = 'new-game'")
        started = [r for r in self._decoded(rows) if isinstance(r, NewGame)]
        return [GameRow(g.game, g.settings, g.time, counts.get(g.game, 0))
                for g in sorted(started, key=lambda g: g.game)]

    def card_names(self) -> dict[int, str]:
        """Every card ever enrolled (removed ones too) with its latest name."""
        return names_of(self._decoded(self._rows("WHERE kind IN ('enrol', 'rename')")))

    def verify(self) -> Audit:
        """Audit the whole journal: chain, missing and cut-off rows, the transaction index, and the content."""
        with self._snapshot():
            rows, head = self._rows(), self.head()
            earlier = [Problem(tx, message) for tx, message in json.loads(self._meta_or(V1_PROBLEMS, "[]"))]
            index = set(self._conn.execute("SELECT tx, seq FROM journal_tx"))
        result = verify_rows(rows, head=head, earlier=earlier)
        expected = set()
        for row in rows:
            try:
                expected |= {(tx.id, row.seq) for tx in transactions_in(decode_row(row))}
            except CorruptLedger:
                expected |= {pair for pair in index if pair[1] == row.seq}  # reported by verify_rows
        if index != expected:
            result.problems.append(Problem(None, "the index of transaction numbers differs from the journal"))
        return result

    @contextmanager
    def _snapshot(self) -> Iterator[None]:
        """Reads that see one committed state; SQLite errors as ledger errors."""
        try:
            with read_snapshot(self._conn):
                yield
        except sqlite3.Error as exc:
            raise translate(exc, self.path, "read") from exc

    def _meta_or(self, key: str, default: str) -> str:
        try:
            value = meta(self._conn, key)
        except sqlite3.Error as exc:
            raise translate(exc, self.path, "read") from exc
        return default if value is None else value

    # -- writing -------------------------------------------------------------------------

    def append(self, record: Record) -> Record:
        """Write ``record`` as the journal's next entry; returns it stamped with its time, once durable.

        Raises :class:`LedgerError` (the disk is full, the file is locked)
        with nothing written. A new game takes a backup before it starts;
        other records, an interval backup when one is due after them.
        """
        if not self.writer:
            raise LedgerError(f"{self.path} is open for reading only")
        done = stamped(record, float(self._clock()))
        if isinstance(done, NewGame) and self.backups is not None:
            self._backup(lambda: self.backups.take(self._conn, "new-game"))
        try:
            with write_transaction(self._conn):
                previous = meta(self._conn, "head")
                if previous is None:
                    raise CorruptLedger(f"{self.path} has no 'head' entry")
                seq = (self._conn.execute("SELECT max(seq) FROM journal").fetchone()[0] or 0) + 1
                insert_row(self._conn, make_row(previous, seq, done), [tx.id for tx in transactions_in(done)])
        except sqlite3.Error as exc:
            raise translate(exc, self.path, "write to") from exc
        if self.backups is not None and not isinstance(done, NewGame):
            self._backup(lambda: self.backups(self._conn))
        return done

    def _backup(self, take: Callable[[], object]) -> None:
        """Take a backup; a failure (disk full) is noted in ``backup_error`` and never stops the game."""
        try:
            take()
            self.backup_error = None
        except (OSError, sqlite3.Error) as exc:
            self.backup_error = f"backup failed: {exc}"

    # -- lifetime ------------------------------------------------------------------------

    def close(self) -> None:
        self._conn.close()
        self._release()

    def _release(self) -> None:
        release_writer_lock(self._lock)
        self._lock = None

    def __enter__(self) -> "SqliteStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
